// fuzz-api.test.mjs — random and malformed arguments to every API call (seeded, repeatable).
//
// The contract under test (index.d.ts): every call either returns a valid tensor or throws
// a TypeError or a RangeError. Anything else fails: another error class (a plain Error, an
// Embind BindingError, a WebAssembly.RuntimeError such as "memory access out of bounds" or
// "unreachable", an abort), a malformed result, or a hang.
//
// Decided here: an exception thrown by the caller's own code — a throwing getter on dims,
// data, type or an attribute, a Proxy trap that throws — may propagate as it is: it is the
// caller's exception, and the API must neither swallow it nor turn it into another class.
// Such errors are instances of UserError below; a TypeError or RangeError is accepted too.
//
// Each iteration starts from a valid call of one of the API's methods — run(), resize(),
// upsample(), gridSample() at random opsets and element types, their *Into variants with a
// plain or a wasm-memory output, tensor(), and the image helpers imageToTensor(),
// tensorToImageData(), resizeImage() — and applies 0 to 3 mutations: a value anywhere in
// the arguments replaced by a hostile one (wrong TypedArray kinds, detached buffers,
// throwing getters, huge dims such as 2**40 and 2**53, -0, NaN, BigInt where numbers are
// expected, Proxies, strings, symbols, null/undefined inside arrays, very long arrays such
// as rank 100, ...), a key deleted, or an object frozen or wrapped in a pass-through Proxy.
// Tensors in wasm memory (sampler.tensor()) are also disposed before use, aliased (the
// same tensor as input and output), or have their public type/dims/size reassigned; in the
// last 15% of the iterations also to a shape larger than their allocation, which the call
// must refuse rather than write or read past the block (a write past it corrupts the
// module's heap, so the loop stops at the first one).
//
// Checked besides the contract: an unmutated call must succeed (among them, rarely, an
// empty tensor resized with sizes [0, 2**31 - 1]: semantics row 12 allows it, and its
// output has no elements, so it must be cheap); a call changed only by
// freezing or pass-through Proxies must succeed (with the same result, where it returns a
// new one); wasm memory around the tensors the call was given ("canary" blocks allocated
// before and after each of them) must be unchanged, and so must wasm-memory inputs. After
// the loop, one ordinary call must still give the right values.
//
// The loop runs in a worker thread: a call that never returns (a hang inside wasm blocks
// its thread) is detected by the main thread, which names the iteration and its case.
//
// Env: OSW_PACKAGE (a package folder; its dist/index.mjs is imported), else <repo>/dist.
//      OSW_FUZZ_SEED, OSW_FUZZ_ITERATIONS override the seed and the iteration count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { mulberry32 } from './rng.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = process.env.OSW_PACKAGE ? path.resolve(process.env.OSW_PACKAGE) : path.resolve(here, '..', '..');
const ENTRY = pathToFileURL(path.join(pkgDir, 'dist', 'index.mjs')).href;
const SEED = Number(process.env.OSW_FUZZ_SEED ?? 0x05a11ce);
const ITERATIONS = Number(process.env.OSW_FUZZ_ITERATIONS ?? 3000);
const HANG_MS = 5000; // one call taking longer than this is a hang
const TOTAL_MS = 120000; // the whole loop

// ---------------------------------------------------------------- random numbers

function makeRng(seed) {
  const next = mulberry32(seed);
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (a) => a[Math.floor(next() * a.length)],
  };
  return r;
}

// ---------------------------------------------------------------- describing values

// Descriptions of hostile objects, registered when they are made: describing must never
// touch a getter or a Proxy trap.
const LABELS = new WeakMap();
const label = (obj, text) => { LABELS.set(obj, text); return obj; };

class UserError extends Error {
  constructor(where) { super(`user code threw in ${where}`); this.name = 'UserError'; }
}

function show(v, depth = 0) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  const t = typeof v;
  if (t === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (t === 'bigint') return `${v}n`;
  if (t === 'string') return JSON.stringify(v.length > 24 ? `${v.slice(0, 24)}…(${v.length})` : v);
  if (t === 'symbol') return 'Symbol()';
  if (t === 'boolean') return String(v);
  if (t === 'function') return LABELS.get(v) ?? 'function';
  if (LABELS.has(v)) return LABELS.get(v);
  if (depth > 4) return '…';
  if (ArrayBuffer.isView(v)) {
    if (v instanceof DataView) return `DataView(${v.byteLength})`;
    const items = Array.from(v.subarray(0, 6), (e) => show(e));
    return `${v.constructor.name}[${v.length}]${v.length ? `(${items.join(',')}${v.length > 6 ? ',…' : ''})` : ''}`;
  }
  if (v instanceof ArrayBuffer) return `ArrayBuffer(${v.byteLength})`;
  const frozen = Object.isFrozen(v) ? 'frozen ' : '';
  if (Array.isArray(v)) {
    if (v.length > 12) return `${frozen}[${v.length} items: ${show(v[0], depth + 1)}, …]`;
    const parts = [];
    for (let i = 0; i < v.length; i++) {
      const d = Object.getOwnPropertyDescriptor(v, i);
      parts.push(d === undefined ? '<hole>' : 'get' in d ? '<getter>' : show(d.value, depth + 1));
    }
    return `${frozen}[${parts.join(', ')}]`;
  }
  const parts = [];
  for (const k of Reflect.ownKeys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    const key = typeof k === 'symbol' ? '[symbol]' : k;
    parts.push(`${key}: ${'get' in d ? '<throwing getter>' : show(d.value, depth + 1)}`);
  }
  const proto = Object.getPrototypeOf(v);
  const kind = proto === null ? 'null-proto ' : proto !== Object.prototype ? `${proto.constructor?.name ?? '?'} ` : '';
  return `${frozen}${kind}{${parts.join(', ')}}`;
}

// ---------------------------------------------------------------- valid calls

const TYPED = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array, float16: Uint16Array, bfloat16: Uint16Array,
};
const count = (dims) => dims.reduce((a, b) => a * b, 1);

function tensor(r, type, dims, values) {
  const A = TYPED[type];
  const n = count(dims);
  const data = new A(n);
  for (let i = 0; i < n; i++) {
    const v = values ? values(i) : r.next() * 8 - 4;
    data[i] = A === BigInt64Array || A === BigUint64Array ? BigInt(Math.abs(Math.round(v))) : v;
  }
  return { type, dims, data };
}
const f32 = (arr) => ({ type: 'float32', dims: [arr.length], data: Float32Array.from(arr) });
const i64 = (arr) => ({ type: 'int64', dims: [arr.length], data: BigInt64Array.from(arr, (v) => BigInt(v)) });

