#!/usr/bin/env python3
"""Random MVC test cages for sinew, weighed by the project's numpy oracle.

Writes testdata/cage/random_*.json in the oracle fixture format ({"loops", "points",
"weights", "tolerance_f64", "tolerance_f32"}): star-shaped and comb-shaped (strongly
concave) cages, cages with one or two clockwise holes, tiny and huge scales far from the
origin, and points inside, outside, exactly on vertices, on edges (including hole edges),
collinear with an edge outside it, and 1e-9 of the size away from edges and vertices.

Run (numpy needed; the oracle lives in the shared folder, outside the repository):
    python3 testdata/cage/gen_random.py ../shared/oracle/mvc testdata/cage
The output is deterministic for a given numpy version (seeded generator).
"""
import json
import math
import os
import sys

import numpy as np


def star(rng, n, scale, centre, rmin=0.4):
    gaps = rng.uniform(0.6, 1.4, n)
    ang = np.cumsum(gaps) / gaps.sum() * 2 * math.pi + rng.uniform(0, 2 * math.pi)
    r = scale * rng.uniform(rmin, 1.0, n)
    return np.c_[centre[0] + r * np.cos(ang), centre[1] + r * np.sin(ang)]


def comb(rng, teeth, scale, centre):
    """A comb (E/U-like) cage, CCW: base along y=0..1, `teeth` tall teeth up to y=h."""
    w = 1.0 / (2 * teeth - 1)
    h = rng.uniform(2.0, 4.0)
    pts = [[0.0, 0.0], [1.0, 0.0]]
    for k in range(teeth - 1, -1, -1):
        x1 = (2 * k + 1) * w
        x0 = 2 * k * w
        pts.append([x1, h])
        pts.append([x0, h])
        if k > 0:
            pts.append([x0, 1.0])
            pts.append([x0 - w, 1.0])
    p = np.array(pts, float)
    p[:, 0] *= scale
    p[:, 1] *= scale / h
    return p + np.asarray(centre)


def points_for(rng, loops, count):
    allv = np.concatenate(loops)
    lo, hi = allv.min(0), allv.max(0)
    span = hi - lo
    diam = float(np.hypot(*span))
    pts = list(rng.uniform(lo - 0.3 * span, hi + 0.3 * span, size=(count, 2)))
    pts.append(lo - 3.0 * span)  # far outside
    for L in loops:
        n = len(L)
        for _ in range(3):
            i = int(rng.integers(n))
            a, b = L[i], L[(i + 1) % n]
            t = rng.uniform(0.05, 0.95)
            pts.append(L[i].copy())                   # exactly a vertex
            pts.append(a + t * (b - a))               # on an edge
            pts.append(a + 1.7 * (b - a))             # collinear with the edge, outside it
            e = (b - a) / np.hypot(*(b - a))
            nrm = np.array([-e[1], e[0]])
            pts.append(a + t * (b - a) + 1e-9 * diam * nrm)    # just inside
            pts.append(a + t * (b - a) - 1e-9 * diam * nrm)    # just outside
            pts.append(L[i] + 1e-9 * diam * np.array([0.6, 0.8]))  # near a vertex
    return np.array(pts)


def main(oracle_dir, out_dir):
    sys.path.insert(0, oracle_dir)
    import mvc_oracle

    rng = np.random.default_rng(20240611)
    cases = []
    for k in range(4):
        n = int(rng.integers(3, 48))
        cases.append((f"star{k}", [star(rng, n, rng.uniform(0.5, 20), rng.uniform(-30, 30, 2), 0.2)]))
    for k in range(2):
        cases.append((f"comb{k}", [comb(rng, int(rng.integers(2, 5)), rng.uniform(1, 10), rng.uniform(-5, 5, 2))]))
    for k in range(3):
        n = int(rng.integers(8, 40))
        c = rng.uniform(-10, 10, 2)
        s = rng.uniform(1, 10)
        outer = star(rng, n, s, c, 0.7)
        holes = [star(rng, int(rng.integers(3, 9)), 0.12 * s, c + [0.3 * s, 0.0], 0.5)[::-1]]
        if k > 0:
            holes.append(star(rng, int(rng.integers(3, 9)), 0.12 * s, c - [0.3 * s, 0.0], 0.5)[::-1])
        cases.append((f"holes{k}", [outer] + holes))
    cases.append(("tiny_far", [star(rng, 12, 1e-3, [1000.0, -2000.0], 0.5)]))
    cases.append(("huge", [star(rng, 20, 5e4, [1e5, 3e5], 0.5)]))

    os.makedirs(out_dir, exist_ok=True)
    for name, loops in cases:
        pts = points_for(rng, loops, 40)
        lam = mvc_oracle.mvc(loops, pts)
        doc = {
            "description": "Random MVC test vectors for sinew (testdata/cage/gen_random.py, "
                           "weighed by oracle/mvc/mvc_oracle.py). Loops: outer CCW, holes CW.",
            "loops": [L.tolist() for L in loops],
            "points": pts.tolist(),
            "weights": lam.tolist(),
            "tolerance_f64": 1e-12,
            "tolerance_f32": 2e-5,
        }
        with open(os.path.join(out_dir, f"random_{name}.json"), "w") as fh:
            json.dump(doc, fh)
    print(f"wrote {len(cases)} files to {out_dir}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
