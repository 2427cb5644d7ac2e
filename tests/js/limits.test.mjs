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

test('a small maxBytes takes smaller blocks, not an error, and the same results', async () => {
  const small = await createSampler({ maxBytes: 20_000 });
  const dflt = await createSampler();
  const rnd = (n, seed) => {
    const a = new Float32Array(n);
    let s = seed;
    for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; a[i] = (s >>> 8) / 2 ** 24; }
    return a;
  };
  // GridSample cubic on a 36 x 36 grid: the fast path's tap tables for a full block would
  // be 36 * 36 * 16 * 4 bytes, over the limit; X, the grid and Y are under it.
  const x = { type: 'float32', dims: [1, 1, 36, 36], data: rnd(36 * 36, 1) };
  const grid = { type: 'float32', dims: [1, 36, 36, 2], data: rnd(36 * 36 * 2, 2).map((v) => v * 2.2 - 1.1) };
  const opts = { mode: 'cubic', paddingMode: 'border' };
  assert.deepEqual(small.gridSample(x, grid, opts).data, dflt.gridSample(x, grid, opts).data);
  // Resize's streamed pair (up 4x on one axis, antialias down 4x on the last) under the
  // same limit.
  const r = { type: 'float32', dims: [1, 1, 2, 1024], data: rnd(2048, 3) };
  const ropts = { sizes: [1, 1, 8, 256], mode: 'linear', antialias: true };
  assert.deepEqual(small.resize(r, ropts).data, dflt.resize(r, ropts).data);
});
