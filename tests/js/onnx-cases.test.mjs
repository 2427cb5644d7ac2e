// onnx-cases.test.mjs — owns the self-test of tests/js/onnx-cases.mjs (no package needed).
//
// Checks that the decoder finds all 188 cases (58 + 31 + 87 + 12), that every decoded tensor
// agrees with index.json (dtype, shape, listed "value"s, input positions, attributes),
// that TensorProto decoding works for every storage form and data type, that mismatching
// metadata is rejected, and how compareTensors() treats tolerance edges, NaN, integers,
// dtypes and shapes.
//
// Run: node --test tests/js/onnx-cases.test.mjs   (env OSW_CONFORMANCE overrides the data dir)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import {
  CONFORMANCE_DIR, EXPECTED_CASES, PENDING_SETS, SETS, loadCases, readIndex, decodeTensor, compareTensors, arrayTypeFor,
  float16BitsToNumber, bfloat16BitsToNumber,
} from './onnx-cases.mjs';

const { onnx } = onnxProto;
const CONFORMANCE = CONFORMANCE_DIR;

const EXPECTED_COUNTS = { upstream: 58, 'onnx-1.12': 31, 'older-opsets': 87, affinegrid: 12 };

const cases = loadCases(CONFORMANCE);
const indexBySet = Object.fromEntries(SETS.map((s) => [s, readIndex(CONFORMANCE, s)]));
const entryOf = (c) => indexBySet[c.set].find((e) => e.name === c.name);

test('finds 188 cases: 58 upstream + 31 onnx-1.12 + 87 older-opsets + 12 affinegrid', () => {
  assert.equal(cases.length, 188);
  assert.equal(EXPECTED_CASES, 188);
  for (const set of SETS) {
    assert.equal(cases.filter((c) => c.set === set).length, EXPECTED_COUNTS[set], set);
    assert.equal(indexBySet[set].length, EXPECTED_COUNTS[set], `${set}/index.json`);
  }
  const ids = new Set(cases.map((c) => `${c.set}/${c.name}`));
  assert.equal(ids.size, 188, 'case ids are unique');
});

test('the data is the repository\'s own: tests/conformance, with the AffineGrid set run', () => {
  if (!process.env.OSW_CONFORMANCE) assert.ok(CONFORMANCE.endsWith(`${path.sep}tests${path.sep}conformance`), CONFORMANCE);
  assert.ok(fs.existsSync(path.join(CONFORMANCE, 'NOTICE.md')), 'NOTICE.md states origin and license');
  // AffineGrid-20: 12 cases, each a model and one input/output pair
  const affine = readIndex(CONFORMANCE, 'affinegrid');
  assert.equal(affine.length, 12);
  for (const e of affine) {
    assert.equal(e.op, 'AffineGrid', e.name);
    for (const f of ['model.onnx', 'test_data_set_0/input_0.pb', 'test_data_set_0/input_1.pb', 'test_data_set_0/output_0.pb'])
      assert.ok(fs.existsSync(path.join(CONFORMANCE, 'affinegrid', e.name, f)), `affinegrid/${e.name}/${f}`);
  }
  assert.ok(SETS.includes('affinegrid'), 'the runners run the AffineGrid set');
  assert.deepEqual(Object.keys(PENDING_SETS), [], 'no set is skipped');
  assert.deepEqual(cases.filter((c) => c.op === 'AffineGrid').map((c) => c.name).sort(), affine.map((e) => e.name).sort());
});

test('op, opset and attributes match index.json', () => {
  for (const c of cases) {
    const e = entryOf(c);
    const id = `${c.set}/${c.name}`;
    assert.ok(e, id);
    assert.equal(c.op, e.op, id);
    assert.equal(c.opset, e.opset, id);
    assert.deepEqual(Object.keys(c.attributes).sort(), Object.keys(e.attributes).sort(), id);
    for (const [k, v] of Object.entries(e.attributes)) {
      const got = c.attributes[k];
      if (typeof v === 'number') assert.equal(got, Math.fround(v), `${id} ${k}`);
      else if (Array.isArray(v)) assert.deepEqual(got, v.map((x) => (Number.isInteger(x) ? x : Math.fround(x))), `${id} ${k}`);
      else assert.equal(got, v, `${id} ${k}`);
    }
  }
});

