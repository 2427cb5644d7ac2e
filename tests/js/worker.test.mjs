// worker.test.mjs — owns createSampler({ worker: true }) in Node (bindings/worker-client.js,
// bindings/worker-main.js): a sampler whose operator methods return Promises and run in a
// worker_threads worker holding a synchronous sampler.
//
// - results: every operator method (run, runInto, resize, resizeInto, upsample,
//   upsampleInto, gridSample, gridSampleInto, affineGrid, imageToTensor,
//   tensorToImageData, resizeImage) over seeded random cases gives the same bytes, dims and
//   kind of array as the synchronous sampler;
// - errors: a table of bad calls (wrong kinds, bad values, symbols, functions, bigints,
//   detached buffers, throwing getters) rejects with the class and message the synchronous
//   sampler throws; so do bad createSampler options and a wasm that does not load;
// - many calls in flight at once, errors mixed in, all settle correctly and in call order;
// - buffers: inputs copied by default (a view on part of a buffer, a SharedArrayBuffer),
//   transferred with transfer: true, outputs transferred (own buffers); *Into results land
//   in the caller's array;
// - dispose(): in-flight calls reject with an Error, later ones as the sync sampler throws;
// - child processes (ESM and CJS): a script that awaits calls finishes and exits by itself
//   (no process.exit()), one that never disposes exits too, and a call left running with
//   nothing else to keep the process alive still completes.
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importPackage, packageEntry } from './package.mjs';
import { mulberry32 } from './rng.mjs';

const mod = await importPackage();
const sync = await mod.createSampler();
const ws = await mod.createSampler({ worker: true });

// ---------------------------------------------------------------- helpers

function rngOf(seed) {
  const next = mulberry32(seed);
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (a) => a[Math.floor(next() * a.length)],
    chance: (p) => next() < p,
  };
  return r;
}
const prod = (d) => d.reduce((a, b) => a * b, 1);
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, uint8: Uint8Array, int8: Int8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  float16: Uint16Array, bfloat16: Uint16Array, bool: Uint8Array,
};
function randomTensor(r, type, dims) {
  const A = ARRAYS[type], n = prod(dims), a = new A(n);
  for (let i = 0; i < n; i++) {
    if (A === BigInt64Array || A === BigUint64Array) a[i] = BigInt(r.int(0, 200));
    else if (A === Float32Array || A === Float64Array) a[i] = (r.next() - 0.5) * 8;
    else if (type === 'float16') a[i] = 0x3c00 + r.int(0, 0x3ff);
    else if (type === 'bfloat16') a[i] = 0x3f80 + r.int(0, 0x7f);
    else if (type === 'bool') a[i] = r.int(0, 1);
    else a[i] = r.int(0, 100);
  }
  return { type, dims, data: a };
}

// The bytes, dims, type and kind of array of a result, for deepEqual.
function shape(v) {
  if (v === null || typeof v !== 'object') return v;
  if (ArrayBuffer.isView(v)) return { kind: Object.prototype.toString.call(v), bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (Array.isArray(v)) return v.map(shape);
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = shape(v[k]);
  return out;
}

// The same call on both samplers: the same result, or the same error class and message.
async function same(name, call) {
  let expected, expectedErr = null;
  try { expected = call(sync); } catch (e) { expectedErr = e; }
  let actual, actualErr = null;
  const p = call(ws);
  assert.ok(p instanceof Promise, `${name}: the worker sampler returns a Promise`);
  try { actual = await p; } catch (e) { actualErr = e; }
  if (expectedErr) {
    assert.ok(actualErr, `${name}: the sync sampler threw ${expectedErr.constructor.name}: ${expectedErr.message}; the worker sampler resolved`);
    assert.equal(actualErr.constructor, expectedErr.constructor, `${name}: class (${actualErr.message})`);
    assert.equal(actualErr.message, expectedErr.message, `${name}: message`);
    return expectedErr;
  }
  assert.equal(actualErr, null, `${name}: the sync sampler returned; the worker sampler rejected with ${actualErr && actualErr.message}`);
  assert.deepEqual(shape(actual), shape(expected), `${name}: result`);
  return expected;
}

// ---------------------------------------------------------------- random calls

const RESIZE_TYPES = ['float32', 'float64', 'uint8', 'int8', 'int16', 'uint16', 'int32', 'int64', 'float16', 'bfloat16'];
const MODES = ['nearest', 'linear', 'cubic'];
const COORDS = ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'half_pixel_symmetric'];

