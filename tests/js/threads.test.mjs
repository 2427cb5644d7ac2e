// threads.test.mjs: createSampler({ threads }) in Node (issue 16).
//
// - Determinism: the same random cases (seeded; a failure prints the case) run by a sampler
//   with 1 thread (the single-threaded build, osw.wasm) and by samplers with 2, 3 and 4 threads
//   (the threaded build, osw-mt.wasm) give the same bytes, or the same error: Resize (ranks 1-5,
//   every mode, coordinate and nearest mode, cubic_coeff_a, exclude_outside, antialias, crop
//   boxes with extrapolation, axes, sizes with keep_aspect_ratio_policy, compat, 9 X types),
//   GridSample (1-D, 2-D and 3-D, every mode, padding and align_corners, 5 X types, both grid
//   types) and AffineGrid (2-D and 3-D, both align_corners). The sizes pass the core's work
//   thresholds (parallel.h: Resize (input + output elements) x (1 nearest, 4 otherwise) >= 2^18,
//   GridSample output elements >= 2^13, AffineGrid locations >= 2^15), so the pool runs them.
// - Memory growth: calls that grow the shared memory, and memory grown behind this thread's
//   back (as a pool thread grows it), then views made after it.
// - Two Node worker_threads at once, each with its own threaded sampler, against the
//   single-thread results of the main thread.
// - Options: threads' checks and messages, "did you mean", sampler.threads, the default.
// - Files: a missing osw-mt.wasm, and a pool worker that cannot start (its script missing),
//   are one clear rejection each (not an uncaught exception, not a wait forever).
// - The pool: dispose() ends its workers; a script that used a threaded sampler (CommonJS and
//   ES module, disposed or not) exits by itself with code 0; a dropped sampler's workers end
//   when it is garbage collected.
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs);
// OSW_THREADS_SEED (the master seed), OSW_THREADS_CASES (cases per family).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { importPackage, packageEntry } from './package.mjs';
import { mulberry32 } from './rng.mjs';

const { createSampler } = await importPackage();
const ENTRY = packageEntry();
const MASTER_SEED = process.env.OSW_THREADS_SEED ? Number(process.env.OSW_THREADS_SEED) : 160016;
const CASES = process.env.OSW_THREADS_CASES ? Number(process.env.OSW_THREADS_CASES) : 40;
const THREADS = [2, 3, 4];

// ---------------------------------------------------------------- random cases

