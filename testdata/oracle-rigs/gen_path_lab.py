# Generates path-lab.json (for the oracle) and the matching Rust tables for path_tests.rs.
import json, math, sys

def bez(p0, c1, c2, p1, t):
    u = 1 - t
    return tuple(u**3*p0[i] + 3*u*u*t*c1[i] + 3*u*t*t*c2[i] + t**3*p1[i] for i in range(2))

def arclen(p0, c1, c2, p1, n=2000):
    L = 0; prev = p0
    for k in range(1, n + 1):
        q = bez(p0, c1, c2, p1, k / n); L += math.dist(prev, q); prev = q
    return L

def lengths(points, closed):
    # points: list of (in, pt, out)
    out = []; total = 0; n = len(points)
    for k in range(n if closed else n - 1):
        a = points[k]; b = points[(k + 1) % n]
        total += arclen(a[1], a[2], b[0], b[1]); out.append(round(total, 2))
    return out

open_pts = [((-20, -10), (0, 0), (30, 20)), ((50, 40), (80, 30), (110, 20)),
            ((130, -20), (150, -10), (170, 0)), ((190, 30), (200, 60), (210, 90))]
closed_pts = [((-30, 40), (0, 50), (30, 60)), ((60, 30), (60, 0), (60, -30)),
              ((20, -40), (-10, -20), (-40, 0))]
# Weighted: each vertex (x, y) given in world; bones wb1 (at origin) and wb2 (at (100,50), rot 20).
w_pts = [((-10, 0), (0, 0), (20, 10)), ((40, 30), (70, 40), (100, 50)), ((120, 60), (150, 40), (160, 20))]

bones = [  # name, parent, length, x, y, rotation, scaleX, scaleY
    ("root", None, 0, 0, 0, 0, 1, 1),
    ("pathbone", "root", 0, 5, -3, 10, 1.1, 1),
    ("pathflip", "root", 0, 300, 0, 0, 1, -1),
    ("wb1", "root", 0, 0, 0, 0, 1, 1),
    ("wb2", "root", 0, 100, 50, 20, 1, 1),
]
chains = {}
def chain(prefix, n, parent="root", first=(0, 0, 0, 1), lens=(30, 30, 25, 20)):
    names = []
    for i in range(n):
        name = f"{prefix}{i+1}"
        if i == 0:
            x, y, r, sx = first
            bones.append((name, parent, lens[i], x, y, r, sx, 1))
        else:
            bones.append((name, names[-1], lens[i], lens[i-1], 0, 0, 1, 1))
        names.append(name)
    return names

paths = []
def path(name, bones_, target, **kw):
    d = {"name": name, "order": len(paths), "bones": bones_, "target": target}
    d.update(kw); paths.append(d)

path("tangent-len", chain("a", 3), "path-open", positionMode="percent", position=0.1, spacingMode="length", spacing=5, rotateMode="tangent")
path("chain-fixed", chain("b", 3, first=(10, 20, 45, 1)), "path-open", positionMode="fixed", position=40, spacingMode="fixed", spacing=12, rotateMode="chain", mixRotate=0.7, mixX=0.6, mixY=0.8)
path("closed-percent", chain("c", 4, lens=(20, 0, 25, 15)), "path-closed", position=0.05, spacingMode="percent", spacing=0.3, rotateMode="chainScale", rotation=15)
path("prop-slow", chain("d", 3, first=(0, 0, -30, 1.5)), "path-open-slow", position=0.2, spacingMode="proportional", spacing=0.25, rotateMode="chainScale")
path("closed-slow-chain", chain("e", 3), "path-closed-slow", positionMode="fixed", position=-30, spacingMode="length", spacing=2, rotateMode="chain")
path("weighted-after", chain("f", 3), "path-weighted", positionMode="fixed", position=250, spacingMode="length", rotateMode="tangent", rotation=-20)
path("before-chain", chain("g", 3, first=(0, 0, 0, 2)), "path-open", positionMode="fixed", position=-20, spacingMode="length", spacing=-3, rotateMode="chain", mixRotate=0.5)
path("percent-tangent-slow", chain("h", 3), "path-open-slow", positionMode="percent", position=0.3, spacingMode="percent", spacing=0.2, rotateMode="tangent", mixX=0.5, mixY=0.25)
path("slow-after", chain("i", 2), "path-open-slow", positionMode="fixed", position=330, spacingMode="fixed", spacing=8, rotateMode="chainScale", rotation=30)

def flat(pts): return [c for p in pts for xy in p for c in xy]
def wflat(pts):
    out = []
    # Vertex in world; wb1 is identity at origin; wb2: rotation 20 at (100,50)
    r = math.radians(20); c, s = math.cos(r), math.sin(r)
    for p in pts:
        for (x, y) in p:
            # bone-space coordinates chosen so both bones agree roughly; round to 0.5
            lx1, ly1 = x, y
            dx, dy = x - 100, y - 50
            lx2, ly2 = round((c*dx + s*dy)*2)/2, round((-s*dx + c*dy)*2)/2
            w1 = 0.25 if x > 60 else 0.75
            out += [2, 3, lx1, ly1, w1, 4, lx2, ly2, 1 - w1]
    return out
