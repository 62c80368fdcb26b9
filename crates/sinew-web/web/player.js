// player.js: <sinew-player src=... atlas=... animation=... skin=... armature=... extras=...
// physics3=...>, a
// character on a page with the controls people expect: play/pause, a scrub bar, speed,
// animation and skin lists, parameter sliders for puppets, files dropped on it, and the
// loader's error shown in place when a file does not load.
//
//   <script type="module" src="player.js"></script>
//   <sinew-player src="stickbot.json" animation="walk"></sinew-player>
//
// Script access: `el.ready` (a promise of the Character), `el.character`, `el.renderer`,
// `el.view` ([x0, y0, x1, y1] world, y up; default fitted), `el.background` (straight RGBA
// 0..1), `el.playing`, `el.seek(t)`,
// `el.stats` (load, first picture and per-frame milliseconds). Events: `load`, `error`
// (detail: the message), `sinew-event` (detail: a key event's name).

import { init } from './sinew.js';
import { fit } from './renderer.js';

let shared = null;
const sinew = () => (shared = shared || init(new URL('sinew_web.wasm', import.meta.url)));

const CSS = `
:host { display: inline-block; position: relative; width: 480px; height: 480px;
  font: 13px system-ui, sans-serif; color: #eee; background: #2b2b2b; }
canvas { position: absolute; inset: 0; width: 100%; height: calc(100% - 64px); display: block; }
.bar { position: absolute; left: 0; right: 0; bottom: 0; height: 64px; padding: 4px 6px;
  box-sizing: border-box; background: #1c1c1c; display: flex; flex-wrap: wrap; gap: 4px 8px;
  align-items: center; }
.bar input[type=range].time { flex: 1 1 100%; margin: 0; }
.params { position: absolute; top: 4px; right: 4px; max-height: calc(100% - 76px); overflow: auto;
  background: #1c1c1ccc; padding: 4px 6px; display: none; }
.params label { display: block; white-space: nowrap; }
.params input { width: 110px; vertical-align: middle; }
.error { position: absolute; inset: 8px 8px 72px 8px; color: #ff8a80; white-space: pre-wrap;
  overflow: auto; display: none; }
.drop { outline: 3px dashed #8ab4f8; outline-offset: -6px; }
button, select { font: inherit; }
`;

