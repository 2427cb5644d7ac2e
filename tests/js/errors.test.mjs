// errors.test.mjs — owns the error contract of the public API.
//
// index.d.ts promises: a wrong kind of argument throws TypeError, a bad shape or value
// throws RangeError, and each message names the input or attribute at fault. A table of
// bad calls (one test each) checks the class and a regex on the message; after every
// error, and once more after the whole table, the same sampler must still compute a small
// Resize and GridSample correctly (a failed call leaves the module usable).
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { importPackage, packageEntry } from './package.mjs';

const modPromise = importPackage();
const samplerPromise = modPromise.then((m) => m.createSampler());
samplerPromise.catch(() => {});

// ---------------------------------------------------------------- tensors

const T = (type, dims, data) => ({ type, dims, data });
const f32 = (arr, dims = [arr.length]) => T('float32', dims, Float32Array.from(arr));
const f64 = (arr, dims = [arr.length]) => T('float64', dims, Float64Array.from(arr));
const i64 = (arr) => T('int64', [arr.length], BigInt64Array.from(arr, (v) => BigInt(v)));
const i32 = (arr) => T('int32', [arr.length], Int32Array.from(arr));

const X4 = () => f32([1, 2, 3, 4], [1, 1, 2, 2]);
const X1 = () => f32([1, 2, 3]);
const GRID = () => f32([0, 0, 0.5, -0.5], [1, 1, 2, 2]); // N=1, 1x2 locations, 2-D
const X5 = () => f32(new Array(8).fill(1), [1, 1, 2, 2, 2]);
const GRID5 = () => f32([0, 0, 0], [1, 1, 1, 1, 3]);

const resize = (opset, attributes, inputs) => (s) => s.run({ opType: 'Resize', opset, attributes }, inputs);
const upsample = (opset, attributes, inputs) => (s) => s.run({ opType: 'Upsample', opset, attributes }, inputs);
const gridSample = (opset, attributes, inputs) => (s) => s.run({ opType: 'GridSample', opset, attributes }, inputs);

