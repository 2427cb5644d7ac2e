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
// instance (its own memory, which dispose() lets go). Node reads and compiles it at once on
// first use, so a Node program needs no loadCompat().

/* eslint-disable no-unused-vars */
let oswCompatCompiled = null;  // promise of the module beside the entry, while loading or loaded
let oswCompatKept = null;      // that module, once compiled

// options: { wasmUrl, wasmBinary } (checked by api.js), or {} for the file beside the entry.
function oswCompatModule(options) {
  return Promise.resolve(oswCompatCodeNow() || oswCompatCodeLoad()).then((code) => {
    if (options.wasmBinary !== undefined || options.wasmUrl !== undefined) return code.find(options);
    if (oswCompatKept !== null) return oswCompatKept;
    if (oswCompatCompiled === null) {
      const p = Promise.resolve().then(() => code.find(options));
      oswCompatCompiled = p;
      p.then((m) => { oswCompatKept = m; }, () => { if (oswCompatCompiled === p) oswCompatCompiled = null; });
    }
    return oswCompatCompiled;
  });
}

// The module at once, where it is kept or the host can read it at once (Node), else null.
function oswCompatModuleSync() {
  const code = oswCompatCodeNow();
  if (oswCompatKept === null && code !== null && code.findSync) oswCompatKept = code.findSync();
  return oswCompatKept;
}
