// onnx-cases.mjs — owns reading the ONNX conformance cases for the JS tests.
//
// Decodes <set>/<case>/model.onnx (ModelProto) and test_data_set_0/*.pb (TensorProto)
// with onnx-proto (protobufjs), turns them into the { type, dims, data } tensors that
// sampler.run() takes, cross-checks them against each set's index.json, and provides
// compareTensors(), the README's comparison rule (|a - e| <= 1e-7 + 1e-3*|e|, NaN equals
// NaN, integers exact, dtypes and shapes equal).
//
// The data lives in the repository, tests/conformance/ (see its NOTICE.md); the env
// OSW_CONFORMANCE points every runner (Node and browsers) at another copy.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** The conformance data folder: $OSW_CONFORMANCE, or <repo>/tests/conformance. */
export const CONFORMANCE_DIR = process.env.OSW_CONFORMANCE
  ? path.resolve(process.env.OSW_CONFORMANCE)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'conformance');

// The sets: the seed operators (Resize, Upsample, GridSample) 58 + 31 + 87 = 176 cases, and
// AffineGrid-20's 12: 188 in all.
export const SETS = ['upstream', 'onnx-1.12', 'older-opsets', 'affinegrid'];
export const EXPECTED_CASES = 188;
// The operators the runners count separately (per op in Node, in one line per runtime).
export const OPS = ['Resize', 'Upsample', 'GridSample', 'AffineGrid'];

// Sets whose operator is not implemented yet: runners skip them and say so. None now.
export const PENDING_SETS = {};

// TensorProto.DataType code -> tensor type name and the TypedArray that holds its data.
export const DATA_TYPES = new Map([
  [1, { type: 'float32', Array: Float32Array }],
  [2, { type: 'uint8', Array: Uint8Array }],
  [3, { type: 'int8', Array: Int8Array }],
  [4, { type: 'uint16', Array: Uint16Array }],
  [5, { type: 'int16', Array: Int16Array }],
  [6, { type: 'int32', Array: Int32Array }],
  [7, { type: 'int64', Array: BigInt64Array }],
  [9, { type: 'bool', Array: Uint8Array }],
  [10, { type: 'float16', Array: Uint16Array }],
  [11, { type: 'float64', Array: Float64Array }],
  [12, { type: 'uint32', Array: Uint32Array }],
  [13, { type: 'uint64', Array: BigUint64Array }],
  [16, { type: 'bfloat16', Array: Uint16Array }],
]);

/** TypedArray constructor for a tensor type name ('float32', 'int64', ...). */
export function arrayTypeFor(type) {
  for (const v of DATA_TYPES.values()) if (v.type === type) return v.Array;
  throw new Error(`unknown tensor type ${JSON.stringify(type)}`);
}

// ---------------------------------------------------------------------------
// 64-bit values from protobufjs: Long objects (when the 'long' module is present),
// plain numbers, or decimal strings. Converted to BigInt without going through a double.

function toBigInt(v, unsigned) {
  let b;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`64-bit value ${v} was not decoded exactly`);
    b = BigInt(v);
  } else if (typeof v === 'string') b = BigInt(v);
  else if (v && typeof v.low === 'number' && typeof v.high === 'number') {
    b = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  } else throw new Error(`cannot read 64-bit value ${String(v)}`);
  return unsigned ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
}

function toSafeNumber(v, what) {
  const b = toBigInt(v, false);
  const n = Number(b);
  if (!Number.isSafeInteger(n)) throw new Error(`${what} ${b} is not a safe integer`);
  return n;
}

// ---------------------------------------------------------------------------
// Half-precision helpers (bits -> number) used by compareTensors.

export function float16BitsToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);
export function bfloat16BitsToNumber(h) {
  u32Scratch[0] = (h & 0xffff) << 16;
  return f32Scratch[0];
}

// ---------------------------------------------------------------------------
// TensorProto -> { type, dims, data }

