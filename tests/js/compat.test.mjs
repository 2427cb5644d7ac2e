// compat.test.mjs: the compat option changes exactly the rows docs/semantics.md lists.
// Expected values are worked out by hand from each runtime's rule (docs/ort-compat-findings.md
// for ONNX Runtime, measured there against onnxruntime-web 1.30); ort-diff.test.mjs checks
// compat 'onnxruntime' against the real ORT on random draws.
import test from 'node:test';
import assert from 'node:assert/strict';
import { importPackage } from './package.mjs';

const { createSampler } = await importPackage();
const s = await createSampler();

const f32 = (dims, v) => ({ type: 'float32', dims, data: Float32Array.from(v) });
const u8 = (dims, v) => ({ type: 'uint8', dims, data: Uint8Array.from(v) });
const i8 = (dims, v) => ({ type: 'int8', dims, data: Int8Array.from(v) });
const range = (n) => Array.from({ length: n }, (_, i) => i);

test('row 7: integer outputs round half to even (onnx), truncate (onnxruntime), round half up (pytorch)', () => {
  // [0, 255] -> 4 outputs, half_pixel linear: 0, 63.75, 191.25, 255.
  const x = u8([2], [0, 255]);
  const run = (compat) => Array.from(s.resize(x, { sizes: [4], mode: 'linear', compat }).data);
  assert.deepEqual(run('onnx'), [0, 64, 191, 255]);
  assert.deepEqual(run('onnxruntime'), [0, 63, 191, 255]);
  assert.deepEqual(run('pytorch'), [0, 64, 191, 255]);
  // A tie: [1, 2] -> 3 outputs with align_corners: 1, 1.5, 2.
  const t = u8([2], [1, 2]);
  const tie = (compat) => Array.from(s.resize(t, { sizes: [3], mode: 'linear', coordinateTransformationMode: 'align_corners', compat }).data);
  assert.deepEqual(tie('onnx'), [1, 2, 2]);        // 1.5 -> 2 (even)
  assert.deepEqual(tie('onnxruntime'), [1, 1, 2]); // truncated
  assert.deepEqual(tie('pytorch'), [1, 2, 2]);     // half up
  const t2 = u8([2], [2, 3]);
  assert.deepEqual(Array.from(s.resize(t2, { sizes: [3], mode: 'linear', coordinateTransformationMode: 'align_corners' }).data), [2, 2, 3]);
  assert.deepEqual(Array.from(s.resize(t2, { sizes: [3], mode: 'linear', coordinateTransformationMode: 'align_corners', compat: 'pytorch' }).data), [2, 3, 3]);
});

test('row 16: extrapolation_value outside uint8/int8 saturates (onnx) or wraps as ORT casts it', () => {
  const node = (compat, v) => ({ opType: 'Resize', opset: 19, compat,
    attributes: { mode: 'linear', coordinate_transformation_mode: 'tf_crop_and_resize', extrapolation_value: v } });
  const roi = f32([2], [-1, 0]);  // starts one input length before the data: output 0 is outside
  // 3 -> 4 outputs (an unchanged length would be a plain copy under 'onnxruntime', row 13).
  const sizes = { type: 'int64', dims: [1], data: BigInt64Array.from([4n]) };
  const out = (x, compat, v) => Array.from(s.run(node(compat, v), [x, roi, null, sizes])[0].data)[0];
  assert.equal(out(u8([3], [1, 2, 3]), 'onnx', 300), 255);
  assert.equal(out(u8([3], [1, 2, 3]), 'onnxruntime', 300), 44);
  assert.equal(out(u8([3], [1, 2, 3]), 'onnxruntime', -5), 0);
  assert.equal(out(i8([3], [1, 2, 3]), 'onnx', 200), 127);
  assert.equal(out(i8([3], [1, 2, 3]), 'onnxruntime', 200), -56);
  assert.equal(out(u8([3], [1, 2, 3]), 'onnxruntime', 127.5), 127);
  assert.equal(out(u8([3], [1, 2, 3]), 'onnx', 127.5), 128);
});

