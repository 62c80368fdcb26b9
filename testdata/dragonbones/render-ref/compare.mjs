#!/usr/bin/env node
// Measures sinew's renders against the DragonBones reference renders of this folder.
//
// Usage: node testdata/dragonbones/render-ref/compare.mjs SINEW_BIN FIXTURES_DIR [--only SUBSTR] [--json FILE] [--keep DIR]
//   SINEW_BIN     the sinew CLI (e.g. target/release/sinew)
//   FIXTURES_DIR  the shared fixtures dir (MANIFEST paths are relative to it)
//   --only        only the cases whose name contains SUBSTR
//   --json        also write the figures as JSON
//   --keep        write sinew's PNGs there (default: a temporary dir, removed)
//
// For each MANIFEST case it runs `SINEW_BIN <args>` in FIXTURES_DIR with `--out` pointed at
// the output dir, then compares the two images: alpha IoU (pixels with alpha >= 128 in both /
// in either; 1 when neither has any) and PSNR of RGB with both images composited over mid grey
// (128) in float, PSNR = 10 log10(255^2 / MSE) over every pixel and channel (inf when equal).
// A case sinew refuses is reported with its error. Exit status 0 when every case ran, 1 when
// any failed to run, 2 on bad usage.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readPng } from "./png.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Alpha IoU (threshold 128) and PSNR over grey of two straight-alpha RGBA8 images. */
export function compareImages(a, b) {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`size ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  let inter = 0, union = 0, se = 0;
  const n = a.width * a.height;
  for (let p = 0; p < n; p++) {
    const o = p * 4;
    const aa = a.data[o + 3], ba = b.data[o + 3];
    const ia = aa >= 128, ib = ba >= 128;
    if (ia && ib) inter++;
    if (ia || ib) union++;
    for (let c = 0; c < 3; c++) {
      const ca = (a.data[o + c] * aa) / 255 + 128 * (1 - aa / 255);
      const cb = (b.data[o + c] * ba) / 255 + 128 * (1 - ba / 255);
      se += (ca - cb) ** 2;
    }
  }
  const mse = se / (n * 3);
  return { iou: union === 0 ? 1 : inter / union, psnr: mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse) };
}

function main() {
  const pos = [];
  const o = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (["--only", "--json", "--keep"].includes(argv[i])) o[argv[i].slice(2)] = argv[++i];
    else pos.push(argv[i]);
  }
  if (pos.length !== 2) {
    console.error("usage: node compare.mjs SINEW_BIN FIXTURES_DIR [--only SUBSTR] [--json FILE] [--keep DIR]");
    process.exit(2);
  }
  const bin = path.resolve(pos[0]);
  const fixtures = path.resolve(pos[1]);
  const manifest = JSON.parse(fs.readFileSync(path.join(HERE, "MANIFEST.json"), "utf8"));
  const outDir = o.keep ? path.resolve(o.keep) : fs.mkdtempSync(path.join(os.tmpdir(), "db-render-cmp-"));
  fs.mkdirSync(outDir, { recursive: true });
  const rows = [];
  let failed = 0;
  for (const c of manifest.cases) {
    if (o.only && !c.name.includes(o.only)) continue;
    const args = c.args.slice();
    const k = args.indexOf("--out");
    const out = path.join(outDir, c.png);
    args[k + 1] = out;
    fs.rmSync(out, { force: true });
    const r = spawnSync(bin, args, { cwd: fixtures, encoding: "utf8" });
    if (r.status !== 0 || !fs.existsSync(out)) {
      failed++;
      const msg = (r.stderr || r.error?.message || "").trim().split("\n").slice(-1)[0];
      rows.push({ name: c.name, error: msg });
      console.log(`${c.name.padEnd(34)} sinew failed: ${msg}`);
      continue;
    }
    const m = compareImages(readPng(path.join(HERE, c.png)), readPng(out));
    rows.push({ name: c.name, iou: Number(m.iou.toFixed(4)), psnr: Number(m.psnr.toFixed(2)), drawn: c.drawn });
    console.log(`${c.name.padEnd(34)} IoU ${m.iou.toFixed(4)}  PSNR ${m.psnr.toFixed(2)} dB  (${c.drawn.images} images, ${c.drawn.meshes} meshes, ${c.drawn.childSlots} child slots)`);
  }
  if (o.json) fs.writeFileSync(o.json, JSON.stringify({ bin, rows }, null, 1) + "\n");
  if (!o.keep) fs.rmSync(outDir, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