attachments = {
    "path-open": ("pathbone", {"type": "path", "closed": False, "constantSpeed": True, "vertexCount": 12, "vertices": flat(open_pts), "lengths": lengths(open_pts, False)}),
    "path-open-slow": ("pathbone", {"type": "path", "closed": False, "constantSpeed": False, "vertexCount": 12, "vertices": flat(open_pts), "lengths": lengths(open_pts, False)}),
    "path-closed": ("pathflip", {"type": "path", "closed": True, "constantSpeed": True, "vertexCount": 9, "vertices": flat(closed_pts), "lengths": lengths(closed_pts, True)}),
    "path-closed-slow": ("pathbone", {"type": "path", "closed": True, "constantSpeed": False, "vertexCount": 9, "vertices": flat(closed_pts), "lengths": lengths(closed_pts, True)}),
    "path-weighted": ("root", {"type": "path", "closed": False, "constantSpeed": True, "vertexCount": 9, "vertices": wflat(w_pts), "lengths": lengths(w_pts, False)}),
}
slots = [{"name": k, "bone": v[0], "attachment": k} for k, v in attachments.items()]
bone_index = {b[0]: i for i, b in enumerate(bones)}
def bone_json(b):
    d = {"name": b[0]}
    if b[1]: d["parent"] = b[1]
    for key, val, default in (("length", b[2], 0), ("x", b[3], 0), ("y", b[4], 0), ("rotation", b[5], 0), ("scaleX", b[6], 1), ("scaleY", b[7], 1)):
        if val != default: d[key] = val
    return d
skel = {"skeleton": {"hash": "pathlab", "spine": "4.2.22"}, "bones": [bone_json(b) for b in bones], "slots": slots,
        "path": paths, "skins": [{"name": "default", "attachments": {k: {k: v[1]} for k, v in attachments.items()}}]}
json.dump(skel, open(sys.argv[1], "w"), indent=1)

# Rust tables
def f(v): return repr(float(v))
rs = []
rs.append("/// Bones of path-lab.json: (name, parent, length, x, y, rotation, scale_x, scale_y).")
rs.append("const LAB_BONES: &[(&str, Option<u16>, f64, f64, f64, f64, f64, f64)] = &[")
for b in bones:
    par = f"Some({bone_index[b[1]]})" if b[1] else "None"
    rs.append(f"    (\"{b[0]}\", {par}, {', '.join(f(x) for x in b[2:])}),")
rs.append("];")
rs.append("/// Path attachments: (slot name, slot bone, closed, constant speed, weighted bones, vertices, lengths).")
rs.append("const LAB_PATHS: &[(&str, u16, bool, bool, &[u32], &[f32], &[f32])] = &[")
for k, (bn, a) in attachments.items():
    v = a["vertices"]
    if len(v) == a["vertexCount"] * 2:
        wb, vals = [], v
    else:
        wb, vals, i = [], [], 0
        while i < len(v):
            n = v[i]; wb.append(n); i += 1
            for _ in range(n):
                wb.append(bone_index[bones[v[i]][0]]); vals += v[i+1:i+4]; i += 4
    rs.append(f"    (\"{k}\", {bone_index[bn]}, {str(a['closed']).lower()}, {str(a['constantSpeed']).lower()}, &{wb}, &[{', '.join(f(x) for x in vals)}], &[{', '.join(f(x) for x in a['lengths'])}]),")
rs.append("];")
pm = {"percent": "PositionMode::Percent", "fixed": "PositionMode::Fixed"}
sm = {"length": "SpacingMode::Length", "fixed": "SpacingMode::Fixed", "percent": "SpacingMode::Percent", "proportional": "SpacingMode::Proportional"}
rm = {"tangent": "RotateMode::Tangent", "chain": "RotateMode::Chain", "chainScale": "RotateMode::ChainScale"}
slot_index = {k: i for i, k in enumerate(attachments)}
rs.append("/// Path constraints: (bones, target slot, position mode, spacing mode, rotate mode, offset")
rs.append("/// rotation, [position, spacing, mixRotate, mixX, mixY]).")
rs.append("const LAB_CONSTRAINTS: &[(&[u16], u16, PositionMode, SpacingMode, RotateMode, f64, [f64; 5])] = &[")
for p in paths:
    mx = p.get("mixX", 1)
    vals = [p.get("position", 0), p.get("spacing", 0), p.get("mixRotate", 1), mx, p.get("mixY", mx)]
    rs.append(f"    (&{[bone_index[b] for b in p['bones']]}, {slot_index[p['target']]}, {pm[p.get('positionMode','percent')]}, {sm[p.get('spacingMode','length')]}, {rm[p.get('rotateMode','tangent')]}, {f(p.get('rotation',0))}, [{', '.join(f(x) for x in vals)}]),")
rs.append("];")
open(sys.argv[2], "w").write("\n".join(rs) + "\n")
