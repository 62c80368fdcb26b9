#!/usr/bin/env python3
"""Crafted and mutated inputs through every `sinew` verb (issue 12), with counts.

Usage: scripts/hostile_sweep.py [BINARY] [--cases N] [--seed S]

Each run has a 10 s timeout and a 4 GiB address-space cap (prlimit). Counted: panics
(`panicked`, `internal error`, signals), hangs (killed at 10 s), out of memory (allocation
failure under the cap), NaN outputs (a `null` where a dump frame holds a number, or
NaN/inf in text), and errors that name neither a file nor an option.
"""
import json, os, random, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STICK = os.path.join(ROOT, "examples/stickbot/stickbot.json")
FACE = os.path.join(ROOT, "examples/face/face.inp")
EXTREME = ["1e38", "-3.4e38", "3e38", "0", "-0", "1e-38", "1e300", "-1e300", "1e9", "-1", "4294967295"]
NON_NUMERIC_KEYS = {"attachment", "type", "name", "slot", "bone", "skin", "from", "animation", "anim",
                    "atlas", "clipEnd", "region", "loader", "fixMixShearY", "mixShearYKeysAffected",
                    "skeleton", "editorVersion", "hash", "puppet", "string", "display"}


def nulls(v, numeric=False):
    if v is None:
        return numeric
    if isinstance(v, list):
        return any(nulls(x, numeric) for x in v)
    if isinstance(v, dict):
        return any(nulls(x, k not in NON_NUMERIC_KEYS) for k, x in v.items())
    return False


def mutate_numbers(text, rng, n):
    # Replace n random numbers of a JSON text with extreme values.
    import re
    spans = [m.span() for m in re.finditer(r"(?<![\w.])-?\d+(\.\d+)?([eE][-+]?\d+)?", text)]
    for a, b in sorted(rng.sample(spans, min(n, len(spans))), reverse=True):
        text = text[:a] + rng.choice(EXTREME) + text[b:]
    return text


def cases(tmp, count, seed):
    rng = random.Random(seed)
    out = []
    stick = open(STICK).read()
    base = ["--anim", "walk"]
    # Crafted arguments.
    for opt, vals in [("--fps", ["1e9", "-1", "0", "inf", "nan", "1e-9"]),
                      ("--times", ["1e12", "0:1000000:0.5", "-1", "0:1e9:1", "inf"]),
                      ("--round", ["4000000000", "-1", "400", "20"]),
                      ("--mix", ["-1", "inf", "1e300"])]:
        for v in vals:
            out.append(["dump", STICK, *base, opt, v])
            out.append(["dump", FACE, opt, v])
    for opt, vals in [("--duration", ["inf", "1e9", "-1", "nan"]), ("--size", ["-5x-5", "16384x4096", "0x0", "99999x99999"]),
                      ("--scale", ["0", "-1", "1e300", "nan"]), ("--fps", ["1e9", "-1"])]:
        for v in vals:
            for f in [STICK, FACE]:
                args = ["render", f, "--out", os.path.join(tmp, "o.gif"), opt, v]
                if f == STICK:
                    args += ["--atlas", "none", *base]
                out.append(args)
    out.append(["render", STICK, "--atlas", "none", *base, "--out", os.path.join(tmp, "f%0999999d.png")])
    out.append(["bench", STICK, *base, "--instances", "4294967295"])
    out.append(["bench", STICK, *base, "--frames", "4294967295"])
    for p in ["/dev/zero", "/dev/null", tmp]:
        for verb in ["info", "validate", "dump", "lint"]:
            out.append([verb, p])
    fifo = os.path.join(tmp, "fifo.json")
    os.mkfifo(fifo)
    out += [["validate", fifo], ["dump", STICK, "--extras", fifo], ["render", STICK, "--atlas", fifo, *base, "--out", os.path.join(tmp, "x.png")]]
    out += [["dump", STICK, "--physics3", STICK], ["dump", FACE, "--extras", STICK], ["render", FACE, "--skin", "x", "--out", os.path.join(tmp, "x.png")],
            ["dump", FACE, "--param", "ParamAngle=0.5,NaN"], ["dump", STICK, "--anim", "nope"], ["render", STICK, "--atlas", "none", "--anim", "nope", "--out", os.path.join(tmp, "x.png")]]
    # Mutated rigs through every verb.
    k = 0
    while len(out) < count:
        text = mutate_numbers(stick, rng, rng.choice([1, 1, 2, 5, 20]))
        p = os.path.join(tmp, f"m{k}.json")
        k += 1
        open(p, "w").write(text)
        verb = rng.choice(["info", "validate", "dump", "dump-local", "render", "bench", "lint"])
        if verb == "dump":
            out.append(["dump", p, "--anim", rng.choice(["walk", "turn"]), "--times", "0:1:0.1"])
        elif verb == "dump-local":
            out.append(["dump", p, "--local", "--times", "0,0.5"])
        elif verb == "render":
            out.append(["render", p, "--atlas", "none", "--anim", "walk", "--times", "0,0.3", "--size", "64x64", "--out", os.path.join(tmp, f"r{k}.gif")])
        elif verb == "bench":
            out.append(["bench", p, "--anim", "walk", "--instances", "2", "--frames", "10", "--warmup", "1"])
        else:
            out.append([verb, p])
    # Cages.
    for name, cage in [("collinear", [[0, 0], [1, 1], [2, 2]]), ("bowtie", [[0, 0], [1, 1], [1, 0], [0, 1]]),
                       ("tiny", [[0, 0], [1e-300, 0], [0, 1e-300]]), ("far", [[0, 0], [1e300, 0], [0, 1]])]:
        p = os.path.join(tmp, f"{name}.json")
        json.dump({"loops": [cage], "points": [[0.1, 0.1]]}, open(p, "w"))
        out.append(["cage", "weights", p])
    return out


