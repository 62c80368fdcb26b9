#!/usr/bin/env node
// DragonBones crossfade / playTimes goldens from the official runtime (our oracle, dump.mjs's
// headless factory). Each scenario: Animation.play(first, playTimes) at t = 0, then at given clock
// times Animation.fadeIn(anim, fadeInTime, playTimes); the world clock is stepped at 1/fps with a
// shorter step landing on every action time and sample time (dump.mjs's stepping). Bone world
// matrices (Spine-style names, y-down data space) are dumped at the sample times.
//   node fade.mjs FIXTURES_DIR > golden.json
import { load, armatureName, rawArmature, build, dumpPose } from "./dump.mjs";
import path from "node:path";

const root = process.argv[2];
const scenarios = [
  {
    name: "walk_to_stand",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: -1 },
    actions: [{ at: 0.5, anim: "stand", fadeIn: 0.3, playTimes: -1 }],
    times: [0.55, 0.65, 0.75, 0.85, 1.1, 1.6],
  },
  {
    name: "idle_to_angry_twice",
    skeleton: "you_xin_body/body_ske.json",
    first: { anim: "idle", playTimes: -1 },
    actions: [{ at: 0.7, anim: "angry", fadeIn: 0.25, playTimes: 2 }],
    meshSlots: ["1046"],
    times: [0.8, 0.9, 1.3, 2.4, 3.55, 4.2],
  },
  {
    name: "idle_blink_to_angry",
    skeleton: "you_xin_body/body_ske.json",
    first: { anim: "idle", playTimes: -1 },
    actions: [{ at: 2.15, anim: "angry", fadeIn: 0.3, playTimes: 1 }],
    meshSlots: ["1046"],
    times: [2.2, 2.3, 2.4, 2.5],
  },
  {
    name: "skill_into_itself",
    skeleton: "effect/effect_ske.json",
    first: { anim: "skill", playTimes: 0 },
    actions: [{ at: 1.2, anim: "skill", fadeIn: 0.4, playTimes: 1 }],
    colorSlots: ["jiguang", "jiguang3", "jiguang9"],
    times: [1.25, 1.35, 1.5, 1.7, 2.0],
  },
  {
    name: "jump_interrupted_by_fall",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: 0 },
    actions: [
      { at: 0.3, anim: "jump", fadeIn: 0.4, playTimes: 0 },
      { at: 0.5, anim: "fall", fadeIn: 0.2, playTimes: 3 },
    ],
    times: [0.4, 0.55, 0.65, 0.75, 1.0, 1.4],
  },
  {
    name: "four_fades_overlapping",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: 0 },
    actions: [
      { at: 0.3, anim: "jump", fadeIn: 0.4, playTimes: 0 },
      { at: 0.45, anim: "fall", fadeIn: 0.3, playTimes: 0 },
      { at: 0.6, anim: "stand", fadeIn: 0.3, playTimes: 0 },
    ],
    times: [0.35, 0.5, 0.55, 0.65, 0.7, 0.8, 1.0],
  },
  {
    name: "four_moods_overlapping",
    skeleton: "you_xin_body/body_ske.json",
    first: { anim: "idle", playTimes: -1 },
    actions: [
      { at: 0.5, anim: "angry", fadeIn: 0.3, playTimes: -1 },
      { at: 0.6, anim: "cry", fadeIn: 0.3, playTimes: -1 },
      { at: 0.7, anim: "happy", fadeIn: 0.3, playTimes: -1 },
    ],
    meshSlots: ["1046"],
    times: [0.55, 0.65, 0.75, 0.85, 0.95, 1.2],
  },
  {
    name: "walk_reversed",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: 0, timeScale: -1 },
    actions: [],
    times: [0.1, 0.35, 0.6, 0.95, 1.3],
  },
  {
    name: "jump_reversed_once",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "jump", playTimes: 1, timeScale: -1 },
    actions: [],
    times: [0.05, 0.1, 0.15, 0.4],
  },
  {
    name: "idle_reversed_twice",
    skeleton: "you_xin_body/body_ske.json",
    first: { anim: "idle", playTimes: 2, timeScale: -1 },
    actions: [],
    meshSlots: ["1046"],
    times: [0.3, 1.0, 2.1, 3.0, 5.0],
  },
  {
    name: "jump_plays_twice",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "jump", playTimes: 2 },
    actions: [],
    times: [0.05, 0.25, 0.3, 0.45, 0.9],
  },
  {
    // A higher layer takes its fade weight first; the lower one keeps the rest (sinew: the
    // layer on its own track, `track`).
    name: "walk_under_a_jump_layer",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: 0 },
    actions: [{ at: 0.3, anim: "jump", fadeIn: 0.4, playTimes: 0, layer: 1, group: "top", track: 1 }],
    times: [0.35, 0.5, 0.65, 0.8, 1.1, 1.5],
  },
  {
    // Two groups on one layer: neither fades the other out, their weights add.
    name: "two_groups_on_one_layer",
    skeleton: "you_xin_body/body_ske.json",
    first: { anim: "idle", playTimes: 0 },
    actions: [{ at: 0.5, anim: "angry", fadeIn: 0.3, playTimes: 0, layer: 0, group: "face", track: 1 }],
    meshSlots: ["1046"],
    times: [0.55, 0.7, 0.9, 1.4],
  },
  {
    // Three layers; the middle one is replaced within its layer and group while the top
    // fades in.
    name: "three_layers_and_a_replacement",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: 0 },
    actions: [
      { at: 0.2, anim: "stand", fadeIn: 0.3, playTimes: 0, layer: 1, group: "mid", track: 1 },
      { at: 0.35, anim: "jump", fadeIn: 0.5, playTimes: 0, layer: 2, group: "top", track: 2 },
      { at: 0.45, anim: "fall", fadeIn: 0.2, playTimes: 0, layer: 1, group: "mid", track: 1 },
    ],
    times: [0.3, 0.4, 0.5, 0.6, 0.75, 0.9, 1.3],
  },
  {
    // fadeOutMode All (4): every state fades out over the new one's fade-in time, paused
    // (sinew: `fadeOutTracks` faded out with Character::fade_out_track first).
    name: "all_layers_faded_out",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: 0 },
    actions: [
      { at: 0.2, anim: "jump", fadeIn: 0.2, playTimes: 0, layer: 1, group: "top", track: 1 },
      { at: 0.6, anim: "stand", fadeIn: 0.3, playTimes: 0, layer: 2, group: "end", fadeOutMode: 4, track: 2, fadeOutTracks: [0, 1] },
    ],
    times: [0.65, 0.75, 0.85, 0.95, 1.2],
  },
  {
    // fadeOutMode SameLayer (1): the two groups of layer 0 fade out, the layer above stays.
    name: "one_layer_faded_out",
    skeleton: "you_xin_body/body_ske.json",
    first: { anim: "idle", playTimes: 0 },
    actions: [
      { at: 0.3, anim: "angry", fadeIn: 0.2, playTimes: 0, layer: 0, group: "face", track: 1 },
      { at: 0.4, anim: "idle", fadeIn: 0.1, playTimes: 0, layer: 1, group: "top", track: 2 },
      { at: 0.8, anim: "angry", fadeIn: 0.4, playTimes: 0, layer: 0, group: "other", fadeOutMode: 1, track: 3, fadeOutTracks: [0, 1] },
    ],
    meshSlots: ["1046"],
    times: [0.85, 1.0, 1.15, 1.3],
  },
  {
    name: "walk_then_jump_defaults",
    skeleton: "dragon_boy/dragon_boy_ske.json",
    first: { anim: "walk", playTimes: -1 },
    actions: [{ at: 0.4, anim: "jump", fadeIn: -1, playTimes: -1 }],
    times: [0.35, 0.45, 0.6, 0.9],
  },
];

