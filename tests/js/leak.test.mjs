// leak.test.mjs — the wasm heap stays flat across many calls, successful and failing.
//
// A call copies its tensors into wasm memory (malloc), runs the core (which allocates and
// frees its own tables) and frees everything again, whether it succeeds or throws. A
// missing free() anywhere on that path is a leak that only shows after many calls, so
// these tests make 10,000 calls and compare the bytes in use before and after.
//
// How the bytes in use are measured (see heapState below):
//   - if the module has `heapUsed()` (bytes malloc has handed out, e.g. mallinfo().uordblks),
//     that number;
//   - otherwise through probes of the module's own allocator (sampler._M._osw_alloc/_osw_free): the
//     extent of the heap minus the free holes below it.
// Either way the number moves a little without any leak: the module caches the last
// Resize plan (tables, scratch: a few dozen blocks), and where those blocks land decides
// whether malloc rounds each of them up by 8 bytes. So every measurement follows the same
// "settle" calls, and differences up to JITTER bytes are allowed. A leak on any one call
// path is far above that: the 10,000 calls run each of the ~55 kinds of call ~180 times,
// so even one minimum-size block (16 bytes) lost per call of one kind adds up to ~3 KB.
// If the module has `releaseCaches()` (frees the cached plan and the last error message),
// settling calls it and the comparison is exact (no JITTER).
// A self-test leaks one block on purpose and requires the measurement to see it, so a
// measurement that silently stopped working fails too.
//
// Env: OSW_PACKAGE (a package folder; its dist/index.mjs is imported), else <repo>/dist.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = process.env.OSW_PACKAGE ? path.resolve(process.env.OSW_PACKAGE) : path.resolve(here, '..', '..');
const { createSampler } = await import(pathToFileURL(path.join(pkgDir, 'dist', 'index.mjs')).href);

// ---------------------------------------------------------------- tensors

const T = (type, dims, data) => ({ type, dims, data });
const f32 = (arr, dims = [arr.length]) => T('float32', dims, Float32Array.from(arr));
const f64 = (arr, dims = [arr.length]) => T('float64', dims, Float64Array.from(arr));
const i64 = (arr) => T('int64', [arr.length], BigInt64Array.from(arr, (v) => BigInt(v)));
const ramp = (n, k = 0.5) => Array.from({ length: n }, (_, i) => i * k - 1);
const count = (dims) => dims.reduce((a, b) => a * b, 1);
const f32r = (dims) => f32(ramp(count(dims)), dims);
const f64r = (dims) => f64(ramp(count(dims), 0.25), dims);
const grid = (dims, Ctor = Float32Array) => {
  const n = count(dims);
  return T(Ctor === Float32Array ? 'float32' : 'float64', dims, Ctor.from({ length: n }, (_, i) => Math.sin(i * 1.7) * 1.2));
};

// ---------------------------------------------------------------- the calls

