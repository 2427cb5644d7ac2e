// entries/mt-browser.js -> dist/osw-mt.mjs: the threaded build's glue in browsers, imported
// by browser.mjs (and worker.mjs) only when threads are possible and asked for. Each worker of
// its pool is a module worker of this same file, named 'osw-pthread' (scripts/glue.mjs),
// which serves the pool (pool.js): no third file for a bundler to miss or inline.
import createOswMtModule from '#glue/osw-mt.mjs';
import { oswLoadThreaded } from '../loader-mt.js';
import { oswServePool } from '../pool.js';

// h: { threads, mainScript (this file's URL), find() (compiles osw-mt.wasm) }.
export function oswLoad(h) {
  return oswLoadThreaded({ ...h, factory: createOswMtModule, workerScript: h.mainScript });
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope && self.name === 'osw-pthread') {
  oswServePool({
    factory: createOswMtModule,
    post: (message) => self.postMessage(message),
    listen: (f) => self.addEventListener('message', (e) => f(e.data)),
    printErr: (text) => console.error(text),
  });
}
