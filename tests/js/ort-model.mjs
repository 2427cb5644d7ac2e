// ort-model.mjs — one-node ONNX models run in onnxruntime-web, for the differential tests.
//
// buildModel() encodes a ModelProto holding a single Resize (opsets 10/11/13/18/19),
// Upsample (7/9) or GridSample (16/20/22) node with onnx-proto's protobufjs encoder;
// runOrt() runs it in onnxruntime-web's wasm backend (one thread) and returns the output
// as { type, dims, data }. One InferenceSession per distinct model (op, opset, attributes,
// input types and shapes), cached, so repeated draws of the same geometry stay cheap.
//
//   import { runOrt, ort } from './ort-model.mjs';
//   const y = await runOrt({ opType: 'Resize', opset: 13, attributes: { mode: 'linear' } },
//                          [x, null, scales]);     // null: omitted optional input
//
// Inputs are graph inputs (not initializers), fed at run time, so ORT takes the same path
// a model with computed scales/sizes takes. An omitted optional input becomes the empty
// name "" in the node. ORT errors (model rejected, kernel throws) propagate as exceptions.

import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'fatal';

export { ort };

// tensor type name -> TensorProto.DataType
export const ONNX_TYPE_CODES = {
  float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, string: 8, bool: 9,
  float16: 10, float64: 11, uint32: 12, uint64: 13, bfloat16: 16,
};

// The type of every attribute these operators know (numbers alone cannot tell FLOAT from INT).
const ATTRIBUTE_KINDS = {
  mode: 'string', coordinate_transformation_mode: 'string', nearest_mode: 'string',
  keep_aspect_ratio_policy: 'string', padding_mode: 'string',
  cubic_coeff_a: 'float', extrapolation_value: 'float',
  exclude_outside: 'int', antialias: 'int', align_corners: 'int',
  axes: 'ints', scales: 'floats',
};

const AT = onnx.AttributeProto.AttributeType;

function encodeAttribute(name, value) {
  const kind = ATTRIBUTE_KINDS[name];
  if (!kind) throw new Error(`ort-model: unknown attribute '${name}'`);
  const v = typeof value === 'boolean' ? Number(value) : value;
  switch (kind) {
    case 'string': return { name, type: AT.STRING, s: new TextEncoder().encode(String(v)) };
    case 'float': return { name, type: AT.FLOAT, f: Number(v) };
    case 'int': return { name, type: AT.INT, i: Number(v) };
    case 'ints': return { name, type: AT.INTS, ints: Array.from(v, Number) };
    case 'floats': return { name, type: AT.FLOATS, floats: Array.from(v, Number) };
    default: throw new Error('unreachable');
  }
}

function valueInfo(name, type, dims) {
  const elemType = ONNX_TYPE_CODES[type];
  if (!elemType) throw new Error(`ort-model: no ONNX type for '${type}'`);
  const tensorType = { elemType };
  if (dims) tensorType.shape = { dim: dims.map((d) => ({ dimValue: d })) };
  return { name, type: { tensorType } };
}

const INPUT_NAMES = {
  Resize: (opset) => (opset < 11 ? ['X', 'scales'] : ['X', 'roi', 'scales', 'sizes']),
  Upsample: (opset) => (opset < 9 ? ['X'] : ['X', 'scales']),
  GridSample: () => ['X', 'grid'],
};

/**
 * The ModelProto bytes of one node.
 *   node:   { opType, opset, attributes }  (attribute values as plain JS values)
 *   inputs: positional [{ type, dims } | null]; null omits an optional input.
 * Returns { bytes, inputNames } where inputNames are the graph inputs fed at run time.
 */
