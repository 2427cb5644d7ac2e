// types.test.mjs: every element type through the public API of the installed package:
// Resize (nearest, linear, cubic, antialias) and GridSample on random small tensors, against
// the slow reference (reference.mjs, float64) with the integer policy applied: round half
// to even and saturate; float16/bfloat16 within one unit of their last place; nearest
// bit-exact, int64 values beyond 2^53 included.
import test from 'node:test';
import assert from 'node:assert/strict';
import { importPackage } from './package.mjs';
import { referenceResize, referenceGridSample } from './reference.mjs';
import { mulberry32 } from './rng.mjs';

const { createSampler, TENSOR_TYPES } = await importPackage();
const s = await createSampler();

// A small seeded PRNG (rng.mjs).
const rng = mulberry32;

const INT = {
  int8: [-128, 127, Int8Array], uint8: [0, 255, Uint8Array], int16: [-32768, 32767, Int16Array],
  uint16: [0, 65535, Uint16Array], int32: [-(2 ** 31), 2 ** 31 - 1, Int32Array], uint32: [0, 2 ** 32 - 1, Uint32Array],
  int64: [-(2 ** 63), 2 ** 63, BigInt64Array], uint64: [0, 2 ** 64, BigUint64Array], bool: [0, 1, Uint8Array],
};

// float16 / bfloat16 bits <-> numbers, written from the IEEE layouts.
function halfToNumber(h) {
  const sgn = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return sgn * m * 2 ** -24;
  if (e === 31) return m ? NaN : sgn * Infinity;
  return sgn * (1 + m / 1024) * 2 ** (e - 15);
}
const f32buf = new Float32Array(1), u32buf = new Uint32Array(f32buf.buffer);
function bf16ToNumber(b) { u32buf[0] = b << 16; return f32buf[0]; }
function numberToBf16(v) { f32buf[0] = v; return u32buf[0] >>> 16; }   // truncation: inputs only
function numberToHalf(v) {                                              // inputs only: exact values
  for (let h = 0; h < 0x7c00; h++) if (halfToNumber(h) === Math.abs(v)) return h | (v < 0 ? 0x8000 : 0);
  throw new Error(`not a half: ${v}`);
}
const HALVES = Array.from({ length: 200 }, (_, i) => (i - 100) / 4);   // exact in float16

function rne(v) {
  const f = Math.floor(v), d = v - f;
  return d < 0.5 ? f : d > 0.5 ? f + 1 : (f % 2 === 0 ? f : f + 1);
}

function makeTensor(type, dims, r) {
  const n = dims.reduce((a, b) => a * b, 1);
  if (type === 'float16') {
    const data = new Uint16Array(n), values = new Float64Array(n);
    for (let i = 0; i < n; i++) { values[i] = HALVES[Math.floor(r() * HALVES.length)]; data[i] = numberToHalf(values[i]); }
    return { t: { type, dims, data }, values };
  }
  if (type === 'bfloat16') {
    const data = new Uint16Array(n), values = new Float64Array(n);
    for (let i = 0; i < n; i++) { data[i] = numberToBf16((r() - 0.5) * 200); values[i] = bf16ToNumber(data[i]); }
    return { t: { type, dims, data }, values };
  }
  const [lo, hi, A] = INT[type];
  const data = new A(n), values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const pick = r();
    let v = pick < 0.15 ? lo : pick < 0.3 ? (type === 'int64' || type === 'uint64' ? hi - 2 ** 11 : hi) : Math.floor(lo / 2 + r() * (hi - lo) / 2);
    if (type === 'bool') v = r() < 0.5 ? 0 : 1;
    if (A === BigInt64Array || A === BigUint64Array) {
      data[i] = BigInt(v);
      values[i] = Number(data[i]);
    } else {
      data[i] = v;
      values[i] = data[i];
    }
  }
  return { t: { type, dims, data }, values };
}

// Our output element as a number.
function num(type, v) {
  if (type === 'float16') return halfToNumber(v);
  if (type === 'bfloat16') return bf16ToNumber(v);
  return Number(v);
}

// What the integer policy makes of the reference's float64 value e.
function expectInt(type, e) {
  const [lo, hi] = INT[type];
  if (Number.isNaN(e)) return 0;
  return Math.max(lo, Math.min(type === 'int64' || type === 'uint64' ? hi : hi, rne(e)));
}

function check(type, ours, ref, values, exactCopies, what) {
  const maxAbs = values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  for (let i = 0; i < ref.data.length; i++) {
    const e = ref.data[i], a = num(type, ours.data[i]);
    let ok;
    if (type === 'float16' || type === 'bfloat16') {
      const ulp = type === 'float16' ? 2 ** -10 : 2 ** -7;
      ok = a === e || Math.abs(a - e) <= ulp * Math.abs(e) * 1.01 + 1e-3;
    } else if (exactCopies) {
      ok = a === e;
    } else {
      // The sum in the compute type (float32 for 8/16-bit and bool) may land a hair from a
      // .5 tie; anything else rounds as the policy says.
      // (2^-46 for the double sums of 16+ taps of 64-bit magnitudes: a few ulps each.)
      const tol = maxAbs * (['int32', 'uint32', 'int64', 'uint64'].includes(type) ? 2 ** -46 : 2 ** -20) + 1e-3;
      const want = expectInt(type, e);
      ok = a === want || (Math.abs(e - Math.floor(e) - 0.5) < tol && Math.abs(a - want) <= 1) || Math.abs(a - want) <= tol * 2;
    }
    if (!ok) assert.fail(`${what}: element ${i}: ours ${a}, reference ${e}`);
  }
}

