import { frameViews } from './sinew.js';

// renderer.js: draws sinew frames (src/frame.rs: one vertex buffer, one index buffer and a
// few ops per character) with WebGL2, as sinew-render draws the draw list: premultiplied
// alpha, Spine tint black and Inochi2D screen tints, every blend mode (the fixed-function
// ones by blend factors, the separable Inochi2D ones in the shader against a copy of the
// backdrop), clipping polygons and masks in the stencil, composites on an off-screen layer.

const VS = `#version 300 es
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 light;
layout(location = 3) in vec4 dark;
uniform vec4 view; // ndc = pos * view.xy + view.zw
uniform bool full; // a triangle over the whole target
out vec2 vUv;
out vec4 vLight;
out vec4 vDark;
void main() {
  vUv = uv;
  vLight = light;
  vDark = dark;
  if (full) {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
  } else {
    gl_Position = vec4(pos * view.xy + view.zw, 0.0, 1.0);
  }
}`;

// pass 0: shade; 1: mask source (stencil only, discarded at or below the threshold);
// 2: shade, blended with mode against the backdrop; 3: a group's layer; 4: the layer
// blended against the backdrop.
const FS = `#version 300 es
precision highp float;
uniform sampler2D page;
uniform sampler2D backdrop;
uniform int pass;
uniform int mode;
uniform float threshold;
uniform vec4 tint;
uniform vec3 screen;
in vec2 vUv;
in vec4 vLight;
in vec4 vDark;
out vec4 o;

vec4 shade(vec4 t) {
  if (vDark.a > 0.5) {
    vec3 rgb = (1.0 - (1.0 - t.rgb) * (1.0 - vDark.rgb * t.a)) * vLight.rgb;
    return vec4(rgb, t.a * vLight.a);
  }
  float a = t.a * vLight.a;
  return vec4(clamp((t.a - t.rgb) * vDark.rgb + t.rgb * vLight.rgb, vec3(0.0), vec3(a)), a);
}

float hardLight(float b, float s) {
  if (s <= 0.5) return b * 2.0 * s;
  float s2 = 2.0 * s - 1.0;
  return b + s2 - b * s2;
}

float separable(float cb, float cs) {
  if (mode == 4) return hardLight(cs, cb);
  if (mode == 5) return min(cb, cs);
  if (mode == 6) return max(cb, cs);
  if (mode == 7) { if (cb <= 0.0) return 0.0; if (cs >= 1.0) return 1.0; return min(cb / (1.0 - cs), 1.0); }
  if (mode == 8) return min(cb + cs, 1.0);
  if (mode == 10) { if (cb >= 1.0) return 1.0; if (cs <= 0.0) return 0.0; return 1.0 - min((1.0 - cb) / cs, 1.0); }
  if (mode == 11) return hardLight(cb, cs);
  if (mode == 12) {
    if (cs <= 0.5) return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
    float d = cb <= 0.25 ? ((16.0 * cb - 12.0) * cb + 4.0) * cb : sqrt(cb);
    return cb + (2.0 * cs - 1.0) * (d - cb);
  }
  if (mode == 13) return abs(cb - cs);
  if (mode == 14) return cb + cs - 2.0 * cb * cs;
  if (mode == 15) return max(cb - cs, 0.0);
  return cb;
}

float straight(float c, float a) { return a > 0.0 ? clamp(c / a, 0.0, 1.0) : 0.0; }

// Premultiplied s over premultiplied d with the separable mode (the W3C construction).
vec4 blendSeparable(vec4 s, vec4 d) {
  vec4 r = vec4(0.0, 0.0, 0.0, s.a + d.a * (1.0 - s.a));
  for (int k = 0; k < 3; k++) {
    float b = separable(straight(d[k], d.a), straight(s[k], s.a));
    r[k] = s[k] * (1.0 - d.a) + d[k] * (1.0 - s.a) + s.a * d.a * b;
  }
  return clamp(r, 0.0, 1.0);
}

vec4 layer() {
  vec4 c = texelFetch(page, ivec2(gl_FragCoord.xy), 0);
  vec3 rgb = tint.rgb * (1.0 - (1.0 - c.rgb) * (1.0 - screen * c.a)) * tint.a;
  return vec4(rgb, c.a * tint.a);
}

void main() {
  if (pass == 1) {
    vec4 t = texture(page, vUv);
    if (t.a <= threshold) discard;
    o = t;
    return;
  }
  vec4 s = pass >= 3 ? layer() : shade(texture(page, vUv));
  if (pass == 2 || pass == 4) s = blendSeparable(s, texelFetch(backdrop, ivec2(gl_FragCoord.xy), 0));
  o = s;
}`;

