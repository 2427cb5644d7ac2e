// app.js: the demo page. Loads an image, runs Resize (sampler.resizeImage) or GridSample
// (imageToTensor -> gridSample -> tensorToImageData) on every change of the settings, shows
// input, output and optionally the difference against a second setting, a pixel loupe and
// the time of each library call: warm (the median of a few repeats of the call) and, apart,
// the first call of the page (cold: compiling, growing wasm memory, first-use tables).
// The calls run in a worker (createSampler({ worker: true }): their methods return Promises),
// so the page stays responsive during a 4K resize; unchecking "in a worker" runs them on the
// main thread with a synchronous sampler instead, to compare. The page shows how many threads
// the worker's sampler uses (sampler.threads).
//
// For tests and automation: document.body.dataset.status is 'loading' | 'pending' | 'done' |
// 'error' and dataset.runs counts finished runs; window.__demo holds { ready, runs, last,
// settled(), run(), setPosition() }; last.spans lists the [start, end] (performance.now())
// of each library call of the run.
import { createSampler } from './dist/browser.mjs';

const $ = (id) => document.getElementById(id);
const MAX_INPUT_SIDE = 2048;      // larger images are shrunk (with resizeImage) on load
const MAX_OUTPUT_PIXELS = 16e6;   // keeps the float32 tensors of one run under ~600 MB

const state = {
  sampler: null,      // the sampler in use: the worker's, or the synchronous one
  workerSampler: null,
  syncSampler: null,  // made when "in a worker" is first unchecked
  running: false,     // a run is in progress (its calls are awaited)
  again: false,       // settings changed during it: run once more after it
  input: null,        // ImageData of the input
  inputName: '',
  outA: null,         // ImageData of the output
  outB: null,         // ImageData of the comparison run (difference view)
  diff: null,         // ImageData of |A - B| * amplify
  grid: null,         // the last GridSample run's grid (for the loupe), or null
  runs: 0,
  timer: 0,
  pos: { fx: 0.5, fy: 0.5 },  // loupe position, as a fraction of the image
  firstCall: null,    // [label, ms] of the page's first library call (cold)
  settledWaiters: [],
};

const body = document.body;
function setStatus(kind, text) {
  body.dataset.status = kind;
  if (text !== undefined) $('status').textContent = text;
}

// ------------------------------------------------------------------ settings

function readSettings() {
  const num = (id) => Number($(id).value);
  return {
    op: $('op-grid').checked ? 'gridsample' : 'resize',
    resize: {
      mode: $('resize-mode').value,
      coordinateTransformationMode: $('coord-mode').value,
      antialias: $('antialias').checked,
      cubicCoeffA: num('cubic-a'),
      sizeBy: $('size-by-size').checked ? 'size' : 'scale',
      scale: num('scale'),
      width: Math.round(num('out-width')),
      height: Math.round(num('out-height')),
    },
    grid: {
      mode: $('grid-mode').value,
      paddingMode: $('padding-mode').value,
      alignCorners: $('align-corners').checked,
      rotation: num('rotation'),
      zoom: num('zoom'),
      shear: num('shear'),
      distortion: $('distortion').value,
      strength: num('strength'),
    },
    premultiply: $('premultiply').checked,
    linearLight: $('linear-light').checked,
    compare: $('compare').checked,
    compareWith: $('compare-with').value,
    amplify: num('amplify'),
  };
}

// The settings of the comparison run: A's settings with one thing changed.
function variantOf(s) {
  const v = structuredClone(s);
  const [what, value] = s.compareWith.split(':');
  if (what === 'mode') { v.resize.mode = value; v.grid.mode = value; }
  else if (what === 'antialias') v.resize.antialias = !s.resize.antialias;
  else if (what === 'premultiply') v.premultiply = !s.premultiply;
  else if (what === 'linearLight') v.linearLight = !s.linearLight;
  return v;
}

function describeVariant(s) {
  const [what, value] = s.compareWith.split(':');
  const flip = (on) => (on ? 'off' : 'on');
  if (what === 'mode') return `vs mode ${value}`;
  if (what === 'antialias') return `vs antialias ${flip(s.resize.antialias)}`;
  if (what === 'premultiply') return `vs premultiply ${flip(s.premultiply)}`;
  return `vs linear light ${flip(s.linearLight)}`;
}

// ------------------------------------------------------------------ the two operators

