#!/usr/bin/env python3
"""Crafted and mutated inputs through every `sinew` verb (issue 12), with counts.

Usage: scripts/hostile_sweep.py [BINARY] [--cases N] [--seed S] [--jobs J] [--show]

--show prints every case with its outcome (and the error), not only the failures.

Verbs: info, validate, dump, render, bench, lint, convert, cage weights/bind/deform. Inputs:
crafted arguments; Spine JSON, puppets (.inp), physics3 files and DragonBones skeletons with
extreme numbers; huge PNG headers (atlas pages and puppet textures); BOMs; special files;
formats under the wrong extension; then random number mutations of the stickbot rig.

Each run has a 10 s timeout and a 4 GiB address-space cap (prlimit). Counted: panics
(`panicked`, `internal error`, signals), hangs (killed at 10 s), out of memory (allocation
failure under the cap), NaN outputs (a `null` where a dump frame holds a number, or NaN/inf
in text), and unnamed errors: every case says which file or option is its culprit, and its
error must name that one (the file's name, or the option).
"""
import json, os, random, re, struct, subprocess, sys, tempfile, zlib
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STICK = os.path.join(ROOT, "examples/stickbot/stickbot.json")
EXTRAS = os.path.join(ROOT, "examples/stickbot/stickbot.extras.json")
FACE = os.path.join(ROOT, "examples/face/face.inp")
DRAGON = os.path.join(ROOT, "../shared/fixtures/dragonbones/dragon_boy/dragon_boy_ske.json")
EXTREME = ["1e38", "-3.4e38", "3e38", "0", "-0", "1e-38", "1e300", "-1e300", "1e9", "-1", "4294967295"]
NON_NUMERIC_KEYS = {"attachment", "type", "name", "slot", "bone", "skin", "from", "animation", "anim",
                    "atlas", "clipEnd", "region", "loader", "fixMixShearY", "mixShearYKeysAffected",
                    "skeleton", "editorVersion", "hash", "puppet", "string", "display", "format",
                    "runtime", "oracle", "mode", "physics"}
BOM = b"\xef\xbb\xbf"
TINY_DB = {"frameRate": 24, "name": "tiny", "version": "5.5", "armature": [{
    "type": "Armature", "frameRate": 24, "name": "A",
    "bone": [{"name": "root"}, {"name": "arm", "parent": "root", "length": 20, "transform": {"x": 5}}],
    "slot": [], "skin": [{"slot": []}],
    "animation": [{"duration": 12, "playTimes": 0, "name": "wave", "bone": [{"name": "arm", "rotateFrame": [
        {"duration": 12, "tweenEasing": 0, "rotate": 0}, {"duration": 0, "rotate": 30}]}]}]}]}


def nulls(v, numeric=False):
    if v is None:
        return numeric
    if isinstance(v, list):
        return any(nulls(x, numeric) for x in v)
    if isinstance(v, dict):
        return any(nulls(x, k not in NON_NUMERIC_KEYS) for k, x in v.items())
    return False


NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?([eE][-+]?\d+)?")


def mutate_numbers(text, rng, n):
    # Replace n random numbers of a JSON text with extreme values.
    spans = [m.span() for m in NUMBER.finditer(text)]
    for a, b in sorted(rng.sample(spans, min(n, len(spans))), reverse=True):
        text = text[:a] + rng.choice(EXTREME) + text[b:]
    return text


def png_header(w, h):
    # Only the header (and an empty image): what a budget must refuse before decoding.
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def read_inp(path):
    b = open(path, "rb").read()
    n = struct.unpack(">I", b[8:12])[0]
    doc = json.loads(b[12:12 + n])
    pos = 12 + n + 8
    count = struct.unpack(">I", b[pos:pos + 4])[0]
    pos += 4
    tex = []
    for _ in range(count):
        ln = struct.unpack(">I", b[pos:pos + 4])[0]
        tex.append((b[pos + 4], b[pos + 5:pos + 5 + ln]))
        pos += 5 + ln
    return doc, tex, b[pos:]


