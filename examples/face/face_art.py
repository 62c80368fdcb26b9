"""Draws the face example's art by code: one small straight-alpha RGBA image per part.

Every image is built from signed distance functions (negative inside), anti-aliased by the
distance over one pixel, and composited "over" in the order drawn; no third-party images.
Images cover a rectangle of head space (the puppet's units, y down) at PX pixels per unit, so
make_face.py can lay each part's mesh over the same rectangle. `png()` is a minimal PNG
encoder (8-bit RGBA, filter Sub on every row, zlib level 9): deterministic bytes.
"""
import math
import struct
import zlib

PX = 1.25  # pixels per puppet unit


def clamp(v, a=0.0, b=1.0):
    return a if v < a else b if v > b else v


def mix(c0, c1, t):
    t = clamp(t)
    return tuple(a + (b - a) * t for a, b in zip(c0, c1))


def hexc(s):
    return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4))


# ---- distance functions ---------------------------------------------------------------------

def sd_circle(x, y, cx, cy, r):
    return math.hypot(x - cx, y - cy) - r


def sd_ellipse(x, y, cx, cy, rx, ry):
    # Not exact, but a distance near the edge (what the anti-aliasing needs).
    k = math.hypot((x - cx) / rx, (y - cy) / ry)
    return (k - 1.0) * min(rx, ry)


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


def smooth_union(a, b, k):
    h = clamp(0.5 + 0.5 * (b - a) / k)
    return b + (a - b) * h - k * h * (1.0 - h)


def quad(p0, p1, p2, n=12):
    """Points along a quadratic Bezier curve."""
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1.0 - t
        out.append((u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
                    u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1]))
    return out


def stroke(pts, w0, w1):
    """A polyline stroke whose half-width goes from w0 to w1 along it (a tapered line)."""
    segs = [(pts[i], pts[i + 1], w0 + (w1 - w0) * i / (len(pts) - 1),
             w0 + (w1 - w0) * (i + 1) / (len(pts) - 1)) for i in range(len(pts) - 1)]

    def sd(x, y):
        d = float("inf")
        for (a, b, wa, wb) in segs:
            px, py, dx, dy = x - a[0], y - a[1], b[0] - a[0], b[1] - a[1]
            t = clamp((px * dx + py * dy) / (dx * dx + dy * dy))
            d = min(d, math.hypot(px - dx * t, py - dy * t) - (wa + (wb - wa) * t))
        return d
    return sd


def tapered(pts, w0, w1=0.0):
    """A filled polygon around a centre line, half-width w0 at the start to w1 at the end."""
    left, right = [], []
    n = len(pts)
    for i, (x, y) in enumerate(pts):
        a, b = pts[max(i - 1, 0)], pts[min(i + 1, n - 1)]
        tx, ty = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(tx, ty) or 1.0
        w = w0 + (w1 - w0) * (i / (n - 1)) ** 0.9
        left.append((x - ty / ln * w, y + tx / ln * w))
        right.append((x + ty / ln * w, y - tx / ln * w))
    return left + right[::-1]


# ---- images ---------------------------------------------------------------------------------

