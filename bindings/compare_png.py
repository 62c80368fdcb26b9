#!/usr/bin/env python3
"""Compares the C++ sample's PNG with the Rust CPU renderer's PNG of the same frame and view.

Usage: compare_png.py SAMPLE.png RUST.png CONTROL.png

Both images are decoded here (8-bit RGB or RGBA, non-interlaced; zlib from the standard
library, the five PNG row filters undone), premultiplied, and measured by:
  - IoU of the coverage masks (alpha >= 0.5): the silhouettes agree;
  - PSNR over the premultiplied RGBA channels (0..1, all pixels).
Thresholds (see MIN_IOU, MIN_PSNR) leave room for how the two rasterisers differ on purpose
(the sample takes one sample at each pixel centre; sinew-render covers exact areas, so edge
pixels differ by up to their partial coverage) and nothing else. CONTROL is the Rust render
of the same frame with the view moved by 4% of its width: it must fail a threshold, which
shows they can catch a misplaced or missing part.
"""

import math
import struct
import sys
import zlib

# Measured (2026-12-04) on spineboy `run`, frame 30, 256x256: IoU 0.9994, PSNR 29.8 dB; the
# control (view moved 4%, about 10 pixels) scores IoU 0.65, PSNR 11.7 dB. The PSNR margin
# (~6 dB) covers edge pixels of other poses and rigs (each differs by its partial coverage
# at most); a part missing, misplaced by a few pixels or drawn at another pose costs several
# percent of IoU and 5 dB or more.
MIN_IOU = 0.97
MIN_PSNR = 24.0


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n : pos + 12 + n])
        if zlib.crc32(kind + body) != crc:
            sys.exit(f"{path}: bad CRC in chunk {kind!r} at byte {pos}")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace != 0:
        sys.exit(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are read here")
    bpp = 4 if color == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
            elif f != 0:
                sys.exit(f"{path}: unknown filter {f} on row {y}")
        rows.append(line)
        prev = line
    px = []
    for line in rows:
        for x in range(w):
            p = line[x * bpp : (x + 1) * bpp]
            a = p[3] / 255 if bpp == 4 else 1.0
            px.append((p[0] / 255 * a, p[1] / 255 * a, p[2] / 255 * a, a))
    return w, h, px


def measure(a, b):
    (wa, ha, pa), (wb, hb, pb) = a, b
    if (wa, ha) != (wb, hb):
        sys.exit(f"sizes differ: {wa}x{ha} vs {wb}x{hb}")
    inter = union = 0
    se = 0.0
    for p, q in zip(pa, pb):
        ma, mb = p[3] >= 0.5, q[3] >= 0.5
        inter += ma and mb
        union += ma or mb
        se += sum((x - y) ** 2 for x, y in zip(p, q))
    mse = se / (4 * len(pa))
    iou = inter / union if union else 1.0
    psnr = float("inf") if mse == 0 else 10 * math.log10(1 / mse)
    return iou, psnr, union


def main():
    sample, rust, control = (read_png(p) for p in sys.argv[1:4])
    iou, psnr, covered = measure(sample, rust)
    ciou, cpsnr, _ = measure(control, rust)
    print(f"C++ PNG vs sinew render: IoU {iou:.4f}, PSNR {psnr:.2f} dB ({covered} covered pixels)")
    print(f"control (view moved 4%): IoU {ciou:.4f}, PSNR {cpsnr:.2f} dB")
    if covered < 500:
        sys.exit("too few covered pixels for a meaningful comparison")
    if iou < MIN_IOU or psnr < MIN_PSNR:
        sys.exit(f"the C++ render differs from Rust's: IoU {iou:.4f} (min {MIN_IOU}), PSNR {psnr:.2f} (min {MIN_PSNR})")
    if ciou >= MIN_IOU and cpsnr >= MIN_PSNR:
        sys.exit("the control passed the thresholds: they cannot tell images apart")


if __name__ == "__main__":
    main()
