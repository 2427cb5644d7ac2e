// sampler-core.js: a sampler's state and its wasm memory, which every operator uses.
//
// SamplerCore holds the module instance (this._M, null once disposed), the parameter block
// and its slots, and the call's memory: small temporaries kept per sampler, views over the
// heap kept until memory grows, the copies of tensors in and out, and _io(), which wraps a
// kernel's call with them and frees what it allocated, whatever happens. The operators
// (resize.js, gridsample.js, affinegrid.js) take the sampler as their first argument and
// write the block through _begin(), then plan and _execute().

import { blockSpec, COMPATS, OP_RESIZE, OP_AFFINE_GRID } from './opsets.js';
import { DISPOSED, typedArrayName } from './tensors.js';
import { decodeNumbers } from './validate.js';

const SMALL_TEMP = 4096;  // bytes of each of the module's blocks for small temporaries

// The sampler's own state and helpers (the methods named with _). Its public methods are
// those of Sampler (api.js), which extends it: Sampler.prototype holds the API alone, so
// the names it finds there (publicNames) are the ones each sampler binds, whatever a
// minifier made of the private names (scripts/build.mjs shortens them in browser.mjs).
// compatHost: the entry's host.compat (compat-loader.js).
export class SamplerCore {
  constructor(M, maxBytes, compatHost, publicNames) {
    this._M = M;  // null once disposed
    this._maxBytes = maxBytes;
    this._blockPtr = M.paramBlock() >>> 0;
    // The module is this sampler's own: its allocation limit is set once.
    M._osw_set_allocation_limit(maxBytes);
    // Three blocks of SMALL_TEMP bytes for small temporaries (see _temp), made on first use.
    this._small = [0, 0, 0];
    this._blockBuf = this._blockView = this._heapBuf = this._heaps = null;
    this._cx = null;  // the exports of this sampler's osw-compat.wasm instance, once made
    this._compatHost = compatHost;
    // The methods are bound, so `const { resize } = sampler` works.
    for (const name of publicNames)
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

  // ------------------------------------------------------------ the parameter block

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
}