const COORDS = ['half_pixel', 'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_half_pixel_for_nn', 'tf_crop_and_resize'];
const NEAREST = ['round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil'];
const SCALES = [0.25, 0.5, 0.6, 0.75, 1, 1.5, 2, 3];
const COMPATS = ['onnx', 'onnxruntime', 'pytorch'];
// A run() node, sometimes naming the runtime whose behaviour to reproduce (Resize, Upsample).
const node = (r, opType, opset, attributes) => (opType !== 'GridSample' && r.chance(0.3)
  ? { opType, opset, attributes, compat: r.pick(COMPATS) } : { opType, opset, attributes });

function xType(r) {
  return r.chance(0.7) ? r.pick(['float32', 'float64']) : r.pick(Object.keys(TYPED));
}

// A tensor in wasm memory, described here and made by the worker just before the call
// (sampler.tensor(), filled with the values), so that cases stay free of any sampler.
const PLACEHOLDERS = new WeakSet();
function W(t) {
  const ph = label({ type: t.type, dims: t.dims.slice(), values: t.data }, `wasm(${t.type} [${t.dims.join(', ')}])`);
  PLACEHOLDERS.add(ph);
  return ph;
}
const isPlaceholder = (v) => v !== null && typeof v === 'object' && PLACEHOLDERS.has(v);
const maybeWasm = (r, t, p = 0.25) => (r.chance(p) ? W(t) : t);
// An output tensor for an *Into call: plain or in wasm memory.
const outputFor = (r, type, dims) => maybeWasm(r, { type, dims, data: new TYPED[type](count(dims)) }, 0.5);
// Output length of an axis resized by a float32 scale (floor(in * scale), the scale widened).
const scaledLength = (len, s) => Math.floor(len * Math.fround(s));

// A valid resize: x, and the parameters shared by resize() and run().
function resizeParams(r, { coords = COORDS, axesOk = true, policyOk = true } = {}) {
  const rank = r.chance(0.9) ? r.range(1, 4) : r.range(5, 6);
  const dims = Array.from({ length: rank }, () => (rank > 4 ? r.range(1, 2) : r.range(r.chance(0.05) ? 0 : 1, 6)));
  const type = xType(r);
  const mode = r.pick(['nearest', 'linear', 'cubic']);
  const coord = r.pick(coords);
  let axes = null;
  if (axesOk && r.chance(0.3)) {
    axes = dims.map((_, i) => i).filter(() => r.chance(0.6));
    if (axes.length === 0) axes = [rank - 1];
    if (r.chance(0.5)) axes = axes.map((a) => a - rank); // negative axes
    if (r.chance(0.5)) axes.reverse();
  }
  const listed = axes ? axes.map((a) => (a < 0 ? a + rank : a)) : dims.map((_, i) => i);
  const useSizes = r.chance(0.5);
  const scales = useSizes ? null : listed.map(() => r.pick(SCALES));
  // An axis of length 0 must stay 0 (a RangeError otherwise: nothing to sample).
  const sizes = useSizes ? listed.map((a) => (dims[a] === 0 ? 0 : r.range(0, 8))) : null;
  // Rarely: an empty tensor (semantics row 12) whose other axis grows to the longest
  // length the core allows; the output has no elements, so this must succeed, cheaply.
  let edge = false;
  if (sizes && listed.length >= 2 && r.chance(0.02)) {
    dims[listed[0]] = 0;
    sizes[0] = 0;
    sizes[1] = 2 ** 31 - 1;
    edge = true;
  }
  const x = tensor(r, type, dims);
  let policy = useSizes && policyOk && r.chance(0.3) ? r.pick(['not_larger', 'not_smaller']) : null;
  if (policy && listed.some((a) => dims[a] === 0)) policy = null; // no ratio on an empty axis
  const roi = coord === 'tf_crop_and_resize' ? listed.map(() => r.next() * 0.6 - 0.2).concat(listed.map(() => 0.5 + r.next() * 0.8)) : null;
  return {
    x, mode, coord, axes, scales, sizes, policy, roi, edge,
    nearest: r.pick(NEAREST), cubicA: r.pick([-0.75, -0.5, -1]), exclude: r.chance(0.2), antialias: r.chance(0.3),
    extrapolation: r.pick([0, -1, 2.5]),
  };
}

function resizeCall(r, into = false) {
  // resize() has Resize-19's coordinate modes: tf_half_pixel_for_nn ended with opset 18.
  const p = resizeParams(r, { coords: COORDS.filter((c) => c !== 'tf_half_pixel_for_nn'), policyOk: !into });
  const o = { mode: p.mode, coordinateTransformationMode: p.coord, nearestMode: p.nearest };
  if (p.mode === 'cubic') o.cubicCoeffA = p.cubicA;
  if (r.chance(0.3)) o.excludeOutside = p.exclude;
  if (r.chance(0.5)) o.antialias = p.antialias;
  if (p.coord === 'tf_crop_and_resize') { o.roi = p.roi; o.extrapolationValue = p.extrapolation; }
  if (p.axes) o.axes = p.axes;
  if (p.scales) o.scales = p.scales; else o.sizes = p.sizes;
  if (p.policy) o.keepAspectRatioPolicy = p.policy;
  if (r.chance(0.3)) o.compat = r.pick(COMPATS);
  const x = maybeWasm(r, p.x);
  if (!into) return { api: 'resize', args: [x, o], edge: p.edge };
  const rank = p.x.dims.length;
  const listed = p.axes ? p.axes.map((a) => (a < 0 ? a + rank : a)) : p.x.dims.map((_, i) => i);
  const out = p.x.dims.slice();
  listed.forEach((a, j) => { out[a] = p.sizes ? p.sizes[j] : scaledLength(p.x.dims[a], p.scales[j]); });
  return { api: 'resizeInto', args: [x, outputFor(r, p.x.type, out), o] };
}

