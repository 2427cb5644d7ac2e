// opsets.js: what each operator version takes, and the parameter block's layout.
//
// The codes of the modes and enums the core knows; per version of Resize and Upsample (and
// for resize() and upsample(), the options), the attributes it knows, the values it allows
// and the parameters it fixes; the parameter block as the module describes it (blockSpec,
// read from bindings/param_block.h's table in the module); and the forms a Resize's
// arguments come in (a node's attributes and inputs, or a call's options), read in one pass.

import { checkEnum, checkFinite, checkBool01, checkNumber, checkList, describe, didYouMean, float32Elem, intElem, numberElem } from './validate.js';
import { optionalTensor, requireType, tensorNumbers } from './tensors.js';

// Which kernel _execute runs (no closure per call).
export const OP_RESIZE = 1, OP_GRID_SAMPLE = 2;
export const OP_AFFINE_GRID = 3;

export const RESIZE_MODES = { nearest: 0, linear: 1, cubic: 2 };
export const COORD_MODES = {
  half_pixel: 0, half_pixel_symmetric: 1, pytorch_half_pixel: 2, align_corners: 3,
  asymmetric: 4, tf_half_pixel_for_nn: 5, tf_crop_and_resize: 6,
};
const NEAREST_MODES = { round_prefer_floor: 0, round_prefer_ceil: 1, floor: 2, ceil: 3 };
const NEAREST_OPSET10 = 4;
const POLICIES = { stretch: 0, not_larger: 1, not_smaller: 2 };
export const PADDING_MODES = { zeros: 0, border: 1, reflection: 2 };
// Which runtime to reproduce where the decision table (docs/semantics.md) differs.
// 'pillow' and 'opencv' are not a runtime's reading of ONNX but another library's own
// resize, reproduced bit for bit by osw-compat.wasm (_resizeCompat); Resize only.
export const COMPATS = { onnx: 0, onnxruntime: 1, pytorch: 2, pillow: 3, opencv: 4 };
export const COMPAT_PILLOW = 3;
// Filters that exist only in a compat library (bindings/compat.js has which and its codes).
const COMPAT_MODES = { box: 3, hamming: 4, lanczos: 5, area: 6, nearest_exact: 7 };
export const GRID_COMPATS = pick(COMPATS, ['onnx', 'onnxruntime', 'pytorch']);
export const GRID_MODES_16 = { bilinear: 1, nearest: 0, bicubic: 2 };
export const GRID_MODES_20 = { linear: 1, nearest: 0, cubic: 2 };

function pick(table, names) {
  const out = {};
  for (const n of names) out[n] = table[n];
  return out;
}

