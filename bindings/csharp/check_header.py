#!/usr/bin/env python3
"""The C# binding against include/sinew.h, so it cannot drift silently.

Fails (exit 1, naming each problem) when:
  - a function of the header has no [DllImport] in bindings/csharp (a C function added later
    and not wrapped), or an import names a function the header lacks;
  - an import's parameter count differs from the C declaration's, or a parameter's kind
    differs (a C pointer must be a C# array, ref/out, IntPtr or the SafeHandle of that handle
    type; uint32_t uint or a uint enum; int32_t int; size_t UIntPtr; double double; float
    float; bool bool marshalled as one byte, [MarshalAs(UnmanagedType.U1)]), or the return
    type is not Status (IntPtr for the one `const char *` function);
  - Native.AbiVersion differs from SINEW_ABI_VERSION;
  - an import is never used by the idiomatic layer (Rig, Character, Cage, Library: every
    .cs file but Native.cs and the tests), i.e. it is not reachable from idiomatic C#.
With --called TRACE (mono --trace output of the test run), also fails for every import the
test never called. With --layout CS_LAYOUT (what `sinew_cs.exe --layout` prints), compiles a
C program printing every header struct's size and field offsets (with $CC, else cc) and fails
where a C# struct differs: a size, an offset, a field missing or extra (C arrays are C#
fields named after them: color[4] is ColorR, ColorG, ...). --header PATH checks another
header (run.sh's control: a copy with a function added must fail).
Usage: check_header.py [REPO_ROOT] [--called TRACE] [--layout CS_LAYOUT] [--header PATH]
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

args = sys.argv[1:]


def option(name):
    if name not in args:
        return None
    i = args.index(name)
    value = args[i + 1]
    del args[i:i + 2]
    return value


called_trace = option("--called")
layout_file = option("--layout")
header_path = option("--header")
root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
header = open(header_path or os.path.join(root, "include", "sinew.h")).read()
cs_dir = os.path.join(root, "bindings", "csharp")
sources = {p: open(p).read() for p in sorted(glob.glob(os.path.join(cs_dir, "*.cs")))}
problems = []

# C: strip comments, then every `enum SinewStatus f(...)` / `const char *f(...)`.
c_text = re.sub(r"//[^\n]*", "", header)
c_text = re.sub(r"/\*.*?\*/", "", c_text, flags=re.S)
c_funcs = {}
for m in re.finditer(r"(enum SinewStatus|const char \*)\s*(sinew_\w+)\(([^)]*)\);", c_text):
    ret, name, params = m.group(1), m.group(2), " ".join(m.group(3).split())
    c_funcs[name] = (ret, [] if params in ("", "void") else [p.strip() for p in params.split(",")])
if len(c_funcs) < 60:
    problems.append(f"only {len(c_funcs)} functions parsed from include/sinew.h: the parser is broken")

HANDLES = {"SinewRig": "RigHandle", "SinewCharacter": "CharacterHandle", "SinewCage": "CageHandle"}


def c_kind(p):
    """The kind of a C parameter declaration: ('ptr', handle type or None) or a scalar."""
    if "*" in p:
        # A single pointer to a handle type (not an array of them) maps to its SafeHandle.
        m = re.match(r"(?:const )?struct (Sinew\w+) \*(?!\s*const|\*)\s*\w+$", p)
        handle = m.group(1) if m and m.group(1) in HANDLES else None
        return ("ptr", handle)
    base = p.rsplit(" ", 1)[0]
    scalars = {"uint32_t": "u32", "int32_t": "i32", "size_t": "size", "double": "f64",
               "float": "f32", "bool": "bool"}
    if base not in scalars:
        problems.append(f"unknown C parameter type in `{p}`: teach check_header.py")
        return ("?", None)
    return (scalars[base], None)


# C#: uint-backed enums count as uint.
uint_enums = set()
for text in sources.values():
    uint_enums.update(re.findall(r"enum (\w+) : uint", text))
imports = {}
import_re = re.compile(r"\[DllImport\(Lib[^\]]*\)\]\s*public static extern (\w+) (sinew_\w+)\((.*?)\);\s*$", re.M)
for path, text in sources.items():
    for m in import_re.finditer(text):
        ret, name, params = m.group(1), m.group(2), m.group(3).strip()
        if name in imports:
            problems.append(f"{name} is imported twice")
        imports[name] = (ret, [p.strip() for p in params.split(",")] if params else [], os.path.basename(path))


def cs_kind(p):
    """The kind of a C# parameter: ('ptr', SafeHandle type or None), or a scalar."""
    u1 = "[MarshalAs(UnmanagedType.U1)]" in p
    p = re.sub(r"\[[A-Z][^\]]*\]\s*", "", p)  # attributes, not array brackets
    words = p.split()
    if words[0] in ("ref", "out"):
        return ("ptr", None), u1
    t = words[0]
    if t.endswith("[]") or t == "IntPtr":
        return ("ptr", None), u1
    if t in HANDLES.values():
        return ("ptr", t), u1
    scalars = {"uint": "u32", "int": "i32", "UIntPtr": "size", "double": "f64", "float": "f32",
               "bool": "bool"}
    if t in uint_enums:
        return ("u32", None), u1
    return (scalars.get(t, "?" + t), None), u1


