// zero-copy.test.mjs: the wasm-memory tier (sampler.tensor, *Into variants) through the
// public API of the installed package.
import test from 'node:test';
import assert from 'node:assert/strict';
import { importPackage } from './package.mjs';

const { createSampler } = await importPackage();
const sampler = await createSampler();

const X = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
const ROW0 = [1, 1.25, 1.75, 2];

test('tensor(): data is a fresh view, dispose() frees', () => {
  const t = sampler.tensor('float32', [1, 1, 2, 2]);
  t.data.set([1, 2, 3, 4]);
  assert.deepEqual(Array.from(t.data), [1, 2, 3, 4]);
  assert.notEqual(t.data, t.data, 'each access re-creates the view');
  t.dispose();
  assert.equal(t.disposed, true);
  assert.throws(() => t.data, RangeError);
  t.dispose(); // twice is harmless
  assert.throws(() => sampler.resize(t, { sizes: [1, 1, 4, 4] }), RangeError);
});

test('resizeInto a wasm tensor from a wasm tensor equals resize()', () => {
  const x = sampler.tensor('float32', [1, 1, 2, 2]);
  const y = sampler.tensor('float32', [1, 1, 4, 4]);
  try {
    x.data.set(X.data);
    const r = sampler.resizeInto(x, y, { sizes: [1, 1, 4, 4], mode: 'linear' });
    assert.equal(r, y);
    assert.deepEqual(Array.from(y.data.slice(0, 4)), ROW0);
    assert.deepEqual(Array.from(y.data), Array.from(sampler.resize(X, { sizes: [1, 1, 4, 4], mode: 'linear' }).data));
  } finally {
    x.dispose();
    y.dispose();
  }
});

test('resizeInto a plain tensor writes into its data', () => {
  const y = { type: 'float32', dims: [1, 1, 4, 4], data: new Float32Array(16) };
  assert.equal(sampler.resizeInto(X, y, { sizes: [1, 1, 4, 4], mode: 'linear' }), y);
  assert.deepEqual(Array.from(y.data.slice(0, 4)), ROW0);
});

test('runInto, upsampleInto and gridSampleInto', () => {
  const y = sampler.tensor('float32', [1, 1, 4, 4]);
  try {
    const scales = { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) };
    const outs = [y];
    assert.equal(sampler.runInto({ opType: 'Resize', opset: 19, attributes: { mode: 'linear' } }, [X, null, scales], outs), outs);
    assert.deepEqual(Array.from(y.data.slice(0, 4)), ROW0);
    sampler.upsampleInto(X, y, { scales: [1, 1, 2, 2] });
    assert.deepEqual(Array.from(y.data.slice(0, 4)), [1, 1, 2, 2]);
    const grid = { type: 'float32', dims: [1, 4, 4, 2], data: new Float32Array(32) };
    sampler.gridSampleInto(X, grid, y, { mode: 'linear' });
    assert.deepEqual(Array.from(y.data), new Array(16).fill(2.5));
  } finally {
    y.dispose();
  }
});

test('Into checks the output: type, dims, aliasing', () => {
  const y = sampler.tensor('float32', [1, 1, 4, 3]);
  const x = sampler.tensor('float32', [1, 1, 4, 4]);
  try {
    assert.throws(() => sampler.resizeInto(X, y, { sizes: [1, 1, 4, 4] }), /output: expected dims \[1, 1, 4, 4\]/);
    assert.throws(() => sampler.resizeInto(X, { type: 'float64', dims: [1, 1, 4, 4], data: new Float64Array(16) }, { sizes: [1, 1, 4, 4] }), TypeError);
    assert.throws(() => sampler.resizeInto(x, x, { sizes: [1, 1, 4, 4] }), /must not share memory/);
  } finally {
    y.dispose();
    x.dispose();
  }
});

test('tensor() validates its arguments', () => {
  assert.throws(() => sampler.tensor('float33', [1]), /did you mean 'float32'/);
  assert.throws(() => sampler.tensor(1, [1]), TypeError);
  assert.throws(() => sampler.tensor('float32', [-1]), RangeError);
  assert.throws(() => sampler.tensor('float32', [2 ** 20, 2 ** 20]), RangeError);
  assert.throws(() => sampler.tensor('float32', 'abc'), TypeError);
});