// Runs fn once for its result, then repeats it (the calls have no side effects) to time it
// warm: up to WARM_RUNS repeats while they take under WARM_BUDGET_MS together. Records
// [label, warm ms (median of the repeats; the first call when there was no time to
// repeat), { first: ms of the first call, runs: repeats }], and each call's span in
// times.spans. fn may return a Promise (the worker sampler's methods): it is awaited.
const WARM_RUNS = 5;
const WARM_BUDGET_MS = 150;
async function timed(times, label, fn) {
  let t = performance.now();
  const r = await fn();
  let end = performance.now();
  times.spans.push([t, end]);
  const first = end - t;
  if (!state.firstCall) state.firstCall = [label, first];
  const warm = [];
  for (let spent = 0; warm.length < WARM_RUNS && spent + first < WARM_BUDGET_MS;) {
    t = performance.now();
    await fn();
    end = performance.now();
    times.spans.push([t, end]);
    const ms = end - t;
    warm.push(ms);
    spent += ms;
  }
  warm.sort((a, b) => a - b);
  const median = warm.length ? (warm[(warm.length - 1) >> 1] + warm[warm.length >> 1]) / 2 : first;
  times.push([label, median, { first, runs: warm.length }]);
  return r;
}

function runResize(s, times, tag) {
  const r = s.resize;
  state.grid = null;
  const opts = {
    mode: r.mode, coordinateTransformationMode: r.coordinateTransformationMode,
    antialias: r.antialias, cubicCoeffA: r.cubicCoeffA,
    premultiply: s.premultiply, linearLight: s.linearLight,
  };
  const { width: W, height: H } = state.input;
  let ow, oh;
  if (r.sizeBy === 'scale') { opts.scale = r.scale; ow = Math.floor(W * r.scale); oh = Math.floor(H * r.scale); }
  else { opts.width = r.width; opts.height = r.height; ow = r.width; oh = r.height; }
  if (ow * oh > MAX_OUTPUT_PIXELS)
    throw new RangeError(`the output would be ${ow} × ${oh}; this demo stops at ${MAX_OUTPUT_PIXELS / 1e6} megapixels`);
  return timed(times, `${tag}resizeImage (${r.mode})`, () => state.sampler.resizeImage(state.input, opts));
}

// The sampling grid of the warp: for each output pixel, where to read the input, in
// GridSample's normalised [-1, 1] coordinates. The warp acts in pixel units around the
// image centre: output = Rotate * Shear * Scale * input, after the distortion.
function buildGrid(W, H, g) {
  const grid = new Float32Array(W * H * 2);
  const th = (g.rotation * Math.PI) / 180;
  const c = Math.cos(th), sn = Math.sin(th);
  // M = R * Sh * S, S = zoom * I, Sh = [[1, shear], [0, 1]]; we need M^-1.
  const m00 = c * g.zoom, m01 = (c * g.shear - sn) * g.zoom;
  const m10 = sn * g.zoom, m11 = (sn * g.shear + c) * g.zoom;
  const det = m00 * m11 - m01 * m10;
  const i00 = m11 / det, i01 = -m01 / det, i10 = -m10 / det, i11 = m00 / det;
  const R0 = Math.min(W, H) / 2;
  const RD2 = (W * W + H * H) / 4;
  const hw = W / 2, hh = H / 2;
  // pixel index -> normalised coordinate, matching align_corners (so no warp is identity)
  const ax = g.alignCorners ? (W > 1 ? 2 / (W - 1) : 0) : 2 / W, bx = g.alignCorners ? -1 : 1 / W - 1;
  const ay = g.alignCorners ? (H > 1 ? 2 / (H - 1) : 0) : 2 / H, by = g.alignCorners ? -1 : 1 / H - 1;
  const sx = g.alignCorners ? (W - 1) / 2 : hw, sy = g.alignCorners ? (H - 1) / 2 : hh;
  let k = 0;
  for (let i = 0; i < H; i++) {
    for (let j = 0; j < W; j++, k += 2) {
      // output pixel centre, in pixels from the image centre
      let px = (ax * j + bx) * sx, py = (ay * i + by) * sy;
      if (g.distortion === 'swirl') {
        const r = Math.sqrt(px * px + py * py) / R0;
        if (r < 1) {
          const a = g.strength * 2 * Math.PI * (1 - r) * (1 - r);
          const ca = Math.cos(a), sa = Math.sin(a);
          const qx = ca * px - sa * py, qy = sa * px + ca * py;
          px = qx; py = qy;
        }
      } else if (g.distortion === 'lens') {
        // radius over the half diagonal (<= 1), so the factor stays in [0.5, 1.5]
        const r2 = (px * px + py * py) / RD2;
        const f = 1 + 0.5 * g.strength * r2;
        px *= f; py *= f;
      }
      grid[k] = (i00 * px + i01 * py) / sx;
      grid[k + 1] = (i10 * px + i11 * py) / sy;
    }
  }
  return { type: 'float32', dims: [1, H, W, 2], data: grid };
}