const TYPES = ['float16', 'bfloat16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'];

test('every type the API lists is exercised here or by the float tests', () => {
  for (const t of TENSOR_TYPES) assert.ok(TYPES.includes(t) || t === 'float32' || t === 'float64', t);
});

for (const type of TYPES) {
  test(`Resize and GridSample on ${type}`, () => {
    const r = rng(TYPES.indexOf(type) + 101);
    let cases = 0;
    for (let c = 0; c < 40; c++) {
      const rank = 1 + Math.floor(r() * 3);
      const dims = Array.from({ length: rank }, () => 1 + Math.floor(r() * 5));
      const sizes = dims.map(() => 1 + Math.floor(r() * 7));
      const { t, values } = makeTensor(type, dims, r);
      const mode = ['nearest', 'linear', 'cubic'][c % 3];
      const antialias = c % 4 === 1 && mode !== 'nearest';
      const coord = ['half_pixel', 'align_corners', 'asymmetric', 'pytorch_half_pixel'][Math.floor(r() * 4)];
      const y = s.resize(t, { sizes, mode, antialias, coordinateTransformationMode: coord });
      assert.equal(y.type, type);
      assert.ok(y.data instanceof t.data.constructor);
      const ref = referenceResize({ type: 'float64', dims, data: values }, { mode, coord, antialias, sizes, nearestMode: 'round_prefer_floor', cubicA: -0.75 });
      assert.deepEqual(y.dims, ref.dims);
      check(type, y, ref, values, mode === 'nearest', `resize ${mode}${antialias ? ' antialias' : ''} ${coord} [${dims}] -> [${sizes}]`);
      if (mode === 'nearest') {
        // Bit-exact copies: every output is one of the inputs, bits and all.
        const inputs = new Set(Array.from(t.data, String));
        for (const v of y.data) assert.ok(inputs.has(String(v)), `nearest produced ${v}`);
      }
      cases++;
    }
    for (let c = 0; c < 20; c++) {
      const sp = 1 + Math.floor(r() * 2);
      const dims = [1, 2, ...Array.from({ length: sp }, () => 1 + Math.floor(r() * 4))];
      const gdims = [1, ...Array.from({ length: sp }, () => 1 + Math.floor(r() * 3)), sp];
      const gn = gdims.reduce((a, b) => a * b, 1);
      const grid = { type: 'float32', dims: gdims, data: Float32Array.from({ length: gn }, () => Math.fround((r() - 0.5) * 2.6)) };
      const { t, values } = makeTensor(type, dims, r);
      const mode = ['nearest', 'linear', 'cubic'][c % 3];
      const paddingMode = ['zeros', 'border', 'reflection'][Math.floor(r() * 3)];
      const alignCorners = r() < 0.5;
      const y = s.gridSample(t, grid, { mode, paddingMode, alignCorners });
      const ref = referenceGridSample({ type: 'float64', dims, data: values }, grid, { mode, padding: paddingMode, alignCorners });
      check(type, y, ref, values, mode === 'nearest', `gridSample ${mode} ${paddingMode} ${alignCorners}`);
      cases++;
    }
    assert.equal(cases, 60);
  });
}

test('int64 beyond 2^53 comes through nearest bit for bit', () => {
  const big = 2n ** 62n + 12345n;
  const x = { type: 'int64', dims: [2], data: BigInt64Array.from([big, -big]) };
  const y = s.resize(x, { sizes: [4], mode: 'nearest' });
  assert.deepEqual(Array.from(y.data), [big, big, -big, -big]);
  const u = { type: 'uint64', dims: [1, 1, 1, 2], data: BigUint64Array.from([2n ** 64n - 1n, 3n]) };
  const g = s.gridSample(u, { type: 'float64', dims: [1, 1, 1, 2], data: Float64Array.from([-0.5, 0]) }, { mode: 'nearest' });
  assert.equal(g.data[0], 2n ** 64n - 1n);
});

test('NaN, Inf and -0.0 in float inputs', () => {
  const x = { type: 'float32', dims: [4], data: Float32Array.from([1, NaN, -0, Infinity]) };
  const y = s.resize(x, { scales: [2], mode: 'linear', coordinateTransformationMode: 'asymmetric' });
  assert.equal(y.data[0], 1);
  assert.ok(Number.isNaN(y.data[1]) && Number.isNaN(y.data[2]) && Number.isNaN(y.data[3]));
  assert.ok(Object.is(y.data[4], -0));
  assert.equal(y.data[6], Infinity);
  const h = s.resize({ type: 'float16', dims: [2], data: Uint16Array.from([0x7c00, 0x3c00]) }, { sizes: [4], mode: 'nearest' });
  assert.deepEqual(Array.from(h.data), [0x7c00, 0x7c00, 0x3c00, 0x3c00]);
});