test('inputs are positional: null exactly where node_inputs has ""', () => {
  for (const c of cases) {
    const e = entryOf(c);
    const id = `${c.set}/${c.name}`;
    assert.ok(c.inputs.length <= e.node_inputs.length, id);
    e.node_inputs.forEach((name, i) => {
      if (name === '') assert.ok(c.inputs[i] === null || c.inputs[i] === undefined, `${id} input ${i} should be omitted`);
      else assert.ok(c.inputs[i] && typeof c.inputs[i] === 'object', `${id} input ${i} (${name}) missing`);
    });
  }
});

test('every input and output has the dtype and shape listed in index.json', () => {
  let checked = 0;
  for (const c of cases) {
    const e = entryOf(c);
    const id = `${c.set}/${c.name}`;
    const present = c.inputs.filter((t) => t);
    assert.equal(present.length, e.inputs.length, `${id} number of present inputs`);
    const tensors = [...present.map((t, i) => [t, e.inputs[i], `input ${i}`]), [c.expected, e.outputs[0], 'output']];
    assert.equal(e.outputs.length, 1, id);
    for (const [t, listed, what] of tensors) {
      assert.equal(t.type, listed.dtype, `${id} ${what} dtype`);
      assert.deepEqual(t.dims, listed.shape, `${id} ${what} shape`);
      assert.ok(t.data instanceof arrayTypeFor(t.type), `${id} ${what} data is ${t.data.constructor.name}`);
      assert.equal(t.data.length, t.dims.reduce((a, b) => a * b, 1), `${id} ${what} element count`);
      assert.equal(t.data.byteOffset % t.data.BYTES_PER_ELEMENT, 0, `${id} ${what} aligned`);
      checked++;
    }
  }
  assert.equal(checked, 606); // inputs + outputs listed in the four index files (570 + 12 x 3)
});

test('decoded input values equal index.json "value" fields', () => {
  let checked = 0;
  for (const c of cases) {
    const e = entryOf(c);
    const id = `${c.set}/${c.name}`;
    const present = c.inputs.filter((t) => t);
    e.inputs.forEach((listed, i) => {
      if (!('value' in listed)) return;
      const data = present[i].data;
      assert.equal(data.length, listed.value.length, `${id} ${listed.name} length`);
      listed.value.forEach((v, j) => {
        if (typeof data[j] === 'bigint') assert.equal(data[j], BigInt(v), `${id} ${listed.name}[${j}]`);
        else assert.equal(data[j], v, `${id} ${listed.name}[${j}]`);
      });
      checked++;
    });
  }
  assert.equal(checked, 168);
});

test('index.json itself: shapes of listed values and case directories', () => {
  for (const set of SETS) {
    const dirs = fs.readdirSync(path.join(CONFORMANCE, set), { withFileTypes: true })
      .filter((d) => d.isDirectory()).map((d) => d.name).sort();
    assert.deepEqual(dirs, indexBySet[set].map((e) => e.name).sort(), `${set}: directories vs index.json`);
  }
});

// ---------------------------------------------------------------------------
// TensorProto decoding, all storage forms

function encode(fields) {
  return onnx.TensorProto.encode(onnx.TensorProto.create(fields)).finish();
}
function rawBytes(typed) {
  return new Uint8Array(typed.buffer.slice(typed.byteOffset, typed.byteOffset + typed.byteLength));
}

