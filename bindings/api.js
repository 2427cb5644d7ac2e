// api.js: the JavaScript API of onnx-sampling-wasm, shared by the Node and browser builds.
//
// scripts/build.mjs wraps this file into dist/index.cjs (Node, CommonJS) and
// dist/browser.mjs (ES module): each wrapper defines `loadModule(options)`, which returns a
// promise of the Emscripten module, and exports what `makeApi(loadModule)` returns.
//
// What this layer owns (STYLE habits 7-9): it validates every argument once, at the edge,
// throwing TypeError for a wrong kind of argument and RangeError for a bad shape or value,
// each message naming the input or attribute. It resolves opset differences (attribute
// names, defaults, which inputs exist) into the core's normalised parameters, writes them
// into the parameter block, copies tensors in and out of wasm memory and frees all it
// allocated, whatever happens. The core re-checks what it relies on and reports errors as
// values, so the sampler stays usable after any error.

/* eslint-disable no-unused-vars */
function makeApi(loadModule) {
  'use strict';

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

  function checkBool01(v, what) {
    if (typeof v === 'boolean') return v ? 1 : 0;
    const i = checkInt(v, what);
    if (i !== 0 && i !== 1) throw new RangeError(`${what}: expected 0 or 1, got ${i}`);
    return i;
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
      if (t.disposed) throw new RangeError(`${what}: the tensor was disposed`);
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

  // A tensor whose data lives in the module's memory (sampler.tensor()).
  class WasmTensor {
    constructor(M, type, dims, ptr, size) {
      this._M = M;
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
      if (!this._ptr) throw new RangeError('tensor: used after dispose()');
      const info = TYPES[this._type];
      const Ctor = info.arrays[0];
      return new Ctor(this._M.HEAPU8.buffer, this._ptr, this._size);
    }
    get disposed() { return this._ptr === 0; }
    dispose() {
      if (this._ptr) this._M._osw_free(this._ptr);
      this._ptr = 0;
    }
  }

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
  const COMPATS = { onnx: 0, onnxruntime: 1, pytorch: 2 };
  const GRID_MODES_16 = { bilinear: 1, nearest: 0, bicubic: 2 };
  const GRID_MODES_20 = { linear: 1, nearest: 0, cubic: 2 };

  function pick(table, names) {
    const out = {};
    for (const n of names) out[n] = table[n];
    return out;
  }

  // Resize versions: the attributes each knows and the values it allows.
  const RESIZE_VERSIONS = {
    10: { attrs: ['mode'], modes: pick(RESIZE_MODES, ['nearest', 'linear']) },
    11: {
      attrs: ['mode', 'coordinate_transformation_mode', 'cubic_coeff_a', 'exclude_outside', 'extrapolation_value', 'nearest_mode'],
      modes: RESIZE_MODES,
      coords: pick(COORD_MODES, ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_half_pixel_for_nn', 'tf_crop_and_resize']),
    },
    18: {
      attrs: ['mode', 'coordinate_transformation_mode', 'cubic_coeff_a', 'exclude_outside', 'extrapolation_value', 'nearest_mode', 'antialias', 'axes', 'keep_aspect_ratio_policy'],
      modes: RESIZE_MODES,
      coords: pick(COORD_MODES, ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_crop_and_resize']),
    },
    19: {
      attrs: ['mode', 'coordinate_transformation_mode', 'cubic_coeff_a', 'exclude_outside', 'extrapolation_value', 'nearest_mode', 'antialias', 'axes', 'keep_aspect_ratio_policy'],
      modes: RESIZE_MODES,
      coords: pick(COORD_MODES, ['half_pixel', 'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_crop_and_resize']),
    },
  };
  RESIZE_VERSIONS[13] = RESIZE_VERSIONS[11];

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

  let modulePromise = null;

  // Default limit on what one call may allocate in wasm memory: 2 GiB, what a wasm32 heap
  // can give in practice (its addresses stop at 4 GiB and inputs need room too).
  const DEFAULT_MAX_BYTES = 2 ** 31;
  const SMALL_TEMP = 4096;  // bytes of each of the module's blocks for small temporaries

  async function createSampler(options) {
    if (options !== undefined && (options === null || typeof options !== 'object'))
      throw new TypeError(`createSampler: options must be an object, got ${describe(options)}`);
    const o = options || {};
    let maxBytes = DEFAULT_MAX_BYTES;
    if (o.maxBytes !== undefined) {
      maxBytes = checkInt(o.maxBytes, 'createSampler: maxBytes');
      if (maxBytes < 1) throw new RangeError(`createSampler: maxBytes must be positive, got ${maxBytes}`);
    }
    if (!modulePromise) {
      modulePromise = Promise.resolve().then(() => loadModule(o));
      modulePromise.catch(() => { modulePromise = null; });
    }
    const M = await modulePromise;
    return new Sampler(M, maxBytes);
  }

  class Sampler {
    constructor(M, maxBytes) {
      this._M = M;
      this._maxBytes = maxBytes;
      this._blockPtr = M.paramBlock() >>> 0;
      this._S = {
        OP: M.SLOT_OP, X_TYPE: M.SLOT_X_TYPE, RANK: M.SLOT_RANK, MODE: M.SLOT_MODE,
        COORD: M.SLOT_COORD, NEAREST: M.SLOT_NEAREST, CUBIC_A: M.SLOT_CUBIC_A,
        EXCLUDE: M.SLOT_EXCLUDE, ANTIALIAS: M.SLOT_ANTIALIAS, EXTRAPOLATION: M.SLOT_EXTRAPOLATION,
        POLICY: M.SLOT_POLICY, COMPAT: M.SLOT_COMPAT, HAS_AXES: M.SLOT_HAS_AXES,
        N_AXES: M.SLOT_N_AXES, HAS_SCALES: M.SLOT_HAS_SCALES, HAS_SIZES: M.SLOT_HAS_SIZES,
        HAS_ROI: M.SLOT_HAS_ROI, PADDING: M.SLOT_PADDING, ALIGN: M.SLOT_ALIGN_CORNERS,
        GRID_TYPE: M.SLOT_GRID_TYPE, GRID_RANK: M.SLOT_GRID_RANK, OUT_RANK: M.SLOT_OUT_RANK,
        IN_DIMS: M.SLOT_IN_DIMS, AXES: M.SLOT_AXES, SCALES: M.SLOT_SCALES, SIZES: M.SLOT_SIZES,
        ROI: M.SLOT_ROI, GRID_DIMS: M.SLOT_GRID_DIMS, OUT_DIMS: M.SLOT_OUT_DIMS,
        HEADER: M.SLOT_IN_DIMS, MAX_RANK: M.MAX_RANK,
      };
    }

    // The parameter block, viewed afresh: wasm memory may have grown since the last call.
    _block() {
      const buf = this._M.HEAPU8.buffer;
      if (this._blockBuf !== buf) {
        this._blockBuf = buf;
        this._blockView = new Float64Array(buf, this._blockPtr, this._M.BLOCK_SIZE);
      }
      return this._blockView;
    }

    // The core's allocation limit is this sampler's maxBytes. Samplers share the module,
    // so the limit last sent is kept on it, and sent again only when it differs.
    _sendLimit() {
      const M = this._M;
      if (M.oswLimitSent === this._maxBytes) return;
      M._osw_set_allocation_limit(this._maxBytes);
      M.oswLimitSent = this._maxBytes;
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
    // three blocks of SMALL_TEMP bytes allocated once per module (samplers share it, and a
    // call never runs inside another), so small calls make no malloc/free round trips;
    // larger ones are allocated here and freed by _freeTemp(), which leaves the blocks.
    _temp(bytes, what, slot) {
      if (bytes > SMALL_TEMP || SMALL_TEMP > this._maxBytes) return this._alloc(bytes, what);
      const M = this._M;
      if (!M.oswSmallTemps) M.oswSmallTemps = [0, 0, 0];
      const small = M.oswSmallTemps;
      if (small[slot] === 0) small[slot] = this._alloc(SMALL_TEMP, what);
      return small[slot];
    }

    _freeTemp(p) {
      const small = this._M.oswSmallTemps;
      if (!small || !small.includes(p)) this._M._osw_free(p);
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
        if (typedArrayName(v.data) === A.name && p % v.info.bytes === 0) {
          this._heap(A).set(v.data, p / v.info.bytes);
        } else {
          this._heap(Uint8Array).set(new Uint8Array(v.data.buffer, v.data.byteOffset, bytes), p);
        }
      } catch (e) {
        // A buffer detached or resized after the checks: free, then report.
        this._freeTemp(p);
        if (e instanceof TypeError || e instanceof RangeError) throw new TypeError(`${what}.data: cannot be read (${e.message})`);
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
      // Ctor(n) + set() pays for (12.6 MB: about 2.0 ms instead of 3.6 ms). Uint8Array
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
      const rank = b[S.OUT_RANK];
      const dims = new Array(rank);
      let n = 1;
      for (let i = 0; i < rank; i++) { dims[i] = b[S.OUT_DIMS + i]; n *= dims[i]; }
      return { dims, n };
    }

    _checkRank(v, what, min) {
      if (v.dims.length < min || v.dims.length > this._S.MAX_RANK)
        throw new RangeError(`${what}: rank must be in [${min}, ${this._S.MAX_RANK}], got ${v.dims.length}`);
    }

    // Runs a planned call: the output dims are in the parameter block. Inputs that live in
    // this module's memory (sampler.tensor) are used in place; others are copied in. The
    // result goes to `target` when given (in place for a wasm tensor), else to a new tensor.
    _execute(x, grid, target, op) {
      const M = this._M;
      const out = this._readOutDims(this._block());
      let xp = 0, gp = 0, yp = 0, xTemp = false, gTemp = false, yTemp = false;
      try {
        let yWasm = null;
        if (target) {
          if (target.type !== x.type) throw new TypeError(`output: expected a '${x.type}' tensor (the type of X), got '${target.type}'`);
          if (target.dims.length !== out.dims.length || target.dims.some((d, i) => d !== out.dims[i]))
            throw new RangeError(`output: expected dims [${out.dims.join(', ')}], got [${target.dims.join(', ')}]`);
          yWasm = target.wasm;
        }
        if (x.wasm) xp = x.wasm._ptr; else { xp = this._copyIn(x, 'X', 0); xTemp = true; }
        if (grid) {
          if (grid.wasm) gp = grid.wasm._ptr; else { gp = this._copyIn(grid, 'grid', 1); gTemp = true; }
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
        this._check(op === OP_RESIZE ? M._osw_exec_resize(xp, yp)
          : op === OP_AFFINE_GRID ? M._osw_exec_affine_grid(xp, yp) : M._osw_exec_grid_sample(xp, gp, yp));
        if (!target) return this._copyOut(x, out.dims, yp, out.n);
        if (!yWasm) {
          const bytes = out.n * x.info.bytes;
          new Uint8Array(target.data.buffer, target.data.byteOffset, bytes).set(new Uint8Array(M.HEAPU8.buffer, yp, bytes));
        }
        return target.tensor;
      } finally {
        if (xTemp) this._freeTemp(xp);
        if (gTemp) this._freeTemp(gp);
        if (yTemp) this._freeTemp(yp);
      }
    }

    // ------------------------------------------------------------ zero-copy tier

    // A tensor allocated in wasm memory. Its `data` is a view created afresh on each access
    // (memory may grow and detach old views); dispose() frees it.
    tensor(type, dims) {
      if (typeof type !== 'string') throw new TypeError(`tensor: type must be a string, got ${describe(type)}`);
      const info = TYPES[type];
      if (!info) throw new TypeError(`tensor: unsupported type '${type}'${didYouMean(type, Object.keys(TYPES))}`);
      const d = checkList(dims, 'tensor: dims', (e, w, i) => {
        const v = checkInt(e, w, i);
        if (v < 0) throw new RangeError(`${nameOf(w, i)}: must be non-negative, got ${v}`);
        return v;
      });
      if (d.length > this._S.MAX_RANK) throw new RangeError(`tensor: rank must be at most ${this._S.MAX_RANK}, got ${d.length}`);
      const n = d.reduce((a, b) => a * b, 1);
      if (!Number.isSafeInteger(n * info.bytes) || n * info.bytes > 0xffffffff)
        throw new RangeError(`tensor: [${d.join(', ')}] x ${info.bytes} bytes does not fit in wasm memory`);
      const ptr = this._alloc(n * info.bytes, 'tensor');
      return new WasmTensor(this._M, type, d, ptr, n);
    }

    // p: normalised Resize parameters. Returns the output tensor.
    _resize(x, p, target) {
      const S = this._S, M = this._M;
      const b = this._block();
      b.fill(0, 0, S.HEADER);
      b[S.OP] = 1;
      b[S.X_TYPE] = x.info.code;
      b[S.RANK] = x.dims.length;
      b[S.MODE] = p.mode;
      b[S.COORD] = p.coord;
      b[S.NEAREST] = p.nearest;
      b[S.CUBIC_A] = p.cubicA;
      b[S.EXCLUDE] = p.excludeOutside;
      b[S.ANTIALIAS] = p.antialias;
      b[S.EXTRAPOLATION] = p.extrapolation;
      b[S.POLICY] = p.policy;
      b[S.COMPAT] = p.compat || 0;
      for (let i = 0; i < x.dims.length; i++) b[S.IN_DIMS + i] = x.dims[i];
      const n = p.axes ? p.axes.length : x.dims.length;
      b[S.HAS_AXES] = p.axes ? 1 : 0;
      b[S.N_AXES] = n;
      if (p.axes) for (let i = 0; i < n; i++) b[S.AXES + i] = p.axes[i];
      b[S.HAS_SCALES] = p.scales ? 1 : 0;
      if (p.scales) for (let i = 0; i < n; i++) b[S.SCALES + i] = p.scales[i];
      b[S.HAS_SIZES] = p.sizes ? 1 : 0;
      if (p.sizes) for (let i = 0; i < n; i++) b[S.SIZES + i] = p.sizes[i];
      b[S.HAS_ROI] = p.roi ? 1 : 0;
      if (p.roi) for (let i = 0; i < 2 * n; i++) b[S.ROI + i] = p.roi[i];
      this._sendLimit();
      this._check(M._osw_plan_resize());
      return this._execute(x, null, target, OP_RESIZE);
    }

    _gridSample(x, grid, p, target) {
      const S = this._S, M = this._M;
      const b = this._block();
      b.fill(0, 0, S.HEADER);
      b[S.OP] = 2;
      b[S.X_TYPE] = x.info.code;
      b[S.RANK] = x.dims.length;
      b[S.MODE] = p.mode;
      b[S.PADDING] = p.padding;
      b[S.ALIGN] = p.alignCorners;
      b[S.COMPAT] = p.compat || 0;
      for (let i = 0; i < x.dims.length; i++) b[S.IN_DIMS + i] = x.dims[i];
      b[S.GRID_TYPE] = grid.info.code;
      b[S.GRID_RANK] = grid.dims.length;
      for (let i = 0; i < grid.dims.length; i++) b[S.GRID_DIMS + i] = grid.dims[i];
      this._sendLimit();
      this._check(M._osw_plan_grid_sample());
      return this._execute(x, grid, target, OP_GRID_SAMPLE);
    }

    // ------------------------------------------------------------ ONNX-node level

    run(node, inputs) { return this._runNode(node, inputs, null); }

    // Like run, writing the output into outputs[0]; returns outputs.
    runInto(node, inputs, outputs) {
      if (!Array.isArray(outputs) || outputs.length !== 1)
        throw new TypeError(`outputs: expected an array of one output tensor, got ${describe(outputs)}`);
      this._runNode(node, inputs, checkTensor(outputs[0], 'outputs[0]'));
      return outputs;
    }

    _runNode(node, inputs, target) {
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
      const a = checkAttributes(attributes, V.attrs, name);
      const maxInputs = version === 10 ? 2 : 4;
      if (inputs.length > maxInputs) throw new RangeError(`inputs: ${name} takes at most ${maxInputs} inputs, got ${inputs.length}`);
      if (inputs[0] === null || inputs[0] === undefined) throw new TypeError('X: the input tensor is required');
      const x = checkTensor(inputs[0], 'X');
      this._checkRank(x, 'X', 1);
      const rank = x.dims.length;

      const p = {
        mode: checkEnum(attr(a, 'mode', 'nearest'), 'mode', V.modes),
        coord: COORD_MODES.asymmetric,
        nearest: NEAREST_OPSET10,
        cubicA: -0.75, excludeOutside: 0, extrapolation: 0, antialias: 0, policy: 0,
        axes: null, scales: null, sizes: null, roi: null, compat,
      };
      if (version === 10) {
        const s = optionalTensor(inputs[1], 'scales', false);
        if (!s) throw new TypeError('scales: Resize-10 requires the scales input');
        requireType(s, 'scales', ['float32']);
        p.scales = this._listOf(s, 'scales', rank, 'rank of X');
        return this._resize(x, p, target);
      }
      p.coord = checkEnum(attr(a, 'coordinate_transformation_mode', 'half_pixel'), 'coordinate_transformation_mode', V.coords);
      p.nearest = checkEnum(attr(a, 'nearest_mode', 'round_prefer_floor'), 'nearest_mode', NEAREST_MODES);
      p.cubicA = checkFinite(attr(a, 'cubic_coeff_a', -0.75), 'cubic_coeff_a');
      p.excludeOutside = checkBool01(attr(a, 'exclude_outside', 0), 'exclude_outside');
      p.extrapolation = Math.fround(checkNumber(attr(a, 'extrapolation_value', 0), 'extrapolation_value'));
      if (version >= 18) {
        p.antialias = checkBool01(attr(a, 'antialias', 0), 'antialias');
        p.policy = checkEnum(attr(a, 'keep_aspect_ratio_policy', 'stretch'), 'keep_aspect_ratio_policy', POLICIES);
        if (a.axes !== undefined) p.axes = this._axes(a.axes, rank);
      }
      const n = p.axes ? p.axes.length : rank;
      const nWhat = p.axes ? 'length of axes' : 'rank of X';
      const roi = optionalTensor(inputs[1], 'roi', true);
      const scales = optionalTensor(inputs[2], 'scales', true);
      const sizes = optionalTensor(inputs[3], 'sizes', true);
      if (scales && sizes) throw new RangeError('scales and sizes: give only one of them (the other omitted or empty)');
      if (!scales && !sizes) throw new TypeError('scales and sizes: one of them is required');
      if (scales) {
        requireType(scales, 'scales', ['float32']);
        p.scales = this._listOf(scales, 'scales', n, nWhat);
      } else {
        requireType(sizes, 'sizes', ['int64']);
        p.sizes = this._listOf(sizes, 'sizes', n, nWhat);
      }
      if (p.policy !== 0 && !sizes)
        throw new RangeError(`keep_aspect_ratio_policy: '${attr(a, 'keep_aspect_ratio_policy')}' applies only when sizes is given`);
      if (p.coord === COORD_MODES.tf_crop_and_resize) {
        if (!roi) throw new TypeError("roi: required when coordinate_transformation_mode is 'tf_crop_and_resize'");
        requireType(roi, 'roi', ['float32', 'float64', 'float16']);
        p.roi = this._listOf(roi, 'roi', 2 * n, `twice the ${nWhat}`);
      }
      return this._resize(x, p, target);
    }

    _listOf(t, what, n, nWhat) {
      if (t.dims.length !== 1) throw new RangeError(`${what}: expected a 1-D tensor, got dims [${t.dims.join(', ')}]`);
      if (t.size !== n) throw new RangeError(`${what}: expected ${n} values (the ${nWhat}), got ${t.size}`);
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
      const name = `Upsample-${version} (opset ${opset})`;
      const a = checkAttributes(attributes, version === 7 ? ['mode', 'scales'] : ['mode'], name);
      const maxInputs = version === 7 ? 1 : 2;
      if (inputs.length > maxInputs) throw new RangeError(`inputs: ${name} takes at most ${maxInputs} inputs, got ${inputs.length}`);
      if (inputs[0] === null || inputs[0] === undefined) throw new TypeError('X: the input tensor is required');
      const x = checkTensor(inputs[0], 'X');
      this._checkRank(x, 'X', 1);
      const rank = x.dims.length;
      let scales;
      if (version === 7) {
        if (a.scales === undefined) throw new TypeError('scales: Upsample-7 requires the scales attribute');
        scales = checkList(a.scales, 'scales', float32Elem);
        if (scales.length !== rank) throw new RangeError(`scales: expected ${rank} values (the rank of X), got ${scales.length}`);
      } else {
        const s = optionalTensor(inputs[1], 'scales', false);
        if (!s) throw new TypeError('scales: Upsample-9 requires the scales input');
        requireType(s, 'scales', ['float32']);
        scales = this._listOf(s, 'scales', rank, 'rank of X');
      }
      return this._upsample(x, scales, checkEnum(attr(a, 'mode', 'nearest'), 'mode', pick(RESIZE_MODES, ['nearest', 'linear'])), target, compat);
    }

    // Upsample = Resize with asymmetric coordinates and floor for nearest (row 14).
    _upsample(x, scales, mode, target, compat) {
      scales.forEach((s, i) => {
        if (!(s >= 1) || !Number.isFinite(s)) throw new RangeError(`scales[${i}]: Upsample scales must be finite and >= 1, got ${s}`);
      });
      return this._resize(x, {
        mode, coord: COORD_MODES.asymmetric, nearest: NEAREST_MODES.floor, cubicA: -0.75,
        excludeOutside: 0, extrapolation: 0, antialias: 0, policy: 0,
        axes: null, scales, sizes: null, roi: null, compat: compat || 0,
      }, target);
    }

    _runGridSample(opset, attributes, inputs, target, compat) {
      const version = opVersion('GridSample', opset, [16, 20, 22]);
      const name = `GridSample-${version} (opset ${opset})`;
      const a = checkAttributes(attributes, ['mode', 'padding_mode', 'align_corners'], name);
      if (inputs.length > 2) throw new RangeError(`inputs: ${name} takes 2 inputs, got ${inputs.length}`);
      const modes = version === 16 ? GRID_MODES_16 : GRID_MODES_20;
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

    // Resize with the latest opset's semantics and defaults; options in camelCase.
    resize(x, options) { return this._resizeOpts(x, options, null); }

    // Like resize, writing into `output` (a tensor of the right type and dims, e.g. from
    // sampler.tensor()); returns it.
    resizeInto(x, output, options) { return this._resizeOpts(x, options, checkTensor(output, 'output')); }

    _resizeOpts(x, options, target) {
      const o = checkOptions(options, 'resize', RESIZE_OPTIONS);
      const xt = checkTensor(x, 'x');
      this._checkRank(xt, 'x', 1);
      const rank = xt.dims.length;
      const p = {
        mode: enumOpt(o, 'mode', 'nearest', RESIZE_MODES),
        coord: enumOpt(o, 'coordinateTransformationMode', 'half_pixel', RESIZE_VERSIONS[19].coords),
        nearest: enumOpt(o, 'nearestMode', 'round_prefer_floor', NEAREST_MODES),
        cubicA: checkFinite(opt(o, 'cubicCoeffA', -0.75), 'cubicCoeffA'),
        excludeOutside: checkBool01(opt(o, 'excludeOutside', false), 'excludeOutside'),
        extrapolation: Math.fround(checkNumber(opt(o, 'extrapolationValue', 0), 'extrapolationValue')),
        antialias: checkBool01(opt(o, 'antialias', false), 'antialias'),
        policy: enumOpt(o, 'keepAspectRatioPolicy', 'stretch', POLICIES),
        axes: o.axes === undefined ? null : this._axes(o.axes, rank),
        scales: null, sizes: null, roi: null,
        compat: enumOpt(o, 'compat', 'onnx', COMPATS),
      };
      const n = p.axes ? p.axes.length : rank;
      const nWhat = p.axes ? 'length of axes' : 'rank of x';
      if (o.scales !== undefined && o.sizes !== undefined) throw new RangeError('resize: give scales or sizes, not both');
      if (o.scales === undefined && o.sizes === undefined) throw new TypeError('resize: one of scales or sizes is required');
      const lengthCheck = (list, what, want) => {
        if (list.length !== want) throw new RangeError(`${what}: expected ${want} values (the ${nWhat}), got ${list.length}`);
        return list;
      };
      // scales are float32 in ONNX: rounding them here gives the same output shape and
      // coordinates as a model carrying the same numbers.
      if (o.scales !== undefined) p.scales = lengthCheck(checkList(o.scales, 'scales', float32Elem), 'scales', n);
      else p.sizes = lengthCheck(checkList(o.sizes, 'sizes', intElem), 'sizes', n);
      if (p.policy !== 0 && !p.sizes) throw new RangeError('keepAspectRatioPolicy: applies only when sizes is given');
      if (p.coord === COORD_MODES.tf_crop_and_resize) {
        if (o.roi === undefined) throw new TypeError("roi: required when coordinateTransformationMode is 'tf_crop_and_resize'");
        p.roi = lengthCheck(checkList(o.roi, 'roi', numberElem), 'roi', 2 * n);
      }
      return this._resize(xt, p, target);
    }

    // Upsample-9 semantics: nearest (floor) or linear, asymmetric coordinates, scales >= 1.
    upsample(x, options) { return this._upsampleOpts(x, options, null); }

    upsampleInto(x, output, options) { return this._upsampleOpts(x, options, checkTensor(output, 'output')); }

    _upsampleOpts(x, options, target) {
      const o = checkOptions(options, 'upsample', ['scales', 'mode', 'compat']);
      const xt = checkTensor(x, 'x');
      this._checkRank(xt, 'x', 1);
      if (o.scales === undefined) throw new TypeError('upsample: scales is required');
      const scales = checkList(o.scales, 'scales', float32Elem);
      if (scales.length !== xt.dims.length) throw new RangeError(`scales: expected ${xt.dims.length} values (the rank of x), got ${scales.length}`);
      return this._upsample(xt, scales, enumOpt(o, 'mode', 'nearest', pick(RESIZE_MODES, ['nearest', 'linear'])), target,
        enumOpt(o, 'compat', 'onnx', COMPATS));
    }

    // GridSample-22 semantics: mode 'linear' | 'nearest' | 'cubic', paddingMode 'zeros' |
    // 'border' | 'reflection', alignCorners boolean.
    gridSample(x, grid, options) { return this._gridSampleOpts(x, grid, options, null); }

    gridSampleInto(x, grid, output, options) { return this._gridSampleOpts(x, grid, options, checkTensor(output, 'output')); }

    _gridSampleOpts(x, grid, options, target) {
      const o = checkOptions(options, 'gridSample', ['mode', 'paddingMode', 'alignCorners', 'compat']);
      const p = {
        mode: enumOpt(o, 'mode', 'linear', GRID_MODES_20),
        padding: enumOpt(o, 'paddingMode', 'zeros', PADDING_MODES),
        alignCorners: checkBool01(opt(o, 'alignCorners', false), 'alignCorners'),
        compat: enumOpt(o, 'compat', 'onnx', COMPATS),
      };
      return this._gridSampleChecked(x, grid, p, 0, target);
    }

    // ------------------------------------------------------------ AffineGrid-20

    // AffineGrid: theta (N, 2, 3) or (N, 3, 4), float32/float64/float16; size [N, C, H, W]
    // or [N, C, D, H, W]. The core checks the shapes (src/affinegrid.h); here the kinds.
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
      const b = this._block();
      b.fill(0, 0, S.HEADER);
      b[S.OP] = OP_AFFINE_GRID;
      b[S.X_TYPE] = theta.info.code;
      b[S.RANK] = theta.dims.length;
      for (let i = 0; i < theta.dims.length; i++) b[S.IN_DIMS + i] = theta.dims[i];
      b[S.N_AXES] = sizes.length;  // the core refuses any count but 4 and 5 before reading
      for (let i = 0; i < Math.min(sizes.length, S.MAX_RANK); i++) b[S.SIZES + i] = sizes[i];
      b[S.ALIGN] = align;
      this._sendLimit();
      this._check(M._osw_plan_affine_grid());
      return this._execute(theta, null, target, OP_AFFINE_GRID);
    }

    // AffineGrid-20 semantics: size is [N, C, H, W] or [N, C, D, H, W], as an array of
    // numbers or bigints or as an int64 tensor; alignCorners boolean (default false).
    affineGrid(theta, size, options) {
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

  const RESIZE_OPTIONS = ['sizes', 'scales', 'axes', 'roi', 'mode', 'coordinateTransformationMode',
    'nearestMode', 'cubicCoeffA', 'excludeOutside', 'extrapolationValue', 'antialias', 'keepAspectRatioPolicy', 'compat'];

  // The core writes a non-integer number of a message as a token (src/common.h, num_text):
  // U+001A, the 16 hex digits of its IEEE-754 bits, U+001A. Printed here as JavaScript does.
  function decodeNumbers(msg) {
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

  // bindings/image.js, when built in, adds the image helpers (ImageData <-> tensor).
  if (typeof installImageHelpers === 'function')
    installImageHelpers(Sampler, { checkTensor, checkOptions, checkEnum, checkNumber, checkInt, describe, TYPES });

  return { createSampler, TENSOR_TYPES: Object.freeze(Object.keys(TYPES)) };
}