// The operator versions that make Resize parameters: the ONNX attributes each knows (or,
// for resize() and upsample(), the options), the values it allows, the parameters it fixes
// (the others not known take their defaults), which input holds each list (scalesOnly:
// scales is the only one and is required), and, for Upsample, the smallest scale.
// (One shape for all, so the per-call reads of these fields stay fast.)
function version(v) {
  return {
    name: v.name, attrs: v.attrs || null, options: v.options || null, modes: v.modes, coords: v.coords || null,
    inputs: v.inputs || {}, fixed: v.fixed || {}, scalesOnly: !!v.scalesOnly, minScale: v.minScale || 0, axes: !!v.axes,
    onnxKeys: null, optionKeys: null, defaults: null,  // made once by versionTables()
  };
}
const UPSAMPLE_MODES = pick(RESIZE_MODES, ['nearest', 'linear']);
export const RESIZE_VERSIONS = {
  10: version({
    name: 'Resize-10', attrs: ['mode'], modes: UPSAMPLE_MODES, scalesOnly: true, inputs: { scales: 1 },
    fixed: { coord: COORD_MODES.asymmetric, nearest: NEAREST_OPSET10 },
  }),
  11: version({
    name: 'Resize-11',
    attrs: ['mode', 'coordinate_transformation_mode', 'cubic_coeff_a', 'exclude_outside', 'extrapolation_value', 'nearest_mode'],
    modes: RESIZE_MODES,
    coords: pick(COORD_MODES, ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_half_pixel_for_nn', 'tf_crop_and_resize']),
    inputs: { roi: 1, scales: 2, sizes: 3 },
  }),
  18: version({
    name: 'Resize-18',
    attrs: ['mode', 'coordinate_transformation_mode', 'cubic_coeff_a', 'exclude_outside', 'extrapolation_value', 'nearest_mode', 'antialias', 'axes', 'keep_aspect_ratio_policy'],
    modes: RESIZE_MODES,
    coords: pick(COORD_MODES, ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_crop_and_resize']),
    inputs: { roi: 1, scales: 2, sizes: 3 }, axes: true,
  }),
  19: version({
    name: 'Resize-19',
    attrs: ['mode', 'coordinate_transformation_mode', 'cubic_coeff_a', 'exclude_outside', 'extrapolation_value', 'nearest_mode', 'antialias', 'axes', 'keep_aspect_ratio_policy'],
    modes: RESIZE_MODES,
    coords: pick(COORD_MODES, ['half_pixel', 'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_crop_and_resize']),
    inputs: { roi: 1, scales: 2, sizes: 3 }, axes: true,
  }),
};
RESIZE_VERSIONS[13] = RESIZE_VERSIONS[11];
// resize(): the latest opset's semantics; every attribute is an option (the list is the
// parameter block's, see blockSpec), and compat.
export const RESIZE_OPTIONS_VERSION = version({ ...RESIZE_VERSIONS[19], name: 'resize', attrs: null, modes: { ...RESIZE_MODES, ...COMPAT_MODES } });
// Upsample = Resize with asymmetric coordinates and floor for nearest (row 14); scales >= 1.
const UPSAMPLE_FIXED = { coord: COORD_MODES.asymmetric, nearest: NEAREST_MODES.floor };
export const UPSAMPLE_VERSIONS = {
  7: version({ name: 'Upsample-7', attrs: ['mode', 'scales'], modes: UPSAMPLE_MODES, scalesOnly: true, minScale: 1, fixed: UPSAMPLE_FIXED }),
  9: version({ name: 'Upsample-9', attrs: ['mode'], modes: UPSAMPLE_MODES, scalesOnly: true, minScale: 1, fixed: UPSAMPLE_FIXED, inputs: { scales: 1 } }),
};
export const UPSAMPLE_OPTIONS_VERSION = version({ ...UPSAMPLE_VERSIONS[9], name: 'upsample', attrs: null, options: ['scales', 'mode', 'compat'] });

// The kinds of check a Resize attribute's value gets (param_block.h names one per
// attribute); V is the operator version in force, for the values it allows. numeric: the
// default in the table is a number.
const CHECKS = {
  mode: { check: (v, what, V) => checkEnum(v, what, V.modes) },
  coord: { check: (v, what, V) => checkEnum(v, what, V.coords) },
  nearest: { check: (v, what) => checkEnum(v, what, NEAREST_MODES) },
  policy: { check: (v, what) => checkEnum(v, what, POLICIES) },
  compat: { check: (v, what) => checkEnum(v, what, COMPATS) },
  finite: { numeric: true, check: checkFinite },
  flag: { numeric: true, check: checkBool01 },
  float32: { numeric: true, check: (v, what) => Math.fround(checkNumber(v, what)) },
};

// The module's description of the parameter block (bindings/param_block.h): its text
// (one line per row) and the first slot of each row, as the module's static data.
function paramTable(M) {
  const heap = M.HEAPU8, start = M._osw_param_table() >>> 0;
  let end = start;
  while (heap[end] !== 0) end++;
  // (a copy: TextDecoder refuses views of shared memory, the threaded build's)
  const lines = new TextDecoder().decode(heap.slice(start, end)).split('\n').filter((l) => l !== '');
  const first = (M._osw_param_slots() >>> 0) / 4;
  return lines.map((line, i) => `${line}\t${new Int32Array(heap.buffer)[first + i]}`).join('\n');
}

// The parameter block as the module describes it: `slots`, the first slot of every name;
// `attrs`, the Resize attributes in order, each { name, slot, onnx, option, dflt, check };
// `index`, an attribute's position in attrs by name; `options`, resize()'s options. Read
// from the first module loaded: every instance of a build gives the same table.
export let spec = null;
let specText = null;
export function blockSpec(M) {
  const text = paramTable(M);
  if (spec !== null) {
    if (text !== specText) throw new Error('onnx-sampling-wasm: two builds with different parameter blocks in one program');
    return spec;
  }
  const slots = [], attrs = [];
  for (const line of text.split('\n')) {
    const fields = line.split('\t');
    const [kind, name] = fields, slot = fields[fields.length - 1];
    slots.push([name, Number(slot)]);
    if (kind !== 'r') continue;
    const [, , onnx, option, dflt, check] = fields;
    const c = CHECKS[check];
    if (!c) throw new Error(`onnx-sampling-wasm: the parameter block's attribute '${name}' has no check '${check}' in api/opsets.js`);
    attrs.push({ name, slot: Number(slot), onnx, option, dflt: c.numeric ? Number(dflt) : dflt, check: c.check });
  }
  RESIZE_OPTIONS_VERSION.options = ['sizes', 'scales', 'axes', 'roi', ...attrs.map((a) => a.option)];
  specText = text;
  // (Object.fromEntries makes objects of one fixed shape, which the hot path reads fast;
  // V8 keeps objects built key by key in a slower dictionary form.)
  spec = {
    slots: Object.fromEntries(slots), attrs, index: Object.fromEntries(attrs.map((a, i) => [a.name, i])),
    attrSlots: attrs.map((a) => a.slot), options: RESIZE_OPTIONS_VERSION.options,
  };
  return spec;
}

// The lists a Resize may take besides its attributes: where a form reads them from its
// attributes / options, they follow the attributes in the keys below.
const LIST_NAMES = ['sizes', 'scales', 'axes', 'roi'];
export const SIZES = 0, SCALES = 1, AXES = 2, ROI = 3;

// Per operator version, made once: the keys a node's attributes (onnxKeys) or a call's
// options (optionKeys) may have, in the order of spec.attrs then LIST_NAMES (null where the
// version does not know one), and each attribute's value when absent.
function versionTables(V) {
  if (V.defaults !== null) return;
  const keys = (list, names) => names.map((n) => (n !== '' && list !== null && list.includes(n) ? n : null));
  V.onnxKeys = keys(V.attrs, [...spec.attrs.map((a) => a.onnx), ...LIST_NAMES]);
  V.optionKeys = keys(V.options, [...spec.attrs.map((a) => a.option), ...LIST_NAMES]);
  for (const [list, k] of [[V.attrs, V.onnxKeys], [V.options, V.optionKeys]])
    for (const n of list || []) if (!k.includes(n)) throw new Error(`onnx-sampling-wasm: ${V.name} knows '${n}', which the parameter block lacks`);
  V.defaults = spec.attrs.map((a) => (a.name in V.fixed ? V.fixed[a.name] : a.check(a.dflt, a.name, V)));
}

// How a call names its parameters and gives its lists: a node (ONNX attribute names; the
// lists are input tensors), the options of resize() and upsample(), and Upsample-7 (ONNX
// names; scales is an attribute). take(): a list's raw value, undefined when absent (raw:
// what readResizeArgs read). list(): the raw value checked as `want` numbers.
const LIST_TYPES = { scales: ['float32'], sizes: ['int64'], roi: ['float32', 'float64', 'float16'] };
const LIST_ELEMS = { scales: float32Elem, sizes: intElem, roi: numberElem };
// What a list's length must be, for its messages: "the rank of X", "twice the length of axes".
const listWhat = (what, nWhat) => (what === 'roi' ? `twice the ${nWhat}` : `the ${nWhat}`);
function optionList(sampler, v, what, want, nWhat) {
  const list = checkList(v, what, LIST_ELEMS[what]);
  if (list.length !== want) throw new RangeError(`${what}: expected ${want} values (${listWhat(what, nWhat)}), got ${list.length}`);
  return list;
}
export const NODE_FORM = {
  onnx: true, x: 'X',
  notObject: (src) => `attributes: expected an object of ONNX attributes, got ${describe(src)}`,
  unknown: (k, V, opName) => `attributes.${k}: ${opName} has no attribute '${k}'${didYouMean(k, V.attrs)}; it knows ${V.attrs.join(', ')}`,
  take(raw, inputs, what, list, V) {
    const i = V.inputs[what];
    return i === undefined ? undefined : optionalTensor(inputs[i], what, !V.scalesOnly) || undefined;
  },
  list(sampler, t, what, want, nWhat) {
    requireType(t, what, LIST_TYPES[what]);
    return listOf(t, what, want, listWhat(what, nWhat));
  },
  both: 'scales and sizes: give only one of them (the other omitted or empty)',
  none: 'scales and sizes: one of them is required',
  policy: (raw) => `keep_aspect_ratio_policy: '${raw}' applies only when sizes is given`,
  scalesRequired: (V) => `scales: ${V.name} requires the scales input`,
};
export const OPTIONS_FORM = {
  onnx: false, x: 'x',
  notObject: (src, V) => `${V.name}: options must be an object, got ${describe(src)}`,
  unknown: (k, V) => `${V.name}: unknown option '${k}'${didYouMean(k, V.options)}; known options: ${V.options.join(', ')}`,
  take: (raw, inputs, what, list) => raw[spec.attrs.length + list],
  list: optionList,
  both: 'resize: give scales or sizes, not both',
  none: 'resize: one of scales or sizes is required',
  policy: () => 'keepAspectRatioPolicy: applies only when sizes is given',
  scalesRequired: (V) => `${V.name}: scales is required`,
};
export const UPSAMPLE7_FORM = {
  ...NODE_FORM,
  take: OPTIONS_FORM.take,
  list: optionList,
  scalesRequired: (V) => `scales: ${V.name} requires the scales attribute`,
};

// A Resize's attributes or options, read in one pass over the object's own keys: the raw
// value of each of V's keys (see versionTables), undefined where absent. A key V does not
// know is a RangeError with a "did you mean"; null or undefined count as {}.
export function readResizeArgs(src, V, form, opName) {
  versionTables(V);
  const keys = form.onnx ? V.onnxKeys : V.optionKeys;
  const raw = new Array(keys.length);
  if (src === undefined || src === null) return raw;
  if (typeof src !== 'object' || Array.isArray(src)) throw new TypeError(form.notObject(src, V));
  for (const k in src) {  // own keys (the enum cache: no array per call)
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    const j = keys.indexOf(k);
    if (j < 0) throw new RangeError(form.unknown(k, V, opName));
    raw[j] = src[k];
  }
  return raw;
}

// The values of a 1-D list tensor (scales, sizes, roi) of n values, as numbers.
function listOf(t, what, n, nWhat) {
  if (t.dims.length !== 1) throw new RangeError(`${what}: expected a 1-D tensor, got dims [${t.dims.join(', ')}]`);
  if (t.size !== n) throw new RangeError(`${what}: expected ${n} values (${nWhat}), got ${t.size}`);
  return tensorNumbers(t);
}
