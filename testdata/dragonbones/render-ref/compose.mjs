#!/usr/bin/env node
// Reference renders of the shared DragonBones fixtures, made WITHOUT sinew's renderer: the
// official runtime (@cocos/dragonbones-js, through the pose oracle's dump.mjs) poses the rig,
// and the small compositor below draws each slot with the rig's own atlas page.
//
// Usage (the oracle copy needs `npm install` once):
//   node testdata/dragonbones/render-ref/compose.mjs ORACLE_DIR [--fixtures DIR] [--only SUBSTR]
//     ORACLE_DIR   a copy of shared/oracle/dragonbones with node_modules installed
//     --fixtures   the shared fixtures dir (default $SINEW_FIXTURES, else
//                  <worktree root>/../shared/fixtures, as sinew-testutil finds it)
//     --only       regenerate only the cases whose name contains SUBSTR (MANIFEST is then not
//                  rewritten; use it for quick looks)
// Writes <case>.png and MANIFEST.json beside this script. Exits non-zero when a self-check
// fails (see selfChecks() and checkCase()).
//
// Cases: every animation of every armature in the three fixtures, 3 times each (odd multiples
// of 1/120 s near 13 %, 50 % and 87 % of the duration, never on a key frame of the armature's
// frame rate nor on the 60 fps step grid), plus t = 0 of each file's first animation. Play mode
// at 60 fps, one dump.mjs run per case (so child armatures run on the same step schedule as a
// one-time `sinew render --times T --fps 60`).
//
// Drawing rules (README.md repeats them):
// - Geometry: dump.mjs --uvs, y-down armature space. Images: the 4 quad corners in the order
//   top-left, top-right, bottom-right, bottom-left of the region, which get the region's
//   corners (u, v) = (0,0), (1,0), (1,1), (0,1); two triangles (0,1,2), (0,2,3). Meshes: the
//   runtime's triangles with their region-local UVs. Region-local (u, v) is atlas pixel
//   (x + u*width, y + v*height) of the SubTexture (rotated regions as dump.mjs's imageUVs:
//   (x + v*width, y + (1-u)*height); no fixture has one). Child armature slots are drawn in
//   place of their parent slot, in their own draw order, their alpha multiplier times the
//   parent slot's (what the Pixi and Cocos adapters do: container alpha cascades, tint not).
// - World: runtime (x, y) is world (x, -y) (y up); view [x0, y0, x1, y1] fills the W x H image:
//   pixel coordinates px = (x - x0) * W / (x1 - x0), py = (y1 - Y) * H / (y1 - y0), pixel (i, j)
//   covers [i, i+1) x [j, j+1), centre (i + 0.5, j + 0.5), rows top first (as sinew-render's
//   View::to_pixel).
// - Rasterising as 4x4 multisampling: a triangle covers the sample points
//   (i + (a + 0.5) / 4, j + (b + 0.5) / 4); shared edges go to exactly one triangle (a
//   top-left style tie rule); each covered pixel is shaded once, at the pixel centre (texture
//   coordinates extrapolated from the triangle's affine map, as a GPU does), and that colour
//   is blended into every covered sample; the image is the mean of its 16 samples.
// - Texture: the page's straight RGBA8 premultiplied in float; bilinear at texel centres
//   (atlas pixel p samples at p - 0.5), clamped to the page edge.
// - Colour (Flash ColorTransform): straight c' = clamp(c * mul + off / 255) per channel
//   (alpha too), then premultiplied; with zero offsets this is texel * (r, g, b, 1) * a.
// - Blend, premultiplied, every channel clamped to 0..1 after each draw: normal
//   s + d (1 - s.a); add s + d (alpha too); multiply rgb s d + d (1 - s.a); screen rgb
//   s + d (1 - s) (alpha of both: s.a + d.a (1 - s.a)).
// - Output: straight-alpha RGBA8 PNG, a = round(255 A), rgb = round(255 min(1, P / A)),
//   rgb 0 where a is 0; transparent background.

import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readPng, encodePng } from "./png.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = [
  { fixture: "dragon_boy", ske: "dragon_boy/dragon_boy_ske.json" },
  { fixture: "effect", ske: "effect/effect_ske.json" },
  { fixture: "you_xin_body", ske: "you_xin_body/body_ske.json" },
];
const FRACTIONS = [0.13, 0.5, 0.87];
const FPS = 60;
const LONG_SIDE = 288; // pixels on the longer side of every image
const PAD = 0.05; // of the bounds' size, each side
const SS = 4; // samples per pixel side