for name in sorted(set(c_funcs) - set(imports)):
    problems.append(f"{name} is in include/sinew.h but has no [DllImport] in bindings/csharp")
for name in sorted(set(imports) - set(c_funcs)):
    problems.append(f"{name} is imported in {imports[name][2]} but not declared in include/sinew.h")
for name in sorted(set(c_funcs) & set(imports)):
    c_ret, c_params = c_funcs[name]
    cs_ret, cs_params, where = imports[name]
    want_ret = "Status" if c_ret == "enum SinewStatus" else "IntPtr"
    if cs_ret != want_ret:
        problems.append(f"{name}: returns {cs_ret} in {where}, the header returns {c_ret}")
    if len(c_params) != len(cs_params):
        problems.append(f"{name}: {len(cs_params)} parameters in {where}, {len(c_params)} in the header")
        continue
    for i, (cp, sp) in enumerate(zip(c_params, cs_params)):
        (ck, handle), ((sk, cs_handle), u1) = c_kind(cp), cs_kind(sp)
        if ck != sk:
            problems.append(f"{name}: parameter {i + 1} is `{sp}` in {where}, the header has `{cp}`")
        elif ck == "ptr" and cs_handle and handle != next((k for k, v in HANDLES.items() if v == cs_handle), None):
            problems.append(f"{name}: parameter {i + 1} is a {cs_handle} in {where}, the header has `{cp}`")
        elif ck == "ptr" and handle and not cs_handle and not sp.split()[-2:-1] == ["IntPtr"]:
            problems.append(f"{name}: parameter {i + 1} `{sp}` in {where} should be a {HANDLES[handle]}")
        if "bool" in cp and not u1:
            problems.append(f"{name}: bool parameter {i + 1} in {where} lacks [MarshalAs(UnmanagedType.U1)] (C bool is one byte)")

m = re.search(r"#define SINEW_ABI_VERSION (\d+)", header)
cs_abi = re.search(r"const uint AbiVersion = (\d+);", "".join(sources.values()))
if not m or not cs_abi or m.group(1) != cs_abi.group(1):
    problems.append(f"Native.AbiVersion {cs_abi and cs_abi.group(1)} != SINEW_ABI_VERSION {m and m.group(1)}")

# Reachable from idiomatic C#: each import used outside Native.cs and the tests.
idiomatic = "".join(t for p, t in sources.items()
                    if os.path.basename(p) != "Native.cs" and not os.path.basename(p).startswith("Test"))
for name in sorted(imports):
    if not re.search(r"Native\." + name + r"\(", idiomatic):
        problems.append(f"{name} is imported but no idiomatic wrapper calls it")

if called_trace:
    # mono --trace=T:Sinew.Native prints `ENTER: (wrapper managed-to-native) Sinew.Native:NAME (...)`.
    called = set(re.findall(r"Sinew\.Native:(sinew_\w+)", open(called_trace, errors="replace").read()))
    for name in sorted(set(imports) - called):
        problems.append(f"{name} was never called by the C# tests")
    print(f"check_header: the C# tests called {len(called & set(imports))} of {len(imports)} imports")



