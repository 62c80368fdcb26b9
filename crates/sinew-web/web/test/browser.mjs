// The browser test (.ci/web.sh): headless Chromium (Debian's, driven by playwright-core)
// on the served player. For each reference of refs.json (written by
// `cargo run -p sinew-web --example reference`, the same frame drawn by sinew-render) the
// <sinew-player> canvas must match it: IoU of the covered pixels >= 0.98 and PSNR over white
// >= 30 dB. Then the controls are clicked (animation list, scrub bar, play/pause, a
// parameter slider, files dropped) and the picture must change; a bad file must show its
// error in the page. Last, the page's per-frame cost of spineboy and its first picture.
//
//   node browser.mjs http://127.0.0.1:PORT/     (refs under /ref/)

import { chromium } from 'playwright-core';

const base = process.argv[2];
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
page.on('pageerror', (e) => check(false, `page error: ${e.message}`));
page.on('console', (m) => m.type() === 'error' && console.log(`page console: ${m.text()}`));
await page.goto(`${base}test.html`);
await page.waitForFunction(() => window.testReady);

// In the page: a player for `src`, paused at `time` with a fixed view and canvas size.
await page.evaluate(() => {
  window.player = async (ref) => {
    const el = document.createElement('sinew-player');
    el.fixedSize = !!ref.size;
    el.style.width = `${ref.size || 480}px`;
    el.style.height = `${(ref.size || 416) + 64}px`;
    if (ref.animation !== undefined) el.setAttribute('animation', ref.animation || 'none');
    el.setAttribute('src', ref.src);
    el.id = ref.id || 'p';
    document.body.replaceChildren(el);
    await new Promise((r) => setTimeout(r, 0));
    const c = await el.ready;
    if (ref.size && c) {
      el.pause();
      el.view = ref.view;
      el.background = ref.background || [0, 0, 0, 0];
      c.blendOverride = ref.blend ?? null;
      el.canvas.width = el.canvas.height = ref.size;
      el.seek(ref.time);
    }
    return c ? null : el.shadowRoot.querySelector('.error').textContent;
  };
  // The canvas as straight-alpha RGBA rows, top first.
  window.pixels = (el) => {
    const gl = el.renderer.gl;
    const { width: w, height: h } = gl.canvas;
    el.draw();
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const out = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) out.set(px.subarray((h - 1 - y) * w * 4, (h - y) * w * 4), y * w * 4);
    return { w, h, px: out, premultiplied: true };
  };
  // How many pixels differ by more than 8 in a channel.
  window.changed = (a, b) => {
    let n = 0;
    for (let i = 0; i < a.px.length; i += 4) {
      for (let k = 0; k < 4; k++) if (Math.abs(a.px[i + k] - b.px[i + k]) > 8) { n++; break; }
    }
    return n;
  };
  window.compare = async (el, png) => {
    const got = window.pixels(el);
    const blob = await (await fetch(png)).blob();
    const bmp = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const cv = new OffscreenCanvas(got.w, got.h);
    const ctx = cv.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const ref = ctx.getImageData(0, 0, got.w, got.h).data;
    let inter = 0, union = 0, se = 0;
    for (let i = 0; i < ref.length; i += 4) {
      const ar = ref[i + 3] / 255, ag = got.px[i + 3] / 255;
      const covR = ar > 0.1, covG = ag > 0.1;
      if (covR && covG) inter++;
      if (covR || covG) union++;
      for (let k = 0; k < 3; k++) {
        // Both over white: the reference is straight, the canvas premultiplied.
        const r = ref[i + k] * ar + 255 * (1 - ar);
        const g = got.px[i + k] + 255 * (1 - ag);
        se += (r - g) ** 2;
      }
    }
    const mse = se / (ref.length / 4 * 3);
    return { iou: union ? inter / union : 1, psnr: mse ? 10 * Math.log10(255 * 255 / mse) : 99, covered: union };
  };
});

// 1. Every reference frame.
const refs = await (await fetch(`${base}ref/refs.json`)).json();
// Under CI the shared fixtures are there: spineboy, a DragonBones rig and the face puppet;
// the Spine 4.3 clipping lab is in the repository (testdata), so always.
const must = ['spineboy-run', 'spineboy-skel', 'dragon-boy', 'face-idle', 'tank-drive', 'inx-groups'];
check(refs.some((r) => r.name === 'clip-lab-move') && (!process.env.CI || must.every((n) => refs.some((r) => r.name === n))),
  `${refs.length} reference frames (${refs.map((r) => r.name).join(', ')})`);
for (const ref of refs) {
  const err = await page.evaluate((r) => window.player(r), ref);
  if (err) {
    check(false, `${ref.name}: ${err}`);
    continue;
  }
  const m = await page.evaluate((png) => window.compare(document.getElementById('p'), png), `ref/${ref.png}`);
  check(m.iou >= 0.98 && m.psnr >= 30 && m.covered > 1000,
    `${ref.name}: IoU ${m.iou.toFixed(4)}, PSNR ${m.psnr.toFixed(2)} dB over ${m.covered} covered pixels`);
}