function resizeArgs(r) {
  const rank = r.int(1, 4), dims = Array.from({ length: rank }, () => r.int(1, 5));
  const x = randomTensor(r, r.pick(RESIZE_TYPES), dims);
  const o = { mode: r.pick(MODES), coordinateTransformationMode: r.pick(COORDS) };
  if (r.chance(0.5)) o.scales = dims.map(() => r.pick([0.5, 1, 1.5, 2, 3]));
  else o.sizes = dims.map(() => r.int(1, 7));
  if (r.chance(0.3)) o.antialias = true;
  if (r.chance(0.15)) o.mode = 'linearish';  // an error now and then
  return [x, o];
}
function outFor(s, x, o) {  // an output tensor of the right dims (from a sync call)
  const y = s.resize(x, o);
  return { type: y.type, dims: y.dims.slice(), data: new ARRAYS[y.type](y.data.length) };
}
function gridArgs(r) {
  const three = r.chance(0.3);
  const x = randomTensor(r, r.pick(['float32', 'float64', 'uint8', 'int32']), three ? [1, 2, 3, 3, 4] : [r.int(1, 2), r.int(1, 3), r.int(1, 5), r.int(1, 5)]);
  const n = x.dims[0];
  const g = randomTensor(r, r.pick(['float32', 'float64']), three ? [n, 2, 2, 2, 3] : [n, r.int(1, 4), r.int(1, 4), 2]);
  for (let i = 0; i < g.data.length; i++) g.data[i] = (r.next() - 0.5) * 2.4;
  const o = { mode: r.pick(MODES), paddingMode: r.pick(['zeros', 'border', 'reflection']), alignCorners: r.chance(0.5) };
  if (three && o.mode === 'cubic') o.mode = 'linear';
  return [x, g, o];
}
function imageOf(r, w, h) {
  const data = new Uint8ClampedArray(4 * w * h);
  for (let i = 0; i < data.length; i++) data[i] = r.int(0, 255);
  return { width: w, height: h, data };
}

const FAMILIES = {
  resize: (r) => { const [x, o] = resizeArgs(r); return (s) => s.resize(x, o); },
  resizeInto: (r) => {
    const [x, o] = resizeArgs(r);
    let shapeOf;
    try { shapeOf = outFor(sync, x, o); } catch { shapeOf = { type: x.type, dims: [1], data: new ARRAYS[x.type](1) }; }
    // each sampler gets its own output; the returned object must be that output
    return (s) => {
      const out = { type: shapeOf.type, dims: shapeOf.dims, data: new ARRAYS[shapeOf.type](shapeOf.data.length) };
      const check = (y) => { assert.equal(y, out, 'resizeInto returns the caller\'s output'); return y; };
      const y = s.resizeInto(x, out, o);
      return y instanceof Promise ? y.then(check) : check(y);
    };
  },
  upsample: (r) => {
    const x = randomTensor(r, r.pick(['float32', 'uint8', 'int32']), [1, r.int(1, 3), r.int(1, 4)]);
    const o = { scales: [1, r.pick([1, 2]), r.pick([1, 1.5, 3])], mode: r.pick(['nearest', 'linear']) };
    return (s) => s.upsample(x, o);
  },
  upsampleInto: (r) => {
    const x = randomTensor(r, 'float32', [1, 2, 3]);
    const o = { scales: [1, 2, r.pick([1, 2])], mode: r.pick(['nearest', 'linear']) };
    const dims = [1, 4, 3 * o.scales[2]];
    return (s) => s.upsampleInto(x, { type: 'float32', dims, data: new Float32Array(prod(dims)) }, o);
  },
  gridSample: (r) => { const [x, g, o] = gridArgs(r); return (s) => s.gridSample(x, g, o); },
  gridSampleInto: (r) => {
    const [x, g, o] = gridArgs(r);
    const dims = [x.dims[0], x.dims[1], ...g.dims.slice(1, -1)];
    return (s) => s.gridSampleInto(x, g, { type: x.type, dims, data: new ARRAYS[x.type](prod(dims)) }, o);
  },
  affineGrid: (r) => {
    const three = r.chance(0.4), n = r.int(1, 2);
    const theta = randomTensor(r, r.pick(['float32', 'float64']), three ? [n, 3, 4] : [n, 2, 3]);
    const size = three ? [n, 1, r.int(1, 3), r.int(1, 3), r.int(1, 3)] : [n, 1, r.int(1, 4), r.int(1, 4)];
    const sz = r.chance(0.3) ? size.map(BigInt) : size, o = { alignCorners: r.chance(0.5) };
    return (s) => s.affineGrid(theta, sz, o);
  },
  run: (r) => {
    const k = r.int(0, 3);
    if (k === 0) {
      const [x, o] = resizeArgs(r);
      const scales = o.scales ? { type: 'float32', dims: [o.scales.length], data: Float32Array.from(o.scales) } : null;
      const sizes = o.sizes ? { type: 'int64', dims: [o.sizes.length], data: BigInt64Array.from(o.sizes, BigInt) } : null;
      const attributes = { mode: o.mode, coordinate_transformation_mode: o.coordinateTransformationMode };
      const opset = r.pick([11, 13, 18, 19]);
      return (s) => s.run({ opType: 'Resize', opset, attributes }, [x, null, scales, sizes]);
    }
    if (k === 1) {
      const x = randomTensor(r, 'float32', [1, 1, 2, 3]);
      return (s) => s.run({ opType: 'Upsample', opset: 9, attributes: { mode: 'nearest' } }, [x, { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) }]);
    }
    if (k === 2) {
      const [x, g] = gridArgs(r);
      return (s) => s.run({ opType: 'GridSample', opset: 22, attributes: { align_corners: 1 } }, [x, g]);
    }
    const theta = randomTensor(r, 'float32', [1, 2, 3]);
    return (s) => s.run({ opType: 'AffineGrid', opset: 20 }, [theta, { type: 'int64', dims: [4], data: new BigInt64Array([1n, 1n, 2n, 3n]) }]);
  },
  runInto: (r) => {
    const x = randomTensor(r, r.pick(['float32', 'uint8']), [1, 1, 2, r.int(1, 3)]);
    const dims = [1, 1, 4, x.dims[3] * 2];
    return (s) => {
      const outputs = [{ type: x.type, dims, data: new ARRAYS[x.type](prod(dims)) }];
      const p = s.runInto({ opType: 'Resize', opset: 19, attributes: { mode: 'linear' } }, [x, null, { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) }], outputs);
      const check = (y) => { assert.equal(y, outputs, 'runInto returns the caller\'s outputs'); return y; };
      return p instanceof Promise ? p.then(check) : check(p);
    };
  },
  imageToTensor: (r) => {
    const img = imageOf(r, r.int(1, 6), r.int(1, 6));
    const o = r.pick([{}, { layout: 'nhwc' }, { channels: 4, mean: [1, 2, 3, 4], std: [2, 2, 2, 2] }, { premultiply: true, scale: 1 / 255 }]);
    return (s) => s.imageToTensor(img, o);
  },
  tensorToImageData: (r) => {
    const t = randomTensor(r, 'float32', [1, r.pick([1, 3, 4]), r.int(1, 4), r.int(1, 4)]);
    for (let i = 0; i < t.data.length; i++) t.data[i] = r.int(-20, 300);
    const o = r.chance(0.5) ? {} : { premultiply: true };
    return (s) => s.tensorToImageData(t, o);
  },
  // loadCompat (a Promise in both APIs), then a compat resize right away: the worker answers
  // in call order, and Node's sync sampler needs no loading (compat-api.test.mjs)
  loadCompat: (r) => {
    const x = randomTensor(r, r.pick(['uint8', 'float32']), [1, r.int(1, 7), r.int(1, 7), r.int(1, 4)]);
    const o = { sizes: [r.int(1, 9), r.int(1, 9)], axes: [1, 2], ...r.pick([{ compat: 'pillow', mode: 'lanczos' }, { compat: 'opencv', mode: 'cubic' }, { compat: 'opencv', mode: 'area' }]) };
    return (s) => { s.loadCompat(); return s.resize(x, o); };
  },
  resizeCrop: (r) => {
    const img = imageOf(r, r.int(1, 9), r.int(1, 9));
    const o = { size: r.int(1, 8), crop: r.pick([r.int(1, 8), [r.int(1, 8), r.int(1, 8)]]) };
    return (s) => s.resizeCrop(img, o);
  },
  letterbox: (r) => {
    const img = imageOf(r, r.int(1, 9), r.int(1, 9));
    const o = { width: r.int(1, 12), height: r.int(1, 12), fill: r.int(0, 255) };
    return (s) => s.letterbox(img, o);
  },
  warpImage: (r) => {
    const img = imageOf(r, r.int(1, 9), r.int(1, 9));
    const m = [[1 + r.int(0, 2) / 4, 0.25, r.int(-2, 2)], [-0.25, 1, r.int(-2, 2)]];
    const o = { width: r.int(1, 9), height: r.int(1, 9), mode: r.pick(['nearest', 'linear', 'cubic']) };
    return (s) => s.warpImage(img, m, o);
  },
  resizeImage: (r) => {
    const img = imageOf(r, r.int(1, 9), r.int(1, 9));
    const o = r.pick([{ width: r.int(1, 12) }, { height: r.int(1, 12), mode: 'cubic' }, { scale: 1.5, linearLight: true }, { width: 3, height: 2, antialias: false }]);
    return (s) => s.resizeImage(img, o);
  },
};

