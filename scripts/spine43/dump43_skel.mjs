// Poses a Spine 4.3 binary `.skel` with the official 4.3 runtime, through the shared oracle's
// dump43.mjs (same options, time stepping and output frames), which reads only JSON: its
// texture-free attachment loader is reused by handing spine-core's SkeletonJson a stand-in
// document that names the `.skel`, and reading that file with SkeletonBinary instead.
//
//   node scripts/spine43/dump43_skel.mjs ORACLE_DIR FILE.skel --anim NAME --times ... > out.json
//
// ORACLE_DIR: a copy of ../shared/oracle/spine43 with `npm install` done.
import path from "node:path";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const [oracle, file, ...rest] = process.argv.slice(2);
if (!oracle || !file) {
  console.error("usage: dump43_skel.mjs ORACLE_DIR FILE.skel [dump43 options]");
  process.exit(2);
}
const d = await import(pathToFileURL(path.join(path.resolve(oracle), "dump43.mjs")).href);
const { SkeletonJson, SkeletonBinary } = d.spine;
const readJson = SkeletonJson.prototype.readSkeletonData;
SkeletonJson.prototype.readSkeletonData = function (root) {
  if (root && root.__skel) {
    const binary = new SkeletonBinary(this.attachmentLoader);
    binary.scale = this.scale;
    return binary.readSkeletonData(new Uint8Array(fs.readFileSync(root.__skel)));
  }
  return readJson.call(this, root);
};
const opts = d.parseArgs(rest);
const text = JSON.stringify({ skeleton: { spine: "4.3.0" }, __skel: path.resolve(file) });
const data = d.loadSkeletonData(file, { atlasPath: opts.atlas ?? null, scale: Number(opts.scale ?? 1), text });
const rig = d.makeRig(file, opts, { data });
const frames = [];
d.runSchedule(rig, d.parseTimes(opts.times ?? "0"), Number(opts.fps ?? 60), (t, now, steps) => {
  const pose = d.dumpPose(rig.skeleton, { vertices: !opts["no-vertices"], uvs: !!opts.uvs, local: !!opts.local });
  frames.push({ time: t, clock: now, step: steps, ...pose, events: rig.pendingEvents });
  rig.pendingEvents = [];
});
let out = { meta: { oracle: "dump43_skel.mjs", editorVersion: data.version, hash: data.hash }, frames };
if (opts.round !== undefined) out = d.roundAll(out, Number(opts.round));
process.stdout.write(JSON.stringify(out) + "\n");