/**
 * Decode a TensorProto (bytes, or an already decoded onnx.TensorProto) into
 * { name, type, dims, data }. Data comes from raw_data (little-endian, copied into a
 * fresh aligned buffer) or from the typed repeated field that ONNX uses for the type.
 */
export function decodeTensor(bytesOrProto) {
  const t = bytesOrProto instanceof onnx.TensorProto
    ? bytesOrProto
    : onnx.TensorProto.decode(bytesOrProto);
  const info = DATA_TYPES.get(t.dataType);
  if (!info) throw new Error(`tensor ${t.name || '?'}: unsupported data_type ${t.dataType}`);
  if (t.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL || t.externalData.length) {
    throw new Error(`tensor ${t.name || '?'}: external data is not supported`);
  }
  if (t.segment) throw new Error(`tensor ${t.name || '?'}: segmented tensors are not supported`);

  const dims = t.dims.map((d) => {
    const n = toSafeNumber(d, 'dimension');
    if (n < 0) throw new Error(`tensor ${t.name || '?'}: negative dimension ${n}`);
    return n;
  });
  const count = dims.reduce((a, b) => a * b, 1);
  const { type, Array: Ctor } = info;
  let data;

  if (t.rawData && t.rawData.length > 0) {
    const raw = t.rawData;
    const size = Ctor.BYTES_PER_ELEMENT;
    if (raw.length !== count * size) {
      throw new Error(`tensor ${t.name || '?'}: raw_data has ${raw.length} bytes, expected ${count * size}`);
    }
    data = new Ctor(count); // own, aligned buffer
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i < count; i++) {
      const o = i * size;
      switch (type) {
        case 'float32': data[i] = view.getFloat32(o, true); break;
        case 'float64': data[i] = view.getFloat64(o, true); break;
        case 'int8': data[i] = view.getInt8(o); break;
        case 'uint8': case 'bool': data[i] = view.getUint8(o); break;
        case 'int16': data[i] = view.getInt16(o, true); break;
        case 'uint16': case 'float16': case 'bfloat16': data[i] = view.getUint16(o, true); break;
        case 'int32': data[i] = view.getInt32(o, true); break;
        case 'uint32': data[i] = view.getUint32(o, true); break;
        case 'int64': data[i] = view.getBigInt64(o, true); break;
        case 'uint64': data[i] = view.getBigUint64(o, true); break;
        default: throw new Error(`unreachable type ${type}`);
      }
    }
  } else {
    let src;
    let convert = (v) => v;
    switch (type) {
      case 'float32': src = t.floatData; break;
      case 'float64': src = t.doubleData; break;
      case 'int64': src = t.int64Data; convert = (v) => toBigInt(v, false); break;
      // uint32 and uint64 both live in uint64_data
      case 'uint64': src = t.uint64Data; convert = (v) => toBigInt(v, true); break;
      case 'uint32': src = t.uint64Data; convert = (v) => Number(toBigInt(v, true)); break;
      // int32_data holds int32 and every narrower type, half floats as their bit pattern
      case 'float16': case 'bfloat16': src = t.int32Data; convert = (v) => v & 0xffff; break;
      default: src = t.int32Data; break;
    }
    if (src.length !== count) {
      throw new Error(`tensor ${t.name || '?'}: ${src.length} values for ${count} elements (dims [${dims}])`);
    }
    data = new Ctor(count);
    for (let i = 0; i < count; i++) data[i] = convert(src[i]);
  }
  return { name: t.name || '', type, dims, data };
}

// ---------------------------------------------------------------------------
// AttributeProto -> plain JS value

const ATTR = onnx.AttributeProto.AttributeType;

