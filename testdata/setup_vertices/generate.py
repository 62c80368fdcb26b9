#!/usr/bin/env python3
"""Regenerates the expected data of crates/sinew-formats/tests/all/vertices_setup.rs.

Usage: python3 generate.py ORACLE_DIR FIXTURES_DIR
  ORACLE_DIR: a copy of shared/oracle/spine with `npm install` done (spine-core 4.2.119)
  FIXTURES_DIR: shared/fixtures

For each case it runs `node dump.mjs SKELETON [--skin S] --times 0 --round 6` (setup pose:
one 0 s step, Physics.update) and keeps, per slot in draw order, the attachment name and
its world vertices (rounded to 4 decimals; the test's tolerance is 1e-2) or point. Cases
marked `steps` also run `--times 0:0.5:0.1` (setup-pose stepping: one 0 s step, then 1/60 s
steps) and keep every bone's world transform at each sampled time plus the slot vertices at
the last one, in NAME.steps.json.
"""
import json, os, subprocess, sys

CASES = [  # (output name, skeleton path under spine/, skin or None, stepping case)
    ("alien-pro", "alien/alien-pro.json", None, False),
    ("celestial-circus-pro", "celestial-circus/celestial-circus-pro.json", None, True),
    ("chibi-stickers", "chibi-stickers/chibi-stickers.json", None, False),
    ("chibi-stickers__mario", "chibi-stickers/chibi-stickers.json", "mario", False),
    ("cloud-pot", "cloud-pot/cloud-pot.json", None, True),
    ("coin-pro", "coin/coin-pro.json", None, False),
    ("goblins-ess", "goblins/goblins-ess.json", None, False),
    ("goblins-pro", "goblins/goblins-pro.json", None, False),
    ("goblins-pro__goblin", "goblins/goblins-pro.json", "goblin", False),
    ("mix-and-match-pro", "mix-and-match/mix-and-match-pro.json", None, False),
    ("mix-and-match-pro__full-skins_girl", "mix-and-match/mix-and-match-pro.json", "full-skins/girl", False),
    ("mix-and-match-pro__combo", "mix-and-match/mix-and-match-pro.json",
     "skin-base,clothes/hoodie-orange,hair/brown,eyes/green,nose/short,legs/pants-jeans,accessories/backpack", False),
    ("owl-pro", "owl/owl-pro.json", None, False),
    ("powerup-pro", "powerup/powerup-pro.json", None, False),
    ("raptor-pro", "raptor/raptor-pro.json", None, False),
    ("snowglobe-pro", "snowglobe/snowglobe-pro.json", None, True),
    ("speedy-ess", "speedy/speedy-ess.json", None, False),
    ("spineboy-ess", "spineboy/spineboy-ess.json", None, False),
    ("spineboy-pro", "spineboy/spineboy-pro.json", None, False),
    ("spinosaurus-ess", "spinosaurus/spinosaurus-ess.json", None, False),
    ("stretchyman-pro", "stretchyman/stretchyman-pro.json", None, True),
    ("constraints-lab", "synthetic/constraints-lab.json", None, True),
    ("timelines-lab", "synthetic/timelines-lab.json", None, False),
    ("timelines-lab__extra", "synthetic/timelines-lab.json", "extra", False),
    ("tank-pro", "tank/tank-pro.json", None, True),
    ("vine-pro", "vine/vine-pro.json", None, True),
    ("windmill-ess", "windmill/windmill-ess.json", None, False),
]


def r(v, n):
    v = round(v, n)
    return 0.0 if v == 0 else v


def dump(oracle, skeleton, skin, times):
    args = ["node", os.path.join(oracle, "dump.mjs"), skeleton, "--times", times, "--round", "6"]
    if skin:
        args += ["--skin", skin]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def slots(frame):
    out = []
    for s in frame["slots"]:
        e = {"slot": s["slot"], "attachment": s.get("attachment")}
        if "vertices" in s:
            e["vertices"] = [r(v, 4) for v in s["vertices"]]
        if "point" in s:
            p = s["point"]
            e["point"] = [r(p["x"], 4), r(p["y"], 4), r(p["rotation"], 4)]
        out.append(e)
    return out


def main(oracle, fixtures):
    here = os.path.dirname(os.path.abspath(__file__))
    for name, skel, skin, steps in CASES:
        path = os.path.join(fixtures, "spine", skel)
        args = ["--times", "0", "--round", "6"] + (["--skin", skin] if skin else [])
        d = dump(oracle, path, skin, "0")
        case = {"skeleton": "spine/" + skel, "skin": skin.split(",") if skin else None,
                "dump_args": args, "slots": slots(d["frames"][0])}
        with open(os.path.join(here, name + ".json"), "w") as f:
            json.dump(case, f, separators=(",", ":"))
        if steps:
            d = dump(oracle, path, skin, "0:0.5:0.1")
            frames = [{"time": fr["time"], "step": fr["step"],
                       "bones": [[r(b[k], 6) for k in ("a", "b", "c", "d", "worldX", "worldY")] for b in fr["bones"]]}
                      for fr in d["frames"]]
            case = {"skeleton": "spine/" + skel, "skin": skin.split(",") if skin else None,
                    "dump_args": ["--times", "0:0.5:0.1", "--round", "6"] + (["--skin", skin] if skin else []),
                    "bone_names": [b["name"] for b in d["frames"][0]["bones"]],
                    "frames": frames, "last_slots": slots(d["frames"][-1])}
            with open(os.path.join(here, name + ".steps.json"), "w") as f:
                json.dump(case, f, separators=(",", ":"))
        print(name)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