function upsampleCall(r, into = false) {
  const rank = r.range(1, 4);
  const x = tensor(r, xType(r), Array.from({ length: rank }, () => r.range(1, 4)));
  const o = { scales: x.dims.map(() => r.pick([1, 1.5, 2, 3])) };
  if (r.chance(0.7)) o.mode = r.pick(['nearest', 'linear']);
  if (r.chance(0.3)) o.compat = r.pick(COMPATS);
  if (!into) return { api: 'upsample', args: [maybeWasm(r, x), o] };
  const out = x.dims.map((d, i) => scaledLength(d, o.scales[i]));
  return { api: 'upsampleInto', args: [maybeWasm(r, x), outputFor(r, x.type, out), o] };
}

function gridParams(r, rank) {
  const n = r.range(1, 2);
  const spatial = Array.from({ length: rank - 2 }, () => r.range(r.chance(0.05) ? 0 : 1, 5));
  const x = tensor(r, xType(r), [n, r.range(1, 3), ...spatial]);
  const out = spatial.map(() => r.range(1, 4));
  const grid = tensor(r, r.pick(['float32', 'float64']), [n, ...out, rank - 2], () => r.next() * 2.4 - 1.2);
  return { x, grid };
}

function gridSampleCall(r, into = false) {
  const { x, grid } = gridParams(r, r.range(3, 5));
  const o = {};
  if (r.chance(0.7)) o.mode = r.pick(['linear', 'nearest', 'cubic']);
  if (r.chance(0.7)) o.paddingMode = r.pick(['zeros', 'border', 'reflection']);
  if (r.chance(0.5)) o.alignCorners = r.pick([true, false, 0, 1]);
  // A zero-length spatial axis has no pixel to pad from: only zeros padding applies.
  if (x.dims.slice(2).includes(0)) o.paddingMode = 'zeros';
  if (!into) return { api: 'gridSample', args: [maybeWasm(r, x), maybeWasm(r, grid), o] };
  const out = [x.dims[0], x.dims[1], ...grid.dims.slice(1, -1)];
  return { api: 'gridSampleInto', args: [maybeWasm(r, x), maybeWasm(r, grid), outputFor(r, x.type, out), o] };
}

function runCall(r, into = false) {
  if (into) {
    // runInto: Resize with sizes (the output shape is known) or GridSample.
    if (r.chance(0.5)) {
      const p = resizeParams(r, { coords: COORDS.filter((c) => c !== 'tf_half_pixel_for_nn'), axesOk: false, policyOk: false });
      const sizes = p.x.dims.map((d) => (d === 0 ? 0 : r.range(0, 6)));
      const a = { mode: p.mode, coordinate_transformation_mode: p.coord };
      const roi = p.coord === 'tf_crop_and_resize' ? f32(p.x.dims.map(() => 0).concat(p.x.dims.map(() => 1))) : null;
      return { api: 'runInto', args: [node(r, 'Resize', 19, a), [maybeWasm(r, p.x), roi, null, i64(sizes)], [outputFor(r, p.x.type, sizes)]] };
    }
    const { x, grid } = gridParams(r, r.range(3, 5));
    const a = { padding_mode: x.dims.slice(2).includes(0) ? 'zeros' : r.pick(['zeros', 'border', 'reflection']) };
    const out = [x.dims[0], x.dims[1], ...grid.dims.slice(1, -1)];
    return { api: 'runInto', args: [{ opType: 'GridSample', opset: 22, attributes: a }, [maybeWasm(r, x), maybeWasm(r, grid)], [outputFor(r, x.type, out)]] };
  }
  const which = r.int(3);
  if (which === 0) {
    const opset = r.pick([10, 11, 12, 13, 18, 19, 21]);
    if (opset < 11) {
      const p = resizeParams(r, { coords: ['asymmetric'], axesOk: false, policyOk: false });
      const scales = p.x.dims.map(() => r.pick(SCALES));
      return { api: 'run', args: [node(r, 'Resize', opset, { mode: r.pick(['nearest', 'linear']) }), [p.x, f32(scales)]] };
    }
    const coords = opset < 18 ? COORDS.filter((c) => c !== 'half_pixel_symmetric')
      : opset < 19 ? COORDS.filter((c) => c !== 'half_pixel_symmetric' && c !== 'tf_half_pixel_for_nn')
        : COORDS.filter((c) => c !== 'tf_half_pixel_for_nn');
    const p = resizeParams(r, { coords, axesOk: opset >= 18, policyOk: opset >= 18 });
    const a = { mode: p.mode, coordinate_transformation_mode: p.coord, nearest_mode: p.nearest };
    if (p.mode === 'cubic') { a.cubic_coeff_a = p.cubicA; a.exclude_outside = p.exclude ? 1 : 0; }
    if (p.coord === 'tf_crop_and_resize') a.extrapolation_value = p.extrapolation;
    if (opset >= 18) {
      if (r.chance(0.5)) a.antialias = p.antialias ? 1 : 0;
      if (p.axes) a.axes = p.axes;
      if (p.policy) a.keep_aspect_ratio_policy = p.policy;
    }
    const roi = p.roi ? f32(p.roi) : r.pick([null, undefined, f32([])]);
    const inputs = [p.x, roi, p.scales ? f32(p.scales) : r.pick([null, f32([])])];
    if (p.sizes) inputs.push(i64(p.sizes));
    return { api: 'run', args: [node(r, 'Resize', opset, a), inputs], edge: p.edge };
  }
  if (which === 1) {
    const opset = r.pick([7, 8, 9, 10]);
    const rank = r.range(1, 4);
    const x = tensor(r, xType(r), Array.from({ length: rank }, () => r.range(1, 4)));
    const scales = x.dims.map(() => r.pick([1, 2, 1.5]));
    const mode = r.pick(['nearest', 'linear']);
    return opset < 9
      ? { api: 'run', args: [node(r, 'Upsample', opset, { mode, scales }), [x]] }
      : { api: 'run', args: [node(r, 'Upsample', opset, { mode }), [x, f32(scales)]] };
  }
  const opset = r.pick([16, 17, 20, 22]);
  const { x, grid } = gridParams(r, opset < 20 ? 4 : r.range(3, 5));
  const a = {};
  if (r.chance(0.7)) a.mode = opset < 20 ? r.pick(['bilinear', 'nearest', 'bicubic']) : r.pick(['linear', 'nearest', 'cubic']);
  a.padding_mode = x.dims.slice(2).includes(0) ? 'zeros' : r.pick(['zeros', 'border', 'reflection']);
  if (r.chance(0.5)) a.align_corners = r.pick([0, 1]);
  return { api: 'run', args: [{ opType: 'GridSample', opset, attributes: a }, [maybeWasm(r, x), grid]] };
}