// ------------------------------------------------------------------ arguments
function parseArgs(argv) {
  const o = { positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--fixtures" || a === "--only") {
      if (i + 1 >= argv.length) throw new Error(`missing value for ${a}`);
      o[a.slice(2)] = argv[++i];
    } else if (a.startsWith("--")) throw new Error(`unknown option ${a}`);
    else o.positional.push(a);
  }
  return o;
}

function defaultFixtures() {
  if (process.env.SINEW_FIXTURES) return process.env.SINEW_FIXTURES;
  return path.resolve(HERE, "../../../../shared/fixtures");
}

// ------------------------------------------------------------------ atlas
export function loadAtlas(texJson, file) {
  const regions = new Map();
  for (const s of texJson.SubTexture ?? []) {
    for (const k of ["x", "y", "width", "height"]) {
      if (!Number.isFinite(s[k])) throw new Error(`${file}: SubTexture ${JSON.stringify(s.name)} has no numeric ${k}`);
    }
    regions.set(s.name, { x: s.x, y: s.y, w: s.width, h: s.height, rotated: !!s.rotated });
  }
  const pngFile = path.join(path.dirname(file), texJson.imagePath);
  const img = readPng(pngFile);
  if (texJson.width && texJson.width !== img.width) throw new Error(`${file}: width ${texJson.width} but ${pngFile} is ${img.width} wide`);
  if (texJson.height && texJson.height !== img.height) throw new Error(`${file}: height ${texJson.height} but ${pngFile} is ${img.height} high`);
  // premultiplied float texels, 0..1
  const tex = new Float32Array(img.width * img.height * 4);
  for (let i = 0; i < img.width * img.height; i++) {
    const a = img.data[i * 4 + 3] / 255;
    tex[i * 4] = (img.data[i * 4] / 255) * a;
    tex[i * 4 + 1] = (img.data[i * 4 + 1] / 255) * a;
    tex[i * 4 + 2] = (img.data[i * 4 + 2] / 255) * a;
    tex[i * 4 + 3] = a;
  }
  return { regions, page: { width: img.width, height: img.height, tex, straight: img.data }, pngFile };
}

// region-local (u, v) -> atlas page pixel coordinates
function regionToPage(r, u, v) {
  if (r.rotated) return [r.x + v * r.w, r.y + (1 - u) * r.h];
  return [r.x + u * r.w, r.y + v * r.h];
}

function sampleBilinear(page, tx, ty, out) {
  const { width: w, height: h, tex } = page;
  const fx = tx - 0.5, fy = ty - 0.5;
  const ix = Math.floor(fx), iy = Math.floor(fy);
  const wx = fx - ix, wy = fy - iy;
  const x0 = Math.min(w - 1, Math.max(0, ix)), x1 = Math.min(w - 1, Math.max(0, ix + 1));
  const y0 = Math.min(h - 1, Math.max(0, iy)), y1 = Math.min(h - 1, Math.max(0, iy + 1));
  const p00 = (y0 * w + x0) * 4, p10 = (y0 * w + x1) * 4, p01 = (y1 * w + x0) * 4, p11 = (y1 * w + x1) * 4;
  for (let c = 0; c < 4; c++) {
    const top = tex[p00 + c] * (1 - wx) + tex[p10 + c] * wx;
    const bot = tex[p01 + c] * (1 - wx) + tex[p11 + c] * wx;
    out[c] = top * (1 - wy) + bot * wy;
  }
}

const clamp01 = (v) => (v < 0 ? 0 : v > 1 ? 1 : v);

// texel (premultiplied) -> source colour (premultiplied) under a Flash colour transform
function shade(t, mul, off, out) {
  if (off[0] === 0 && off[1] === 0 && off[2] === 0 && off[3] === 0) {
    const am = clamp01(mul[3]);
    out[0] = t[0] * clamp01(mul[0]) * am;
    out[1] = t[1] * clamp01(mul[1]) * am;
    out[2] = t[2] * clamp01(mul[2]) * am;
    out[3] = t[3] * am;
    return;
  }
  const a = t[3];
  const a2 = clamp01(a * mul[3] + off[3] / 255);
  for (let c = 0; c < 3; c++) {
    const s = a > 0 ? t[c] / a : 0;
    out[c] = clamp01(s * mul[c] + off[c] / 255) * a2;
  }
  out[3] = a2;
}