async function runGridSample(s, times, tag) {
  const g = s.grid;
  const { width: W, height: H } = state.input;
  const x = await timed(times, `${tag}imageToTensor`, () => state.sampler.imageToTensor(state.input, { channels: 4, premultiply: s.premultiply }));
  const grid = await timed(times, `${tag}build the grid (JS)`, () => buildGrid(W, H, g));
  if (tag !== 'B: ') state.grid = { data: grid.data, W, H, alignCorners: g.alignCorners };
  const y = await timed(times, `${tag}gridSample (${g.mode}, ${g.paddingMode})`, () =>
    state.sampler.gridSample(x, grid, { mode: g.mode, paddingMode: g.paddingMode, alignCorners: g.alignCorners }));
  return timed(times, `${tag}tensorToImageData`, () => state.sampler.tensorToImageData(y, { premultiply: s.premultiply }));
}

function runOp(s, times, tag) {
  return s.op === 'resize' ? runResize(s, times, tag) : runGridSample(s, times, tag);
}

// |A - B| * amplify per channel, opaque; with statistics over the four channels.
function difference(a, b, amplify) {
  const out = new ImageData(a.width, a.height);
  const d = out.data, pa = a.data, pb = b.data;
  let max = 0, sum = 0, differing = 0;
  for (let j = 0; j < pa.length; j += 4) {
    let any = false;
    for (let c = 0; c < 4; c++) {
      const e = Math.abs(pa[j + c] - pb[j + c]);
      if (e > max) max = e;
      sum += e;
      if (e) any = true;
      if (c < 3) d[j + c] = e * amplify;
    }
    if (pa[j + 3] !== pb[j + 3]) d[j] = d[j + 1] = d[j + 2] = Math.max(d[j], Math.abs(pa[j + 3] - pb[j + 3]) * amplify);
    d[j + 3] = 255;
    if (any) differing++;
  }
  return { image: out, max, mean: sum / pa.length, differing: differing / (pa.length / 4) };
}

// ------------------------------------------------------------------ running

function schedule() {
  if (!state.sampler || !state.input) return;
  setStatus('pending');
  if (!state.timer) state.timer = setTimeout(run, 0);
}

async function run() {
  state.timer = 0;
  if (state.running) { state.again = true; return; }  // after the run in progress
  state.running = true;
  const s = readSettings();
  const times = [];
  times.spans = [];
  try {
    setStatus('running');
    await useSampler($('in-worker').checked);
    state.outA = await runOp(s, times, s.compare ? 'A: ' : '');
    state.outB = null;
    state.diff = null;
    if (s.compare) {
      const v = variantOf(s);
      state.outB = await runOp(v, times, 'B: ');
      if (state.outB.width === state.outA.width && state.outB.height === state.outA.height)
        state.diff = difference(state.outA, state.outB, s.amplify);
    }
    showOutput(s);
    showTimes(times);
    state.runs++;
    body.dataset.runs = String(state.runs);
    const total = times.reduce((a, [, ms]) => a + ms, 0);
    const o = state.outA;
    setStatus('done', `${s.op === 'resize' ? 'Resize' : 'GridSample'}: ${state.input.width} × ${state.input.height} → ${o.width} × ${o.height} in ${total.toFixed(1)} ms`);
    window.__demo.last = { settings: s, times, spans: times.spans, inWorker: state.sampler === state.workerSampler, width: o.width, height: o.height, diff: state.diff && { max: state.diff.max, mean: state.diff.mean, differing: state.diff.differing } };
  } catch (e) {
    console.warn(e);
    state.runs++;
    body.dataset.runs = String(state.runs);
    setStatus('error', `${e.name}: ${e.message}`);
    window.__demo.last = { settings: s, error: `${e.name}: ${e.message}` };
  }
  state.running = false;
  if (state.again) {
    state.again = false;
    schedule();
  }
  flushSettled();
}