export function attributeValue(a) {
  // protobufjs decodes enum fields as numbers
  switch (a.type) {
    case ATTR.FLOAT: return a.f; // a float32 value, widened exactly to a double
    case ATTR.INT: return toSafeNumber(a.i, `attribute ${a.name}`);
    case ATTR.STRING: return Buffer.from(a.s).toString('utf8');
    case ATTR.FLOATS: return Array.from(a.floats);
    case ATTR.INTS: return a.ints.map((v) => toSafeNumber(v, `attribute ${a.name}`));
    case ATTR.STRINGS: return a.strings.map((s) => Buffer.from(s).toString('utf8'));
    default: throw new Error(`attribute ${a.name}: unsupported type ${a.type}`);
  }
}

function sameAttributeValue(decoded, listed) {
  if (Array.isArray(listed)) {
    return Array.isArray(decoded) && decoded.length === listed.length
      && decoded.every((v, i) => sameAttributeValue(v, listed[i]));
  }
  if (typeof listed === 'number' && typeof decoded === 'number') {
    return decoded === listed || decoded === Math.fround(listed);
  }
  return decoded === listed;
}

// ---------------------------------------------------------------------------
// Cases

export function readIndex(conformanceDir, set) {
  const file = path.join(conformanceDir, set, 'index.json');
  const index = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(index)) throw new Error(`${file}: expected an array`);
  return index;
}

function loadCase(conformanceDir, set, entry) {
  const where = `${set}/${entry.name}`;
  const caseDir = path.join(conformanceDir, set, entry.name);
  const model = onnx.ModelProto.decode(fs.readFileSync(path.join(caseDir, 'model.onnx')));
  const nodes = model.graph ? model.graph.node : [];
  if (nodes.length !== 1) throw new Error(`${where}: model has ${nodes.length} nodes, expected 1`);
  const node = nodes[0];

  // The model must agree with index.json.
  if (node.opType !== entry.op) {
    throw new Error(`${where}: node op_type ${node.opType} but index.json says ${entry.op}`);
  }
  if (node.domain && node.domain !== 'ai.onnx') {
    throw new Error(`${where}: node domain ${JSON.stringify(node.domain)} is not the default domain`);
  }
  const names = node.input.slice();
  if (JSON.stringify(names) !== JSON.stringify(entry.node_inputs)) {
    throw new Error(`${where}: node inputs ${JSON.stringify(names)} but index.json says ${JSON.stringify(entry.node_inputs)}`);
  }
  const opsetEntry = model.opsetImport.find((o) => !o.domain || o.domain === 'ai.onnx');
  const opset = opsetEntry ? toSafeNumber(opsetEntry.version, 'opset') : NaN;
  if (opset !== entry.opset) {
    throw new Error(`${where}: model imports opset ${opset} but index.json says ${entry.opset}`);
  }

  const attributes = {};
  for (const a of node.attribute) {
    if (Object.hasOwn(attributes, a.name)) throw new Error(`${where}: attribute ${a.name} twice`);
    attributes[a.name] = attributeValue(a);
  }
  const listed = entry.attributes || {};
  const keys = new Set([...Object.keys(attributes), ...Object.keys(listed)]);
  for (const k of keys) {
    if (!sameAttributeValue(attributes[k], listed[k])) {
      throw new Error(`${where}: attribute ${k} is ${JSON.stringify(attributes[k])} in the model, ${JSON.stringify(listed[k])} in index.json`);
    }
  }

  // input_K.pb is the K-th non-empty input name; "" becomes null.
  const dataDir = path.join(caseDir, 'test_data_set_0');
  const inputs = [];
  let k = 0;
  for (const name of names) {
    if (name === '') { inputs.push(null); continue; }
    const { name: tensorName, ...tensor } = decodeTensor(fs.readFileSync(path.join(dataDir, `input_${k}.pb`)));
    if (tensorName && tensorName !== name) {
      throw new Error(`${where}: input_${k}.pb is named ${tensorName}, node input ${k} present is ${name}`);
    }
    inputs.push(tensor);
    k++;
  }
  if (fs.existsSync(path.join(dataDir, `input_${k}.pb`))) {
    throw new Error(`${where}: input_${k}.pb exists but the node has only ${k} present inputs`);
  }
  if (node.output.length !== 1) throw new Error(`${where}: node has ${node.output.length} outputs`);
  const { name: outName, ...expected } = decodeTensor(fs.readFileSync(path.join(dataDir, 'output_0.pb')));
  if (outName && outName !== node.output[0]) {
    throw new Error(`${where}: output_0.pb is named ${outName}, node output is ${node.output[0]}`);
  }

  return { set, name: entry.name, op: entry.op, opset, attributes, inputs, expected };
}