function prng(seed) {
  const next = mulberry32(seed);
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (a) => a[Math.floor(next() * a.length)],
    chance: (p) => next() < p,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
  };
}
function caseSeed(family, i) {
  let h = (MASTER_SEED ^ 0x9e3779b9) >>> 0;
  for (const ch of `${family}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}
const prod = (d) => d.reduce((a, b) => a * b, 1);
// p, or a rejection naming what did not settle within ms
const within = (p, ms, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(`${what}: not within ${ms} ms`)), ms).unref())]);

// Random data of a type, from the case's generator (NaN and infinities in float types now and then).
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array, uint8: Uint8Array,
  int8: Int8Array, uint16: Uint16Array, int16: Int16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array,
};
function randomTensor(rng, type, dims) {
  const n = prod(dims);
  const a = new ARRAYS[type](n);
  if (type === 'float32' || type === 'float64') {
    for (let i = 0; i < n; i++) a[i] = rng.uniform(-100, 100);
    if (n && rng.chance(0.3)) a[rng.int(0, n - 1)] = rng.pick([NaN, Infinity, -Infinity]);
  } else if (type === 'float16' || type === 'bfloat16') {
    // finite halves (exponent below 31) / bfloat16 of moderate magnitude
    for (let i = 0; i < n; i++) a[i] = type === 'float16' ? (rng.int(0, 0x7bff) | (rng.chance(0.5) ? 0x8000 : 0)) : (0x3c00 + rng.int(0, 0x0fff)) | (rng.chance(0.5) ? 0x8000 : 0);
  } else if (type === 'int64') {
    for (let i = 0; i < n; i++) a[i] = BigInt(rng.int(-1e9, 1e9));
  } else {
    const lo = { uint8: 0, int8: -128, uint16: 0, int16: -32768, int32: -2e9, uint32: 0 }[type];
    const hi = { uint8: 255, int8: 127, uint16: 65535, int16: 32767, int32: 2e9, uint32: 4e9 }[type];
    for (let i = 0; i < n; i++) a[i] = rng.int(lo, hi);
  }
  return { type, dims, data: a };
}

const RESIZE_TYPES = ['float32', 'float32', 'float32', 'uint8', 'uint8', 'float64', 'float16', 'int8', 'int32', 'int64', 'uint16', 'bfloat16'];
const COORDS = ['half_pixel', 'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_crop_and_resize'];
const NEAREST = ['round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil'];

// Inputs and outputs up to 400k elements: past the work threshold, still quick.
function genResize(rng) {
  for (;;) {
    const rank = rng.int(1, 5);
    const mode = rng.pick(['nearest', 'linear', 'cubic']);
    const type = rng.pick(RESIZE_TYPES);
    const dims = [];
    // the per-axis lengths: larger for low ranks
    const maxLen = [0, 200000, 600, 80, 30, 16][rank];
    for (let a = 0; a < rank; a++) dims.push(rng.int(1, maxLen));
    const o = { mode };
    if (rng.chance(0.9)) o.coordinateTransformationMode = rng.pick(COORDS);
    if (mode === 'nearest' && rng.chance(0.9)) o.nearestMode = rng.pick(NEAREST);
    if (mode === 'cubic' && rng.chance(0.6)) o.cubicCoeffA = rng.pick([-0.75, -0.5]);
    if (mode !== 'nearest' && rng.chance(0.3)) o.excludeOutside = true;
    if (mode !== 'nearest' && rng.chance(0.3)) o.antialias = true;
    if (rng.chance(0.2)) o.compat = rng.pick(['onnx', 'onnxruntime', 'pytorch']);
    let listed = [...Array(rank).keys()];
    if (rank > 1 && rng.chance(0.3)) {
      listed = listed.filter(() => rng.chance(0.6));
      if (listed.length === 0) listed = [rank - 1];
      o.axes = listed;
    }
    const scales = listed.map(() => Math.fround(rng.pick([0.3, 0.5, 0.6, 0.75, 0.9, 1, 1.25, 1.5, 2, 2.5, 3])));
    let out = dims.slice();
    listed.forEach((a, i) => { out[a] = Math.floor(dims[a] * scales[i]); });
    if (rng.chance(0.35)) {
      o.sizes = listed.map((a) => Math.max(1, out[a]));
      if (rng.chance(0.4)) o.keepAspectRatioPolicy = rng.pick(['not_larger', 'not_smaller']);
      listed.forEach((a, i) => { out[a] = o.sizes[i]; });
      if (o.keepAspectRatioPolicy) out = out.map((v) => v * 2);  // at most this much larger
    } else {
      o.scales = scales;
    }
    if (o.coordinateTransformationMode === 'tf_crop_and_resize') {
      const starts = listed.map(() => (rng.chance(0.2) ? 0 : rng.uniform(-0.3, 0.5)));
      const ends = listed.map(() => (rng.chance(0.2) ? 1 : rng.uniform(0.5, 1.3)));
      o.roi = [...starts, ...ends];
      if (rng.chance(0.7)) o.extrapolationValue = rng.pick([-1, 0.5, 10, -3.25]);
    }
    const inN = prod(dims), outN = prod(out);
    if (outN > 400000 || inN > 400000 || outN === 0) continue;
    // past Resize's threshold (parallel.h kResizeMinWork); with a keep_aspect_ratio_policy the
    // output is only bounded above, so the input alone must pass it
    if ((inN + (o.keepAspectRatioPolicy ? 0 : outN)) * (mode === 'nearest' ? 1 : 4) < 1.05 * 2 ** 18) continue;
    return { x: randomTensor(rng, type, dims), options: o };
  }
}

const GRID_TYPES_X = ['float32', 'float32', 'float64', 'float16', 'uint8', 'int32'];
function genGrid(rng) {
  for (;;) {
    const sp = rng.pick([1, 2, 2, 2, 3]);  // spatial rank: X is rank sp + 2
    const mode = rng.pick(['linear', 'nearest', 'cubic']);
    const N = rng.int(1, 3), C = rng.int(1, 6);
    const inSp = Array.from({ length: sp }, () => rng.int(1, [0, 4000, 90, 24][sp]));
    const outSp = Array.from({ length: sp }, () => rng.int(1, [0, 40000, 200, 40][sp]));
    const outN = N * C * prod(outSp);
    if (outN < 70000 || outN > 500000) continue;
    const x = randomTensor(rng, rng.pick(GRID_TYPES_X), [N, C, ...inSp]);
    const gType = rng.pick(['float32', 'float64']);
    const gn = N * prod(outSp) * sp;
    const g = new ARRAYS[gType](gn);
    for (let i = 0; i < gn; i++) g[i] = rng.chance(0.02) ? rng.pick([NaN, 3, -7, Infinity]) : rng.uniform(-1.2, 1.2);
    return {
      x, grid: { type: gType, dims: [N, ...outSp, sp], data: g },
      options: { mode, paddingMode: rng.pick(['zeros', 'border', 'reflection']), alignCorners: rng.chance(0.5) },
    };
  }
}

function genAffine(rng) {
  const three = rng.chance(0.4);
  const N = rng.int(1, 3);
  let size;
  do size = three ? [N, 1, rng.int(8, 40), rng.int(8, 60), rng.int(8, 60)] : [N, 3, rng.int(100, 400), rng.int(100, 400)];
  while (prod(size) / size[1] < 1.05 * 2 ** 15);  // locations past AffineGrid's threshold
  const type = rng.pick(['float32', 'float64']);
  const k = three ? 12 : 6;
  const theta = new ARRAYS[type](N * k);
  for (let i = 0; i < theta.length; i++) theta[i] = rng.uniform(-2, 2);
  return { theta: { type, dims: three ? [N, 3, 4] : [N, 2, 3], data: theta }, size, options: { alignCorners: rng.chance(0.5) } };
}

// A call's result as bytes (or its error), for comparison.
function outcome(fn) {
  try {
    const y = fn();
    const d = y.data;
    return { dims: Array.from(y.dims).join('x'), type: y.type, bytes: Buffer.from(d.buffer, d.byteOffset, d.byteLength) };
  } catch (e) {
    return { error: `${e.name}: ${e.message}` };
  }
}
function describe(c) {
  return JSON.stringify(c, (k, v) => (ArrayBuffer.isView(v) ? `<${v.constructor.name} of ${v.length}>` : v));
}

const FAMILIES = {
  resize: { gen: genResize, run: (s, c) => s.resize(c.x, c.options) },
  gridSample: { gen: genGrid, run: (s, c) => s.gridSample(c.x, c.grid, c.options) },
  affineGrid: { gen: genAffine, run: (s, c) => s.affineGrid(c.theta, c.size, c.options) },
};

// ---------------------------------------------------------------- determinism

test('threads 1, 2, 3 and 4 give the same bytes: Resize, GridSample and AffineGrid, random cases past the work threshold', async (t) => {
  const one = await createSampler({ threads: 1 });
  const many = await Promise.all(THREADS.map((threads) => createSampler({ threads })));
  assert.equal(one.threads, 1);
  assert.deepEqual(many.map((s) => s.threads), THREADS, 'each sampler runs on the threads it asked for (Node has shared memory)');
  try {
    for (const [family, { gen, run }] of Object.entries(FAMILIES)) {
      let ran = 0, errors = 0;
      const seen = new Set();
      for (let i = 0; i < CASES; i++) {
        const c = gen(prng(caseSeed(family, i)));
        const ref = outcome(() => run(one, c));
        if (ref.error) errors++;
        else { ran++; seen.add(ref.type); }
        for (const s of many) {
          const got = outcome(() => run(s, c));
          const what = `${family}#${i} (seed ${MASTER_SEED}) with ${s.threads} threads: ${describe(c)}`;
          if (ref.error || got.error) { assert.equal(got.error, ref.error, what); continue; }
          assert.equal(got.dims, ref.dims, what);
          assert.equal(got.type, ref.type, what);
          assert.ok(got.bytes.equals(ref.bytes), `${what}: the bytes differ from 1 thread's`);
        }
      }
      t.diagnostic(`${family}: ${ran} cases compared (types ${[...seen].join(', ')}), ${errors} refused alike`);
      assert.ok(ran >= CASES * 0.8, `${family}: only ${ran} of ${CASES} cases ran (the generator makes too many invalid ones)`);
    }
  } finally {
    one.dispose();
    for (const s of many) s.dispose();
  }
});