function flushSettled() {
  if (state.timer || state.running) return;
  const waiters = state.settledWaiters.splice(0);
  for (const w of waiters) w(window.__demo.last);
}

// ------------------------------------------------------------------ drawing

function putImage(canvas, img) {
  canvas.width = img.width;
  canvas.height = img.height;
  canvas.getContext('2d').putImageData(img, 0, 0);
}

function showInput() {
  const img = state.input;
  putImage($('in-canvas'), img);
  $('in-size').textContent = `${img.width} × ${img.height}`;
  $('in-canvas').setAttribute('aria-label', `Input image ${state.inputName}, ${img.width} by ${img.height} pixels`);
  $('out-width').max = $('out-height').max = 8192;
}

function showOutput(s) {
  const o = state.outA;
  putImage($('out-canvas'), o);
  const label = s.op === 'resize'
    ? `Resize ${s.resize.mode}, ${s.resize.coordinateTransformationMode}`
    : `GridSample ${s.grid.mode}, ${s.grid.paddingMode}`;
  $('out-label').textContent = `(${label})`;
  $('out-size').textContent = `${o.width} × ${o.height}`;
  $('out-canvas').setAttribute('aria-label', `Output image of ${label}, ${o.width} by ${o.height} pixels`);
  const hasDiff = !!state.diff;
  $('diff-figure').hidden = !hasDiff;
  $('loupe-diff-figure').hidden = !hasDiff;
  if (hasDiff) {
    putImage($('diff-canvas'), state.diff.image);
    $('diff-label').textContent = `(${describeVariant(s)}, × ${s.amplify})`;
    $('diff-stats').textContent = `max ${state.diff.max}, mean ${state.diff.mean.toFixed(2)}, ${(100 * state.diff.differing).toFixed(1)} % of pixels differ`;
  } else if (s.compare) {
    $('diff-stats').textContent = '';
  }
  drawLoupes();
}

function showTimes(times) {
  const tbody = $('timings');
  tbody.replaceChildren(...times.map(([label, ms, { first, runs }]) => {
    const tr = document.createElement('tr');
    const a = document.createElement('td');
    const code = document.createElement('code');
    code.textContent = label;
    a.append(code);
    const b = document.createElement('td');
    b.className = 'num';
    b.textContent = ms.toFixed(2);
    b.title = runs ? `median of ${runs} warm repeats` : 'one call (too slow to repeat)';
    const c = document.createElement('td');
    c.className = 'num dim';
    c.textContent = first.toFixed(2);
    tr.append(a, b, c);
    return tr;
  }));
  const [label, ms] = state.firstCall;
  $('timing-first').textContent = `The page's first call, ${label}, took ${ms.toFixed(1)} ms: cold (compiling, growing wasm memory). Warm figures are the median of up to ${WARM_RUNS} repeats.`;
}

// ------------------------------------------------------------------ loupe

// centre: [x, y] pixel to show, else the loupe position's pixel in img
function loupeView(canvas, src, img, label, textEl, centre) {
  const zoom = Number($('loupe-zoom').value);
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!img) { textEl.textContent = label; return; }
  const n = Math.max(1, Math.floor(canvas.width / zoom)) | 1; // odd window, centre pixel
  const [cx, cy] = centre || pixelAt(img);
  const r = (n - 1) / 2;
  const cell = canvas.width / n;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(src, cx - r, cy - r, n, n, 0, 0, canvas.width, canvas.height);
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#000';
  ctx.strokeRect(r * cell, r * cell, cell, cell);
  ctx.strokeStyle = '#fff';
  ctx.strokeRect(r * cell - 2, r * cell - 2, cell + 4, cell + 4);
  const i = 4 * (cy * img.width + cx), d = img.data;
  textEl.textContent = `${label} (${cx}, ${cy}) rgba ${d[i]} ${d[i + 1]} ${d[i + 2]} ${d[i + 3]}`;
}

function pixelAt(img) {
  return [Math.min(img.width - 1, Math.floor(state.pos.fx * img.width)), Math.min(img.height - 1, Math.floor(state.pos.fy * img.height))];
}