function tensorCall(r) {
  const type = r.pick(Object.keys(TYPED));
  return { api: 'tensor', args: [type, Array.from({ length: r.range(0, 4) }, () => r.range(0, 5))] };
}

// An ImageData-like { width, height, data } of RGBA bytes.
function image(r) {
  const width = r.range(1, 6), height = r.range(1, 6);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = r.chance(0.3) ? 255 : r.int(256);
  return { width, height, data };
}

function imageCall(r) {
  const which = r.int(3);
  if (which === 0) {
    const layout = r.pick(['nchw', 'nhwc']);
    const o = { layout, channels: r.pick([3, 4]) };
    if (r.chance(0.5)) o.premultiply = r.chance(0.5);
    const type = r.pick(['float32', 'uint8']);
    if (r.chance(0.7)) o.type = type;
    if ((o.type ?? (layout === 'nhwc' ? 'uint8' : 'float32')) === 'float32' && r.chance(0.5)) {
      o.scale = r.pick([1, 1 / 255]);
      o.mean = Array.from({ length: o.channels }, () => r.next());
      o.std = Array.from({ length: o.channels }, () => 0.1 + r.next());
    }
    return { api: 'imageToTensor', args: [image(r), o] };
  }
  if (which === 1) {
    const layout = r.pick(['nchw', 'nhwc']);
    const C = r.pick([1, 3, 4]), H = r.range(1, 5), Wd = r.range(1, 5);
    const dims = layout === 'nchw' ? [1, C, H, Wd] : [1, H, Wd, C];
    if (r.chance(0.3)) dims.shift();
    const t = tensor(r, r.pick(['float32', 'float64', 'uint8']), dims, () => r.next() * 300 - 20);
    const o = { layout };
    if (C === 4 && r.chance(0.3)) o.premultiply = r.chance(0.5);
    return { api: 'tensorToImageData', args: [maybeWasm(r, t), o] };
  }
  const img = image(r);
  const o = {};
  if (r.chance(0.5)) { o.width = r.range(1, 9); if (r.chance(0.5)) o.height = r.range(1, 9); }
  else o.scale = r.chance(0.5) ? r.pick([0.5, 1, 1.5, 2]) : [r.pick([0.5, 1, 2]), r.pick([0.5, 1, 2])];
  if (o.scale !== undefined && [o.scale].flat().some((s) => s < 1)) { img.width += 2; img.height += 2; img.data = new Uint8ClampedArray(img.width * img.height * 4).fill(128); }
  if (r.chance(0.5)) o.mode = r.pick(['nearest', 'linear', 'cubic']);
  if (r.chance(0.3)) o.antialias = r.chance(0.5);
  if (r.chance(0.3)) o.premultiply = r.chance(0.5);
  if (r.chance(0.3)) o.linearLight = r.chance(0.5);
  return { api: 'resizeImage', args: [img, o] };
}

const CALLS = [
  [resizeCall, 3], [upsampleCall, 1], [gridSampleCall, 2], [runCall, 3],
  [(r) => resizeCall(r, true), 1], [(r) => upsampleCall(r, true), 1], [(r) => gridSampleCall(r, true), 1], [(r) => runCall(r, true), 1],
  [tensorCall, 1], [imageCall, 1],
];
const CALL_WEIGHT = CALLS.reduce((s, [, w]) => s + w, 0);
function baseCall(r) {
  let k = r.next() * CALL_WEIGHT;
  for (const [fn, w] of CALLS) { if ((k -= w) < 0) return fn(r); }
  return CALLS[0][0](r);
}

// ---------------------------------------------------------------- hostile values

function detached(Ctor, n) {
  const buf = new ArrayBuffer(n * Ctor.BYTES_PER_ELEMENT);
  const view = new Ctor(buf);
  if (typeof buf.transfer === 'function') buf.transfer();
  else structuredClone(buf, { transfer: [buf] });
  return label(view, `detached ${Ctor.name}`);
}

function throwingGetterObject(where) {
  const o = {};
  for (const k of ['type', 'dims', 'data', 'mode', 'scales', 'sizes', 'opType', 'opset', 'attributes', 'length', '0']) {
    Object.defineProperty(o, k, { get() { throw new UserError(`${where}.${k}`); }, enumerable: true });
  }
  return label(o, '{every key a throwing getter}');
}

function throwingProxy(where) {
  const handler = {};
  for (const trap of ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf']) {
    handler[trap] = () => { throw new UserError(`${where} (Proxy ${trap} trap)`); };
  }
  return label(new Proxy({}, handler), 'Proxy(every trap throws)');
}

function revokedProxy() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return label(proxy, 'revoked Proxy');
}

// Values that have nothing to do with the slot they land in.
const SIMPLE = [
  () => undefined, () => null, () => true, () => false, () => 0, () => -0, () => 1, () => -1, () => 0.5,
  () => NaN, () => Infinity, () => -Infinity, () => 2 ** 31, () => 2 ** 32, () => 2 ** 40, () => 2 ** 53,
  () => 2 ** 53 + 2, () => -(2 ** 53), () => Number.MAX_VALUE, () => Number.MIN_VALUE, () => 1e300,
  () => 0n, () => 1n, () => -1n, () => 2n ** 64n, () => 2n ** 40n,
  () => '', () => '1', () => 'linear', () => 'float32', () => '__proto__', () => 'constructor', () => 'x'.repeat(100000),
  () => Symbol('hostile'),
  () => ({}), () => [], () => [1, 2], () => new Array(100).fill(1), () => new Array(2 ** 20),
  // eslint-disable-next-line no-sparse-arrays -- a hole is one of the hostile arrays
  () => [null], () => [undefined], () => [1, , 3], () => [NaN], () => ['1'], () => [1n], () => [-0], () => [2 ** 40, 2 ** 40], () => [2 ** 53],
  () => [{}], () => [[1]], () => [Symbol('s')],
  () => new Float32Array(4), () => new Float64Array(2), () => new Int32Array(3), () => new BigInt64Array(2),
  () => new Uint8ClampedArray(4), () => new Uint16Array(1), () => new DataView(new ArrayBuffer(8)), () => new ArrayBuffer(8),
  () => new Float32Array(new SharedArrayBuffer(16)),
  () => detached(Float32Array, 4), () => detached(BigInt64Array, 1), () => detached(Float32Array, 0),
  () => throwingGetterObject('object'), () => throwingProxy('object'), () => revokedProxy(),
  () => label(Object.create(null), 'Object.create(null)'),
  () => label(function f() {}, 'function'), () => new Date(0), () => /re/, () => new Map(), () => label(Promise.resolve(1), 'Promise'),
  () => label({ valueOf() { return 2; }, toString() { return '2'; } }, '{valueOf: 2}'),
  () => label({ valueOf() { throw new UserError('valueOf'); }, toString() { throw new UserError('toString'); } }, '{valueOf/toString throw}'),
  () => label({ [Symbol.toPrimitive]() { throw new UserError('toPrimitive'); } }, '{toPrimitive throws}'),
  () => label({ type: 'float32', dims: [2], data: new Float32Array(3) }, '{float32 [2] with 3 values}'),
  () => label({ type: 'float32', dims: [2 ** 40, 0], data: new Float32Array(0) }, '{float32 [2**40, 0]}'),
  () => label({ type: 'float32', dims: [1, 1, 0, 2 ** 40, 2 ** 40], data: new Float32Array(0) }, '{float32 [1,1,0,2**40,2**40]}'),
  () => label({ type: 'float32', dims: new Array(100).fill(1), data: new Float32Array(1) }, '{float32 rank 100}'),
  () => label({ type: 'float32', dims: new Array(33).fill(1), data: new Float32Array(1) }, '{float32 rank 33}'),
  () => label({ type: 'float32', dims: [], data: new Float32Array(1) }, '{float32 rank 0}'),
  () => label({ type: 'int64', dims: [2], data: new BigInt64Array([2n ** 62n, -1n]) }, '{int64 [2**62, -1]}'),
];