def run(binary, args, tmp):
    cmd = ["timeout", "-s", "KILL", "10", "prlimit", "--as=4294967296", "--", binary, *args]
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=30, cwd=tmp)
    except subprocess.TimeoutExpired:
        return "hang", args, ""
    err = r.stderr.decode(errors="replace")
    outp = r.stdout.decode(errors="replace")
    if r.returncode in (137, -9):
        return "hang", args, err[-200:]
    if "memory allocation" in err or "capacity overflow" in err and "panicked" not in err:
        return "oom", args, err[-200:]
    if r.returncode < 0 or r.returncode > 2 or "panicked" in err or "internal error" in err:
        return "panic", args, err[-300:]
    if r.returncode == 0:
        try:
            doc = json.loads(outp)
            bad = isinstance(doc, dict) and any(nulls(f) for f in doc.get("frames", []))
        except ValueError:
            import re
            bad = re.search(r"\b(NaN|-?inf)\b", outp) is not None
        return ("nan" if bad else "ok"), args, ""
    if args[0] == "lint" and r.returncode == 1 and outp:
        return "ok", args, ""  # lint's exit 1 means findings, not an error
    # An error: does it name a file or an option?
    names = [a for a in args if a.startswith("--")] + [os.path.basename(a) for a in args if os.sep in a]
    named = any(n in err for n in names)
    return ("ok-error" if named else "unnamed-error"), args, err[-200:]


def main():
    binary = os.path.join(ROOT, "target/debug/sinew")
    count, seed = 2000, 12
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a == "--cases":
            count = int(argv.pop(0))
        elif a == "--seed":
            seed = int(argv.pop(0))
        else:
            binary = a
    with tempfile.TemporaryDirectory() as tmp:
        cs = cases(tmp, count, seed)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            results = list(ex.map(lambda a: run(binary, a, tmp), cs))
    counts = {}
    for kind, args, err in results:
        counts[kind] = counts.get(kind, 0) + 1
        if kind not in ("ok", "ok-error"):
            print(f"{kind}: {' '.join(os.path.basename(a) if os.sep in a else a for a in args)} :: {err.strip()[:160]}")
    print(json.dumps({"cases": len(results), **counts}))


if __name__ == "__main__":
    main()
