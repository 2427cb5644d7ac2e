// resize.js: the Resize and Upsample operators: their arguments read and checked, then the call.
//
// runResize() and runUpsample() take a node's attributes and inputs (run()), resizeOpts()
// and upsampleOpts() the options of sampler.resize() and sampler.upsample(); resizeParams()
// makes the one form of parameters all four give resize(), which writes them into the
// parameter block and runs the kernel (or a compat library's resize, compat.js). Each
// function takes the sampler (sampler-core.js) as its first argument.

import {
  AXES, COMPAT_PILLOW, COORD_MODES, NODE_FORM, OP_RESIZE, OPTIONS_FORM, RESIZE_MODES, RESIZE_OPTIONS_VERSION,
  RESIZE_VERSIONS, ROI, SCALES, SIZES, spec, UPSAMPLE7_FORM, UPSAMPLE_OPTIONS_VERSION, UPSAMPLE_VERSIONS, readResizeArgs,
} from './opsets.js';
import { checkTensor } from './tensors.js';
import { checkList, intElem, numberElem, opVersion } from './validate.js';

// p: Resize parameters from resizeParams(). Returns the output tensor.
export function resize(s, x, p, target) {
  if (p.compat) return s._compat(p.attrs[spec.index.compat]).resize(s, s._cx, x, p, target);
  const S = s._S, M = s._M;
  const b = s._begin(OP_RESIZE, x);
  const slots = s._attrSlots, values = p.attrs;
  for (let i = 0; i < slots.length; i++) b[slots[i]] = values[i];
  const n = p.axes ? p.axes.length : x.dims.length;
  b[S.hasAxes] = p.axes ? 1 : 0;
  b[S.nAxes] = n;
  if (p.axes) for (let i = 0; i < n; i++) b[S.axes + i] = p.axes[i];
  b[S.hasScales] = p.scales ? 1 : 0;
  if (p.scales) for (let i = 0; i < n; i++) b[S.scales + i] = p.scales[i];
  b[S.hasSizes] = p.sizes ? 1 : 0;
  if (p.sizes) for (let i = 0; i < n; i++) b[S.sizes + i] = p.sizes[i];
  b[S.hasRoi] = p.roi ? 1 : 0;
  if (p.roi) for (let i = 0; i < 2 * n; i++) b[S.roi + i] = p.roi[i];
  s._check(M._osw_plan_resize());
  return s._execute(x, null, target, OP_RESIZE);
}

export function runResize(s, opset, attributes, inputs, target, compat) {
  const version = opVersion('Resize', opset, [10, 11, 13, 18, 19]);
  const V = RESIZE_VERSIONS[version];
  const name = `Resize-${version} (opset ${opset})`;
  const raw = readResizeArgs(attributes, V, NODE_FORM, name);
  const maxInputs = version === 10 ? 2 : 4;
  if (inputs.length > maxInputs) throw new RangeError(`inputs: ${name} takes at most ${maxInputs} inputs, got ${inputs.length}`);
  if (inputs[0] === null || inputs[0] === undefined) throw new TypeError('X: the input tensor is required');
  const x = checkTensor(inputs[0], 'X');
  s._checkRank(x, 'X', 1);
  return resize(s, x, resizeParams(s, V, NODE_FORM, raw, x.dims.length, inputs, compat), target);
}