test('decodeTensor: raw_data for every data type (little-endian, aligned copy)', () => {
  const samples = [
    [1, new Float32Array([1.5, -0, NaN, Infinity, 3.4028234663852886e38])],
    [11, new Float64Array([Math.PI, -1e300, NaN])],
    [2, new Uint8Array([0, 255, 7])],
    [3, new Int8Array([-128, 127, -1])],
    [4, new Uint16Array([0, 65535, 1234])],
    [5, new Int16Array([-32768, 32767, -2])],
    [6, new Int32Array([-2147483648, 2147483647, 5])],
    [12, new Uint32Array([4294967295, 0, 17])],
    [7, new BigInt64Array([-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n])],
    [13, new BigUint64Array([2n ** 64n - 1n, 0n, 2n ** 63n + 5n])],
    [9, new Uint8Array([1, 0, 1])],
    [10, new Uint16Array([0x3c00, 0x7e00, 0xfbff])],
    [16, new Uint16Array([0x3f80, 0xff80, 0x4049])],
  ];
  assert.ok(new Uint8Array(new Uint16Array([1]).buffer)[0] === 1, 'test host is little-endian');
  for (const [code, values] of samples) {
    const t = decodeTensor(encode({ dataType: code, dims: [values.length], rawData: rawBytes(values) }));
    assert.ok(t.data instanceof values.constructor, `type ${code}: ${t.data.constructor.name}`);
    assert.deepEqual(t.dims, [values.length]);
    assert.deepEqual(Array.from(t.data), Array.from(values), `type ${code}`);
  }
  // raw_data at an odd offset inside a larger buffer still decodes into an aligned array
  const f = new Float32Array([1, 2, 3, 4]);
  const bytes = encode({ dataType: 1, dims: [2, 2], rawData: rawBytes(f), name: 'x' });
  const shifted = new Uint8Array(bytes.length + 3);
  shifted.set(bytes, 3);
  const t = decodeTensor(shifted.subarray(3));
  assert.equal(t.name, 'x');
  assert.deepEqual(t.dims, [2, 2]);
  assert.equal(t.data.byteOffset, 0);
  assert.deepEqual(Array.from(t.data), [1, 2, 3, 4]);
});

test('decodeTensor: typed repeated fields, 64-bit values exact', () => {
  const cases64 = [
    [{ dataType: 1, dims: [3], floatData: [0.5, -2, 3.25] }, 'float32', [0.5, -2, 3.25]],
    [{ dataType: 11, dims: [2], doubleData: [0.1, -1e-300] }, 'float64', [0.1, -1e-300]],
    [{ dataType: 6, dims: [2], int32Data: [-7, 2147483647] }, 'int32', [-7, 2147483647]],
    [{ dataType: 3, dims: [2], int32Data: [-128, 127] }, 'int8', [-128, 127]],
    [{ dataType: 2, dims: [2], int32Data: [0, 255] }, 'uint8', [0, 255]],
    [{ dataType: 5, dims: [1], int32Data: [-300] }, 'int16', [-300]],
    [{ dataType: 4, dims: [1], int32Data: [65535] }, 'uint16', [65535]],
    [{ dataType: 9, dims: [2], int32Data: [1, 0] }, 'bool', [1, 0]],
    [{ dataType: 10, dims: [2], int32Data: [0x3c00, 0xc000] }, 'float16', [0x3c00, 0xc000]],
    [{ dataType: 16, dims: [1], int32Data: [0x3f80] }, 'bfloat16', [0x3f80]],
    [{ dataType: 7, dims: [3], int64Data: ['-9223372036854775808', '9007199254740993', '-1'] }, 'int64',
      [-(2n ** 63n), 2n ** 53n + 1n, -1n]],
    [{ dataType: 13, dims: [2], uint64Data: ['18446744073709551615', '9223372036854775813'] }, 'uint64',
      [2n ** 64n - 1n, 2n ** 63n + 5n]],
    [{ dataType: 12, dims: [1], uint64Data: ['4294967295'] }, 'uint32', [4294967295]],
    [{ dataType: 1, dims: [0] }, 'float32', []],
    [{ dataType: 1, dims: [] , floatData: [7] }, 'float32', [7]],
  ];
  for (const [fields, type, values] of cases64) {
    const t = decodeTensor(encode(fields));
    assert.equal(t.type, type);
    assert.ok(t.data instanceof arrayTypeFor(type), `${type}: ${t.data.constructor.name}`);
    assert.deepEqual(Array.from(t.data), values, type);
  }
  // large dims come through exactly too
  const big = decodeTensor(encode({ dataType: 1, dims: [1, 0, 3000000000] }));
  assert.deepEqual(big.dims, [1, 0, 3000000000]);
});

test('decodeTensor: rejects inconsistent or unsupported tensors', () => {
  assert.throws(() => decodeTensor(encode({ dataType: 1, dims: [3], floatData: [1, 2] })), /2 values for 3/);
  assert.throws(() => decodeTensor(encode({ dataType: 1, dims: [2], rawData: new Uint8Array(7) })), /raw_data has 7 bytes/);
  assert.throws(() => decodeTensor(encode({ dataType: 8, dims: [1], stringData: [new Uint8Array([65])] })), /unsupported data_type 8/);
  assert.throws(() => decodeTensor(encode({ dataType: 1, dims: [1], dataLocation: 1 })), /external/);
});

