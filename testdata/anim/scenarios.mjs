#!/usr/bin/env node
// Runs scripted AnimationState scenarios on the official runtime (spine-core 4.2, through the
// shared oracle's loader) and writes testdata/anim/state/<name>.json for
// crates/sinew-formats/tests/all/anim_local.rs, which replays the same commands on sinew.
//
// A scenario is a rig, a mix table and a list of commands, each run just before a step
// (step 0 is the initial 0 s step; every later step is 1/fps s). Each step does
//     state.update(dt); state.apply(skeleton); skeleton.update(dt)
// and every `every` steps (and the last) the file gets the local bone values, the slots in
// draw order (attachment, colour, dark colour, sequence index), the animatable constraint
// values (IK, transform, path, physics) and the lifecycle and key events since the previous
// sample, as [type, track, animation, event name, event time]. Numbers keep 10 significant
// digits; a bone or slot row equal to the previous sample's row is written as 0.
//
// Usage: ORACLE=/tmp/oracle-anim FIXTURES=/work/shared/fixtures node testdata/anim/scenarios.mjs
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const ORACLE = process.env.ORACLE ?? "/tmp/oracle-anim";
const FIXTURES = process.env.FIXTURES ?? path.join(here, "..", "..", "..", "shared", "fixtures");
const spine = await import(path.join(ORACLE, "node_modules/@esotericsoftware/spine-core/dist/index.js"));
const { loadSkeletonData, applySkin } = await import(path.join(ORACLE, "dump.mjs"));
const { Skeleton, AnimationState, AnimationStateData, MixBlend } = spine;

// Entry fields a command may set (after the entry is created).
const ENTRY_FIELDS = ["holdPrevious", "reverse", "shortestRotation", "alpha", "timeScale", "eventThreshold",
  "mixAttachmentThreshold", "alphaAttachmentThreshold", "mixDrawOrderThreshold", "trackEnd", "mixDuration",
  "animationStart", "animationEnd", "delay"];

export const SCENARIOS = [
  {
    name: "spineboy__interrupts", skeleton: "spineboy/spineboy-pro.json", steps: 150, every: 5,
    mixes: [["walk", "run", 0.25], ["run", "jump", 0.3]], defaultMix: 0.1,
    commands: [
      { step: 0, op: "set", track: 0, anim: "walk", loop: true },
      { step: 20, op: "set", track: 0, anim: "run", loop: true },
      { step: 30, op: "set", track: 0, anim: "jump", loop: false },
      { step: 32, op: "add", track: 0, anim: "idle", loop: true, delay: 0 },
      { step: 36, op: "add", track: 0, anim: "walk", loop: true, delay: 0.2, entry: { mixDuration: 0.15 } },
    ],
  },
  {
    name: "spineboy__layers", skeleton: "spineboy/spineboy-pro.json", steps: 120, every: 4,
    mixes: [], defaultMix: 0.2,
    commands: [
      { step: 0, op: "set", track: 0, anim: "run", loop: true },
      { step: 0, op: "set", track: 1, anim: "aim", loop: true, entry: { alpha: 0.6, mixBlend: "add" } },
      { step: 5, op: "set", track: 2, anim: "shoot", loop: false, entry: { alpha: 0.8 } },
      { step: 30, op: "setEmpty", track: 1, mix: 0.3 },
      { step: 45, op: "addEmpty", track: 2, mix: 0.25, delay: 0 },
      { step: 70, op: "set", track: 1, anim: "portal", loop: false, entry: { mixBlend: "replace", timeScale: 1.5 } },
      { step: 100, op: "clearTrack", track: 2 },
    ],
  },
  {
    name: "spineboy__hold-reverse", skeleton: "spineboy/spineboy-pro.json", steps: 120, every: 4,
    mixes: [], defaultMix: 0.3,
    commands: [
      { step: 0, op: "set", track: 0, anim: "idle", loop: true },
      { step: 10, op: "set", track: 0, anim: "walk", loop: true, entry: { holdPrevious: true } },
      { step: 40, op: "set", track: 0, anim: "run", loop: true, entry: { reverse: true } },
      { step: 70, op: "set", track: 0, anim: "idle-turn", loop: false, entry: { shortestRotation: true } },
      { step: 90, op: "setEmpties", mix: 0.2 },
    ],
  },
  {
    name: "raptor__hold-mix", skeleton: "raptor/raptor-pro.json", steps: 100, every: 4,
    mixes: [], defaultMix: 0.4,
    commands: [
      { step: 0, op: "set", track: 0, anim: "walk", loop: true },
      { step: 12, op: "set", track: 0, anim: "roar", loop: false },
      { step: 18, op: "set", track: 0, anim: "jump", loop: false },
      { step: 22, op: "set", track: 0, anim: "walk", loop: true, entry: { mixDuration: 0.6 } },
      { step: 60, op: "timeScale", value: 0.5 },
    ],
  },
  {
    name: "timelines-lab__thresholds", skeleton: "synthetic/timelines-lab.json", steps: 150, every: 2,
    mixes: [], defaultMix: 0.5,
    commands: [
      { step: 0, op: "set", track: 0, anim: "all-timelines", loop: true,
        entry: { eventThreshold: 1, mixAttachmentThreshold: 1, mixDrawOrderThreshold: 1 } },
      { step: 40, op: "setEmpty", track: 0, mix: 0.6 },
      { step: 60, op: "add", track: 0, anim: "all-timelines", loop: true, delay: 0.1,
        entry: { animationStart: 0.2, animationEnd: 0.9 } },
      { step: 100, op: "set", track: 1, anim: "all-timelines", loop: false, entry: { alpha: 0.5, mixBlend: "replace", trackEnd: 0.5 } },
      { step: 140, op: "clearTracks" },
    ],
  },
  {
    name: "constraints-lab__mixing", skeleton: "synthetic/constraints-lab.json", steps: 120, every: 4,
    mixes: [], defaultMix: 0.3,
    commands: [
      { step: 0, op: "set", track: 0, anim: "move", loop: true },
      { step: 50, op: "setEmpty", track: 0, mix: 0.5 },
      { step: 70, op: "set", track: 1, anim: "move", loop: true, entry: { alpha: 0.7, mixBlend: "replace" } },
      { step: 90, op: "set", track: 0, anim: "move", loop: false, entry: { mixBlend: "add" } },
    ],
  },
];

