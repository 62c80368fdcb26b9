#!/usr/bin/env python3
"""Writes sinew's own example character, `stickbot.json` (Spine 4.2 JSON).

Everything here is authored for this project: bone layout, meshes and keys are computed by
this script, so the rig can be regenerated and changed by code. It exercises weighted meshes,
a deform (FFD) key that bends with its bones, two-bone IK legs and arm, a draw-order swap as
the character turns, a transform-constraint follower (hair lagging behind the head), one
clipping mask, events and Bezier curves.

Its art is drawn by code too (stickbot_art.py): simple shapes packed into a two-page Spine
atlas with rotated, whitespace-stripped and premultiplied regions.

Run: python3 examples/stickbot/make_stickbot.py  (writes stickbot.json, stickbot.atlas,
stickbot.png and stickbot_2.png in examples/stickbot/)
"""
import json
import math
import os

bones = []
world = {}


def bone(name, parent, x=0.0, y=0.0, rotation=0.0, length=0.0, **extra):
    b = {"name": name}
    if parent:
        b["parent"] = parent
    if length:
        b["length"] = length
    if x:
        b["x"] = x
    if y:
        b["y"] = y
    if rotation:
        b["rotation"] = rotation
    b.update(extra)
    bones.append(b)
    # World transform (all bones inherit normally, unit scale, no shear).
    if parent:
        px, py, pr = world[parent]
        c, s = math.cos(math.radians(pr)), math.sin(math.radians(pr))
        world[name] = (px + c * x - s * y, py + s * x + c * y, pr + rotation)
    else:
        world[name] = (x, y, rotation)


def to_bone_space(name, wx, wy):
    bx, by, br = world[name]
    c, s = math.cos(math.radians(br)), math.sin(math.radians(br))
    dx, dy = wx - bx, wy - by
    return (round(c * dx + s * dy, 3), round(-s * dx + c * dy, 3))


bone("root", None)
bone("hip", "root", y=105)
bone("torso", "hip", x=0, y=4, rotation=90, length=62)
bone("neck", "torso", x=62, rotation=0, length=12)
bone("head", "neck", x=12, length=44)
bone("hair", "head", x=36, y=14, rotation=150, length=34)
bone("hair-target", "neck", x=48, y=14, rotation=150, length=34)
for side, dx in (("front", 6.0), ("back", -6.0)):
    bone(f"arm-upper-{side}", "torso", x=56, y=-dx, rotation=180, length=34)
    bone(f"arm-lower-{side}", f"arm-upper-{side}", x=34, length=32)
    bone(f"leg-upper-{side}", "hip", x=dx, y=-4, rotation=-90, length=50)
    bone(f"leg-lower-{side}", f"leg-upper-{side}", x=50, length=50)
    bone(f"foot-target-{side}", "root", x=dx, y=1)
bone("hand-target-front", "root", x=-6 + 40, y=105 + 60 - 66 + 20)
bone("cape-1", "torso", x=58, y=8, rotation=175, length=30)
bone("cape-2", "cape-1", x=30, rotation=0, length=30)


def quad_mesh(cols, rows, x0, y0, x1, y1):
    """A regular grid mesh in world space: vertices (hull first), uvs, triangles."""
    pts = [(x0 + (x1 - x0) * i / cols, y0 + (y1 - y0) * j / rows) for j in range(rows + 1) for i in range(cols + 1)]
    uvs = [((p[0] - x0) / (x1 - x0), 1 - (p[1] - y0) / (y1 - y0)) for p in pts]
    tris = []
    for j in range(rows):
        for i in range(cols):
            a = j * (cols + 1) + i
            b, c, d = a + 1, a + cols + 1, a + cols + 2
            tris += [a, b, d, a, d, c]
    hull = 2 * (cols + rows)
    return pts, uvs, tris, hull


def weighted(pts, weights_for):
    out = []
    for p in pts:
        ws = [(b, w) for b, w in weights_for(p) if w > 1e-4]
        total = sum(w for _, w in ws)
        out.append(len(ws))
        for b, w in ws:
            bx, by = to_bone_space(b, *p)
            out += [bone_index(b), bx, by, round(w / total, 4)]
    return out


def bone_index(name):
    return [b["name"] for b in bones].index(name)


# Torso: a 2x4 grid skinned to hip, torso and neck by height.
t_pts, t_uvs, t_tris, t_hull = quad_mesh(2, 4, -16, 100, 16, 172)


def torso_weights(p):
    h = (p[1] - 100) / 72
    return [("hip", max(0.0, 1 - 2.2 * h)), ("torso", 1 - abs(h - 0.5) * 1.2), ("neck", max(0.0, 2.2 * h - 1.2))]


# Cape: a 1x4 strip skinned along the two cape bones.
cx, cy, _ = world["cape-1"]
c_pts, c_uvs, c_tris, c_hull = quad_mesh(1, 4, cx - 12, cy - 62, cx + 12, cy + 2)