class Image:
    """Straight-alpha RGBA floats over the head-space rectangle x0..x1, y0..y1 (y down)."""

    def __init__(self, x0, y0, x1, y1):
        self.w = int(round((x1 - x0) * PX))
        self.h = int(round((y1 - y0) * PX))
        # The rectangle is snapped to whole pixels so uvs map pixel edges exactly.
        self.x0, self.y0 = x0, y0
        self.x1, self.y1 = x0 + self.w / PX, y0 + self.h / PX
        self.px = [0.0] * (self.w * self.h * 4)

    def draw(self, sdf, color, box=None, alpha=1.0):
        """Composites a shape over the image; `color` is (r, g, b) or f(x, y, d) -> (r, g, b).
        `box` (x0, y0, x1, y1) bounds the shape, so only those pixels are visited."""
        bx0, by0, bx1, by1 = box or (self.x0, self.y0, self.x1, self.y1)
        i0 = max(int((bx0 - self.x0) * PX) - 2, 0)
        i1 = min(int((bx1 - self.x0) * PX) + 3, self.w)
        j0 = max(int((by0 - self.y0) * PX) - 2, 0)
        j1 = min(int((by1 - self.y0) * PX) + 3, self.h)
        dynamic = callable(color)
        aa = 0.5 / PX
        px = self.px
        for j in range(j0, j1):
            y = self.y0 + (j + 0.5) / PX
            for i in range(i0, i1):
                x = self.x0 + (i + 0.5) / PX
                d = sdf(x, y)
                if d >= aa:
                    continue
                a = clamp((aa - d) / (2 * aa)) * alpha
                r, g, b = color(x, y, d) if dynamic else color
                k = (j * self.w + i) * 4
                pa = px[k + 3]
                oa = a + pa * (1 - a)
                if oa > 0:
                    px[k] = (r * a + px[k] * pa * (1 - a)) / oa
                    px[k + 1] = (g * a + px[k + 1] * pa * (1 - a)) / oa
                    px[k + 2] = (b * a + px[k + 2] * pa * (1 - a)) / oa
                px[k + 3] = oa

    def png(self):
        """PNG bytes: 8-bit RGBA, filter Sub on each row, zlib level 9."""
        w, h = self.w, self.h
        raw = bytearray()
        q = [int(round(clamp(v) * 255)) for v in self.px]
        for j in range(h):
            row = q[j * w * 4:(j + 1) * w * 4]
            raw.append(1)
            raw.extend(row[:4])
            raw.extend((row[k] - row[k - 4]) & 255 for k in range(4, len(row)))

        def chunk(kind, data):
            c = struct.pack(">I", len(data)) + kind + data
            return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        return (b"\x89PNG\r\n\x1a\n"
                + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


# ---- palette --------------------------------------------------------------------------------

SKIN = hexc("ffe6d5")
SKIN_SHADE = hexc("f4c4b0")
BLUSH = hexc("ff9a9a")
LINE = hexc("5a3a36")
HAIR = hexc("6b4234")
HAIR_DARK = hexc("472a22")
HAIR_LIGHT = hexc("9a6650")
SHINE = hexc("c89a7e")
WHITE = hexc("ffffff")
EYE_SHADE = hexc("dfe4f2")
IRIS_TOP = hexc("1f3f78")
IRIS_BOTTOM = hexc("3fa3c8")
PUPIL = hexc("142040")
LASH = hexc("2e1c1c")
MOUTH = hexc("b84a52")
SHIRT = hexc("4f6fb0")
SHIRT_DARK = hexc("3b558c")
COLLAR = hexc("f2f2f6")


def hair_shade(top, bottom):
    """Hair colour by height with a darker rim near the edge of the shape."""
    def c(x, y, d):
        base = mix(HAIR_LIGHT, HAIR, (y - top) / (bottom - top) * 1.6)
        return mix(base, HAIR_DARK, clamp(1.0 + d / 6.0))
    return c


# ---- parts (head space: face centre at the origin, chin at y = 150) ------------------------

def face_shape(x, y):
    skull = sd_ellipse(x, y, 0, -10, 118, 128)
    jaw = sd_polygon(x, y, [(-114, -10), (114, -10), (96, 60), (42, 136), (0, 152),
                            (-42, 136), (-96, 60)])
    return smooth_union(skull, jaw, 14.0)


def face():
    img = Image(-128, -150, 128, 162)

    def skin(x, y, d):
        # Shade under the bangs and along the jaw.
        t = clamp((-d) / 10.0)
        c = mix(SKIN_SHADE, SKIN, t)
        return mix(c, SKIN_SHADE, clamp((-40 - y) / 50.0))
    img.draw(face_shape, skin)
    for sx in (-1, 1):
        img.draw(lambda x, y, sx=sx: sd_ellipse(x, y, 68 * sx, 66, 22, 10), BLUSH,
                 box=(68 * sx - 24, 54, 68 * sx + 24, 78), alpha=0.35)
        # A thin line under each eye.
        pts = quad((38 * sx, 46), (56 * sx, 52), (72 * sx, 44), 8)
        img.draw(stroke(pts, 0.9, 0.5), SKIN_SHADE, box=(min(38 * sx, 72 * sx), 40,
                                                         max(38 * sx, 72 * sx), 56))
    return img


def hair_back():
    img = Image(-165, -178, 165, 262)
    shape = lambda x, y: smooth_union(
        sd_ellipse(x, y, 0, -20, 150, 158),
        sd_polygon(x, y, [(-150, -20), (150, -20), (158, 250), (110, 236), (60, 256),
                          (0, 240), (-60, 256), (-110, 236), (-158, 250)]), 20.0)
    img.draw(shape, hair_shade(-178, 262))
    return img


def neck_body():
    img = Image(-170, -70, 170, 120)
    img.draw(lambda x, y: sd_polygon(x, y, [(-34, -70), (34, -70), (38, 40), (-38, 40)]),
             lambda x, y, d: mix(SKIN_SHADE, SKIN, (y + 40) / 80))
    shirt = lambda x, y: smooth_union(
        sd_polygon(x, y, [(-48, 14), (48, 14), (160, 60), (168, 130), (-168, 130), (-160, 60)]),
        sd_ellipse(x, y, 0, 120, 166, 80), 12.0)
    img.draw(shirt, lambda x, y, d: mix(SHIRT, SHIRT_DARK, clamp(1.0 + d / 8.0)))
    for sx in (-1, 1):
        img.draw(lambda x, y, sx=sx: sd_polygon(
            x, y, [(0, 44), (44 * sx, 10), (70 * sx, 26), (14 * sx, 70)]), COLLAR)
    img.draw(lambda x, y: sd_circle(x, y, 0, 74, 6), hexc("e05a6a"), box=(-8, 66, 8, 82))
    return img


def hair_top():
    """The cap over the skull; bangs hang from its lower edge."""
    img = Image(-150, -182, 150, -20)
    edge = [(-140, -30), (-120, -70), (-90, -86), (-60, -80), (-30, -92), (0, -84), (30, -92),
            (60, -80), (90, -86), (120, -70), (140, -30)]
    cap = lambda x, y: smooth_union(sd_ellipse(x, y, 0, -60, 142, 118),
                                    -sd_polygon(x, y, edge + [(140, 60), (-140, 60)]), -6.0)
    img.draw(cap, hair_shade(-182, 40))
    # The shine band ("angel ring").
    ring = lambda x, y: max(abs(sd_ellipse(x, y, 0, -40, 118, 118)) - 6.0, cap(x, y) + 4.0,
                            abs(x) - 88)
    img.draw(ring, SHINE, alpha=0.75)
    return img


def strand(x0, y0, x1, y1, bend, width):
    """A bang strand hanging from (x0, y0) to its tip at (x1, y1)."""
    pad = width + 4
    img = Image(min(x0, x1) - pad - abs(bend), y0 - 4, max(x0, x1) + pad + abs(bend), y1 + 4)
    mid = ((x0 + x1) / 2 + bend, (y0 + y1) / 2)
    pts = quad((x0, y0), mid, (x1, y1), 14)
    poly = tapered(pts, width, 0.6)
    sd = lambda x, y: sd_polygon(x, y, poly)
    img.draw(sd, hair_shade(y0 - 60, y1 + 40))
    img.draw(stroke(quad((x0, y0 + 6), mid, (x1, y1), 10)[:7], 1.6, 0.4), SHINE, alpha=0.5)
    return img


def eye_white(cx, cy, side):
    img = Image(cx - 30, cy - 26, cx + 30, cy + 24)
    shape = lambda x, y: smooth_union(
        sd_ellipse(x, y, cx, cy, 27, 22),
        sd_polygon(x, y, [(cx - 27 * side, cy - 4), (cx - 14 * side, cy - 20),
                          (cx + 24 * side, cy - 14), (cx + 26 * side, cy + 6)]), 4.0)
    img.draw(shape, lambda x, y, d: mix(EYE_SHADE, WHITE, (y - (cy - 22)) / 16))
    return img


def iris(cx, cy):
    img = Image(cx - 20, cy - 24, cx + 20, cy + 24)
    img.draw(lambda x, y: sd_ellipse(x, y, cx, cy, 17, 22),
             lambda x, y, d: mix(mix(IRIS_TOP, IRIS_BOTTOM, (y - cy + 16) / 34), PUPIL,
                                 clamp(1.0 + d / 2.5)))
    img.draw(lambda x, y: sd_ellipse(x, y, cx, cy - 2, 8, 11), PUPIL, alpha=0.85)
    img.draw(lambda x, y: sd_ellipse(x, y, cx, cy + 10, 11, 6), IRIS_BOTTOM, alpha=0.5)
    img.draw(lambda x, y: sd_circle(x, y, cx + 6, cy - 9, 5.0), WHITE)
    img.draw(lambda x, y: sd_circle(x, y, cx - 6, cy + 9, 2.5), WHITE, alpha=0.8)
    return img


def lash(cx, cy, side):
    """The upper lid line: a thick dark arc with a flick at the outer corner."""
    img = Image(cx - 36, cy - 32, cx + 36, cy - 4)
    pts = quad((cx - 29 * side, cy - 6), (cx - 4 * side, cy - 36), (cx + 29 * side, cy - 14), 14)
    img.draw(stroke(pts, 2.0, 4.0), LASH)
    flick = quad((cx + 27 * side, cy - 15), (cx + 32 * side, cy - 19), (cx + 34 * side, cy - 26), 5)
    img.draw(stroke(flick, 2.4, 0.8), LASH)
    return img


def brow(cx, cy, side):
    img = Image(cx - 28, cy - 12, cx + 28, cy + 8)
    pts = quad((cx - 24 * side, cy + 2), (cx, cy - 9), (cx + 24 * side, cy - 2), 10)
    img.draw(stroke(pts, 2.6, 1.0), HAIR_DARK)
    return img


def nose():
    img = Image(-10, 50, 10, 74)
    img.draw(stroke(quad((2, 56), (5, 64), (-1, 68), 6), 1.0, 1.6), SKIN_SHADE)
    img.draw(lambda x, y: sd_circle(x, y, 3, 60, 2.0), WHITE, alpha=0.5)
    return img


def mouth():
    img = Image(-24, 92, 24, 118)
    lip = lambda x, y: sd_polygon(x, y, quad((-15, 99), (0, 103), (15, 99), 8)
                                  + quad((15, 99), (0, 120), (-15, 99), 8)[1:-1])
    img.draw(lip, MOUTH)
    img.draw(lambda x, y: max(lip(x, y), sd_ellipse(x, y, 0, 112, 8, 4)), hexc("f08a90"))
    img.draw(stroke(quad((-18, 98), (0, 104), (18, 98), 10), 1.3, 1.3), LINE)
    return img