test('every operator method gives the sync sampler\'s result (bytes, dims, kind of array) over random cases', async (t) => {
  assert.deepEqual(Object.keys(FAMILIES).sort(),
    Object.getOwnPropertyNames(ws).filter((k) => typeof ws[k] === 'function' && k !== 'dispose').sort(),
    'the random cases cover every method of the worker sampler');
  let n = 0;
  for (const [name, make] of Object.entries(FAMILIES)) {
    for (let i = 0; i < 25; i++) {
      const r = rngOf(0x5eed + 1000 * n + i);
      await same(`${name}#${i}`, make(r));
    }
    n++;
  }
  t.diagnostic(`${25 * n} cases`);
});

test('worker sampler: threads, worker, and its methods bound (destructuring works)', async () => {
  // The default: every core (at most 8) in the worker; a synchronous sampler's default is 1.
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  assert.equal(ws.threads, Math.min(8, cores), 'a worker sampler computes on every core by default (at most 8)');
  assert.equal(sync.threads, 1, 'a synchronous sampler on one thread by default');
  const one = await mod.createSampler({ worker: true, threads: 1 });
  assert.equal(one.threads, 1, 'threads: 1 asked for, one thread');
  one.dispose();
  // wasmBinary names osw.wasm, the single-threaded build: one thread, as in the sync API.
  const fromBytes = await mod.createSampler({ worker: true, wasmBinary: readFileSync(new URL('osw.wasm', pathToFileURL(packageEntry()))) });
  assert.equal(fromBytes.threads, 1, 'with wasmBinary (osw.wasm) one thread');
  fromBytes.dispose();
  assert.equal(ws.worker, true);
  assert.equal(ws.disposed, false);
  const { resize } = ws;
  const y = await resize({ type: 'float32', dims: [2], data: new Float32Array([1, 3]) }, { sizes: [3], mode: 'linear', coordinateTransformationMode: 'align_corners' });
  assert.deepEqual(Array.from(y.data), [1, 2, 3]);
  assert.equal(ws.tensor, undefined, 'no zero-copy tier: its memory would be in the worker');
});