class SinewPlayer extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'atlas', 'animation', 'skin', 'armature', 'extras', 'physics3'];
  }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${CSS}</style><canvas part="canvas"></canvas>
      <div class="error" part="error" role="alert"></div>
      <div class="params" part="params"></div>
      <div class="bar" part="controls">
        <input class="time" type="range" min="0" max="1" step="0.001" value="0" aria-label="time">
        <button class="play" aria-label="pause">❚❚</button>
        <select class="anim" aria-label="animation"></select>
        <select class="skin" aria-label="skin"></select>
        <label>speed <select class="speed" aria-label="speed">
          <option>0.25</option><option>0.5</option><option selected>1</option><option>2</option>
        </select></label>
        <span class="clock"></span>
      </div>`;
    this.$ = (s) => root.querySelector(s);
    this.canvas = this.$('canvas');
    this.character = null;
    this.renderer = null;
    this.view = null;
    /** Straight RGBA 0..1 behind the character (default: transparent). */
    this.background = [0, 0, 0, 0];
    this.playing = true;
    this.stats = { loadMs: 0, firstPictureMs: 0, frameMs: 0 };
    this.loadId = 0;
    this.wire();
    this.ready = Promise.resolve(null);
  }

  connectedCallback() {
    if (this.getAttribute('src') && !this.character) this.reload();
  }

  attributeChangedCallback(name, old, value) {
    if (!this.isConnected || old === value) return;
    if (name === 'animation' && this.character) return this.choose(value);
    if (name === 'skin' && this.character) return this.skins(value);
    this.reload();
  }

  wire() {
    const time = this.$('.time');
    time.addEventListener('input', () => {
      this.pause();
      this.seek(parseFloat(time.value));
    });
    this.$('.play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    this.$('.anim').addEventListener('change', (e) => this.choose(e.target.value));
    this.$('.skin').addEventListener('change', (e) => this.skins(e.target.value));
    this.$('.speed').addEventListener('change', (e) => {
      if (this.character) this.character.speed = parseFloat(e.target.value);
    });
    this.addEventListener('dragover', (e) => {
      e.preventDefault();
      this.$('.bar').classList.add('drop');
    });
    this.addEventListener('dragleave', () => this.$('.bar').classList.remove('drop'));
    this.addEventListener('drop', (e) => {
      e.preventDefault();
      this.$('.bar').classList.remove('drop');
      this.loadDropped([...e.dataTransfer.files]);
    });
  }

  /** Loads from the attributes. */
  reload() {
    const src = this.getAttribute('src');
    if (!src) return;
    const opts = {
      atlas: this.getAttribute('atlas') || undefined,
      armature: this.getAttribute('armature') || undefined,
      extras: this.getAttribute('extras') || undefined,
      physics3: this.getAttribute('physics3') || undefined,
    };
    this.start((s) => s.load(src, opts));
  }

  /** Loads dropped files: the skeleton (or puppet) among them, its companions beside it. */
  async loadDropped(list) {
    const files = new Map();
    for (const f of list) files.set(f.name, new Uint8Array(await f.arrayBuffer()));
    const names = [...files.keys()];
    const pick = (re) => names.find((n) => re.test(n));
    const main = pick(/\.(inp|inx)$/i) || pick(/_ske\.json$/i) || pick(/\.skel$/i)
      || pick(/^(?!.*(_tex|\.extras|\.physics3)\.json$).*\.json$/i) || names[0];
    if (!main) return;
    const extras = pick(/\.extras\.json$/i);
    const physics3 = pick(/\.physics3\.json$/i);
    this.start((s) => s.loadFiles(main, files, { extras, physics3 }));
  }

  start(loader) {
    const id = ++this.loadId;
    const t0 = performance.now();
    this.ready = (async () => {
      try {
        const s = await sinew();
        const c = await loader(s);
        if (id !== this.loadId) return c.free(), null;
        this.setCharacter(c, t0);
        return c;
      } catch (e) {
        if (id === this.loadId) this.fail(e);
        return null;
      }
    })();
    return this.ready;
  }

  fail(e) {
    const msg = String(e && e.message ? e.message : e);
    const box = this.$('.error');
    box.textContent = msg;
    box.style.display = 'block';
    this.dispatchEvent(new CustomEvent('error', { detail: msg }));
  }

  setCharacter(c, t0) {
    if (this.character) this.character.free();
    this.character = c;
    this.$('.error').style.display = 'none';
    c.onEvent = (name) => this.dispatchEvent(new CustomEvent('sinew-event', { detail: name }));
    const opt = (v, text = v) => Object.assign(document.createElement('option'), { value: v, textContent: text });
    const anim = this.$('.anim');
    anim.replaceChildren(opt('', '(none)'), ...c.animations.map((n) => opt(n)));
    const skin = this.$('.skin');
    skin.replaceChildren(opt('', '(default skin)'), ...c.info.skins.map((n) => opt(n)));
    skin.style.display = c.info.skins.length > 1 ? '' : 'none';
    this.buildParams(c);
    const wanted = this.getAttribute('animation');
    const first = wanted === 'none' ? '' : wanted || c.animations[0] || '';
    if (this.getAttribute('skin')) this.skins(this.getAttribute('skin'));
    this.choose(first);
    this.stats.loadMs = c.loadMs;
    if (!this.renderer) this.renderer = c.s.renderer(this.canvas, { preserveDrawingBuffer: true });
    this.draw();
    this.stats.firstPictureMs = performance.now() - t0;
    this.dispatchEvent(new CustomEvent('load', { detail: c }));
    if (!this.raf) this.loop();
  }

  buildParams(c) {
    const box = this.$('.params');
    box.replaceChildren();
    const params = c.info.params.filter((p) => !p.driven);
    box.style.display = params.length ? 'block' : 'none';
    for (const p of params) {
      const axes = p.is2d ? [0, 1] : [0];
      const inputs = axes.map((k) => Object.assign(document.createElement('input'), {
        type: 'range', min: p.min[k], max: p.max[k], step: (p.max[k] - p.min[k]) / 200 || 0.01,
        value: p.default[k],
      }));
      const label = document.createElement('label');
      label.append(p.name + ' ', ...inputs);
      inputs.forEach((input, k) => {
        input.dataset.param = p.name;
        input.dataset.axis = k;
        input.setAttribute('aria-label', `${p.name}${p.is2d ? (k ? ' y' : ' x') : ''}`);
        input.addEventListener('input', () => {
          c.setParam(p.name, parseFloat(inputs[0].value), inputs[1] ? parseFloat(inputs[1].value) : 0);
          if (!this.playing) this.draw();
        });
      });
      box.append(label);
    }
  }

  /** Plays animation `name` ('' or null: none) from its start. */
  choose(name) {
    const c = this.character;
    if (!c) return;
    try {
      c.play(name || null, true);
    } catch (e) {
      return this.fail(e);
    }
    this.$('.anim').value = name || '';
    const time = this.$('.time');
    time.max = c.duration() || 1;
    time.step = (c.duration() || 1) / 1000;
    c.view = null;
    if (!this.playing) this.draw();
  }

  skins(list) {
    const c = this.character;
    if (!c) return;
    try {
      c.setSkins(String(list || '').split(',').map((s) => s.trim()).filter(Boolean));
    } catch (e) {
      return this.fail(e);
    }
    this.$('.skin').value = list || '';
    c.view = null;
    if (!this.playing) this.draw();
  }

  play() {
    this.playing = true;
    this.$('.play').textContent = '❚❚';
    this.$('.play').setAttribute('aria-label', 'pause');
  }

  pause() {
    this.playing = false;
    this.$('.play').textContent = '▶';
    this.$('.play').setAttribute('aria-label', 'play');
  }

  /** Shows the animation at `t` seconds. */
  seek(t) {
    if (!this.character) return;
    this.character.seek(t);
    this.draw();
  }

  // Sizes the canvas to its box in device pixels.
  resize() {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width * dpr));
    const h = Math.max(1, Math.round(r.height * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      if (this.character) this.character.view = null;
    }
  }

  draw() {
    const c = this.character;
    if (!c || !this.renderer) return;
    if (!this.fixedSize) this.resize();
    const { width: w, height: h } = this.canvas;
    const view = this.view || c.view || (c.view = fit(c.bounds(), w, h));
    this.renderer.draw([{ character: c, view }], this.background);
    const d = c.duration();
    const t = d > 0 ? c.time % d : 0;
    this.$('.time').value = t;
    this.$('.clock').textContent = `${t.toFixed(2)} / ${d.toFixed(2)} s`;
  }

  loop() {
    let last = performance.now();
    const tick = (now) => {
      this.raf = requestAnimationFrame(tick);
      if (!this.isConnected) return;
      const dt = Math.min(0.1, (now - last) / 1000);
      last = now;
      if (this.character && this.playing) {
        const t0 = performance.now();
        this.character.update(dt);
        this.draw();
        const ms = performance.now() - t0;
        this.stats.frameMs = this.stats.frameMs ? this.stats.frameMs * 0.95 + ms * 0.05 : ms;
      }
    };
    this.raf = requestAnimationFrame(tick);
  }

  disconnectedCallback() {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }
}

customElements.define('sinew-player', SinewPlayer);
