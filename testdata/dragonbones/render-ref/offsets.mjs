#!/usr/bin/env node
// Reference renders of DragonBones colour offsets, made without sinew: patch.json's colour
// transforms are patched onto a temporary copy of the shared dragon_boy fixture (setup colours
// and 5.0 slot frame colours), the official
// runtime poses it (dump.mjs) and compose.mjs's compositor draws it (Flash ColorTransform on
// straight colour: multipliers, offsets / 255). Writes offsets/*.png and offsets/MANIFEST.json.
//   node testdata/dragonbones/render-ref/offsets.mjs ORACLE_DIR [FIXTURES_DIR]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";
import { encodePng } from "./png.mjs";
import { loadAtlas, drawnSlots, slotItem, worldBounds, fitView, runDump, rasterise } from "./compose.mjs";

const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), "offsets");
const oracle = path.resolve(process.argv[2] ?? "");
const fixtures = path.resolve(process.argv[3] ?? process.env.SINEW_FIXTURES ?? path.join(HERE, "../../../../../shared/fixtures"));
const patch = JSON.parse(fs.readFileSync(path.join(HERE, "patch.json"), "utf8"));

// The patched rig beside copies of its atlas in a temporary directory.
export function patched(fixturesDir, p) {
  const src = path.join(fixturesDir, "dragonbones", p.fixture);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sinew-offsets-"));
  const ske = JSON.parse(fs.readFileSync(src, "utf8"));
  const arm = ske.armature.find((a) => a.name === p.armature);
  for (const s of arm.slot) if (p.setup[s.name]) s.color = p.setup[s.name];
  const an = arm.animation.find((a) => a.name === p.frames.animation);
  for (const [slot, colors] of Object.entries(p.frames.slots)) {
    const st = an.slot.find((s) => s.name === slot);
    st.frame.forEach((f, i) => { f.color = colors[i % colors.length]; });
  }
  const base = path.basename(src).replace(/_ske\.json$/, "");
  fs.writeFileSync(path.join(dir, `${base}_ske.json`), JSON.stringify(ske));
  for (const f of [`${base}_tex.json`, `${base}_tex.png`]) fs.copyFileSync(path.join(path.dirname(src), f), path.join(dir, f));
  return { dir, ske: path.join(dir, `${base}_ske.json`), tex: path.join(dir, `${base}_tex.json`) };
}

const { ske, tex } = patched(fixtures, patch);
const atlas = loadAtlas(JSON.parse(fs.readFileSync(tex, "utf8")), tex);
const posed = patch.cases.map(([anim, t]) => {
  const d = runDump(oracle, ske, patch.armature, anim, t);
  return { anim, t, slots: drawnSlots(d.frames[0]) };
});
const ub = [Infinity, Infinity, -Infinity, -Infinity];
for (const p of posed) {
  const b = worldBounds(p.slots);
  ub[0] = Math.min(ub[0], b[0]); ub[1] = Math.min(ub[1], b[1]); ub[2] = Math.max(ub[2], b[2]); ub[3] = Math.max(ub[3], b[3]);
}
const { view, W, H } = fitView(ub);
const cases = [];
for (const p of posed) {
  const errs = [];
  const name = `dragon_boy_offsets__${p.anim}__${p.t.toFixed(4)}`;
  const img = rasterise(p.slots.map((s) => slotItem(s, atlas, view, W, H, errs, name)), atlas.page, W, H);
  if (errs.length) throw new Error(errs.join("\n"));
  const bytes = encodePng(W, H, img);
  fs.writeFileSync(path.join(HERE, `${name}.png`), bytes);
  const offsets = p.slots.filter((s) => s.colorOffset.some((o) => o !== 0)).map((s) => s.slot);
  cases.push({ name, animation: p.anim, time: p.t, size: `${W}x${H}`, view, png: `${name}.png`,
    sha256: crypto.createHash("sha256").update(bytes).digest("hex"), slotsWithOffsets: offsets });
}
fs.writeFileSync(path.join(HERE, "MANIFEST.json"), JSON.stringify({ patch: "patch.json", fps: 60, cases }, null, 1) + "\n");
console.log(`${cases.length} offset references written`);