test('calls that grow the shared memory, on this thread or on the pool\'s, give the same bytes; views made after them see the grown memory', async () => {
  const one = await createSampler({ threads: 1 });
  const four = await createSampler({ threads: 4 });
  const M = four._M;
  try {
    // GridSample over 65536 locations and 16 channels: each thread that takes a task allocates
    // its own workspace, so the pool's threads may grow the memory past what this thread's
    // views cover (whether they do depends on timing and on the core's split; the next test
    // grows it behind this thread's back for certain)
    const rng = prng(7);
    const x = randomTensor(rng, 'float32', [1, 16, 64, 64]);
    const grid = { type: 'float32', dims: [1, 256, 256, 2], data: new Float32Array(256 * 256 * 2).map((_, i) => Math.sin(i)) };
    const before = four.memoryBytes;
    for (const mode of ['linear', 'cubic', 'nearest', 'linear']) {
      const a = outcome(() => one.gridSample(x, grid, { mode }));
      const b = outcome(() => four.gridSample(x, grid, { mode }));
      assert.ok(b.bytes.equals(a.bytes), mode);
      assert.equal(four.memoryBytes, M.wasmMemory.buffer.byteLength, 'memoryBytes sees the memory as it is now');
    }
    // a tensor larger than the first 16 MB (so partly in what the pool grew, when it did),
    // written and read through views of the memory as it is
    const mid = four.tensor('float32', [1, 3, 1200, 1200]);
    const src = randomTensor(rng, 'float32', [1, 3, 1200, 1200]);
    mid.data.set(src.data);
    const r1 = outcome(() => one.resize(src, { scales: [1, 1, 0.5, 0.5], mode: 'linear', antialias: true }));
    assert.ok(outcome(() => four.resize(mid, { scales: [1, 1, 0.5, 0.5], mode: 'linear', antialias: true })).bytes.equals(r1.bytes));
    mid.dispose();
    assert.ok(four.memoryBytes > before, `memory grew (${before} -> ${four.memoryBytes})`);
    // this thread grows it too: a large Resize (7.5 MB in, 30 MB out)
    const big = randomTensor(rng, 'float32', [1, 3, 700, 900]);
    const a = outcome(() => one.resize(big, { scales: [1, 1, 2, 2], mode: 'cubic' }));
    assert.ok(outcome(() => four.resize(big, { scales: [1, 1, 2, 2], mode: 'cubic' })).bytes.equals(a.bytes));
    // wasm tensors made after the growth, filled and read through views of the new memory
    const t = four.tensor('float32', [1, 3, 700, 900]);
    t.data.set(big.data);
    const out = four.tensor('float32', [1, 3, 1400, 1800]);
    four.resizeInto(t, out, { scales: [1, 1, 2, 2], mode: 'cubic' });
    assert.ok(Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength).equals(a.bytes));
    assert.equal(four.memoryBytes, M.wasmMemory.buffer.byteLength);
    t.dispose();
    out.dispose();
  } finally {
    one.dispose();
    four.dispose();
  }
});

