#!/usr/bin/env python3
"""Converted synthetic rigs posed by the official Spine runtime (spine-core 4.2.119 through
shared/oracle/spine/dump.mjs), so CI (no node) can check that `sinew convert` output poses
in Spine like the DragonBones goldens of this folder.

    cargo build -p sinew-cli
    cp -r ../shared/oracle/spine /tmp/spo && (cd /tmp/spo && npm install)
    python3 testdata/dragonbones/gen_spine.py /tmp/spo     # from the repository root

Writes spine/<rig>.json (the converted rig, y up) and spine/<golden> (the Spine dump of the
case the DragonBones golden of the same name samples) and spine/MANIFEST.json.
"""
import json, os, subprocess, sys

ORACLE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/spo"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SINEW = os.path.join(ROOT, "target", "debug", "sinew")
# (DragonBones golden, rig, Spine animation, mode, loop, Spine times). goto: the held twin
# applied at t mod duration (t == duration: just before it), as gotoAndStopByTime.
CASES = [
    ("wrap55__loop.json", "wrap55", "loop", "state", "true",
     [0.275, 0.875, 1.125, 1.575, 1.925, 2.475, 3.775]),
    ("wrap55__loop_goto.json", "wrap55", "loop (held end)", "apply", "false",
     [0.275, 1.125, 1.575, 1.925, 1.999999]),
    ("wrap55__once.json", "wrap55", "once", "state", "false", [0.375, 0.775, 1.525]),
    ("legacy50__spin.json", "legacy50", "spin", "state", "true",
     [0.375, 1.275, 1.675, 1.925, 2.575]),
]
out_dir = os.path.join(HERE, "spine")
os.makedirs(out_dir, exist_ok=True)
for rig in sorted({c[1] for c in CASES}):
    subprocess.run([SINEW, "convert", os.path.join(HERE, f"{rig}_ske.json"),
                    os.path.join(out_dir, f"{rig}.json")], check=True, capture_output=True)
cases = []
for golden, rig, anim, mode, loop, times in CASES:
    args = ["--anim", anim, "--times", ",".join(map(str, times)), "--mode", mode,
            "--loop", loop, "--fps", "60", "--round", "6"]
    out = subprocess.run(["node", os.path.join(ORACLE, "dump.mjs"),
                          os.path.join(out_dir, f"{rig}.json")] + args,
                         check=True, capture_output=True, text=True).stdout
    with open(os.path.join(out_dir, golden), "w") as f:
        json.dump(json.loads(out), f, separators=(",", ":"))
        f.write("\n")
    cases.append({"golden": golden, "rig": f"{rig}.json", "skeleton": f"{rig}_ske.json",
                  "animation": anim, "mode": mode, "loop": loop == "true", "times": times,
                  "args": args})
with open(os.path.join(out_dir, "MANIFEST.json"), "w") as f:
    json.dump({"generator": "testdata/dragonbones/gen_spine.py",
               "runtime": "@esotericsoftware/spine-core 4.2.119 through shared/oracle/spine/dump.mjs",
               "cases": cases}, f, indent=1)
    f.write("\n")
print(f"{len(cases)} Spine dumps written")