function blendInto(buf, k, s, mode) {
  const d0 = buf[k], d1 = buf[k + 1], d2 = buf[k + 2], da = buf[k + 3];
  let r, g, b, a;
  if (mode === "add") {
    r = s[0] + d0; g = s[1] + d1; b = s[2] + d2; a = s[3] + da;
  } else if (mode === "multiply") {
    const i = 1 - s[3];
    r = s[0] * d0 + d0 * i; g = s[1] * d1 + d1 * i; b = s[2] * d2 + d2 * i; a = s[3] + da * i;
  } else if (mode === "screen") {
    r = s[0] + d0 * (1 - s[0]); g = s[1] + d1 * (1 - s[1]); b = s[2] + d2 * (1 - s[2]); a = s[3] + da * (1 - s[3]);
  } else {
    const i = 1 - s[3];
    r = s[0] + d0 * i; g = s[1] + d1 * i; b = s[2] + d2 * i; a = s[3] + da * i;
  }
  buf[k] = clamp01(r); buf[k + 1] = clamp01(g); buf[k + 2] = clamp01(b); buf[k + 3] = clamp01(a);
}

// ------------------------------------------------------------------ rasteriser
// items: [{tris: [[x0,y0,x1,y1,x2,y2] in pixel space], tex: [[tx0,ty0,...] page pixels],
//          mul, off, blend}], drawn in order.
export function rasterise(items, page, W, H) {
  const buf = new Float32Array(W * H * SS * SS * 4);
  const texel = new Float32Array(4), src = new Float32Array(4);
  const offs = [];
  for (let b = 0; b < SS; b++) for (let a = 0; a < SS; a++) offs.push([(a + 0.5) / SS, (b + 0.5) / SS]);
  for (const it of items) {
    for (let t = 0; t < it.tris.length; t++) {
      let [ax, ay, bx, by, cx, cy] = it.tris[t];
      let [tax, tay, tbx, tby, tcx, tcy] = it.tex[t];
      let area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
      if (!(Math.abs(area) > 1e-12)) continue;
      if (area < 0) {
        [bx, by, cx, cy] = [cx, cy, bx, by];
        [tbx, tby, tcx, tcy] = [tcx, tcy, tbx, tby];
        area = -area;
      }
      // edge e: from P to Q; inside when E(p) > 0, or E(p) == 0 on an edge the tie rule owns
      const edges = [[ax, ay, bx, by], [bx, by, cx, cy], [cx, cy, ax, ay]];
      const own = edges.map(([px, py, qx, qy]) => qy - py > 0 || (qy - py === 0 && qx - px < 0));
      const E = (e, x, y) => {
        const [px, py, qx, qy] = edges[e];
        return (qx - px) * (y - py) - (qy - py) * (x - px);
      };
      const i0 = Math.max(0, Math.floor(Math.min(ax, bx, cx))), i1 = Math.min(W - 1, Math.floor(Math.max(ax, bx, cx)));
      const j0 = Math.max(0, Math.floor(Math.min(ay, by, cy))), j1 = Math.min(H - 1, Math.floor(Math.max(ay, by, cy)));
      const covered = new Array(SS * SS);
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          let any = false;
          for (let s = 0; s < offs.length; s++) {
            const x = i + offs[s][0], y = j + offs[s][1];
            let inside = true;
            for (let e = 0; e < 3 && inside; e++) {
              const v = E(e, x, y);
              inside = v > 0 || (v === 0 && own[e]);
            }
            covered[s] = inside;
            any ||= inside;
          }
          if (!any) continue;
          // barycentric weights at the pixel centre: weight of a = E(bc), of b = E(ca), of c = E(ab)
          const x = i + 0.5, y = j + 0.5;
          const la = E(1, x, y) / area, lb = E(2, x, y) / area, lc = E(0, x, y) / area;
          sampleBilinear(page, la * tax + lb * tbx + lc * tcx, la * tay + lb * tby + lc * tcy, texel);
          shade(texel, it.mul, it.off, src);
          for (let s = 0; s < offs.length; s++) {
            if (!covered[s]) continue;
            const sx = i * SS + (s % SS), sy = j * SS + Math.floor(s / SS);
            blendInto(buf, (sy * W * SS + sx) * 4, src, it.blend);
          }
        }
      }
    }
  }
  return resolve(buf, W, H);
}