def cape_weights(p):
    h = (cy - p[1]) / 64
    return [("cape-1", max(0.0, 1 - 1.6 * h)), ("cape-2", min(1.0, 1.6 * h))]


slots = [
    {"name": "arm-back", "bone": "arm-upper-back", "attachment": "arm", "color": "c8c8d2ff"},
    {"name": "forearm-back", "bone": "arm-lower-back", "attachment": "forearm", "color": "c8c8d2ff"},
    {"name": "leg-back", "bone": "leg-upper-back", "attachment": "leg", "color": "c8c8d2ff"},
    {"name": "shin-back", "bone": "leg-lower-back", "attachment": "shin", "color": "c8c8d2ff"},
    {"name": "cape", "bone": "cape-1", "attachment": "cape", "color": "d04a4aff"},
    {"name": "leg-front", "bone": "leg-upper-front", "attachment": "leg"},
    {"name": "shin-front", "bone": "leg-lower-front", "attachment": "shin"},
    {"name": "neck", "bone": "neck", "attachment": "neck", "color": "c8c8d2ff"},
    {"name": "torso", "bone": "torso", "attachment": "torso"},
    {"name": "hair", "bone": "hair", "attachment": "hair", "color": "f0c040ff"},
    {"name": "head", "bone": "head", "attachment": "head"},
    {"name": "visor-clip", "bone": "head", "attachment": "visor-clip"},
    {"name": "visor-glow", "bone": "head", "attachment": "glow", "color": "40e0ffff", "blend": "additive"},
    {"name": "arm-front", "bone": "arm-upper-front", "attachment": "arm"},
    {"name": "forearm-front", "bone": "arm-lower-front", "attachment": "forearm"},
]

hx, hy, _ = world["head"]
visor = []
for wx, wy in [(hx + 14, hy + 10), (hx + 26, hy + 16), (hx + 30, hy + 30), (hx + 16, hy + 34), (hx + 10, hy + 22)]:
    visor += list(to_bone_space("head", wx, wy))

skin = {
    "name": "default",
    "attachments": {
        "arm-back": {"arm": {"x": 17, "rotation": -90, "width": 12, "height": 38}},
        "arm-front": {"arm": {"x": 17, "rotation": -90, "width": 12, "height": 38}},
        "forearm-back": {"forearm": {"x": 16, "rotation": -90, "width": 10, "height": 36}},
        "forearm-front": {"forearm": {"x": 16, "rotation": -90, "width": 10, "height": 36}},
        "leg-back": {"leg": {"x": 25, "rotation": -90, "width": 14, "height": 54}},
        "leg-front": {"leg": {"x": 25, "rotation": -90, "width": 14, "height": 54}},
        "shin-back": {"shin": {"x": 26, "rotation": -90, "width": 12, "height": 56}},
        "shin-front": {"shin": {"x": 26, "rotation": -90, "width": 12, "height": 56}},
        "head": {"head": {"x": 22, "rotation": -90, "width": 46, "height": 50}},
        "hair": {"hair": {"x": 16, "rotation": -90, "width": 10, "height": 36}},
        "neck": {"neck": {"x": 6, "rotation": -90, "width": 10, "height": 18}},
        "visor-glow": {"glow": {"x": 22, "y": -16, "rotation": -90, "width": 14, "height": 14}},
        "visor-clip": {"visor-clip": {"type": "clipping", "end": "visor-glow", "vertexCount": 5, "vertices": visor, "color": "ce3a3aff"}},
        "torso": {"torso": {
            "type": "mesh", "uvs": [round(v, 4) for uv in t_uvs for v in uv], "triangles": t_tris, "hull": t_hull,
            "vertices": weighted(t_pts, torso_weights), "width": 32, "height": 72}},
        "cape": {"cape": {
            "type": "mesh", "uvs": [round(v, 4) for uv in c_uvs for v in uv], "triangles": c_tris, "hull": c_hull,
            "vertices": weighted(c_pts, cape_weights), "width": 24, "height": 64}},
    },
}

# Cape FFD: the strip's tip vertices flutter. Deltas are per bone influence (weighted mesh).
cape_vertices = weighted(c_pts, cape_weights)
n_infl = 0
i = 0
tip_offsets = []
while i < len(cape_vertices):
    n = cape_vertices[i]
    tip_offsets.append((n_infl, n))
    n_infl += n
    i += 1 + 4 * n


def flutter(amount):
    out = [0.0] * (2 * n_infl)
    for v, (start, n) in enumerate(tip_offsets):
        row = v // 2  # 2 vertices per row, row 0 at the cape's bottom
        bend = amount * (4 - row) / 4
        for k in range(n):
            out[2 * (start + k)] = round(bend, 3)
            out[2 * (start + k) + 1] = round(-abs(bend) * 0.2, 3)
    return out


def bezier(t0, v0, t1, v1):
    """Ease-in-out handles (cx absolute seconds, cy in value units)."""
    dt = t1 - t0
    return [round(t0 + dt / 3, 4), v0, round(t1 - dt / 3, 4), v1]