// A variant of the value already in the slot, or a hostile value. Returns [value, benign]:
// benign variants (freezing, a pass-through Proxy of a plain object or array) must not
// change the result.
function containsPlaceholder(v, depth = 0) {
  if (isPlaceholder(v)) return true;
  if (v === null || typeof v !== 'object' || LABELS.has(v) || ArrayBuffer.isView(v) || depth > 5) return false;
  return Object.keys(v).some((k) => containsPlaceholder(v[k], depth + 1));
}

function hostileFor(r, orig, where) {
  const isObj = orig !== null && typeof orig === 'object';
  if (isObj && LABELS.has(orig)) return [r.pick(SIMPLE)(), false]; // already hostile, or a placeholder
  // (a frozen or proxied container could not take the wasm tensors made for its placeholders)
  const plain = isObj && (Array.isArray(orig) || Object.getPrototypeOf(orig) === Object.prototype) && !containsPlaceholder(orig);
  const k = r.int(12);
  if (plain && k === 0) { const text = `frozen ${show(orig)}`; return [label(Object.freeze(orig), text), true]; }
  if (plain && k === 1) return [label(new Proxy(orig, {}), `Proxy(${show(orig)})`), true];
  if (plain && !Array.isArray(orig) && k === 2) {
    // the same object, one of its keys a throwing getter
    const keys = Object.keys(orig);
    if (keys.length) {
      const key = r.pick(keys);
      const copy = { ...orig };
      Object.defineProperty(copy, key, { get() { throw new UserError(`${where}.${key}`); }, enumerable: true });
      return [label(copy, `${show(orig)} with a throwing getter for '${key}'`), false];
    }
  }
  if (plain && Array.isArray(orig) && k === 2) {
    const copy = orig.slice();
    const i = r.int(Math.max(copy.length, 1));
    Object.defineProperty(copy, i, { get() { throw new UserError(`${where}[${i}]`); }, enumerable: true });
    return [label(copy, `${show(orig)} with a throwing getter at [${i}]`), false];
  }
  if (ArrayBuffer.isView(orig) && !(orig instanceof DataView) && k <= 2) {
    // the same elements in another TypedArray kind, detached, or a Proxy of the array
    if (k === 0) {
      const Other = r.pick([Float32Array, Float64Array, Int32Array, Uint8Array, Uint16Array, BigInt64Array, Uint8ClampedArray]);
      if (Other === BigInt64Array) return [new BigInt64Array(orig.length), false];
      return [Other.from(orig, Number), false];
    }
    if (k === 1) return [detached(orig.constructor, orig.length), false];
    return [label(new Proxy(orig, {}), `Proxy(${orig.constructor.name}[${orig.length}])`), false];
  }
  if (Array.isArray(orig) && k === 3) {
    const long = orig.concat(new Array(100 - Math.min(orig.length, 99)).fill(1));
    return [long, false];
  }
  if (typeof orig === 'number' && Number.isFinite(orig) && k === 3) return [r.pick([-orig, orig + 0.5, orig * 2 ** 40, BigInt(Math.trunc(orig)), String(orig)]), false];
  return [r.pick(SIMPLE)(), false];
}