// [name, call(sampler), expected class, regex the message must match]
const CASES = [
  // ------------------------------------------------------------ TypeError: wrong kind
  ['resize(): x is a number', (s) => s.resize(5, { scales: [2] }), TypeError, /\bx\b/],
  ['resize(): x is a Float32Array, not a tensor', (s) => s.resize(new Float32Array(4), { scales: [2] }), TypeError, /\bx\b.*tensor/],
  ['run Resize: X is a string', resize(19, {}, ['X', null, f32([2])]), TypeError, /\bX\b/],
  ['run Resize: X is null (missing)', resize(19, {}, [null, null, f32([2])]), TypeError, /\bX\b/],
  ['run Resize: no inputs at all', resize(19, {}, []), TypeError, /\bX\b/],
  ['run Upsample: X missing', upsample(9, {}, []), TypeError, /\bX\b/],
  ['gridSample(): X missing', (s) => s.gridSample(undefined, GRID()), TypeError, /\bX\b/],
  ['gridSample(): grid missing', (s) => s.gridSample(X4(), null), TypeError, /\bgrid\b/],
  ['float32 tensor carrying a Float64Array', resize(19, {}, [T('float32', [3], new Float64Array(3)), null, f32([2])]), TypeError, /X\.data.*float32.*Float32Array/],
  ['int64 tensor carrying an Int32Array', (s) => s.resize(T('int64', [2], new Int32Array(2)), { scales: [2] }), TypeError, /x\.data.*int64/],
  ['data is a plain array', (s) => s.resize(T('float32', [2], [1, 2]), { scales: [2] }), TypeError, /x\.data/],
  ['unknown tensor type with a suggestion', (s) => s.resize(T('float', [2], new Float32Array(2)), { scales: [2] }), TypeError, /x\.type.*'float'.*did you mean 'float32'/],
  ['tensor type is not a string', (s) => s.resize(T(1, [2], new Float32Array(2)), { scales: [2] }), TypeError, /x\.type/],
  ['dims is a string', (s) => s.resize(T('float32', '2', new Float32Array(2)), { scales: [2] }), TypeError, /x\.dims/],
  ['dims element is a string', (s) => s.resize(T('float32', ['2'], new Float32Array(2)), { scales: [2] }), TypeError, /x\.dims\[0\]/],
  ['cubic_coeff_a is a string', resize(19, { mode: 'cubic', cubic_coeff_a: '-0.5' }, [X1(), null, f32([2])]), TypeError, /cubic_coeff_a/],
  ['extrapolation_value is a string', resize(19, { extrapolation_value: '0' }, [X1(), null, f32([2])]), TypeError, /extrapolation_value/],
  ['resize(): scales element is a string', (s) => s.resize(X1(), { scales: ['2'] }), TypeError, /scales\[0\]/],
  ['resize(): sizes element is a string', (s) => s.resize(X1(), { sizes: ['6'] }), TypeError, /sizes\[0\]/],
  ['resize(): scales is a number', (s) => s.resize(X1(), { scales: 2 }), TypeError, /scales/],
  ['resize(): cubicCoeffA is a string', (s) => s.resize(X1(), { scales: [2], cubicCoeffA: 'a' }), TypeError, /cubicCoeffA/],
  ['mode is a number', resize(19, { mode: 1 }, [X1(), null, f32([2])]), TypeError, /\bmode\b/],
  ['axes is a number', resize(19, { axes: 0 }, [X1(), null, f32([2])]), TypeError, /\baxes\b/],
  ['axes element is a string', resize(19, { axes: ['0'] }, [X1(), null, f32([2])]), TypeError, /axes\[0\]/],
  ['scales of type int64', resize(19, {}, [X1(), null, i64([2])]), TypeError, /\bscales\b.*float32/],
  ['scales of type float64', resize(13, {}, [X1(), null, f64([2])]), TypeError, /\bscales\b/],
  ['sizes of type float32', resize(19, {}, [X1(), null, null, f32([6])]), TypeError, /\bsizes\b.*int64/],
  ['sizes of type int32', resize(11, {}, [X1(), null, null, i32([6])]), TypeError, /\bsizes\b/],
  ['roi of type int64', resize(19, { coordinate_transformation_mode: 'tf_crop_and_resize' }, [X1(), i64([0, 1]), f32([2])]), TypeError, /\broi\b/],
  ['Upsample-9 scales of type int64', upsample(9, {}, [X1(), i64([2])]), TypeError, /\bscales\b/],
  ['Upsample-7 scales attribute of strings', upsample(7, { scales: ['2'] }, [X1()]), TypeError, /scales\[0\]/],
  ['grid of type int32', (s) => s.gridSample(X4(), T('int32', [1, 1, 2, 2], new Int32Array(4))), TypeError, /\bgrid\b/],
  ['neither scales nor sizes (run)', resize(19, {}, [X1(), null, null, null]), TypeError, /scales.*sizes/],
  ['neither scales nor sizes (resize())', (s) => s.resize(X1(), {}), TypeError, /scales.*sizes/],
  ['Resize-10 without scales', resize(10, {}, [X1()]), TypeError, /\bscales\b/],
  ['Upsample-9 without scales', upsample(9, {}, [X1()]), TypeError, /\bscales\b/],
  ['Upsample-7 without the scales attribute', upsample(7, {}, [X1()]), TypeError, /\bscales\b/],
  ['run(): node is null', (s) => s.run(null, [X1()]), TypeError, /\bnode\b/],
  ['run(): opType missing', (s) => s.run({ opset: 19 }, [X1(), null, f32([2])]), TypeError, /opType/],
  ['run(): opset is a string', (s) => s.run({ opType: 'Resize', opset: '19' }, [X1(), null, f32([2])]), TypeError, /opset/],
  ['run(): inputs is not an array', (s) => s.run({ opType: 'Resize', opset: 19 }, X1()), TypeError, /inputs/],
  ['run(): attributes is an array', (s) => s.run({ opType: 'Resize', opset: 19, attributes: [] }, [X1(), null, f32([2])]), TypeError, /attributes/],
  ['resize(): options is a string', (s) => s.resize(X1(), 'linear'), TypeError, /options/],
  ['gridSample(): alignCorners is a string', (s) => s.gridSample(X4(), GRID(), { alignCorners: 'yes' }), TypeError, /alignCorners/],
  // messages say what was given once ("got undefined", not "got undefined undefined")
  ['dims missing', (s) => s.resize(T('float32', undefined, new Float32Array(2)), { scales: [2] }), TypeError, /^x\.dims: expected an array of integers, got undefined$/],
  ['type is a function', (s) => s.resize(T(() => 0, [2], new Float32Array(2)), { scales: [2] }), TypeError, /^x\.type: expected a string, got a function$/],
  // a flag says it wants a boolean (or the ONNX attribute's 0/1), not an integer
  ['resize(): antialias is the string "true"', (s) => s.resize(X1(), { scales: [2], antialias: 'true' }), TypeError, /^antialias: expected true or false \(or 0 or 1\), got the string "true"$/],
  ['resize(): excludeOutside is null', (s) => s.resize(X1(), { scales: [2], excludeOutside: null }), TypeError, /^excludeOutside: expected true or false \(or 0 or 1\), got null$/],
  ['exclude_outside is a string', resize(19, { exclude_outside: '1' }, [X1(), null, f32([2])]), TypeError, /^exclude_outside: expected true or false \(or 0 or 1\), got the string "1"$/],

  // ------------------------------------------------------------ RangeError: bad shape or value
  ['dims do not match the data length', resize(19, {}, [T('float32', [2, 2], new Float32Array(3)), null, f32([2, 2])]), RangeError, /\bX\b.*\[2, 2\].*3/],
  ['negative dim', (s) => s.resize(T('float32', [-2], new Float32Array(0)), { scales: [2] }), RangeError, /x\.dims\[0\].*-2/],
  ['fractional dim', (s) => s.resize(T('float32', [1.5], new Float32Array(1)), { scales: [2] }), RangeError, /x\.dims\[0\]/],
  ['X of rank 0', resize(19, {}, [T('float32', [], new Float32Array(1)), null, f32([])]), RangeError, /\bX\b.*rank/],
  ['both scales and sizes (run)', resize(19, {}, [X1(), null, f32([2]), i64([6])]), RangeError, /scales.*sizes/],
  ['both scales and sizes (resize())', (s) => s.resize(X1(), { scales: [2], sizes: [6] }), RangeError, /scales.*sizes/],
  ['scales of 0', resize(19, {}, [X1(), null, f32([0])]), RangeError, /\bscales\b.*got 0 for axis 0$/],
  ['negative scale', resize(13, {}, [X1(), null, f32([-2])]), RangeError, /\bscales\b.*got -2 for axis 0$/],
  ['negative fractional scale', (s) => s.resize(X1(), { scales: [-0.5] }), RangeError, /\bscales\b.*got -0\.5 for axis 0$/],
  ['roi with NaN', (s) => s.resize(X1(), { coordinateTransformationMode: 'tf_crop_and_resize', roi: [0.25, NaN], scales: [2] }), RangeError, /\broi\b.*got \[0\.25, NaN\] for axis 0$/],
  ['NaN scale', (s) => s.resize(X1(), { scales: [NaN] }), RangeError, /\bscales\b.*got NaN for axis 0$/],
  ['infinite scale', resize(19, {}, [X1(), null, f32([Infinity])]), RangeError, /\bscales\b.*got Infinity for axis 0$/],
  ['Resize-10 scale of 0', resize(10, {}, [X1(), f32([0])]), RangeError, /\bscales\b/],
  ['negative size', resize(19, {}, [X1(), null, null, i64([-1])]), RangeError, /\bsizes\b/],
  ['scales too short for the rank', resize(19, {}, [X4(), null, f32([1, 1, 2])]), RangeError, /\bscales\b.*4.*3/],
  ['sizes too long for the rank', resize(13, {}, [X1(), null, null, i64([6, 6])]), RangeError, /\bsizes\b.*1.*2/],
  ['scales not matching the length of axes', resize(19, { axes: [2, 3] }, [X4(), null, f32([2])]), RangeError, /\bscales\b.*axes/],
  ['resize(): sizes not matching the length of axes', (s) => s.resize(X4(), { sizes: [4, 4, 4], axes: [-1, -2] }), RangeError, /\bsizes\b/],
  ['scales as a 2-D tensor', resize(19, {}, [X1(), null, f32([2], [1, 1])]), RangeError, /\bscales\b/],
  ['roi of the wrong length', resize(19, { coordinate_transformation_mode: 'tf_crop_and_resize' }, [X4(), f32([0, 0, 1, 1]), f32([1, 1, 2, 2])]), RangeError, /\broi\b.*8.*4/],
  ['resize(): roi of the wrong length', (s) => s.resize(X4(), { coordinateTransformationMode: 'tf_crop_and_resize', roi: [0, 1], scales: [2, 2], axes: [3, 2] }), RangeError, /\broi\b/],
  ['axes out of range', resize(19, { axes: [4] }, [X4(), null, f32([2])]), RangeError, /axes\[0\].*4/],
  ['negative axis out of range', (s) => s.resize(X4(), { axes: [-5], scales: [2] }), RangeError, /axes\[0\].*-5/],
  ['repeated axis', resize(19, { axes: [1, -3] }, [X4(), null, f32([2, 2])]), RangeError, /axes\[1\].*repeated/],
  ['empty axes', resize(18, { axes: [] }, [X4(), null, f32([])]), RangeError, /\baxes\b/],
  ['fractional axis', (s) => s.resize(X4(), { axes: [1.5], scales: [2] }), RangeError, /axes\[0\]/],
  ['unknown attribute, did you mean', resize(19, { cubic_coef_a: -0.5 }, [X1(), null, f32([2])]), RangeError, /cubic_coef_a.*did you mean 'cubic_coeff_a'/],
  ['unknown attribute (camelCase at node level)', resize(19, { excludeOutside: 1 }, [X1(), null, f32([2])]), RangeError, /excludeOutside.*did you mean 'exclude_outside'/],
  ['resize(): unknown option, did you mean', (s) => s.resize(X1(), { scale: [2] }), RangeError, /'scale'.*did you mean 'scales'/],
  ['resize(): snake_case option, did you mean', (s) => s.resize(X1(), { scales: [2], nearest_mode: 'floor' }), RangeError, /nearest_mode.*did you mean 'nearestMode'/],
  ['gridSample(): snake_case option, did you mean', (s) => s.gridSample(X4(), GRID(), { padding_mode: 'zeros' }), RangeError, /'padding_mode'.*did you mean 'paddingMode'/],
  ['unknown Resize mode', resize(19, { mode: 'bilinear' }, [X1(), null, f32([2])]), RangeError, /\bmode\b.*'bilinear'/],
  ['Resize-10 mode cubic', resize(10, { mode: 'cubic' }, [X1(), f32([2])]), RangeError, /\bmode\b.*'cubic'/],
  ['unknown coordinate_transformation_mode, did you mean', resize(19, { coordinate_transformation_mode: 'half_pixels' }, [X1(), null, f32([2])]), RangeError, /coordinate_transformation_mode.*'half_pixels'.*did you mean 'half_pixel'/],
  ['unknown nearest_mode', resize(13, { nearest_mode: 'round' }, [X1(), null, f32([2])]), RangeError, /nearest_mode.*'round'/],
  ['unknown keep_aspect_ratio_policy', resize(18, { keep_aspect_ratio_policy: 'fit' }, [X1(), null, null, i64([6])]), RangeError, /keep_aspect_ratio_policy.*'fit'/],
  ['keep_aspect_ratio_policy with scales', resize(19, { keep_aspect_ratio_policy: 'not_larger' }, [X1(), null, f32([2])]), RangeError, /keep_aspect_ratio_policy/],
  ['exclude_outside of 2', resize(19, { exclude_outside: 2 }, [X1(), null, f32([2])]), RangeError, /exclude_outside.*2/],
  ['resize(): antialias of 0.5', (s) => s.resize(X1(), { scales: [2], antialias: 0.5 }), RangeError, /^antialias: expected true or false \(or 0 or 1\), got 0\.5$/],
  ['antialias of -1', resize(18, { antialias: -1 }, [X1(), null, f32([2])]), RangeError, /antialias/],
  ['cubic_coeff_a NaN', resize(19, { mode: 'cubic', cubic_coeff_a: NaN }, [X1(), null, f32([2])]), RangeError, /cubic_coeff_a/],
  ['antialias at opset 13', resize(13, { mode: 'linear', antialias: 1 }, [X1(), null, f32([0.5])]), RangeError, /antialias.*Resize-13/],
  ['axes at opset 11', resize(11, { axes: [0] }, [X1(), null, f32([2])]), RangeError, /\baxes\b.*Resize-11/],
  ['keep_aspect_ratio_policy at opset 13', resize(13, { keep_aspect_ratio_policy: 'stretch' }, [X1(), null, null, i64([6])]), RangeError, /keep_aspect_ratio_policy/],
  ['coordinate_transformation_mode at opset 10', resize(10, { coordinate_transformation_mode: 'asymmetric' }, [X1(), f32([2])]), RangeError, /coordinate_transformation_mode.*Resize-10/],
  ['tf_half_pixel_for_nn at opset 19', resize(19, { coordinate_transformation_mode: 'tf_half_pixel_for_nn' }, [X1(), null, f32([2])]), RangeError, /coordinate_transformation_mode.*tf_half_pixel_for_nn/],
  ['tf_half_pixel_for_nn at opset 18', resize(18, { coordinate_transformation_mode: 'tf_half_pixel_for_nn' }, [X1(), null, f32([2])]), RangeError, /coordinate_transformation_mode.*tf_half_pixel_for_nn/],
  ['half_pixel_symmetric at opset 18', resize(18, { coordinate_transformation_mode: 'half_pixel_symmetric' }, [X1(), null, f32([2])]), RangeError, /coordinate_transformation_mode.*half_pixel_symmetric/],
  ['half_pixel_symmetric at opset 13', resize(13, { coordinate_transformation_mode: 'half_pixel_symmetric' }, [X1(), null, f32([2])]), RangeError, /coordinate_transformation_mode.*half_pixel_symmetric/],
  ['resize(): tf_half_pixel_for_nn', (s) => s.resize(X1(), { scales: [2], coordinateTransformationMode: 'tf_half_pixel_for_nn' }), RangeError, /coordinateTransformationMode.*tf_half_pixel_for_nn/],
  ['Resize before opset 10', resize(9, {}, [X1(), f32([2])]), RangeError, /opset.*Resize/],
  ['Resize-10 with four inputs', resize(10, {}, [X1(), f32([2]), null, null]), RangeError, /inputs/],
  ['Resize-19 with five inputs', resize(19, {}, [X1(), null, f32([2]), null, null]), RangeError, /inputs/],
  ['unknown opType, did you mean', (s) => s.run({ opType: 'Resise', opset: 19 }, [X1()]), RangeError, /opType.*'Resise'.*did you mean 'Resize'/],
  ['opset 0', (s) => s.run({ opType: 'Resize', opset: 0 }, [X1(), null, f32([2])]), RangeError, /opset/],
  ['Upsample scale < 1 (opset 9)', upsample(9, {}, [X4(), f32([1, 1, 0.5, 2])]), RangeError, /scales\[2\].*0\.5/],
  ['Upsample scale < 1 (opset 7)', upsample(7, { scales: [0.5] }, [X1()]), RangeError, /scales\[0\].*0\.5/],
  ['upsample(): scale < 1', (s) => s.upsample(X1(), { scales: [0.75] }), RangeError, /scales\[0\]/],
  ['upsample(): NaN scale', (s) => s.upsample(X1(), { scales: [NaN] }), RangeError, /scales\[0\]/],
  ['Upsample scales of the wrong length', upsample(9, {}, [X4(), f32([2, 2])]), RangeError, /\bscales\b/],
  ['Upsample mode cubic', upsample(9, { mode: 'cubic' }, [X1(), f32([2])]), RangeError, /\bmode\b.*'cubic'/],
  ['Upsample-9 with a scales attribute', upsample(9, { scales: [2] }, [X1(), f32([2])]), RangeError, /\bscales\b.*Upsample-9/],
  ['Upsample before opset 7', upsample(6, {}, [X1()]), RangeError, /opset/],
  ['GridSample-16 with 5-D input', gridSample(16, {}, [X5(), GRID5()]), RangeError, /\bX\b.*GridSample-16.*5/],
  ['GridSample-16 with 3-D input', gridSample(16, {}, [f32([1, 2], [1, 1, 2]), f32([0], [1, 1, 1])]), RangeError, /\bX\b.*GridSample-16/],
  ['GridSample with 2-D input', (s) => s.gridSample(f32([1, 2], [1, 2]), f32([0], [1, 1])), RangeError, /\bX\b.*rank/],
  ['GridSample-16 mode linear (opset 20 name)', gridSample(16, { mode: 'linear' }, [X4(), GRID()]), RangeError, /\bmode\b.*'linear'.*did you mean 'bilinear'/],
  ['GridSample-20 mode bilinear (opset 16 name)', gridSample(20, { mode: 'bilinear' }, [X4(), GRID()]), RangeError, /\bmode\b.*'bilinear'/],
  ['GridSample unknown padding_mode', gridSample(22, { padding_mode: 'reflect' }, [X4(), GRID()]), RangeError, /padding_mode.*'reflect'.*did you mean 'reflection'/],
  ['GridSample align_corners of 2', gridSample(22, { align_corners: 2 }, [X4(), GRID()]), RangeError, /align_corners/],
  ['GridSample before opset 16', gridSample(15, {}, [X4(), GRID()]), RangeError, /opset.*GridSample/],
  ['grid last dim is not the spatial rank', (s) => s.gridSample(X4(), f32([0, 0, 0], [1, 1, 1, 3])), RangeError, /\bgrid\b/],
  ['grid last dim is not the spatial rank (5-D X)', gridSample(20, {}, [X5(), f32([0, 0], [1, 1, 1, 1, 2])]), RangeError, /\bgrid\b/],
  ['grid rank does not match X', (s) => s.gridSample(X4(), f32([0, 0], [1, 1, 2])), RangeError, /\bgrid\b/],
  ['grid batch does not match X', (s) => s.gridSample(f32(new Array(8).fill(0), [2, 1, 2, 2]), f32([0, 0, 0, 0, 0, 0], [3, 1, 1, 2])), RangeError, /\bgrid\b.*(batch|N|\b3\b)/],
  ['GridSample with three inputs', gridSample(22, {}, [X4(), GRID(), GRID()]), RangeError, /inputs/],
  ['gridSample(): unknown mode', (s) => s.gridSample(X4(), GRID(), { mode: 'bicubic' }), RangeError, /\bmode\b.*'bicubic'/],
];

