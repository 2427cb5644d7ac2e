#!/usr/bin/env node
// bench/matrix.mjs: the layouts x types x modes table of issue 17, ours beside native code.
//
//   node bench/matrix.mjs [--runs N] [--only substring] [--out FILE] [--no-native]
//   npm run bench:matrix
//
// Ours: the built package (dist/index.mjs, or OSW_DIST), one thread, tensors in wasm memory
// (resizeInto / gridSampleInto: the kernels, no copies). Native: OpenCV, PyTorch and Pillow
// from Debian (python3-opencv, python3-torch, python3-pil) run by /usr/bin/python3
// bench/native_peers.py on one thread each (cv2.setNumThreads(1), torch.set_num_threads(1)),
// in the same rounds: each round runs every job once for us and once for every native peer,
// in turn, and the medians are compared. A peer that is not installed, or that has no such
// job (PyTorch has no uint8 antialias in 1.13, Pillow only images), is listed as missing
// with the reason; nothing fails for it. Peers are labelled `same` (the same arithmetic up to
// rounding) or `similar` (another filter or rounding: OpenCV INTER_AREA for antialias,
// uint8 rounding, Pillow's filters), as bench/run.mjs labels its peers. Nothing here asserts
// a timing. Results: the table, issue 17's targets met or missed in this run
// (bench/matrix-targets.mjs), and bench/results/matrix.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTargets, matrixTargets } from './matrix-targets.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

function parseArgs(argv) {
  const a = { runs: 11, only: null, out: join(here, 'results', 'matrix.json'), native: true };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    if (f === '--runs') a.runs = Math.max(1, parseInt(argv[++i], 10) || 1);
    else if (f === '--only') a.only = argv[++i];
    else if (f === '--out') a.out = argv[++i];
    else if (f === '--no-native') a.native = false;
    else if (f === '--help') { console.log('node bench/matrix.mjs [--runs N] [--only substring] [--out FILE] [--no-native]'); process.exit(0); }
    else { console.error(`matrix: unknown flag ${f}`); process.exit(2); }
  }
  return a;
}

