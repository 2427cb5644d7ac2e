// api.js: the JavaScript API of onnx-sampling-wasm, the same on every host.
//
// makeApi(host) gives { createSampler, TENSOR_TYPES }. Each entry (entries/*.js) hands it
// its host:
// - loadModule(options): a promise of a fresh instance of the Emscripten module on every
//   call (options: the checked { threads, wasmBinary (a Uint8Array or a compiled
//   WebAssembly.Module), wasmUrl (a string) }, each only when given; loader.js);
// - compat: { module(options, shared), moduleSync(shared), codeNow() } (compat-loader.js);
// - createWorkerSampler(options, createSampler), where the host has workers
//   (worker-client.js); else noWorker: why createSampler({ worker: true }) cannot run there.
// Each sampler owns the instance it was created with.
//
// What this layer owns: it validates every argument once, at the edge,
// throwing TypeError for a wrong kind of argument and RangeError for a bad shape or value,
// each message naming the input or attribute. It resolves opset differences (attribute
// names, defaults, which inputs exist) into the core's normalised parameters, writes them
// into the parameter block, copies tensors in and out of wasm memory and frees all it
// allocated, whatever happens. The core re-checks what it relies on and reports errors as
// values, so the sampler stays usable after any error.

import { installImageHelpers } from './image.js';