// ---------------------------------------------------------------- the tests

// A small Resize and GridSample whose results are known by hand.
function checkStillWorks(sampler, where) {
  // linear, half_pixel, [1, 2, 3, 4] (2x2) -> 4x4; first row [1, 1.25, 1.75, 2]
  const y = sampler.resize(X4(), { mode: 'linear', sizes: [1, 1, 4, 4] });
  assert.deepEqual(y.dims, [1, 1, 4, 4], `${where}: resize dims`);
  assert.deepEqual(Array.from(y.data), [1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4],
    `${where}: resize values`);
  // grid (0, 0) is the centre (2.5); (0.5, -0.5) with align_corners 0 is pixel (x 1, y 0) -> 2
  const g = sampler.gridSample(X4(), GRID());
  assert.deepEqual(Array.from(g.data), [2.5, 2], `${where}: gridSample values`);
}

test('the sampler works before any error', async () => {
  checkStillWorks(await samplerPromise, 'before the errors');
});

for (const [name, call, Cls, re] of CASES) {
  test(`${Cls.name}: ${name}`, async () => {
    const sampler = await samplerPromise;
    let thrown = null;
    try {
      call(sampler);
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown !== null, `${name}: expected a ${Cls.name}, but the call returned normally`);
    assert.equal(thrown.constructor, Cls, `${name}: expected a ${Cls.name}, got ${thrown.constructor.name}: ${thrown.message}`);
    assert.match(thrown.message, re, `${name}: message ${JSON.stringify(thrown.message)} does not match ${re}`);
    checkStillWorks(sampler, `after "${name}"`);
  });
}