// The jobs: issue 17's table, then the grid of layouts x types x modes x scales it asks for.
function jobs() {
  const J = [];
  const resize = (name, type, layout, inS, outS, mode, antialias = false) =>
    J.push({ name, op: 'resize', type, layout, in: inS, out: outS, mode, antialias });
  const nchw = (c, h, w) => [1, c, h, w], nhwc = (c, h, w) => [1, h, w, c];
  for (const mode of ['linear', 'cubic', 'nearest']) {
    for (const [tag, f] of [['up 2x', 2], ['down 2x', 0.5], ['up 1.5x', 1.5], ['down 4x', 0.25]]) {
      const h = f >= 1 ? 512 : 1024, o = Math.round(h * f);
      for (const c of [1, 3, 4]) {
        resize(`f32 NCHW C=${c} ${mode} ${tag}`, 'float32', 'NCHW', nchw(c, h, h), nchw(c, o, o), mode);
        resize(`f32 NHWC C=${c} ${mode} ${tag}`, 'float32', 'NHWC', nhwc(c, h, h), nhwc(c, o, o), mode);
      }
    }
  }
  for (const type of ['float16', 'bfloat16', 'float64', 'int32', 'uint8', 'int8', 'uint16'])
    for (const mode of ['linear', 'cubic'])
      resize(`${type} NCHW C=3 ${mode} up 2x`, type, 'NCHW', nchw(3, 512, 512), nchw(3, 1024, 1024), mode);
  for (const [c, tag] of [[4, 'RGBA'], [3, 'RGB']])
    for (const [o, tag2] of [[[540, 960], '2x'], [[360, 640], '3x'], [[270, 480], '4x'], [[432, 768], '2.5x']])
      for (const mode of ['linear', 'cubic'])
        resize(`uint8 ${tag} 1080p ${mode} antialias down ${tag2}`, 'uint8', 'NHWC', nhwc(c, 1080, 1920), nhwc(c, o[0], o[1]), mode, true);
  // the float32 NCHW time of the same images (issue 17: uint8 antialias at most 1.5x it)
  for (const c of [3, 4])
    for (const mode of ['linear', 'cubic'])
      resize(`f32 NCHW C=${c} 1080p ${mode} antialias down 2x`, 'float32', 'NCHW', nchw(c, 1080, 1920), nchw(c, 540, 960), mode, true);
  // planar uint8 (no interleaved channels for the integer form): beside the float32 row above
  for (const mode of ['linear', 'cubic'])
    resize(`uint8 NCHW C=3 1080p ${mode} antialias down 2x`, 'uint8', 'NCHW', nchw(3, 1080, 1920), nchw(3, 540, 960), mode, true);
  // compat 'pillow' / 'opencv' (issue 18): the library's own call, timed beside it (same),
  // and beside the library's own path for the same work (ownOf: the `own` column).
  for (const [c, tag] of [[4, 'RGBA'], [3, 'RGB']]) {
    for (const [o, tag2] of [[[540, 960], '2x'], [[432, 768], '2.5x']])
      for (const mode of ['linear', 'cubic', 'lanczos'])
        J.push({ name: `compat pillow uint8 ${tag} 1080p ${mode} down ${tag2}`, op: 'compat', lib: 'pillow', type: 'uint8', in: nhwc(c, 1080, 1920), out: nhwc(c, o[0], o[1]), mode });
    for (const [i, o, mode, tag2] of [[540, 1080, 'linear', 'up 2x'], [540, 1080, 'cubic', 'up 2x'], [720, 1080, 'linear', 'up 1.5x'], [540, 1080, 'nearest', 'up 2x']])
      J.push({ name: `compat pillow uint8 ${tag} ${mode} ${tag2}`, op: 'compat', lib: 'pillow', type: 'uint8', in: nhwc(c, i, i * 16 / 9), out: nhwc(c, o, o * 16 / 9), mode });
    // Pillow premultiplies RGBA, which the own path does not: the random alpha above is its
    // worst case; an opaque image (most photos) skips it
    if (c === 4)
      for (const [i, o, tag2] of [[540, 1080, 'up 2x'], [1080, 540, 'down 2x']])
        J.push({ name: `compat pillow uint8 RGBA opaque linear ${tag2}`, op: 'compat', lib: 'pillow', type: 'uint8', in: nhwc(c, i, i * 16 / 9), out: nhwc(c, o, o * 16 / 9), mode: 'linear', opaque: true });
    for (const [i, o, mode, tag2] of [[540, 1080, 'linear', 'up 2x'], [720, 1080, 'linear', 'up 1.5x'], [720, 1080, 'cubic', 'up 1.5x'], [540, 1080, 'nearest', 'up 2x'],
      [1080, 540, 'area', 'down 2x'], [1080, 360, 'area', 'down 3x'], [1080, 432, 'linear', 'down 2.5x'], [1080, 540, 'nearest', 'down 2x']])
      J.push({ name: `compat opencv uint8 ${tag} ${mode} ${tag2}`, op: 'compat', lib: 'opencv', type: 'uint8', in: nhwc(c, i, i * 16 / 9), out: nhwc(c, o, o * 16 / 9), mode });
  }
  J.push({ name: 'compat opencv f32 RGB linear up 2x', op: 'compat', lib: 'opencv', type: 'float32', in: nhwc(3, 540, 960), out: nhwc(3, 1080, 1920), mode: 'linear' });
  J.push({ name: 'compat pillow f32 C=1 cubic down 2.5x', op: 'compat', lib: 'pillow', type: 'float32', in: nhwc(1, 1080, 1920), out: nhwc(1, 432, 768), mode: 'cubic' });
  for (const mode of ['nearest', 'linear', 'cubic'])
    for (const padding of ['zeros', 'border'])
      J.push({ name: `GridSample f32 C=32 256² ${mode} ${padding}`, op: 'grid', type: 'float32', x: [1, 32, 256, 256], grid: [1, 256, 256, 2], mode, padding });
  return J;
}

function fill(t) {
  const d = t.data;
  let s = 1;
  for (let i = 0; i < d.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    const u = s >>> 8;
    if (t.type === 'float16' || t.type === 'bfloat16') d[i] = (t.type === 'float16' ? 0x3800 : 0x3f00) + (u & 0xff);
    else if (t.type === 'uint8') d[i] = u & 0xff;
    else if (t.type === 'int8') d[i] = (u & 0xff) - 128;
    else if (t.type === 'uint16') d[i] = u & 0xffff;
    else if (t.type === 'int32') d[i] = (u & 0xfffff) - 0x80000;
    else d[i] = u / 16777216;
  }
}