def write_inp(path, doc, tex, rest=b""):
    j = json.dumps(doc).encode()
    out = b"TRNSRTS\0" + struct.pack(">I", len(j)) + j + b"TEX_SECT" + struct.pack(">I", len(tex))
    for enc, data in tex:
        out += struct.pack(">I", len(data)) + bytes([enc]) + data
    open(path, "wb").write(out + rest)


def walk_nodes(node, f):
    f(node)
    for c in node.get("children", []):
        walk_nodes(c, f)


def physics3(param, radius="3", fps="30", weight="60"):
    return {"Version": 3, "Meta": {"Fps": float(fps)}, "PhysicsSettings": [{
        "Id": "Hair",
        "Input": [{"Source": {"Target": "Parameter", "Id": param}, "Weight": float(weight), "Type": "X", "Reflect": False}],
        "Output": [{"Destination": {"Target": "Parameter", "Id": param}, "VertexIndex": 1, "Scale": 1, "Weight": 100,
                    "Type": "Angle", "Reflect": False}],
        "Vertices": [{"Position": {"X": 0, "Y": 0}, "Mobility": 1, "Delay": 1, "Acceleration": 1, "Radius": 0},
                     {"Position": {"X": 0, "Y": 3}, "Mobility": 0.9, "Delay": 0.9, "Acceleration": 1, "Radius": float(radius)}],
        "Normalization": {"Position": {"Minimum": -10, "Default": 0, "Maximum": 10},
                          "Angle": {"Minimum": -10, "Default": 0, "Maximum": 10}}}]}


def face_param():
    doc, _, _ = read_inp(FACE)
    return doc["param"][0]["name"]