test('createSampler rejects a non-object options argument with a TypeError', async () => {
  const { createSampler } = await modPromise;
  await assert.rejects(() => createSampler('osw.wasm'), (e) => e instanceof TypeError && /options/.test(e.message));
  await assert.rejects(() => createSampler(42), TypeError);
  await assert.rejects(() => createSampler(null), TypeError);
  await assert.rejects(() => createSampler([]), TypeError);
});

test('createSampler rejects unknown options with a "did you mean", like every other function', async () => {
  const { createSampler } = await modPromise;
  await assert.rejects(() => createSampler({ wasmURL: 'x.wasm' }),
    (e) => e instanceof RangeError && /^createSampler: unknown option 'wasmURL' \(did you mean 'wasmUrl'\?\); known options: wasmUrl, wasmBinary, maxBytes, threads, loadCompat, worker, transfer$/.test(e.message));
  await assert.rejects(() => createSampler({ maxbytes: 1e6 }), (e) => e instanceof RangeError && /did you mean 'maxBytes'/.test(e.message));
  await assert.rejects(() => createSampler({ wasm: new Uint8Array(8) }), (e) => e instanceof RangeError && /'wasm'/.test(e.message));
});

test('createSampler checks the types of its options', async () => {
  const { createSampler } = await modPromise;
  await assert.rejects(() => createSampler({ wasmBinary: 'osw-node.wasm' }),
    (e) => e instanceof TypeError && /^createSampler: wasmBinary: expected the \.wasm bytes \(an ArrayBuffer or Uint8Array\) or a compiled WebAssembly\.Module, got the string "osw-node\.wasm"$/.test(e.message));
  await assert.rejects(() => createSampler({ wasmBinary: [0, 97, 115, 109] }), (e) => e instanceof TypeError && /wasmBinary/.test(e.message));
  await assert.rejects(() => createSampler({ wasmUrl: 42 }),
    (e) => e instanceof TypeError && /^createSampler: wasmUrl: expected a string or a URL, got number 42$/.test(e.message));
  await assert.rejects(() => createSampler({ wasmUrl: {} }), (e) => e instanceof TypeError && /wasmUrl/.test(e.message));
  await assert.rejects(() => createSampler({ maxBytes: '1e6' }), (e) => e instanceof TypeError && /maxBytes/.test(e.message));
  // the accepted forms: a URL object (here the file: URL of the package's own osw.wasm),
  // undefined for an absent option
  const wasmUrl = new URL('osw.wasm', pathToFileURL(packageEntry()));
  const s = await createSampler({ wasmUrl, wasmBinary: undefined, maxBytes: 1e6 });
  checkStillWorks(s, 'a sampler made with a URL object');
});

