// property.test.mjs — owns the randomised comparison of the public API against the slow
// references in tests/js/reference.mjs.
//
// Every case is generated from its own seed (derived from a fixed master seed and the case
// number), so a failure reproduces: the message prints the seed and the case. To replay
// one case, set OSW_PROPERTY_SEED=<master seed> and OSW_PROPERTY_CASE=<name>, e.g.
// OSW_PROPERTY_CASE=resize#17.
//
//   resize#i      ~300 Resize cases through sampler.run (opset 19, 18, 13, 11, 10) and
//                 sampler.resize: ranks 1..5, every mode, coordinate mode and nearest mode,
//                 cubic_coeff_a, exclude_outside, antialias, scales or sizes, axes,
//                 keep_aspect_ratio_policy, tf_crop_and_resize, empty axes, NaN in X
//   grid#i        ~150 GridSample cases through sampler.gridSample and run (opset 16/20/22)
//   upsample#i    Upsample-7 (attribute scales), Upsample-9 (input scales), sampler.upsample
//
// Tolerances: float32 X 1e-5 * (1 + |e|); float64 X 1e-12 * (1 + |e|) for Resize and
// Upsample, 1e-9 * (1 + |e|) for GridSample; nearest Resize is exact. NaN equals NaN.
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { referenceResize, referenceGridSample, resizeAxes } from './reference.mjs';
import { importPackage } from './package.mjs';
import { mulberry32 } from './rng.mjs';

// ---------------------------------------------------------------- package loading

const samplerPromise = importPackage().then((m) => m.createSampler());
samplerPromise.catch(() => {});

// ---------------------------------------------------------------- seeded PRNG

// Test-case helpers over the shared mulberry32 generator (rng.mjs).
function prng(seed) {
  const next = mulberry32(seed);
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), // inclusive
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    shuffle(arr) {
      const a = arr.slice();
      for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(next() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
      return a;
    },
  };
}

const MASTER_SEED = process.env.OSW_PROPERTY_SEED ? Number(process.env.OSW_PROPERTY_SEED) : 20240611;
const ONLY_CASE = process.env.OSW_PROPERTY_CASE || null;

