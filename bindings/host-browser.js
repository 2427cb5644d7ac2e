// host-browser.js: how browsers and web workers find the package's files (dist/browser.mjs and
// dist/worker.mjs): each .wasm is fetched from beside the file that runs, named in its own
// static new URL('./file', import.meta.url), the form bundlers follow to ship it; or from
// options.wasmUrl, or taken from options.wasmBinary.
import { OSW_WASM_FILE, oswCompileBytes, oswFetchAndCompile, oswLoadError } from './loader.js';

export function oswBrowserFindWasm(options) {
  if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option');
  if (options.wasmUrl !== undefined) return oswFetchAndCompile(String(options.wasmUrl));
  let url;
  try {
    url = new URL('./osw.wasm', import.meta.url).href;
  } catch (e) {
    throw oswLoadError(OSW_WASM_FILE, 'this copy of onnx-sampling-wasm has no import.meta.url to find it by (bundled into a classic script?)', e);
  }
  return oswFetchAndCompile(url);
}

// The threaded build (fetched only when threads are possible and asked for): its wasm and its
// glue (dist/osw-mt.mjs, an ES module, imported here and run by every pool worker).
export function oswBrowserLoadMt(threads) {
  const mainScript = new URL('./osw-mt.mjs', import.meta.url).href;
  const wasm = new URL('./osw-mt.wasm', import.meta.url).href;
  return import(/* webpackIgnore: true */ /* @vite-ignore */ mainScript).then(
    (m) => m.oswLoad({ threads, mainScript, find: () => oswFetchAndCompile(wasm) }),
    (e) => { throw oswLoadError(mainScript, 'it did not import (threads)', e); });
}

// osw-compat.wasm, beside the file that runs (compat.mjs or worker.mjs), given the loader's
// functions (compat.mjs takes browser.mjs's, so that they are not downloaded twice).
export function oswBrowserCompatFind(fetchAndCompile, compileBytes, fix) {
  return (options, shared) => {
    if (options.wasmBinary !== undefined) return compileBytes(options.wasmBinary, 'the wasmBinary option', '', fix);
    if (options.wasmUrl !== undefined) return fetchAndCompile(String(options.wasmUrl), fix);
    const url = shared ? new URL('./osw-compat-mt.wasm', import.meta.url) : new URL('./osw-compat.wasm', import.meta.url);
    return fetchAndCompile(url.href, fix);
  };
}