test('sizes containing 0 give an empty output (the spec allows a length of 0)', async () => {
  const sampler = await samplerPromise;
  const y = sampler.resize(X4(), { sizes: [1, 1, 0, 3], mode: 'linear' });
  assert.deepEqual(y.dims, [1, 1, 0, 3]);
  assert.equal(y.data.length, 0);
  assert.ok(y.data instanceof Float32Array);
  const [z] = sampler.run({ opType: 'Resize', opset: 19, attributes: { mode: 'cubic' } }, [X4(), null, null, i64([0, 1, 2, 2])]);
  assert.deepEqual(z.dims, [0, 1, 2, 2]);
  assert.equal(z.data.length, 0);
  // the same as scales whose floor(length * scale) is 0
  assert.deepEqual(sampler.resize(X4(), { scales: [1, 1, 0.25, 1] }).dims, [1, 1, 0, 2]);
});

test('roi without tf_crop_and_resize is ignored (the spec: it only takes effect in that mode)', async () => {
  const sampler = await samplerPromise;
  const x = f32([1, 5, 2, 8, 3, 9, 4, 7, 6], [3, 3]);
  const plain = sampler.resize(x, { scales: [2, 1.5], mode: 'linear' });
  // a roi of the right length, of a wrong length and of a wrong kind: none is looked at
  for (const roi of [[0.2, 0.1, 0.8, 0.9], [0.5], 'roi']) {
    const y = sampler.resize(x, { scales: [2, 1.5], mode: 'linear', roi });
    assert.deepEqual(y.dims, plain.dims);
    assert.deepEqual(Array.from(y.data), Array.from(plain.data));
  }
  const node = { opType: 'Resize', opset: 19, attributes: { mode: 'linear' } };
  const [ref] = sampler.run(node, [x, null, f32([2, 1.5])]);
  for (const roi of [f32([0.2, 0.1, 0.8, 0.9]), f32([0.5]), i64([0, 1])]) {
    const [y] = sampler.run(node, [x, roi, f32([2, 1.5])]);
    assert.deepEqual(Array.from(y.data), Array.from(ref.data));
  }
  assert.deepEqual(Array.from(ref.data), Array.from(plain.data));
});

