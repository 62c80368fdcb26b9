"""Draws stickbot's art by code and packs it into a Spine atlas (two PNG pages).

Every image is made of simple shapes (rounded rectangles, capsules, circles, polygons) drawn
with signed distance functions and anti-aliased by their distance; no third-party images.
The atlas deliberately exercises what a Spine renderer must handle: two pages, regions stored
rotated by 90 degrees, whitespace-stripped regions (offsets and original size), and a page
with premultiplied alpha (`pma: true`).

Used by make_stickbot.py; writes stickbot.atlas, stickbot.png and stickbot_2.png.
"""
import math
import struct
import zlib

PX = 3  # pixels per rig unit


def clamp(v, a=0.0, b=1.0):
    return a if v < a else b if v > b else v


def sd_round_rect(x, y, cx, cy, hw, hh, r):
    qx, qy = abs(x - cx) - hw + r, abs(y - cy) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def sd_circle(x, y, cx, cy, r):
    return math.hypot(x - cx, y - cy) - r


def sd_segment(x, y, ax, ay, bx, by):
    px, py, dx, dy = x - ax, y - ay, bx - ax, by - ay
    t = clamp((px * dx + py * dy) / (dx * dx + dy * dy))
    return math.hypot(px - dx * t, py - dy * t)


def sd_polygon(x, y, pts):
    d = float("inf")
    inside = False
    n = len(pts)
    for i in range(n):
        ax, ay = pts[i]
        bx, by = pts[(i + 1) % n]
        d = min(d, sd_segment(x, y, ax, ay, bx, by))
        if (ay > y) != (by > y) and x < ax + (bx - ax) * (y - ay) / (by - ay):
            inside = not inside
    return -d if inside else d


class Image:
    """Straight-alpha RGBA float image; y down; coordinates in rig units (PX pixels each)."""

    def __init__(self, w_units, h_units):
        self.wu, self.hu = w_units, h_units
        self.w, self.h = int(round(w_units * PX)), int(round(h_units * PX))
        self.px = [[0.0, 0.0, 0.0, 0.0] for _ in range(self.w * self.h)]

    def draw(self, sdf, color, alpha=1.0):
        """Composites a shape (sdf in units, negative inside) with a colour over the image."""
        dynamic = callable(color)
        r, g, b = (0.0, 0.0, 0.0) if dynamic else color
        aa = 0.5 / PX
        for j in range(self.h):
            y = (j + 0.5) / PX
            row = j * self.w
            for i in range(self.w):
                x = (i + 0.5) / PX
                d = sdf(x, y)
                if d >= aa:
                    continue
                a = clamp((aa - d) / (2 * aa)) * alpha
                if dynamic:
                    r, g, b = color(x, y)
                p = self.px[row + i]
                out_a = a + p[3] * (1 - a)
                if out_a > 0:
                    for k, c in enumerate((r, g, b)):
                        p[k] = (c * a + p[k] * p[3] * (1 - a)) / out_a
                p[3] = out_a

    def outlined(self, sdf, fill, line=(0.16, 0.16, 0.21), width=1.0):
        self.draw(sdf, line)
        self.draw(lambda x, y: sdf(x, y) + width, fill)


def hexc(s):
    return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4))


LIGHT = hexc("eceef4")
MID = hexc("c4c8d4")
DARK = hexc("2a2a36")
BLUE = hexc("3f8fd8")
ORANGE = hexc("ff9a2e")