const fps = 60;
const round = (v) => Math.round(v * 1e6) / 1e6 + 0;
const out = {
  meta: {
    oracle: "fade.mjs (dump.mjs's headless factory, @cocos/dragonbones-js 1.0.2)",
    fps,
    stepping: "1/fps steps; a shorter step lands on every action and sample time (eps 1e-9)",
    matrix: "bone world point = (a*x + b*y + worldX, c*x + d*y + worldY), y-down data space",
    playTimes: "-1: the animation's own; fadeIn: seconds passed to Animation.fadeIn",
    timeScale: "set on the AnimationState play/fadeIn returned (negative: backwards)",
  },
  scenarios: [],
};
for (const sc of scenarios) {
  const ctx = load(path.join(root, sc.skeleton), "none");
  const name = armatureName(ctx, null);
  const rawArm = rawArmature(ctx, name);
  ctx.factory.clock.clear();
  const armature = build(ctx, name);
  armature.clock = ctx.factory.clock;
  armature._proxy.recordEvents = false;
  const dragonBones = ctx.factory.dragonBones;
  const first = armature.animation.play(sc.first.anim, sc.first.playTimes);
  // A negative timeScale plays backwards (TimelineState._setCurrentTime).
  if (sc.first.timeScale !== undefined) first.timeScale = sc.first.timeScale;
  const dt = 1 / fps;
  const eps = 1e-9;
  let now = 0;
  const stepTo = (t) => {
    while (now + dt <= t + eps) { dragonBones.advanceTime(dt); now += dt; }
    if (t - now > eps) { dragonBones.advanceTime(t - now); now = t; }
  };
  const events = [
    ...sc.actions.map((a) => ({ t: a.at, a })),
    ...sc.times.map((t) => ({ t })),
  ].sort((x, y) => x.t - y.t || (x.a ? -1 : 1));
  const frames = [];
  for (const e of events) {
    stepTo(e.t);
    if (e.a) {
      // layer/group: DragonBones animation layers (higher layers take weight first) and
      // groups (fadeOutMode 3, the default, fades out only the same layer and group).
      const st = armature.animation.fadeIn(e.a.anim, e.a.fadeIn, e.a.playTimes,
        e.a.layer ?? 0, e.a.group ?? null, e.a.fadeOutMode ?? 3);
      if (e.a.timeScale !== undefined) st.timeScale = e.a.timeScale;
    } else {
      const mesh = sc.meshSlots ?? [];
      const pose = dumpPose(armature, rawArm, { vertices: mesh.length > 0 });
      const frame = {
        time: e.t,
        bones: pose.bones.map((b) => ({
          name: b.name, a: round(b.a), b: round(b.b), c: round(b.c), d: round(b.d),
          worldX: round(b.worldX), worldY: round(b.worldY),
        })),
      };
      const colors = sc.colorSlots ?? [];
      if (mesh.length + colors.length > 0) {
        frame.slots = pose.slots.filter((s) => mesh.includes(s.slot) || colors.includes(s.slot))
          .map((s) => mesh.includes(s.slot)
            ? { slot: s.slot, vertices: s.vertices.map(round) }
            : { slot: s.slot, color: s.color.map(round) });
      }
      frames.push(frame);
    }
  }
  out.scenarios.push({
    name: sc.name, skeleton: sc.skeleton, armature: name, first: sc.first, actions: sc.actions,
    frames,
  });
}
process.stdout.write(JSON.stringify(out) + "\n");