// [name, call(sampler), expected: 'ok' | an error class | a list of those]. The failing
// ones fail at different depths: argument checks in JS (nothing allocated yet), the core's
// plan step (parameters in wasm memory, plan tables being built), the core's execution
// step (X and Y already allocated in wasm memory), or an allocation that fails.
const CALLS = [
  // ---- successes
  ['resize nearest sizes 4-D', (s) => s.resize(f32r([1, 2, 3, 4]), { sizes: [1, 2, 5, 7] }), 'ok'],
  ['resize linear scales', (s) => s.resize(f32r([2, 3, 4]), { mode: 'linear', scales: [1, 2, 0.5] }), 'ok'],
  ['resize cubic antialias axes float64', (s) => s.resize(f64r([1, 3, 9, 8]), { mode: 'cubic', antialias: true, axes: [3, 2], scales: [0.5, 0.4] }), 'ok'],
  ['resize tf_crop_and_resize', (s) => s.resize(f32r([4, 5]), { mode: 'linear', coordinateTransformationMode: 'tf_crop_and_resize', roi: [-0.2, 0.1, 1.3, 0.9], sizes: [6, 3], extrapolationValue: 7 }), 'ok'],
  ['resize keepAspectRatioPolicy', (s) => s.resize(f32r([1, 1, 6, 4]), { sizes: [5, 5], axes: [2, 3], keepAspectRatioPolicy: 'not_larger' }), 'ok'],
  ['resize empty tensor', (s) => s.resize(T('float32', [0, 3], new Float32Array(0)), { sizes: [0, 5] }), 'ok'],
  ['resize half_pixel_symmetric exclude_outside', (s) => s.resize(f32r([3, 7]), { mode: 'cubic', coordinateTransformationMode: 'half_pixel_symmetric', excludeOutside: true, scales: [1.7, 0.6] }), 'ok'],
  ['upsample nearest', (s) => s.upsample(f32r([1, 1, 2, 3]), { scales: [1, 1, 2, 3] }), 'ok'],
  ['upsample linear float64', (s) => s.upsample(f64r([2, 3]), { scales: [1.5, 2], mode: 'linear' }), 'ok'],
  ['gridSample linear zeros 4-D', (s) => s.gridSample(f32r([1, 2, 3, 4]), grid([1, 2, 5, 2])), 'ok'],
  ['gridSample nearest border 5-D float64', (s) => s.gridSample(f64r([2, 1, 2, 3, 2]), grid([2, 2, 2, 1, 3], Float64Array), { mode: 'nearest', paddingMode: 'border' }), 'ok'],
  ['gridSample cubic reflection 3-D', (s) => s.gridSample(f32r([1, 3, 7]), grid([1, 4, 1]), { mode: 'cubic', paddingMode: 'reflection', alignCorners: true }), 'ok'],
  ['gridSample NaN/Inf grid', (s) => s.gridSample(f32r([1, 1, 3, 3]), f32([NaN, 0, Infinity, -Infinity, 1e30, 0.5], [1, 1, 3, 2])), 'ok'],
  ['run Resize-10', (s) => s.run({ opType: 'Resize', opset: 10, attributes: { mode: 'linear' } }, [f32r([1, 1, 2, 2]), f32([1, 1, 2, 1.5])]), 'ok'],
  ['run Resize-11 empty roi', (s) => s.run({ opType: 'Resize', opset: 11, attributes: { mode: 'cubic' } }, [f32r([1, 1, 3, 3]), f32([]), f32([1, 1, 2, 2])]), 'ok'],
  ['run Resize-13 sizes', (s) => s.run({ opType: 'Resize', opset: 13, attributes: { coordinate_transformation_mode: 'asymmetric' } }, [f32r([1, 1, 3, 3]), null, null, i64([1, 1, 2, 5])]), 'ok'],
  ['run Resize-18 axes', (s) => s.run({ opType: 'Resize', opset: 18, attributes: { axes: [1], mode: 'linear', antialias: 1 } }, [f32r([2, 9]), null, f32([0.3])]), 'ok'],
  ['run Resize-19', (s) => s.run({ opType: 'Resize', opset: 19, attributes: { mode: 'nearest', nearest_mode: 'ceil' } }, [f64r([3, 3]), null, f32([2, 0.5])]), 'ok'],
  ['run Upsample-7', (s) => s.run({ opType: 'Upsample', opset: 7, attributes: { scales: [1, 2] } }, [f32r([2, 2])]), 'ok'],
  ['run Upsample-9', (s) => s.run({ opType: 'Upsample', opset: 9, attributes: { mode: 'linear' } }, [f32r([2, 2]), f32([2, 2])]), 'ok'],
  ['run GridSample-16', (s) => s.run({ opType: 'GridSample', opset: 16, attributes: { mode: 'bicubic' } }, [f32r([1, 1, 3, 3]), grid([1, 2, 2, 2])]), 'ok'],
  ['run GridSample-20 5-D', (s) => s.run({ opType: 'GridSample', opset: 20, attributes: { mode: 'linear', padding_mode: 'reflection' } }, [f32r([1, 1, 2, 2, 2]), grid([1, 1, 2, 2, 3])]), 'ok'],

  // ---- failures in the JS argument checks
  ['bad dims (negative)', (s) => s.resize(T('float32', [-2], new Float32Array(0)), { scales: [2] }), RangeError],
  ['dims do not match data', (s) => s.resize(T('float32', [2, 2], new Float32Array(3)), { scales: [2, 2] }), RangeError],
  ['bad attribute value', (s) => s.resize(f32r([2]), { mode: 'bilinear', scales: [2] }), RangeError],
  ['unknown option', (s) => s.resize(f32r([2]), { scale: [2] }), RangeError],
  ['both scales and sizes', (s) => s.resize(f32r([2]), { scales: [2], sizes: [4] }), RangeError],
  ['neither scales nor sizes', (s) => s.resize(f32r([2]), {}), TypeError],
  ['wrong TypedArray kind', (s) => s.resize(T('float32', [2], new Float64Array(2)), { scales: [2] }), TypeError],
  ['upsample scale below 1', (s) => s.upsample(f32r([2]), { scales: [0.5] }), RangeError],
  ['run unknown opType', (s) => s.run({ opType: 'Resample', opset: 19 }, [f32r([2])]), RangeError],
  ['run GridSample-16 on 5-D', (s) => s.run({ opType: 'GridSample', opset: 16 }, [f32r([1, 1, 2, 2, 2]), grid([1, 1, 1, 1, 3])]), RangeError],
  ['run Resize-19 both scales and sizes', (s) => s.run({ opType: 'Resize', opset: 19 }, [f32r([2]), null, f32([2]), i64([4])]), RangeError],
  ['gridSample grid of int type', (s) => s.gridSample(f32r([1, 1, 2, 2]), T('int32', [1, 1, 1, 2], new Int32Array(2))), TypeError],

  // ---- failures in the core's plan step
  ['grid shape mismatch (last dim)', (s) => s.gridSample(f32r([1, 1, 2, 2]), grid([1, 2, 2, 3])), RangeError],
  ['grid shape mismatch (batch)', (s) => s.gridSample(f32r([2, 1, 2, 2]), grid([1, 2, 2, 2])), RangeError],
  ['grid rank mismatch', (s) => s.gridSample(f32r([1, 1, 2, 2]), grid([1, 2, 2])), RangeError],
  ['resize an empty axis to a non-empty one', (s) => s.resize(T('float32', [0, 2], new Float32Array(0)), { sizes: [3, 2] }), RangeError],
  ['resize output length beyond 2^31-1', (s) => s.resize(f32r([3]), { scales: [1e10] }), RangeError],
  // (empty output; the core plans the long axis anyway, and refuses its filter width)
  ['antialias window too large', (s) => s.resize(T('float32', [0, 3e8], new Float32Array(0)), { mode: 'linear', antialias: true, sizes: [0, 1] }), ['ok', RangeError]],

  // ---- failures in the core's execution step (X, grid and Y already in wasm memory)
  ['gridSample border padding of an empty image', (s) => s.gridSample(T('float32', [1, 1, 0, 2], new Float32Array(0)), grid([1, 2, 2, 2]), { paddingMode: 'border' }), RangeError],
  ['gridSample reflection padding of an empty image, wasm output', (s) => withTensors(s, [['float64', [1, 2, 1, 3]]], (y) => s.gridSampleInto(T('float64', [1, 2, 2, 0], new Float64Array(0)), grid([1, 1, 3, 2]), y, { paddingMode: 'reflection' })), RangeError],
  // and, while the core did not compute these element types, there too (either outcome is
  // fine here)
  ['resize of an integer type', (s) => s.resize(T('uint8', [2, 2], new Uint8Array(4)), { sizes: [3, 3] }), ['ok', TypeError]],
  ['resize of int64', (s) => s.resize(T('int64', [3], new BigInt64Array(3)), { mode: 'linear', scales: [2] }), ['ok', TypeError]],
  ['gridSample of an integer type', (s) => s.gridSample(T('int32', [1, 1, 2, 2], new Int32Array(4)), grid([1, 1, 2, 2])), ['ok', TypeError]],
  ['gridSample of float16', (s) => s.gridSample(T('float16', [1, 1, 2, 2], new Uint16Array(4)), grid([1, 1, 2, 2])), ['ok', TypeError]],

  // ---- an allocation that fails (the output would need 16 GiB)
  ['output too large to allocate', (s) => s.resize(f32r([2, 2]), { sizes: [65536, 65536] }), RangeError],

  // ---- the zero-copy tier: tensors in wasm memory (freed by the call's own finally) and
  // *Into calls, succeeding and failing
  ['tensor() and dispose()', (s) => withTensors(s, [['float32', [2, 3]]], (t) => t), 'ok'],
  ['resizeInto wasm -> wasm', (s) => withTensors(s, [['float32', [1, 1, 2, 3]], ['float32', [1, 1, 4, 5]]], (x, y) => s.resizeInto(fill(x), y, { mode: 'linear', sizes: [1, 1, 4, 5] })), 'ok'],
  ['resizeInto plain output', (s) => s.resizeInto(f32r([2, 3]), T('float32', [3, 3], new Float32Array(9)), { sizes: [3, 3] }), 'ok'],
  ['upsampleInto wasm output', (s) => withTensors(s, [['float64', [4, 6]]], (y) => s.upsampleInto(f64r([2, 3]), y, { scales: [2, 2], mode: 'linear' })), 'ok'],
  ['gridSampleInto wasm grid and output', (s) => withTensors(s, [['float32', [1, 3, 3, 2]], ['float32', [1, 2, 3, 3]]], (g, y) => s.gridSampleInto(f32r([1, 2, 4, 4]), fill(g), y, { mode: 'cubic' })), 'ok'],
  ['runInto wasm output', (s) => withTensors(s, [['float32', [1, 1, 4, 4]]], (y) => s.runInto({ opType: 'Resize', opset: 19, attributes: { mode: 'cubic' } }, [f32r([1, 1, 2, 2]), null, f32([1, 1, 2, 2])], [y])), 'ok'],
  ['resizeInto output of the wrong dims', (s) => withTensors(s, [['float32', [3, 4]]], (y) => s.resizeInto(f32r([2, 3]), y, { sizes: [3, 3] })), RangeError],
  ['resizeInto output of the wrong type', (s) => s.resizeInto(f32r([2, 3]), T('float64', [3, 3], new Float64Array(9)), { sizes: [3, 3] }), TypeError],
  ['gridSampleInto output sharing memory with the grid', (s) => withTensors(s, [['float32', [1, 1, 2, 2]]], (g) => s.gridSampleInto(f32r([1, 1, 3, 3]), g, g, {})), RangeError],
  ['a disposed tensor as input', (s) => { const t = s.tensor('float32', [2, 2]); t.dispose(); return s.resize(t, { sizes: [3, 3] }); }, RangeError],
  ['tensor() too large for wasm memory', (s) => s.tensor('float64', [65536, 65536]), RangeError],

  // ---- image helpers (they call the sampler themselves)
  ['imageToTensor', (s) => s.imageToTensor(rgba(3, 2), { channels: 4, mean: [0.5, 0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25, 0.25], scale: 1 / 255 }), 'ok'],
  ['resizeImage', (s) => s.resizeImage(rgba(5, 4), { width: 3 }), 'ok'],
  ['resizeImage with a bad size', (s) => s.resizeImage(rgba(5, 4), { width: 0 }), RangeError],
];