test('memory grown behind this thread\'s back (as a pool thread grows it) is seen by the next views', async () => {
  // A pool thread that grows the shared memory leaves this thread's views of it short; whether
  // a call makes a pool thread grow it depends on timing, so here the memory is grown directly,
  // without the glue, and a tensor is then allocated past the old end.
  const s = await createSampler({ threads: 2 });
  const one = await createSampler({ threads: 1 });
  try {
    const M = s._M;
    const old = M.wasmMemory.buffer.byteLength;
    M.wasmMemory.grow(256);  // 16 MiB more
    const t = s.tensor('float32', [1, 1, 2000, 3000]);  // 24 MB: past the old end
    const src = randomTensor(prng(3), 'float32', [1, 1, 2000, 3000]);
    t.data.set(src.data);
    assert.ok(t.data.byteOffset + t.data.byteLength > old, 'the tensor reaches past the old end');
    assert.equal(s.memoryBytes, old + 256 * 65536);
    const a = outcome(() => one.resize(src, { scales: [1, 1, 0.5, 0.5], mode: 'linear' }));
    assert.ok(outcome(() => s.resize(t, { scales: [1, 1, 0.5, 0.5], mode: 'linear' })).bytes.equals(a.bytes));
    t.dispose();
  } finally {
    s.dispose();
    one.dispose();
  }
});

