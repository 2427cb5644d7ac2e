// param-block.test.mjs — the parameter block is described once (bindings/param_block.h) and
// both sides follow that description.
//
// The module gives the description as static data (osw_param_table, osw_param_slots); the JS layer builds its slot map and
// its Resize attribute handling from it. Checked here: the table lays the slots out without
// gaps or overlaps and in the regions the core relies on (the scalars that every call
// zeroes, the plan key, the slots the plan step writes); every Resize attribute it lists is
// an option of resize() and, where it has an ONNX name, an attribute of a Resize-19 node,
// with the default it states; and a value written through each attribute's slot reaches
// the core (a changed value changes the result or is rejected by the core's own checks).
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importPackage } from './package.mjs';

const { createSampler } = await importPackage();
const sampler = await createSampler();

// The module's table: the text (one row a line) and each row's first slot, from its static
// data; a row's count is where the next row starts.
function table() {
  const M = sampler._M, heap = M.HEAPU8;
  const start = M._osw_param_table() >>> 0;
  const text = Buffer.from(heap.subarray(start, heap.indexOf(0, start))).toString('latin1');
  const first = new Int32Array(heap.buffer, M._osw_param_slots() >>> 0);
  const rows = text.split('\n').filter(Boolean).map((line, i) => {
    const [kind, name, onnx, option, dflt, check] = line.split('\t');
    return { kind, name, slot: first[i], onnx, option, dflt, check };
  });
  rows.forEach((r, i) => { r.count = i + 1 < rows.length ? rows[i + 1].slot - r.slot : 0; });
  return rows;
}

test('the table lays the slots out in order, each array of its size, in the regions the core relies on', () => {
  const rows = table();
  assert.equal(rows.at(-1).name, 'blockSize');
  assert.equal(rows[0].slot, 0);
  for (const r of rows) {
    assert.ok(r.count >= 0, `${r.name} starts where the row before it ends, or after`);
    assert.ok(r.kind === 's' || (r.kind === 'r' && r.count === 1), `${r.name}: kind ${r.kind}, count ${r.count}`);
  }
  const count = Object.fromEntries(rows.map((r) => [r.name, r.count]));
  const R = sampler._M.MAX_RANK;
  assert.deepEqual([count.inDims, count.axes, count.scales, count.sizes, count.roi, count.gridDims, count.outDims], [R, R, R, R, 2 * R, R, R]);
  const at = Object.fromEntries(rows.map((r) => [r.name, r.slot]));
  // the regions: zeroed scalars, then the arrays of the plan key, then the rest
  for (const n of ['op', 'xType', 'rank', 'hasAxes', 'padding', 'gridRank', ...rows.filter((r) => r.kind === 'r').map((r) => r.name)])
    assert.ok(at[n] < at.headerEnd, `${n} is among the scalars zeroed before each call`);
  for (const n of ['inDims', 'axes', 'scales', 'sizes', 'roi']) assert.ok(at[n] >= at.headerEnd && at[n] < at.keyEnd, `${n} is in the plan key`);
  for (const n of ['gridDims', 'outRank', 'outDims']) assert.ok(at[n] >= at.keyEnd, `${n} is outside the plan key`);
  assert.deepEqual(sampler._S, at, 'the JS slot map is the table');
});

test('every Resize attribute of the table is an option of resize() and an attribute of Resize-19, with its default', () => {
  const attrs = table().filter((r) => r.kind === 'r');
  assert.deepEqual(attrs.map((r) => r.name),
    ['mode', 'coord', 'nearest', 'cubicA', 'excludeOutside', 'extrapolation', 'antialias', 'policy', 'compat']);
  let known;
  try { sampler.resize({ type: 'float32', dims: [2], data: new Float32Array(2) }, { scales: [2], notAnOption: 1 }); } catch (e) { known = e.message; }
  assert.match(known, /known options: sizes, scales, axes, roi, (.*)$/);
  assert.equal(known.replace(/.*known options: sizes, scales, axes, roi, /, ''), attrs.map((r) => r.option).join(', '));
  const x = { type: 'float32', dims: [1, 1, 3, 5], data: Float32Array.from({ length: 15 }, (_, i) => (i * 7) % 11 - 3) };
  const sizes = { type: 'int64', dims: [4], data: BigInt64Array.from([1n, 1n, 7n, 2n]) };
  const plain = sampler.resize(x, { sizes: [1, 1, 7, 2] });
  for (const r of attrs) {
    const v = r.check === 'finite' || r.check === 'float32' || r.check === 'flag' ? Number(r.dflt) : r.dflt;
    // the stated default, given explicitly, changes nothing
    assert.deepEqual(Array.from(sampler.resize(x, { sizes: [1, 1, 7, 2], [r.option]: v }).data), Array.from(plain.data), r.option);
    if (r.onnx) {
      const [y] = sampler.run({ opType: 'Resize', opset: 19, attributes: { [r.onnx]: v } }, [x, null, null, sizes]);
      assert.deepEqual(Array.from(y.data), Array.from(plain.data), r.onnx);
    }
  }
});

test("each Resize attribute's slot reaches the core", () => {
  // 3 x 5 -> 7 x 2 has ties, fractions and edges: every attribute below changes the result
  const x = { type: 'float32', dims: [1, 1, 3, 5], data: Float32Array.from({ length: 15 }, (_, i) => (i * 7) % 11 - 3) };
  const base = { sizes: [1, 1, 7, 2] };
  // (an option set to undefined here is left out)
  const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const out = (o) => Array.from(sampler.resize(x, clean({ ...base, ...o })).data);
  const changes = {
    mode: { mode: 'linear' },
    coord: { coordinateTransformationMode: 'asymmetric' },
    nearest: { nearestMode: 'ceil' },
    cubicA: [{ mode: 'cubic' }, { mode: 'cubic', cubicCoeffA: -0.5 }],
    excludeOutside: [{ mode: 'cubic' }, { mode: 'cubic', excludeOutside: true }],
    extrapolation: [{ coordinateTransformationMode: 'tf_crop_and_resize', roi: [0, 0, -0.5, 0, 1, 1, 1, 1] },
      { coordinateTransformationMode: 'tf_crop_and_resize', roi: [0, 0, -0.5, 0, 1, 1, 1, 1], extrapolationValue: 9 }],
    antialias: [{ mode: 'linear' }, { mode: 'linear', antialias: true }],
    policy: { keepAspectRatioPolicy: 'not_larger' },
    compat: [{ mode: 'linear', coordinateTransformationMode: 'align_corners', sizes: undefined, scales: [1, 1, 1.7, 0.6] },
      { mode: 'linear', coordinateTransformationMode: 'align_corners', sizes: undefined, scales: [1, 1, 1.7, 0.6], compat: 'onnxruntime' }],
  };
  for (const r of table().filter((row) => row.kind === 'r')) {
    const c = changes[r.name];
    assert.ok(c, `a change for ${r.name}`);
    const [a, b] = Array.isArray(c) ? c : [{}, c];
    const ya = out(a), yb = (() => { try { return out(b); } catch (e) { return e.message; } })();
    assert.notDeepEqual(yb, ya, `${r.option} changes the result`);
  }
});