// Runs fn on fresh wasm tensors of the given [type, dims], freeing them whatever happens.
function withTensors(s, specs, fn) {
  const ts = [];
  try {
    for (const [type, dims] of specs) ts.push(s.tensor(type, dims));
    const r = fn(...ts);
    // (a tensor about to be freed is not returned)
    return ts.includes(r) || (Array.isArray(r) && ts.includes(r[0])) ? { data: true } : r;
  } finally {
    for (const t of ts) t.dispose();
  }
}
function fill(t) {
  const d = t.data;
  for (let i = 0; i < d.length; i++) d[i] = Math.sin(i);
  return t;
}
function rgba(width, height) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * 37) & 255;
  return { width, height, data };
}

// Seeded order of the calls within a cycle (the same every cycle).
function shuffled(list, seed) {
  const a = list.slice();
  let s = seed >>> 0;
  for (let i = a.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
const CYCLE = shuffled(CALLS, 20240601);

function runCall([name, call, expected], sampler) {
  let result, error;
  try {
    result = call(sampler);
  } catch (e) {
    error = e;
  }
  const allowed = Array.isArray(expected) ? expected : [expected];
  if (error === undefined) {
    assert.ok(allowed.includes('ok'), `${name}: expected ${allowed.map((e) => e.name).join(' or ')}, got a result`);
    assert.ok(result && (Array.isArray(result) ? result[0] : result).data, `${name}: no result returned`);
  } else {
    assert.ok(allowed.some((e) => e !== 'ok' && error instanceof e), `${name}: unexpected ${error?.name}: ${error?.message}`);
  }
}

// ---------------------------------------------------------------- measuring the heap

// The same calls before every measurement, so that what the module caches between calls
// (the last Resize plan) is the same each time; or, where the module can, no cache at all.
function settle(sampler) {
  sampler.resize(f32r([1, 1, 2, 2]), { sizes: [1, 1, 3, 3] });
  sampler.gridSample(f32r([1, 1, 2, 2]), grid([1, 1, 1, 2]));
  if (typeof sampler._M.releaseCaches === 'function') sampler._M.releaseCaches();
}

// Without a heapUsed() hook, the bytes in use are "top of the heap minus the free holes
// below it", measured through the module's own malloc (sampler._M._osw_alloc/_osw_free):
//   - a block larger than any hole always comes from the top, so its address is the
//     extent of the heap in use;
//   - then malloc(1) until a block comes from the top again: malloc serves a small request
//     from the top only when no free chunk fits, so this uses up every hole, and the
//     holes' bytes are the sum of the blocks' chunk sizes;
//   - a chunk's size is read from the word before the block (dlmalloc, emscripten's
//     default malloc, keeps "size | flag bits" there). The reading is validated on the
//     large probe; if it does not look like dlmalloc, each block counts as one minimum
//     chunk (16 bytes), which can under-count a hole by 8 bytes, so that fallback allows
//     a small tolerance.
// A leak makes the extent grow or a hole shrink; fragmentation that differs but holds the
// same bytes does not count.
const TOP_PROBE = 32 << 20;
const MIN_CHUNK = 16;
const JITTER = 256; // bytes: 8 for each of up to 32 cached blocks (observed: under 80)

function chunkSize(M, p) {
  return M.HEAPU32[(p >>> 2) - 1] & ~7;
}

function heapState(sampler) {
  const M = sampler._M;
  settle(sampler);
  const jitter = typeof M.releaseCaches === 'function' ? 0 : JITTER;
  if (typeof M.heapUsed === 'function') return { method: 'heapUsed()', used: Number(M.heapUsed()), memory: M.HEAPU8.length, tolerance: jitter };
  const big = M._osw_alloc(TOP_PROBE) >>> 0;
  assert.notEqual(big, 0, 'probe malloc failed');
  const bigSize = chunkSize(M, big);
  const exact = bigSize >= TOP_PROBE + 4 && bigSize <= TOP_PROBE + 32;
  M._osw_free(big);
  const ptrs = [];
  let holes = 0;
  try {
    for (;;) {
      const p = M._osw_alloc(1) >>> 0;
      assert.notEqual(p, 0, 'probe malloc failed');
      ptrs.push(p);
      if (p >= big) break;
      holes += exact ? chunkSize(M, p) : MIN_CHUNK;
      assert.ok(ptrs.length < 1e7, 'probing the heap does not end');
    }
  } finally {
    for (let i = ptrs.length - 1; i >= 0; i--) M._osw_free(ptrs[i]);
  }
  return {
    method: exact ? 'probes (dlmalloc chunk sizes)' : 'probes (minimum chunks)',
    used: big - holes, top: big, holes, memory: M.HEAPU8.length,
    tolerance: jitter + (exact ? 0 : 8 * (ptrs.length - 1)),
  };
}

function diff(before, after) {
  if (Math.abs(after.used - before.used) > Math.max(before.tolerance, after.tolerance)) {
    const d = after.used - before.used;
    const detail = before.top !== undefined ? ` (top of heap ${before.top} -> ${after.top}, free bytes below it ${before.holes} -> ${after.holes})` : '';
    return `bytes in use went from ${before.used} to ${after.used} (${d > 0 ? '+' : ''}${d}) by ${before.method}${detail}`;
  }
  if (before.memory !== after.memory) return `wasm memory grew from ${before.memory} to ${after.memory} bytes`;
  return null;
}

// Runs fn `cycles` times after `warm` warm-up rounds; returns the heap difference or null.
function measure(sampler, warm, cycles, fn) {
  for (let i = 0; i < warm; i++) fn(i);
  heapState(sampler); // the first probe may itself grow memory; not compared
  const before = heapState(sampler);
  for (let i = 0; i < cycles; i++) fn(i);
  const after = heapState(sampler);
  return diff(before, after);
}

const sampler = await createSampler();

test('the heap measurement sees a single leaked block (self-test)', () => {
  const M = sampler._M;
  const cycle = () => { for (const c of CYCLE) runCall(c, sampler); };
  for (let i = 0; i < 3; i++) cycle();
  heapState(sampler);
  const before = heapState(sampler);
  cycle();
  const leaked = M._osw_alloc(2 * JITTER) >>> 0; // never freed until the measurement is done
  cycle();
  const after = heapState(sampler);
  M._osw_free(leaked);
  assert.notEqual(diff(before, after), null, 'a leaked block went unnoticed: the measurement does not work on this build');
  // And the same calls without the leak measure as flat (else the main test means nothing).
  assert.equal(measure(sampler, 1, 2, cycle), null, 'the heap is not in a steady state after the warm-up');
});

test('10,000 calls, successful and failing, leave the wasm heap as it was', () => {
  const total = 10000;
  const cycles = Math.ceil(total / CYCLE.length);
  let calls = 0;
  const d = measure(sampler, 3, cycles, () => {
    for (const c of CYCLE) { runCall(c, sampler); calls++; }
  });
  assert.ok(calls >= total, `only ${calls} calls`);
  assert.equal(d, null, `after ${calls} calls: ${d}`);
  // The sampler still computes after all that.
  const y = sampler.resize(f32([1, 2, 3, 4], [1, 1, 2, 2]), { mode: 'linear', sizes: [1, 1, 4, 4] });
  assert.deepEqual(Array.from(y.data.slice(0, 4)), [1, 1.25, 1.75, 2]);
});

// Tensors whose data cannot be read although they passed the checks: the failure comes
// after X was copied in or while it is, so whatever was allocated must still be freed.
class LyingFloat32Array extends Float32Array {
  // Claims more elements than it holds: the copy into wasm memory fails (RangeError).
  get length() { return 64; }
}
function detachedEmpty() {
  const buf = new ArrayBuffer(16);
  const data = new Float32Array(buf, 0, 0);
  if (typeof buf.transfer === 'function') buf.transfer();
  else structuredClone(buf, { transfer: [buf] });
  return T('float32', [0, 4], data);
}
const HOSTILE = [
  ['resize of an empty tensor over a detached buffer', (s) => s.resize(detachedEmpty(), { sizes: [0, 2] })],
  ['gridSample of an empty grid over a detached buffer', (s) => {
    const g = detachedEmpty();
    return s.gridSample(f32r([1, 1, 2, 2]), T('float32', [1, 0, 2, 2], g.data));
  }],
  ['resize of a TypedArray subclass whose length lies', (s) => s.resize(T('float32', [64], new LyingFloat32Array(4)), { scales: [2] })],
  ['gridSample with a grid whose length lies', (s) => s.gridSample(f32r([1, 1, 8, 8]), T('float32', [1, 4, 8, 2], new LyingFloat32Array(4)))],
];

for (const [name, call] of HOSTILE) {
  test(`no leak when the data cannot be read: ${name}`, () => {
    const d = measure(sampler, 3, 1000, () => {
      try {
        call(sampler);
      } catch (e) {
        // What error is thrown is fuzz-api.test.mjs's business; here only the heap counts.
        assert.ok(e instanceof Error, `threw a non-Error: ${e}`);
      }
    });
    assert.equal(d, null, `after 1000 calls: ${d}`);
  });
}