export function buildModel(node, inputs) {
  const { opType, opset, attributes = {} } = node;
  const names = INPUT_NAMES[opType];
  if (!names) throw new Error(`ort-model: unsupported op ${opType}`);
  const slots = names(opset);
  if (inputs.length > slots.length) throw new Error(`ort-model: ${opType}-${opset} takes ${slots.length} inputs`);
  const nodeInputs = [];
  const graphInputs = [];
  inputs.forEach((t, i) => {
    if (t === null || t === undefined) { nodeInputs.push(''); return; }
    nodeInputs.push(slots[i]);
    graphInputs.push(valueInfo(slots[i], t.type, t.dims));
  });
  while (nodeInputs.length && nodeInputs[nodeInputs.length - 1] === '') nodeInputs.pop();
  const model = {
    irVersion: 8,
    producerName: 'onnx-sampling-wasm ort-diff',
    opsetImport: [{ domain: '', version: opset }],
    graph: {
      name: `${opType}_${opset}`,
      node: [{
        opType, domain: '', name: 'n0', input: nodeInputs, output: ['Y'],
        attribute: Object.entries(attributes).filter(([, v]) => v !== undefined).map(([k, v]) => encodeAttribute(k, v)),
      }],
      input: graphInputs,
      output: [valueInfo('Y', inputs[0].type, null)],
    },
  };
  const err = onnx.ModelProto.verify(model);
  if (err) throw new Error(`ort-model: ${err}`);
  return {
    bytes: onnx.ModelProto.encode(onnx.ModelProto.fromObject(model)).finish(),
    inputNames: nodeInputs.filter((n) => n !== ''),
  };
}

const sessions = new Map();
export const ortStats = { sessions: 0, runs: 0 };

function sessionKey(node, inputs) {
  return JSON.stringify([node.opType, node.opset, node.attributes || {},
    inputs.map((t) => (t ? [t.type, Array.from(t.dims, Number)] : null))]);
}

async function getSession(node, inputs) {
  const key = sessionKey(node, inputs);
  let entry = sessions.get(key);
  if (!entry) {
    const { bytes, inputNames } = buildModel(node, inputs);
    // A promise, so concurrent callers share one creation; a failed one is not cached.
    entry = ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all', logSeverityLevel: 4 })
      .then((session) => ({ session, inputNames }));
    sessions.set(key, entry);
    entry.catch(() => sessions.delete(key));
    ortStats.sessions++;
  }
  return entry;
}

/** An ort.Tensor holding the same values as { type, dims, data }. */
export function toOrtTensor(t) {
  return new ort.Tensor(t.type, t.data, Array.from(t.dims, Number));
}

// Resize-11 declares roi and scales required: an omitted one is fed as an empty tensor, as
// opset-11 exporters do (and as both ORT and the ONNX spec read it).
const EMPTY_F32 = { type: 'float32', dims: [0], data: new Float32Array(0) };
function fillRequired(node, inputs) {
  if (node.opType !== 'Resize' || node.opset < 11 || node.opset >= 13) return inputs;
  const out = inputs.slice();
  for (const i of [1, 2]) if (i < out.length && !out[i]) out[i] = EMPTY_F32;
  return out;
}

/**
 * Runs the node in onnxruntime-web; returns its output as { type, dims, data }.
 * Throws what ORT throws (unsupported mode/rank/type, bad attributes, ...).
 */
export async function runOrt(node, inputs) {
  inputs = fillRequired(node, inputs);
  const { session, inputNames } = await getSession(node, inputs);
  const feeds = {};
  let k = 0;
  for (const t of inputs) if (t) feeds[inputNames[k++]] = toOrtTensor(t);
  const out = await session.run(feeds, { logSeverityLevel: 4 });
  ortStats.runs++;
  const y = out.Y;
  // Where Float16Array exists (Node 26 here), ORT hands float16 out as Float16Array; the
  // tests compare float16 as Uint16Array bits, so view the same memory that way.
  const data = typeof Float16Array === 'function' && y.data instanceof Float16Array
    ? new Uint16Array(y.data.buffer, y.data.byteOffset, y.data.length) : y.data;
  const result = { type: y.type, dims: Array.from(y.dims, Number), data };
  y.dispose?.();
  return result;
}

/** Releases every cached session (call at the end of a test file). */
export async function releaseOrtSessions() {
  const all = [...sessions.values()];
  sessions.clear();
  for (const p of all) {
    try { (await p).session.release(); } catch { /* failed creations have nothing to release */ }
  }
}