test('row 13: an output shaped like the input is resampled (onnx) or copied (onnxruntime)', () => {
  const x = f32([5], [0, 10, 20, 30, 40]);
  const onnx = s.resize(x, { scales: [1.1], mode: 'linear' });
  const ort = s.resize(x, { scales: [1.1], mode: 'linear', compat: 'onnxruntime' });
  assert.deepEqual(onnx.dims, [5]);
  assert.notDeepEqual(Array.from(onnx.data), [0, 10, 20, 30, 40]);
  assert.deepEqual(Array.from(ort.data), [0, 10, 20, 30, 40]);
});

test('rows 2 and 6: ORT computes in float32 (output length and coordinates)', () => {
  // scales 9/41 (float32 0.21951219): 41 * s = 8.99999997 -> 8 outputs, float32 product 9.0 -> 9.
  const x = f32([41], range(41));
  const sc = Math.fround(9 / 41);
  assert.deepEqual(s.resize(x, { scales: [sc], mode: 'nearest' }).dims, [8]);
  assert.deepEqual(s.resize(x, { scales: [sc], mode: 'nearest', compat: 'onnxruntime' }).dims, [9]);
  // X = 0..9, scales 2.2, asymmetric floor: output 11 is 11 / 2.2000000477 = 4.99999989 (index
  // 4); in float32 it is 5.0 (index 5).
  const y = (compat) => s.resize(f32([10], range(10)), { scales: [2.2], mode: 'nearest',
    coordinateTransformationMode: 'asymmetric', nearestMode: 'floor', compat }).data[11];
  assert.equal(y('onnx'), 4);
  assert.equal(y('onnxruntime'), 5);
});

test('row 3: align_corners with scales uses the unrounded length (onnx) or the integer one (onnxruntime)', () => {
  // 5 inputs, scale 0.6: 3 outputs; output 1 maps to 1 * 4 / (3.0000001 - 1) (onnx) or 4 / 2 = 2.
  const x = f32([5], [0, 1, 2, 3, 4]);
  const o = (compat) => s.resize(x, { scales: [0.6], mode: 'linear', coordinateTransformationMode: 'align_corners', compat }).data[1];
  assert.notEqual(o('onnx'), 2);
  assert.ok(Math.abs(o('onnx') - 2) < 1e-5);
  assert.equal(o('onnxruntime'), 2);
});

test('row 9: pytorch antialias is ONNX antialias with exclude_outside and cubic a = -0.5', () => {
  const x = f32([1, 1, 1, 12], [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8]);
  for (const mode of ['linear', 'cubic']) {
    const py = s.resize(x, { sizes: [1, 1, 1, 5], mode, antialias: true, compat: 'pytorch' });
    const onnx = s.resize(x, { sizes: [1, 1, 1, 5], mode, antialias: true, excludeOutside: true, cubicCoeffA: -0.5 });
    const plain = s.resize(x, { sizes: [1, 1, 1, 5], mode, antialias: true });
    assert.deepEqual(Array.from(py.data), Array.from(onnx.data), mode);
    assert.notDeepEqual(Array.from(py.data), Array.from(plain.data), mode);
  }
});

test('row 7 in GridSample: integer outputs round half to even, truncate, or round half up', () => {
  // X = [1, 2] along W; the grid point x = 0 (align_corners) is the middle: 1.5.
  const x = u8([1, 1, 1, 2], [1, 2]);
  const grid = f32([1, 1, 1, 2], [0, 0]);
  const at = (compat) => s.gridSample(x, grid, { alignCorners: true, compat }).data[0];
  assert.equal(at('onnx'), 2);
  assert.equal(at('onnxruntime'), 1);
  assert.equal(at('pytorch'), 2);
  const x2 = u8([1, 1, 1, 2], [2, 3]);
  const node = (compat) => ({ opType: 'GridSample', opset: 20, compat, attributes: { align_corners: 1 } });
  assert.equal(s.run(node('onnx'), [x2, grid])[0].data[0], 2);
  assert.equal(s.run(node('pytorch'), [x2, grid])[0].data[0], 3);
  assert.equal(s.run(node('onnxruntime'), [x2, grid])[0].data[0], 2);
});