test('resizeImage to a huge size is the documented "needs N bytes" RangeError, before any allocation', async () => {
  const sampler = await samplerPromise;
  const img = { width: 2, height: 2, data: new Uint8ClampedArray(16).fill(200) };
  const mem = sampler.memoryBytes;
  assert.throws(() => sampler.resizeImage(img, { width: 100000, height: 100000 }),
    (e) => e instanceof RangeError &&
      /^resizeImage: the 100000 x 100000 output needs 160000000000 bytes of wasm memory \(float32 RGBA\), more than the limit of 2147483648 bytes/.test(e.message));
  assert.throws(() => sampler.resizeImage(img, { scale: 50000 }), (e) => e instanceof RangeError && /needs 160000000000 bytes/.test(e.message));
  assert.equal(sampler.memoryBytes, mem, 'wasm memory did not grow');
  checkStillWorks(sampler, 'after resizeImage refused');
  assert.deepEqual([sampler.resizeImage(img, { width: 3 }).width, sampler.resizeImage(img, { width: 3 }).height], [3, 3]);
});

test('the same sampler computes correct results after the whole error table', async () => {
  const sampler = await samplerPromise;
  for (const [, call] of CASES) { try { call(sampler); } catch { /* expected */ } }
  checkStillWorks(sampler, 'after all errors');
  // and an exact nearest resize through run()
  const y = sampler.run({ opType: 'Resize', opset: 19, attributes: { mode: 'nearest', coordinate_transformation_mode: 'asymmetric' } },
    [f32([10, 20, 30]), null, f32([2])])[0];
  assert.deepEqual(Array.from(y.data), [10, 10, 20, 20, 30, 30]);
});