// Every [container, key] inside the arguments where a mutation can land.
function slots(root) {
  const out = [];
  const seen = new Set();
  const walk = (obj, depth) => {
    if (seen.has(obj) || depth > 5) return;
    seen.add(obj);
    for (const k of Object.keys(obj)) {
      out.push([obj, k]);
      const v = obj[k];
      // Hostile objects (labelled) are leaves: looking inside could run their traps.
      if (v === null || typeof v !== 'object' || LABELS.has(v) || ArrayBuffer.isView(v)) continue;
      if (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype) walk(v, depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

function deepCopy(v) {
  if (v === null || typeof v !== 'object' || isPlaceholder(v)) return v;
  if (ArrayBuffer.isView(v)) return v.slice();
  if (Array.isArray(v)) return v.map(deepCopy);
  const o = {};
  for (const k of Object.keys(v)) o[k] = deepCopy(v[k]);
  return o;
}

// One iteration's case: what to call and how to describe it. Pure (no sampler involved),
// so the main thread can rebuild the case of an iteration that hung.
// Ways to misuse a tensor in wasm memory, applied by the worker once it exists.
// 'small-dims' / 'small-type': the tensor is allocated smaller than its placeholder (one
// element / a 1-byte type), then its public dims / type are reassigned to the placeholder's,
// so that the call's shapes agree and only the allocation is too small. A call that trusts
// them writes past the block (an output) or reads past it (an input); writing can wreck
// the module's heap for every later call, so these run only in the last phase of the loop
// (LAST_PHASE), which stops at the first such write.
const WASM_MUTATIONS = ['dispose', 'dims', 'type', 'size', 'alias'];
const WASM_MUTATIONS_LAST = [...WASM_MUTATIONS, 'small-dims', 'small-type', 'small-dims', 'small-type'];
const LAST_PHASE = 0.85; // fraction of the iterations before it

function makeCase(r, lastPhase = false) {
  const base = baseCall(r);
  const original = deepCopy(base.args);
  const placeholders = [];
  (function find(v, depth) {
    if (isPlaceholder(v)) { if (!placeholders.includes(v)) placeholders.push(v); return; }
    if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && depth < 6) for (const k of Object.keys(v)) find(v[k], depth + 1);
  })(base.args, 0);
  let wasmMutation = null;
  if (placeholders.length && r.chance(lastPhase ? 0.6 : 0.25)) {
    wasmMutation = { kind: r.pick(lastPhase ? WASM_MUTATIONS_LAST : WASM_MUTATIONS), index: r.int(placeholders.length) };
    if (wasmMutation.kind === 'alias') {
      // the output (the last placeholder) is made the same tensor as an input
      wasmMutation.index = placeholders.length - 1;
      wasmMutation.with = r.int(placeholders.length);
    }
  }
  // (an edge case stays as it is: it is there to be checked as a valid call)
  const n = base.edge || r.chance(0.15) ? 0 : r.range(1, 3);
  const changes = [];
  let benign = true;
  const args = base.args;
  for (let i = 0; i < n; i++) {
    const all = slots(args);
    const [obj, key] = r.pick(all);
    const where = key;
    if (r.chance(0.1) && obj !== args) {
      delete obj[key];
      changes.push(`deleted '${key}'`);
      benign = false;
      continue;
    }
    const [v, ok] = hostileFor(r, obj[key], where);
    changes.push(`${key} := ${show(v)}`);
    obj[key] = v;
    benign = benign && ok;
  }
  if (!base.api.startsWith('run') && r.chance(0.03)) {
    args.push(r.pick(SIMPLE)()); // an extra argument is ignored
    changes.push('an extra argument');
  }
  if (wasmMutation) changes.push(`wasm tensor #${wasmMutation.index}: ${wasmMutation.kind}${wasmMutation.kind === 'alias' ? ` with #${wasmMutation.with}` : ''}`);
  const mutated = n > 0 || wasmMutation !== null;
  return {
    api: base.api, args, original, mutated, benign: n > 0 && benign && !wasmMutation, wasmMutation,
    describe: () => `${base.api}(${show(original).slice(1, -1)})${changes.length ? ` with ${changes.join('; ')}` : ''}`,
  };
}

// ---------------------------------------------------------------- making and checking calls

const TENSOR_TYPES = new Set(Object.keys(TYPED));

// A tensor the API made, or (lenient: the caller's own object, as *Into returns it) one the
// API accepted as output, whose dims may hold BigInts.
function checkTensor(t, lenient = false) {
  if (t === null || typeof t !== 'object') return `result is ${show(t)}, not a tensor`;
  if (!TENSOR_TYPES.has(t.type)) return `result type ${show(t.type)}`;
  const dims = lenient && Array.isArray(t.dims) ? Array.from(t.dims, (d) => (typeof d === 'bigint' ? Number(d) : d)) : t.dims;
  if (!Array.isArray(dims) || !dims.every((d) => Number.isSafeInteger(d) && d >= 0)) return `result dims ${show(dims)}`;
  const data = t.data;
  if (!ArrayBuffer.isView(data) || data instanceof DataView) return `result data ${show(data)}`;
  if (data.length !== count(dims)) return `result data has ${data.length} elements for dims [${dims}]`;
  return null;
}

function checkImage(im) {
  if (im === null || typeof im !== 'object') return `result is ${show(im)}, not an image`;
  const { width, height, data } = im;
  if (!Number.isSafeInteger(width) || width < 1 || !Number.isSafeInteger(height) || height < 1) return `image size ${show(width)} x ${show(height)}`;
  if (!(data instanceof Uint8ClampedArray) || data.length !== width * height * 4) return `image data ${show(data)} for ${width} x ${height}`;
  return null;
}

function bytesOf(v) {
  const d = v.data;
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}
function sameResult(a, b) {
  const x = bytesOf(a), y = bytesOf(b);
  return String(a.dims ?? [a.width, a.height]) === String(b.dims ?? [b.width, b.height]) &&
    x.length === y.length && x.every((v, i) => v === y[i]);
}

// Makes the wasm tensors of the placeholders in args (in place), each between two canary
// blocks, and applies the case's wasm mutation. Returns what to check and free afterwards.
const CANARY_BYTES = 40;
function materialize(sampler, c) {
  const made = new Map(); // placeholder -> { t, canaries, snapshot }
  const order = [];
  const canaries = [];
  const canary = (fill) => {
    const k = sampler.tensor('uint8', [CANARY_BYTES]);
    k.data.fill(fill);
    canaries.push({ k, fill });
  };
  const m = c.wasmMutation;
  const make = (ph) => {
    if (made.has(ph)) return made.get(ph).t;
    const small = m && order.length === m.index && (m.kind === 'small-dims' || m.kind === 'small-type') ? m.kind : null;
    canary(0xa5);
    let t;
    if (small === 'small-dims') {
      t = sampler.tensor(ph.type, ph.dims.length ? [1] : []);
    } else if (small === 'small-type') {
      t = sampler.tensor('uint8', ph.dims);
    } else {
      t = sampler.tensor(ph.type, ph.dims);
      t.data.set(ph.values);
    }
    canary(0x5a);
    if (small) {
      const { type, dims, size } = t;
      // Read-only fields refuse the reassignment: then the tensor simply is small.
      const changed = reassign(t, { dims: ph.dims.slice(), type: ph.type, size: count(ph.dims) });
      made.set(ph, changed ? { t, small, restore: () => reassign(t, { type, dims, size }) } : { t });
    } else {
      made.set(ph, { t });
    }
    order.push(ph);
    return t;
  };
  const walk = (obj, depth) => {
    if (depth > 6) return;
    for (const k of Object.keys(obj)) {
      const d = Object.getOwnPropertyDescriptor(obj, k);
      if (!d || !('value' in d)) continue;
      const v = d.value;
      if (isPlaceholder(v)) {
        if (d.writable) obj[k] = make(v);
      } else if (v !== null && typeof v === 'object' && !LABELS.has(v) && !ArrayBuffer.isView(v) &&
        (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)) {
        walk(v, depth + 1);
      }
    }
  };
  if (m && m.kind === 'alias') {
    // Resolve the alias before making tensors: the output placeholder becomes the input's.
    const phs = [];
    (function find(v, depth) {
      if (isPlaceholder(v)) { if (!phs.includes(v)) phs.push(v); return; }
      if (v !== null && typeof v === 'object' && !LABELS.has(v) && !ArrayBuffer.isView(v) && depth < 6) for (const k of Object.keys(v)) find(v[k], depth + 1);
    })(c.args, 0);
    const out = phs[m.index], other = phs[m.with];
    if (out && other) made.set(out, { t: make(other) });
  }
  walk(c.args, 0);
  const inputs = [];
  let restore = null, small = null;
  for (const ph of order) {
    const e = made.get(ph);
    if (e.restore) { restore = e.restore; small = e.t; } // not compared (it reads past its end)
    else inputs.push({ t: e.t, before: e.t.data.slice() });
  }
  if (m && ['dispose', 'dims', 'type', 'size'].includes(m.kind)) {
    const target = made.get(order[m.index])?.t;
    if (target) {
      const { type, dims, size } = target;
      restore = () => reassign(target, { type, dims, size });
      const bigger = { float32: 'float64', float64: 'float64', int8: 'int32', uint8: 'int64', int16: 'float64', uint16: 'float32', int32: 'int64', uint32: 'float64', int64: 'int64', uint64: 'uint64', bool: 'float64', float16: 'float64', bfloat16: 'uint64' };
      if (m.kind === 'dispose') target.dispose();
      if (m.kind === 'dims') reassign(target, { dims: target.dims.length ? [...target.dims.slice(0, -1), target.dims.at(-1) * 4 + 4] : [16] });
      if (m.kind === 'type') reassign(target, { type: bigger[target.type] });
      if (m.kind === 'size') reassign(target, { size: target.size * 16 + 64 });
    }
  }
  return { made: [...new Set([...made.values()].map((e) => e.t))], inputs, canaries, restore, small };
}

// Sets public fields of a wasm tensor as a user would (plain assignment); returns whether
// they took (read-only fields throw in strict code, or keep their value).
function reassign(t, fields) {
  let changed = false;
  for (const [k, v] of Object.entries(fields)) {
    const before = t[k];
    try {
      t[k] = v;
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
    }
    changed = changed || (before !== v && t[k] === v);
  }
  return changed;
}

// After the call: canaries intact (nothing written outside the tensors), then free all.
// free() itself traps when the call overwrote malloc's bookkeeping next to a block.
function cleanup(w, outputTensor) {
  try {
    return cleanupUnsafe(w, outputTensor);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) return `the module's heap is corrupt: freeing the call's tensors trapped (${e.message})`;
    throw e;
  }
}
function cleanupUnsafe(w, outputTensor) {
  let problem = null;
  if (w.restore) w.restore(); // undo a reassigned type/dims/size, to read and free it as made
  for (const { k, fill } of w.canaries) {
    const bad = k.data.findIndex((v) => v !== fill);
    if (bad >= 0 && !problem) problem = `wasm memory outside the call's tensors was overwritten (a canary block changed at byte ${bad})`;
  }
  for (const { t, before } of w.inputs) {
    if (t === outputTensor || t.disposed) continue;
    const now = t.data;
    if (now.length === before.length && !now.every((v, i) => Object.is(v, before[i]) || (v !== v && before[i] !== before[i]))) {
      // a wasm tensor that was only an input must not change (unless it also was the output)
      if (!problem && !w.outputs?.has(t)) problem = 'a wasm-memory input tensor was modified';
    }
  }
  for (const t of w.made) t.dispose();
  for (const { k } of w.canaries) k.dispose();
  return problem;
}

// obj[key] without running a getter or a Proxy trap (undefined for those).
function safeGet(obj, key) {
  if (obj === null || typeof obj !== 'object' || LABELS.has(obj)) return undefined;
  const d = Object.getOwnPropertyDescriptor(obj, key);
  return d && 'value' in d ? d.value : undefined;
}

// Runs one case; returns [problem or null, outcome name, fatal].
function runCase(sampler, c) {
  let w;
  try {
    w = materialize(sampler, c);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) return [`the module's heap is corrupt: sampler.tensor() trapped before the call (${e.message})`, 'harness', true];
    throw e;
  }
  const outputs = new Set();
  if (c.api.endsWith('Into')) {
    const out = c.api === 'runInto' ? safeGet(safeGet(c.args, 2), 0) : safeGet(c.args, c.api === 'gridSampleInto' ? 2 : 1);
    for (const t of w.made) if (t === out) outputs.add(t);
  }
  w.outputs = outputs;
  let result, error, problem = null, outcome;
  try {
    result = sampler[c.api](...c.args);
  } catch (e) {
    error = e;
  }
  if (error !== undefined) {
    outcome = error?.name ?? typeof error;
    if (error instanceof UserError) {
      // the caller's own exception, as it is
    } else if (error instanceof TypeError || error instanceof RangeError) {
      if (error.constructor !== TypeError && error.constructor !== RangeError) problem = `threw a subclass ${error.constructor.name}: ${error.message}`;
      else if (!c.mutated) problem = `a valid call threw ${error.name}: ${error.message}`;
      else if (c.benign) problem = `a call changed only by freezing/pass-through Proxies threw ${error.name}: ${error.message}`;
    } else {
      const name = error?.constructor?.name ?? typeof error;
      problem = `threw ${name}${error instanceof WebAssembly.RuntimeError ? ' (wasm trap)' : ''}: ${error?.message ?? String(error)}`;
    }
  } else {
    outcome = 'ok';
    if (w.small) {
      // The tensor's allocation is smaller than its (reassigned) dims / type say: the call
      // must refuse it, not write (output) or read (input) past the end of the block.
      const bytes = count(w.small.dims) * (TYPED[w.small.type]?.BYTES_PER_ELEMENT ?? 1);
      const asOutput = outputs.has(w.small);
      const memory = cleanup(w, null);
      const what = `accepted a wasm tensor whose dims/type were reassigned after tensor() (${bytes} bytes for a smaller block) and ${asOutput ? 'wrote' : 'read'} past its end`;
      return [memory ? `${what}: ${memory}` : what, outcome, asOutput || memory !== null];
    }
    problem = checkResult(c, result);
    if (!problem && c.benign && !c.api.endsWith('Into') && c.api !== 'tensor') {
      // the same call without the freezing / Proxies gives the same result
      const w0 = materialize(sampler, { ...c, args: c.original, wasmMutation: null });
      try {
        const ref = sampler[c.api](...c.original);
        const a = c.api === 'run' ? ref[0] : ref, b = c.api === 'run' ? result[0] : result;
        if (!sameResult(a, b)) problem = 'freezing / pass-through Proxies changed the result';
      } catch (e) {
        problem = `the unmutated call threw ${e?.name}: ${e?.message}`;
      } finally {
        cleanup(w0, null);
      }
    }
    if (c.api === 'tensor' && result && typeof result.dispose === 'function') result.dispose();
  }
  const memory = cleanup(w, outputs.values().next().value ?? null);
  if (memory) return [memory, outcome, true];
  return [problem, outcome, false];
}

function checkResult(c, result) {
  switch (c.api) {
    case 'run': return Array.isArray(result) && result.length === 1 ? checkTensor(result[0]) : `run() returned ${show(result)}`;
    case 'runInto': return result === c.args[2] ? checkTensor(safeGet(result, 0) ?? result[0], true) : 'runInto() did not return its outputs array';
    case 'resizeInto': case 'upsampleInto': return result === c.args[1] ? checkTensor(result, true) : `${c.api}() did not return its output`;
    case 'gridSampleInto': return result === c.args[2] ? checkTensor(result, true) : 'gridSampleInto() did not return its output';
    case 'tensor': {
      const bad = checkTensor(result);
      if (bad) return bad;
      return result.type === c.args[0] ? null : `tensor() made a '${result.type}' tensor for type ${show(c.args[0])}`;
    }
    case 'tensorToImageData': case 'resizeImage': return checkImage(result);
    default: return checkTensor(result);
  }
}

// ---------------------------------------------------------------- the worker: the loop

async function workerMain() {
  const { seed, iterations, entry, shared, started } = workerData;
  const progress = new Int32Array(shared); // [iteration, in call (0/1), ms at call start]
  const { createSampler } = await import(entry);
  const sampler = await createSampler();
  const r = makeRng(seed);
  const failures = [];
  const tally = {};
  const t0 = Date.now();
  let i = 0;
  for (; i < iterations; i++) {
    const c = makeCase(r, i >= iterations * LAST_PHASE);
    Atomics.store(progress, 2, Date.now() - started);
    Atomics.store(progress, 0, i);
    Atomics.store(progress, 1, 1);
    let problem, outcome, fatal;
    try {
      [problem, outcome, fatal] = runCase(sampler, c);
    } catch (e) {
      [problem, outcome, fatal] = [`the harness itself threw: ${e?.stack ?? e}`, 'harness', false];
    }
    Atomics.store(progress, 1, 0);
    tally[outcome] = (tally[outcome] ?? 0) + 1;
    if (problem) {
      failures.push({ i, problem, call: c.describe() });
      // After memory was overwritten the module's heap cannot be trusted: stop there.
      if (fatal || failures.length >= 25) { i++; break; }
    }
  }
  // One ordinary call after everything: the module must still compute correctly.
  let final = null;
  try {
    const y = sampler.resize({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) }, { mode: 'linear', sizes: [1, 1, 4, 4] });
    const want = [1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4];
    if (y.dims.join() !== '1,1,4,4' || !want.every((v, k) => y.data[k] === v)) final = `wrong result after the loop: ${show(y.data)}`;
    const g = sampler.gridSample({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) },
      { type: 'float32', dims: [1, 1, 1, 2], data: new Float32Array([0, 0]) }, { alignCorners: true });
    if (g.data[0] !== 2.5) final = `wrong gridSample result after the loop: ${g.data[0]}`;
  } catch (e) {
    final = `an ordinary call threw after the loop: ${e?.name}: ${e?.message}`;
  }
  parentPort.postMessage({ failures, final, tally, ms: Date.now() - t0, done: i });
}