// 2. Controls change the picture (real clicks on the element's controls).
// Snapshots stay in the page (by number); `diff` counts the pixels that changed.
let snaps = 0;
const snap = () => page.evaluate((k) => {
  window.snaps = window.snaps || [];
  window.snaps[k] = window.pixels(document.getElementById('p'));
  return k;
}, snaps++);
const diff = (a, b) => page.evaluate(([x, y]) => window.changed(window.snaps[x], window.snaps[y]), [a, b]);
await page.evaluate(() => window.player({ src: 'examples/stickbot/stickbot.json', animation: 'walk' }));
const player = page.locator('#p');
await player.locator('button.play').click();
const paused = await page.evaluate(() => !document.getElementById('p').playing);
check(paused, 'the play/pause button pauses');
let a = await snap();
await page.waitForTimeout(300);
check((await diff(a, await snap())) === 0, 'paused: the picture stands still');
await player.locator('input.time').click({ position: { x: 300, y: 5 } });
let b = await snap();
check((await diff(a, b)) > 200, `scrubbing moves the picture (${await diff(a, b)} pixels)`);
await player.locator('select.anim').selectOption('turn');
await page.evaluate(() => document.getElementById('p').seek(0.5));
let c = await snap();
check((await diff(b, c)) > 200, `choosing another animation changes the picture (${await diff(b, c)} pixels)`);
await player.locator('button.play').click();
a = await snap();
await page.waitForTimeout(400);
check((await diff(a, await snap())) > 50, 'playing again: the picture moves');

// A parameter slider of the face puppet.
await page.evaluate(() => window.player({ src: 'examples/face/face.inp', animation: 'none' }));
a = await snap();
const slider = player.locator('input[data-param="ParamAngle"][data-axis="0"]');
await slider.click({ position: { x: 2, y: 5 } });
b = await snap();
check((await diff(a, b)) > 200, `the ParamAngle slider turns the head (${await diff(a, b)} pixels)`);