def limb(w, h, stripe=True, end=None):
    """A capsule along the image's height; the joint (proximal) end at the bottom."""
    img = Image(w, h)
    r = w / 2 - 0.6
    cap = lambda x, y: sd_segment(x, y, w / 2, r + 0.6, w / 2, h - r - 0.6) - r
    img.outlined(cap, LIGHT)
    img.draw(lambda x, y: sd_segment(x, y, w * 0.62, r + 2, w * 0.62, h - r - 2) - 0.7, MID)
    if stripe:
        img.draw(lambda x, y: max(cap(x, y) + 1.0, abs(y - h * 0.55) - 2.2), BLUE)
    img.outlined(lambda x, y: sd_circle(x, y, w / 2, h - r - 0.6, r * 0.55), MID, width=0.8)
    if end == "hand":
        img.outlined(lambda x, y: sd_circle(x, y, w / 2, r + 0.6, r * 0.95), ORANGE)
    if end == "foot":
        img.outlined(lambda x, y: sd_round_rect(x, y, w / 2 - 1.0, 3.6, w / 2 - 1.2, 3.0, 2.0), BLUE)
    return img


def head():
    img = Image(46, 50)
    body = lambda x, y: sd_round_rect(x, y, 23, 27, 21, 21, 7)
    img.draw(lambda x, y: sd_segment(x, y, 23, 2.5, 23, 8) - 1.0, DARK)
    img.outlined(lambda x, y: sd_circle(x, y, 23, 2.8, 2.2), ORANGE)
    img.outlined(body, LIGHT, width=1.2)
    img.draw(lambda x, y: max(body(x, y) + 1.2, -(y - 41)), MID)
    # The dark visor window (the glow is clipped to the visor polygon over it).
    visor = [(37, 37), (49, 31), (53, 17), (39, 13), (33, 25)]
    img.draw(lambda x, y: max(sd_polygon(x, y, visor) - 1.5, body(x, y) + 1.2), hexc("1d2230"))
    img.outlined(lambda x, y: sd_circle(x, y, 12, 27, 3.5), MID, width=0.8)
    return img


def torso():
    img = Image(32, 72)
    body = lambda x, y: sd_round_rect(x, y, 16, 36, 14.5, 35, 8)
    img.outlined(body, LIGHT, width=1.2)
    img.draw(lambda x, y: max(body(x, y) + 1.2, -(x - 22)), MID)
    img.outlined(lambda x, y: sd_round_rect(x, y, 16, 24, 8, 9, 2.5), hexc("1d2230"), width=0.8)
    img.draw(lambda x, y: sd_circle(x, y, 19.5, 21, 2.2), ORANGE)
    img.draw(lambda x, y: sd_circle(x, y, 12.5, 27, 1.4), BLUE)
    img.draw(lambda x, y: max(body(x, y) + 1.2, abs(y - 50) - 2.0), DARK)
    return img


def cape():
    img = Image(24, 64)
    shape = [(3, 1), (21, 1), (23.5, 58), (19, 63), (15, 59), (11, 63.5), (7, 59), (3, 63), (0.5, 58)]
    fold = lambda x, y: 0.78 + 0.22 * math.cos((x - 2) * 0.55)
    img.outlined(lambda x, y: sd_polygon(x, y, shape), lambda x, y: (fold(x, y),) * 3, line=(0.35, 0.35, 0.38), width=0.9)
    img.draw(lambda x, y: max(sd_polygon(x, y, shape) + 0.9, abs(y - 6) - 1.2), (0.55, 0.55, 0.58))
    return img


def hair():
    # Tapered strand, tip at the top, drawn inside a larger canvas (whitespace is stripped).
    img = Image(10, 36)
    strand = [(5, 1.5), (8.5, 20), (8.0, 33.5), (2.0, 33.5), (1.5, 20)]
    img.outlined(lambda x, y: sd_polygon(x, y, strand) - 0.5, (0.95, 0.95, 0.95), line=(0.45, 0.42, 0.35), width=0.8)
    img.draw(lambda x, y: max(sd_segment(x, y, 5, 6, 5, 31) - 0.5, sd_polygon(x, y, strand) + 1.0), (0.75, 0.72, 0.65))
    return img


def glow():
    img = Image(14, 14)
    def scan(x, y):
        k = 0.55 + 0.45 * (0.5 + 0.5 * math.cos(y * 2.4))
        return (k, k, k)
    img.draw(lambda x, y: sd_round_rect(x, y, 7, 7, 6.5, 6.5, 1.0), scan, alpha=0.9)
    return img


