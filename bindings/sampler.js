// sampler.js: the Sampler class, one per module instance: it copies tensors in and out of
// wasm memory and frees all it allocated whatever happens, writes each call's parameters
// into the parameter block, runs the core and turns its status into an exception, so the
// sampler stays usable after any error. SamplerCore holds the state and the helpers named
// with `_`; Sampler's prototype holds the public API alone (image.js adds the helpers).
import { installImageHelpers } from './image.js';
import { describe, didYouMean, nameOf, checkInt, checkNumber, intElem, numberElem, checkBool01,
  checkEnum, checkList, wasmBytesOption, wasmUrlOption, checkOptions, opt, enumOpt } from './validate.js';
import { TYPES, typedArrayName, checkTensor, requireType, tensorNumbers, widenHalf, WasmTensor,
  DISPOSED } from './tensors.js';
import { OP_RESIZE, OP_GRID_SAMPLE, OP_AFFINE_GRID, RESIZE_MODES, COORD_MODES, PADDING_MODES,
  COMPATS, COMPAT_PILLOW, GRID_COMPATS, GRID_MODES_16, GRID_MODES_20, RESIZE_VERSIONS,
  RESIZE_OPTIONS_VERSION, UPSAMPLE_VERSIONS, UPSAMPLE_OPTIONS_VERSION, spec, blockSpec, SIZES,
  SCALES, AXES, ROI, NODE_FORM, OPTIONS_FORM, UPSAMPLE7_FORM, readResizeArgs, opVersion,
  checkAttributes, attr } from './opsets.js';

const SMALL_TEMP = 4096;  // bytes of each of the module's blocks for small temporaries

// The sampler's own state and helpers (the methods named with _). Its public methods are
// those of Sampler below, which extends it: Sampler.prototype holds the API alone, so
// publicMethods() binds every name it finds there, whatever a minifier made of the
// private names (scripts/build.mjs shortens them in browser.mjs).
class SamplerCore {
  constructor(M, maxBytes, compatHost) {
    this._M = M;  // null once disposed
    this._compatHost = compatHost;  // the host's way to osw-compat.wasm (compat-loader.js)
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
      const shared = this._shared(), m = this._compatHost.moduleSync(shared);
      if (m === null) {
        const e = new Error(`${typeof what === 'number' ? `resize: compat '${Object.keys(COMPATS)[what]}'` : what} runs in osw-compat.wasm, a second module fetched only by programs that use it; ` +
          'load it first: `await sampler.loadCompat()` once, or createSampler({ loadCompat: true })');
        e.oswNeedsCompat = true;  // the worker API loads it and calls again (worker-main.js)
        throw e;
      }
      this._cx = this._compatHost.codeNow().instantiateSync(m, this._M, shared);
    }
    return this._compatHost.codeNow();
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

export class Sampler extends SamplerCore {
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
    const shared = this._shared(), m = await this._compatHost.module(load, shared);
    const M = this._M;
    if (M === null) return;  // disposed meanwhile
    const cx = await this._compatHost.codeNow().instantiate(m, M, shared);
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
