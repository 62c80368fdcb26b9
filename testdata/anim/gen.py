#!/usr/bin/env python3
"""Regenerates the animation oracle data in this folder (used by
crates/sinew-formats/tests/all/anim_local.rs).

For each case it runs the official runtime through the shared oracle
    node $ORACLE/dump.mjs <fixture> <args> --local --no-vertices
and keeps only what animation writes: local bone values and inherit modes, the draw order
with each slot's attachment, colour, dark colour and sequence index, and the fired events.
Numbers keep 10 significant digits; a bone or slot row equal to the previous frame's row is
written as 0.

Usage (the oracle needs `npm install` once in its copy):
    cp -r /work/shared/oracle/spine /tmp/oracle-anim && (cd /tmp/oracle-anim && npm install)
    ORACLE=/tmp/oracle-anim FIXTURES=/work/shared/fixtures python3 testdata/anim/gen.py
"""
import json
import os
import subprocess
import sys

ORACLE = os.environ.get("ORACLE", "/tmp/oracle-anim")
FIXTURES = os.environ.get("FIXTURES", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "fixtures"))
HERE = os.path.dirname(os.path.abspath(__file__))

# (output name, fixture path under fixtures/spine, dump arguments)
CASES = [
    ("timelines-lab__apply", "synthetic/timelines-lab.json",
     ["--anim", "all-timelines", "--mode", "apply", "--times", "0:2.2:0.05"]),
    ("timelines-lab__state__extra", "synthetic/timelines-lab.json",
     ["--anim", "all-timelines", "--skin", "extra", "--times", "0:2.2:0.05"]),
    ("timelines-lab__once", "synthetic/timelines-lab.json",
     ["--anim", "all-timelines", "--loop", "false", "--times", "0:1.3:0.05"]),
    ("constraints-lab__apply", "synthetic/constraints-lab.json",
     ["--anim", "move", "--mode", "apply", "--times", "0:2:0.1"]),
    ("spineboy-pro__run__apply", "spineboy/spineboy-pro.json",
     ["--anim", "run", "--mode", "apply", "--times", "0:1.5:0.1"]),
    ("spineboy-pro__walk-to-run", "spineboy/spineboy-pro.json",
     ["--from", "walk", "--anim", "run", "--at", "0.3", "--mix", "0.2", "--times", "0:1.2:0.05"]),
    ("spineboy-pro__shoot-to-jump", "spineboy/spineboy-pro.json",
     ["--from", "shoot", "--anim", "jump", "--at", "0.1", "--mix", "0.4", "--loop", "false", "--times", "0:1.6:0.1"]),
    ("tank-pro__drive-to-shoot", "tank/tank-pro.json",
     ["--from", "drive", "--anim", "shoot", "--at", "0.5", "--mix", "0.3", "--times", "0:1.6:0.2"]),
    ("alien-pro__death__apply", "alien/alien-pro.json",
     ["--anim", "death", "--mode", "apply", "--times", "0:3:0.1"]),
    ("raptor-pro__walk-to-roar", "raptor/raptor-pro.json",
     ["--from", "walk", "--anim", "roar", "--at", "0.5", "--mix", "0.4", "--times", "0:1.5:0.1"]),
    ("owl-pro__idle__apply", "owl/owl-pro.json",
     ["--anim", "idle", "--mode", "apply", "--times", "0:2:0.1"]),
]


def rounded(v):
    """Numbers to 10 significant digits (keeps the files small; tests allow 1e-6)."""
    if isinstance(v, float):
        r = float("%.10g" % v)
        return int(r) if r == int(r) and abs(r) < 1e15 else r
    if isinstance(v, list):
        return [rounded(x) for x in v]
    if isinstance(v, dict):
        return {k: rounded(x) for k, x in v.items()}
    return v


def compact(dump, fixture, args):
    bones = [b["name"] for b in dump["frames"][0]["bones"]]
    frames = []
    prev_local, prev_slots = None, None
    for f in dump["frames"]:
        local = []
        for b in f["bones"]:
            l = b["local"]
            local.append([l["x"], l["y"], l["rotation"], l["scaleX"], l["scaleY"], l["shearX"], l["shearY"], l["inherit"]])
        slots = []
        for s in f["slots"]:
            row = [s["slot"], s["attachment"], s["color"], s.get("dark"), s.get("sequenceIndex")]
            slots.append(row)
        events = [[e["name"], e["time"], e["int"], e["float"], e["string"], e["animation"]] for e in f["events"]]
        local, slots = rounded(local), rounded(slots)
        # A row equal to the previous frame's row is written as 0.
        packed_local = [0 if prev_local and row == prev_local[i] else row for i, row in enumerate(local)]
        packed_slots = [0 if prev_slots and row == prev_slots[i] else row for i, row in enumerate(slots)]
        prev_local, prev_slots = local, slots
        frames.append({"time": f["time"], "local": packed_local, "slots": packed_slots, "events": events})
    return {
        "generator": "testdata/anim/gen.py",
        "command": "node dump.mjs " + fixture + " " + " ".join(args) + " --local --no-vertices",
        "runtime": dump["meta"]["runtime"],
        "skeleton": fixture,
        "args": args,
        "bones": bones,
        "frames": frames,
    }


def main():
    only = set(sys.argv[1:])
    for name, fixture, args in CASES:
        if only and name not in only:
            continue
        path = os.path.join(FIXTURES, "spine", fixture)
        cmd = ["node", os.path.join(ORACLE, "dump.mjs"), path] + args + ["--local", "--no-vertices"]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        data = compact(json.loads(out), fixture, args)
        with open(os.path.join(HERE, name + ".json"), "w") as fh:
            json.dump(data, fh, separators=(",", ":"))
            fh.write("\n")
        print(name, len(data["frames"]), "frames")


if __name__ == "__main__":
    main()
