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