// ---------------------------------------------------------------- errors

const X = () => ({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) });
const G = () => ({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([0, 0, 0.5, -0.5]) });
function detached(n) {
  const a = new Float32Array(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}
const throwing = (what) => Object.defineProperty({ type: 'float32', data: new Float32Array(4) }, 'dims', { get() { throw new RangeError(`getter: ${what}`); }, enumerable: true });

const BAD = [
  ['resize: x is a number', (s) => s.resize(5, { scales: [2] })],
  ['resize: x is a symbol', (s) => s.resize(Symbol('pic'), { scales: [2] })],
  ['resize: x is a function', (s) => s.resize(() => 1, { scales: [2] })],
  ['resize: x is a Float32Array', (s) => s.resize(new Float32Array(4), { scales: [2] })],
  ['resize: x.type unknown', (s) => s.resize({ ...X(), type: 'float' }, { scales: [1, 1, 2, 2] })],
  ['resize: x.type a symbol', (s) => s.resize({ ...X(), type: Symbol.iterator }, { scales: [1, 1, 2, 2] })],
  ['resize: data is Float64Array', (s) => s.resize({ ...X(), data: new Float64Array(4) }, { scales: [1, 1, 2, 2] })],
  ['resize: data a plain array', (s) => s.resize({ ...X(), data: [1, 2, 3, 4] }, { scales: [1, 1, 2, 2] })],
  ['resize: data detached', (s) => s.resize({ ...X(), data: detached(4) }, { scales: [1, 1, 2, 2] })],
  ['resize: dims element a string', (s) => s.resize({ ...X(), dims: [1, 1, '2', 2] }, { scales: [1, 1, 2, 2] })],
  ['resize: dims element a bigint too large', (s) => s.resize({ ...X(), dims: [1, 1, 2n ** 60n, 2] }, { scales: [1, 1, 2, 2] })],
  ['resize: dims element NaN', (s) => s.resize({ ...X(), dims: [1, 1, NaN, 2] }, { scales: [1, 1, 2, 2] })],
  ['resize: dims negative', (s) => s.resize({ ...X(), dims: [1, 1, -2, 2] }, { scales: [1, 1, 2, 2] })],
  ['resize: dims and data disagree', (s) => s.resize({ ...X(), dims: [1, 1, 3, 2] }, { scales: [1, 1, 2, 2] })],
  ['resize: dims getter throws', (s) => s.resize(throwing('dims'), { scales: [1, 1, 2, 2] })],
  ['resize: options a string', (s) => s.resize(X(), 'linear')],
  ['resize: unknown option', (s) => s.resize(X(), { scales: [1, 1, 2, 2], mdoe: 'linear' })],
  ['resize: mode a function', (s) => s.resize(X(), { scales: [1, 1, 2, 2], mode: function linear() {} })],
  ['resize: mode unknown', (s) => s.resize(X(), { scales: [1, 1, 2, 2], mode: 'bilinear' })],
  ['resize: scales and sizes', (s) => s.resize(X(), { scales: [1, 1, 2, 2], sizes: [1, 1, 4, 4] })],
  ['resize: neither', (s) => s.resize(X(), { mode: 'linear' })],
  ['resize: scales wrong length', (s) => s.resize(X(), { scales: [2, 2] })],
  ['resize: scales element a symbol', (s) => s.resize(X(), { scales: [1, 1, Symbol('two'), 2] })],
  ['resize: cubicCoeffA Infinity', (s) => s.resize(X(), { scales: [1, 1, 2, 2], mode: 'cubic', cubicCoeffA: Infinity })],
  ['resize: antialias 2', (s) => s.resize(X(), { scales: [1, 1, 2, 2], antialias: 2 })],
  ['resize: axes repeated', (s) => s.resize(X(), { scales: [2, 2], axes: [2, -2] })],
  ['resize: policy without sizes', (s) => s.resize(X(), { scales: [1, 1, 2, 2], keepAspectRatioPolicy: 'not_larger' })],
  ['resize: sizes huge', (s) => s.resize(X(), { sizes: [1, 1, 2 ** 20, 2 ** 20] })],
  ['resizeInto: output wrong dims', (s) => s.resizeInto(X(), { type: 'float32', dims: [1, 1, 3, 4], data: new Float32Array(12) }, { scales: [1, 1, 2, 2] })],
  ['resizeInto: output wrong type', (s) => s.resizeInto(X(), { type: 'float64', dims: [1, 1, 4, 4], data: new Float64Array(16) }, { scales: [1, 1, 2, 2] })],
  ['resizeInto: output not a tensor', (s) => s.resizeInto(X(), 7, { scales: [1, 1, 2, 2] })],
  ['resizeInto: output data too short', (s) => s.resizeInto(X(), { type: 'float32', dims: [1, 1, 4, 4], data: new Float32Array(15) }, { scales: [1, 1, 2, 2] })],
  ['upsample: scale below 1', (s) => s.upsample(X(), { scales: [1, 1, 0.5, 1] })],
  ['upsample: cubic', (s) => s.upsample(X(), { scales: [1, 1, 2, 2], mode: 'cubic' })],
  ['gridSample: grid missing', (s) => s.gridSample(X(), null)],
  ['gridSample: grid int32', (s) => s.gridSample(X(), { type: 'int32', dims: [1, 1, 2, 2], data: new Int32Array(4) })],
  ['gridSample: rank 2 X', (s) => s.gridSample({ type: 'float32', dims: [2, 2], data: new Float32Array(4) }, G())],
  ['gridSample: paddingMode unknown', (s) => s.gridSample(X(), G(), { paddingMode: 'wrap' })],
  ['gridSample: alignCorners a string', (s) => s.gridSample(X(), G(), { alignCorners: 'yes' })],
  ['gridSampleInto: output dims', (s) => s.gridSampleInto(X(), G(), { type: 'float32', dims: [1, 1, 1, 3], data: new Float32Array(3) })],
  ['affineGrid: size a string', (s) => s.affineGrid({ type: 'float32', dims: [1, 2, 3], data: new Float32Array(6) }, '1,1,2,2')],
  ['affineGrid: size of 3', (s) => s.affineGrid({ type: 'float32', dims: [1, 2, 3], data: new Float32Array(6) }, [1, 1, 2])],
  ['affineGrid: theta uint8', (s) => s.affineGrid({ type: 'uint8', dims: [1, 2, 3], data: new Uint8Array(6) }, [1, 1, 2, 2])],
  ['run: node null', (s) => s.run(null, [X()])],
  ['run: opType unknown', (s) => s.run({ opType: 'Resise', opset: 19 }, [X()])],
  ['run: opset a bigint', (s) => s.run({ opType: 'Resize', opset: 19n, attributes: { mode: 'linear' } }, [X(), null, null, null])],
  ['run: opset 0', (s) => s.run({ opType: 'Resize', opset: 0 }, [X()])],
  ['run: inputs not an array', (s) => s.run({ opType: 'Resize', opset: 19 }, X())],
  ['run: unknown attribute', (s) => s.run({ opType: 'GridSample', opset: 16, attributes: { mode: 'bilinear', padding: 'zeros' } }, [X(), G()])],
  ['run: GridSample-16 rank 5', (s) => s.run({ opType: 'GridSample', opset: 16 }, [{ type: 'float32', dims: [1, 1, 1, 2, 2], data: new Float32Array(4) }, { type: 'float32', dims: [1, 1, 1, 1, 3], data: new Float32Array(3) }])],
  ['runInto: outputs not an array', (s) => s.runInto({ opType: 'Resize', opset: 19 }, [X(), null, null, null], X())],
  ['runInto: outputs of 2', (s) => s.runInto({ opType: 'Resize', opset: 19 }, [X(), null, null, null], [X(), X()])],
  ['imageToTensor: not an image', (s) => s.imageToTensor(42)],
  ['imageToTensor: data too short', (s) => s.imageToTensor({ width: 2, height: 2, data: new Uint8ClampedArray(15) })],
  ['imageToTensor: uint8 with mean', (s) => s.imageToTensor({ width: 1, height: 1, data: new Uint8ClampedArray(4) }, { type: 'uint8', mean: [1, 1, 1] })],
  ['tensorToImageData: int32', (s) => s.tensorToImageData({ type: 'int32', dims: [1, 3, 1, 1], data: new Int32Array(3) })],
  ['resizeImage: no options', (s) => s.resizeImage({ width: 1, height: 1, data: new Uint8ClampedArray(4) })],
  ['resizeImage: width and scale', (s) => s.resizeImage({ width: 1, height: 1, data: new Uint8ClampedArray(4) }, { width: 2, scale: 2 })],
  ['resizeImage: huge', (s) => s.resizeImage({ width: 1, height: 1, data: new Uint8ClampedArray(4) }, { width: 100000, height: 100000 })],
];

test(`${BAD.length} bad calls reject with the sync sampler's error class and message`, async () => {
  for (const [name, call] of BAD) {
    const e = await same(name, call);
    assert.ok(e instanceof Error, `${name}: the sync sampler throws (the case is a bad call)`);
  }
  // and the worker's sampler is still usable
  await same('after the errors', (s) => s.resize(X(), { scales: [1, 1, 2, 2] }));
});

test('bad createSampler options and a wasm that does not load reject as the sync createSampler does', async () => {
  const cases = [
    { maxBytes: 0 }, { maxBytes: 'big' }, { maxBytes: 1.5 }, { wasmBinary: 'abc' }, { wasmBinary: new Uint8Array([1, 2, 3]) },
    { wasmBinary: new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 9, 9]) }, { wasmUrl: 42 },
    { wasmUrl: path.join(tmpdir(), 'no-such-dir-osw', 'osw.wasm') }, { wasmUrl: 'relative/missing.wasm' }, { wasmUrl: pathToFileURL('/nonexistent/osw.wasm') },
    { wasmBinary: new Uint8Array(0) }, { bogus: 1 }, { threads: 0 }, { threads: 'two' }, { threads: 2.5 },
  ];
  for (const o of cases) {
    let se = null, we = null;
    await mod.createSampler(o).then((s) => s.dispose(), (e) => { se = e; });
    await mod.createSampler({ ...o, worker: true }).then((s) => s.dispose(), (e) => { we = e; });
    assert.ok(se instanceof Error, `sync createSampler(${Object.keys(o)}) rejects`);
    assert.ok(we, `worker createSampler(${Object.keys(o)}) rejects`);
    assert.equal(we.constructor, se.constructor, `class for ${se.message}`);
    assert.equal(we.message, se.message);
  }
  await assert.rejects(mod.createSampler({ worker: 'yes' }), (e) => e instanceof TypeError && e.message === 'createSampler: worker: expected true or false, got string yes');
  await assert.rejects(mod.createSampler({ worker: true, transfer: 1 }), (e) => e instanceof TypeError && /^createSampler: transfer: expected true or false/.test(e.message));
  await assert.rejects(mod.createSampler({ worker: false, transfer: true }), (e) => e instanceof RangeError && /transfer applies only with worker: true/.test(e.message));
  // worker: false is the synchronous sampler
  const s = await mod.createSampler({ worker: false });
  assert.deepEqual(Array.from(s.resize(X(), { scales: [1, 1, 1, 1] }).data), [1, 2, 3, 4]);
  s.dispose();
  // a wasmBinary is accepted
  const bin = readFileSync(path.join(path.dirname(packageEntry()), 'osw.wasm'));
  const w = await mod.createSampler({ worker: true, wasmBinary: bin, maxBytes: 1 << 20 });
  await same('with wasmBinary', (x) => (x === sync ? sync.resize(X(), { scales: [1, 1, 2, 2] }) : w.resize(X(), { scales: [1, 1, 2, 2] })));
  // maxBytes reaches the worker's sampler
  await assert.rejects(w.resize(X(), { sizes: [1, 1, 1000, 1000] }), (e) => e instanceof RangeError && /more than the limit of 1048576 bytes/.test(e.message));
  w.dispose();
});