test('compat is validated', () => {
  assert.throws(() => s.resize(f32([2], [1, 2]), { sizes: [3], compat: 'onxruntime' }), /compat: unknown value 'onxruntime'.*did you mean 'onnxruntime'/);
  assert.throws(() => s.gridSample(f32([1, 1, 2, 2], [1, 2, 3, 4]), f32([1, 1, 1, 2], [0, 0]), { compat: 'torch' }), RangeError);
  assert.throws(() => s.resize(f32([2], [1, 2]), { sizes: [3], compat: 3 }), TypeError);
});

// Cases of ONNX Runtime's own unit tests (onnxruntime/test/providers/cpu/tensor/
// resize_op_test.cc), as data: inputs, attributes and the outputs ORT expects.
test("ONNX Runtime's resize_op_test.cc cases under compat 'onnxruntime' (issue 18)", () => {
  const node = (attributes, opset = 18) => ({ opType: 'Resize', opset, attributes, compat: 'onnxruntime' });
  const i64 = (v) => ({ type: 'int64', dims: [v.length], data: BigInt64Array.from(v.map(BigInt)) });
  const i32 = (dims, v) => ({ type: 'int32', dims, data: Int32Array.from(v) });
  // Antialias_Bilinear_dtype and Antialias_NhwcBilinear_dtype: 0..15 as 4x4 -> 3x3,
  // linear antialias, exclude_outside = 1, in uint8, int8 and int32, NCHW and NHWC.
  for (const [xd, yd] of [[[1, 1, 4, 4], [1, 1, 3, 3]], [[1, 4, 4, 1], [1, 3, 3, 1]]]) {
    for (const make of [u8, i8, i32]) {
      const [y] = s.run(node({ mode: 'linear', antialias: 1, exclude_outside: 1 }), [make(xd, range(16)), null, null, i64(yd)]);
      assert.deepEqual(Array.from(y.data), [1, 3, 4, 6, 8, 9, 11, 13, 14], `${y.type} [${xd}]`);
    }
  }
  // Antialias_Bilinear_No_ExcludeOutside / _ExcludeOutside (float32, 1..16 as 4x4 -> 3x3)
  const x16 = f32([1, 1, 4, 4], range(16).map((v) => v + 1));
  const close = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 1e-5 * Math.abs(b[i]));
  let [y] = s.run(node({ mode: 'linear', antialias: 1 }), [x16, null, null, i64([1, 1, 3, 3])]);
  assert.ok(close(Array.from(y.data), [2.3636363, 3.590909, 4.818182, 7.2727275, 8.5, 9.727273, 12.181818, 13.409091, 14.636364]));
  [y] = s.run(node({ mode: 'linear', antialias: 1, exclude_outside: 1 }), [x16, null, null, i64([1, 1, 3, 3])]);
  assert.ok(close(Array.from(y.data), [2.5, 3.7, 4.9, 7.3, 8.5, 9.7, 12.1, 13.3, 14.5]));
  // ResizeOp_MissingRoiAndMissingScalesOptionalInputs: tf_crop_and_resize, no roi, no
  // scales, sizes = X's shape: Y = X (and the same in every compat: the full-range roi).
  const x = f32([4, 4], [1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1, 11, 1, 1, 1, 1]);
  for (const compat of ['onnxruntime', 'onnx', 'pytorch']) {
    [y] = s.run({ ...node({ mode: 'linear', coordinate_transformation_mode: 'tf_crop_and_resize' }, 13), compat }, [x, null, null, i64([4, 4])]);
    assert.deepEqual(Array.from(y.data), Array.from(x.data), compat);
  }
});