test('tf_crop_and_resize without roi reads the full range [0, ..., 0, 1, ..., 1], in every compat (issue 18)', async () => {
  const sampler = await samplerPromise;
  const x = f32([1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 2, 4]);
  for (const compat of ['onnx', 'onnxruntime', 'pytorch']) {
    for (const mode of ['nearest', 'linear', 'cubic']) {
      const attributes = { mode, coordinate_transformation_mode: 'tf_crop_and_resize' };
      const [full] = sampler.run({ opType: 'Resize', opset: 13, attributes, compat }, [x, f32([0, 0, 0, 0, 1, 1, 1, 1]), null, i64([1, 1, 3, 3])]);
      const [none] = sampler.run({ opType: 'Resize', opset: 13, attributes, compat }, [x, null, null, i64([1, 1, 3, 3])]);
      assert.deepEqual(Array.from(none.data), Array.from(full.data), `${compat} ${mode}`);
      // ONNX Runtime 1.30 measured: linear and cubic give these (docs/ort-compat-findings.md)
      if (mode !== 'nearest') assert.deepEqual(Array.from(none.data), [1, 2.5, 4, 3, 4.5, 6, 5, 6.5, 8]);
      const [axes] = sampler.run({ opType: 'Resize', opset: 18, attributes: { ...attributes, axes: [2, 3] }, compat }, [x, null, null, i64([3, 3])]);
      assert.deepEqual(Array.from(axes.data), Array.from(full.data));
      const opts = { mode, coordinateTransformationMode: 'tf_crop_and_resize', sizes: [3, 3], axes: [2, 3], compat };
      assert.deepEqual(Array.from(sampler.resize(x, opts).data), Array.from(full.data));
    }
  }
});