test('a worker that cannot start is one Error naming its script, the cause kept: its script missing (both entries), Node\'s permission model', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'osw-worker-dist-'));
  try {
    cpSync(path.dirname(packageEntry()), dir, { recursive: true });
    for (const [entry, script] of [['index.mjs', 'worker-node.mjs'], ['index.cjs', 'worker-node.cjs']]) {
      rmSync(path.join(dir, script));
      const { createSampler } = await import(pathToFileURL(path.join(dir, entry)).href);
      await assert.rejects(createSampler({ worker: true }), (e) => e.constructor === Error &&
        e.message.startsWith(`onnx-sampling-wasm: the worker failed (${path.join(dir, script)}): Cannot find module`) &&
        e.cause && e.cause.code === 'MODULE_NOT_FOUND');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const flag = ['--permission', '--experimental-permission'].find((f) => process.allowedNodeEnvironmentFlags.has(f));
  if (!flag) return;  // (Node 18: no permission model)
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'osw-worker-perm-')), 'perm.mjs');
  writeFileSync(file, `
    const { createSampler } = await import(${JSON.stringify(pathToFileURL(packageEntry()).href)});
    try { await createSampler({ worker: true }); console.log('resolved'); } catch (e) { console.log(e.message, e.cause && e.cause.code); }
  `);
  try {
    const r = spawnSync(process.execPath, [flag, '--allow-fs-read=*', '--no-warnings', file], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^onnx-sampling-wasm: the worker failed \(.*worker-node\.mjs\): Access to this API has been restricted.*--allow-worker.* ERR_ACCESS_DENIED\n$/);
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- concurrency

test('40 calls in flight at once, errors mixed in, all settle correctly and in call order', async () => {
  const r = rngOf(77);
  const calls = [];
  for (let i = 0; i < 40; i++) {
    const fam = r.pick(Object.keys(FAMILIES));
    calls.push(i % 7 === 3 ? BAD[i % BAD.length][1] : FAMILIES[fam](r));
  }
  const expected = calls.map((c) => { try { return { ok: shape(c(sync)) }; } catch (e) { return { err: [e.constructor.name, e.message] }; } });
  const order = [];
  const promises = calls.map((c, i) => c(ws).then((v) => { order.push(i); return { ok: shape(v) }; }, (e) => { order.push(i); return { err: [e.constructor.name, e.message] }; }));
  const got = await Promise.all(promises);
  assert.deepEqual(got, expected);
  assert.deepEqual(order, calls.map((_, i) => i), 'settled in call order');
  assert.ok(expected.filter((e) => e.err).length >= 5, 'errors were mixed in');
});

test('two worker samplers at once each compute their own calls', async () => {
  const other = await mod.createSampler({ worker: true });
  const x = X();
  const [a, b] = await Promise.all([ws.resize(x, { scales: [1, 1, 2, 2] }), other.resize(x, { scales: [1, 1, 3, 3], mode: 'nearest' })]);
  assert.deepEqual(shape(a), shape(sync.resize(x, { scales: [1, 1, 2, 2] })));
  assert.deepEqual(shape(b), shape(sync.resize(x, { scales: [1, 1, 3, 3], mode: 'nearest' })));
  other.dispose();
});

// ---------------------------------------------------------------- buffers

test('inputs are copied by default: the caller\'s arrays stay attached and unchanged', async () => {
  const x = X();
  const before = Array.from(x.data);
  await ws.resize(x, { scales: [1, 1, 2, 2] });
  assert.equal(x.data.buffer.byteLength, 16);
  assert.deepEqual(Array.from(x.data), before);
});

test('a view on part of a buffer sends its own elements; a SharedArrayBuffer input works', async () => {
  const big = new Float32Array(1000).map((_, i) => i);
  const part = { type: 'float32', dims: [2, 3], data: big.subarray(500, 506) };
  await same('partial view', (s) => s.resize(part, { sizes: [4, 5], mode: 'cubic' }));
  const u8 = new Uint8Array(new ArrayBuffer(64), 3, 8).fill(9);
  await same('odd offset uint8 view', (s) => s.resize({ type: 'uint8', dims: [8], data: u8 }, { sizes: [3] }));
  const nodeBuf = Buffer.from([1, 2, 3, 4]);  // a slice of Node's pool
  const y = await ws.resize({ type: 'uint8', dims: [4], data: nodeBuf }, { sizes: [8] });
  assert.deepEqual(shape(y), shape(sync.resize({ type: 'uint8', dims: [4], data: new Uint8Array([1, 2, 3, 4]) }, { sizes: [8] })), 'a Buffer gives a Uint8Array');
  const sab = new Float32Array(new SharedArrayBuffer(16)).fill(2.5);
  await same('SharedArrayBuffer', (s) => s.resize({ type: 'float32', dims: [4], data: sab }, { sizes: [7], mode: 'linear' }));
  const subSab = new Float32Array(new SharedArrayBuffer(64), 4, 4).fill(1.25);
  await same('view on part of a SharedArrayBuffer', (s) => s.gridSample({ type: 'float32', dims: [1, 1, 2, 2], data: subSab }, G()));
  // an ArrayBuffer-backed partial view is not detached even with transfer: true
});

test('transfer: true detaches whole-buffer inputs (the caller\'s array), copies partial views; outputs have their own buffers', async () => {
  const t = await mod.createSampler({ worker: true, transfer: true });
  const x = X(), g = G();
  const expected = shape(sync.gridSample(x, g));
  const p = t.gridSample(x, g);
  assert.equal(x.data.length, 0, 'X\'s array is detached as soon as the call is made');
  assert.equal(g.data.byteLength, 0, 'the grid\'s array too');
  const y = await p;
  assert.deepEqual(shape(y), expected);
  const big = new Float32Array(64).fill(3);
  const part = { type: 'float32', dims: [4], data: big.subarray(8, 12) };
  await t.resize(part, { sizes: [2] });
  assert.equal(big.length, 64, 'a view on part of a buffer is copied, not transferred');
  // without transfer, the output still comes back in a buffer of its own (transferred)
  const y2 = await ws.resize(X(), { scales: [1, 1, 2, 2] });
  assert.equal(y2.data.buffer.byteLength, y2.data.byteLength);
  // the same array twice (X and grid alike) is transferred once
  const d = new Float32Array([0, 0, 0.5, 0.5]);
  assert.deepEqual(shape(await t.gridSample({ type: 'float32', dims: [1, 1, 2, 2], data: d }, { type: 'float32', dims: [1, 1, 2, 2], data: d })),
    shape(sync.gridSample({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([0, 0, 0.5, 0.5]) }, { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([0, 0, 0.5, 0.5]) })));
  t.dispose();
});

test('*Into writes the result into the caller\'s array, also a view on part of a buffer, and leaves the rest of it', async () => {
  const store = new Float32Array(40).fill(-7);
  const out = { type: 'float32', dims: [1, 1, 4, 4], data: store.subarray(10, 26) };
  const y = await ws.resizeInto(X(), out, { scales: [1, 1, 2, 2] });
  assert.equal(y, out);
  assert.deepEqual(Array.from(out.data), Array.from(sync.resize(X(), { scales: [1, 1, 2, 2] }).data));
  assert.deepEqual([...store.subarray(0, 10), ...store.subarray(26)], new Array(24).fill(-7));
});

// ---------------------------------------------------------------- dispose

test('dispose(): calls in flight reject with an Error, later calls as the sync sampler throws', async () => {
  const d = await mod.createSampler({ worker: true });
  const big = { type: 'float32', dims: [1, 1, 512, 512], data: new Float32Array(512 * 512) };
  const inFlight = [d.resize(big, { scales: [1, 1, 2, 2], mode: 'cubic' }), d.resize(X(), { scales: [1, 1, 2, 2] })];
  d.dispose();
  assert.equal(d.disposed, true);
  for (const p of inFlight)
    await assert.rejects(p, (e) => e.constructor === Error && /disposed \(sampler.dispose\(\)\) while this call was in flight/.test(e.message));
  const s = await mod.createSampler();
  s.dispose();
  let syncErr;
  try { s.resize(X(), { scales: [1, 1, 2, 2] }); } catch (e) { syncErr = e; }
  for (const call of [(x) => x.resize(X(), { scales: [1, 1, 2, 2] }), (x) => x.gridSample(X(), G()), (x) => x.resizeImage({ width: 1, height: 1, data: new Uint8Array(4) }, { width: 2 })])
    await assert.rejects(call(d), (e) => e.constructor === syncErr.constructor && e.message === syncErr.message);
  d.dispose();  // again: nothing
});

// ---------------------------------------------------------------- the process

function runScript(ext, body) {
  const dir = mkdtempSync(path.join(tmpdir(), 'osw-worker-'));
  const file = path.join(dir, `main.${ext}`);
  const entry = ext === 'cjs' ? path.join(path.dirname(packageEntry()), 'index.cjs') : pathToFileURL(packageEntry()).href;
  const head = ext === 'cjs' ? `const { createSampler } = require(${JSON.stringify(entry)});\n(async () => {\n` : `import { createSampler } from ${JSON.stringify(entry)};\n`;
  writeFileSync(file, head + body + (ext === 'cjs' ? '\n})();\n' : '\n'));
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
  rmSync(dir, { recursive: true, force: true });
  return { ...r, ms: Date.now() - t0 };
}

for (const ext of ['mjs', 'cjs']) {
  test(`${ext}: a script that awaits worker calls finishes them and exits by itself, disposed or not`, (t) => {
    const body = `
const s = await createSampler({ worker: true });
const x = { type: 'float32', dims: [1, 1, 300, 300], data: new Float32Array(90000).fill(1) };
const y = await s.resize(x, { scales: [1, 1, 2, 2], mode: 'cubic' });
const z = await s.gridSample({ type: 'float32', dims: [1, 1, 1, 2], data: new Float32Array([1, 3]) }, { type: 'float32', dims: [1, 1, 1, 2], data: new Float32Array([0, 0]) });
console.log('done', y.dims.join('x'), z.data[0], s.threads);
${''}`;
    for (const dispose of [false, true]) {
      const r = runScript(ext, body + (dispose ? 's.dispose();' : '// never disposed'));
      t.diagnostic(`${ext}, ${dispose ? 'disposed' : 'not disposed'}: exit ${r.status} after ${r.ms} ms`);
      assert.equal(r.error, undefined, `the script exits by itself (no timeout): ${r.error}`);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^done 1x1x600x600 2 \d+\n$/);
    }
  });

  test(`${ext}: a call left running with nothing else to do completes before the process exits`, () => {
    // no await on the call: only the worker's call keeps the process alive
    const r = runScript(ext, `
const s = await createSampler({ worker: true });
setTimeout(() => {}, 1);
s.resize({ type: 'float32', dims: [1, 1, 400, 400], data: new Float32Array(160000).fill(2) }, { scales: [1, 1, 3, 3], mode: 'cubic' })
  .then((y) => console.log('result', y.data.length, y.data[12345]));
s.resize(5, {}).catch((e) => console.log('error', e.constructor.name));`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'result 1440000 2\nerror TypeError\n');
  });
}

