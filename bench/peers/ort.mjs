// ort.mjs: onnxruntime-web, wasm execution provider, one thread, one-node models.
//
// Each workload gets its own InferenceSession of a model holding a single Resize-19 or
// GridSample-20 node with fixed shapes; `sizes` is an initializer (a constant, as in most
// exported models). The model bytes are encoded here with onnx-proto.
//
// Tiers:
//   array  - new ort.Tensor(X array) + session.run() + the output's .data
//   memory - the ort.Tensor feeds are created once, before timing; session.run() only.
//            ORT's wasm EP has no zero-copy path for CPU tensors: inside run() it still
//            copies X into its heap and Y back out, in both tiers.

import { packageVersion } from './common.mjs';

export const id = 'ort';

let ort, onnx;

export async function create() {
  ort = await import('onnxruntime-web');
  onnx = (await import('onnx-proto')).default.onnx;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.logLevel = 'error';
  return new Ort();
}

const ELEM = { float32: 1, uint8: 2, int64: 7 };

function valueInfo(name, type, dims) {
  return { name, type: { tensorType: { elemType: ELEM[type], shape: { dim: dims.map((d) => ({ dimValue: d })) } } } };
}

// ONNX attributes: strings, ints, and the one float attribute used here (cubic_coeff_a).
const FLOAT_ATTRIBUTES = new Set(['cubic_coeff_a']);
function attribute(name, v) {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof v === 'string') return { name, type: T.STRING, s: new TextEncoder().encode(v) };
  if (FLOAT_ATTRIBUTES.has(name)) return { name, type: T.FLOAT, f: v };
  return { name, type: T.INT, i: v };
}

/** A one-node ONNX model: X (and grid) as graph inputs, Y as output. */
function encodeModel({ opType, opset, attrs, inputs, nodeInputs, initializer, output }) {
  return onnx.ModelProto.encode({
    irVersion: 9,
    producerName: 'onnx-sampling-wasm bench',
    opsetImport: [{ domain: '', version: opset }],
    graph: {
      name: 'bench',
      node: [{
        opType, input: nodeInputs, output: ['Y'],
        attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
      }],
      initializer,
      input: inputs,
      output: [output],
    },
  }).finish();
}

function resizeModel(spec) {
  const attrs = { mode: spec.mode, coordinate_transformation_mode: 'half_pixel' };
  if (spec.mode === 'nearest') attrs.nearest_mode = 'round_prefer_floor';
  if (spec.mode === 'cubic') attrs.cubic_coeff_a = spec.cubicA;
  if (spec.antialias) attrs.antialias = 1;
  // Full-rank sizes (no axes attribute): the same output as sizes on axes 1,2 with N, C kept.
  return encodeModel({
    opType: 'Resize', opset: 19, attrs,
    inputs: [valueInfo('X', spec.type, spec.in)],
    nodeInputs: ['X', '', '', 'sizes'],
    initializer: [{ name: 'sizes', dataType: ELEM.int64, dims: [spec.out.length], int64Data: spec.out.slice() }],
    output: valueInfo('Y', spec.type, spec.out),
  });
}

function gridModel(spec) {
  return encodeModel({
    opType: 'GridSample', opset: 20,
    attrs: { mode: spec.mode, padding_mode: spec.padding, align_corners: spec.alignCorners ? 1 : 0 },
    inputs: [valueInfo('X', spec.type, spec.x), valueInfo('grid', 'float32', spec.grid)],
    nodeInputs: ['X', 'grid'],
    initializer: [],
    output: valueInfo('Y', spec.type, spec.out),
  });
}

class Ort {
  constructor() {
    this.id = id;
    this.name = 'onnxruntime-web';
    this.version = packageVersion('onnxruntime-web');
    this.note = 'wasm EP, numThreads 1, SIMD build';
    this.sessions = [];
  }

  async prepare(spec, data) {
    let model;
    if (spec.op === 'resize') model = resizeModel(spec);
    else if (spec.op === 'grid') model = gridModel(spec);
    else return [];
    const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
    this.sessions.push(session);
    const makeFeeds = () => {
      const feeds = { X: new ort.Tensor(spec.type, data.x, spec.op === 'grid' ? spec.x : spec.in) };
      if (spec.op === 'grid') feeds.grid = new ort.Tensor('float32', data.grid, spec.grid);
      return feeds;
    };
    const feeds = makeFeeds();
    const what = spec.op === 'grid' ? 'GridSample-20' : 'Resize-19';
    const job = { job: 'same' };
    if (spec.op === 'resize' && spec.axes) job.note = 'sizes given on all 4 axes (N, C kept) instead of axes [1, 2]';
    return [
      {
        label: `session.run (${what})`, tier: 'array', ...job,
        includes: 'new ort.Tensor(X array) + session.run (copies X in, kernel, copies Y out) + output .data',
        run: async () => (await session.run(makeFeeds())).Y.data,
        output: async () => (await session.run(makeFeeds())).Y.data,
      },
      {
        label: `session.run, feeds made (${what})`, tier: 'memory', ...job,
        includes: 'session.run on ort.Tensor feeds created before timing; ORT still copies X in and Y out inside run()',
        run: () => session.run(feeds),
        output: async () => (await session.run(feeds)).Y.data,
      },
    ];
  }

  async dispose() {
    for (const s of this.sessions) await s.release();
    this.sessions = [];
  }
}
