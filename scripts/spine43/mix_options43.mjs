// Poses of a Spine 4.3 rig by the official 4.3 runtime with the 4.3 track entry options a host
// sets: additive tracks (TrackEntry.additive), keepHold and mixInterpolation. Builds the rig
// and its AnimationState through the shared oracle's dump43.mjs (same options, time stepping
// and output schema), then sets the options on the entries before the first step:
//
//   node scripts/spine43/mix_options43.mjs ORACLE_DIR FILE.json [dump43 options]
//       [--layers NAME[@ALPHA],...]  more animations, looping, on tracks 1, 2, ... (alpha 1)
//       [--layer-at T --layer-mix D]  with D > 0: the layers start empty (setEmptyAnimation)
//                                     and mix in over D seconds, queued with delay T
//       [--additive]                  the layer entries are additive (TrackEntry.additive)
//       [--keep-hold]                 the --from entry keeps its hold bits (TrackEntry.keepHold)
//       [--then NAME:DELAY:MIX,...]   more entries queued on track 0 after --anim
//       [--chain-alpha A]             the alpha of every track 0 entry
//       [--mix-interpolation SPEC]    the --anim and layer entries' mix curve: linear, smooth,
//                                     slowFast, fastSlow, circle, pow:N, powOut:N
//
// ORACLE_DIR: ../shared/oracle/spine43 with the 4.3.13 package installed (or SPINE43_CORE=DIR).
// sinew's `sinew dump` takes the same options, so a golden's args replay in both.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [oracle, file, ...rest] = process.argv.slice(2);
if (!oracle || !file) {
  console.error("usage: mix_options43.mjs ORACLE_DIR FILE.json [dump43 options] [--layers ...]");
  process.exit(2);
}
const d = await import(pathToFileURL(path.join(path.resolve(oracle), "dump43.mjs")).href);
const { Interpolation, Pow, PowOut, AnimationState } = d.spine;

// dump43's parser reads every `--key value`; the two flags here take no value.
const flags = new Set(["--additive", "--keep-hold"]);
const set = new Set(rest.filter((a) => flags.has(a)));
const opts = d.parseArgs(rest.filter((a) => !flags.has(a)));

function interpolation(spec) {
  const [name, arg] = String(spec).split(":");
  if (name === "pow") return new Pow(Number(arg));
  if (name === "powOut") return new PowOut(Number(arg));
  const i = Interpolation[name];
  if (!i) throw new Error("unknown --mix-interpolation " + spec);
  return i;
}

const rig = d.makeRig(file, opts);
const state = rig.state;
if (!state) throw new Error("the options need --mode state");
const interp = opts["mix-interpolation"] ? interpolation(opts["mix-interpolation"]) : null;
const first = state.tracks[0];
if (first) {
  if (set.has("--keep-hold") && opts.from) first.keepHold = true;
  // With --from, the --anim entry is queued after it; without, it is the track's entry.
  const anim = opts.from ? first.next : first;
  if (anim && interp) anim.setMixInterpolation(interp);
}
// --then NAME:DELAY:MIX,...: queued on track 0 after --anim (interrupting crossfades).
// --chain-alpha A: the alpha of every track 0 entry.
const chainAlpha = opts["chain-alpha"] !== undefined ? Number(opts["chain-alpha"]) : null;
for (const item of (opts.then ?? "").split(",").filter(Boolean)) {
  const [name, delay, mix] = item.split(":");
  const entry = state.addAnimation(0, name, (opts.loop ?? "true") !== "false", Number(delay));
  entry.mixDuration = Math.max(Number(mix), 0);
}
if (chainAlpha !== null)
  for (let e = state.tracks[0]; e; e = e.next) e.alpha = chainAlpha;
const layers = (opts.layers ?? "").split(",").filter(Boolean);
const at = Number(opts["layer-at"] ?? 0), mix = Number(opts["layer-mix"] ?? 0);
layers.forEach((spec, k) => {
  const [name, alpha] = spec.split("@");
  const track = k + 1;
  let entry;
  if (mix > 0) {
    state.setEmptyAnimation(track, 0);
    entry = state.addAnimation(track, name, true, at);
    entry.mixDuration = mix;
  } else entry = state.setAnimation(track, name, true);
  entry.alpha = alpha === undefined ? 1 : Number(alpha);
  if (set.has("--additive")) entry.additive = true;
  if (interp) entry.setMixInterpolation(interp);
});

const frames = [];
d.runSchedule(rig, d.parseTimes(opts.times ?? "0"), Number(opts.fps ?? 60), (t, now, steps) => {
  const pose = d.dumpPose(rig.skeleton, { vertices: !opts["no-vertices"] });
  frames.push({ time: t, clock: now, step: steps, ...pose, events: rig.pendingEvents });
  rig.pendingEvents = [];
});
let out = {
  meta: {
    oracle: "mix_options43.mjs",
    runtime: `@esotericsoftware/spine-core ${d.runtimeVersion()}`,
    skeleton: path.basename(file),
    animation: opts.anim ?? null,
    from: opts.from ?? null,
    layers,
    additive: set.has("--additive"),
    keepHold: set.has("--keep-hold"),
    mixInterpolation: opts["mix-interpolation"] ?? "linear",
    skin: opts.skin ?? "default",
    fps: Number(opts.fps ?? 60),
    physics: rig.physicsName,
    empty: AnimationState.emptyAnimation.name,
  },
  frames,
};
if (opts.round !== undefined) out = d.roundAll(out, Number(opts.round));
process.stdout.write(JSON.stringify(out) + "\n");
