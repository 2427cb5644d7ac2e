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
//
// This file assembles the public object: createSampler's options, the Sampler class (its
// public methods) and run()'s dispatch by operator. The rest is in api/, by concern:
// validate.js (argument checks, error texts), tensors.js (tensor types, checked tensors,
// WasmTensor), opsets.js (operator versions, the parameter block's layout), sampler-core.js
// (a sampler's state and wasm memory), and one file per operator: resize.js (Resize and
// Upsample), gridsample.js, affinegrid.js.

import { installImageHelpers } from './image.js';
import { affineGridOpts, runAffineGrid } from './api/affinegrid.js';
import { gridSampleOpts, runGridSample } from './api/gridsample.js';
import { COMPATS } from './api/opsets.js';
import { resizeOpts, runResize, runUpsample, upsampleOpts } from './api/resize.js';
import { SamplerCore } from './api/sampler-core.js';
import { TYPES, WasmTensor, checkTensor } from './api/tensors.js';
import {
  checkEnum, checkInt, checkList, checkNumber, checkOptions, describe, didYouMean, nameOf, wasmBytesOption, wasmUrlOption,
} from './api/validate.js';

// Default limit on what one call may allocate in wasm memory: 2 GiB, what a wasm32 heap
// can give in practice (its addresses stop at 4 GiB and inputs need room too).
const DEFAULT_MAX_BYTES = 2 ** 31;

const CREATE_OPTIONS = ['wasmUrl', 'wasmBinary', 'maxBytes', 'threads', 'loadCompat', 'worker', 'transfer'];

// run(node, inputs) and runInto: the node checked, then the operator's own reading of it.
function runNode(s, node, inputs, target) {
  s._live();
  if (node === null || typeof node !== 'object')
    throw new TypeError(`run: expected a node { opType, opset, attributes }, got ${describe(node)}`);
  const { opType, opset } = node;
  const compat = node.compat === undefined ? 0 : checkEnum(node.compat, 'compat', COMPATS);
  if (typeof opType !== 'string') throw new TypeError(`opType: expected a string, got ${describe(opType)}`);
  const os = checkInt(opset, 'opset');
  if (os < 1) throw new RangeError(`opset: must be a positive integer, got ${os}`);
  if (!Array.isArray(inputs)) throw new TypeError(`inputs: expected an array of tensors (null for an omitted input), got ${describe(inputs)}`);
  switch (opType) {
    case 'Resize': return [runResize(s, os, node.attributes, inputs, target, compat)];
    case 'Upsample': return [runUpsample(s, os, node.attributes, inputs, target, compat)];
    case 'GridSample': return [runGridSample(s, os, node.attributes, inputs, target, compat)];
    case 'AffineGrid': return [runAffineGrid(s, os, node.attributes, inputs, target)];
    default:
      throw new RangeError(`opType: unsupported operator '${opType}'; expected 'Resize', 'Upsample', 'GridSample' or 'AffineGrid'${didYouMean(opType, ['Resize', 'Upsample', 'GridSample', 'AffineGrid'])}`);
  }
}

export function makeApi(host) {
  const { loadModule, compat: compatHost } = host;

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

  class Sampler extends SamplerCore {
    constructor(M, maxBytes) {
      super(M, maxBytes, compatHost, publicMethods());
    }

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

    run(node, inputs) { return runNode(this, node, inputs, null); }

    // Like run, writing the output into outputs[0]; returns outputs.
    runInto(node, inputs, outputs) {
      this._live();
      if (!Array.isArray(outputs) || outputs.length !== 1)
        throw new TypeError(`outputs: expected an array of one output tensor, got ${describe(outputs)}`);
      runNode(this, node, inputs, checkTensor(outputs[0], 'outputs[0]'));
      return outputs;
    }

    // Resize with the latest opset's semantics and defaults; options in camelCase.
    resize(x, options) { return resizeOpts(this, x, options, null); }

    // Like resize, writing into `output` (a tensor of the right type and dims, e.g. from
    // sampler.tensor()); returns it.
    resizeInto(x, output, options) { this._live(); return resizeOpts(this, x, options, checkTensor(output, 'output')); }

    // Upsample-9 semantics: nearest (floor) or linear, asymmetric coordinates, scales >= 1.
    upsample(x, options) { return upsampleOpts(this, x, options, null); }

    upsampleInto(x, output, options) { this._live(); return upsampleOpts(this, x, options, checkTensor(output, 'output')); }

    // GridSample-22 semantics: mode 'linear' | 'nearest' | 'cubic', paddingMode 'zeros' |
    // 'border' | 'reflection', alignCorners boolean.
    gridSample(x, grid, options) { return gridSampleOpts(this, x, grid, options, null); }

    gridSampleInto(x, grid, output, options) { this._live(); return gridSampleOpts(this, x, grid, options, checkTensor(output, 'output')); }

    // AffineGrid-20 semantics: size is [N, C, H, W] or [N, C, D, H, W], as an array of
    // numbers or bigints or as an int64 tensor; alignCorners boolean (default false).
    affineGrid(theta, size, options) { return affineGridOpts(this, theta, size, options); }
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
