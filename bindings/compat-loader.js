// compat-loader.js: how every entry of dist/ gets osw-compat.wasm, the module of the compat
// modes 'pillow' and 'opencv' (src/compat, bindings/compat_abi.cpp), and their JavaScript
// (bindings/compat.js).
//
// scripts/build.mjs puts this file into every entry after loader.js. Each entry defines
// oswCompatCodeNow(): compat.js's object when the entry has it at hand (Node, the browser
// worker: inline; browser.mjs: once dist/compat.mjs was imported), else null; and
// oswCompatCodeLoad(): a promise of it (browser.mjs imports dist/compat.mjs). Only programs
// that use a compat mode fetch any of it: the default download does not grow.
//
// Like osw.wasm (loader.js): the compiled module beside the entry is kept once it has
// succeeded (a failed load is not, so a later call can succeed); each sampler makes its own
// instance, in its own memory (which dispose() lets go). Two files: osw-compat.wasm, and
// osw-compat-mt.wasm for the shared memory of the threaded build (shared: 1), each loaded
// only when a sampler of its kind asks. Node reads and compiles it at once on first use, so a
// Node program needs no loadCompat().

/* eslint-disable no-unused-vars */
const oswCompatCompiled = [null, null];  // per kind: promise of the module beside the entry
const oswCompatKept = [null, null];      // per kind: that module, once compiled

// options: { wasmUrl, wasmBinary } (checked by api.js), or {} for the file beside the entry.
function oswCompatModule(options, shared) {
  const k = shared ? 1 : 0;
  return Promise.resolve(oswCompatCodeNow() || oswCompatCodeLoad()).then((code) => {
    if (options.wasmBinary !== undefined || options.wasmUrl !== undefined) return code.find(options, shared);
    if (oswCompatKept[k] !== null) return oswCompatKept[k];
    if (oswCompatCompiled[k] === null) {
      const p = Promise.resolve().then(() => code.find(options, shared));
      oswCompatCompiled[k] = p;
      p.then((m) => { oswCompatKept[k] = m; }, () => { if (oswCompatCompiled[k] === p) oswCompatCompiled[k] = null; });
    }
    return oswCompatCompiled[k];
  });
}

// The module at once, where it is kept or the host can read it at once (Node), else null.
function oswCompatModuleSync(shared) {
  const k = shared ? 1 : 0, code = oswCompatCodeNow();
  if (oswCompatKept[k] === null && code !== null && code.findSync) oswCompatKept[k] = code.findSync(shared);
  return oswCompatKept[k];
}