test('the heap returns to where it was after many zero-copy calls', () => {
  // One call first: the sampler keeps the plan of its last Resize, which is not a leak.
  const warm = sampler.tensor('float32', [1, 1, 8, 8]);
  sampler.resize(warm, { sizes: [1, 1, 3, 5], mode: 'cubic' });
  warm.dispose();
  const before = sampler._M.heapUsed();
  for (let i = 0; i < 200; i++) {
    const t = sampler.tensor('float32', [1, 1, 8, 8]);
    const y = sampler.resize(t, { sizes: [1, 1, 3, 5], mode: 'cubic' });
    assert.equal(y.data.length, 15);
    t.dispose();
  }
  assert.equal(sampler._M.heapUsed(), before);
});

// The array tier copies X in and Y out through views of wasm memory that it keeps until
// memory grows, and puts small temporaries in blocks kept by the module: results must stay
// right across growth (between calls and inside one), for small and large tensors, for
// every array kind a type accepts, and an output must never share memory with another.
test('resize() on arrays: right results across memory growth, small and large, every array kind', () => {
  const s = sampler;
  const small = (k) => ({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4].map((v) => v * k)) });
  const row0 = (k) => ROW0.map((v) => v * k);
  const a = s.resize(small(1), { sizes: [1, 1, 4, 4], mode: 'linear' });
  // Grow memory between calls: a tensor bigger than everything allocated so far.
  const before = s._M.HEAPU8.buffer.byteLength;
  const big = s.tensor('float32', [before / 4 + 1024]);
  assert.ok(s._M.HEAPU8.buffer.byteLength > before, 'memory grew');
  const b = s.resize(small(2), { sizes: [1, 1, 4, 4], mode: 'linear' });
  big.dispose();
  assert.deepEqual(Array.from(a.data.slice(0, 4)), row0(1));
  assert.deepEqual(Array.from(b.data.slice(0, 4)), row0(2));
  assert.notEqual(a.data.buffer, b.data.buffer, 'each result owns its buffer');
  // Grow memory inside a call: Y larger than the memory is now (X is copied in first).
  const n = 64;
  const xl = { type: 'float32', dims: [1, 1, n, n], data: new Float32Array(n * n).map((_, i) => i % 97) };
  const cur = s._M.HEAPU8.buffer.byteLength;
  const f = Math.ceil(Math.sqrt(cur / 4) / n) + 1;
  const yl = s.resize(xl, { sizes: [1, 1, n * f, n * f], mode: 'nearest' });
  assert.ok(s._M.HEAPU8.buffer.byteLength > cur, 'memory grew during the call');
  for (const [i, j] of [[0, 0], [n * f - 1, n * f - 1], [5 * f, 7 * f + 1], [n * f - 1, 3]])
    assert.equal(yl.data[i * n * f + j], xl.data[Math.floor(i / f) * n + Math.floor(j / f)]);
  // Small calls after the growth still use fresh views.
  assert.deepEqual(Array.from(s.resize(small(3), { sizes: [1, 1, 4, 4], mode: 'linear' }).data.slice(0, 4)), row0(3));
  // uint8 as Uint8Array and as Uint8ClampedArray: same values, each kept in its own kind.
  const bytes = [0, 255, 17, 200, 3, 128];
  const u = s.resize({ type: 'uint8', dims: [1, 6], data: Uint8Array.from(bytes) }, { sizes: [1, 12], mode: 'linear' });
  const c = s.resize({ type: 'uint8', dims: [1, 6], data: Uint8ClampedArray.from(bytes) }, { sizes: [1, 12], mode: 'linear' });
  assert.ok(u.data instanceof Uint8Array && c.data instanceof Uint8ClampedArray);
  assert.deepEqual(Array.from(c.data), Array.from(u.data));
  // A grid and X both small (two blocks at once) and a large X with a small grid.
  const g = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([-1, -1, 1, 1]) };
  const gs = s.gridSample(small(1), g, { alignCorners: true });
  assert.deepEqual(Array.from(gs.data), [1, 4]);
  const xb = { type: 'float32', dims: [1, 1, 40, 40], data: new Float32Array(1600).map((_, i) => i) };
  assert.deepEqual(Array.from(s.gridSample(xb, g, { alignCorners: true }).data), [0, 1599]);
});