// GridSample: the input pixel nearest to where the output pixel under the loupe samples
// (clamped to the image; padding may fetch it from elsewhere).
function sampledInputPixel() {
  const g = state.grid;
  if (!g || !state.outA || !state.input) return null;
  const [ox, oy] = pixelAt(state.outA);
  const k = 2 * (oy * g.W + ox);
  const toPixel = (v, n) => (g.alignCorners ? ((v + 1) / 2) * (n - 1) : ((v + 1) * n - 1) / 2);
  const ix = Math.round(toPixel(g.data[k], state.input.width)), iy = Math.round(toPixel(g.data[k + 1], state.input.height));
  if (!Number.isFinite(ix) || !Number.isFinite(iy)) return null;
  return [Math.min(Math.max(ix, 0), state.input.width - 1), Math.min(Math.max(iy, 0), state.input.height - 1)];
}

function drawLoupes() {
  const sampled = sampledInputPixel();
  loupeView($('loupe-in'), $('in-canvas'), state.input, sampled ? 'input, sampled at' : 'input', $('loupe-in-text'), sampled);
  loupeView($('loupe-out'), $('out-canvas'), state.outA, 'output', $('loupe-out-text'));
  if (state.diff) loupeView($('loupe-diff'), $('diff-canvas'), state.diff.image, 'diff', $('loupe-diff-text'));
}

function setPosition(fx, fy) {
  state.pos.fx = Math.min(Math.max(fx, 0), 0.999999);
  state.pos.fy = Math.min(Math.max(fy, 0), 0.999999);
  drawLoupes();
}

function imageOf(canvas) {
  return canvas.id === 'in-canvas' ? state.input : canvas.id === 'out-canvas' ? state.outA : state.diff && state.diff.image;
}

for (const id of ['in-canvas', 'out-canvas', 'diff-canvas']) {
  const canvas = $(id);
  canvas.addEventListener('pointermove', (e) => {
    const rect = canvas.getBoundingClientRect();
    setPosition((e.clientX - rect.left) / rect.width, (e.clientY - rect.top) / rect.height);
  });
  canvas.addEventListener('keydown', (e) => {
    const img = imageOf(canvas);
    if (!img) return;
    const step = e.shiftKey ? 10 : 1;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    const x = Math.floor(state.pos.fx * img.width) + m[0];
    const y = Math.floor(state.pos.fy * img.height) + m[1];
    setPosition((x + 0.5) / img.width, (y + 0.5) / img.height);
  });
}

// ------------------------------------------------------------------ loading images

async function loadFromBlob(blob, name) {
  setStatus('pending', `Decoding ${name}…`);
  const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  try {
    // The library reads ImageBitmaps itself (it draws them to an OffscreenCanvas).
    const t = await state.sampler.imageToTensor(bitmap, { layout: 'nhwc', type: 'uint8', channels: 4 });
    let img = await state.sampler.tensorToImageData(t, { layout: 'nhwc' });
    const big = Math.max(img.width, img.height);
    let note = '';
    if (big > MAX_INPUT_SIDE) {
      const k = MAX_INPUT_SIDE / big;
      note = ` (shrunk from ${img.width} × ${img.height} with resizeImage)`;
      img = await state.sampler.resizeImage(img, { width: Math.max(1, Math.round(img.width * k)), height: Math.max(1, Math.round(img.height * k)) });
    }
    setInput(img, name, note);
  } finally {
    bitmap.close();
  }
}

function setInput(img, name, note = '') {
  state.input = img;
  state.inputName = name;
  $('image-info').textContent = `${name}: ${img.width} × ${img.height}${note}`;
  if ($('keep-aspect').checked) {
    $('out-height').value = Math.max(1, Math.round(Number($('out-width').value) * img.height / img.width));
  }
  showInput();
  schedule();
}

async function loadSample() {
  const res = await fetch(new URL('sample.png', import.meta.url));
  if (!res.ok) throw new Error(`sample.png: HTTP ${res.status}`);
  await loadFromBlob(await res.blob(), 'sample.png');
}

function reportLoadError(e) {
  console.warn(e);
  setStatus('error', `Could not load the image: ${e.message}`);
  flushSettled();
}

$('file').addEventListener('change', () => {
  const f = $('file').files[0];
  if (f) loadFromBlob(f, f.name).catch(reportLoadError);
});
$('use-sample').addEventListener('click', () => loadSample().catch(reportLoadError));

let dragDepth = 0;
window.addEventListener('dragenter', (e) => { if (e.dataTransfer?.types.includes('Files')) { dragDepth++; body.classList.add('dragging'); } });
window.addEventListener('dragleave', () => { if (dragDepth > 0 && --dragDepth === 0) body.classList.remove('dragging'); });
window.addEventListener('dragover', (e) => { if (e.dataTransfer?.types.includes('Files')) e.preventDefault(); });
window.addEventListener('drop', (e) => {
  dragDepth = 0;
  body.classList.remove('dragging');
  const f = [...(e.dataTransfer?.files || [])].find((file) => file.type.startsWith('image/'));
  if (!f) return;
  e.preventDefault();
  loadFromBlob(f, f.name).catch(reportLoadError);
});