test('large inputs (copied through staging buffers the worker returns) give the right results, in sequence and in flight at once', async () => {
  const r = rngOf(4242);
  const make = (h, w) => randomTensor(r, 'float32', [1, 1, h, w]);
  const xs = [make(300, 400), make(300, 400), make(512, 512), make(100, 700), make(300, 400), make(600, 300)];
  for (const x of xs) {
    const before = x.data.slice(0, 8);
    await same(`large ${x.dims}`, (s) => s.resize(x, { scales: [1, 1, 0.5, 0.75], mode: 'cubic' }));
    assert.deepEqual(x.data.slice(0, 8), before, 'the caller\'s input is unchanged');
  }
  const want = xs.map((x) => shape(sync.gridSample(x, G(), { paddingMode: 'border' })));
  const got = await Promise.all(xs.map((x) => ws.gridSample(x, G(), { paddingMode: 'border' })));
  assert.deepEqual(got.map(shape), want);
  // a large partial view, and the same large array twice in one call
  const big = make(700, 700);
  const part = { type: 'float32', dims: [1, 1, 350, 700], data: big.data.subarray(700 * 350) };
  await same('large partial view', (s) => s.resize(part, { sizes: [1, 1, 100, 100] }));
  const sq = make(256, 256);
  await same('same array as X and grid', (s) => s.gridSample(sq, { type: 'float32', dims: [1, 128, 256, 2], data: sq.data }));
});

