#!/usr/bin/env python3
"""CPU time per skeleton-frame of sinew (four in lanes, and one by one) against the spine-c
anchor, interleaved rig by rig, round by round, so all three see the same machine load
(docs/PERFORMANCE.md). Needs the anchor built from ../shared/oracle/spine/rusty_spine_anchor
and a release sinew:

    cp -r ../shared/oracle/spine/rusty_spine_anchor /tmp/anchor && (cd /tmp/anchor && cargo build --release)
    cargo build --release -p sinew-cli --no-default-features
    python3 scripts/spine_rounds.py /tmp/anchor/target/release/spine_c_anchor target/release/sinew [ROUNDS] [RIG...]

Prints per rig the medians (us per skeleton-frame, thread CPU) and the median of the
per-round ratios to spine-c.
"""
import json, os, re, statistics, subprocess, sys

anchor, sinew = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
only = set(sys.argv[4:])
here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.environ.get("SINEW_FIXTURES", os.path.join(here, "..", "..", "shared", "fixtures"))
spine = os.path.join(fixtures, "spine")
RIGS = [
    ("spineboy", "spineboy/spineboy.atlas", "spineboy/spineboy-pro.json", "run", None),
    ("raptor", "raptor/raptor.atlas", "raptor/raptor-pro.json", "walk", None),
    ("tank", "tank/tank.atlas", "tank/tank-pro.json", "drive", None),
    ("mix-and-match", "mix-and-match/mix-and-match.atlas", "mix-and-match/mix-and-match-pro.json",
     "walk", "full-skins/girl"),
]
rigs = [r for r in RIGS if not only or r[0] in only]
res = {r[0]: {"c": [], "lanes": [], "one": []} for r in rigs}
for _ in range(rounds):
    for name, atlas, js, anim, skin in rigs:
        cmd = [anchor, "bench", atlas, js, anim, "100", "300", "1", "30"] + ([skin] if skin else [])
        out = subprocess.run(cmd, cwd=spine, capture_output=True, text=True, check=True).stdout
        res[name]["c"].append(float(re.search(r"CPU ([\d.]+) us/skeleton-frame", out).group(1)))
        for key, lanes in (("lanes", "1"), ("one", "0")):
            cmd = [sinew, "bench", js, "--anim", anim, "--instances", "100", "--frames", "300",
                   "--warmup", "30"] + (["--skin", skin] if skin else [])
            env = dict(os.environ, SINEW_BENCH_LANES=lanes)
            out = subprocess.run(cmd, cwd=spine, capture_output=True, text=True, env=env,
                                 check=True).stdout
            line = [l for l in out.splitlines() if l.startswith("{")][-1]
            res[name][key].append(json.loads(line)["us_per_skeleton_frame"])
for name, r in res.items():
    med = statistics.median
    ratio = lambda k: med([a / b for a, b in zip(r[k], r["c"])])
    print(f"{name}: spine-c {med(r['c']):.2f} us, lanes {med(r['lanes']):.2f} us, "
          f"one by one {med(r['one']):.2f} us; lanes / spine-c {ratio('lanes'):.2f}x, "
          f"one by one / spine-c {ratio('one'):.2f}x")
