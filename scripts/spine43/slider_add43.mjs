// Poses of a Spine 4.3 rig with additive sliders by the official 4.3 runtime, optionally with
// some timeline kinds applying a slider's `add` the way Spine 4.2's `MixBlend.add` did: the
// control that shows each kind where 4.2 and 4.3 add differently moves the golden's pose.
//
//   node scripts/spine43/slider_add43.mjs ORACLE_DIR FILE.json [dump43 options] [--as-42 KINDS]
//
// KINDS: a comma list of transform, path-position, path-mix, wind, gravity, slider-time,
// slider-mix, or `all`. For those timelines, a call with `appliedPose` (what Slider.update
// passes; an AnimationState never does) runs with `add` false: 4.2's add blend mixed
// absolute values and constraint mixes from the current value like a replace, where 4.3's
// `add` adds the key value (spine-core 4.3.13 CurveTimeline1.getAbsoluteValue,
// TransformConstraintTimeline / PathConstraintMixTimeline.apply). Every other kind adds
// alike in both versions (bone values and deforms) or never adds (IK, path spacing, other
// physics values, colours, attachments, draw order), so it has no switch here.
// Without --as-42 the frames are dump43.mjs's.
//
// ORACLE_DIR: ../shared/oracle/spine43 with the 4.3.13 package installed (or SPINE43_CORE=DIR).
import path from "node:path";
import { pathToFileURL } from "node:url";

const [oracle, file, ...rest] = process.argv.slice(2);
if (!oracle || !file) {
  console.error("usage: slider_add43.mjs ORACLE_DIR FILE.json [dump43 options] [--as-42 KINDS]");
  process.exit(2);
}
const d = await import(pathToFileURL(path.join(path.resolve(oracle), "dump43.mjs")).href);
const s = d.spine;
const opts = d.parseArgs(rest);

const KINDS = {
  transform: s.TransformConstraintTimeline,
  "path-position": s.PathConstraintPositionTimeline,
  "path-mix": s.PathConstraintMixTimeline,
  wind: s.PhysicsConstraintWindTimeline,
  gravity: s.PhysicsConstraintGravityTimeline,
  "slider-time": s.SliderTimeline,
  "slider-mix": s.SliderMixTimeline,
};
let as42 = String(opts["as-42"] ?? "").split(",").filter(Boolean);
if (as42.includes("all")) as42 = Object.keys(KINDS);
for (const kind of as42) {
  const cls = KINDS[kind];
  if (!cls) throw new Error("unknown --as-42 kind " + kind);
  const apply = cls.prototype.apply;
  // An own property on the class, so a subclass sharing its parent's apply is patched alone.
  cls.prototype.apply = function (skeleton, lastTime, time, events, alpha, from, add, out, applied) {
    return apply.call(this, skeleton, lastTime, time, events, alpha, from, applied ? false : add, out, applied);
  };
}

const rig = d.makeRig(file, opts);
const frames = [];
d.runSchedule(rig, d.parseTimes(opts.times ?? "0"), Number(opts.fps ?? 60), (t, now, steps) => {
  const pose = d.dumpPose(rig.skeleton, { vertices: !opts["no-vertices"] });
  frames.push({ time: t, clock: now, step: steps, ...pose, events: rig.pendingEvents });
  rig.pendingEvents = [];
});
let out = {
  meta: {
    oracle: "slider_add43.mjs",
    runtime: `@esotericsoftware/spine-core ${d.runtimeVersion()}`,
    skeleton: path.basename(file),
    animation: opts.anim ?? null,
    as42,
    fps: Number(opts.fps ?? 60),
    physics: rig.physicsName,
  },
  frames,
};
if (opts.round !== undefined) out = d.roundAll(out, Number(opts.round));
process.stdout.write(JSON.stringify(out) + "\n");
