// compat-loader.js: how every entry gets osw-compat.wasm, the module of the compat modes
// 'pillow' and 'opencv' (src/imaging, bindings/compat_abi.cpp), and their JavaScript
// (compat.js): api.js's host.compat.
//
// makeCompatHost(codeNow, codeLoad): codeNow() gives compat.js's object (oswCompatCode) when
// the entry has it at hand (every entry but browser.mjs, which has it once dist/compat.mjs
// was imported), else null; codeLoad() a promise of it. Only programs that use a compat
// mode fetch any of it: the default download does not grow.
//
// Like osw.wasm (loader.js): the compiled module of the entry is kept once it has succeeded
// (a failed load is not, so a later call can succeed); each sampler makes its own instance,
// in its own memory (which dispose() lets go). Two files: osw-compat.wasm, and
// osw-compat-mt.wasm for the shared memory of the threaded build (shared: 1), each loaded
// only when a sampler of its kind asks. Where the host can read files at once (Node, Deno,
// Bun) or has the module imported (workerd), a program needs no loadCompat().
export function makeCompatHost(codeNow, codeLoad) {
  const compiled = [null, null];  // per kind: promise of the module of the entry
  const kept = [null, null];      // per kind: that module, once compiled

  // options: { wasmUrl, wasmBinary } (checked by api.js), or {} for the entry's own file.
  function module(options, shared) {
    const k = shared ? 1 : 0;
    return Promise.resolve(codeNow() || codeLoad()).then((code) => {
      if (options.wasmBinary !== undefined || options.wasmUrl !== undefined) return code.find(options, shared);
      if (kept[k] !== null) return kept[k];
      if (compiled[k] === null) {
        const p = Promise.resolve().then(() => code.find(options, shared));
        compiled[k] = p;
        p.then((m) => { kept[k] = m; }, () => { if (compiled[k] === p) compiled[k] = null; });
      }
      return compiled[k];
    });
  }

  // The module at once, where it is kept or the host can have it at once, else null.
  function moduleSync(shared) {
    const k = shared ? 1 : 0, code = codeNow();
    if (kept[k] === null && code !== null && code.findSync) kept[k] = code.findSync(shared);
    return kept[k];
  }

  return { module, moduleSync, codeNow };
}
