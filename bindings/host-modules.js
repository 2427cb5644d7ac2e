// host-modules.js: the host of the entries for runtimes that compile no WebAssembly from
// bytes and import .wasm files as compiled modules instead (Cloudflare Workers / workerd,
// Vercel Edge and other edge functions): entries/workerd.js. They run the
// synchronous sampler on one thread (no shared memory, no Worker), compat modes included.
import createOswModule from '#glue/osw.mjs';
import { OSW_COMPAT_WASM, oswCompatCode } from './compat.js';
import { makeCompatHost } from './compat-loader.js';
import { makeLoadModule, oswCompileBytes, oswFetchAndCompile } from './loader.js';

// wasm, compatWasm: osw.wasm and osw-compat.wasm as the runtime imported them (each a
// WebAssembly.Module); what options name instead goes through the loader, whose errors say
// to pass such a module where the host refuses to compile.
export function modulesHost({ wasm, compatWasm, noWorker }) {
  function findWasm(options) {
    if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option');
    if (options.wasmUrl !== undefined) return oswFetchAndCompile(String(options.wasmUrl));
    return wasm;
  }
  function compatFind(options) {
    if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option', '', OSW_COMPAT_WASM);
    if (options.wasmUrl !== undefined) return oswFetchAndCompile(String(options.wasmUrl), OSW_COMPAT_WASM);
    return Promise.resolve(compatWasm);
  }
  const compatCode = oswCompatCode(compatFind, () => compatWasm);
  return {
    loadModule: makeLoadModule({ createModule: createOswModule, findWasm, loadMt: null, threadsPossible: () => false }),
    compat: makeCompatHost(() => compatCode, () => Promise.resolve(compatCode)),
    noWorker,
  };
}