// Files dropped on the player load (a Spine skeleton with its atlas and pages).
const dropped = await page.evaluate(async () => {
  const el = document.getElementById('p');
  const dt = new DataTransfer();
  for (const n of ['stickbot.json', 'stickbot.atlas', 'stickbot.png', 'stickbot_2.png']) {
    const blob = await (await fetch(`examples/stickbot/${n}`)).blob();
    dt.items.add(new File([blob], n));
  }
  el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  for (let i = 0; i < 100 && !(el.character && el.character.animations.includes('walk')); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return el.character ? el.character.animations : null;
});
check(Array.isArray(dropped) && dropped.includes('walk'), `dropped files load (${dropped})`);

// The JS API beyond the element: events, crossfade, queue, bones, hit tests, IK targets,
// skins, errors, two characters on one canvas.
const api = await page.evaluate(async () => {
  const web = await window.sinewInit();
  const bot = await web.load('examples/stickbot/stickbot.json');
  const steps = [];
  bot.onEvent = (e) => steps.push(e);
  bot.play('walk');
  for (let i = 0; i < 60; i++) bot.update(1 / 60);
  const head0 = bot.bone('head');
  bot.crossfade('turn', 0.3);
  bot.queue('walk', 0);
  for (let i = 0; i < 12; i++) bot.update(1 / 60);
  const head1 = bot.bone('head');
  const errors = [];
  for (const f of [() => bot.play('moonwalk'), () => bot.setSkins(['nope']), () => bot.setParam('nope', 1),
    () => bot.setIkTarget('nope', 0, 0), () => bot.crossfade('nope', 0.2)]) {
    try { f(); errors.push(null); } catch (e) { errors.push(e.message); }
  }
  const ik = bot.info.ik[0];
  let aimed = null;
  if (ik) { bot.setIkTarget(ik, 100, 100); bot.update(1 / 60); aimed = ik; }
  const face = await web.load('examples/face/face.inp');
  face.setParam('ParamAngle', 30, -10);
  face.update(1 / 60);
  const canvas = document.createElement('canvas');
  canvas.width = 300;
  canvas.height = 200;
  const r = web.renderer(canvas);
  r.draw([{ character: bot, view: [-300, -50, 300, 350] }, { character: face, view: [-900, -600, 600, 400] }]);
  const result = { steps: steps.length, first: steps[0], head0, head1, errors, aimed,
    noBone: bot.bone('nope'), calls: r.drawCalls, anims: bot.animations };
  bot.free();
  face.free();
  return result;
});
check(api.steps > 0 && api.first === 'footstep', `key events reach onEvent (${api.steps} footsteps in 1 s of walk)`);
check(api.head0 && Number.isFinite(api.head0.x) && api.noBone === null, 'bone() gives world transforms, null for no bone');
check(api.head1 && (api.head1.x !== api.head0.x || api.head1.y !== api.head0.y), 'crossfade and queue move the pose');
check(api.errors.every((e) => typeof e === 'string' && e.length > 0), `bad names throw: ${api.errors.join(' | ')}`);
check(api.errors[0].includes('walk'), 'an unknown animation lists the animations');
check(api.calls >= 2, `two characters on one canvas: ${api.calls} draw calls`);

// A crowd: 20 spineboys of one load (spawned twins sharing the rig and pages) in one
// shared frame; one of them alone draws exactly as `draw` draws it.
if (refs.some((r) => r.name === 'spineboy-run')) {
  const crowd = await page.evaluate(async () => {
    const web = await window.sinewInit();
    const boy = await web.load('fixtures/spine/spineboy/spineboy-pro.json');
    const all = [boy];
    for (let i = 1; i < 20; i++) all.push(boy.spawn());
    all.forEach((c, i) => {
      c.play('run');
      c.update(0.03 * i);
      c.place = { x: (i % 5) * 260 - 520, y: Math.floor(i / 5) * 300 - 450, scale: 0.4 };
    });
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 400;
    const r = web.renderer(canvas, { preserveDrawingBuffer: true });
    const read = () => {
      const gl = r.gl;
      const px = new Uint8Array(400 * 400 * 4);
      gl.readPixels(0, 0, 400, 400, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return px;
    };
    const view = [-700, -500, 700, 900];
    r.drawCrowd(all, view);
    const calls = r.drawCalls;
    let covered = 0;
    const px = read();
    for (let i = 3; i < px.length; i += 4) if (px[i] > 25) covered++;
    boy.place = null;
    r.drawCrowd([boy], [-400, -50, 400, 750]);
    const a = read();
    r.draw([{ character: boy, view: [-400, -50, 400, 750] }]);
    const b = read();
    let differ = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
    return { calls, covered, differ };
  });
  check(crowd.calls <= 2 && crowd.covered > 5000,
    `20 spineboys in ${crowd.calls} draw call(s), ${crowd.covered} pixels covered`);
  check(crowd.differ === 0, `a crowd of one draws as draw() does (${crowd.differ} bytes differ)`);
}

// 3. Bad files show their error in the page.
for (const [src, want] of [['examples/stickbot/stickbot.png', 'PNG'], ['examples/stickbot/stickbot.atlas', 'atlas'],
  ['examples/no-such-file.json', 'could not be fetched'], ['bad.json', 'bad.json']]) {
  const err = await page.evaluate((s) => window.player({ src: s }), src);
  const shown = await player.locator('.error').isVisible();
  check(shown && err && err.includes(want), `${src}: the page shows "${err}"`);
}

// 4. Figures: per-frame cost of spineboy in the page (update + frame buffers, and the
// WebGL draw on SwiftShader) and the first picture after load.
if (refs.some((r) => r.name === 'spineboy-run')) {
  const fig = await page.evaluate(async () => {
    const t0 = performance.now();
    const err = await window.player({ src: 'fixtures/spine/spineboy/spineboy-pro.json', animation: 'run' });
    const el = document.getElementById('p');
    const first = el.stats.firstPictureMs;
    el.pause();
    const c = el.character;
    const n = 600;
    let t = performance.now();
    for (let i = 0; i < n; i++) c.update(1 / 60);
    const update = (performance.now() - t) / n;
    t = performance.now();
    for (let i = 0; i < n; i++) { c.update(1 / 60); c.frame(); }
    const both = (performance.now() - t) / n;
    t = performance.now();
    for (let i = 0; i < 120; i++) { c.update(1 / 60); el.draw(); }
    el.renderer.gl.finish();
    const draw = (performance.now() - t) / 120;
    return { err, first_picture_ms: first, total_ms: performance.now() - t0, update_us: update * 1000,
      update_and_frame_us: both * 1000, update_frame_draw_ms: draw, draw_calls: el.renderer.drawCalls };
  });
  console.log(`figures ${JSON.stringify(fig)}`);
  // The first picture on a fresh page: the module fetched and compiled, spineboy fetched
  // (skeleton, atlas, page), decoded and drawn.
  const cold = await browser.newPage({ viewport: { width: 600, height: 600 } });
  await cold.goto(`${base}test.html`);
  await cold.waitForFunction(() => window.testReady);
  const first = await cold.evaluate(async () => {
    const el = document.createElement('sinew-player');
    el.setAttribute('src', 'fixtures/spine/spineboy/spineboy-pro.json');
    document.body.append(el);
    await new Promise((r) => setTimeout(r, 0));
    await el.ready;
    return { first_picture_cold_ms: el.stats.firstPictureMs, load_ms: el.stats.loadMs };
  });
  console.log(`figures ${JSON.stringify(first)}`);
  await cold.close();
}

await browser.close();
if (failures.length) {
  console.log(`${failures.length} browser check(s) failed`);
  process.exit(1);
}
console.log('all browser checks passed');