/** Animatable constraint state (IK, transform, path, physics), in data order. */
function constraintState(skeleton) {
  return {
    ik: skeleton.ikConstraints.map((c) => [c.mix, c.softness, c.bendDirection, c.compress ? 1 : 0, c.stretch ? 1 : 0]),
    transform: skeleton.transformConstraints.map((c) => [c.mixRotate, c.mixX, c.mixY, c.mixScaleX, c.mixScaleY, c.mixShearY]),
    path: skeleton.pathConstraints.map((c) => [c.position, c.spacing, c.mixRotate, c.mixX, c.mixY]),
    physics: skeleton.physicsConstraints.map((c) => [c.inertia, c.strength, c.damping, c.massInverse, c.wind, c.gravity, c.mix]),
  };
}

function runScenario(sc) {
  const data = loadSkeletonData(path.join(FIXTURES, "spine", sc.skeleton));
  const skeleton = new Skeleton(data);
  applySkin(skeleton, sc.skin ?? null);
  skeleton.setToSetupPose();
  const stateData = new AnimationStateData(data);
  stateData.defaultMix = sc.defaultMix ?? 0;
  for (const [a, b, d] of sc.mixes ?? []) stateData.setMix(a, b, d);
  const state = new AnimationState(stateData);
  let pending = [];
  const rec = (type) => (entry, e) => pending.push([type, entry.trackIndex, entry.animation.name, e ? e.data.name : null, e ? e.time : null]);
  state.addListener({ start: rec("start"), interrupt: rec("interrupt"), end: rec("end"), dispose: rec("dispose"), complete: rec("complete"), event: rec("event") });
  const dt = 1 / (sc.fps ?? 60);
  const frames = [];
  let prev = null;
  // A bone or slot row equal to the previous sample's row is written as 0.
  const pack = (rows, old) => rows.map((r, i) => (old && JSON.stringify(r) === JSON.stringify(old[i]) ? 0 : r));
  for (let step = 0; step <= sc.steps; step++) {
    for (const c of sc.commands.filter((c) => (c.step ?? 0) === step)) {
      let entry = null;
      if (c.op === "set") entry = state.setAnimation(c.track, c.anim, c.loop);
      else if (c.op === "add") entry = state.addAnimation(c.track, c.anim, c.loop, c.delay ?? 0);
      else if (c.op === "setEmpty") entry = state.setEmptyAnimation(c.track, c.mix);
      else if (c.op === "addEmpty") entry = state.addEmptyAnimation(c.track, c.mix, c.delay ?? 0);
      else if (c.op === "setEmpties") state.setEmptyAnimations(c.mix);
      else if (c.op === "clearTrack") state.clearTrack(c.track);
      else if (c.op === "clearTracks") state.clearTracks();
      else if (c.op === "timeScale") state.timeScale = c.value;
      else throw new Error("bad op " + c.op);
      for (const [k, v] of Object.entries(c.entry ?? {})) {
        if (k === "mixBlend") entry.mixBlend = MixBlend[v];
        else if (ENTRY_FIELDS.includes(k)) entry[k] = v;
        else throw new Error("bad entry field " + k);
      }
    }
    const delta = step === 0 ? 0 : dt;
    state.update(delta);
    state.apply(skeleton);
    skeleton.update(delta);
    if (step % sc.every === 0 || step === sc.steps) {
      const local = skeleton.bones.map((b) => [b.x, b.y, b.rotation, b.scaleX, b.scaleY, b.shearX, b.shearY, b.inherit]);
      const slots = skeleton.drawOrder.map((s) => {
        const att = s.getAttachment();
        const c = s.color;
        return [s.data.name, att ? att.name : null, [c.r, c.g, c.b, c.a],
          s.darkColor ? [s.darkColor.r, s.darkColor.g, s.darkColor.b] : null, att && att.sequence ? s.sequenceIndex : null];
      });
      frames.push({ step, local: pack(local, prev?.local), slots: pack(slots, prev?.slots), constraints: constraintState(skeleton), events: pending });
      prev = { local, slots };
      pending = [];
    }
  }
  return { generator: "testdata/anim/scenarios.mjs", scenario: sc, bones: skeleton.bones.map((b) => b.data.name), frames };
}

const only = new Set(process.argv.slice(2));
fs.mkdirSync(path.join(here, "state"), { recursive: true });
for (const sc of SCENARIOS) {
  if (only.size && !only.has(sc.name)) continue;
  const out = runScenario(sc);
  const text = JSON.stringify(out, (k, v) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(10)) : v));
  fs.writeFileSync(path.join(here, "state", sc.name + ".json"), text + "\n");
  console.log(sc.name, out.frames.length, "frames");
}