// ---------------------------------------------------------------- two worker_threads

test('two Node worker_threads at once, each with its own threaded sampler, match one thread', async () => {
  // each worker runs the same cases on createSampler({ threads: 2 }) and sends back digests
  const cases = 6;
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { createHash } = require('node:crypto');
    (async () => {
      const { createSampler } = await import(workerData.entry);
      const s = await createSampler({ threads: 2 });
      const out = [];
      for (let i = 0; i < workerData.n; i++) {
        const size = 120 + 37 * i, c = 1 + (i % 3);
        const x = new Float32Array(c * size * size);
        for (let k = 0; k < x.length; k++) x[k] = Math.sin(k * 0.37 + i);
        const y = s.resize({ type: 'float32', dims: [1, c, size, size] , data: x }, { scales: [1, 1, 1.7, 2.3], mode: ['linear', 'cubic', 'nearest'][i % 3], antialias: i % 2 === 1 });
        const g = s.gridSample({ type: 'float32', dims: [1, c, size, size], data: x }, s.affineGrid({ type: 'float32', dims: [1, 2, 3], data: new Float32Array([0.9, 0.2, 0.1, -0.3, 1.1, 0]) }, [1, c, size * 2, size]), { mode: ['linear', 'cubic', 'nearest'][i % 3] });
        out.push([y, g].map((t) => createHash('sha256').update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)).digest('hex')));
      }
      parentPort.postMessage({ threads: s.threads, out });
      s.dispose();
    })().catch((e) => parentPort.postMessage({ error: String(e && e.stack) }));`;
  const run = () => new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true, workerData: { entry: pathToFileURL(ENTRY).href, n: cases } });
    w.once('message', resolve);
    w.once('error', reject);
  });
  const [r1, r2] = await Promise.all([run(), run()]);
  for (const r of [r1, r2]) {
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.threads, 2);
  }
  // the same cases on one thread, here
  const s = await createSampler({ threads: 1 });
  const digest = (t) => createHash('sha256').update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)).digest('hex');
  for (let i = 0; i < cases; i++) {
    const size = 120 + 37 * i, c = 1 + (i % 3);
    const x = new Float32Array(c * size * size);
    for (let k = 0; k < x.length; k++) x[k] = Math.sin(k * 0.37 + i);
    const y = s.resize({ type: 'float32', dims: [1, c, size, size], data: x }, { scales: [1, 1, 1.7, 2.3], mode: ['linear', 'cubic', 'nearest'][i % 3], antialias: i % 2 === 1 });
    const g = s.gridSample({ type: 'float32', dims: [1, c, size, size], data: x }, s.affineGrid({ type: 'float32', dims: [1, 2, 3], data: new Float32Array([0.9, 0.2, 0.1, -0.3, 1.1, 0]) }, [1, c, size * 2, size]), { mode: ['linear', 'cubic', 'nearest'][i % 3] });
    const want = [digest(y), digest(g)];
    assert.deepEqual(r1.out[i], want, `case ${i}, worker 1`);
    assert.deepEqual(r2.out[i], want, `case ${i}, worker 2`);
  }
  s.dispose();
});

// ---------------------------------------------------------------- options

test('createSampler({ threads }) checks its value; sampler.threads says how many are used', async () => {
  await assert.rejects(() => createSampler({ threads: 0 }),
    (e) => e instanceof RangeError && e.message === 'createSampler: threads must be positive, got 0');
  await assert.rejects(() => createSampler({ threads: -2 }),
    (e) => e instanceof RangeError && e.message === 'createSampler: threads must be positive, got -2');
  await assert.rejects(() => createSampler({ threads: 1.5 }),
    (e) => e instanceof RangeError && e.message === 'createSampler: threads: expected an integer, got 1.5');
  await assert.rejects(() => createSampler({ threads: NaN }), RangeError);
  await assert.rejects(() => createSampler({ threads: '2' }),
    (e) => e instanceof TypeError && e.message === 'createSampler: threads: expected an integer, got the string "2"');
  await assert.rejects(() => createSampler({ threads: null }),
    (e) => e instanceof TypeError && e.message === 'createSampler: threads: expected an integer, got null');
  await assert.rejects(() => createSampler({ thread: 2 }),
    (e) => e instanceof RangeError && /^createSampler: unknown option 'thread' \(did you mean 'threads'\?\)/.test(e.message));
  // the default: one thread, the single-threaded build (no pool)
  const d = await createSampler();
  assert.equal(d.threads, 1);
  assert.equal(d._M.oswWorkers, undefined, 'the default sampler has no pool');
  d.dispose();
  const b = await createSampler({ threads: 2n });  // a bigint, as every integer option
  assert.equal(b.threads, 2);
  b.dispose();
  // wasmUrl names osw.wasm: one thread, no error
  const u = await createSampler({ threads: 4, wasmUrl: ENTRY.replace(/index\.m?js$/, 'osw.wasm') });
  assert.equal(u.threads, 1);
  const y = u.resize({ type: 'float32', dims: [2], data: new Float32Array([1, 3]) }, { scales: [2], mode: 'linear' });
  assert.deepEqual(Array.from(y.data), [1, 1.5, 2.5, 3]);
  u.dispose();
});

test('a missing osw-mt.wasm is one clear Error naming the file and the fix; threads: 1 still works, and a later call succeeds once it is back', async () => {
  // a copy of the package's dist/ without osw-mt.wasm
  const dir = mkdtempSync(join(tmpdir(), 'osw-threads-dist-'));
  try {
    cpSync(dirname(ENTRY), dir, { recursive: true });
    rmSync(join(dir, 'osw-mt.wasm'));
    const { createSampler: create } = await import(pathToFileURL(join(dir, 'index.mjs')).href);
    await assert.rejects(() => create({ threads: 2 }), (e) => e.constructor === Error &&
      e.message.startsWith(`onnx-sampling-wasm: could not load the WebAssembly module from ${join(dir, 'osw-mt.wasm')}: no such file.`) &&
      e.message.endsWith('(This was the threaded build, for createSampler({ threads }): osw-mt.wasm and, in browsers, osw-mt.mjs go beside browser.mjs; or ask for threads: 1.)'));
    const one = await create({ threads: 1 });
    assert.equal(one.threads, 1);
    one.dispose();
    cpSync(join(dirname(ENTRY), 'osw-mt.wasm'), join(dir, 'osw-mt.wasm'));
    const two = await create({ threads: 2 });  // the failure was not kept
    assert.equal(two.threads, 2);
    two.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a pool worker that cannot start (its script missing) is one clear Error, not an uncaught exception nor a wait forever; the worker API and threads: 1 still work', async () => {
  // a copy of the package's dist/ without the pool workers' script; its worker_threads fail
  // at once with MODULE_NOT_FOUND ('error' events, which used to be thrown from the glue's
  // handler: the process crashed)
  const dir = mkdtempSync(join(tmpdir(), 'osw-threads-dist-'));
  const uncaught = [];
  const onUncaught = (e) => uncaught.push(e);
  process.on('uncaughtException', onUncaught);
  try {
    cpSync(dirname(ENTRY), dir, { recursive: true });
    rmSync(join(dir, 'osw-mt-node.worker.js'));
    const { createSampler: create } = await import(pathToFileURL(join(dir, 'index.mjs')).href);
    const expected = (e) => e.constructor === Error &&
      e.message.startsWith(`onnx-sampling-wasm: a worker of the thread pool did not start (${join(dir, 'osw-mt-node.worker.js')}): Cannot find module`) &&
      e.message.endsWith('(This was the threaded build, for createSampler({ threads }): osw-mt.wasm and, in browsers, osw-mt.mjs go beside browser.mjs; or ask for threads: 1.)') &&
      e.cause instanceof Error && e.cause.code === 'MODULE_NOT_FOUND';
    for (const threads of [2, 4]) await assert.rejects(() => within(create({ threads }), 20_000, `createSampler({ threads: ${threads} })`), expected);
    // the worker API: its worker's sampler fails the same way, as the rejection of its creation
    await assert.rejects(() => within(create({ worker: true, threads: 3 }), 20_000, 'createSampler({ worker: true, threads: 3 })'),
      (e) => /^onnx-sampling-wasm: a worker of the thread pool did not start \(.*osw-mt-node\.worker\.js\): Cannot find module/.test(e.message));
    const one = await create({ threads: 1 });
    assert.equal(one.threads, 1);
    one.dispose();
    await new Promise((r) => setTimeout(r, 200));  // any late 'error' of the dropped workers
    assert.deepEqual(uncaught.map(String), [], 'no uncaught exception');
    cpSync(join(dirname(ENTRY), 'osw-mt-node.worker.js'), join(dir, 'osw-mt-node.worker.js'));
    const two = await create({ threads: 2 });  // the failure was not kept
    assert.equal(two.threads, 2);
    two.dispose();
  } finally {
    process.off('uncaughtException', onUncaught);
    rmSync(dir, { recursive: true, force: true });
  }
});

// Node's permission model without --allow-worker: no worker may start (Node 20: the flag is
// --experimental-permission; Node 18 has no such model)
const PERMISSION = ['--permission', '--experimental-permission'].find((f) => process.allowedNodeEnvironmentFlags.has(f));
test('under Node\'s permission model without --allow-worker, createSampler({ threads }) is one clear Error that says so; threads: 1 still works', { skip: !PERMISSION && `node ${process.version} has no permission model` }, () => {
  const r = runScript('perm.mjs', `
    const { createSampler } = await import(${JSON.stringify(pathToFileURL(ENTRY).href)});
    try { await createSampler({ threads: 2 }); console.log('resolved'); } catch (e) { console.log(e.constructor.name + ': ' + e.message); }
    const one = await createSampler({ threads: 1 });
    console.log('threads', one.threads, Array.from(one.resize({ type: 'float32', dims: [2], data: new Float32Array([1, 3]) }, { scales: [2], mode: 'linear' }).data).join());
  `, [PERMISSION, '--allow-fs-read=*', '--no-warnings']);
  assert.equal(r.signal, null, 'the process did not exit by itself');
  assert.equal(r.status, 0, r.stderr);
  const [first, second] = r.stdout.split('\n');
  assert.match(first, /^Error: onnx-sampling-wasm: a worker of the thread pool did not start \(.*osw-mt-node\.worker\.js\): Access to this API has been restricted.*--allow-worker.*or ask for threads: 1\.\)$/);
  assert.equal(second, 'threads 1 1,1.5,2.5,3');
});

// ---------------------------------------------------------------- the pool's lifetime

// The pool's workers (Node worker_threads) of a live threaded sampler, and promises of their exits.
function poolExits(sampler) {
  const workers = sampler._M.oswWorkers();
  return { count: workers.length, exits: Promise.all(workers.map((w) => new Promise((r) => w.once('exit', r)))) };
}

test('dispose() terminates the pool\'s workers', async () => {
  const s = await createSampler({ threads: 3 });
  const { count, exits } = poolExits(s);
  assert.equal(count, 2, 'threads - 1 workers');
  s.resize({ type: 'float32', dims: [1, 1, 300, 300], data: new Float32Array(90000).fill(2) }, { scales: [1, 1, 2, 2] });
  s.dispose();
  await within(exits, 10_000, 'the workers exit after dispose()');
  assert.equal(s.threads, 0);
});

function runScript(name, source, args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'osw-threads-'));
  const file = join(dir, name);
  writeFileSync(file, source);
  try {
    return spawnSync(process.execPath, [...args, file], { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const USE = `
  const x = { type: 'float32', dims: [1, 3, 400, 400], data: new Float32Array(480000).map((_, i) => i % 251) };
  const y = s.resize(x, { scales: [1, 1, 1.5, 1.5], mode: 'cubic' });
  const g = s.gridSample(x, s.affineGrid({ type: 'float32', dims: [1, 2, 3], data: new Float32Array([1, 0.1, 0, 0, 1, 0]) }, [1, 3, 300, 300]));
  console.log('threads', s.threads, 'out', y.dims.join('x'), g.dims.join('x'));