/**
 * All cases of SETS, in index.json order:
 * [{ set, name, op, opset, attributes, inputs, expected }].
 */
export function loadCases(conformanceDir) {
  if (!fs.existsSync(conformanceDir)) throw new Error(`conformance directory ${conformanceDir} does not exist`);
  const cases = [];
  for (const set of SETS) {
    for (const entry of readIndex(conformanceDir, set)) cases.push(loadCase(conformanceDir, set, entry));
  }
  return cases;
}

// ---------------------------------------------------------------------------
// Comparison

const FLOAT_TYPES = new Set(['float32', 'float64', 'float16', 'bfloat16']);

function show(v) {
  if (typeof v === 'bigint') return `${v}n`;
  if (Object.is(v, -0)) return '-0';
  return String(v);
}

function describeTensor(t) {
  return `${t.type}[${Array.isArray(t.dims) ? t.dims.join(',') : String(t.dims)}]`;
}

/**
 * null when `actual` equals `expected` under the README's rule, otherwise a short
 * description of the first difference.
 */
export function compareTensors(actual, expected) {
  if (!actual || typeof actual !== 'object') return `output is ${actual === null ? 'null' : typeof actual}, expected a tensor`;
  if (actual.type !== expected.type) {
    return `type ${JSON.stringify(actual.type)}, expected ${JSON.stringify(expected.type)}`;
  }
  const dims = actual.dims;
  if (!dims || typeof dims.length !== 'number' || dims.length !== expected.dims.length
      || Array.from(dims).some((d, i) => Number(d) !== expected.dims[i])) {
    return `shape [${dims ? Array.from(dims).join(',') : dims}], expected [${expected.dims.join(',')}]`;
  }
  const Ctor = arrayTypeFor(expected.type);
  const a = actual.data;
  const e = expected.data;
  if (!(a instanceof Ctor)) {
    return `data is ${a && a.constructor ? a.constructor.name : typeof a}, expected ${Ctor.name} for ${expected.type}`;
  }
  if (a.length !== e.length) {
    return `data has ${a.length} elements, expected ${e.length} for ${describeTensor(expected)}`;
  }
  const toNumber = expected.type === 'float16' ? float16BitsToNumber
    : expected.type === 'bfloat16' ? bfloat16BitsToNumber : (v) => v;
  const isFloat = FLOAT_TYPES.has(expected.type);
  for (let i = 0; i < e.length; i++) {
    if (isFloat) {
      const av = toNumber(a[i]);
      const ev = toNumber(e[i]);
      if (av === ev || (Number.isNaN(av) && Number.isNaN(ev))) continue;
      // infinities must match exactly (as in numpy's isclose), not via an infinite tolerance
      const diff = Math.abs(av - ev);
      const tol = 1e-7 + 1e-3 * Math.abs(ev);
      if (!(diff <= tol) || !Number.isFinite(av) || !Number.isFinite(ev)) {
        return `at index ${i}: actual ${show(av)}, expected ${show(ev)} (|diff| ${show(diff)} > tol ${show(tol)}) in ${describeTensor(expected)}`;
      }
    } else if (a[i] !== e[i]) {
      return `at index ${i}: actual ${show(a[i])}, expected ${show(e[i])} (integers must be exact) in ${describeTensor(expected)}`;
    }
  }
  return null;
}