const OP_WORDS = 12;
const FLOATS = 12;

/** Draws characters on one canvas with WebGL2. */
export class Renderer {
  constructor(canvas, opts = {}) {
    const gl = canvas.getContext('webgl2', {
      alpha: true,
      premultipliedAlpha: true,
      antialias: opts.antialias !== false,
      stencil: true,
      preserveDrawingBuffer: !!opts.preserveDrawingBuffer,
    });
    if (!gl) throw new Error('this browser has no WebGL2');
    this.gl = gl;
    this.canvas = canvas;
    this.prog = program(gl, VS, FS);
    this.u = {};
    for (const n of ['view', 'full', 'page', 'backdrop', 'pass', 'mode', 'threshold', 'tint', 'screen']) {
      this.u[n] = gl.getUniformLocation(this.prog, n);
    }
    gl.useProgram(this.prog);
    gl.uniform1i(this.u.page, 0);
    gl.uniform1i(this.u.backdrop, 1);
    this.vao = gl.createVertexArray();
    gl.bindVertexArray(this.vao);
    this.vbo = gl.createBuffer();
    this.ibo = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.vbo);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.ibo);
    const attr = (loc, n, off) => {
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, n, gl.FLOAT, false, FLOATS * 4, off * 4);
    };
    attr(0, 2, 0);
    attr(1, 2, 2);
    attr(2, 4, 4);
    attr(3, 4, 8);
    this.white = this.texture(null);
    this.textures = new WeakMap();
    /** Draw calls in the last `draw`. */
    this.drawCalls = 0;
  }

  texture(image) {
    const gl = this.gl;
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    if (image) {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
    } else {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array([255, 255, 255, 255]));
    }
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return t;
  }

  // The GL textures of a character's pages (shared by the twins `spawn` made).
  pagesOf(c) {
    let t = this.textures.get(c.pages);
    if (!t) {
      t = c.pages.map((p) => (p ? this.texture(p) : this.white));
      this.textures.set(c.pages, t);
    }
    return t;
  }

  // A colour texture the size of the canvas (a backdrop copy), or with `layer` a
  // multisampled colour + stencil target resolved into that texture (a group's layer,
  // anti-aliased like the canvas).
  target(key, layer) {
    const gl = this.gl;
    const { width: w, height: h } = gl.canvas;
    let t = this[key];
    if (!t || t.w !== w || t.h !== h) {
      if (t) {
        gl.deleteTexture(t.tex);
        (t.fbos || []).forEach((f) => gl.deleteFramebuffer(f));
        (t.rbs || []).forEach((r) => gl.deleteRenderbuffer(r));
      }
      t = { w, h, tex: this.texture(null) };
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      if (layer) {
        const samples = Math.min(4, gl.getParameter(gl.MAX_SAMPLES));
        const rb = (format) => {
          const r = gl.createRenderbuffer();
          gl.bindRenderbuffer(gl.RENDERBUFFER, r);
          gl.renderbufferStorageMultisample(gl.RENDERBUFFER, samples, format, w, h);
          return r;
        };
        t.rbs = [rb(gl.RGBA8), rb(gl.DEPTH24_STENCIL8)];
        t.fbo = gl.createFramebuffer();
        gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
        gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, t.rbs[0]);
        gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_STENCIL_ATTACHMENT, gl.RENDERBUFFER, t.rbs[1]);
        t.resolve = gl.createFramebuffer();
        gl.bindFramebuffer(gl.FRAMEBUFFER, t.resolve);
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t.tex, 0);
        t.fbos = [t.fbo, t.resolve];
        gl.bindFramebuffer(gl.FRAMEBUFFER, this.fbo || null);
      }
      this[key] = t;
    }
    return t;
  }

  // The multisampled layer resolved into its texture.
  resolveLayer() {
    const gl = this.gl;
    const t = this.layer;
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, t.fbo);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, t.resolve);
    gl.blitFramebuffer(0, 0, t.w, t.h, 0, 0, t.w, t.h, gl.COLOR_BUFFER_BIT, gl.NEAREST);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.fbo);
  }

  // Binds the default framebuffer and clears it (premultiplied background).
  begin(background) {
    const gl = this.gl;
    const { width: w, height: h } = gl.canvas;
    this.drawCalls = 0;
    this.fbo = null;
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, w, h);
    gl.useProgram(this.prog);
    gl.bindVertexArray(this.vao);
    const [r, g, b, a] = background;
    gl.clearColor(r * a, g * a, b * a, a);
    gl.clearStencil(0);
    gl.stencilMask(0xff);
    gl.colorMask(true, true, true, true);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);
    gl.enable(gl.STENCIL_TEST);
    gl.enable(gl.BLEND);
    return [w, h];
  }

  /**
   * Clears the canvas to `background` (straight RGBA 0..1; default transparent) and draws
   * each item: a Character, or {character, view: [x0, y0, x1, y1]} (world units, y up;
   * default: the canvas fitted to the character's animation bounds).
   */
  draw(items, background = [0, 0, 0, 0]) {
    const [w, h] = this.begin(background);
    for (const item of items) {
      const c = item.character || item;
      const view = item.view || c.view || (c.view = fit(c.bounds(), w, h));
      if (view) this.drawFrame(this.pagesOf(c), c.frame(), view);
    }
  }

  /**
   * Clears the canvas and draws characters of one rig (the first and its `spawn`ed twins)
   * from one shared frame: each placed by its `place` ({x, y, scale}: world (px, py)
   * drawn at (px * scale + x, py * scale + y)), seen through `view` (world, y up). Draws
   * of consecutive characters merge: a rig without clipping or masks is one draw call.
   */
  drawCrowd(characters, view, background = [0, 0, 0, 0]) {
    this.begin(background);
    if (!characters.length) return;
    const s = characters[0].s;
    const rec = new ArrayBuffer(16 * characters.length);
    const u = new Uint32Array(rec);
    const f = new Float32Array(rec);
    characters.forEach((c, i) => {
      const p = c.place || { x: 0, y: 0, scale: 1 };
      u[i * 4] = c.id;
      f[i * 4 + 1] = p.scale ?? 1;
      f[i * 4 + 2] = p.x || 0;
      f[i * 4 + 3] = p.y || 0;
    });
    s.stage(new Uint8Array(rec));
    const ops = s.x.sinew_web_group();
    this.drawFrame(this.pagesOf(characters[0]), frameViews(s, 0xffffffff, ops), view);
  }

  drawFrame(pages, f, [x0, y0, x1, y1]) {
    const gl = this.gl;
    gl.bufferData(gl.ARRAY_BUFFER, f.vertices, gl.DYNAMIC_DRAW);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, f.indices, gl.DYNAMIC_DRAW);
    const sx = 2 / (x1 - x0);
    const sy = 2 / (y1 - y0);
    gl.uniform4f(this.u.view, sx, sy, -1 - x0 * sx, -1 - y0 * sy);
    gl.uniform1i(this.u.full, 0);
    // Views into wasm memory: nothing below calls into the module, so it cannot grow
    // (and move) while they are read.
    const ops = f.ops;
    const fl = new Float32Array(ops.buffer, ops.byteOffset, ops.length);
    for (let k = 0; k < f.opCount; k++) {
      const o = k * OP_WORDS;
      switch (ops[o]) {
        case 1: this.drawOp(pages, ops[o + 1], ops[o + 2], ops[o + 3], ops[o + 4], ops[o + 5], ops[o + 6]); break;
        case 2: this.clip(ops[o + 1], ops[o + 2]); break;
        case 3: this.clearStencil(1); break;
        case 4: this.clearStencil(6); break;
        case 5: this.maskSource(pages, ops[o + 1], ops[o + 2], ops[o + 3], ops[o + 4], fl[o + 5]); break;
        case 6: this.groupBegin(); break;
        case 7: this.groupEnd(); break;
        case 8: this.composite(ops[o + 1], ops[o + 2], ops[o + 3], fl.subarray(o + 4, o + 8), fl.subarray(o + 8, o + 11)); break;
      }
    }
  }

  clearStencil(bits) {
    const gl = this.gl;
    gl.stencilMask(bits);
    gl.clear(gl.STENCIL_BUFFER_BIT);
  }

  clip(first, count) {
    const gl = this.gl;
    gl.colorMask(false, false, false, false);
    gl.stencilMask(1);
    gl.stencilFunc(gl.ALWAYS, 0, 0xff);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.INVERT);
    gl.uniform1i(this.u.pass, 0);
    gl.drawElements(gl.TRIANGLES, count, gl.UNSIGNED_INT, first * 4);
    gl.colorMask(true, true, true, true);
    this.drawCalls++;
  }

  maskSource(pages, first, count, page, bit, threshold) {
    const gl = this.gl;
    gl.colorMask(false, false, false, false);
    gl.stencilMask(bit);
    gl.stencilFunc(gl.ALWAYS, bit, 0xff);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.REPLACE);
    gl.uniform1i(this.u.pass, 1);
    gl.uniform1f(this.u.threshold, threshold);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, pages[page] || this.white);
    gl.drawElements(gl.TRIANGLES, count, gl.UNSIGNED_INT, first * 4);
    gl.colorMask(true, true, true, true);
    this.drawCalls++;
  }

  // Stencil test for a draw: where stencil & mask == ref.
  stencil(ref, mask) {
    const gl = this.gl;
    gl.stencilMask(0);
    gl.stencilFunc(gl.EQUAL, ref, mask);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.KEEP);
  }

  // Sets the blend of mode `m`; returns true when the shader blends (a backdrop copy).
  blend(m) {
    const gl = this.gl;
    const f = (cs, cd, as = gl.ONE, ad = gl.ONE_MINUS_SRC_ALPHA) => {
      gl.enable(gl.BLEND);
      gl.blendFuncSeparate(cs, cd, as, ad);
      return false;
    };
    switch (m) {
      case 0: return f(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
      case 1: return f(gl.ONE, gl.ONE, gl.ONE, gl.ONE);
      case 2: return f(gl.DST_COLOR, gl.ONE_MINUS_SRC_ALPHA);
      case 3: return f(gl.ONE, gl.ONE_MINUS_SRC_COLOR);
      case 9: return f(gl.ONE, gl.ONE);
      case 16: return f(gl.ONE_MINUS_DST_COLOR, gl.ONE_MINUS_SRC_ALPHA);
      case 17: return f(gl.ZERO, gl.SRC_ALPHA, gl.ZERO, gl.SRC_ALPHA);
      case 18: return f(gl.DST_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.DST_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      case 19: return f(gl.ZERO, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE_MINUS_SRC_ALPHA);
      default:
        gl.disable(gl.BLEND);
        this.copyBackdrop();
        return true;
    }
  }

  // Copies what is drawn so far into the backdrop texture (texture unit 1).
  copyBackdrop() {
    const gl = this.gl;
    const t = this.target('backdropTex', false);
    if (this.fbo) {
      // Inside a group: a multisampled target is copied from its resolved texture.
      this.resolveLayer();
      gl.bindFramebuffer(gl.READ_FRAMEBUFFER, this.layer.resolve);
    }
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, t.tex);
    gl.copyTexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 0, 0, t.w, t.h);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.fbo);
  }

  drawOp(pages, first, count, page, mode, ref, mask) {
    const gl = this.gl;
    this.stencil(ref, mask);
    const shaderBlend = this.blend(mode);
    gl.uniform1i(this.u.pass, shaderBlend ? 2 : 0);
    gl.uniform1i(this.u.mode, mode);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, pages[page] || this.white);
    gl.drawElements(gl.TRIANGLES, count, gl.UNSIGNED_INT, first * 4);
    this.drawCalls++;
  }

  groupBegin() {
    const gl = this.gl;
    const t = this.target('layer', true);
    this.fbo = t.fbo;
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
    gl.clearColor(0, 0, 0, 0);
    gl.stencilMask(0xff);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);
  }

  groupEnd() {
    this.resolveLayer();
    this.fbo = null;
    this.gl.bindFramebuffer(this.gl.FRAMEBUFFER, null);
  }

  composite(mode, ref, mask, tint, screen) {
    const gl = this.gl;
    this.stencil(ref, mask);
    const shaderBlend = this.blend(mode);
    gl.uniform1i(this.u.pass, shaderBlend ? 4 : 3);
    gl.uniform1i(this.u.mode, mode);
    gl.uniform4fv(this.u.tint, tint);
    gl.uniform3fv(this.u.screen, screen);
    gl.uniform1i(this.u.full, 1);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.layer.tex);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.uniform1i(this.u.full, 0);
    this.drawCalls++;
  }
}

/** The view [x0, y0, x1, y1] showing `bounds` whole in a w x h canvas, 5% padded. */
export function fit(bounds, w, h, padding = 0.05) {
  if (!bounds) return null;
  const [x0, y0, x1, y1] = bounds;
  const bw = Math.max(x1 - x0, 1e-6) * (1 + 2 * padding);
  const bh = Math.max(y1 - y0, 1e-6) * (1 + 2 * padding);
  const s = Math.min(w / bw, h / bh);
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const hw = w / s / 2;
  const hh = h / s / 2;
  return [cx - hw, cy - hh, cx + hw, cy + hh];
}

function program(gl, vs, fs) {
  const p = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
  return p;
}