function resolve(buf, W, H) {
  const out = new Uint8Array(W * H * 4);
  const n = SS * SS;
  for (let j = 0; j < H; j++) {
    for (let i = 0; i < W; i++) {
      const acc = [0, 0, 0, 0];
      for (let b = 0; b < SS; b++) {
        for (let a = 0; a < SS; a++) {
          const k = ((j * SS + b) * W * SS + (i * SS + a)) * 4;
          for (let c = 0; c < 4; c++) acc[c] += buf[k + c];
        }
      }
      const A = acc[3] / n;
      const a8 = Math.round(255 * A);
      const o = (j * W + i) * 4;
      out[o + 3] = a8;
      if (a8 > 0) for (let c = 0; c < 3; c++) out[o + c] = Math.round(255 * Math.min(1, acc[c] / n / A));
    }
  }
  return out;
}

// ------------------------------------------------------------------ poses -> draw items
// The drawn slots of a dumped frame, child armature slots inline; world y-up vertices.
export function drawnSlots(frame) {
  const out = [];
  const walk = (slots, parentAlpha, depth) => {
    for (const s of slots) {
      if (s.type === "armature") {
        if (s.child) walk(s.child.slots, parentAlpha * s.color[3], depth + 1);
        continue;
      }
      if ((s.type !== "image" && s.type !== "mesh") || !s.vertices || !s.texture) continue;
      out.push({ ...s, alphaScale: parentAlpha, depth });
    }
  };
  walk(frame.slots, 1, 0);
  return out;
}

export function slotItem(s, atlas, view, W, H, errs, where) {
  const r = atlas.regions.get(s.texture);
  if (!r) throw new Error(`${where}: slot ${s.slot} shows texture ${JSON.stringify(s.texture)}, not in the atlas`);
  const v = s.vertices;
  let uv, idx;
  if (s.type === "image") {
    if (v.length !== 8) throw new Error(`${where}: image slot ${s.slot} has ${v.length / 2} corners`);
    uv = [0, 0, 1, 0, 1, 1, 0, 1];
    idx = [0, 1, 2, 0, 2, 3];
    // the quad must be a parallelogram (an affine image of the region)
    const dx = v[0] + v[4] - v[2] - v[6], dy = v[1] + v[5] - v[3] - v[7];
    if (Math.hypot(dx, dy) > 1e-6 * (1 + Math.hypot(v[4] - v[0], v[5] - v[1]))) errs.push(`${where}: image ${s.slot} quad is not a parallelogram`);
    // the runtime's atlas UVs must be the SubTexture's corners
    if (s.uvs) {
      const pw = atlas.page.width, ph = atlas.page.height;
      for (let k = 0; k < 4; k++) {
        const [px, py] = regionToPage(r, uv[2 * k], uv[2 * k + 1]);
        if (Math.abs(px / pw - s.uvs[2 * k]) > 1e-9 || Math.abs(py / ph - s.uvs[2 * k + 1]) > 1e-9) {
          errs.push(`${where}: image ${s.slot} corner ${k}: runtime UV ${s.uvs[2 * k]},${s.uvs[2 * k + 1]} vs SubTexture ${px / pw},${py / ph}`);
        }
      }
    }
  } else {
    uv = s.uvs;
    idx = s.indices;
    if (!uv || uv.length !== v.length) throw new Error(`${where}: mesh slot ${s.slot}: ${uv ? uv.length : 0} UVs for ${v.length} vertex coordinates`);
    if (!idx || idx.length % 3 !== 0 || idx.some((i) => !(i >= 0 && i < v.length / 2))) throw new Error(`${where}: mesh slot ${s.slot} has bad triangle indices`);
  }
  const sx = W / (view[2] - view[0]), sy = H / (view[3] - view[1]);
  // runtime (x, y) y-down -> world (x, -y) -> pixel
  const pix = (k) => [(v[2 * k] - view[0]) * sx, (view[3] + v[2 * k + 1]) * sy];
  const pg = (k) => regionToPage(r, uv[2 * k], uv[2 * k + 1]);
  const tris = [], tex = [];
  for (let t = 0; t < idx.length; t += 3) {
    tris.push([...pix(idx[t]), ...pix(idx[t + 1]), ...pix(idx[t + 2])]);
    tex.push([...pg(idx[t]), ...pg(idx[t + 1]), ...pg(idx[t + 2])]);
  }
  const mul = [s.color[0], s.color[1], s.color[2], s.color[3] * s.alphaScale];
  return { tris, tex, mul, off: s.colorOffset ?? [0, 0, 0, 0], blend: s.blend ?? "normal" };
}