export function makeApi(host) {
  const { loadModule, compat: compatHost } = host;

  // ONNX TensorProto.DataType codes and the TypedArray each type is carried in.
  const HAS_F16 = typeof Float16Array === 'function';
  const TYPES = {
    float32: { code: 1, bytes: 4, arrays: [Float32Array] },
    uint8: { code: 2, bytes: 1, arrays: [Uint8Array, Uint8ClampedArray] },
    int8: { code: 3, bytes: 1, arrays: [Int8Array] },
    uint16: { code: 4, bytes: 2, arrays: [Uint16Array] },
    int16: { code: 5, bytes: 2, arrays: [Int16Array] },
    int32: { code: 6, bytes: 4, arrays: [Int32Array] },
    int64: { code: 7, bytes: 8, arrays: [BigInt64Array] },
    bool: { code: 9, bytes: 1, arrays: [Uint8Array] },
    float16: { code: 10, bytes: 2, arrays: HAS_F16 ? [Uint16Array, Float16Array] : [Uint16Array] },
    float64: { code: 11, bytes: 8, arrays: [Float64Array] },
    uint32: { code: 12, bytes: 4, arrays: [Uint32Array] },
    uint64: { code: 13, bytes: 8, arrays: [BigUint64Array] },
    bfloat16: { code: 16, bytes: 2, arrays: [Uint16Array] },
  };

  // ---------------------------------------------------------------- error helpers

  function describe(v) {
    if (v === null) return 'null';
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return 'a function';
    if (Array.isArray(v)) return 'an array';
    if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
    if (typeof v === 'object') return 'an object';
    if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v)}`;
    if (typeof v === 'bigint') return `the bigint ${v}n`;
    return `${typeof v} ${String(v)}`;
  }

  // Edit distance, for "did you mean" on unknown names (short strings only).
  function distance(a, b) {
    const m = a.length, n = b.length;
    let prev = Array.from({ length: n + 1 }, (_, j) => j);
    for (let i = 1; i <= m; i++) {
      const cur = [i];
      for (let j = 1; j <= n; j++)
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
    return prev[n];
  }
  function didYouMean(name, choices) {
    if (typeof name !== 'string' || name.length > 64) return '';
    let best = null, bestD = Infinity;
    for (const c of choices) {
      const d = distance(name.toLowerCase(), c.toLowerCase());
      if (d < bestD) { bestD = d; best = c; }
    }
    return best !== null && bestD <= Math.max(2, Math.floor(best.length / 3)) ? ` (did you mean '${best}'?)` : '';
  }

  // ---------------------------------------------------------------- value checks

  // Checks take the argument's name, and an element's index i where it is one of a list:
  // the element's name, what[i], is then built only for a message (no string per call).
  const nameOf = (what, i) => (i === undefined ? what : `${what}[${i}]`);

  function checkInt(v, what, i) {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v === 0 ? 0 : v; // -0 -> 0
    what = nameOf(what, i);
    if (typeof v === 'bigint') {
      if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER))
        throw new RangeError(`${what}: ${v} is too large`);
      return Number(v);
    }
    if (typeof v !== 'number') throw new TypeError(`${what}: expected an integer, got ${describe(v)}`);
    throw new RangeError(`${what}: expected an integer, got ${v}`);  // a number, not a safe integer
  }

  function checkNumber(v, what, i) {
    if (typeof v !== 'number') throw new TypeError(`${nameOf(what, i)}: expected a number, got ${describe(v)}`);
    return v;
  }

  // Element checks for checkList, made once.
  const intElem = (e, what, i) => checkInt(e, what, i);
  const numberElem = (e, what, i) => checkNumber(e, what, i);
  const float32Elem = (e, what, i) => Math.fround(checkNumber(e, what, i));

  function checkFinite(v, what) {
    checkNumber(v, what);
    if (!Number.isFinite(v)) throw new RangeError(`${what}: expected a finite number, got ${v}`);
    return v;
  }

  // A flag: true/false, or the ONNX attribute's 0/1.
  function checkBool01(v, what) {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v === 1 || v === 1n) return 1;
    if (v === 0 || v === 0n) return 0;  // -0 too
    if (typeof v === 'number' || typeof v === 'bigint')
      throw new RangeError(`${what}: expected true or false (or 0 or 1), got ${v}`);
    throw new TypeError(`${what}: expected true or false (or 0 or 1), got ${describe(v)}`);
  }

  function checkEnum(v, what, table) {
    if (typeof v !== 'string') throw new TypeError(`${what}: expected a string, got ${describe(v)}`);
    if (!Object.prototype.hasOwnProperty.call(table, v)) {
      const names = Object.keys(table);
      throw new RangeError(`${what}: unknown value '${v}'; expected one of ${names.map((n) => `'${n}'`).join(', ')}${didYouMean(v, names)}`);
    }
    return table[v];
  }

  // Array-like of numbers (Array, TypedArray) -> plain array, with each element checked.
  function checkList(v, what, elem) {
    if (!(Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))))
      throw new TypeError(`${what}: expected an array of numbers, got ${describe(v)}`);
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = elem(v[i], what, i);
    return out;
  }

  const typedArrayLengthGetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length').get;
  function typedArrayLength(a) { return typedArrayLengthGetter.call(a); }
  const typedArrayTagGetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag).get;
  function typedArrayName(a) { return typedArrayTagGetter.call(a); }  // undefined if not one

  // A tensor { type, dims, data }: the fields of onnxruntime-web's Tensor, which passes as is.
  function checkTensor(t, what) {
    if (t === null || typeof t !== 'object' || ArrayBuffer.isView(t))
      throw new TypeError(`${what}: expected a tensor { type, dims, data }, got ${describe(t)}`);
    if (t instanceof WasmTensor) {
      if (t._owner._M === null) throw new Error(`${what}: ${DISPOSED}`);
      if (t._ptr === 0) throw new RangeError(`${what}: the tensor was disposed`);
      // type and dims are fixed at creation, so the checked form is made once (see the
      // constructor); data is a view created on demand (only roi/scales/sizes and grids ever
      // read it in JS).
      return t._checked;
    }
    const type = t.type;
    if (typeof type !== 'string') throw new TypeError(`${what}.type: expected a string, got ${describe(type)}`);
    const info = TYPES[type];
    if (!info) throw new TypeError(`${what}.type: unsupported tensor type '${type}'; expected one of ${Object.keys(TYPES).join(', ')}${didYouMean(type, Object.keys(TYPES))}`);
    const data = t.data;
    // By the array's internal name, so arrays from another realm (iframe, vm) pass too.
    const kind = typedArrayName(data);
    if (!info.arrays.some((A) => A.name === kind)) {
      const names = info.arrays.map((A) => A.name).join(' or ');
      throw new TypeError(`${what}.data: a '${type}' tensor needs a ${names}, got ${describe(data)}`);
    }
    const dims = t.dims;
    if (!(Array.isArray(dims) || (ArrayBuffer.isView(dims) && !(dims instanceof DataView))))
      throw new TypeError(`${what}.dims: expected an array of integers, got ${describe(dims)}`);
    const rank = dims.length;
    const d = new Array(rank);
    const dimsName = `${what}.dims`;  // one string per call; each element's only for a message
    let n = 1;
    for (let i = 0; i < rank; i++) {
      const v = checkInt(dims[i], dimsName, i);
      if (v < 0) throw new RangeError(`${what}.dims[${i}]: must be non-negative, got ${v}`);
      d[i] = v;
      n *= v;
    }
    // The intrinsic length (not a getter a subclass may override); 0 once detached.
    const length = typedArrayLength(data);
    if (n !== length)
      throw new RangeError(`${what}: dims [${d.join(', ')}] hold ${n} elements but data has ${length}`);
    return { type, dims: d, data, info, size: n, wasm: null, tensor: t };
  }

  // An optional input: null/undefined, or (from opset 11 on) an empty tensor, count as omitted.
  function optionalTensor(t, what, emptyIsOmitted) {
    if (t === null || t === undefined) return null;
    const v = checkTensor(t, what);
    if (emptyIsOmitted && v.size === 0) return null;
    return v;
  }

  function requireType(v, what, allowed) {
    if (!allowed.includes(v.type))
      throw new TypeError(`${what}: expected a tensor of type ${allowed.join(' or ')}, got '${v.type}'`);
  }

  // IEEE half-precision bits -> number.
  function halfToNumber(h) {
    const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e === 0) return s * m * 2 ** -24;
    if (e === 31) return m ? NaN : s * Infinity;
    return s * (1 + m / 1024) * 2 ** (e - 15);
  }

  // The values of a small tensor (roi, scales, sizes) as numbers.
  function tensorNumbers(v) {
    const out = new Array(v.size);
    const data = v.wasm ? v.wasm.data : v.data;
    const bits = v.type === 'float16' && data instanceof Uint16Array;
    for (let i = 0; i < v.size; i++) out[i] = bits ? halfToNumber(data[i]) : Number(data[i]);
    return out;
  }

  // A float16 grid is widened to float32 (exact) before it enters the core.
  function widenHalf(v) {
    if (v.type !== 'float16') return v;
    const data = new Float32Array(v.size);
    const src = v.wasm ? v.wasm.data : v.data;
    if (src instanceof Uint16Array) for (let i = 0; i < v.size; i++) data[i] = halfToNumber(src[i]);
    else data.set(src);
    return { type: 'float32', dims: v.dims, data, info: TYPES.float32, size: v.size };
  }

  // A tensor whose data lives in its sampler's wasm memory (sampler.tensor()). It holds the
  // sampler, not the module: once the sampler is disposed, a tensor kept alive does not keep
  // the module and its memory alive with it.
  class WasmTensor {
    constructor(owner, type, dims, ptr, size) {
      this._owner = owner;
      this._ptr = ptr;
      this._size = size;
      this._type = type;          // private copies the core relies on: a user who manages to
      this._dims = dims.slice();  // change the public fields cannot make it overrun memory
      // Read-only public fields: the allocation was sized for exactly these.
      Object.defineProperty(this, 'type', { value: type, enumerable: true });
      Object.defineProperty(this, 'dims', { value: Object.freeze(dims.slice()), enumerable: true });
      Object.defineProperty(this, 'size', { value: size, enumerable: true });
      // What checkTensor() gives for it: made once, from the private copies.
      this._checked = { type, dims: this._dims, data: null, info: TYPES[type], size, wasm: this, tensor: this };
    }
    get data() {
      const M = this._owner._M;
      if (M === null) throw new Error(`tensor: ${DISPOSED}`);
      if (!this._ptr) throw new RangeError('tensor: used after dispose()');
      const info = TYPES[this._type];
      const Ctor = info.arrays[0];
      return new Ctor(M.HEAPU8.buffer, this._ptr, this._size);
    }
    // Its memory is gone once it or its sampler was disposed.
    get disposed() { return this._ptr === 0 || this._owner._M === null; }
    dispose() {
      const M = this._owner._M;
      if (this._ptr && M !== null) M._osw_free(this._ptr);
      this._ptr = 0;
    }
  }

  const DISPOSED = 'its sampler was disposed (sampler.dispose()); create a new one with createSampler()';

  // ---------------------------------------------------------------- operator tables

  // Which kernel _execute runs (no closure per call).
  const OP_RESIZE = 1, OP_GRID_SAMPLE = 2;
  const OP_AFFINE_GRID = 3;

  const RESIZE_MODES = { nearest: 0, linear: 1, cubic: 2 };
  const COORD_MODES = {
    half_pixel: 0, half_pixel_symmetric: 1, pytorch_half_pixel: 2, align_corners: 3,
    asymmetric: 4, tf_half_pixel_for_nn: 5, tf_crop_and_resize: 6,
  };
  const NEAREST_MODES = { round_prefer_floor: 0, round_prefer_ceil: 1, floor: 2, ceil: 3 };
  const NEAREST_OPSET10 = 4;
  const POLICIES = { stretch: 0, not_larger: 1, not_smaller: 2 };
  const PADDING_MODES = { zeros: 0, border: 1, reflection: 2 };
  // Which runtime to reproduce where the decision table (docs/semantics.md) differs.
  // 'pillow' and 'opencv' are not a runtime's reading of ONNX but another library's own
  // resize, reproduced bit for bit by osw-compat.wasm (_resizeCompat); Resize only.
  const COMPATS = { onnx: 0, onnxruntime: 1, pytorch: 2, pillow: 3, opencv: 4 };
  const COMPAT_PILLOW = 3;
  // Filters that exist only in a compat library (bindings/compat.js has which and its codes).
  const COMPAT_MODES = { box: 3, hamming: 4, lanczos: 5, area: 6, nearest_exact: 7 };
  const GRID_COMPATS = pick(COMPATS, ['onnx', 'onnxruntime', 'pytorch']);
  const GRID_MODES_16 = { bilinear: 1, nearest: 0, bicubic: 2 };
  const GRID_MODES_20 = { linear: 1, nearest: 0, cubic: 2 };

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
  const RESIZE_VERSIONS = {
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
  const RESIZE_OPTIONS_VERSION = version({ ...RESIZE_VERSIONS[19], name: 'resize', attrs: null, modes: { ...RESIZE_MODES, ...COMPAT_MODES } });
  // Upsample = Resize with asymmetric coordinates and floor for nearest (row 14); scales >= 1.
  const UPSAMPLE_FIXED = { coord: COORD_MODES.asymmetric, nearest: NEAREST_MODES.floor };
  const UPSAMPLE_VERSIONS = {
    7: version({ name: 'Upsample-7', attrs: ['mode', 'scales'], modes: UPSAMPLE_MODES, scalesOnly: true, minScale: 1, fixed: UPSAMPLE_FIXED }),
    9: version({ name: 'Upsample-9', attrs: ['mode'], modes: UPSAMPLE_MODES, scalesOnly: true, minScale: 1, fixed: UPSAMPLE_FIXED, inputs: { scales: 1 } }),
  };
  const UPSAMPLE_OPTIONS_VERSION = version({ ...UPSAMPLE_VERSIONS[9], name: 'upsample', attrs: null, options: ['scales', 'mode', 'compat'] });

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
  let spec = null, specText = null;
  function blockSpec(M) {
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
      if (!c) throw new Error(`onnx-sampling-wasm: the parameter block's attribute '${name}' has no check '${check}' in api.js`);
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
  const SIZES = 0, SCALES = 1, AXES = 2, ROI = 3;

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
  const NODE_FORM = {
    onnx: true, x: 'X',
    notObject: (src) => `attributes: expected an object of ONNX attributes, got ${describe(src)}`,
    unknown: (k, V, opName) => `attributes.${k}: ${opName} has no attribute '${k}'${didYouMean(k, V.attrs)}; it knows ${V.attrs.join(', ')}`,
    take(raw, inputs, what, list, V) {
      const i = V.inputs[what];
      return i === undefined ? undefined : optionalTensor(inputs[i], what, !V.scalesOnly) || undefined;
    },
    list(sampler, t, what, want, nWhat) {
      requireType(t, what, LIST_TYPES[what]);
      return sampler._listOf(t, what, want, listWhat(what, nWhat));
    },
    both: 'scales and sizes: give only one of them (the other omitted or empty)',
    none: 'scales and sizes: one of them is required',
    policy: (raw) => `keep_aspect_ratio_policy: '${raw}' applies only when sizes is given`,
    scalesRequired: (V) => `scales: ${V.name} requires the scales input`,
  };
  const OPTIONS_FORM = {
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
  const UPSAMPLE7_FORM = {
    ...NODE_FORM,
    take: OPTIONS_FORM.take,
    list: optionList,
    scalesRequired: (V) => `scales: ${V.name} requires the scales attribute`,
  };

  // A Resize's attributes or options, read in one pass over the object's own keys: the raw
  // value of each of V's keys (see versionTables), undefined where absent. A key V does not
  // know is a RangeError with a "did you mean"; null or undefined count as {}.
  function readResizeArgs(src, V, form, opName) {
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

  // The operator version in force at an opset: the newest version not newer than it.
  function opVersion(opType, opset, versions) {
    let v = 0;
    for (const k of versions) if (k <= opset && k > v) v = k;
    if (v === 0)
      throw new RangeError(`opset: ${opType} does not exist before opset ${Math.min(...versions)}, got opset ${opset}`);
    return v;
  }

  function checkAttributes(attributes, allowed, opName) {
    if (attributes === undefined || attributes === null) return {};
    if (typeof attributes !== 'object' || Array.isArray(attributes))
      throw new TypeError(`attributes: expected an object of ONNX attributes, got ${describe(attributes)}`);
    for (const k of Object.keys(attributes)) {
      if (!allowed.includes(k))
        throw new RangeError(`attributes.${k}: ${opName} has no attribute '${k}'${didYouMean(k, allowed)}; it knows ${allowed.join(', ')}`);
    }
    return attributes;
  }

  function attr(attributes, name, dflt) {
    const v = attributes[name];
    return v === undefined ? dflt : v;
  }

  // ---------------------------------------------------------------- the sampler

  // Default limit on what one call may allocate in wasm memory: 2 GiB, what a wasm32 heap
  // can give in practice (its addresses stop at 4 GiB and inputs need room too).
  const DEFAULT_MAX_BYTES = 2 ** 31;
  const SMALL_TEMP = 4096;  // bytes of each of the module's blocks for small temporaries

  const CREATE_OPTIONS = ['wasmUrl', 'wasmBinary', 'maxBytes', 'threads', 'loadCompat', 'worker', 'transfer'];

  // The wasmBinary and wasmUrl options (of createSampler and loadCompat), in one form each:
  // the bytes as a Uint8Array, or the module compiled already (hosts that compile no wasm
  // from bytes, such as Cloudflare Workers, import .wasm files as WebAssembly.Module).
  function wasmBytesOption(b, fn) {
    if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (/^\[object (Shared)?ArrayBuffer\]$/.test(Object.prototype.toString.call(b))) return new Uint8Array(b);
    if (/^\[object WebAssembly\.Module\]$/.test(Object.prototype.toString.call(b))) return b;
    throw new TypeError(`${fn}: wasmBinary: expected the .wasm bytes (an ArrayBuffer or Uint8Array) or a compiled WebAssembly.Module, got ${describe(b)}`);
  }
  function wasmUrlOption(u, fn) {
    if (typeof u === 'string') return u;
    if (u !== null && typeof u === 'object' && typeof u.href === 'string') return u.href;
    throw new TypeError(`${fn}: wasmUrl: expected a string or a URL, got ${describe(u)}`);
  }

  // Each sampler has a module instance of its own (loadModule returns a fresh one on every
  // call; the loaders keep the compiled WebAssembly.Module, so later ones are cheap): its
  // dispose() then frees exactly its memory, and a failed load leaves nothing behind.
  async function createSampler(options) {
    // createSampler({ worker }): worker-client.js, where the host has workers.
    if (options && typeof options === 'object' && options.worker !== undefined && host.createWorkerSampler)
      return host.createWorkerSampler(options, createSampler);
    if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options)))
      throw new TypeError(`createSampler: options must be an object, got ${describe(options)}`);
    const o = checkOptions(options, 'createSampler', CREATE_OPTIONS);
    if (o.worker !== undefined && typeof o.worker !== 'boolean')
      throw new TypeError(`createSampler: worker: expected true or false, got ${describe(o.worker)}`);
    if (o.transfer !== undefined && typeof o.transfer !== 'boolean')
      throw new TypeError(`createSampler: transfer: expected true or false, got ${describe(o.transfer)}`);
    if (o.worker === true)
      throw new Error(`createSampler: worker: true needs a Worker, and ${host.noWorker || 'this host has none'}; ` +
        'the synchronous sampler (createSampler() without worker) runs here');
    if (o.transfer !== undefined && o.worker !== false)
      throw new RangeError('createSampler: transfer applies only with worker: true');
    const positive = (name) => {
      const n = checkInt(o[name], `createSampler: ${name}`);
      if (n < 1) throw new RangeError(`createSampler: ${name} must be positive, got ${n}`);
      return n;
    };
    const maxBytes = o.maxBytes !== undefined ? positive('maxBytes') : DEFAULT_MAX_BYTES;
    // What the loader gets: only the checked options, in one form each. threads: the threads
    // asked for (undefined: the loader's default for this host); the loader gives one thread
    // where shared memory is missing.
    const load = {};
    if (o.threads !== undefined) load.threads = positive('threads');
    if (o.wasmBinary !== undefined) load.wasmBinary = wasmBytesOption(o.wasmBinary, 'createSampler');
    if (o.wasmUrl !== undefined) load.wasmUrl = wasmUrlOption(o.wasmUrl, 'createSampler');
    // loadCompat: true, or the options of sampler.loadCompat() (checked there).
    const compat = o.loadCompat;
    if (compat !== undefined && compat !== false && compat !== true && (compat === null || typeof compat !== 'object' || Array.isArray(compat)))
      throw new TypeError(`createSampler: loadCompat: expected true, false or the options of sampler.loadCompat(), got ${describe(compat)}`);
    const M = await loadModule(load);
    const sampler = new Sampler(M, maxBytes);
    if (compat !== undefined && compat !== false) {
      try {
        await sampler.loadCompat(compat === true ? undefined : compat);
      } catch (e) {
        sampler.dispose();
        throw e;
      }
    }
    return sampler;
  }

  // The sampler's own state and helpers (the methods named with _). Its public methods are
  // those of Sampler below, which extends it: Sampler.prototype holds the API alone, so
  // publicMethods() binds every name it finds there, whatever a minifier made of the
  // private names (scripts/build.mjs shortens them in browser.mjs).
  class SamplerCore {
    constructor(M, maxBytes) {
      this._M = M;  // null once disposed
      this._maxBytes = maxBytes;
      this._blockPtr = M.paramBlock() >>> 0;
      // The module is this sampler's own: its allocation limit is set once.
      M._osw_set_allocation_limit(maxBytes);
      // Three blocks of SMALL_TEMP bytes for small temporaries (see _temp), made on first use.
      this._small = [0, 0, 0];
      this._blockBuf = this._blockView = this._heapBuf = this._heaps = null;
      this._cx = null;  // the exports of this sampler's osw-compat.wasm instance, once made
      // The methods are bound, so `const { resize } = sampler` works.
      for (const name of publicMethods())
        Object.defineProperty(this, name, { value: this[name].bind(this), writable: true, configurable: true });
      const sp = blockSpec(M);
      this._S = sp.slots;             // the parameter block's slots by name
      this._attrSlots = sp.attrSlots; // the Resize attributes' slots, in spec order
      this._maxRank = M.MAX_RANK;
      // The threads a call runs on: 1, or in the threaded build (bindings/loader-mt.js) the
      // pool's workers and this thread, as many as the core says it uses.
      this._threads = M.oswStart ? M.oswStart(this) : 1;
    }

    // The parameter block, viewed afresh: wasm memory may have grown since the last call.
    _block() {
      const buf = this._M.HEAPU8.buffer;
      if (this._blockBuf !== buf) {
        this._blockBuf = buf;
        this._blockView = new Float64Array(buf, this._blockPtr, this._S.blockSize);
      }
      return this._blockView;
    }

    // Every public method starts here: a disposed sampler has no module.
    _live() {
      if (this._M === null) throw new Error(`sampler: ${DISPOSED}`);
    }

    _check(status) {
      if (status === 0) return;
      const msg = decodeNumbers(this._M.lastError());
      if (status === 1) throw new TypeError(msg);
      throw new RangeError(msg);
    }

    _alloc(bytes, what) {
      if (!(bytes <= this._maxBytes))
        throw new RangeError(`${what}: needs ${bytes} bytes, more than the limit of ${this._maxBytes} bytes (createSampler({ maxBytes }))`);
      const p = this._M._osw_alloc(bytes) >>> 0;
      if (p === 0) throw new RangeError(`out of memory: cannot allocate ${bytes} bytes for ${what}`);
      return p;
    }

    // Memory for one of a call's temporaries (slot 0: X, 1: grid, 2: Y). Small ones use
    // three blocks of SMALL_TEMP bytes allocated once per sampler (a call never runs inside
    // another), so small calls make no malloc/free round trips; larger ones are allocated
    // here and freed by _freeTemp(), which leaves the blocks.
    _temp(bytes, what, slot) {
      if (bytes > SMALL_TEMP || SMALL_TEMP > this._maxBytes) return this._alloc(bytes, what);
      const small = this._small;
      if (small[slot] === 0) small[slot] = this._alloc(SMALL_TEMP, what);
      return small[slot];
    }

    _freeTemp(p) {
      if (!this._small.includes(p)) this._M._osw_free(p);
    }

    // Wasm memory as an array of Ctor's elements. Kept until memory grows (growth detaches
    // the views made before it), so a call makes no view of its own.
    _heap(Ctor) {
      const buf = this._M.HEAPU8.buffer;
      if (this._heapBuf !== buf) {
        this._heapBuf = buf;
        this._heaps = new Map();
      }
      let h = this._heaps.get(Ctor);
      if (h === undefined) {
        h = new Ctor(buf);
        this._heaps.set(Ctor, h);
      }
      return h;
    }

    // Copies a checked tensor into fresh wasm memory; returns the pointer. An array of the
    // type's own kind is copied element-wise (a plain memory copy, no view made); any other
    // (Uint8ClampedArray, Float16Array) as bytes.
    _copyIn(v, what, slot) {
      const bytes = v.size * v.info.bytes;
      const p = this._temp(bytes, what, slot);
      try {
        const A = v.info.arrays[0];
        const data = v.wasm ? v.wasm.data : v.data;  // another sampler's tensor: its view
        if (typedArrayName(data) === A.name && p % v.info.bytes === 0) {
          this._heap(A).set(data, p / v.info.bytes);
        } else {
          this._heap(Uint8Array).set(new Uint8Array(data.buffer, data.byteOffset, bytes), p);
        }
      } catch (e) {
        // A buffer detached or resized after the checks: free, then report.
        this._freeTemp(p);
        if (e instanceof TypeError || e instanceof RangeError) throw new TypeError(`${what}.data: cannot be read (${e.message})`, { cause: e });
        throw e;
      }
      return p;
    }

    // The result is carried in the same kind of TypedArray as X's data (Float16Array stays
    // Float16Array, Uint8ClampedArray stays Uint8ClampedArray).
    _copyOut(x, dims, p, n) {
      const B = x.info.bytes, A = x.info.arrays[0];
      const Ctor = x.wasm ? A : x.data.constructor;
      // The constructor's own copy of a view: its memory is not zeroed first, which new
      // Ctor(n) + set() pays for (the copy takes about half the time). Uint8Array
      // values are the same in a Uint8ClampedArray; other kinds (Float16Array from bits,
      // subclasses) take the byte copy below.
      if (n > 0 && p % B === 0 && (Ctor === A || (Ctor === Uint8ClampedArray && A === Uint8Array)))
        return { type: x.type, dims, data: new Ctor(this._heap(A).subarray(p / B, p / B + n)) };
      const data = new Ctor(n);
      if (n > 0) {
        if (typedArrayName(data) === A.name && p % B === 0) data.set(this._heap(A).subarray(p / B, p / B + n));
        else new Uint8Array(data.buffer, data.byteOffset, n * B).set(this._heap(Uint8Array).subarray(p, p + n * B));
      }
      return { type: x.type, dims, data };
    }

    _readOutDims(b) {
      const S = this._S;
      const rank = b[S.outRank];
      const dims = new Array(rank);
      let n = 1;
      for (let i = 0; i < rank; i++) { dims[i] = b[S.outDims + i]; n *= dims[i]; }
      return { dims, n };
    }

    _checkRank(v, what, min) {
      if (v.dims.length < min || v.dims.length > this._maxRank)
        throw new RangeError(`${what}: rank must be in [${min}, ${this._maxRank}], got ${v.dims.length}`);
    }

    // Runs a planned call: the output dims are in the parameter block.
    _execute(x, grid, target, op) {
      const M = this._M;
      return this._io(x, grid, target, this._readOutDims(this._block()), (xp, gp, yp) =>
        this._check(op === OP_RESIZE ? M._osw_exec_resize(xp, yp)
          : op === OP_AFFINE_GRID ? M._osw_exec_affine_grid(xp, yp) : M._osw_exec_grid_sample(xp, gp, yp)));
    }

    // A call's memory around run(xp, gp, yp), the kernel's call on pointers (out: the output's
    // { dims, n }). Inputs that live in this sampler's memory (its sampler.tensor()s) are used
    // in place; others (arrays, and another sampler's tensors) are copied in. The result goes
    // to `target` when given (in place for one of this sampler's tensors), else to a new
    // tensor. The compat modes' kernels (compat.js) run here too.
    _io(x, grid, target, out, run) {
      const M = this._M;
      let xp = 0, gp = 0, yp = 0, xTemp = false, gTemp = false, yTemp = false;
      try {
        let yWasm = null;
        if (target) {
          if (target.type !== x.type) throw new TypeError(`output: expected a '${x.type}' tensor (the type of X), got '${target.type}'`);
          if (target.dims.length !== out.dims.length || target.dims.some((d, i) => d !== out.dims[i]))
            throw new RangeError(`output: expected dims [${out.dims.join(', ')}], got [${target.dims.join(', ')}]`);
          if (target.wasm && target.wasm._owner === this) yWasm = target.wasm;
        }
        if (x.wasm && x.wasm._owner === this) xp = x.wasm._ptr; else { xp = this._copyIn(x, 'X', 0); xTemp = true; }
        if (grid) {
          if (grid.wasm && grid.wasm._owner === this) gp = grid.wasm._ptr; else { gp = this._copyIn(grid, 'grid', 1); gTemp = true; }
        }
        if (yWasm) {
          yp = yWasm._ptr;
          const yEnd = yp + out.n * x.info.bytes;
          const overlaps = (p, n) => p < yEnd && yp < p + n;
          if (out.n > 0 && (overlaps(xp, x.size * x.info.bytes) || (grid && overlaps(gp, grid.size * grid.info.bytes))))
            throw new RangeError('output: must not share memory with an input (no in-place operation)');
        } else {
          yp = this._temp(out.n * x.info.bytes, 'Y', 2);
          yTemp = true;
        }
        run(xp, gp, yp);
        if (!target) return this._copyOut(x, out.dims, yp, out.n);
        if (!yWasm) {
          const bytes = out.n * x.info.bytes;
          const data = target.wasm ? target.wasm.data : target.data;
          new Uint8Array(data.buffer, data.byteOffset, bytes).set(new Uint8Array(M.HEAPU8.buffer, yp, bytes));
        }
        return target.tensor;
      } finally {
        if (xTemp) this._freeTemp(xp);
        if (gTemp) this._freeTemp(gp);
        if (yTemp) this._freeTemp(yp);
      }
    }

    // ------------------------------------------------------------ zero-copy tier

    // Starts a call's parameter block: the header zeroed, then the operator and X's type,
    // rank and dims (theta's for AffineGrid). Returns the block.
    _begin(op, x) {
      const S = this._S, b = this._block();
      b.fill(0, 0, S.headerEnd);
      b[S.op] = op;
      b[S.xType] = x.info.code;
      b[S.rank] = x.dims.length;
      for (let i = 0; i < x.dims.length; i++) b[S.inDims + i] = x.dims[i];
      return b;
    }

    // p: Resize parameters from _resizeParams. Returns the output tensor.
    _resize(x, p, target) {
      if (p.compat) return this._compat(p.attrs[spec.index.compat]).resize(this, this._cx, x, p, target);
      const S = this._S, M = this._M;
      const b = this._begin(OP_RESIZE, x);
      const slots = this._attrSlots, values = p.attrs;
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
      this._check(M._osw_plan_resize());
      return this._execute(x, null, target, OP_RESIZE);
    }

    // ------------------------------------------------------------ compat: Pillow, OpenCV

    // The compat modes' code (bindings/compat.js), with this sampler's instance of
    // osw-compat.wasm (this._cx, in this sampler's memory, dropped by dispose()) made on
    // first use; osw-compat-mt.wasm where that memory is shared (the threaded build).
    // Where the module can be had at once (Node) it is; elsewhere (browsers fetch it)
    // loadCompat() must have run first, which the error says. what: the caller, for it.
    _compat(what) {
      if (this._cx === null) {
        const shared = this._shared(), m = compatHost.moduleSync(shared);
        if (m === null) {
          const e = new Error(`${typeof what === 'number' ? `resize: compat '${Object.keys(COMPATS)[what]}'` : what} runs in osw-compat.wasm, a second module fetched only by programs that use it; ` +
            'load it first: `await sampler.loadCompat()` once, or createSampler({ loadCompat: true })');
          e.oswNeedsCompat = true;  // the worker API loads it and calls again (worker-main.js)
          throw e;
        }
        this._cx = compatHost.codeNow().instantiateSync(m, this._M, shared);
      }
      return compatHost.codeNow();
    }

    _shared() {
      return typeof SharedArrayBuffer === 'function' && this._M.HEAPU8.buffer instanceof SharedArrayBuffer;
    }

    _gridSample(x, grid, p, target) {
      const S = this._S, M = this._M;
      const b = this._begin(OP_GRID_SAMPLE, x);
      b[S.mode] = p.mode;
      b[S.padding] = p.padding;
      b[S.alignCorners] = p.alignCorners;
      b[S.compat] = p.compat || 0;
      b[S.gridType] = grid.info.code;
      b[S.gridRank] = grid.dims.length;
      for (let i = 0; i < grid.dims.length; i++) b[S.gridDims + i] = grid.dims[i];
      this._check(M._osw_plan_grid_sample());
      return this._execute(x, grid, target, OP_GRID_SAMPLE);
    }

    // ------------------------------------------------------------ ONNX-node level

    _runNode(node, inputs, target) {
      this._live();
      if (node === null || typeof node !== 'object')
        throw new TypeError(`run: expected a node { opType, opset, attributes }, got ${describe(node)}`);
      const { opType, opset } = node;
      const compat = node.compat === undefined ? 0 : checkEnum(node.compat, 'compat', COMPATS);
      if (typeof opType !== 'string') throw new TypeError(`opType: expected a string, got ${describe(opType)}`);
      const os = checkInt(opset, 'opset');
      if (os < 1) throw new RangeError(`opset: must be a positive integer, got ${os}`);
      if (!Array.isArray(inputs)) throw new TypeError(`inputs: expected an array of tensors (null for an omitted input), got ${describe(inputs)}`);
      switch (opType) {
        case 'Resize': return [this._runResize(os, node.attributes, inputs, target, compat)];
        case 'Upsample': return [this._runUpsample(os, node.attributes, inputs, target, compat)];
        case 'GridSample': return [this._runGridSample(os, node.attributes, inputs, target, compat)];
        case 'AffineGrid': return [this._runAffineGrid(os, node.attributes, inputs, target)];
        default:
          throw new RangeError(`opType: unsupported operator '${opType}'; expected 'Resize', 'Upsample', 'GridSample' or 'AffineGrid'${didYouMean(opType, ['Resize', 'Upsample', 'GridSample', 'AffineGrid'])}`);
      }
    }

    _runResize(opset, attributes, inputs, target, compat) {
      const version = opVersion('Resize', opset, [10, 11, 13, 18, 19]);
      const V = RESIZE_VERSIONS[version];
      const name = `Resize-${version} (opset ${opset})`;
      const raw = readResizeArgs(attributes, V, NODE_FORM, name);
      const maxInputs = version === 10 ? 2 : 4;
      if (inputs.length > maxInputs) throw new RangeError(`inputs: ${name} takes at most ${maxInputs} inputs, got ${inputs.length}`);
      if (inputs[0] === null || inputs[0] === undefined) throw new TypeError('X: the input tensor is required');
      const x = checkTensor(inputs[0], 'X');
      this._checkRank(x, 'X', 1);
      return this._resize(x, this._resizeParams(V, NODE_FORM, raw, x.dims.length, inputs, compat), target);
    }

    // The one place where a Resize's parameters are made, for run() (Resize and Upsample
    // nodes), resize() and upsample(). raw: the attributes or options as readResizeArgs read
    // them. Each attribute of the parameter block (spec.attrs) given there is checked; the
    // others take V's values. Then the axes, and the scales / sizes / roi lists (from the
    // node's inputs or from raw: the form's take()), checked against each other and the
    // axes. compat: the node's (run), else undefined (an option). Returns { attrs (values in
    // spec.attrs order), axes, scales, sizes, roi }.
    _resizeParams(V, form, raw, rank, inputs, compat) {
      const attrs = spec.attrs, keys = form.onnx ? V.onnxKeys : V.optionKeys, defaults = V.defaults;
      const values = new Array(attrs.length);
      for (let i = 0; i < attrs.length; i++) {
        const v = raw[i];
        values[i] = v === undefined ? defaults[i] : attrs[i].check(v, keys[i], V);
      }
      if (compat !== undefined) values[spec.index.compat] = compat;
      // Another library's resize (bindings/compat.js checks its arguments: it may name
      // filters no ONNX mode has, and no attribute but mode).
      const compatCode = values[spec.index.compat] >= COMPAT_PILLOW ? this._compat(values[spec.index.compat]) : null;
      const compatArgs = compatCode && compatCode.args(V, raw, keys, values, spec.index);
      if (!compatCode && values[spec.index.mode] > RESIZE_MODES.cubic)
        throw new RangeError(`mode: '${raw[spec.index.mode]}' needs compat 'pillow' or 'opencv'`);
      const axesRaw = raw[attrs.length + AXES];
      const axes = axesRaw === undefined ? null : this._axes(axesRaw, rank);
      const n = axes ? axes.length : rank;
      const nWhat = axes ? 'length of axes' : `rank of ${form.x}`;
      let scales = null, sizes = null, roi = null;
      if (V.scalesOnly) {
        const s = form.take(raw, inputs, 'scales', SCALES, V);
        if (s === undefined) throw new TypeError(form.scalesRequired(V));
        scales = form.list(this, s, 'scales', n, nWhat);
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
        if (s !== undefined) scales = form.list(this, s, 'scales', n, nWhat);
        else sizes = form.list(this, z, 'sizes', n, nWhat);
        const policy = spec.index.policy;
        if (values[policy] !== 0 && !sizes) throw new RangeError(form.policy(raw[policy]));
        if (values[spec.index.coord] === COORD_MODES.tf_crop_and_resize) {
          // No roi: the full range [0, ..., 0, 1, ..., 1] (the spec makes roi optional and gives
          // it no other meaning; ONNX Runtime reads it so). docs/semantics.md.
          roi = r === undefined ? [...new Array(n).fill(0), ...new Array(n).fill(1)] : form.list(this, r, 'roi', 2 * n, nWhat);
        }
      }
      // cv2.resize(fx, fy) takes the scales as doubles: compat 'opencv' keeps resize()'s
      // scales unrounded (a node's are float32 tensors).
      // (cv2.resize takes fx and fy as doubles: resize()'s scales stay unrounded there.)
      if (compatArgs && scales && !form.onnx) compatArgs.exactScales = checkList(form.take(raw, inputs, 'scales', SCALES, V), 'scales', numberElem);
      return { attrs: values, axes, scales, sizes, roi, compat: compatArgs };
    }

    _listOf(t, what, n, nWhat) {
      if (t.dims.length !== 1) throw new RangeError(`${what}: expected a 1-D tensor, got dims [${t.dims.join(', ')}]`);
      if (t.size !== n) throw new RangeError(`${what}: expected ${n} values (${nWhat}), got ${t.size}`);
      return tensorNumbers(t);
    }

    _axes(v, rank) {
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

    _runUpsample(opset, attributes, inputs, target, compat) {
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
      this._checkRank(x, 'X', 1);
      return this._resize(x, this._resizeParams(V, form, raw, x.dims.length, inputs, compat), target);
    }

    _runGridSample(opset, attributes, inputs, target, compat) {
      const version = opVersion('GridSample', opset, [16, 20, 22]);
      const name = `GridSample-${version} (opset ${opset})`;
      const a = checkAttributes(attributes, ['mode', 'padding_mode', 'align_corners'], name);
      if (inputs.length > 2) throw new RangeError(`inputs: ${name} takes 2 inputs, got ${inputs.length}`);
      const modes = version === 16 ? GRID_MODES_16 : GRID_MODES_20;
      if (compat >= COMPAT_PILLOW)
        throw new RangeError(`compat: '${Object.keys(COMPATS)[compat]}' applies to Resize only; GridSample takes 'onnx', 'onnxruntime' or 'pytorch'`);
      const p = {
        mode: checkEnum(attr(a, 'mode', version === 16 ? 'bilinear' : 'linear'), 'mode', modes),
        padding: checkEnum(attr(a, 'padding_mode', 'zeros'), 'padding_mode', PADDING_MODES),
        alignCorners: checkBool01(attr(a, 'align_corners', 0), 'align_corners'),
        compat,
      };
      return this._gridSampleChecked(inputs[0], inputs[1], p, version === 16 ? 4 : 0, target);
    }

    _gridSampleChecked(xIn, gridIn, p, exactRank, target) {
      if (xIn === null || xIn === undefined) throw new TypeError('X: the input tensor is required');
      if (gridIn === null || gridIn === undefined) throw new TypeError('grid: the grid tensor is required');
      const x = checkTensor(xIn, 'X');
      const grid = checkTensor(gridIn, 'grid');
      if (exactRank && x.dims.length !== exactRank)
        throw new RangeError(`X: GridSample-16 accepts only 4-D input (N, C, H, W), got rank ${x.dims.length}; use opset 20 or later for other ranks`);
      this._checkRank(x, 'X', 3);
      requireType(grid, 'grid', ['float32', 'float64', 'float16']);
      return this._gridSample(x, widenHalf(grid), p, target);
    }

    // ------------------------------------------------------------ friendly level

    _resizeOpts(x, options, target) {
      this._live();
      const V = RESIZE_OPTIONS_VERSION;
      const raw = readResizeArgs(options, V, OPTIONS_FORM, V.name);
      const xt = checkTensor(x, 'x');
      this._checkRank(xt, 'x', 1);
      return this._resize(xt, this._resizeParams(V, OPTIONS_FORM, raw, xt.dims.length, null, undefined), target);
    }

    _upsampleOpts(x, options, target) {
      this._live();
      const V = UPSAMPLE_OPTIONS_VERSION;
      const raw = readResizeArgs(options, V, OPTIONS_FORM, V.name);
      const xt = checkTensor(x, 'x');
      this._checkRank(xt, 'x', 1);
      return this._resize(xt, this._resizeParams(V, OPTIONS_FORM, raw, xt.dims.length, null, undefined), target);
    }

    _gridSampleOpts(x, grid, options, target) {
      this._live();
      const o = checkOptions(options, 'gridSample', ['mode', 'paddingMode', 'alignCorners', 'compat']);
      const p = {
        mode: enumOpt(o, 'mode', 'linear', GRID_MODES_20),
        padding: enumOpt(o, 'paddingMode', 'zeros', PADDING_MODES),
        alignCorners: checkBool01(opt(o, 'alignCorners', false), 'alignCorners'),
        compat: enumOpt(o, 'compat', 'onnx', GRID_COMPATS),
      };
      return this._gridSampleChecked(x, grid, p, 0, target);
    }

    // ------------------------------------------------------------ AffineGrid-20

    // AffineGrid: theta (N, 2, 3) or (N, 3, 4), float32/float64/float16; size [N, C, H, W]
    // or [N, C, D, H, W]. The core checks the shapes (src/affinegrid/affinegrid.h); here the kinds.
    _runAffineGrid(opset, attributes, inputs, target) {
      const version = opVersion('AffineGrid', opset, [20]);
      const name = `AffineGrid-${version} (opset ${opset})`;
      const a = checkAttributes(attributes, ['align_corners'], name);
      if (inputs.length > 2) throw new RangeError(`inputs: ${name} takes 2 inputs, got ${inputs.length}`);
      if (inputs[0] === null || inputs[0] === undefined) throw new TypeError('theta: the input tensor is required');
      if (inputs[1] === null || inputs[1] === undefined) throw new TypeError('size: the size tensor is required');
      const theta = checkTensor(inputs[0], 'theta');
      const sizes = this._affineSizeTensor(checkTensor(inputs[1], 'size'));
      return this._affineGrid(theta, sizes, checkBool01(attr(a, 'align_corners', 0), 'align_corners'), target);
    }

    // The values of an int64 size tensor (1-D), each a safe integer.
    _affineSizeTensor(s) {
      requireType(s, 'size', ['int64']);
      if (s.dims.length !== 1) throw new RangeError(`size: expected a 1-D tensor, got dims [${s.dims.join(', ')}]`);
      const data = s.wasm ? s.wasm.data : s.data;
      const out = new Array(s.size);
      for (let i = 0; i < s.size; i++) out[i] = checkInt(data[i], 'size', i);
      return out;
    }

    // theta: a checked tensor; sizes: numbers (checked integers); align: 0 or 1.
    _affineGrid(theta, sizes, align, target) {
      requireType(theta, 'theta', ['float32', 'float64', 'float16']);
      this._checkRank(theta, 'theta', 0);
      const S = this._S, M = this._M;
      const b = this._begin(OP_AFFINE_GRID, theta);
      b[S.nAxes] = sizes.length;  // the core refuses any count but 4 and 5 before reading
      for (let i = 0; i < Math.min(sizes.length, this._maxRank); i++) b[S.sizes + i] = sizes[i];
      b[S.alignCorners] = align;
      this._check(M._osw_plan_affine_grid());
      return this._execute(theta, null, target, OP_AFFINE_GRID);
    }
  }

  class Sampler extends SamplerCore {
    // How many threads this sampler's calls run on (1: no shared memory here, or one asked
    // for); 0 once disposed.
    get threads() {
      return this._M === null ? 0 : this._threads;
    }

    // Frees the module instance: every reference to it and to its memory is dropped, so
    // the garbage collector can take both. Idempotent; later calls throw.
    dispose() {
      const M = this._M;
      if (M !== null && M.oswEnd) M.oswEnd(this);  // the threaded build: its pool's workers end
      this._M = null;
      this._blockBuf = this._blockView = this._heapBuf = this._heaps = null;
      this._small = [0, 0, 0];
      this._cx = null;
    }

    // The bytes of wasm memory this sampler's module instance holds (its whole heap, which
    // only grows while it lives; osw-compat.wasm, once used, lives in it); 0 once disposed.
    get memoryBytes() {
      return this._M === null ? 0 : this._M.HEAPU8.buffer.byteLength;
    }

    // A tensor allocated in wasm memory. Its `data` is a view created afresh on each access
    // (memory may grow and detach old views); dispose() frees it.
    tensor(type, dims) {
      this._live();
      if (typeof type !== 'string') throw new TypeError(`tensor: type must be a string, got ${describe(type)}`);
      const info = TYPES[type];
      if (!info) throw new TypeError(`tensor: unsupported type '${type}'${didYouMean(type, Object.keys(TYPES))}`);
      const d = checkList(dims, 'tensor: dims', (e, w, i) => {
        const v = checkInt(e, w, i);
        if (v < 0) throw new RangeError(`${nameOf(w, i)}: must be non-negative, got ${v}`);
        return v;
      });
      if (d.length > this._maxRank) throw new RangeError(`tensor: rank must be at most ${this._maxRank}, got ${d.length}`);
      const n = d.reduce((a, b) => a * b, 1);
      const bytes = n * info.bytes;
      if (!Number.isSafeInteger(bytes))
        throw new RangeError(`tensor: [${d.join(', ')}] x ${info.bytes} bytes does not fit in wasm memory`);
      if (bytes > 0xffffffff && bytes <= this._maxBytes)
        throw new RangeError(`tensor: needs ${bytes} bytes, more than wasm memory can hold (4 GiB)`);
      const ptr = this._alloc(bytes, 'tensor');  // over maxBytes: "needs N bytes" with the limit
      return new WasmTensor(this, type, d, ptr, n);
    }

    // Loads osw-compat.wasm for the compat modes 'pillow' and 'opencv' (once per program;
    // each sampler then has its own instance). options: { wasmUrl, wasmBinary }, as
    // createSampler's, naming osw-compat.wasm. Resolves when the sampler can use them.
    async loadCompat(options) {
      this._live();
      const o = checkOptions(options, 'loadCompat', ['wasmUrl', 'wasmBinary']);
      const load = {};
      if (o.wasmBinary !== undefined) load.wasmBinary = wasmBytesOption(o.wasmBinary, 'loadCompat');
      if (o.wasmUrl !== undefined) load.wasmUrl = wasmUrlOption(o.wasmUrl, 'loadCompat');
      if (this._cx !== null && load.wasmBinary === undefined && load.wasmUrl === undefined) return;
      const shared = this._shared(), m = await compatHost.module(load, shared);
      const M = this._M;
      if (M === null) return;  // disposed meanwhile
      const cx = await compatHost.codeNow().instantiate(m, M, shared);
      if (this._M === M) this._cx = cx;
    }

    run(node, inputs) { return this._runNode(node, inputs, null); }

    // Like run, writing the output into outputs[0]; returns outputs.
    runInto(node, inputs, outputs) {
      this._live();
      if (!Array.isArray(outputs) || outputs.length !== 1)
        throw new TypeError(`outputs: expected an array of one output tensor, got ${describe(outputs)}`);
      this._runNode(node, inputs, checkTensor(outputs[0], 'outputs[0]'));
      return outputs;
    }

    // Resize with the latest opset's semantics and defaults; options in camelCase.
    resize(x, options) { return this._resizeOpts(x, options, null); }

    // Like resize, writing into `output` (a tensor of the right type and dims, e.g. from
    // sampler.tensor()); returns it.
    resizeInto(x, output, options) { this._live(); return this._resizeOpts(x, options, checkTensor(output, 'output')); }

    // Upsample-9 semantics: nearest (floor) or linear, asymmetric coordinates, scales >= 1.
    upsample(x, options) { return this._upsampleOpts(x, options, null); }

    upsampleInto(x, output, options) { this._live(); return this._upsampleOpts(x, options, checkTensor(output, 'output')); }

    // GridSample-22 semantics: mode 'linear' | 'nearest' | 'cubic', paddingMode 'zeros' |
    // 'border' | 'reflection', alignCorners boolean.
    gridSample(x, grid, options) { return this._gridSampleOpts(x, grid, options, null); }

    gridSampleInto(x, grid, output, options) { this._live(); return this._gridSampleOpts(x, grid, options, checkTensor(output, 'output')); }

    // AffineGrid-20 semantics: size is [N, C, H, W] or [N, C, D, H, W], as an array of
    // numbers or bigints or as an int64 tensor; alignCorners boolean (default false).
    affineGrid(theta, size, options) {
      this._live();
      const o = checkOptions(options, 'affineGrid', ['alignCorners']);
      const align = checkBool01(opt(o, 'alignCorners', false), 'alignCorners');
      if (theta === null || theta === undefined) throw new TypeError('theta: the input tensor is required');
      const t = checkTensor(theta, 'theta');
      let sizes;
      if (Array.isArray(size) || (ArrayBuffer.isView(size) && !(size instanceof DataView))) sizes = checkList(size, 'size', intElem);
      else if (size !== null && typeof size === 'object') sizes = this._affineSizeTensor(checkTensor(size, 'size'));
      else throw new TypeError(`size: expected an array of integers or an int64 tensor, got ${describe(size)}`);
      return this._affineGrid(t, sizes, align, null);
    }
  }


  // The core writes a non-integer number of a message as a token (src/core/types.h, num_text):
  // U+001A, the 16 hex digits of its IEEE-754 bits, U+001A. Printed here as JavaScript does.
  function decodeNumbers(msg) {
    // eslint-disable-next-line no-control-regex -- U+001A is the core's token delimiter
    return msg.replace(/\x1a([0-9a-f]{16})\x1a/g, (_, hex) => {
      const view = new DataView(new ArrayBuffer(8));
      view.setUint32(0, parseInt(hex.slice(0, 8), 16));
      view.setUint32(4, parseInt(hex.slice(8), 16));
      return String(view.getFloat64(0));
    });
  }

  function checkOptions(options, fn, allowed) {
    if (options === undefined || options === null) return {};
    if (typeof options !== 'object' || Array.isArray(options))
      throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
    for (const k in options) {  // own keys (the enum cache: no array per call)
      if (Object.prototype.hasOwnProperty.call(options, k) && !allowed.includes(k))
        throw new RangeError(`${fn}: unknown option '${k}'${didYouMean(k, allowed)}; known options: ${allowed.join(', ')}`);
    }
    return options;
  }

  function opt(o, name, dflt) {
    const v = o[name];
    return v === undefined ? dflt : v;
  }

  // An enum option: its code, or the default's when absent (no check needed for that).
  function enumOpt(o, name, dflt, table) {
    const v = o[name];
    return v === undefined ? table[dflt] : checkEnum(v, name, table);
  }

  // image.js adds the image helpers (ImageData <-> tensor).
  installImageHelpers(Sampler, { checkTensor, checkOptions, checkEnum, checkNumber, checkInt, describe, TYPES });

  // The sampler's public methods (image helpers included), which each sampler binds.
  let publicNames = null;
  function publicMethods() {
    if (publicNames === null) {
      publicNames = Object.getOwnPropertyNames(Sampler.prototype).filter((n) => {
        const d = Object.getOwnPropertyDescriptor(Sampler.prototype, n);
        return n !== 'constructor' && n[0] !== '_' && typeof d.value === 'function';
      });
    }
    return publicNames;
  }

  return { createSampler, TENSOR_TYPES: Object.freeze(Object.keys(TYPES)) };
}
