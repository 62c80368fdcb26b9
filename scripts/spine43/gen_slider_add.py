#!/usr/bin/env python3
"""Writes the golden of testdata/spine43/slider-add-lab.json (Spine 4.3 additive sliders whose
clips key every timeline kind) with spine-core 4.3.13's dump43.mjs, and its case in
testdata/spine43/golden/MANIFEST.json (run by sinew-cli's golden_spine43_own).

    python3 scripts/spine43/gen_slider_add.py ORACLE_DIR [--check-kinds]

ORACLE_DIR: ../shared/oracle/spine43 with the 4.3.13 package installed. --check-kinds also
poses the rig with each timeline kind where Spine 4.2's add blend and 4.3's `add` differ
applied the 4.2 way (scripts/spine43/slider_add43.mjs --as-42 KIND) and prints how far that
moves the pose: each kind must move it, or the golden does not test it."""
import json, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIR = ROOT / "testdata" / "spine43"
SKEL = "slider-add-lab.json"
NAME = "slider-add-lab__move.json"
ARGS = ["--anim", "move", "--times",
        "0.016666666667,0.25,0.5,0.75,1,1.25,1.5,1.75,2,2.5,3,3.5",
        "--fps", "60", "--round", "5"]
KINDS = ["transform", "path-position", "path-mix", "wind", "gravity", "slider-time",
         "slider-mix", "all"]


def run(cmd):
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def moved(a, b):
    """Largest bone matrix / position and vertex difference between two dumps."""
    m = p = v = 0.0
    for fa, fb in zip(a["frames"], b["frames"]):
        for ba, bb in zip(fa["bones"], fb["bones"]):
            m = max(m, *(abs(ba[k] - bb[k]) for k in "abcd"))
            p = max(p, abs(ba["worldX"] - bb["worldX"]), abs(ba["worldY"] - bb["worldY"]))
        for sa, sb in zip(fa["slots"], fb["slots"]):
            for x, y in zip(sa.get("vertices", []), sb.get("vertices", [])):
                v = max(v, abs(x - y))
    return m, p, v


def main():
    oracle = Path(sys.argv[1]).resolve()
    doc = run(["node", str(oracle / "dump43.mjs"), str(DIR / SKEL)] + ARGS)
    (DIR / "golden" / NAME).write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    manifest_path = DIR / "golden" / "MANIFEST.json"
    manifest = json.loads(manifest_path.read_text())
    case = {"golden": NAME, "skeleton": SKEL, "animation": "move", "args": ARGS}
    cases = [c for c in manifest["cases"] if c["golden"] != NAME] + [case]
    manifest["cases"] = cases
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    if "--check-kinds" in sys.argv:
        script = str(ROOT / "scripts" / "spine43" / "slider_add43.mjs")
        same = run(["node", script, str(oracle), str(DIR / SKEL)] + ARGS)
        assert moved(doc, same) == (0.0, 0.0, 0.0), "slider_add43.mjs differs from dump43.mjs"
        weak = []
        for kind in KINDS:
            other = run(["node", script, str(oracle), str(DIR / SKEL)] + ARGS + ["--as-42", kind])
            m, p, v = moved(doc, other)
            print(f"{kind:<14} applied the 4.2 way moves the pose: |abcd| {m:.3g}  |xy| {p:.3g}"
                  f"  |vert| {v:.3g}")
            # Above the sinew-cli golden tolerances (matrix 1e-3, positions 1e-2).
            if m <= 1e-3 and p <= 1e-2 and v <= 1e-2:
                weak.append(kind)
        if weak:
            sys.exit(f"kinds the golden cannot tell apart: {weak}")


main()