// The one place where a Resize's parameters are made, for run() (Resize and Upsample
// nodes), resize() and upsample(). raw: the attributes or options as readResizeArgs read
// them. Each attribute of the parameter block (spec.attrs) given there is checked; the
// others take V's values. Then the axes, and the scales / sizes / roi lists (from the
// node's inputs or from raw: the form's take()), checked against each other and the
// axes. compat: the node's (run), else undefined (an option). Returns { attrs (values in
// spec.attrs order), axes, scales, sizes, roi }.
function resizeParams(sampler, V, form, raw, rank, inputs, compat) {
  const attrs = spec.attrs, keys = form.onnx ? V.onnxKeys : V.optionKeys, defaults = V.defaults;
  const values = new Array(attrs.length);
  for (let i = 0; i < attrs.length; i++) {
    const v = raw[i];
    values[i] = v === undefined ? defaults[i] : attrs[i].check(v, keys[i], V);
  }
  if (compat !== undefined) values[spec.index.compat] = compat;
  // Another library's resize (bindings/compat.js checks its arguments: it may name
  // filters no ONNX mode has, and no attribute but mode).
  const compatCode = values[spec.index.compat] >= COMPAT_PILLOW ? sampler._compat(values[spec.index.compat]) : null;
  const compatArgs = compatCode && compatCode.args(V, raw, keys, values, spec.index);
  if (!compatCode && values[spec.index.mode] > RESIZE_MODES.cubic)
    throw new RangeError(`mode: '${raw[spec.index.mode]}' needs compat 'pillow' or 'opencv'`);
  const axesRaw = raw[attrs.length + AXES];
  const axes = axesRaw === undefined ? null : axesOf(axesRaw, rank);
  const n = axes ? axes.length : rank;
  const nWhat = axes ? 'length of axes' : `rank of ${form.x}`;
  let scales = null, sizes = null, roi = null;
  if (V.scalesOnly) {
    const s = form.take(raw, inputs, 'scales', SCALES, V);
    if (s === undefined) throw new TypeError(form.scalesRequired(V));
    scales = form.list(sampler, s, 'scales', n, nWhat);
    if (V.minScale) {
      scales.forEach((f, i) => {
        if (!(f >= V.minScale) || !Number.isFinite(f)) throw new RangeError(`scales[${i}]: Upsample scales must be finite and >= 1, got ${f}`);
      });
    }
  } else {
    const r = form.take(raw, inputs, 'roi', ROI, V);
    const s = form.take(raw, inputs, 'scales', SCALES, V);
    const z = form.take(raw, inputs, 'sizes', SIZES, V);
    if (s !== undefined && z !== undefined) throw new RangeError(form.both);
    if (s === undefined && z === undefined) throw new TypeError(form.none);
    if (s !== undefined) scales = form.list(sampler, s, 'scales', n, nWhat);
    else sizes = form.list(sampler, z, 'sizes', n, nWhat);
    const policy = spec.index.policy;
    if (values[policy] !== 0 && !sizes) throw new RangeError(form.policy(raw[policy]));
    if (values[spec.index.coord] === COORD_MODES.tf_crop_and_resize) {
      // No roi: the full range [0, ..., 0, 1, ..., 1] (the spec makes roi optional and gives
      // it no other meaning; ONNX Runtime reads it so). docs/semantics.md.
      roi = r === undefined ? [...new Array(n).fill(0), ...new Array(n).fill(1)] : form.list(sampler, r, 'roi', 2 * n, nWhat);
    }
  }
  // cv2.resize(fx, fy) takes the scales as doubles: compat 'opencv' keeps resize()'s
  // scales unrounded (a node's are float32 tensors).
  if (compatArgs && scales && !form.onnx) compatArgs.exactScales = checkList(form.take(raw, inputs, 'scales', SCALES, V), 'scales', numberElem);
  return { attrs: values, axes, scales, sizes, roi, compat: compatArgs };
}

function axesOf(v, rank) {
  const axes = checkList(v, 'axes', intElem);
  if (axes.length === 0 || axes.length > rank)
    throw new RangeError(`axes: expected between 1 and ${rank} axes, got ${axes.length}`);
  const seen = new Set();
  return axes.map((ax, i) => {
    if (ax < -rank || ax >= rank) throw new RangeError(`axes[${i}]: axis ${ax} is out of range [${-rank}, ${rank - 1}] for rank ${rank}`);
    const a = ax < 0 ? ax + rank : ax;
    if (seen.has(a)) throw new RangeError(`axes[${i}]: axis ${ax} is repeated`);
    seen.add(a);
    return a;
  });
}

export function runUpsample(s, opset, attributes, inputs, target, compat) {
  if (opset < 7) throw new RangeError(`opset: Upsample before opset 7 (height_scale/width_scale attributes) is not supported, got opset ${opset}`);
  const version = opset >= 9 ? 9 : 7;
  const V = UPSAMPLE_VERSIONS[version];
  const name = `Upsample-${version} (opset ${opset})`;
  const form = version === 7 ? UPSAMPLE7_FORM : NODE_FORM;
  const raw = readResizeArgs(attributes, V, form, name);
  const maxInputs = version === 7 ? 1 : 2;
  if (inputs.length > maxInputs) throw new RangeError(`inputs: ${name} takes at most ${maxInputs} inputs, got ${inputs.length}`);
  if (inputs[0] === null || inputs[0] === undefined) throw new TypeError('X: the input tensor is required');
  const x = checkTensor(inputs[0], 'X');
  s._checkRank(x, 'X', 1);
  return resize(s, x, resizeParams(s, V, form, raw, x.dims.length, inputs, compat), target);
}

// ---------------------------------------------------------------- resize(), upsample()

// sampler.resize(x, options) and sampler.upsample(x, options): the options form of version V.
function optionsCall(s, V, x, options, target) {
  s._live();
  const raw = readResizeArgs(options, V, OPTIONS_FORM, V.name);
  const xt = checkTensor(x, 'x');
  s._checkRank(xt, 'x', 1);
  return resize(s, xt, resizeParams(s, V, OPTIONS_FORM, raw, xt.dims.length, null, undefined), target);
}

export function resizeOpts(s, x, options, target) {
  return optionsCall(s, RESIZE_OPTIONS_VERSION, x, options, target);
}

export function upsampleOpts(s, x, options, target) {
  return optionsCall(s, UPSAMPLE_OPTIONS_VERSION, x, options, target);
}
