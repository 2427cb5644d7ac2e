// entries/browser.js -> dist/browser.mjs: the package in browsers and web workers, the file
// a page downloads (minified). What only some programs use is fetched when first asked for:
// the compat modes' code (dist/compat.mjs), the worker API's client (dist/worker-client.mjs)
// and the threaded build (dist/osw-mt.mjs).
import createOswModule from '#glue/osw.mjs';
import { makeApi } from '../api.js';
import { makeCompatHost } from '../compat-loader.js';
import { oswBrowserFindWasm, oswBrowserLoadMt } from '../host-browser.js';
import { makeLoadModule, oswBrowserThreadsPossible, oswCompileBytes, oswFetchAndCompile } from '../loader.js';

let compatCode = null;  // dist/compat.mjs's object, once imported by the first loadCompat()
const api = makeApi({
  loadModule: makeLoadModule({ createModule: createOswModule, findWasm: oswBrowserFindWasm, loadMt: oswBrowserLoadMt, threadsPossible: oswBrowserThreadsPossible }),
  compat: makeCompatHost(() => compatCode,
    () => import('./compat.mjs').then((m) => (compatCode = m.oswCompatMake(oswFetchAndCompile, oswCompileBytes)))),
  createWorkerSampler: typeof Worker === 'function' ? (o, cs) => import('./worker-client.mjs').then((m) => m.createWorkerSampler(o, cs)) : undefined,
  noWorker: 'this host has none',
});
export const createSampler = api.createSampler;
export const TENSOR_TYPES = api.TENSOR_TYPES;
export default { createSampler, TENSOR_TYPES };
