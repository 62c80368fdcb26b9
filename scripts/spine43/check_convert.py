#!/usr/bin/env python3
"""Checks `sinew convert --spine 4.3` (and, with --skel, sinew's 4.3 `.skel` writer) against
the official Spine 4.3 runtime: every case of the shared 4.3 golden MANIFEST is posed by
spine-core 4.3.13 (`dump43.mjs`, from an oracle copy with node_modules) on the file sinew
wrote from the 4.2 export, and compared with the shared 4.3 golden (made by the same runtime
on the converter-verified conversion) within the MANIFEST's tolerances.

    python3 scripts/spine43/check_convert.py --sinew target/debug/sinew \
        --oracle /path/to/oracle/spine43-copy [--fixtures ../shared/fixtures] [--skel]
"""
import argparse, json, os, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--sinew", required=True)
ap.add_argument("--oracle", required=True, help="a copy of oracle/spine43 with node_modules")
ap.add_argument("--fixtures", default=os.path.join(os.path.dirname(__file__), "../../../shared/fixtures"))
ap.add_argument("--skel", action="store_true",
                help="write .skel 4.3 instead of JSON (read by dump43_skel.mjs; f32 numbers, so "
                     "the 4.2 suites' tolerances: matrix 1e-3, positions 1e-2)")
a = ap.parse_args()

fx = os.path.abspath(a.fixtures)
man = json.load(open(os.path.join(fx, "spine43/golden/MANIFEST.json")))
tol = {"pos": 1e-2, "matrix": 1e-3} if a.skel else man["tolerance"]
here = os.path.dirname(os.path.abspath(__file__))
out = tempfile.mkdtemp(prefix="sinew43-")
written = {}
worst = {"pos": 0.0, "matrix": 0.0}
failed = 0


def cmp(g, s, path, errs):
    if isinstance(g, dict):
        for k, v in g.items():
            if k in ("meta",):
                continue
            if k not in s:
                errs.append(f"{path}.{k} missing")
                continue
            cmp(v, s[k], f"{path}.{k}", errs)
    elif isinstance(g, list):
        if len(g) != len(s):
            errs.append(f"{path}: length {len(s)} != {len(g)}")
            return
        for i, (x, y) in enumerate(zip(g, s)):
            cmp(x, y, f"{path}[{i}]", errs)
    elif isinstance(g, (int, float)) and not isinstance(g, bool) and isinstance(s, (int, float)):
        kind = "matrix" if path.rsplit(".", 1)[-1] in ("a", "b", "c", "d") else "pos"
        d = abs(g - s)
        worst[kind] = max(worst[kind], d)
        # The goldens are rounded to 5 decimals: allow that rounding on top.
        if d > tol[kind] + 1e-5:
            errs.append(f"{path}: {s} != {g} (diff {d:.3g})")
    elif g != s:
        errs.append(f"{path}: {s!r} != {g!r}")


for case in man["cases"]:
    skel = case["skeleton"]
    if skel not in written:
        src = os.path.join(fx, "spine", skel)
        dst = os.path.join(out, skel.replace(".json", ".skel" if a.skel else ".json"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        r = subprocess.run([a.sinew, "convert", src, dst, "--spine", "4.3"], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL {skel}: sinew convert: {r.stderr.strip()}")
            failed += 1
            written[skel] = None
            continue
        written[skel] = dst
    dst = written[skel]
    if dst is None:
        continue
    cmd = (["node", os.path.join(here, "dump43_skel.mjs"), os.path.abspath(a.oracle), dst] if a.skel
           else ["node", os.path.join(a.oracle, "dump43.mjs"), dst])
    r = subprocess.run([*cmd, *case["args"]], capture_output=True, text=True, cwd=a.oracle)
    if r.returncode != 0:
        print(f"FAIL {case['golden']}: the 4.3 runtime: {r.stderr.strip()[:300]}")
        failed += 1
        continue
    got = json.loads(r.stdout)
    want = json.load(open(os.path.join(fx, "spine43/golden", case["golden"])))
    errs = []
    cmp(want["frames"], got["frames"], "frames", errs)
    if errs:
        failed += 1
        print(f"FAIL {case['golden']}: {len(errs)} differences, first: {errs[:3]}")
    else:
        print(f"ok   {case['golden']}")
n = len(man["cases"])
print(f"{n - failed} of {n} cases match (worst pos {worst['pos']:.3g}, matrix {worst['matrix']:.3g}); files in {out}")
sys.exit(1 if failed else 0)
