// limits.test.mjs: resource limits (createSampler({ maxBytes })) through the public API:
// oversized outputs and plans are rejected before any allocation, with a RangeError that
// states the size, and the sampler stays usable.
import test from 'node:test';
import assert from 'node:assert/strict';
import { importPackage } from './package.mjs';

const { createSampler } = await importPackage();

const X = { type: 'float32', dims: [1, 1, 4, 4], data: new Float32Array(16).fill(3) };

test('an output over maxBytes is a RangeError naming the size and the limit', async () => {
  const s = await createSampler({ maxBytes: 1_000_000 });
  const call = () => s.resize(X, { sizes: [1, 1, 1000, 1000] });
  assert.throws(call, (e) => e instanceof RangeError &&
    /Y: needs 4000000 bytes, more than the limit of 1000000 bytes/.test(e.message));
  // The first call kept its (small) plan; the second allocates nothing at all.
  const before = s._M.heapUsed();
  assert.throws(call, RangeError);
  assert.equal(s._M.heapUsed(), before, 'nothing was allocated');
  assert.deepEqual(s.resize(X, { sizes: [1, 1, 2, 2] }).dims, [1, 1, 2, 2]);
});

test('a plan over maxBytes is rejected by the core with its size', async () => {
  const s = await createSampler({ maxBytes: 1_000_000 });
  // Antialias over a huge downscale: the plan's tap tables would be enormous.
  assert.throws(() => s.resize(X, { sizes: [1, 1, 2 ** 30, 2 ** 30] }), RangeError);
  const big = { type: 'float32', dims: [1, 300000], data: new Float32Array(300000) };
  assert.throws(() => s.resize(big, { sizes: [1, 300000], mode: 'cubic', antialias: true, scales: undefined }),
    (e) => e instanceof RangeError && /bytes, more than the limit of 1000000 bytes/.test(e.message));
});

test('the default limit is 2 GiB; huge requests never reach malloc', async () => {
  const s = await createSampler();
  assert.throws(() => s.resize(X, { sizes: [1, 1, 2 ** 20, 2 ** 20], mode: 'linear' }),
    /needs 4398046511104 bytes, more than the limit of 2147483648 bytes/);
  assert.throws(() => s.resize(X, { sizes: [1, 1, 2 ** 40, 2 ** 40] }), RangeError);
  assert.throws(() => s.tensor('float64', [2 ** 31]), RangeError);
});

test('maxBytes is validated', async () => {
  await assert.rejects(createSampler({ maxBytes: 0 }), RangeError);
  await assert.rejects(createSampler({ maxBytes: 'a lot' }), TypeError);
  await assert.rejects(createSampler({ maxBytes: 1.5 }), RangeError);
});