function grid(h, w) {
  const g = new Float32Array(h * w * 2), a = Math.PI / 6, c = Math.cos(a), s = Math.sin(a);
  for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) {
    const bx = (2 * j + 1 - w) / w, by = (2 * i + 1 - h) / h;
    g[(i * w + j) * 2] = c * bx - s * by;
    g[(i * w + j) * 2 + 1] = s * bx + c * by;
  }
  return g;
}

// The library's own Resize for a compat job's work: the same mode, with antialias where the
// compat library filters when it shrinks (Pillow always; OpenCV's INTER_AREA); Pillow's
// Lanczos and OpenCV's INTER_AREA have no own filter of their kind, so cubic and linear stand
// in (labelled `similar`).
function ownOf(job) {
  const down = job.out[1] < job.in[1];
  const mode = job.mode === 'lanczos' ? 'cubic' : job.mode === 'area' ? 'linear' : job.mode;
  const antialias = down && (job.lib === 'pillow' || job.mode === 'area') && mode !== 'nearest';
  const similar = job.mode === 'lanczos' || job.mode === 'area';
  return { mode, antialias, label: `own ${mode}${antialias ? ' antialias' : ''}${similar ? ', similar' : ''}` };
}

function ourCase(S, job) {
  if (job.op === 'compat') {
    // tensors in wasm memory, as the rows above: the compat module runs in that memory
    const x = S.tensor(job.type, job.in), y = S.tensor(job.type, job.out);
    fill(x);
    if (job.opaque) { const d = x.data; for (let i = 3; i < d.length; i += 4) d[i] = 255; }
    const sizes = [job.out[1], job.out[2]], own = ownOf(job);
    const o = { mode: job.mode, axes: [1, 2], sizes, compat: job.lib };
    const oo = { mode: own.mode, axes: [1, 2], sizes, antialias: own.antialias, coordinateTransformationMode: 'half_pixel' };
    return {
      run: () => S.resizeInto(x, y, o), own: () => S.resizeInto(x, y, oo), ownLabel: own.label,
      dispose: () => { x.dispose(); y.dispose(); },
    };
  }
  if (job.op === 'resize') {
    const x = S.tensor(job.type, job.in);
    fill(x);
    const y = S.tensor(job.type, job.out);
    const axes = job.layout === 'NHWC' ? [1, 2] : [2, 3];
    const o = { mode: job.mode, axes, sizes: axes.map((a) => job.out[a]), coordinateTransformationMode: 'half_pixel' };
    if (job.antialias) o.antialias = true;
    return { run: () => S.resizeInto(x, y, o), dispose: () => { x.dispose(); y.dispose(); } };
  }
  const x = S.tensor(job.type, job.x);
  fill(x);
  const g = S.tensor('float32', job.grid);
  g.data.set(grid(job.grid[1], job.grid[2]));
  const y = S.tensor(job.type, [job.x[0], job.x[1], job.grid[1], job.grid[2]]);
  const o = { mode: job.mode, paddingMode: job.padding };
  return { run: () => S.gridSampleInto(x, g, y, o), dispose: () => { x.dispose(); g.dispose(); y.dispose(); } };
}

