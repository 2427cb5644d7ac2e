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
// What the API owns: it validates every argument once, at the edge, throwing TypeError for
// a wrong kind of argument and RangeError for a bad shape or value, each message naming the
// input or attribute (validate.js, tensors.js). It resolves opset differences (attribute
// names, defaults, which inputs exist) into the core's normalised parameters (opsets.js),
// writes them into the parameter block, copies tensors in and out of wasm memory and frees
// all it allocated, whatever happens (sampler.js). The core re-checks what it relies on and
// reports errors as values, so the sampler stays usable after any error. image.js adds the
// image helpers to the Sampler class.

import { describe, checkInt, wasmBytesOption, wasmUrlOption, checkOptions } from './validate.js';
import { TYPES } from './tensors.js';
import { Sampler } from './sampler.js';

// Default limit on what one call may allocate in wasm memory: 2 GiB, what a wasm32 heap
// can give in practice (its addresses stop at 4 GiB and inputs need room too).
const DEFAULT_MAX_BYTES = 2 ** 31;

const CREATE_OPTIONS = ['wasmUrl', 'wasmBinary', 'maxBytes', 'threads', 'loadCompat', 'worker', 'transfer'];

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
    const sampler = new Sampler(M, maxBytes, compatHost);
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

  return { createSampler, TENSOR_TYPES: Object.freeze(Object.keys(TYPES)) };
}
