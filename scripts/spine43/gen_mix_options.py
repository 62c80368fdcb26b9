#!/usr/bin/env python3
"""Writes testdata/spine43/golden-options/: poses of shared 4.3 fixtures with the Spine 4.3
track entry options set (additive layers, keepHold, mixInterpolation), made by spine-core
4.3.13 through scripts/spine43/mix_options43.mjs, and their MANIFEST.json (the shape of the
shared golden manifest; skeleton paths relative to ../shared/fixtures/spine43).

    python3 scripts/spine43/gen_mix_options.py ORACLE_DIR [--check-defaults]

ORACLE_DIR: ../shared/oracle/spine43 with the 4.3.13 package installed. --check-defaults
also poses every case without its options and prints how far the option moved the pose
(each case must differ from its defaults, or it tests nothing)."""
import json, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT.parent / "shared" / "fixtures" / "spine43"
OUT = ROOT / "testdata" / "spine43" / "golden-options"
TIMES = "0.1,0.2,0.35,0.5,0.8"
XF = ["--at", "0.3", "--mix", "0.4"]

# (golden name, skeleton, args, option args)
CASES = [
    ("owl-pro__idle+left-up-additive", "owl/owl-pro.json",
     ["--anim", "idle"], ["--layers", "left@0.6,up@0.4", "--additive"]),
    ("spineboy-pro__run+aim-additive", "spineboy/spineboy-pro.json",
     ["--anim", "run"], ["--layers", "aim@0.5", "--additive"]),
    ("spineboy-pro__walk+shoot-additive-mix-in", "spineboy/spineboy-pro.json",
     ["--anim", "walk"], ["--layers", "shoot@0.8", "--additive", "--layer-at", "0.1",
                          "--layer-mix", "0.3"]),
    ("raptor-pro__walk+gun-grab-additive", "raptor/raptor-pro.json",
     ["--anim", "walk"], ["--layers", "gun-grab@0.7", "--additive"]),
    ("alien-pro__run+hit-additive", "alien/alien-pro.json",
     ["--anim", "run"], ["--layers", "hit", "--additive"]),
    ("mix-and-match-pro__walk+dance-additive", "mix-and-match/mix-and-match-pro.json",
     ["--anim", "walk", "--skin", "full-skins/girl"], ["--layers", "dance@0.5", "--additive"]),
    ("celestial-circus-pro__wind-idle+wing-flap-additive",
     "celestial-circus/celestial-circus-pro.json",
     ["--anim", "wind-idle"], ["--layers", "wing-flap@0.5", "--additive"]),
    ("spineboy-pro__aim-to-death-smooth", "spineboy/spineboy-pro.json",
     ["--anim", "death", "--from", "aim"] + XF, ["--mix-interpolation", "smooth"]),
    ("raptor-pro__jump-to-roar-pow3", "raptor/raptor-pro.json",
     ["--anim", "roar", "--from", "jump"] + XF, ["--mix-interpolation", "pow:3"]),
    ("owl-pro__idle-to-left-circle", "owl/owl-pro.json",
     ["--anim", "left", "--from", "idle"] + XF, ["--mix-interpolation", "circle"]),
    ("mix-and-match-pro__dance-to-dress-up-powout2", "mix-and-match/mix-and-match-pro.json",
     ["--anim", "dress-up", "--from", "dance", "--skin", "full-skins/girl"] + XF,
     ["--mix-interpolation", "powOut:2"]),
    ("spineboy-pro__aim-to-death-keep-hold", "spineboy/spineboy-pro.json",
     ["--anim", "death", "--from", "aim"] + XF, ["--keep-hold"]),
    ("raptor-pro__jump-to-roar-keep-hold", "raptor/raptor-pro.json",
     ["--anim", "roar", "--from", "jump"] + XF, ["--keep-hold"]),
    ("spineboy-pro__walk-to-run+aim-all-options", "spineboy/spineboy-pro.json",
     ["--anim", "run", "--from", "walk"] + XF,
     ["--keep-hold", "--mix-interpolation", "slowFast", "--layers", "aim@0.6", "--additive",
      "--layer-at", "0.2", "--layer-mix", "0.3"]),
]


def pose(oracle, skel, args):
    cmd = ["node", str(ROOT / "scripts/spine43/mix_options43.mjs"), oracle, str(FIX / skel)]
    out = subprocess.run(cmd + args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


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
    oracle = sys.argv[1]
    check = "--check-defaults" in sys.argv
    OUT.mkdir(parents=True, exist_ok=True)
    cases = []
    for name, skel, args, options in CASES:
        full = args + options + ["--times", TIMES, "--fps", "60", "--round", "5"]
        doc = pose(oracle, skel, full)
        (OUT / f"{name}.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
        cases.append({"golden": f"{name}.json", "skeleton": skel, "animation": args[1],
                      "args": full})
        if check:
            # The same without the option under test: layers stay, only the flags go.
            plain = [a for a in options if a not in ("--additive", "--keep-hold")]
            if "--mix-interpolation" in plain:
                i = plain.index("--mix-interpolation")
                del plain[i:i + 2]
            base = pose(oracle, skel, args + plain + ["--times", TIMES, "--round", "5"])
            print(f"{name:<52} moved by the options: |abcd| %.3g  |xy| %.3g  |vert| %.3g"
                  % moved(doc, base))
    manifest = {
        "generator": "scripts/spine43/gen_mix_options.py (mix_options43.mjs on dump43.mjs, "
                     "spine-core 4.3.13); skeletons relative to ../shared/fixtures/spine43",
        "tolerance": {"pos": 0.0001, "matrix": 1e-05},
        "cases": cases,
    }
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")


main()