def to_bytes(img, premultiply):
    out = bytearray(img.w * img.h * 4)
    for i, (r, g, b, a) in enumerate(img.px):
        m = a if premultiply else 1.0
        out[4 * i:4 * i + 4] = bytes(int(round(clamp(c) * 255)) for c in (r * m, g * m, b * m, a))
    return out


def strip(img):
    """Tight bounds of non-transparent pixels: (left, top, width, height) in pixels."""
    xs, ys = [], []
    for j in range(img.h):
        for i in range(img.w):
            if img.px[j * img.w + i][3] > 0.0:
                xs.append(i)
                ys.append(j)
    if not xs:
        return 0, 0, img.w, img.h
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def write_png(path, w, h, rgba):
    raw = b"".join(b"\x00" + bytes(rgba[j * w * 4:(j + 1) * w * 4]) for j in range(h))

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def pack_page(name, entries, pma, out_dir):
    """entries: (region name, Image, rotate, strip). Returns the atlas text of the page."""
    placed = []
    for name_, img, rotate, stripped in entries:
        left, top, sw, sh = strip(img) if stripped else (0, 0, img.w, img.h)
        # Page footprint: a 90-degree region lies with width and height swapped.
        fw, fh = (sh, sw) if rotate else (sw, sh)
        placed.append([name_, img, rotate, stripped, (left, top, sw, sh), fw, fh])
    placed.sort(key=lambda p: -p[6])
    pad, x, y, shelf, width = 2, 2, 2, 0, 256
    while max(p[5] for p in placed) + 4 > width:
        width *= 2
    for p in placed:
        if x + p[5] + pad > width:
            x, y, shelf = 2, y + shelf + pad, 0
        p.append((x, y))
        x += p[5] + pad
        shelf = max(shelf, p[6])
    height = 1
    while height < y + shelf + pad:
        height *= 2
    page = bytearray(width * height * 4)
    lines = [name, f"\tsize: {width}, {height}", "\tfilter: Linear, Linear"]
    if pma:
        lines.append("\tpma: true")
    for name_, img, rotate, stripped, (left, top, sw, sh), fw, fh, (px, py) in sorted(placed, key=lambda p: p[0]):
        src = to_bytes(img, pma)
        for j in range(fh):
            for i in range(fw):
                if rotate:
                    # Stored rotated: packed (i, j) shows source column sw-1-j, row i.
                    sx, sy = left + sw - 1 - j, top + i
                else:
                    sx, sy = left + i, top + j
                s = 4 * (sy * img.w + sx)
                d = 4 * ((py + j) * width + px + i)
                page[d:d + 4] = src[s:s + 4]
        lines.append(name_)
        lines.append(f"\tbounds: {px}, {py}, {sw}, {sh}")
        if stripped:
            # Offsets: left and bottom whitespace, then the original size.
            lines.append(f"\toffsets: {left}, {img.h - top - sh}, {img.w}, {img.h}")
        if rotate:
            lines.append("\trotate: 90")
    write_png(f"{out_dir}/{name}", width, height, page)
    return "\n".join(lines) + "\n"


def write_atlas(out_dir):
    page1 = [
        ("head", head(), False, False),
        ("torso", torso(), False, False),
        ("neck", limb(10, 18, stripe=False), True, False),
        ("arm", limb(12, 38), True, False),
        ("forearm", limb(10, 36, stripe=False, end="hand"), True, False),
        ("leg", limb(14, 54), True, False),
        ("shin", limb(12, 56, stripe=False, end="foot"), True, False),
    ]
    page2 = [
        ("cape", cape(), True, False),
        ("hair", hair(), True, True),
        ("glow", glow(), False, True),
    ]
    text = pack_page("stickbot.png", page1, False, out_dir) + "\n" + pack_page("stickbot_2.png", page2, True, out_dir)
    with open(f"{out_dir}/stickbot.atlas", "w") as f:
        f.write(text)
