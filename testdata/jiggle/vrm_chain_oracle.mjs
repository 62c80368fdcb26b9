// Headless oracle: runs @pixiv/three-vrm-springbone (no WebGL/DOM needed) on a synthetic chain
// and prints the tip trajectory as JSON.  Install once:  npm install  (in this folder)
//
// node vrm_chain_oracle.mjs [--fps 60] [--seconds 2] [--scenario step|gravity|collider]
//                           [--internal-hz 60]   (fixed internal step + accumulator; omit = one update per frame)
//
// Chain: root (animated) -> b0 -> b1 -> b2 -> b3, 0.1 m apart along -Y, joints b0..b2 simulated
// (b3 is the tail of the last joint).  Settings: stiffness 1, dragForce 0.4, hitRadius 0.02,
// gravityDir (0,-1,0).  Scenarios:
//   step     : root jumps +0.2 m in x at t = 0.1 s (tests inertia + stiffness + drag)
//   gravity  : chain rotated to +X (horizontal), gravityPower 1 (static droop equilibrium)
//   collider : like step plus a sphere collider (r = 0.05) at (0.06,-0.2,0) under the root
//   gravity-collider : like collider with gravityPower 1 (the chain hangs along gravity)
import * as THREE from 'three';
import { VRMSpringBoneJoint, VRMSpringBoneManager, VRMSpringBoneCollider,
         VRMSpringBoneColliderShapeSphere } from '@pixiv/three-vrm-springbone';

const arg = (k, d) => { const i = process.argv.indexOf('--' + k); return i > 0 ? process.argv[i + 1] : d; };
const fps = Number(arg('fps', 60));
const seconds = Number(arg('seconds', 2));
const scenario = arg('scenario', 'step');
const internalHz = arg('internal-hz', null) ? Number(arg('internal-hz')) : null;

const root = new THREE.Object3D();
const bones = [];
let parent = root;
for (let i = 0; i < 4; i++) {
  const b = new THREE.Object3D();
  if (i > 0) b.position.set(0, -0.1, 0);
  parent.add(b); bones.push(b); parent = b;
}
const settings = { stiffness: 1.0, dragForce: 0.4, gravityPower: 0,
                   gravityDir: new THREE.Vector3(0, -1, 0), hitRadius: 0.02 };
if (scenario === 'gravity') { settings.gravityPower = 1.0; bones[0].rotation.z = Math.PI / 2; }
if (scenario === 'gravity-collider') { settings.gravityPower = 1.0; }
const groups = [];
if (scenario === 'collider' || scenario === 'gravity-collider') {
  const col = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ radius: 0.05 }));
  col.position.set(0.06, -0.2, 0); root.add(col);
  groups.push({ colliders: [col], name: 'g' });
}
const mgr = new VRMSpringBoneManager();
for (let i = 0; i < 3; i++) mgr.addJoint(new VRMSpringBoneJoint(bones[i], bones[i + 1], settings, groups));
root.updateMatrixWorld(true);
mgr.setInitState();

const dt = 1 / fps, n = Math.round(seconds * fps), out = [];
const tip = new THREE.Vector3();
let acc = 0, steps = 0;   // integer step count: summing h in floating point drifts (0.1 != 6 * (1/60))
const drive = (t) => { if (scenario !== 'gravity') root.position.x = t >= 0.1 ? 0.2 : 0; root.updateMatrixWorld(true); };
for (let k = 0; k < n; k++) {
  const t = (k + 1) * dt;
  if (internalHz) {            // fixed internal step; the driver is sampled at the internal step times
    const h = 1 / internalHz;
    acc += Math.min(dt, 0.25);
    while (acc >= h - 1e-12) { steps += 1; drive(steps / internalHz); mgr.update(h); acc -= h; }
  } else { drive(t); mgr.update(dt); }
  bones[3].getWorldPosition(tip);
  out.push([+t.toFixed(6), tip.x, tip.y, tip.z]);
}
console.log(JSON.stringify({ oracle: '@pixiv/three-vrm-springbone 3.5.5', fps, internalHz, scenario,
  settings: { ...settings, gravityDir: settings.gravityDir.toArray() }, tip: out }));
