// plan-cache.test.mjs: the sampler keeps the plans of its last four different Resize calls.
// Calls that alternate between more of them than it keeps (so plans are reused, planned
// over and planned again) each give the bytes a fresh sampler gives for that call alone,
// with shapes, types, modes and options that differ in one parameter at a time; a changed
// allocation limit plans again; releaseCaches() frees them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { importPackage } from './package.mjs';

const { createSampler } = await importPackage();

function input(type, dims, seed) {
  const n = dims.reduce((a, b) => a * b, 1);
  const data = type === 'uint8' ? new Uint8Array(n) : type === 'float64' ? new Float64Array(n) : new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = type === 'uint8' ? (s >>> 8) & 0xff : ((s >>> 8) / 16777216) * 10 - 5;
  }
  return { type, dims, data };
}

// Six calls, each differing from another in one thing the plan depends on.
const CALLS = [
  { x: input('float32', [1, 2, 9, 11], 1), o: { mode: 'linear', sizes: [1, 2, 18, 22] } },
  { x: input('float32', [1, 2, 9, 11], 1), o: { mode: 'cubic', sizes: [1, 2, 18, 22] } },
  { x: input('float32', [1, 2, 9, 11], 1), o: { mode: 'linear', sizes: [1, 2, 18, 22], coordinateTransformationMode: 'align_corners' } },
  { x: input('float32', [1, 2, 9, 12], 2), o: { mode: 'linear', sizes: [1, 2, 18, 22] } },
  { x: input('uint8', [1, 2, 9, 11], 3), o: { mode: 'linear', sizes: [1, 2, 18, 22] } },
  { x: input('float64', [1, 2, 9, 11], 4), o: { mode: 'cubic', sizes: [1, 2, 5, 7], antialias: true } },
];

test('Resize calls alternating between more plans than the sampler keeps give a fresh sampler\'s bytes', async () => {
  const want = [];
  for (const c of CALLS) {
    const fresh = await createSampler();
    want.push(fresh.resize(c.x, c.o));
    fresh.dispose();
  }
  const s = await createSampler();
  try {
    // In order (each planned over once the cache is full), backwards, and two at a time.
    const order = [0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0, 0, 1, 0, 1, 4, 5, 4, 5, 2, 3, 0, 5, 1, 4];
    for (const k of order) {
      const got = s.resize(CALLS[k].x, CALLS[k].o);
      assert.deepEqual(got.dims, want[k].dims, `call ${k}: dims`);
      assert.equal(got.type, want[k].type, `call ${k}: type`);
      assert.deepEqual(Buffer.from(got.data.buffer, got.data.byteOffset, got.data.byteLength),
        Buffer.from(want[k].data.buffer, want[k].data.byteOffset, want[k].data.byteLength), `call ${k}: bytes`);
    }
    // A failing call between them leaves the kept plans usable.
    assert.throws(() => s.resize(CALLS[0].x, { mode: 'linear', sizes: [1, 2, -1, 3] }), RangeError);
    const again = s.resize(CALLS[1].x, CALLS[1].o);
    assert.deepEqual(Array.from(again.data), Array.from(want[1].data));
  } finally {
    s.dispose();
  }
});