def pascal(name):
    return "".join(w[:1].upper() + w[1:] for w in name.split("_"))


if layout_file:
    # The header's structs with bodies: name -> [(field, array length or 0)].
    structs = {}
    for m in re.finditer(r"typedef struct (Sinew\w+) \{(.*?)\} \1;", c_text, flags=re.S):
        fields = []
        for decl in m.group(2).split(";"):
            f = re.search(r"(\w+)\s*(?:\[(\w+)\])?\s*$", decl.strip())
            if f and decl.strip():
                fields.append((f.group(1), f.group(2)))
        structs[m.group(1)] = fields
    prog = ["#include <stdio.h>", "#include <stddef.h>", '#include "sinew.h"', "int main(void) {"]
    for name, fields in structs.items():
        prog.append(f'printf("{name} size %zu\\n", sizeof({name}));')
        for f, n in fields:
            elem = f"sizeof((({name} *)0)->{f}[0])" if n else "0"
            count = f"sizeof((({name} *)0)->{f}) / {elem}" if n else "0"
            prog.append(f'printf("{name}.{f} offset %zu count %zu elem %zu\\n", offsetof({name}, {f}), (size_t)({count}), (size_t)({elem}));')
    prog.append("return 0; }")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "layout.c"), os.path.join(tmp, "layout")
        open(src, "w").write("\n".join(prog) + "\n")
        inc = os.path.dirname(header_path) if header_path else os.path.join(root, "include")
        subprocess.run([os.environ.get("CC", "cc"), "-std=c99", "-I", inc, src, "-o", exe], check=True)
        c_layout = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    c_size, c_fields = {}, {}
    for line in c_layout.splitlines():
        w = line.split()
        if w[1] == "size":
            c_size[w[0]] = int(w[2])
        else:
            s_name, f = w[0].split(".")
            c_fields.setdefault(s_name, []).append((f, int(w[2]), int(w[4]), int(w[6])))
    cs_size, cs_fields = {}, {}
    for line in open(layout_file).read().splitlines():
        w = line.split()
        if w[1] == "size":
            cs_size[w[0]] = int(w[2])
        else:
            s_name, f = w[0].split(".")
            cs_fields.setdefault(s_name, []).append((f, int(w[2])))
    renamed = {"SinewFile": "CompanionFile"}
    for name in structs:
        cs = renamed.get(name, name[len("Sinew"):])
        if cs not in cs_size:
            problems.append(f"struct {name} has no C# struct {cs} in the layout list (Test.cs PrintLayout)")
            continue
        if cs_size[cs] != c_size[name]:
            problems.append(f"struct {cs}: {cs_size[cs]} bytes in C#, {c_size[name]} in C")
        left = list(cs_fields.get(cs, []))
        for f, off, count, elem in c_fields.get(name, []):
            want = [pascal(f)] if count == 0 else None
            if count == 0:
                got = [x for x in left if x[0] == want[0]]
            else:
                got = [x for x in left if x[0].startswith(pascal(f))][:count]
            if not got or (count and len(got) != count):
                problems.append(f"struct {cs}: no C# field for {name}.{f}" + (f"[{count}]" if count else ""))
                continue
            for k, x in enumerate(got):
                if x[1] != off + k * elem:
                    index = f"[{k}]" if count else ""
                    problems.append(f"struct {cs}.{x[0]}: offset {x[1]} in C#, {name}.{f}{index} is at {off + k * elem}")
            for x in got:
                left.remove(x)
        for x in left:
            problems.append(f"struct {cs}.{x[0]}: a C# field the header's {name} lacks")
    print(f"check_header: {len(structs)} header structs' layouts compared with C#'s")

for p in problems:
    print("check_header: " + p)
print(f"check_header: {len(c_funcs)} header functions, {len(imports)} C# imports, {len(problems)} problems")
sys.exit(1 if problems else 0)