def cases(tmp, count, seed):
    """(args, culprit): the culprit is the file name or option an error must name."""
    rng = random.Random(seed)
    out = []
    P = lambda name: os.path.join(tmp, name)
    stick = open(STICK).read()
    base = ["--anim", "walk"]
    # Crafted arguments: the culprit is the option.
    for opt, vals in [("--fps", ["1e9", "-1", "0", "inf", "nan", "1e-9"]),
                      ("--times", ["1e12", "0:1000000:0.5", "-1", "0:1e9:1", "inf"]),
                      ("--round", ["4000000000", "-1", "400", "20"]),
                      ("--mix", ["-1", "inf", "1e300"]), ("--at", ["nan", "-inf"])]:
        for v in vals:
            out.append((["dump", STICK, *base, opt, v], opt))
            out.append((["dump", FACE, opt, v], opt))
    for opt, vals in [("--duration", ["inf", "1e9", "-1", "nan"]), ("--size", ["-5x-5", "16384x4096", "0x0", "99999x99999"]),
                      ("--scale", ["0", "-1", "1e300", "nan"]), ("--fps", ["1e9", "-1"]),
                      ("--view", ["0,0,0,0", "nan,0,1,1", "-1e300,-1e300,1e300,1e300"]),
                      ("--background", ["#zz", "#ffffffffff"])]:
        for v in vals:
            for f in [STICK, FACE]:
                args = ["render", f, "--out", P("o.gif"), opt, v]
                if f == STICK:
                    args += ["--atlas", "none", *base]
                out.append((args, opt))
    for ext in ["gif", "apng"]:
        out.append((["render", STICK, "--atlas", "none", *base, "--size", "4096x4096", "--out", P(f"big.{ext}")], "--size"))
    out.append((["render", STICK, "--atlas", "none", *base, "--out", P("f%0999999d.png")], "--out"))
    for opt, v in [("--instances", "4294967295"), ("--frames", "4294967295"), ("--threads", "100000"), ("--fps", "nan")]:
        out.append((["bench", STICK, *base, opt, v], opt))
    out.append((["bench", STICK, "--anim", "nope"], "stickbot.json"))
    out.append((["dump", STICK, "--anim", "nope"], "stickbot.json"))
    out.append((["dump", STICK, "--skin", "nope"], "stickbot.json"))
    out.append((["dump", FACE, "--param", "ParamAngle=0.5,NaN"], "--param"))
    out.append((["dump", FACE, "--param", "NoSuch=1"], "face.inp"))
    # Special files, for every verb that reads one.
    fifo = P("fifo.json")
    os.mkfifo(fifo)
    for p in ["/dev/zero", "/dev/null", tmp, fifo]:
        name = os.path.basename(p) or p
        for verb in ["info", "validate", "dump", "lint"]:
            out.append(([verb, p], name))
        out.append((["render", p, "--anim", "a", "--out", P("x.png")], name))
        out.append((["bench", p, "--anim", "a"], name))
        out.append((["convert", p, P("x.json")], name))
        out.append((["cage", "weights", p], name))
        out.append((["dump", STICK, "--extras", p], name))
        out.append((["render", STICK, "--atlas", p, *base, "--out", P("x.png")], name))
        out.append((["dump", FACE, "--physics3", p], name))
    # Options that do not apply to the format.
    db = P("tiny_ske.json")
    json.dump(TINY_DB, open(db, "w"))
    for args, opt in [(["dump", STICK, "--physics3", STICK], "--physics3"), (["dump", FACE, "--extras", EXTRAS], "--extras"),
                      (["render", FACE, "--skin", "x", "--out", P("x.png")], "--skin"),
                      (["render", db, "--anim", "wave", "--extras", EXTRAS, "--out", P("x.png")], "--extras"),
                      (["dump", db, "--local"], "--local"), (["dump", db, "--skin", "x"], "--skin"),
                      (["dump", FACE, "--mode", "apply"], "--mode"), (["bench", db, "--anim", "wave", "--extras", EXTRAS], "--extras"),
                      (["convert", STICK, P("c.json"), "--tex", EXTRAS], "--tex"), (["info", db, "--physics3", EXTRAS], "--physics3")]:
        out.append((args, opt))
    # BOMs: JSON, atlas, physics3, DragonBones.
    p = P("bom.json")
    open(p, "wb").write(BOM + stick.encode())
    for verb in ["info", "validate", "lint"]:
        out.append(([verb, p], "bom.json"))
    out.append((["dump", p, *base, "--times", "0,0.5"], "bom.json"))
    d = P("bomatlas")
    os.mkdir(d)
    open(os.path.join(d, "r.atlas"), "wb").write(BOM + b"gone.png\nsize: 2,2\nr\nbounds: 0,0,2,2\n")
    rig = {"bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root", "attachment": "r"}],
           "skins": [{"name": "default", "attachments": {"s": {"r": {"width": 10, "height": 10}}}}], "animations": {"a": {}}}
    json.dump(rig, open(os.path.join(d, "r.json"), "w"))
    out.append((["render", os.path.join(d, "r.json"), "--anim", "a", "--out", P("x.png")], "gone.png"))
    p = P("bom_ske.json")
    open(p, "wb").write(BOM + json.dumps(TINY_DB).encode())
    out += [(["validate", p], "bom_ske.json"), (["dump", p, "--anim", "wave", "--times", "0,0.5"], "bom_ske.json")]
    # Huge PNG headers: eight atlas pages, puppet textures.
    d = P("pages")
    os.mkdir(d)
    atlas = ""
    for i in range(8):
        open(os.path.join(d, f"p{i}.png"), "wb").write(png_header(11000, 11000))
        atlas += f"p{i}.png\nsize: 11000,11000\n{'r' if i == 0 else f'r{i}'}\nbounds: 0,0,10,10\n\n"
    open(os.path.join(d, "r.atlas"), "w").write(atlas)
    json.dump(rig, open(os.path.join(d, "r.json"), "w"))
    out.append((["render", os.path.join(d, "r.json"), "--anim", "a", "--out", P("x.png")], "r.atlas"))
    for w, h, n in [(11000, 11000, 8), (65535, 65535, 1), (1, 4000000000, 1)]:
        doc, tex, rest = read_inp(FACE)
        p = P(f"tex{w}x{h}.inp")
        write_inp(p, doc, [(0, png_header(w, h))] * n, rest)
        out.append((["render", p, "--out", P("x.png")], os.path.basename(p)))
        out.append((["validate", p], os.path.basename(p)))
    # Puppets with extreme numbers, truncated, renamed; a JSON named .inp.
    doc, tex, rest = read_inp(FACE)
    for k, v in enumerate(["3e38", "-3.4e38", "1e300", "nan"]):
        d2 = json.loads(json.dumps(doc))
        walk_nodes(d2["nodes"], lambda n: n.get("transform", {}).__setitem__("trans", [float(v), float(v), 0.0]))
        p = P(f"far{k}.inp")
        write_inp(p, d2, tex, rest)
        for args in [["dump", p, "--times", "0,0.5"], ["info", p], ["validate", p], ["render", p, "--out", P(f"far{k}.png")]]:
            out.append((args, f"far{k}.inp"))
    full = open(FACE, "rb").read()
    for cut in [4, 11, 100, len(full) // 2]:
        p = P(f"cut{cut}.inp")
        open(p, "wb").write(full[:cut])
        out.append((["validate", p], f"cut{cut}.inp"))
    p = P("face.bin")
    open(p, "wb").write(full)
    out.append((["validate", p], "face.bin"))
    p = P("stick.inp")
    open(p, "w").write(stick)
    out += [(["validate", p], "stick.inp"), (["dump", p, *base, "--times", "0,0.5"], "stick.inp")]
    # physics3 files with bad values.
    param = face_param()
    for k, (prm, radius, fps, weight) in enumerate([("NoSuch", "3", "30", "60"), (param, "-1", "30", "60"),
                                                   (param, "1e300", "30", "60"), (param, "3", "1e9", "60"),
                                                   (param, "3", "0", "60"), (param, "3", "30", "1e38")]):
        p = P(f"p{k}.physics3.json")
        json.dump(physics3(prm, radius, fps, weight), open(p, "w"))
        out.append((["dump", FACE, "--physics3", p, "--times", "0:2:0.5"], f"p{k}.physics3.json"))
        out.append((["render", FACE, "--physics3", p, "--duration", "0.5", "--size", "64x64", "--out", P(f"p{k}.gif")], f"p{k}.physics3.json"))
    # DragonBones with extreme numbers (the fixture when there is one, else the tiny one).
    db_text = open(DRAGON).read() if os.path.exists(DRAGON) else json.dumps(TINY_DB)
    for k in range(40):
        p = P(f"db{k}_ske.json")
        open(p, "w").write(mutate_numbers(db_text, rng, rng.choice([1, 3, 20])))
        verb = rng.choice(["validate", "info", "dump", "convert", "render"])
        args = {"dump": ["dump", p, "--times", "0,0.5"], "convert": ["convert", p, P(f"db{k}.json")],
                "render": ["render", p, "--atlas", "none", "--anim", "wave" if "wave" in db_text else "walk",
                           "--size", "64x64", "--times", "0,0.3", "--out", P(f"db{k}.gif")]}.get(verb, [verb, p])
        out.append((args, f"db{k}_ske.json"))
    for k, text in enumerate(['{"armature": []}', '{"armature": {}}', '{"armature": [{}]}', '{"armature": [{"bone": [{"name": 3}]}]}']):
        p = P(f"dbbad{k}_ske.json")
        open(p, "w").write(text)
        out += [(["validate", p], f"dbbad{k}_ske.json"), (["convert", p, P("x.json")], f"dbbad{k}_ske.json")]
    # Cages: degenerate loops, far meshes, bad weights files.
    for name, cage in [("collinear", [[0, 0], [1, 1], [2, 2]]), ("bowtie", [[0, 0], [1, 1], [1, 0], [0, 1]]),
                       ("tiny", [[0, 0], [1e-300, 0], [0, 1e-300]]), ("far", [[0, 0], [1e300, 0], [0, 1]])]:
        p = P(f"{name}.json")
        json.dump({"loops": [cage], "points": [[0.1, 0.1]]}, open(p, "w"))
        out.append((["cage", "weights", p], f"{name}.json"))
        m = P(f"{name}-mesh.json")
        json.dump({"vertices": [[0.1, 0.1], [0.2, 0.1]], "loops": [cage]}, open(m, "w"))
        out.append((["cage", "bind", m, "--out", P(f"{name}.bin")], f"{name}-mesh.json"))
    m = P("mesh.json")
    json.dump({"vertices": [[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]], "loops": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}, open(m, "w"))
    w = P("w.bin")
    subprocess.run([BINARY, "cage", "bind", m, "--out", w], capture_output=True, timeout=30)
    for k, cage in enumerate([[[0, 0], [1e300, 0], [2, 2], [0, 2]], [[0, 0], [2, 0], [2, 2]], [[0, 0], [2, 0], [2, 2], ["x", 2]]]):
        c = P(f"moved{k}.json")
        json.dump({"cage": cage}, open(c, "w"))
        out.append((["cage", "deform", w, c], f"moved{k}.json"))
    if os.path.exists(w):
        wb = bytearray(open(w, "rb").read())
        for k, cut in enumerate([10, 40, len(wb) - 3]):
            p = P(f"wcut{k}.bin")
            open(p, "wb").write(wb[:cut])
            out.append((["cage", "deform", p, P("moved1.json")], f"wcut{k}.bin"))
    # Mutated Spine rigs through every verb.
    k = 0
    while len(out) < count:
        text = mutate_numbers(stick, rng, rng.choice([1, 1, 2, 5, 20]))
        name = f"m{k}.json"
        p = P(name)
        k += 1
        open(p, "w").write(text)
        verb = rng.choice(["info", "validate", "dump", "dump-local", "render", "bench", "lint", "convert"])
        if verb == "dump":
            args = ["dump", p, "--anim", rng.choice(["walk", "turn"]), "--times", "0:1:0.1"]
        elif verb == "dump-local":
            args = ["dump", p, "--local", "--times", "0,0.5"]
        elif verb == "render":
            args = ["render", p, "--atlas", "none", "--anim", "walk", "--times", "0,0.3", "--size", "64x64", "--out", P(f"r{k}.gif")]
        elif verb == "bench":
            args = ["bench", p, "--anim", "walk", "--instances", "2", "--frames", "10", "--warmup", "1"]
        elif verb == "convert":
            args = ["convert", p, P(f"m{k}.skel")]
        else:
            args = [verb, p]
        out.append((args, name))
    return out


def run(args, culprit, tmp):
    cmd = ["timeout", "-s", "KILL", "10", "prlimit", "--as=4294967296", "--", BINARY, *args]
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=30, cwd=tmp)
    except subprocess.TimeoutExpired:
        return "hang", args, ""
    err = r.stderr.decode(errors="replace")
    outp = r.stdout.decode(errors="replace")
    if r.returncode in (137, -9):
        return "hang", args, err[-200:]
    if "memory allocation" in err or ("capacity overflow" in err and "panicked" not in err):
        return "oom", args, err[-200:]
    if r.returncode < 0 or r.returncode > 2 or "panicked" in err or "internal error" in err:
        return "panic", args, err[-300:]
    if r.returncode == 0:
        try:
            doc = json.loads(outp)
            bad = isinstance(doc, dict) and any(nulls(f) for f in doc.get("frames", []))
        except ValueError:
            bad = re.search(r"\b(NaN|-?inf)\b", outp) is not None
        return ("nan" if bad else "ok"), args, outp[-200:] if bad else ""
    if args[0] == "lint" and r.returncode == 1 and outp:
        return "ok", args, ""  # lint's exit 1 means findings, not an error
    # An error: it must name its culprit (the file's name or the option).
    return ("ok-error" if culprit in err else "unnamed-error"), args, f"[wants {culprit}] {err.strip()[-200:]}"


BINARY = os.path.join(ROOT, "target/release/sinew")


def main():
    global BINARY
    count, seed, jobs, show = 2000, 12, os.cpu_count() or 2, False
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a == "--cases":
            count = int(argv.pop(0))
        elif a == "--seed":
            seed = int(argv.pop(0))
        elif a == "--jobs":
            jobs = int(argv.pop(0))
        elif a == "--show":
            show = True
        else:
            BINARY = os.path.abspath(a)
    with tempfile.TemporaryDirectory() as tmp:
        cs = cases(tmp, count, seed)
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            results = list(ex.map(lambda c: run(c[0], c[1], tmp), cs))
    counts = {}
    for kind, args, err in results:
        counts[kind] = counts.get(kind, 0) + 1
        if show or kind not in ("ok", "ok-error"):
            shown = " ".join(os.path.basename(a) if os.sep in a else a for a in args)
            print(f"{kind}: {shown} :: {err.strip()[:220]}")
    print(json.dumps({"cases": len(results), **counts}))


if __name__ == "__main__":
    main()