test('the length messages of roi say "twice the length of axes" / "twice the rank of X"', async () => {
  const sampler = await samplerPromise;
  const x = f32([1, 2, 3, 4], [1, 1, 2, 2]);
  assert.throws(() => sampler.run({ opType: 'Resize', opset: 18, attributes: { coordinate_transformation_mode: 'tf_crop_and_resize', axes: [1, 2, 3] } }, [x, f32([0, 1]), f32([1, 2, 2])]),
    { name: 'RangeError', message: 'roi: expected 6 values (twice the length of axes), got 2' });
  assert.throws(() => sampler.run({ opType: 'Resize', opset: 13, attributes: { coordinate_transformation_mode: 'tf_crop_and_resize' } }, [x, f32([0, 1]), f32([1, 1, 2, 2])]),
    { name: 'RangeError', message: 'roi: expected 8 values (twice the rank of X), got 2' });
  assert.throws(() => sampler.resize(x, { coordinateTransformationMode: 'tf_crop_and_resize', roi: [0, 1], scales: [2, 2], axes: [3, 2] }),
    { name: 'RangeError', message: 'roi: expected 4 values (twice the length of axes), got 2' });
  assert.throws(() => sampler.resize(x, { scales: [2, 2] }), { name: 'RangeError', message: 'scales: expected 4 values (the rank of x), got 2' });
  assert.throws(() => sampler.run({ opType: 'Resize', opset: 13, attributes: {} }, [x, null, f32([1, 2])]),
    { name: 'RangeError', message: 'scales: expected 4 values (the rank of X), got 2' });
});

test("GridSample: an X with an empty spatial axis is a RangeError under compat 'onnxruntime' (as ONNX Runtime), zeros by default under zeros padding (issue 18)", async () => {
  const sampler = await samplerPromise;
  const x = { type: 'float32', dims: [1, 2, 0, 3], data: new Float32Array(0) };
  const grid = f32([0, 0, 0.5, NaN], [1, 1, 2, 2]);
  const y = sampler.gridSample(x, grid);
  assert.deepEqual(y.dims, [1, 2, 1, 2]);
  assert.deepEqual(Array.from(y.data), [0, NaN, 0, NaN]);
  const message = "X: spatial dimension 2 has length 0; compat 'onnxruntime' rejects it, as ONNX Runtime does (there is no pixel to sample)";
  for (const padding of ['zeros', 'border', 'reflection']) {
    assert.throws(() => sampler.gridSample(x, grid, { paddingMode: padding, compat: 'onnxruntime' }), { name: 'RangeError', message });
    assert.throws(() => sampler.run({ opType: 'GridSample', opset: 20, attributes: { padding_mode: padding }, compat: 'onnxruntime' }, [x, grid]), { name: 'RangeError', message });
  }
  // also when Y has no element (ONNX Runtime checks X first)
  assert.throws(() => sampler.gridSample(x, f32([], [1, 0, 2, 2]), { compat: 'onnxruntime' }), { name: 'RangeError', message });
  assert.deepEqual(sampler.gridSample(x, f32([], [1, 0, 2, 2])).dims, [1, 2, 0, 2]);
});
