// The VRM SpringBone reference implementation's cost, as the anchor for sinew's jiggle
// benchmark (crates/sinew/benches/jiggle.rs): 1,000 characters, each a body with four
// 5-joint strands (20 joints), stiffness 1, drag 0.4, gravity 1, no colliders; one
// VRMSpringBoneManager.update(1/60) per character per frame after moving its root, as an
// application does. Reports joint-updates (bone-steps) per second of CPU time.
//
// Run where @pixiv/three-vrm-springbone 3.5.5 and three 0.187.0 are installed, e.g.
//   cp -r ../shared/oracle/springbone /tmp/sb && (cd /tmp/sb && npm install)
//   cp testdata/jiggle/vrm_bench.mjs /tmp/sb/ && node /tmp/sb/vrm_bench.mjs [--characters 1000] [--frames 300]
import * as THREE from 'three';
import { VRMSpringBoneJoint, VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';

const arg = (k, d) => { const i = process.argv.indexOf('--' + k); return i > 0 ? Number(process.argv[i + 1]) : d; };
const characters = arg('characters', 1000);
const frames = arg('frames', 300);
const warmup = arg('warmup', 60);
const STRANDS = 4, PER = 5;

const settings = { stiffness: 1.0, dragForce: 0.4, gravityPower: 1.0,
                   gravityDir: new THREE.Vector3(0, -1, 0), hitRadius: 0.02 };
const crowd = [];
for (let c = 0; c < characters; c++) {
  const root = new THREE.Object3D();
  const body = new THREE.Object3D();
  root.add(body);
  const mgr = new VRMSpringBoneManager();
  for (let s = 0; s < STRANDS; s++) {
    let parent = body;
    const bones = [];
    for (let k = 0; k <= PER; k++) {               // PER joints + one tail
      const b = new THREE.Object3D();
      if (k === 0) b.position.set((s - 1.5) * 0.1, 1.0, 0); else b.position.set(0, -0.12, 0);
      parent.add(b); bones.push(b); parent = b;
    }
    for (let k = 0; k < PER; k++) mgr.addJoint(new VRMSpringBoneJoint(bones[k], bones[k + 1], settings, []));
  }
  root.updateMatrixWorld(true);
  mgr.setInitState();
  crowd.push({ root, mgr });
}

let frame = 0;
const step = () => {
  frame++;
  for (let i = 0; i < crowd.length; i++) {
    const { root, mgr } = crowd[i];
    root.position.x = 0.3 * Math.sin((frame + i) * 0.15);
    root.updateMatrixWorld(true);
    mgr.update(1 / 60);
  }
};
for (let f = 0; f < warmup; f++) step();
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
for (let f = 0; f < frames; f++) step();
const cpu = process.cpuUsage(cpu0);
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const cpuS = (cpu.user + cpu.system) / 1e6;
const boneSteps = characters * STRANDS * PER * frames;
console.log(JSON.stringify({
  oracle: '@pixiv/three-vrm-springbone 3.5.5', node: process.version, characters, joints: STRANDS * PER,
  frames, cpu_s: cpuS, wall_s: wall, ms_per_frame_cpu: cpuS * 1000 / frames,
  bone_steps_per_s_cpu: boneSteps / cpuS,
}));
