// Clipped geometry of a Spine 4.3 rig by the official 4.3 runtime: poses the rig through the
// shared oracle's dump43.mjs (same options and time stepping), then walks the draw order the
// way spine-ts's SkeletonRenderer does (clipStart on a clipping attachment, clipEnd after each
// other slot and at the end) and runs spine-core's own SkeletonClipping.clipTriangles over
// each region or mesh, as a renderer calls it (stride 8, white tint). Prints per time, per
// drawn slot, the clipped world vertices (x,y pairs) and triangles (indices into them), or
// the unclipped ones when no clip is active.
//
//   node scripts/spine43/clip43.mjs ORACLE_DIR FILE.json --anim NAME --times ... > out.json
//
// ORACLE_DIR: a copy of ../shared/oracle/spine43 with the 4.3.13 package installed (or
// SPINE43_CORE=DIR). Output: { meta, frames: [{ time, slots: [{ name, clipped, vertices,
// triangles }] }] }, numbers rounded with --round N (default 5).
import path from "node:path";
import { pathToFileURL } from "node:url";

const [oracle, file, ...rest] = process.argv.slice(2);
if (!oracle || !file) {
  console.error("usage: clip43.mjs ORACLE_DIR FILE.json [dump43 options]");
  process.exit(2);
}
const d = await import(pathToFileURL(path.join(path.resolve(oracle), "dump43.mjs")).href);
const { SkeletonClipping, RegionAttachment, MeshAttachment, ClippingAttachment, Color } = d.spine;
const opts = d.parseArgs(rest);
const rig = d.makeRig(file, opts);
const clipper = new SkeletonClipping();
const quad = [0, 1, 2, 2, 3, 0];
const STRIDE = 8;
const white = new Color(1, 1, 1, 1), black = new Color(0, 0, 0, 1);

function slotGeometry(skeleton, slot) {
  const att = slot.appliedPose.attachment;
  if (att instanceof RegionAttachment) {
    const v = new Array(8).fill(0);
    att.computeWorldVertices(slot, att.getOffsets(slot.appliedPose), v, 0, 2);
    return { vertices: v, triangles: quad };
  }
  if (att instanceof MeshAttachment) {
    const v = new Array(att.worldVerticesLength).fill(0);
    att.computeWorldVertices(skeleton, slot, 0, att.worldVerticesLength, v, 0, 2);
    return { vertices: v, triangles: Array.from(att.triangles) };
  }
  return null;
}

const frames = [];
d.runSchedule(rig, d.parseTimes(opts.times ?? "0"), Number(opts.fps ?? 60), (t) => {
  const skeleton = rig.skeleton;
  const slots = [];
  for (const slot of skeleton.drawOrder.appliedPose) {
    if (!slot.bone.active) {
      clipper.clipEnd(slot);
      continue;
    }
    const att = slot.appliedPose.attachment;
    if (att instanceof ClippingAttachment) {
      clipper.clipStart(skeleton, slot, att);
      continue;
    }
    const g = slotGeometry(skeleton, slot);
    if (g) {
      if (clipper.isClipping()) {
        // The renderers' path (vertices with colour and uv, stride 8): in 4.3.13 the
        // geometry-only clipTriangles(vertices, triangles, length) numbers the triangles of
        // every cut polygon after the first one vertex too low.
        const n = g.vertices.length / 2, rv = new Array(n * STRIDE).fill(0);
        for (let i = 0; i < n; i++) {
          rv[i * STRIDE] = g.vertices[2 * i];
          rv[i * STRIDE + 1] = g.vertices[2 * i + 1];
        }
        // Texture coordinates do not move the geometry: zeros.
        const uvs = new Array(n * 2).fill(0);
        clipper.clipTriangles(rv, g.triangles, g.triangles.length, uvs, white, black, false, STRIDE);
        const cv = clipper.clippedVertices, xy = [];
        for (let i = 0; i < cv.length; i += STRIDE) xy.push(cv[i], cv[i + 1]);
        slots.push({ name: slot.data.name, clipped: true, vertices: xy, triangles: Array.from(clipper.clippedTriangles) });
      } else slots.push({ name: slot.data.name, clipped: false, vertices: g.vertices, triangles: g.triangles });
    }
    clipper.clipEnd(slot);
  }
  clipper.clipEnd();
  frames.push({ time: t, slots });
});
const out = d.roundAll({ meta: { oracle: "clip43.mjs", runtime: d.runtimeVersion() }, frames }, Number(opts.round ?? 5));
process.stdout.write(JSON.stringify(out) + "\n");
