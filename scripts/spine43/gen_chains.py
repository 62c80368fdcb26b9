#!/usr/bin/env python3
"""Writes testdata/spine43/golden-chains/: Spine 4.3 crossfades interrupted mid-mix (mixing-from
chains 2 and 3 deep) on shared 4.3 fixtures, posed by spine-core 4.3.13 through
scripts/spine43/mix_options43.mjs (`--then NAME:DELAY:MIX` queues more entries on track 0,
`--chain-alpha` sets every track 0 entry's alpha), and their MANIFEST.json (the shape of the
shared golden manifest; skeleton paths relative to ../shared/fixtures/spine43).

    python3 scripts/spine43/gen_chains.py ORACLE_DIR [--check]

The cases hold timelines the next entry also keys while a later entry that does not key them
mixes in (4.3's hold-mix), with that later entry's mix duration above 0 or 0, the first entry's
own duration 0, entries with alpha below 1, a layer with alpha below 1 mixing in, at 60 and
30 fps steps. --check also poses every case without its --then entries and prints how far the
interruptions moved the pose (each must, or it tests nothing)."""
import json, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT.parent / "shared" / "fixtures" / "spine43"
OUT = ROOT / "testdata" / "spine43" / "golden-chains"
TIMES = "0.1,0.35,0.45,0.5,0.55,0.6,0.7,0.8,0.95,1.2"
BOY = "spineboy/spineboy-pro.json"
RAPTOR = "raptor/raptor-pro.json"
OWL = "owl/owl-pro.json"

# (golden name, skeleton, fps, args); every case starts `--from A --at 0.3 --mix 0.4`.
CASES = [
    # walk's legs held under run while aim (keys no legs) mixes in: 4.3 hold-mix, with
    # walk's own mix duration 0 (4.2 tested that one); then shoot interrupts: 3 deep.
    ("spineboy-pro__walk-run-aim-shoot", BOY, 60,
     ["--from", "walk", "--anim", "run", "--then", "aim:0.15:0.5,shoot:0.1:0.3"]),
    # run's leg timelines are keyed by walk below it too: held with the track blend.
    ("spineboy-pro__walk-run-jump-aim", BOY, 60,
     ["--from", "walk", "--anim", "run", "--then", "jump:0.1:0.6,aim:0.1:0.25"]),
    ("spineboy-pro__walk-run-jump-aim-30fps", BOY, 30,
     ["--from", "walk", "--anim", "run", "--then", "jump:0.1:0.6,aim:0.1:0.25"]),
    # The entry that would fade the hold out has mix duration 0: a plain hold.
    ("spineboy-pro__walk-run-jump-aim-mix0", BOY, 60,
     ["--from", "walk", "--anim", "run", "--then", "jump:0.1:0.5,aim:0.12:0"]),
    ("spineboy-pro__walk-run-jump-alpha", BOY, 60,
     ["--from", "walk", "--anim", "run", "--then", "jump:0.15:0.5", "--chain-alpha", "0.7"]),
    ("spineboy-pro__walk-run-jump-aim-alpha-30fps", BOY, 30,
     ["--from", "walk", "--anim", "run", "--then", "jump:0.1:0.6,aim:0.1:0.25",
      "--chain-alpha", "0.55"]),
    # A layer (alpha 0.5) mixing in from the empty animation over the chain.
    ("spineboy-pro__walk-run-jump-aim+shoot-layer", BOY, 60,
     ["--from", "walk", "--anim", "run", "--then", "jump:0.1:0.6,aim:0.1:0.25",
      "--layers", "shoot@0.5", "--layer-at", "0.2", "--layer-mix", "0.5"]),
    ("raptor-pro__walk-jump-roar-gun-grab", RAPTOR, 60,
     ["--from", "walk", "--anim", "jump", "--then", "roar:0.2:0.5,gun-grab:0.15:0.35"]),
    ("raptor-pro__walk-jump-roar-gun-grab-alpha-30fps", RAPTOR, 30,
     ["--from", "walk", "--anim", "jump", "--then", "roar:0.2:0.5,gun-grab:0.15:0.35",
      "--chain-alpha", "0.8"]),
    ("owl-pro__idle-left-up-blink", OWL, 60,
     ["--from", "idle", "--anim", "left", "--then", "up:0.1:0.5,blink:0.1:0.3"]),
]
XF = ["--at", "0.3", "--mix", "0.4"]


def pose(oracle, skel, args):
    cmd = ["node", str(ROOT / "scripts/spine43/mix_options43.mjs"), oracle, str(FIX / skel)]
    out = subprocess.run(cmd + args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def moved(a, b):
    """Largest bone matrix / position difference between two dumps."""
    m = p = 0.0
    for fa, fb in zip(a["frames"], b["frames"]):
        for ba, bb in zip(fa["bones"], fb["bones"]):
            m = max(m, *(abs(ba[k] - bb[k]) for k in "abcd"))
            p = max(p, abs(ba["worldX"] - bb["worldX"]), abs(ba["worldY"] - bb["worldY"]))
    return m, p


def main():
    oracle = sys.argv[1]
    check = "--check" in sys.argv
    OUT.mkdir(parents=True, exist_ok=True)
    cases = []
    for name, skel, fps, args in CASES:
        full = args + XF + ["--times", TIMES, "--fps", str(fps), "--round", "5"]
        doc = pose(oracle, skel, full)
        (OUT / f"{name}.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
        cases.append({"golden": f"{name}.json", "skeleton": skel, "animation": args[3],
                      "args": full})
        if check:
            i = full.index("--then")
            base = pose(oracle, skel, full[:i] + full[i + 2:])
            print(f"{name:<50} moved by the interruptions: |abcd| %.3g  |xy| %.3g"
                  % moved(doc, base))
    manifest = {
        "generator": "scripts/spine43/gen_chains.py (mix_options43.mjs on dump43.mjs, "
                     "spine-core 4.3.13); skeletons relative to ../shared/fixtures/spine43",
        "tolerance": {"pos": 0.0001, "matrix": 1e-05},
        "cases": cases,
    }
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")


main()