// ---------------------------------------------------------------- the main thread: the test

if (!isMainThread && workerData?.fuzzApi) {
  await workerMain();
} else {
  test(`API fuzz: ${ITERATIONS} random and malformed calls give a tensor, a TypeError or a RangeError (seed ${SEED})`, async () => {
    const shared = new SharedArrayBuffer(12);
    const progress = new Int32Array(shared);
    const started = Date.now();
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { fuzzApi: true, seed: SEED, iterations: ITERATIONS, entry: ENTRY, shared, started },
    });
    const outcome = await new Promise((resolve) => {
      const timer = setInterval(() => {
        const inCall = Atomics.load(progress, 1) === 1;
        const callMs = Date.now() - started - Atomics.load(progress, 2);
        if ((inCall && callMs > HANG_MS) || Date.now() - started > TOTAL_MS) {
          clearInterval(timer);
          resolve({ hang: { i: Atomics.load(progress, 0), ms: inCall ? callMs : Date.now() - started } });
        }
      }, 100);
      worker.on('message', (m) => { clearInterval(timer); resolve({ result: m }); });
      worker.on('error', (e) => { clearInterval(timer); resolve({ crash: e }); });
      worker.on('exit', (code) => { clearInterval(timer); resolve({ crash: new Error(`worker exited with code ${code}`) }); });
    });
    await worker.terminate();
    if (outcome.hang) {
      // Rebuild the case of the iteration that hung (cases depend only on the seed).
      const r = makeRng(SEED);
      let c;
      for (let k = 0; k <= outcome.hang.i; k++) c = makeCase(r, k >= ITERATIONS * LAST_PHASE);
      assert.fail(`iteration ${outcome.hang.i} did not return within ${outcome.hang.ms} ms (seed ${SEED}): ${c.describe()}`);
    }
    if (outcome.crash) assert.fail(`the fuzz worker died: ${outcome.crash.stack ?? outcome.crash}`);
    const { failures, final, tally, ms, done } = outcome.result;
    console.log(`fuzz-api: ${done} iterations in ${ms} ms; outcomes ${JSON.stringify(tally)}`);
    const lines = failures.map((f) => `#${f.i}: ${f.problem}\n    call: ${f.call}`);
    assert.equal(failures.length, 0, `${failures.length} calls broke the contract (seed ${SEED}):\n${lines.join('\n')}`);
    assert.equal(final, null, final ?? '');
  });
}
