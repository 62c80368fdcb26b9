#!/usr/bin/env python3
"""Writes examples/face/face.inp: sinew's own Live2D-style face as an Inochi2D puppet.

    python3 examples/face/make_face.py [--out PATH]

Deterministic (same bytes every run; stdlib only). The file is an INP1 container
(inochi2d.md §2): magic, the v0.8 JSON payload, TEX_SECT with one PNG per part (drawn by
face_art.py). The rig:

- Root > Body (neck and shoulders, static) and Head (every face part, a SimplePhysics node).
- ParamAngle, 2D, x = AngleX and y = AngleY in -30..30, keys at -30, 0, 30 on both axes: every
  head part has a deform binding whose 3x3 keyforms come from turning a pseudo-3D head (each
  vertex has a depth; yaw then pitch, orthographic): front features shift toward the turn,
  the far side compresses, the near side expands, the nose (deepest) moves most and the back
  hair the other way. The Head node also translates with the angle, which moves the physics
  anchor.
- ParamEyeLOpen / ParamEyeROpen, 1D 0..1 (default 1): closed collapses the eye white and iris
  onto the lid line and drops the upper lash onto it (character's left = viewer's right).
- ParamHairSwing, 2D -1..1, driven by the Pendulum under the head (map XY): x bends every
  strand sideways (more toward the tip), the back hair a little.
"""
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import face_art as art  # noqa: E402

NO_TEX = 4294967295
YAW = math.radians(16.0)    # the head turn at AngleX = +-30 (a drawn turn, not a literal one)
PITCH = math.radians(10.0)  # the nod at AngleY = +-30
PIVOT_Z = 60.0              # depth of the turning axis
HEAD_SHIFT = (18.0, -6.0)   # Head node translation at AngleX, AngleY = +30
EYES = {"L": (52.0, 25.0, 1), "R": (-52.0, 25.0, -1)}  # character's left is viewer's right


def r4(v):
    v = round(v, 4)
    return 0.0 if v == 0 else v


def depth(x, y):
    """Depth of the head surface at head-space (x, y): an ellipsoid, toward the viewer."""
    k = 1.0 - (x / 175.0) ** 2 - ((y - 10.0) / 230.0) ** 2
    return 130.0 * math.sqrt(max(k, 0.0))


def turn(x, y, z, ax, ay):
    """Head-space (x, y) of a point at depth z after a turn of ax, ay in -1..1 (AngleX/30,
    AngleY/30): yaw about a vertical axis at depth PIVOT_Z, then pitch (AngleY > 0 looks up,
    which in this y-down space moves front features to smaller y)."""
    t, p = ax * YAW, ay * PITCH
    zr = z - PIVOT_Z
    x1 = x * math.cos(t) + zr * math.sin(t)
    z1 = -x * math.sin(t) + zr * math.cos(t)
    y1 = y * math.cos(p) - z1 * math.sin(p)
    return x1, y1


class Puppet:
    def __init__(self):
        self.next_uuid = 1000
        self.textures = []
        self.params = []
        self.parts = {}  # name -> (node, head-space vertices)

    def uuid(self):
        self.next_uuid += 1
        return self.next_uuid

    def node(self, kind, name, x=0.0, y=0.0, zsort=0.0):
        return {"uuid": self.uuid(), "name": name, "type": kind, "enabled": True,
                "zsort": r4(zsort),
                "transform": {"trans": [r4(x), r4(y), 0.0], "rot": [0.0, 0.0, 0.0],
                              "scale": [1.0, 1.0]},
                "lockToRoot": False, "children": []}

    def part(self, name, img, cols, rows, zsort, extra_depth=0.0, masks=None):
        """A Part showing `img` on a (cols+1) x (rows+1) grid over its rectangle; the node
        sits at the rectangle's centre and the mesh is relative to it."""
        cx, cy = (img.x0 + img.x1) / 2, (img.y0 + img.y1) / 2
        n = self.node("Part", name, cx, cy, zsort)
        verts, uvs, idx, pts = [], [], [], []
        for j in range(rows + 1):
            for i in range(cols + 1):
                u, v = i / cols, j / rows
                x = img.x0 + u * (img.x1 - img.x0)
                y = img.y0 + v * (img.y1 - img.y0)
                verts += [r4(x - cx), r4(y - cy)]
                uvs += [r4(u), r4(v)]
                pts.append((x, y))
        s = cols + 1
        for j in range(rows):
            for i in range(cols):
                a = j * s + i
                idx += [a, a + 1, a + s, a + 1, a + s + 1, a + s]
        n.update({
            "textures": [len(self.textures), NO_TEX, NO_TEX],
            "mesh": {"verts": verts, "uvs": uvs, "indices": idx, "origin": [0.0, 0.0]},
            "blend_mode": "Normal", "tint": [1.0, 1.0, 1.0], "screenTint": [0.0, 0.0, 0.0],
            "emissionStrength": 1.0, "mask_threshold": 0.5, "opacity": 1.0,
            "masks": [{"source": m, "mode": "Mask"} for m in (masks or [])],
        })
        self.textures.append(img.png())
        self.parts[name] = (n, pts, extra_depth, (cols, rows))
        return n

    def param(self, name, is_vec2, lo, hi, default, axes):
        p = {"uuid": self.uuid(), "name": name, "is_vec2": is_vec2, "min": lo, "max": hi,
             "defaults": default, "axis_points": axes, "merge_mode": "Passthrough",
             "bindings": []}
        self.params.append(p)
        return p

    @staticmethod
    def bind(p, node, target, values):
        nx, ny = len(values), len(values[0])
        p["bindings"].append({"node": node["uuid"], "param_name": target, "values": values,
                              "isSet": [[True] * ny for _ in range(nx)],
                              "interpolate_mode": "Linear"})

    def bind_deform(self, p, name, fn, xs, ys):
        """A deform binding on part `name`: keyform (i, j) holds fn(xs[i], ys[j], x, y, z)
        offsets per vertex (z: the vertex's depth)."""
        node, pts, dz, _ = self.parts[name]
        grid = []
        for a in xs:
            col = []
            for b in ys:
                col.append([[r4(d) for d in fn(a, b, x, y, depth(x, y) + dz)] for x, y in pts])
            grid.append(col)
        self.bind(p, node, "deform", grid)


