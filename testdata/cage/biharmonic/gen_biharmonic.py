#!/usr/bin/env python3
"""Bounded biharmonic weights on the oracle's U cage, for sinew's biharmonic bind test.

Runs `bbw_point_handles` of the shared oracle (`oracle/mvc/gbc_extras.py`: libigl's BBW with
the cage vertices as point handles on a gpytoolbox/Triangle mesh, normalised) on two meshes,
and samples both at grid points strictly inside the cage by linear interpolation in the
triangle holding each point. Writes testdata/cage/biharmonic/bbw_ushape.json:
  {"cage", "points", "weights" (fine mesh), "weights_coarse", "areas", "spread"}
where `spread` is the largest difference between the two meshes (how far the oracle itself
is from converged), so the Rust test's tolerance can be read against it.

Run (numpy, scipy, libigl, gpytoolbox; the oracle lives outside the repository):
    python3 testdata/cage/biharmonic/gen_biharmonic.py ../shared/oracle/mvc testdata/cage/biharmonic
"""
import json
import os
import sys

import numpy as np

U = [[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3]]


def inside(p):
    x, y = p
    if not (0 < x < 3 and 0 < y < 3):
        return False
    return not (1 <= x <= 2 and y >= 1)


def sample(V, F, W, pts):
    out = []
    for p in pts:
        found = None
        for f in F:
            a, b, c = V[f[0]], V[f[1]], V[f[2]]
            m = np.array([[b[0] - a[0], c[0] - a[0]], [b[1] - a[1], c[1] - a[1]]])
            l1, l2 = np.linalg.solve(m, np.asarray(p) - a)
            l0 = 1 - l1 - l2
            if min(l0, l1, l2) >= -1e-12:
                found = l0 * W[f[0]] + l1 * W[f[1]] + l2 * W[f[2]]
                break
        if found is None:
            raise SystemExit(f"point {p} in no triangle")
        out.append(found)
    return np.array(out)


def main():
    oracle, outdir = sys.argv[1], sys.argv[2]
    sys.path.insert(0, oracle)
    import gbc_extras

    pts = []
    for i in range(1, 12):
        for j in range(1, 12):
            p = (round(0.25 * i, 6) - 0.125, round(0.25 * j, 6) - 0.125)
            if inside(p) and min(abs(p[0] - 1), abs(p[0] - 2), abs(p[1] - 1)) > 0.05:
                pts.append(p)
    areas = [0.002, 0.0005]
    res = []
    for a in areas:
        V, F, W = gbc_extras.bbw_point_handles(np.array(U, float), a, max_iter=100)
        res.append(sample(V, F, W, pts))
    coarse, fine = res
    spread = float(np.abs(coarse - fine).max())
    doc = {
        "_comment": "bbw_point_handles of oracle/mvc/gbc_extras.py (libigl bbw, point handles at the cage vertices, normalised) sampled at interior grid points; see gen_biharmonic.py",
        "cage": U,
        "points": [list(p) for p in pts],
        "weights": fine.round(8).tolist(),
        "weights_coarse": coarse.round(8).tolist(),
        "areas": areas,
        "spread": spread,
    }
    path = os.path.join(outdir, "bbw_ushape.json")
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(pts)} points, spread between meshes {spread:.4f}, wrote {path}")


if __name__ == "__main__":
    main()
