// entries/worker-browser.js -> dist/worker.mjs: the worker of createSampler({ worker: true })
// in browsers (worker-main.js), with the whole API inside; its files (osw.wasm, the compat
// and threaded builds) are fetched from beside it.
import createOswModule from '#glue/osw.mjs';
import { makeApi } from '../api.js';
import { OSW_COMPAT_WASM, oswCompatCode } from '../compat.js';
import { makeCompatHost } from '../compat-loader.js';
import { oswBrowserCompatFind, oswBrowserFindWasm, oswBrowserLoadMt } from '../host-browser.js';
import { makeLoadModule, oswBrowserThreadsPossible, oswCompileBytes, oswFetchAndCompile } from '../loader.js';
import { oswServeWorker } from '../worker-main.js';

const compatCode = oswCompatCode(oswBrowserCompatFind(oswFetchAndCompile, oswCompileBytes, OSW_COMPAT_WASM), null);
const { createSampler } = makeApi({
  loadModule: makeLoadModule({ createModule: createOswModule, findWasm: oswBrowserFindWasm, loadMt: oswBrowserLoadMt, threadsPossible: oswBrowserThreadsPossible }),
  compat: makeCompatHost(() => compatCode, () => Promise.resolve(compatCode)),
  noWorker: 'this is the worker',
});
oswServeWorker(createSampler, {
  post: (m, t) => self.postMessage(m, t),
  listen: (f) => self.addEventListener('message', (e) => f(e.data)),
}, self.navigator && self.navigator.hardwareConcurrency);