test('threads: the worker\'s sampler computes on the threads asked for, with the bytes of one thread', async () => {
  const t2 = await mod.createSampler({ worker: true, threads: 2 });
  const s2 = await mod.createSampler({ threads: 2 });
  assert.equal(t2.threads, s2.threads, 'the same count as a synchronous sampler asking for 2');
  assert.equal(t2.threads, 2, 'Node has shared memory: 2 threads');
  const r = rngOf(99);
  const x = randomTensor(r, 'float32', [1, 3, 200, 240]);
  const w7 = randomTensor(r, 'uint8', [1, 270, 480, 4]);
  const g = randomTensor(r, 'float32', [1, 150, 170, 2]);
  for (let i = 0; i < g.data.length; i++) g.data[i] = g.data[i] / 3;
  const cases = [
    (s) => s.resize(x, { scales: [1, 1, 2, 2], mode: 'cubic' }),
    (s) => s.resize(w7, { sizes: [540, 960], axes: [1, 2], mode: 'linear' }),
    (s) => s.resize(x, { sizes: [1, 3, 50, 60], mode: 'linear', antialias: true }),
    (s) => s.gridSample(x, g, { mode: 'cubic', paddingMode: 'reflection' }),
  ];
  for (const [i, c] of cases.entries())
    assert.deepEqual(shape(await c(t2)), shape(c(sync)), `case ${i}: 2 threads in the worker, 1 in the sync sampler`);
  t2.dispose();
  s2.dispose();
  const r2 = runScript('mjs', `
const s = await createSampler({ worker: true, threads: 2 });
const y = await s.resize({ type: 'float32', dims: [1, 3, 300, 300], data: new Float32Array(270000).fill(1) }, { scales: [1, 1, 2, 2], mode: 'cubic' });
console.log('done', s.threads, y.data.length);`);
  assert.equal(r2.error, undefined, 'a script with a threaded worker sampler exits by itself');
  assert.equal(r2.status, 0, r2.stderr);
  assert.equal(r2.stdout, 'done 2 1080000\n');
});