test('half-precision helpers', () => {
  assert.equal(float16BitsToNumber(0x3c00), 1);
  assert.equal(float16BitsToNumber(0xc000), -2);
  assert.equal(float16BitsToNumber(0x0001), 2 ** -24);
  assert.equal(float16BitsToNumber(0x7c00), Infinity);
  assert.ok(Number.isNaN(float16BitsToNumber(0x7e00)));
  assert.equal(float16BitsToNumber(0x7bff), 65504);
  assert.equal(bfloat16BitsToNumber(0x3f80), 1);
  assert.equal(bfloat16BitsToNumber(0xc040), -3);
  assert.ok(Number.isNaN(bfloat16BitsToNumber(0x7fc0)));
});

// ---------------------------------------------------------------------------
// loadCases rejects a model that disagrees with index.json

test('loadCases throws when index.json disagrees with the model', (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'osw-cases-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const build = (mutate) => {
    const root = fs.mkdtempSync(path.join(tmp, 'c-'));
    for (const set of SETS) {
      const entry = structuredClone(indexBySet[set][0]);
      fs.mkdirSync(path.join(root, set));
      fs.symlinkSync(path.join(CONFORMANCE, set, entry.name), path.join(root, set, entry.name), 'dir');
      fs.writeFileSync(path.join(root, set, 'index.json'), JSON.stringify([set === 'upstream' ? mutate(entry) : entry]));
    }
    return root;
  };
  assert.equal(loadCases(build((e) => e)).length, SETS.length, 'unchanged copies load');
  assert.throws(() => loadCases(build((e) => ({ ...e, op: 'Upsample' }))), /op_type Resize but index.json says Upsample/);
  assert.throws(() => loadCases(build((e) => ({ ...e, node_inputs: ['X', 'scales'] }))), /node inputs/);
  assert.throws(() => loadCases(build((e) => ({ ...e, opset: 18 }))), /opset/);
  assert.throws(() => loadCases(build((e) => ({ ...e, attributes: { mode: 'linear' } }))), /attribute mode/);
  assert.throws(() => loadCases(path.join(tmp, 'nonexistent')), /does not exist/);
});

// ---------------------------------------------------------------------------
// compareTensors

const f32 = (dims, values) => ({ type: 'float32', dims, data: new Float32Array(values) });
const f64 = (dims, values) => ({ type: 'float64', dims, data: new Float64Array(values) });

test('compareTensors: equal tensors and the tolerance edge', () => {
  const c = cases[0];
  assert.equal(compareTensors(c.expected, c.expected), null);
  assert.equal(compareTensors({ ...c.expected, data: c.expected.data.slice() }, c.expected), null);

  // |a - e| <= 1e-7 + 1e-3 * |e|
  assert.equal(compareTensors(f64([1], [1025]), f64([1], [1024])), null); // diff 1 <= 1.0240001
  assert.equal(compareTensors(f64([1], [1024 + 1.024]), f64([1], [1024])), null);
  assert.match(compareTensors(f64([1], [1025.03]), f64([1], [1024])), /index 0: actual 1025.03, expected 1024/);
  assert.equal(compareTensors(f64([1], [1e-7]), f64([1], [0])), null); // atol alone
  assert.equal(compareTensors(f64([1], [-1e-7]), f64([1], [0])), null);
  assert.notEqual(compareTensors(f64([1], [1.0000001e-7]), f64([1], [0])), null);
  assert.equal(compareTensors(f64([1], [-2.002]), f64([1], [-2])), null); // relative to |expected|
  assert.notEqual(compareTensors(f64([1], [-2.0021]), f64([1], [-2])), null);
  assert.equal(compareTensors(f32([2], [1, 100.09]), f32([2], [1, 100])), null);
  assert.match(compareTensors(f32([2], [1, 100.2]), f32([2], [1, 100])), /index 1/);
  // tolerance is relative to expected, not actual
  assert.notEqual(compareTensors(f64([1], [0]), f64([1], [1e-6])), null);
});