def angle_offsets(ax, ay, x, y, z):
    x1, y1 = turn(x, y, z, ax, ay)
    return x1 - x, y1 - y


def neck_follow(ax, ay, x, y, _z):
    """The neck's top follows the chin (Body space: the head's origin is at y = -190), its
    base stays on the shoulders."""
    hx, hy = 0.0, y + 190.0
    cx, cy = turn(hx, hy, depth(hx, hy), ax, ay)
    w = max(0.0, min(1.0, (20.0 - y) / 90.0))
    return w * (cx - hx + HEAD_SHIFT[0] * ax), w * (cy - hy + HEAD_SHIFT[1] * ay)


def build():
    pp = Puppet()
    root = pp.node("Node", "Root")
    body = pp.node("Node", "Body")
    body["children"].append(pp.part("Neck", art.neck_body(), 4, 4, 40.0))
    head = pp.node("Node", "Head", 0.0, -190.0)
    kids = head["children"]
    kids.append(pp.part("HairBack", art.hair_back(), 6, 8, 50.0, extra_depth=-40.0))
    kids.append(pp.part("Face", art.face(), 8, 8, 10.0))
    kids.append(pp.part("Nose", art.nose(), 1, 1, 4.0, extra_depth=30.0))
    kids.append(pp.part("Mouth", art.mouth(), 2, 1, 4.0, extra_depth=4.0))
    for side, (cx, cy, s) in EYES.items():
        white = pp.part(f"EyeWhite{side}", art.eye_white(cx, cy, s), 4, 2, 6.0, -4.0)
        kids.append(white)
        kids.append(pp.part(f"Iris{side}", art.iris(cx, cy + 1), 2, 2, 5.0, -2.0,
                            masks=[white["uuid"]]))
        kids.append(pp.part(f"Lash{side}", art.lash(cx, cy, s), 4, 1, 3.0, 2.0))
        kids.append(pp.part(f"Brow{side}", art.brow(cx, -16.0, s), 4, 1, 2.0, 6.0))
    kids.append(pp.part("HairTop", art.hair_top(), 8, 4, -4.0, extra_depth=14.0))
    strands = [("BangA", -74, -96, -88, -30, -6, 22), ("BangB", -34, -102, -44, -36, -4, 22),
               ("BangC", 8, -104, 2, -44, 4, 20), ("BangD", 46, -100, 58, -32, 6, 22),
               ("BangE", 86, -94, 100, -40, 6, 20),
               ("SideLockR", -118, -70, -112, 170, -14, 18),
               ("SideLockL", 118, -70, 112, 170, 14, 18)]
    for name, x0, y0, x1, y1, bend, w in strands:
        kids.append(pp.part(name, art.strand(x0, y0, x1, y1, bend, w), 2, 6, -6.0, 20.0))
    phys = pp.node("SimplePhysics", "HairPhysics", 0.0, -150.0)
    kids.append(phys)
    root["children"] += [body, head]

    keys3 = [0.0, 0.5, 1.0]
    angle = pp.param("ParamAngle", True, [-30.0, -30.0], [30.0, 30.0], [0.0, 0.0],
                     [keys3, keys3])
    grid = [-1.0, 0.0, 1.0]
    # The head moves a little with the turn (and so does the physics anchor under it).
    pp.bind(angle, head, "transform.t.x", [[r4(HEAD_SHIFT[0] * a)] * 3 for a in grid])
    pp.bind(angle, head, "transform.t.y", [[r4(HEAD_SHIFT[1] * b) for b in grid] for _ in grid])
    for name in pp.parts:
        if name != "Neck":
            pp.bind_deform(angle, name, angle_offsets, grid, grid)
    pp.bind_deform(angle, "Neck", neck_follow, grid, grid)

    eyes = []
    for side, (cx, cy, s) in EYES.items():
        eye = pp.param("ParamEyeLOpen" if side == "L" else "ParamEyeROpen", False,
                       [0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [[0.0, 1.0], [0.0]])
        eyes.append(eye)
        lid = cy + 6.0  # where the lids meet

        def collapse(a, _b, x, y, _z):
            return 0.0, (lid - y) * (1.0 - a)

        def drop(a, _b, x, y, _z, cy=cy, lid=lid):
            # The lash's arc (about cy - 20 at its middle) comes down onto the lid line,
            # flattened a little.
            target = lid + (y - (cy - 20.0)) * 0.55
            return 0.0, (target - y) * (1.0 - a)
        pp.bind_deform(eye, f"EyeWhite{side}", collapse, [0.0, 1.0], [0.0])
        pp.bind_deform(eye, f"Iris{side}", collapse, [0.0, 1.0], [0.0])
        pp.bind_deform(eye, f"Lash{side}", drop, [0.0, 1.0], [0.0])

    swing = pp.param("ParamHairSwing", True, [-1.0, -1.0], [1.0, 1.0], [0.0, 0.0],
                     [keys3, keys3])
    phys.update({"param": swing["uuid"], "model_type": "Pendulum", "map_mode": "XY",
                 "gravity": 0.5, "length": 100.0, "frequency": 1.0, "angle_damping": 0.3,
                 "length_damping": 0.5, "output_scale": [6.0, 1.0], "local_only": False})
    for name, _x0, y0, _x1, y1, _bend, _w in strands:
        amp = 44.0 if name.startswith("Side") else 16.0

        def bend(a, _b, x, y, _z, y0=y0, y1=y1, amp=amp):
            s = max(0.0, min(1.0, (y - y0) / (y1 - y0)))
            return a * amp * s * s, -abs(a) * amp * 0.12 * s ** 4
        pp.bind_deform(swing, name, bend, grid, grid)

    def back(a, _b, x, y, _z):
        s = max(0.0, (y + 40.0) / 300.0)
        return a * 22.0 * s * s, 0.0
    pp.bind_deform(swing, "HairBack", back, grid, grid)

    puppet = {
        "meta": {"name": "sinew face", "version": "v0.8.7", "rigger": "sinew make_face.py",
                 "artist": "sinew face_art.py", "copyright": "sinew project",
                 "thumbnailId": NO_TEX, "preservePixels": False},
        "physics": {"pixelsPerMeter": 1000.0, "gravity": 9.8},
        "nodes": root,
        "param": pp.params,
        "automation": [],
        "animations": {"idle": idle(angle, eyes)},
    }
    return puppet, pp.textures


IDLE_TIMESTEP = 0.02  # seconds per animation frame
# (frame, value) keys of the idle loop (200 frames, 4 s): look left, look right, back; two
# blinks. Turns ease in and out (Bezier, tension 0), quick enough to swing the hair.
IDLE_X = [(0, 0), (25, -30), (60, -30), (85, 30), (130, 30), (155, 0), (200, 0)]
IDLE_Y = [(0, 0), (25, 8), (60, 8), (85, -10), (130, -10), (155, 0), (200, 0)]
IDLE_EYE = [(0, 1), (44, 1), (48, 0), (50, 0), (56, 1), (165, 1), (169, 0), (171, 0), (177, 1),
            (200, 1)]


def idle(angle, eyes):
    """The `idle` animation (inochi2d.md §7): lanes key parameter values by frame."""
    def lane(p, target, keys):
        return {"uuid": p["uuid"], "target": target, "interpolation": "Bezier",
                "merge_mode": "Forced",
                "keyframes": [{"frame": f, "value": float(v), "tension": 0.0}
                              for f, v in keys]}
    lanes = [lane(angle, 0, IDLE_X), lane(angle, 1, IDLE_Y)]
    lanes += [lane(e, 0, IDLE_EYE) for e in eyes]
    return {"timestep": IDLE_TIMESTEP, "length": 200, "leadIn": -1, "leadOut": -1,
            "additive": False, "animationWeight": 1.0, "lanes": lanes}


def container(puppet, textures):
    """INP1: magic, JSON, TEX_SECT (u32 length, u8 encoding 0 = PNG, bytes), big-endian."""
    js = json.dumps(puppet, separators=(",", ":"), sort_keys=False).encode()
    out = bytearray(b"TRNSRTS\0")
    out += struct.pack(">I", len(js)) + js
    out += b"TEX_SECT" + struct.pack(">I", len(textures))
    for t in textures:
        out += struct.pack(">IB", len(t), 0) + t
    return bytes(out)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "face.inp")
    if len(sys.argv) == 3 and sys.argv[1] == "--out":
        out = sys.argv[2]
    elif len(sys.argv) != 1:
        sys.exit("usage: make_face.py [--out PATH]")
    data = container(*build())
    with open(out, "wb") as f:
        f.write(data)
    print(f"wrote {out}: {len(data)} bytes")


if __name__ == "__main__":
    main()
