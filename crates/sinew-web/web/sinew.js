// sinew.js: sinew's wasm module in a web page. Load Spine (JSON or .skel + atlas),
// DragonBones (_ske.json + _tex.json) and Inochi2D (.inp/.inx) characters from URLs or
// bytes, play them, and draw them with WebGL2 (renderer.js).
//
//   import { init } from './sinew.js';
//   const sinew = await init();                       // fetches sinew_web.wasm beside this file
//   const hero = await sinew.load('spineboy-pro.json'); // the atlas and pages found beside it
//   hero.play('run');
//   const r = sinew.renderer(canvas);
//   (function frame(t) { hero.update(1 / 60); r.draw([hero]); requestAnimationFrame(frame); })();
//
// The module's exports are plain C functions over one staging buffer (src/exports.rs).

import { Renderer } from './renderer.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Loads the wasm module (default: sinew_web.wasm beside this file). */
export async function init(url = new URL('sinew_web.wasm', import.meta.url)) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const { instance } = await WebAssembly.instantiate(await res.arrayBuffer(), {});
  return new Sinew(instance.exports);
}

/** A loaded wasm module: loads characters and makes renderers. */
export class Sinew {
  constructor(x) {
    this.x = x;
  }

  // Copies bytes into the module's staging buffer.
  stage(bytes) {
    const p = this.x.sinew_web_stage(bytes.length);
    new Uint8Array(this.x.memory.buffer, p, bytes.length).set(bytes);
  }

  stageText(s) {
    this.stage(enc.encode(s));
  }

  // The output text, `len` bytes (or numbers[0] bytes).
  out(len = this.numbers()[0]) {
    return dec.decode(new Uint8Array(this.x.memory.buffer, this.x.sinew_web_out(), len));
  }

  outBytes(len) {
    return new Uint8Array(this.x.memory.buffer, this.x.sinew_web_out(), len).slice();
  }

  numbers() {
    return new Float64Array(this.x.memory.buffer, this.x.sinew_web_numbers(), 8);
  }

  file(name, bytes) {
    const n = enc.encode(name);
    const all = new Uint8Array(n.length + (bytes ? bytes.length : 0));
    all.set(n);
    if (bytes) all.set(bytes, n.length);
    this.stage(all);
    this.x.sinew_web_file(n.length, bytes ? 1 : 0);
  }

  /**
   * Loads a character from a URL. Its companions (atlas, page images, _tex.json) are
   * fetched relative to it as the loader names them. Options (names relative to the main
   * file): `atlas`, `armature` (DragonBones), `extras` (a rig-extras JSON: jiggle bones,
   * delayed follows), `physics3` (a Cubism physics3.json for a puppet), `files` (a Map of
   * name -> bytes already in hand, skipping their fetch).
   */
  async load(url, opts = {}) {
    const base = new URL(url, location.href);
    const name = base.pathname.split('/').pop();
    const fetchBytes = async (n) => {
      const r = await fetch(new URL(n, base));
      return r.ok ? new Uint8Array(await r.arrayBuffer()) : null;
    };
    const files = new Map(opts.files || []);
    if (!files.has(name)) {
      const main = await fetchBytes(name);
      if (!main) throw new Error(`${url}: could not be fetched`);
      files.set(name, main);
    }
    return this.loadFiles(name, files, { ...opts, fetch: fetchBytes });
  }

  /**
   * Loads a character from bytes: `files` maps names (relative to `name`) to bytes, e.g.
   * the files dropped on a page. A companion it lacks is fetched with `opts.fetch` when
   * given, else missing.
   */
  async loadFiles(name, files, opts = {}) {
    const t0 = performance.now();
    const have = new Map();
    for (const [n, b] of files) have.set(n, toBytes(b));
    for (;;) {
      // Every file handed over again for each try, with no await in between: loads of
      // several players interleave at their fetches and share the module.
      this.x.sinew_web_clear_files();
      for (const [n, b] of have) this.file(n, b);
      this.stageText([name, opts.atlas, opts.armature, opts.extras, opts.physics3].map((v) => v || '').join('\n'));
      const id = this.x.sinew_web_load();
      const text = id < 0 ? this.out() : '';
      this.x.sinew_web_clear_files();
      if (id >= 0) {
        const c = new Character(this, id);
        await c.decodePages();
        c.loadMs = performance.now() - t0;
        return c;
      }
      if (id === -1) throw new Error(text);
      const names = text.split('\n').filter((n) => !have.has(n));
      if (!names.length) throw new Error(`${name}: the loader keeps asking for ${text}`);
      for (const n of names) have.set(n, opts.fetch ? await opts.fetch(n) : null);
    }
  }

  /** A WebGL2 renderer on `canvas`. */
  renderer(canvas, opts) {
    return new Renderer(canvas, opts);
  }
}

// The buffers of frame `id` (u32 max: the group frame) as views into wasm memory.
export function frameViews(s, id, opCount) {
  const x = s.x;
  const view = (which, T) => {
    const p = x.sinew_web_frame_ptr(id, which);
    return new T(x.memory.buffer, p, s.numbers()[0]);
  };
  return { vertices: view(0, Float32Array), indices: view(1, Uint32Array), ops: view(2, Uint32Array), opCount };
}

function toBytes(b) {
  if (b == null) return null;
  return b instanceof Uint8Array ? b : new Uint8Array(b);
}

/** One character: plays, takes parameters and IK targets, reports events and bones. */
export class Character {
  constructor(sinew, id) {
    this.s = sinew;
    this.id = id;
    this.info = JSON.parse(sinew.out(sinew.x.sinew_web_info(id)));
    this.pages = [];
    /** Called with each key event's name as `update` fires it. */
    this.onEvent = null;
    this.animation = null;
    this.looping = true;
  }