def rotate_keys(values, period):
    keys = []
    n = len(values)
    for k, v in enumerate(values):
        t = round(period * k / (n - 1), 4)
        key = {"time": t, "value": v} if t else {"value": v}
        if k < n - 1:
            t1 = round(period * (k + 1) / (n - 1), 4)
            key["curve"] = bezier(t, v, t1, values[k + 1])
        keys.append(key)
    return keys


walk = {
    "bones": {
        "hip": {"translate": [
            {"y": 0, "curve": bezier(0, 0, 0.25, 0) + bezier(0, 0, 0.25, -4)},
            {"time": 0.25, "y": -4, "curve": bezier(0.25, 0, 0.5, 0) + bezier(0.25, -4, 0.5, 0)},
            {"time": 0.5, "y": 0, "curve": bezier(0.5, 0, 0.75, 0) + bezier(0.5, 0, 0.75, -4)},
            {"time": 0.75, "y": -4, "curve": bezier(0.75, 0, 1, 0) + bezier(0.75, -4, 1, 0)},
            {"time": 1, "y": 0}]},
        "torso": {"rotate": rotate_keys([-4, 3, -4], 1.0)},
        "head": {"rotate": rotate_keys([6, -5, 6], 1.0)},
        "hair-target": {"rotate": rotate_keys([-10, 14, -10], 1.0)},
        "arm-upper-back": {"rotate": rotate_keys([-30, 30, -30], 1.0)},
        "arm-lower-back": {"rotate": rotate_keys([10, 35, 10], 1.0)},
        "foot-target-front": {"translate": [
            {"x": -30, "curve": "stepped"}, {"time": 0.05, "x": -30},
            {"time": 0.5, "x": 30, "y": 14}, {"time": 0.55, "x": 30}, {"time": 1, "x": -30}]},
        "foot-target-back": {"translate": [
            {"x": 30}, {"time": 0.5, "x": -30}, {"time": 0.55, "x": -30},
            {"time": 0.95, "x": 25, "y": 14}, {"time": 1, "x": 30}]},
        "hand-target-front": {"translate": [
            {"x": 18, "y": 0, "curve": bezier(0, 18, 0.5, -24) + bezier(0, 0, 0.5, 6)},
            {"time": 0.5, "x": -24, "y": 6, "curve": bezier(0.5, -24, 1, 18) + bezier(0.5, 6, 1, 0)},
            {"time": 1, "x": 18, "y": 0}]},
    },
    "attachments": {"default": {"cape": {"cape": {"deform": [
        {"vertices": flutter(-6), "curve": [0.25, 0, 0.25, 1]},
        {"time": 0.5, "vertices": flutter(7), "curve": [0.75, 0, 0.75, 1]},
        {"time": 1, "vertices": flutter(-6)}]}}}},
    "slots": {"visor-glow": {"rgba": [{"color": "40e0ffff"}, {"time": 0.5, "color": "40e0ff80"}, {"time": 1, "color": "40e0ffff"}]}},
    "events": [{"time": 0.05, "name": "footstep", "int": 1}, {"time": 0.55, "name": "footstep", "int": 2}],
}

turn = {
    "bones": {
        "root": {"scale": [{"curve": [0.2, 1, 0.4, 1, 0.2, 1, 0.4, 1]}, {"time": 0.6, "x": -1}]},
        "head": {"rotate": rotate_keys([0, 12, 0], 0.6)},
    },
    "drawOrder": [{"time": 0.3, "offsets": [{"slot": "arm-back", "offset": 13}, {"slot": "forearm-back", "offset": 13}]}],
    "attachments": {"default": {"visor-glow": {"glow": {"deform": []}}}},
}
del turn["attachments"]

doc = {
    "skeleton": {"hash": "sinew-stickbot", "spine": "4.2.22", "x": -60, "y": 0, "width": 120, "height": 240, "referenceScale": 100},
    "bones": bones,
    "slots": slots,
    "ik": [
        {"name": "leg-front-ik", "order": 0, "bones": ["leg-upper-front", "leg-lower-front"], "target": "foot-target-front", "bendPositive": False},
        {"name": "leg-back-ik", "order": 1, "bones": ["leg-upper-back", "leg-lower-back"], "target": "foot-target-back", "bendPositive": False},
        {"name": "arm-front-ik", "order": 2, "bones": ["arm-upper-front", "arm-lower-front"], "target": "hand-target-front", "softness": 4},
    ],
    "transform": [
        {"name": "hair-follow", "order": 3, "bones": ["hair"], "target": "hair-target", "mixRotate": 0.6, "mixX": 0, "mixScaleX": 0, "mixShearY": 0},
    ],
    "skins": [skin],
    "events": {"footstep": {"int": 0}},
    "animations": {"walk": walk, "turn": turn},
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stickbot.json")
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
print("wrote", out)

import stickbot_art  # noqa: E402  (beside this script)

stickbot_art.write_atlas(os.path.dirname(out))
print("wrote stickbot.atlas, stickbot.png, stickbot_2.png")