test('compareTensors: NaN equals NaN, infinities exact', () => {
  assert.equal(compareTensors(f32([2], [NaN, 1]), f32([2], [NaN, 1])), null);
  assert.match(compareTensors(f32([1], [0]), f32([1], [NaN])), /index 0: actual 0, expected NaN/);
  assert.match(compareTensors(f32([1], [NaN]), f32([1], [0])), /actual NaN/);
  assert.equal(compareTensors(f32([1], [Infinity]), f32([1], [Infinity])), null);
  assert.notEqual(compareTensors(f32([1], [-Infinity]), f32([1], [Infinity])), null);
  assert.notEqual(compareTensors(f32([1], [3e38]), f32([1], [Infinity])), null);
});

test('compareTensors: integers and bool are exact, BigInt beyond 2^53', () => {
  const i32 = (v) => ({ type: 'int32', dims: [v.length], data: new Int32Array(v) });
  assert.equal(compareTensors(i32([1, -5]), i32([1, -5])), null);
  assert.match(compareTensors(i32([1, -4]), i32([1, -5])), /index 1: actual -4, expected -5/);
  const u8 = (v) => ({ type: 'uint8', dims: [v.length], data: new Uint8Array(v) });
  assert.notEqual(compareTensors(u8([200]), u8([201])), null); // 0.5% off, still a mismatch
  const b = (v) => ({ type: 'bool', dims: [v.length], data: new Uint8Array(v) });
  assert.notEqual(compareTensors(b([1, 0]), b([1, 1])), null);
  const i64 = (v) => ({ type: 'int64', dims: [v.length], data: new BigInt64Array(v) });
  assert.equal(compareTensors(i64([2n ** 62n + 1n]), i64([2n ** 62n + 1n])), null);
  assert.match(compareTensors(i64([2n ** 62n]), i64([2n ** 62n + 1n])), /actual 4611686018427387904n, expected 4611686018427387905n/);
  const u64 = (v) => ({ type: 'uint64', dims: [v.length], data: new BigUint64Array(v) });
  assert.notEqual(compareTensors(u64([2n ** 64n - 2n]), u64([2n ** 64n - 1n])), null);
});

test('compareTensors: float16 / bfloat16 compare decoded values', () => {
  const h = (type, v) => ({ type, dims: [v.length], data: new Uint16Array(v) });
  assert.equal(compareTensors(h('float16', [0x3c01]), h('float16', [0x3c00])), null); // 1.0009765625 vs 1
  assert.notEqual(compareTensors(h('float16', [0x3c02]), h('float16', [0x3c00])), null);
  assert.equal(compareTensors(h('float16', [0x7e00]), h('float16', [0x7e01])), null); // NaN payloads
  assert.equal(compareTensors(h('float16', [0x8000]), h('float16', [0x0000])), null); // -0 == 0
  assert.notEqual(compareTensors(h('bfloat16', [0x3f81]), h('bfloat16', [0x3f80])), null); // 1.0078125 vs 1
});

test('compareTensors: dtype, shape, length and array kind differences are reported', () => {
  const e = f32([1, 4], [1, 2, 3, 4]);
  assert.match(compareTensors(f32([4], [1, 2, 3, 4]), e), /shape \[4\], expected \[1,4\]/);
  assert.match(compareTensors(f32([4, 1], [1, 2, 3, 4]), e), /shape \[4,1\]/);
  assert.match(compareTensors(f64([1, 4], [1, 2, 3, 4]), e), /type "float64", expected "float32"/);
  assert.match(compareTensors(f32([1, 4], [1, 2, 3]), e), /3 elements, expected 4/);
  assert.match(compareTensors({ type: 'float32', dims: [1, 4], data: [1, 2, 3, 4] }, e), /data is Array, expected Float32Array/);
  assert.match(compareTensors({ type: 'float32', dims: [1, 4], data: new Float64Array(4) }, e), /Float64Array/);
  assert.match(compareTensors(undefined, e), /output is undefined/);
  assert.match(compareTensors(null, e), /output is null/);
  assert.match(compareTensors({ type: 'float32', data: e.data }, e), /shape/);
  // dims given as BigInt or typed array are accepted when equal
  assert.equal(compareTensors({ ...e, dims: [1n, 4n] }, e), null);
  assert.equal(compareTensors({ ...e, dims: new Int32Array([1, 4]) }, e), null);
  // a real case against a slightly wrong copy
  const real = cases.find((c) => c.expected.data.length > 4).expected;
  const bad = { ...real, data: real.data.slice() };
  bad.data[3] += 1;
  assert.match(compareTensors(bad, real), /^at index 3: /);
});