`;

for (const [kind, name, load] of [
  ['an ES module', 'use.mjs', `const { createSampler } = await import(${JSON.stringify(pathToFileURL(ENTRY).href)});`],
  ['a CommonJS script', 'use.cjs', `const { createSampler } = require(${JSON.stringify(ENTRY.replace(/index\.mjs$/, 'index.cjs'))});`],
]) {
  for (const dispose of [false, true]) {
    test(`${kind} that used a threaded sampler${dispose ? ' and disposed it' : ' (not disposed)'} exits by itself with code 0`, () => {
      const body = `${load}\n const s = await createSampler({ threads: 4 });\n${USE}${dispose ? 's.dispose();' : ''}`;
      const source = name.endsWith('.mjs') ? body : `(async () => {${body}})();`;
      const r = runScript(name, source);
      assert.equal(r.signal, null, `killed by ${r.signal} after the 60 s timeout: the process did not exit by itself (stdout ${r.stdout}, stderr ${r.stderr})`);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, 'threads 4 out 1x3x600x600 1x3x300x300\n');
      assert.equal(r.stderr, '', 'nothing printed on stderr');
    });
  }
}

test('the garbage collector ends the workers of a threaded sampler dropped without dispose()', () => {
  const r = runScript('gc.mjs', `
    const { createSampler } = await import(${JSON.stringify(pathToFileURL(ENTRY).href)});
    let s = await createSampler({ threads: 3 });
    ${USE}
    const exits = s._M.oswWorkers().map((w) => new Promise((r) => w.once('exit', r)));
    s = null;
    for (let i = 0; i < 50 && (await Promise.race([Promise.all(exits).then(() => true), new Promise((r) => setTimeout(() => r(false), 20))])) === false; i++) gc();
    console.log('exited', (await Promise.race([Promise.all(exits).then((e) => e.length), new Promise((r) => setTimeout(() => r(0), 2000))])));
  `, ['--expose-gc']);
  assert.equal(r.signal, null, 'the process did not exit by itself');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /exited 2\n$/, 'both workers exited once the sampler was collected');
});