// Per-case seed: a hash of the master seed, the family and the case number.
function caseSeed(family, i) {
  let h = (MASTER_SEED ^ 0x9e3779b9) >>> 0;
  for (const ch of `${family}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

// ---------------------------------------------------------------- tensors and comparison

const T = (type, dims, data) => ({ type, dims, data });
const f32 = (arr) => T('float32', [arr.length], Float32Array.from(arr));
const f64 = (arr) => T('float64', [arr.length], Float64Array.from(arr));
const i64 = (arr) => T('int64', [arr.length], BigInt64Array.from(arr, (v) => BigInt(v)));
const emptyF32 = () => T('float32', [0], new Float32Array(0));
const ARRAYS = { float32: Float32Array, float64: Float64Array };
const prod = (d) => d.reduce((a, b) => a * b, 1);

function randomData(rng, type, n, nanChance) {
  const a = new ARRAYS[type](n);
  for (let i = 0; i < n; i++) a[i] = rng.uniform(-4, 4);
  if (n > 0 && rng.chance(nanChance)) a[rng.int(0, n - 1)] = NaN;
  return a;
}

// null when equal; otherwise a description of the first mismatches.
function compare(actual, expected, type, tol) {
  if (!actual || typeof actual !== 'object') return `result is ${actual}`;
  if (actual.type !== type) return `type ${actual.type}, expected ${type}`;
  if (!(actual.data instanceof ARRAYS[type])) return `data is a ${actual.data && actual.data.constructor.name}, expected ${ARRAYS[type].name}`;
  const dims = Array.from(actual.dims);
  if (JSON.stringify(dims) !== JSON.stringify(expected.dims)) return `dims [${dims}], expected [${expected.dims}]`;
  if (actual.data.length !== expected.data.length) return `data length ${actual.data.length}, expected ${expected.data.length}`;
  const bad = [];
  let count = 0;
  for (let i = 0; i < expected.data.length; i++) {
    const a = actual.data[i], e = expected.data[i];
    const ok = (Number.isNaN(a) && Number.isNaN(e)) ||
      (tol === 0 ? a === e : Math.abs(a - e) <= tol * (1 + Math.abs(e)));
    if (!ok) {
      count++;
      if (bad.length < 6) bad.push(`[${i}] got ${a}, expected ${e}`);
    }
  }
  return count ? `${count} of ${expected.data.length} elements differ (tol ${tol}): ${bad.join('; ')}` : null;
}

// A case printout for failure messages (X data only when small; the seed regenerates it).
function describeCase(desc) {
  return JSON.stringify(desc, (k, v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (ArrayBuffer.isView(v)) return v.length <= 48 ? Array.from(v, (e) => (typeof e === 'bigint' ? `${e}n` : e)) : `<${v.constructor.name} of ${v.length}>`;
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  });
}

// ---------------------------------------------------------------- Resize cases

const COORDS = {
  10: ['asymmetric'],
  11: ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_half_pixel_for_nn', 'tf_crop_and_resize'],
  18: ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_crop_and_resize'],
  19: ['half_pixel', 'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_crop_and_resize'],
};
const NEAREST = ['round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil'];
const SCALES = [0.1, 0.3, 0.5, 0.6, 0.75, 0.8, 1, 1, 1.25, 1.5, 1.7, 2, 2, 2.5, 3];
const MAX_DIM = [0, 8, 6, 4, 3, 3];

// Work the reference does per case, roughly: output elements x taps per element.
function referenceCost(axes, p) {
  let outN = 1, taps = 1;
  for (const a of axes) {
    outN *= a.outLen;
    if (p.mode === 'nearest') continue;
    const base = p.mode === 'linear' ? 2 : 4;
    taps *= p.antialias && a.scale < 1 && a.scale > 0 ? Math.ceil(base / a.scale) + 2 : base;
  }
  return { outN, work: outN * taps };
}

function genResize(rng) {
  for (;;) {
    const api = rng.pick(['run19', 'run19', 'run19', 'run19', 'resize', 'resize', 'resize', 'run18', 'run18', 'run13', 'run11', 'run10']);
    const opset = api === 'resize' ? 19 : Number(api.slice(3));
    const version = opset >= 19 ? 19 : opset >= 18 ? 18 : opset >= 11 ? 11 : 10;
    const rank = rng.int(1, 5);
    const dims = Array.from({ length: rank }, () => rng.int(1, MAX_DIM[rank]));
    const mode = rng.pick(version === 10 ? ['nearest', 'linear'] : ['nearest', 'linear', 'cubic']);
    const d = { api, opset, xType: rng.pick(['float32', 'float64']), dims, mode };
    if (version >= 11) {
      if (rng.chance(0.9)) d.coord = rng.pick(COORDS[version]);
      if (rng.chance(0.85)) d.nearestMode = rng.pick(NEAREST);
      if (rng.chance(0.6)) d.cubicA = rng.pick([-0.75, -0.5]);
      if (rng.chance(0.35)) d.excludeOutside = 1;
    }
    if (version >= 18 && rng.chance(0.35)) d.antialias = 1;
    let axes = null;
    if (version >= 18 && rank > 1 && rng.chance(0.35)) {
      axes = rng.shuffle([...Array(rank).keys()]).slice(0, rng.int(1, rank)).map((a) => (rng.chance(0.4) ? a - rank : a));
      d.axes = axes;
    }
    const listed = axes ? axes.map((a) => (a < 0 ? a + rank : a)) : [...Array(rank).keys()];
    const useSizes = version >= 11 && rng.chance(0.4);
    if (useSizes) {
      d.sizes = listed.map(() => (rng.chance(0.03) ? 0 : rng.int(1, 7)));
      if (version >= 18 && rng.chance(0.45)) d.policy = rng.pick(['stretch', 'not_larger', 'not_smaller']);
    } else {
      d.scales = listed.map(() => Math.fround(rng.pick(SCALES)));
    }
    const policy = d.policy || 'stretch';
    // empty tensors: a 0-length input axis (with sizes, its output length is 0 too)
    if (rng.chance(0.05) && policy === 'stretch') {
      const ax = rng.int(0, rank - 1);
      dims[ax] = 0;
      if (d.sizes && listed.includes(ax)) d.sizes[listed.indexOf(ax)] = 0;
    }
    const coord = version === 10 ? 'asymmetric' : d.coord || 'half_pixel';
    if (coord === 'tf_crop_and_resize') {
      const starts = listed.map(() => (rng.chance(0.2) ? 0 : rng.uniform(-0.3, 0.6)));
      const ends = listed.map(() => (rng.chance(0.2) ? 1 : rng.uniform(0.4, 1.3)));
      d.roiType = rng.pick(['float32', 'float64']);
      d.roi = [...starts, ...ends].map((v) => (d.roiType === 'float32' ? Math.fround(v) : v));
      if (rng.chance(0.7)) d.extrapolationValue = rng.pick([-1, 0.5, 10, 0.1, -3.25]);
    }
    d.omitted = rng.pick(['null', 'empty']); // how run() marks omitted optional inputs
    const p = referenceParams(d);
    const { outN, work } = referenceCost(resizeAxes(dims, p), p);
    if (outN > 4000 || work > 60000) continue; // keep the reference fast; draw again
    d.nanChance = 0.12;
    return d;
  }
}

// Case -> referenceResize parameters (full rank).
function referenceParams(d) {
  const rank = d.dims.length;
  const version = d.opset >= 19 ? 19 : d.opset >= 18 ? 18 : d.opset >= 11 ? 11 : 10;
  const listed = d.axes ? d.axes.map((a) => (a < 0 ? a + rank : a)) : [...Array(rank).keys()];
  const p = {
    mode: d.mode,
    coord: version === 10 ? 'asymmetric' : d.coord || 'half_pixel',
    nearestMode: version === 10 ? 'opset10' : d.nearestMode || 'round_prefer_floor',
    cubicA: d.cubicA === undefined ? -0.75 : d.cubicA,
    excludeOutside: !!d.excludeOutside,
    antialias: !!d.antialias,
    extrapolationValue: Math.fround(d.extrapolationValue || 0),
    keepAspectRatioPolicy: d.policy || 'stretch',
    axes: listed,
  };
  if (d.scales) {
    p.scales = new Array(rank).fill(1);
    listed.forEach((a, i) => { p.scales[a] = d.scales[i]; });
  } else {
    p.sizes = d.dims.slice();
    listed.forEach((a, i) => { p.sizes[a] = d.sizes[i]; });
  }
  if (d.roi) {
    const n = listed.length;
    p.roi = [...new Array(rank).fill(0), ...new Array(rank).fill(1)];
    listed.forEach((a, i) => { p.roi[a] = d.roi[i]; p.roi[rank + a] = d.roi[n + i]; });
  }
  return p;
}

// Runs a case through the public API.
function runResize(sampler, d, x) {
  if (d.api === 'resize') {
    const o = { mode: d.mode };
    if (d.coord) o.coordinateTransformationMode = d.coord;
    if (d.nearestMode) o.nearestMode = d.nearestMode;
    if (d.cubicA !== undefined) o.cubicCoeffA = d.cubicA;
    if (d.excludeOutside) o.excludeOutside = true;
    if (d.antialias) o.antialias = true;
    if (d.extrapolationValue !== undefined) o.extrapolationValue = d.extrapolationValue;
    if (d.policy) o.keepAspectRatioPolicy = d.policy;
    if (d.axes) o.axes = d.axes;
    if (d.scales) o.scales = d.omitted === 'null' ? d.scales : Float32Array.from(d.scales);
    if (d.sizes) o.sizes = d.omitted === 'null' ? d.sizes : BigInt64Array.from(d.sizes, BigInt);
    if (d.roi) o.roi = d.roi;
    return sampler.resize(x, o);
  }
  const a = { mode: d.mode };
  if (d.coord) a.coordinate_transformation_mode = d.coord;
  if (d.nearestMode) a.nearest_mode = d.nearestMode;
  if (d.cubicA !== undefined) a.cubic_coeff_a = d.cubicA;
  if (d.excludeOutside) a.exclude_outside = 1;
  if (d.antialias) a.antialias = 1;
  if (d.extrapolationValue !== undefined) a.extrapolation_value = d.extrapolationValue;
  if (d.policy) a.keep_aspect_ratio_policy = d.policy;
  if (d.axes) a.axes = d.axes;
  const omit = () => (d.omitted === 'null' ? null : emptyF32());
  let inputs;
  if (d.opset < 11) inputs = [x, f32(d.scales)];
  else {
    const roi = d.roi ? (d.roiType === 'float32' ? f32(d.roi) : f64(d.roi)) : omit();
    inputs = d.scales ? [x, roi, f32(d.scales)] : [x, roi, omit(), i64(d.sizes)];
  }
  const out = sampler.run({ opType: 'Resize', opset: d.opset, attributes: a }, inputs);
  assert.ok(Array.isArray(out) && out.length === 1, 'run() returns an array of one tensor');
  return out[0];
}

// ---------------------------------------------------------------- GridSample cases

const GRID_SPATIAL = { 1: [1, 7], 2: [1, 5], 3: [1, 3] };
const GRID_OUT = { 1: [1, 6], 2: [1, 4], 3: [1, 3] };

// Case i uses mode x padding x align_corners combination i % 18, so every combination
// is drawn; the rest is random.
const GRID_COMBOS = [];
for (const m of ['linear', 'nearest', 'cubic']) for (const pad of ['zeros', 'border', 'reflection']) for (const a of [0, 1]) GRID_COMBOS.push([m, pad, a]);

function genGrid(rng, i) {
  const [combMode, combPadding, combAlign] = GRID_COMBOS[i % GRID_COMBOS.length];
  const api = rng.pick(['gridSample', 'gridSample', 'run22', 'run22', 'run20', 'run16']);
  const opset = api === 'gridSample' ? 22 : Number(api.slice(3));
  const rank = opset === 16 ? 4 : rng.int(3, 5);
  const r = rank - 2;
  const N = rng.int(1, 3), C = rng.int(1, 3);
  const spatial = Array.from({ length: r }, () => rng.int(...GRID_SPATIAL[r]));
  const outSp = Array.from({ length: r }, () => rng.int(...GRID_OUT[r]));
  const d = {
    api, opset, dims: [N, C, ...spatial], gridDims: [N, ...outSp, r],
    xType: rng.pick(['float32', 'float64']), gridType: rng.pick(['float32', 'float64']),
    mode: combMode,
    padding: combPadding,
    alignCorners: combAlign === 0 && rng.chance(0.5) ? undefined : combAlign, // undefined: the default, 0
  };
  const align = !!d.alignCorners;
  const withNaN = rng.chance(0.1);
  const g = new Array(prod(d.gridDims));
  for (let i = 0; i < g.length; i++) {
    const L = spatial[r - 1 - (i % r)]; // component k of a location is for axis r-1-k
    const u = rng.next();
    if (u < 0.05) g[i] = rng.pick([7, -7, 3.3, -2.6]);
    else if (u < 0.12) g[i] = rng.pick([-1, 0, 1]);
    else if (u < 0.4 && d.mode === 'nearest') {
      // an exact half-pixel position k + 0.5 (in range or just outside)
      const k = rng.int(-2, L);
      g[i] = align ? (L > 1 ? (2 * (k + 0.5)) / (L - 1) - 1 : 0) : (2 * (k + 0.5) + 1) / L - 1;
    } else if (withNaN && u < 0.16) g[i] = NaN;
    else g[i] = rng.uniform(-1.5, 1.5);
  }
  d.grid = d.gridType === 'float32' ? Float32Array.from(g) : Float64Array.from(g);
  return d;
}

function runGrid(sampler, d, x, grid) {
  if (d.api === 'gridSample') {
    const o = { mode: d.mode, paddingMode: d.padding };
    if (d.alignCorners !== undefined) o.alignCorners = !!d.alignCorners;
    return sampler.gridSample(x, grid, o);
  }
  const mode = d.opset === 16 ? { linear: 'bilinear', cubic: 'bicubic', nearest: 'nearest' }[d.mode] : d.mode;
  const a = { mode, padding_mode: d.padding };
  if (d.alignCorners !== undefined) a.align_corners = d.alignCorners;
  const out = sampler.run({ opType: 'GridSample', opset: d.opset, attributes: a }, [x, grid]);
  assert.ok(Array.isArray(out) && out.length === 1, 'run() returns an array of one tensor');
  return out[0];
}

// ---------------------------------------------------------------- Upsample cases

function genUpsample(rng) {
  const api = rng.pick(['run7', 'run9', 'run9', 'upsample']);
  const rank = rng.int(1, 4);
  const dims = Array.from({ length: rank }, () => rng.int(1, [0, 6, 5, 3, 3][rank]));
  const d = {
    api, opset: api === 'upsample' ? 9 : Number(api.slice(3)), dims,
    xType: rng.pick(['float32', 'float64']),
    mode: rng.pick(['nearest', 'linear', undefined]),
    scales: dims.map(() => Math.fround(rng.pick([1, 1, 1.25, 1.5, 1.7, 2, 2.5, 3]))),
  };
  if (prod(dims.map((n, i) => Math.floor(n * d.scales[i]))) > 3000) d.scales = d.scales.map(() => 1);
  return d;
}

function runUpsample(sampler, d, x) {
  if (d.api === 'upsample') {
    const o = { scales: d.scales };
    if (d.mode) o.mode = d.mode;
    return sampler.upsample(x, o);
  }
  const a = {};
  if (d.mode) a.mode = d.mode;
  let inputs;
  if (d.opset === 7) { a.scales = d.scales; inputs = [x]; } else inputs = [x, f32(d.scales)];
  const out = sampler.run({ opType: 'Upsample', opset: d.opset, attributes: a }, inputs);
  assert.ok(Array.isArray(out) && out.length === 1, 'run() returns an array of one tensor');
  return out[0];
}

// ---------------------------------------------------------------- the tests

const COUNTS = { resize: 300, grid: 150, upsample: 60 };

function caseTest(family, i, body) {
  const name = `${family}#${i}`;
  if (ONLY_CASE && ONLY_CASE !== name) return;
  const seed = caseSeed(family, i);
  test(name, async () => {
    const sampler = await samplerPromise;
    const rng = prng(seed);
    let desc = null;
    try {
      await body(sampler, rng, (d) => { desc = d; });
    } catch (e) {
      e.message = `${name} (OSW_PROPERTY_SEED=${MASTER_SEED} OSW_PROPERTY_CASE=${name}, case seed ${seed})\n` +
        `case: ${describeCase(desc)}\n${e.message}`;
      throw e;
    }
  });
}

for (let i = 0; i < COUNTS.resize; i++) {
  caseTest('resize', i, (sampler, rng, note) => {
    const d = genResize(rng);
    const x = T(d.xType, d.dims, randomData(rng, d.xType, prod(d.dims), d.nanChance));
    note({ ...d, x: x.data });
    const expected = referenceResize(x, referenceParams(d));
    const actual = runResize(sampler, d, x);
    const tol = d.mode === 'nearest' ? 0 : d.xType === 'float32' ? 1e-5 : 1e-12;
    const msg = compare(actual, expected, d.xType, tol);
    assert.equal(msg, null, msg);
  });
}

for (let i = 0; i < COUNTS.grid; i++) {
  caseTest('grid', i, (sampler, rng, note) => {
    const d = genGrid(rng, i);
    const x = T(d.xType, d.dims, randomData(rng, d.xType, prod(d.dims), 0));
    const grid = T(d.gridType, d.gridDims, d.grid);
    note({ ...d, x: x.data });
    const expected = referenceGridSample(x, grid, { mode: d.mode, padding: d.padding, alignCorners: !!d.alignCorners });
    const actual = runGrid(sampler, d, x, grid);
    const msg = compare(actual, expected, d.xType, d.xType === 'float32' ? 1e-5 : 1e-9);
    assert.equal(msg, null, msg);
  });
}

for (let i = 0; i < COUNTS.upsample; i++) {
  caseTest('upsample', i, (sampler, rng, note) => {
    const d = genUpsample(rng);
    const x = T(d.xType, d.dims, randomData(rng, d.xType, prod(d.dims), 0.1));
    note({ ...d, x: x.data });
    const expected = referenceResize(x, {
      mode: d.mode || 'nearest', coord: 'asymmetric', nearestMode: 'floor', scales: d.scales,
    });
    const actual = runUpsample(sampler, d, x);
    const tol = (d.mode || 'nearest') === 'nearest' ? 0 : d.xType === 'float32' ? 1e-5 : 1e-12;
    const msg = compare(actual, expected, d.xType, tol);
    assert.equal(msg, null, msg);
  });
}

// SEMANTICS row 11: an infinite grid location is far out of bounds and follows padding_mode.
// For zeros and border that is what a huge finite location gives, so the reference runs
// with +-1e300 in place of +-Infinity (reflection of infinity has no such stand-in).
test('grid: +-Infinity locations follow padding_mode zeros and border', async () => {
  const sampler = await samplerPromise;
  const rng = prng(caseSeed('grid-inf', 0));
  for (const gridType of ['float32', 'float64']) {
    for (const mode of ['nearest', 'linear', 'cubic']) {
      for (const padding of ['zeros', 'border']) {
        for (const alignCorners of [false, true]) {
          const x = T('float64', [1, 2, 3, 4], randomData(rng, 'float64', 24, 0));
          const g = [Infinity, 0, -Infinity, 0.2, 0.1, Infinity, -Infinity, -Infinity, Infinity, Infinity, -0.4, -Infinity];
          const grid = T(gridType, [1, 2, 3, 2], ARRAYS[gridType].from(g));
          const stand = T('float64', [1, 2, 3, 2], Float64Array.from(grid.data, (v) => (v === Infinity ? 1e300 : v === -Infinity ? -1e300 : v)));
          const expected = referenceGridSample(x, stand, { mode, padding, alignCorners });
          const actual = sampler.gridSample(x, grid, { mode, paddingMode: padding, alignCorners });
          const msg = compare(actual, expected, 'float64', 1e-9);
          assert.equal(msg, null, `${gridType} grid, ${mode}/${padding}/alignCorners ${alignCorners}: ${msg}`);
        }
      }
    }
  }
});

// ---------------------------------------------------------------- pinned cases
// Small fixed cases distilled from random failures, so each stays visible under any seed.

// SEMANTICS row 12: empty outputs are allowed. sizes 0 makes the scale 0, which must not
// reach the antialias window arithmetic (-1/0).
test('pinned: antialias with an output length of 0 gives an empty tensor', async () => {
  const sampler = await samplerPromise;
  const x = T('float32', [7], Float32Array.from([1, 2, 3, 4, 5, 6, 7]));
  for (const mode of ['linear', 'cubic']) {
    const y = sampler.run({ opType: 'Resize', opset: 19, attributes: { mode, antialias: 1 } }, [x, null, null, i64([0])])[0];
    assert.deepEqual([Array.from(y.dims), y.data.length], [[0], 0], `${mode}`);
    const y2 = sampler.resize(T('float64', [2, 3], new Float64Array(6)), { mode, antialias: true, sizes: [2, 0] });
    assert.deepEqual([Array.from(y2.dims), y2.data.length], [[2, 0], 0], `${mode}, 2-D`);
  }
});

// SEMANTICS row 11: a NaN location gives NaN for floating-point X, also when another
// component of the same location is far out of bounds (zeros padding).
test('pinned: a grid location with a NaN component gives NaN even when another component is out of bounds', async () => {
  const sampler = await samplerPromise;
  const x = T('float64', [1, 1, 3, 1], Float64Array.from([1, 2, 3]));
  for (const mode of ['linear', 'nearest', 'cubic']) {
    for (const loc of [[NaN, 5], [NaN, -3], [0.5, NaN]]) {
      const grid = T('float64', [1, 1, 1, 2], Float64Array.from(loc));
      const expected = referenceGridSample(x, grid, { mode, padding: 'zeros' });
      const y = sampler.gridSample(x, grid, { mode, paddingMode: 'zeros' });
      assert.ok(Number.isNaN(expected.data[0]));
      assert.ok(Number.isNaN(y.data[0]), `${mode}, zeros, grid (${loc}): got ${y.data[0]}, expected NaN`);
    }
  }
});

// keep_aspect_ratio_policy rounds the output length up (floor(scale * in + 0.5)), so with
// align_corners and the unrounded length W = scale * in (rows 3, 6) a coordinate can land
// past the last pixel: X [2, 3], sizes [1, 5], not_larger -> scale 0.5, output [1, 2],
// x_in = 1 * (3 - 1) / (1.5 - 1) = 4. With exclude_outside every tap is outside and the
// spec's renormalisation is 0/0: the reference (like the ONNX reference's
// `coeffs /= sum(coeffs)`) gives NaN. Without exclude_outside the taps clamp to X[0, 2] = 3.
test('pinned: exclude_outside with every tap outside (policy + align_corners)', async () => {
  const sampler = await samplerPromise;
  const x = T('float64', [2, 3], Float64Array.from([1, 2, 3, 4, 5, 6]));
  for (const mode of ['linear', 'cubic']) {
    for (const excludeOutside of [false, true]) {
      const opts = { mode, coordinateTransformationMode: 'align_corners', excludeOutside, sizes: [1, 5], keepAspectRatioPolicy: 'not_larger' };
      const expected = referenceResize(x, { mode, coord: 'align_corners', excludeOutside, sizes: [1, 5], keepAspectRatioPolicy: 'not_larger' });
      assert.deepEqual(Array.from(expected.data), [1, excludeOutside ? NaN : 3]);
      const msg = compare(sampler.resize(x, opts), expected, 'float64', 1e-12);
      assert.equal(msg, null, `${mode}, excludeOutside ${excludeOutside}: ${msg}`);
    }
  }
});

// SEMANTICS row 2: decisions are taken on the exact source coordinate. The reference
// computes coordinates as exact rationals; these two cases land exactly on a decision point
// that a straightforward double evaluation of the formula misses by one ulp.
//
// half_pixel_symmetric, in 5, scale 1.25: W = 6.25, out 6, offset = 2.5 * (1 - 6/6.25) = 0.1,
// x_in(0) = 0.1 + 0.5/1.25 - 0.5 = 0 exactly (1.1e-16 in naive double), so ceil gives 0.
test('pinned: half_pixel_symmetric lands exactly on integers (nearest ceil)', async () => {
  const sampler = await samplerPromise;
  const x = T('float64', [5], Float64Array.from([0, 1, 2, 3, 4]));
  const expected = referenceResize(x, { mode: 'nearest', coord: 'half_pixel_symmetric', nearestMode: 'ceil', scales: [1.25] });
  assert.deepEqual(Array.from(expected.data), [0, 1, 2, 3, 4, 4]);
  const y = sampler.resize(x, { mode: 'nearest', coordinateTransformationMode: 'half_pixel_symmetric', nearestMode: 'ceil', scales: [1.25] });
  const msg = compare(y, expected, 'float64', 0);
  assert.equal(msg, null, msg);
});

// tf_crop_and_resize with roi end 1: the last output maps to start*(in-1) + (out-1)*(1-start)*(in-1)/(out-1)
// = in - 1 exactly, which is inside [0, in - 1]; it must not become extrapolation_value
// nor the pixel before it.
test('pinned: tf_crop_and_resize with roi end 1 maps the last output exactly onto the last pixel', async () => {
  const sampler = await samplerPromise;
  const cases = [
    { L: 8, scale: 0.75, roi: [0.4141267667524516, 1], want: [2, 3, 4, 5, 6, 7] },
    { L: 2, scale: 2, roi: [-0.0971578005468473, 1], want: [-1, 0, 0, 1] },
  ];
  for (const c of cases) {
    const x = T('float64', [c.L], Float64Array.from({ length: c.L }, (_, i) => i));
    const expected = referenceResize(x, { mode: 'nearest', coord: 'tf_crop_and_resize', nearestMode: 'floor', scales: [c.scale], roi: c.roi, extrapolationValue: -1 });
    assert.deepEqual(Array.from(expected.data), c.want);
    const y = sampler.resize(x, { mode: 'nearest', coordinateTransformationMode: 'tf_crop_and_resize', nearestMode: 'floor', scales: [c.scale], roi: c.roi, extrapolationValue: -1 });
    const msg = compare(y, expected, 'float64', 0);
    assert.equal(msg, null, `in ${c.L}, scale ${c.scale}, roi [${c.roi}]: ${msg}`);
  }
});

// The generators must actually reach every option; a change that narrows them fails here.
test('the random cases cover every option', () => {
  if (ONLY_CASE) return;
  const seen = new Set();
  const add = (k) => seen.add(k);
  for (let i = 0; i < COUNTS.resize; i++) {
    const d = genResize(prng(caseSeed('resize', i)));
    add(`api:${d.api}`); add(`mode:${d.mode}`); add(`rank:${d.dims.length}`); add(`x:${d.xType}`);
    if (d.opset >= 11) add(`coord:${d.coord || 'half_pixel'}`);
    if (d.mode === 'nearest' && d.opset >= 11) add(`nearest:${d.nearestMode || 'round_prefer_floor'}`);
    if (d.mode === 'cubic') add(`cubicA:${d.cubicA ?? -0.75}`);
    if (d.excludeOutside && d.mode !== 'nearest') add('exclude_outside');
    if (d.antialias && d.mode !== 'nearest') add(`antialias:${d.mode}`);
    if (d.axes) add('axes'); if (d.axes && d.axes.some((a) => a < 0)) add('axes:negative');
    if (d.axes && d.axes.length < d.dims.length) add('axes:subset');
    if (d.policy) add(`policy:${d.policy}`);
    if (d.sizes) add('sizes'); else add('scales');
    if (d.scales && d.scales.some((s) => s < 1)) add('scales:<1');
    if (d.scales && d.scales.some((s) => s !== Math.floor(s))) add('scales:fractional');
    if (d.dims.includes(0)) add('empty-input');
    if (d.extrapolationValue !== undefined) add('extrapolation_value');
  }
  for (let i = 0; i < COUNTS.grid; i++) {
    const d = genGrid(prng(caseSeed('grid', i)), i);
    add(`g:${d.api}`); add(`g:${d.mode}/${d.padding}/${!!d.alignCorners}`); add(`g:rank${d.dims.length}`);
    add(`g:x${d.xType}`); add(`g:grid${d.gridType}`);
  }
  for (let i = 0; i < COUNTS.upsample; i++) {
    const d = genUpsample(prng(caseSeed('upsample', i)));
    add(`u:${d.api}`); add(`u:${d.mode || 'nearest'}`);
  }
  const want = [
    ...['run19', 'run18', 'run13', 'run11', 'run10', 'resize'].map((a) => `api:${a}`),
    ...['nearest', 'linear', 'cubic'].map((m) => `mode:${m}`),
    ...[1, 2, 3, 4, 5].map((r) => `rank:${r}`), 'x:float32', 'x:float64',
    ...COORDS[11].concat(['half_pixel_symmetric']).map((c) => `coord:${c}`),
    ...NEAREST.map((n) => `nearest:${n}`), 'cubicA:-0.75', 'cubicA:-0.5', 'exclude_outside',
    'antialias:linear', 'antialias:cubic', 'axes', 'axes:negative', 'axes:subset',
    'policy:stretch', 'policy:not_larger', 'policy:not_smaller', 'sizes', 'scales', 'scales:<1',
    'scales:fractional', 'empty-input', 'extrapolation_value',
    ...['gridSample', 'run22', 'run20', 'run16'].map((a) => `g:${a}`), 'g:rank3', 'g:rank4', 'g:rank5',
    'g:xfloat32', 'g:xfloat64', 'g:gridfloat32', 'g:gridfloat64',
    ...['u:run7', 'u:run9', 'u:upsample', 'u:nearest', 'u:linear'],
  ];
  for (const m of ['linear', 'nearest', 'cubic']) for (const p of ['zeros', 'border', 'reflection']) for (const a of [true, false]) want.push(`g:${m}/${p}/${a}`);
  const missing = want.filter((k) => !seen.has(k));
  assert.deepEqual(missing, [], `options never drawn: ${missing.join(', ')}`);
});