// The Python side: one process for the whole run, one JSON line each way.
function startNative() {
  const py = '/usr/bin/python3';
  if (!existsSync(py)) return null;
  const p = spawn(py, [join(here, 'native_peers.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: p.stdout });
  const waiting = [];
  lines.on('line', (l) => { const w = waiting.shift(); if (w) w(JSON.parse(l)); });
  let dead = null;
  p.on('exit', (code) => { dead = new Error(`native_peers.py exited with ${code}`); for (const w of waiting.splice(0)) w({ error: dead.message }); });
  return {
    ask: (msg) => new Promise((resolve) => { if (dead) { resolve({ error: dead.message }); return; } waiting.push(resolve); p.stdin.write(JSON.stringify(msg) + '\n'); }),
    close: () => { try { p.stdin.write('{"cmd": "quit"}\n'); p.stdin.end(); } catch { /* gone */ } },
  };
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN; };
const fmt = (ms) => (Number.isFinite(ms) ? (ms >= 10 ? ms.toFixed(1) : ms.toFixed(2)) : '-');

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const distFile = process.env.OSW_DIST || join(root, 'dist', 'index.mjs');
  if (!existsSync(distFile)) { console.error(`matrix: ${distFile} does not exist; npm run build first (or set OSW_DIST)`); process.exit(1); }
  const mod = await import(pathToFileURL(distFile).href);
  const S = await mod.createSampler({ maxBytes: 2 ** 31 });
  const native = args.native ? startNative() : null;
  const hello = native ? await native.ask({ cmd: 'hello' }) : { libs: {}, missing: { all: args.native ? '/usr/bin/python3 not found' : '--no-native' } };
  console.log(`onnx-sampling-wasm matrix: ${os.cpus()[0].model} x${os.cpus().length}, node ${process.version}, ${args.runs} rounds, one thread everywhere`);
  console.log(`native: ${Object.entries(hello.libs || {}).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  for (const [k, why] of Object.entries(hello.missing || {})) console.log(`  missing ${k}: ${why}`);

  const list = jobs().filter((j) => !args.only || j.name.includes(args.only));
  const rows = [];
  for (const [k, job] of list.entries()) {
    const ours = ourCase(S, job);
    ours.run();
    if (ours.own) ours.own();
    const prep = native ? await native.ask({ cmd: 'prepare', id: k, job }) : { peers: [], skipped: [] };
    rows.push({ job, ours, peers: (prep.peers || []).map((p) => ({ ...p, t: [] })), skipped: prep.skipped || [], t: [], tOwn: [] });
  }
  // V8 runs a wasm function in its baseline tier until its optimized code is ready, which for
  // osw-compat.wasm's one large entry takes tens of calls: the compat jobs warm up first (the
  // first calls of a program pay it; the README says so).
  const compatRows = rows.filter((row) => row.ours.own);
  for (let w = 0; w < 40 && compatRows.length; w += compatRows.length) for (const row of compatRows) row.ours.run();
  for (let r = 0; r < args.runs; r++) {
    for (const [k, row] of rows.entries()) {
      // Alternate who goes first, round by round.
      const order = [-1, ...row.peers.map((_, i) => i)];
      if (r % 2) order.reverse();
      for (const i of order) {
        if (i < 0) {
          let t0 = performance.now();
          row.ours.run();
          row.t.push(performance.now() - t0);
          if (row.ours.own) {
            t0 = performance.now();
            row.ours.own();
            row.tOwn.push(performance.now() - t0);
          }
        }
        else { const a = await native.ask({ cmd: "time", id: k, peer: i }); if (Number.isFinite(a.ms)) row.peers[i].t.push(a.ms); }
      }
    }
  }
  if (native) native.close();

  const out = [];
  console.log(`\n${'job'.padEnd(50)} ${'ours ms'.padStart(8)}  native (median ms, ours/native)`);
  for (const row of rows) {
    const m = median(row.t);
    const peers = row.peers.map((p) => ({ lib: p.lib, label: p.label, job: p.job, ms: median(p.t), ratio: m / median(p.t) }));
    const own = row.ours.own ? { label: row.ours.ownLabel, ms: median(row.tOwn), ratio: m / median(row.tOwn) } : undefined;
    console.log(`${row.job.name.padEnd(50)} ${fmt(m).padStart(8)}  ` +
      (own ? `[${own.label} ${fmt(own.ms)}: ${own.ratio.toFixed(2)}x] ` : '') +
      (peers.map((p) => `${p.lib} ${fmt(p.ms)} (${p.ratio.toFixed(2)}x${p.job === 'same' ? '' : ', similar'})`).join('; ') || '-') +
      (row.skipped.length ? `  [no ${row.skipped.map(([l]) => l).join(', ')}]` : ''));
    out.push({ job: row.job, ours: { ms: m, runs: row.t.length }, own, peers, skipped: row.skipped });
    row.ours.dispose();
  }
  // Issue 17's targets, from this run's medians (bench/matrix-targets.mjs).
  const targets = matrixTargets(out);
  console.log(`\nissue 17 targets (ratios of this run's medians; they move with the machine's noise):`);
  for (const l of formatTargets(targets)) console.log(l);
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, JSON.stringify({ date: new Date().toISOString(), machine: { cpu: os.cpus()[0].model, cores: os.cpus().length, node: process.version }, native: hello, rows: out, targets }, null, 1));
  console.log(`\nwrote ${args.out}`);
  S.dispose();
}

main().catch((e) => { console.error(e); process.exit(1); });