// ------------------------------------------------------------------ controls

function syncControls() {
  const grid = $('op-grid').checked;
  $('resize-controls').hidden = grid;
  $('grid-controls').hidden = !grid;
  $('linear-light').disabled = grid;
  const bySize = $('size-by-size').checked;
  $('size-fields').hidden = !bySize;
  $('scale-field').hidden = bySize;
  $('cubic-a').disabled = $('resize-mode').value !== 'cubic';
  $('strength').disabled = $('distortion').value === 'none';
  $('compare-with').disabled = $('amplify').disabled = !$('compare').checked;
  $('views').classList.toggle('fit', $('fit').checked);
  for (const out of document.querySelectorAll('output[for]')) out.textContent = $(out.htmlFor.value).value;
}

const form = $('controls');
form.addEventListener('submit', (e) => e.preventDefault());
form.addEventListener('input', (e) => {
  const id = e.target.id;
  if (state.input && $('keep-aspect').checked && (id === 'out-width' || id === 'out-height')) {
    const { width: W, height: H } = state.input;
    const v = Number(e.target.value);
    if (v >= 1) {
      if (id === 'out-width') $('out-height').value = Math.max(1, Math.round(v * H / W));
      else $('out-width').value = Math.max(1, Math.round(v * W / H));
    }
  }
  syncControls();
  if (id === 'fit') return;
  if (id === 'loupe-zoom') { drawLoupes(); return; }
  if (id === 'in-worker') showWhere();
  if (id !== 'file') schedule();
});
form.addEventListener('change', (e) => {
  // selects and checkboxes also fire 'input'; radio groups in older engines only 'change'
  if (e.target.type === 'radio') { syncControls(); schedule(); }
});
$('reset-warp').addEventListener('click', () => {
  for (const [id, v] of [['rotation', 0], ['zoom', 1], ['shear', 0], ['strength', 0.5]]) $(id).value = v;
  $('distortion').value = 'none';
  syncControls();
  schedule();
});

// ------------------------------------------------------------------ where it runs

// The sampler for the next run: the worker's, or (made on first use) a synchronous one on
// this thread.
async function useSampler(inWorker) {
  if (!inWorker && !state.syncSampler) state.syncSampler = await createSampler();
  state.sampler = inWorker ? state.workerSampler : state.syncSampler;
}

function showWhere() {
  const n = state.workerSampler.threads;
  const isolated = globalThis.crossOriginIsolated === true;
  $('threads-info').textContent = $('in-worker').checked
    ? `In a worker, on ${n} thread${n === 1 ? '' : 's'}${isolated ? '' : ' (this page is not cross-origin isolated: one thread)'}.`
    : 'On the main thread, one thread: the page is busy during each call.';
  body.dataset.threads = String(n);
}

// ------------------------------------------------------------------ start

window.__demo = {
  runs: () => state.runs,
  last: null,
  /** Resolves (with __demo.last) once no run is pending. */
  settled() {
    const st = body.dataset.status;
    if (!state.timer && !state.running && (st === 'done' || st === 'error')) return Promise.resolve(window.__demo.last);
    return new Promise((resolve) => state.settledWaiters.push(resolve));
  },
  /** Runs now with the current settings; resolves with __demo.last once settled. */
  run() {
    clearTimeout(state.timer);
    state.timer = 0;
    run();
    return window.__demo.settled();
  },
  setPosition,
  loadBlob: (blob, name) => loadFromBlob(blob, name || 'image'),
};

syncControls();
window.__demo.ready = (async () => {
  try {
    // As many threads as cores, where the page may use them (cross-origin isolated: npm start
    // serves it so); elsewhere the worker's sampler has one.
    const cores = Math.min(navigator.hardwareConcurrency || 1, 16);
    state.sampler = state.workerSampler = await createSampler({ worker: true, threads: cores });
    showWhere();
  } catch (e) {
    setStatus('error', `Could not load the WebAssembly module: ${e.message}`);
    flushSettled();
    throw e;
  }
  setStatus('pending', 'Loading the sample image…');
  try {
    await loadSample();
  } catch (e) {
    reportLoadError(e);
  }
})();