// a slot whose colour makes it fully transparent draws nothing: not framed, not checked
const invisible = (s) => s.color[3] * s.alphaScale <= 0 && !((s.colorOffset?.[3] ?? 0) > 0);

// world bounds (y up) of every drawn vertex of the visible slots
export function worldBounds(slots) {
  const b = [Infinity, Infinity, -Infinity, -Infinity];
  for (const s of slots) {
    if (invisible(s)) continue;
    for (let k = 0; k < s.vertices.length; k += 2) {
      const x = s.vertices[k], y = -s.vertices[k + 1];
      b[0] = Math.min(b[0], x); b[1] = Math.min(b[1], y); b[2] = Math.max(b[2], x); b[3] = Math.max(b[3], y);
    }
  }
  return b;
}

function sig4Up(x) {
  const e = Math.floor(Math.log10(x)) - 3;
  const f = 10 ** e;
  return Number((Math.ceil(x / f - 1e-9) * f).toPrecision(4));
}

// the view for the union bounds: padded, longer side LONG_SIDE pixels, same units per pixel
// on both axes (rounded up to 4 significant digits), corners rounded to 3 decimals.
export function fitView(b) {
  const bw = b[2] - b[0], bh = b[3] - b[1];
  const pb = [b[0] - PAD * bw, b[1] - PAD * bh, b[2] + PAD * bw, b[3] + PAD * bh];
  const pw = pb[2] - pb[0], ph = pb[3] - pb[1];
  const upp = sig4Up(Math.max(pw, ph) / LONG_SIDE);
  const W = Math.ceil(pw / upp - 1e-9), H = Math.ceil(ph / upp - 1e-9);
  const cx = (pb[0] + pb[2]) / 2, cy = (pb[1] + pb[3]) / 2;
  const r3 = (x) => Number(x.toFixed(3));
  const view = [r3(cx - (W * upp) / 2), r3(cy - (H * upp) / 2), r3(cx + (W * upp) / 2), r3(cy + (H * upp) / 2)];
  return { view, W, H, upp };
}

// ------------------------------------------------------------------ cases
function caseTimes(durationS, frameRate) {
  const onKey = (k) => Math.abs(((k / 120) * frameRate) - Math.round((k / 120) * frameRate)) < 1e-9;
  const out = [];
  for (const f of FRACTIONS) {
    let k = 2 * Math.round((f * durationS * 120 - 1) / 2) + 1;
    while (onKey(k) || out.includes(k)) k += 2;
    if (k / 120 >= durationS) throw new Error(`no time inside the animation for fraction ${f}`);
    out.push(k);
  }
  return out.map((k) => Number((k / 120).toFixed(6)));
}

function timeString(t) {
  return String(t);
}

export function runDump(oracle, ske, armature, anim, t) {
  const args = [path.join(oracle, "dump.mjs"), ske, "--armature", armature, "--anim", anim, "--times", timeString(t), "--fps", String(FPS), "--uvs"];
  const out = execFileSync(process.execPath, args, { cwd: oracle, maxBuffer: 1 << 28, encoding: "utf8" });
  const d = JSON.parse(out);
  if (d.frames.length !== 1 || Math.abs(d.frames[0].time - t) > 1e-12) throw new Error(`dump.mjs ${args.join(" ")}: expected one frame at ${t}`);
  return d;
}