  // Decodes the texture pages into premultiplied ImageBitmaps (null: drawn white).
  async decodePages() {
    for (let i = 0; ; i++) {
      const len = this.s.x.sinew_web_page(this.id, i);
      if (len < 0) break;
      if (len === 0) {
        this.pages.push(null);
        continue;
      }
      const blob = new Blob([this.s.outBytes(len)]);
      const pma = this.info.pma[i];
      try {
        this.pages.push(await createImageBitmap(blob, {
          premultiplyAlpha: pma ? 'none' : 'premultiply',
          colorSpaceConversion: 'none',
        }));
      } catch (e) {
        throw new Error(`texture page ${i}: the browser cannot decode it (${e.message})`);
      }
    }
  }

  /** Animation names (the rig's clips, then a puppet's parameter animations). */
  get animations() {
    return this.info.clips.map((c) => c.name);
  }

  /** Seconds of one play of animation `name`. */
  duration(name = this.animation) {
    const c = this.info.clips.find((k) => k.name === name);
    return c ? c.duration : 0;
  }

  call(r) {
    if (r < 0) throw new Error(this.s.out());
  }

  /** Plays animation `name` from its start (null: the setup pose). */
  play(name, loop = true) {
    this.s.stageText(name || '');
    this.call(this.s.x.sinew_web_play(this.id, loop ? 1 : 0));
    this.animation = name || null;
    this.looping = loop;
  }

  /** Crossfades to animation `name` over `seconds`. */
  crossfade(name, seconds = 0.2, loop = true) {
    this.s.stageText(name);
    this.call(this.s.x.sinew_web_crossfade(this.id, seconds, loop ? 1 : 0));
    this.animation = name;
    this.looping = loop;
  }

  /** Queues animation `name` after the current one (`delay` <= 0: when it completes). */
  queue(name, delay = 0, loop = true) {
    this.s.stageText(name);
    this.call(this.s.x.sinew_web_queue(this.id, delay, loop ? 1 : 0));
  }

  /** Advances `dt` seconds (times the speed); returns the key events fired. */
  update(dt) {
    const n = this.s.x.sinew_web_update(this.id, dt);
    if (!n) return [];
    const names = this.s.out().split('\n');
    if (this.onEvent) names.forEach((e) => this.onEvent(e));
    return names;
  }

  /** Shows the animation at `t` seconds from its start (stepped at 60 fps). */
  seek(t) {
    this.s.x.sinew_web_seek(this.id, t);
  }

  /** Seconds since the animation started. */
  get time() {
    return this.s.x.sinew_web_time(this.id);
  }

  set speed(v) {
    this.s.x.sinew_web_speed(this.id, v);
  }

  set paused(v) {
    this.s.x.sinew_web_pause(this.id, v ? 1 : 0);
  }

  /**
   * Draws every part in one blend mode (the numbering of src/frame.rs: 0 normal, 1
   * additive, 2 multiply, 3 screen, 4 overlay ... 19 slice-from-lower) to preview it;
   * null: each part's own mode.
   */
  set blendOverride(mode) {
    this.s.x.sinew_web_blend_override(this.id, mode == null ? 0xffffffff : mode);
  }

  /** Shows these skins together ([] : the default). */
  setSkins(names) {
    this.s.stageText(names.join('\n'));
    this.call(this.s.x.sinew_web_skins(this.id));
  }

  /** Holds parameter `name` at x (and y for a 2D parameter) until `releaseParam`. */
  setParam(name, x, y = 0) {
    this.s.stageText(name);
    this.call(this.s.x.sinew_web_param(this.id, x, y));
  }

  releaseParam(name) {
    this.s.stageText(name);
    this.s.x.sinew_web_release_param(this.id);
  }

  /** Aims IK constraint `name` at world (x, y), y up. */
  setIkTarget(name, x, y) {
    this.s.stageText(name);
    this.call(this.s.x.sinew_web_ik(this.id, x, y));
  }

  /** Bone `name`'s world transform {a, b, c, d, x, y} (y up), or null. */
  bone(name) {
    this.s.stageText(name);
    if (this.s.x.sinew_web_bone(this.id) < 0) return null;
    const [a, b, c, d, x, y] = this.s.numbers();
    return { a, b, c, d, x, y };
  }

  /** The slot whose bounding box holds world (x, y), or null. */
  hit(x, y) {
    const n = this.s.x.sinew_web_hit(this.id, x, y);
    return n ? this.s.out(n) : null;
  }

  /** World box [x0, y0, x1, y1] of the animation over one play, or null. */
  bounds() {
    if (this.s.x.sinew_web_bounds(this.id) < 0) return null;
    return Array.from(this.s.numbers().slice(0, 4));
  }

  // This frame's buffers (views into wasm memory, valid until the next call).
  frame() {
    return frameViews(this.s, this.id, this.s.x.sinew_web_frame(this.id));
  }

  /**
   * Another character of the same rig, sharing its texture pages: a crowd, drawn in one
   * go by `renderer.drawCrowd`.
   */
  spawn() {
    const id = this.s.x.sinew_web_spawn(this.id);
    if (id < 0) throw new Error('this character was freed');
    const c = new Character(this.s, id);
    c.pages = this.pages;
    return c;
  }

  /** Frees the character (its pages stay while a spawned twin uses them). */
  free() {
    this.s.x.sinew_web_free(this.id);
  }
}