function planCases(fixtures) {
  const anims = [];
  for (const fx of FIXTURES) {
    const ske = path.join(fixtures, "dragonbones", fx.ske);
    const raw = JSON.parse(fs.readFileSync(ske, "utf8"));
    const defaultArm = raw.stage ?? raw.armature[0].name;
    let first = true;
    for (const arm of raw.armature) {
      const frameRate = arm.frameRate || raw.frameRate || 24;
      for (const an of arm.animation ?? []) {
        const dur = Math.max(an.duration ?? 1, 1) / frameRate;
        const times = caseTimes(dur, frameRate);
        // t = 0 once per file, where the pose at 0 draws something (effect's skill starts empty)
        if (first && fx.fixture !== "effect") times.unshift(0);
        first = false;
        anims.push({ fx, ske, skeRel: `dragonbones/${fx.ske}`, armature: arm.name, isDefault: arm.name === defaultArm, anim: an.name, duration: dur, frameRate, times });
      }
    }
  }
  return anims;
}

function caseName(a, t) {
  const arm = a.isDefault ? "" : `${a.armature}-`;
  return `${a.fx.fixture}__${arm}${a.anim}__${t.toFixed(4)}`;
}

function sinewArgs(a, t, W, H, view, png) {
  const args = ["render", a.skeRel];
  if (!a.isDefault) args.push("--armature", a.armature);
  args.push("--anim", a.anim, "--times", timeString(t), "--fps", String(FPS), "--size", `${W}x${H}`, "--view", view.join(","), "--out", png);
  return args;
}

// ------------------------------------------------------------------ self-checks
// Every non-rotated SubTexture drawn on an axis-aligned quad at one pixel per unit, offset by
// one pixel, must reproduce its atlas pixels (alpha exactly, colour within 1 where alpha > 0)
// with a transparent 1-pixel border.
function texCheck(atlas, name) {
  let maxDiff = 0, alphaDiff = 0, n = 0;
  for (const [rn, r] of atlas.regions) {
    if (r.rotated) continue;
    const W = r.w + 2, H = r.h + 2;
    const view = [-1, -(r.h + 1), r.w + 1, 1];
    const s = { slot: rn, type: "image", texture: rn, vertices: [0, 0, r.w, 0, r.w, r.h, 0, r.h], color: [1, 1, 1, 1], colorOffset: [0, 0, 0, 0], blend: "normal", alphaScale: 1 };
    const errs = [];
    const img = rasterise([slotItem(s, atlas, view, W, H, errs, name)], atlas.page, W, H);
    if (errs.length) throw new Error(errs.join("\n"));
    for (let j = 0; j < H; j++) {
      for (let i = 0; i < W; i++) {
        const o = (j * W + i) * 4;
        const inside = i >= 1 && j >= 1 && i <= r.w && j <= r.h;
        if (!inside) { alphaDiff = Math.max(alphaDiff, img[o + 3]); continue; }
        const p = ((r.y + j - 1) * atlas.page.width + (r.x + i - 1)) * 4;
        const a = atlas.page.straight[p + 3];
        alphaDiff = Math.max(alphaDiff, Math.abs(img[o + 3] - a));
        if (a > 0) for (let c = 0; c < 3; c++) maxDiff = Math.max(maxDiff, Math.abs(img[o + c] - atlas.page.straight[p + c]));
      }
    }
    n++;
  }
  if (alphaDiff > 0 || maxDiff > 1) throw new Error(`texcheck ${name}: a SubTexture on a unit quad differs from the atlas (alpha by ${alphaDiff}, colour by ${maxDiff})`);
  return { regions: n, maxAlphaDiff: alphaDiff, maxColourDiff: maxDiff };
}

// A quad covering exactly the left half of a 4x2 image, drawn as two triangles sharing a
// diagonal, must give alpha 255 there (no seam, no double blend with a translucent colour) and
// 0 on the right half; a half-transparent colour must give alpha 128 exactly once.
function seamCheck(atlas) {
  const rn = [...atlas.regions.keys()][0];
  const errs = [];
  const s = { slot: rn, type: "image", texture: rn, vertices: [0, 0, 2, 0, 2, 2, 0, 2], color: [1, 1, 1, 0.5], colorOffset: [0, 0, 0, 0], blend: "normal", alphaScale: 1 };
  // a page whose every texel is opaque white
  const page = { width: 4, height: 4, tex: new Float32Array(64).fill(1) };
  const at = { regions: new Map([[rn, { x: 0, y: 0, w: 4, h: 4, rotated: false }]]), page };
  const img = rasterise([slotItem(s, at, [0, -2, 4, 0], 4, 2, errs, "seam")], page, 4, 2);
  for (let j = 0; j < 2; j++) {
    for (let i = 0; i < 4; i++) {
      const a = img[(j * 4 + i) * 4 + 3];
      const want = i < 2 ? 128 : 0;
      if (a !== want) throw new Error(`seam check: pixel ${i},${j} alpha ${a}, expected ${want}`);
    }
  }
}

function checkCase(c, slots, img, W, H, view, errs) {
  let cover = 0, any = 0;
  for (let p = 0; p < W * H; p++) {
    if (img[p * 4 + 3] >= 128) cover++;
    if (img[p * 4 + 3] > 0) any++;
  }
  if (any < 0.005 * W * H) errs.push(`${c}: almost nothing drawn (${any} pixels with alpha > 0)`);
  const sx = W / (view[2] - view[0]), sy = H / (view[3] - view[1]);
  for (const s of slots) {
    if (invisible(s)) continue;
    for (let k = 0; k < s.vertices.length; k += 2) {
      const px = (s.vertices[k] - view[0]) * sx, py = (view[3] + s.vertices[k + 1]) * sy;
      if (!(px >= 0 && px <= W && py >= 0 && py <= H)) {
        errs.push(`${c}: slot ${s.slot} vertex ${k / 2} at pixel ${px.toFixed(2)},${py.toFixed(2)} is outside ${W}x${H}`);
        break;
      }
    }
  }
  return cover;
}

// ------------------------------------------------------------------ main
function main() {
  const args = parseArgs(process.argv.slice(2));
  const oracle = args.positional[0];
  if (!oracle || !fs.existsSync(path.join(oracle, "dump.mjs"))) {
    console.error("usage: node compose.mjs ORACLE_DIR [--fixtures DIR] [--only SUBSTR]  (ORACLE_DIR: a copy of shared/oracle/dragonbones after npm install)");
    process.exit(2);
  }
  const fixtures = path.resolve(args.fixtures ?? defaultFixtures());
  const oracleAbs = path.resolve(oracle);
  const errs = [];
  const atlases = new Map();
  const texcheck = {};
  for (const fx of FIXTURES) {
    const ske = path.join(fixtures, "dragonbones", fx.ske);
    const texFile = ske.replace(/_ske\.json$/, "_tex.json");
    const atlas = loadAtlas(JSON.parse(fs.readFileSync(texFile, "utf8")), texFile);
    atlases.set(fx.fixture, atlas);
    texcheck[`dragonbones/${path.relative(path.join(fixtures, "dragonbones"), texFile)}`] = texCheck(atlas, texFile);
  }
  seamCheck(atlases.get("dragon_boy"));

  const anims = planCases(fixtures);
  const cases = [];
  let runtime = null;
  for (const a of anims) {
    const names = a.times.map((t) => caseName(a, t));
    if (args.only && !names.some((n) => n.includes(args.only))) continue;
    const atlas = atlases.get(a.fx.fixture);
    const posed = a.times.map((t) => {
      const d = runDump(oracleAbs, a.ske, a.armature, a.anim, t);
      runtime = d.meta.runtime;
      return { t, d, slots: drawnSlots(d.frames[0]) };
    });
    const ub = [Infinity, Infinity, -Infinity, -Infinity];
    for (const p of posed) {
      const b = worldBounds(p.slots);
      p.bounds = b;
      ub[0] = Math.min(ub[0], b[0]); ub[1] = Math.min(ub[1], b[1]); ub[2] = Math.max(ub[2], b[2]); ub[3] = Math.max(ub[3], b[3]);
    }
    if (!ub.every(Number.isFinite)) throw new Error(`${a.fx.fixture} ${a.anim}: no drawn vertices`);
    const { view, W, H, upp } = fitView(ub);
    for (const p of posed) {
      const name = caseName(a, p.t);
      if (args.only && !name.includes(args.only)) continue;
      const items = p.slots.map((s) => slotItem(s, atlas, view, W, H, errs, name));
      const img = rasterise(items, atlas.page, W, H);
      const cover = checkCase(name, p.slots, img, W, H, view, errs);
      const png = `${name}.png`;
      const bytes = encodePng(W, H, img);
      fs.writeFileSync(path.join(HERE, png), bytes);
      const f = p.d.frames[0];
      const child = p.d.frames[0].slots.filter((s) => s.child).map((s) => ({ slot: s.slot, armature: s.child.armature, animation: s.child.animation, animTime: s.child.animTime, slotAlpha: s.color[3] }));
      const r6 = (x) => Number(x.toFixed(6));
      const argv = sinewArgs(a, p.t, W, H, view, png);
      cases.push({
        name,
        skeleton: a.skeRel,
        atlas: a.skeRel.replace(/_ske\.json$/, "_tex.json"),
        armature: a.armature,
        animation: a.anim,
        time: p.t,
        fps: FPS,
        animTime: f.animTime,
        size: `${W}x${H}`,
        width: W,
        height: H,
        view,
        unitsPerPixel: upp,
        png,
        sha256: crypto.createHash("sha256").update(bytes).digest("hex"),
        args: argv,
        command: `sinew ${argv.join(" ")}`,
        bounds: p.bounds.map(r6),
        drawn: {
          images: p.slots.filter((s) => s.type === "image").length,
          meshes: p.slots.filter((s) => s.type === "mesh").length,
          blend: [...new Set(p.slots.map((s) => s.blend))].sort(),
          childSlots: p.slots.filter((s) => s.depth > 0).length,
        },
        children: child,
        opaqueShare: r6(cover / (W * H)),
      });
      console.error(`${name}: ${W}x${H}, ${p.slots.length} slots, ${bytes.length} B, opaque ${(100 * cover / (W * H)).toFixed(1)} %`);
    }
  }
  if (errs.length) {
    console.error("SELF-CHECK FAILED:\n" + errs.join("\n"));
    process.exit(1);
  }
  if (args.only) return;
  const manifest = {
    about: "Reference renders of the shared DragonBones fixtures, made without sinew's renderer: poses from the official runtime (dump.mjs of shared/oracle/dragonbones), drawn by compose.mjs with each rig's atlas page. Run each case's `args` with the sinew CLI from the fixtures dir (paths are relative to it) and compare with `png`, e.g. alpha IoU (alpha >= 128) and PSNR over grey (compare.mjs). Derived from the fixture art: test data only, see each fixture's SOURCE.md.",
    runtime,
    oracle: "dump.mjs SKE --armature A --anim N --times T --fps 60 --uvs (play mode, the animation's own playTimes), one run per case",
    generator: "testdata/dragonbones/render-ref/compose.mjs (node compose.mjs ORACLE_DIR)",
    pixels: "Straight-alpha RGBA8, rows top first, transparent background. World = runtime (x, -y). Image pixel (i, j) covers world x in [x0 + i (x1 - x0) / W, x0 + (i + 1) (x1 - x0) / W) and y from y1 downwards (pixel row j: y in (y1 - (j + 1) (y1 - y0) / H, y1 - j (y1 - y0) / H]), as sinew-render's View::to_pixel. 4x4 samples per pixel at (i + (a + 0.5) / 4, j + (b + 0.5) / 4), each triangle shaded once per pixel at the pixel centre (multisampling), image = mean of the samples.",
    drawing: "Images: the quad corners top-left, top-right, bottom-right, bottom-left get the SubTexture's corners; meshes: the runtime's triangles with region-local UVs mapped to (x + u w, y + v h). Bilinear on premultiplied texels at texel centres, clamped to the page. Colour: Flash ColorTransform on straight colour (multipliers, offsets / 255), then premultiplied. Blend premultiplied: normal s + d (1 - s.a); add s + d (alpha too), clamped to 1. Child armature slots drawn in place of their slot, alpha times the slot's alpha.",
    view: `union of the drawn vertices' bounds over the animation's cases, padded ${PAD * 100} % each side; world units per pixel = longer side / ${LONG_SIDE} rounded up to 4 significant digits; centred; corners rounded to 3 decimals`,
    times: "odd multiples of 1/120 s near 13, 50 and 87 % of the duration, never on a key frame nor the 60 fps grid; t = 0 for the first animation of each file",
    texcheck,
    cases,
  };
  fs.writeFileSync(path.join(HERE, "MANIFEST.json"), JSON.stringify(manifest, null, 1) + "\n");
  const total = cases.reduce((s, c) => s + fs.statSync(path.join(HERE, c.png)).size, 0);
  console.error(`${cases.length} cases, ${total} bytes of PNG`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(`compose.mjs: ${e.message}`);
    process.exit(1);
  }
}
