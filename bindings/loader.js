// loader.js: how every entry of dist/ turns osw.wasm into a module instance.
//
// scripts/build.mjs puts this file into dist/index.cjs, dist/index.mjs and dist/browser.mjs,
// after the Emscripten glue (which defines createOswModule) and before api.js. Each entry
// adds `findWasm(options)`: a promise of the compiled WebAssembly.Module, from
// options.wasmBinary, options.wasmUrl or the osw.wasm beside the entry. Here:
//
// - the wasm is fetched (or read) once and compiled by us, never by the glue: one request,
//   one clear Error naming what was tried, why it failed and how to fix it, nothing printed;
// - the compiled module is kept after the first success, so that loadModule() returns a
//   fresh instance (its own memory) on every call without fetching or compiling again (a
//   call naming another wasmUrl or wasmBinary loads that one); a failed load is not kept,
//   so a later call with good options works.
//
// Threads (createSampler({ threads })): where shared memory exists (oswThreadsPossible), more
// than one thread is asked for, and no wasmUrl or wasmBinary names osw.wasm, the entry's
// oswLoadMt(threads) loads the threaded build instead (osw-mt.wasm, compiled with -pthread;
// bindings/loader-mt.js; separate files of dist/, in browsers fetched only then).

/* eslint-disable no-unused-vars */
const OSW_WASM_FILE = 'osw.wasm';
const OSW_FIX = 'If a bundler did not copy it, copy node_modules/onnx-sampling-wasm/dist/osw.wasm ' +
  'next to your bundle, or say where it is with createSampler({ wasmUrl }), or pass its bytes ' +
  'with createSampler({ wasmBinary })';

// fix: what to do about it (osw.wasm's by default; osw-compat.wasm has its own).
function oswLoadError(where, reason, cause, fix = OSW_FIX) {
  const e = new Error(`onnx-sampling-wasm: could not load the WebAssembly module from ${where}: ${reason}. ${fix}.`);
  if (cause !== undefined) e.cause = cause;
  return e;
}

// What the first bytes of a file that is not wasm look like, e.g. an HTML error page.
function oswDescribeStart(bytes) {
  if (bytes.length === 0) return 'the file is empty';
  let text = '';
  for (let i = 0; i < Math.min(bytes.length, 16); i++)
    text += bytes[i] >= 32 && bytes[i] < 127 ? String.fromCharCode(bytes[i]) : '.';
  return `it is not a WebAssembly file (it starts with ${JSON.stringify(text)})`;
}

async function oswCompileBytes(bytes, where, contentType, fix) {
  let b;
  if (bytes instanceof ArrayBuffer) b = new Uint8Array(bytes);
  else if (ArrayBuffer.isView(bytes)) b = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  else throw new TypeError(`createSampler: wasmBinary: expected an ArrayBuffer or a Uint8Array, got ${bytes === null ? 'null' : typeof bytes}`);
  if (!(b.length >= 8 && b[0] === 0 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d))
    throw oswLoadError(where, oswDescribeStart(b) + (contentType ? `, served as ${contentType}` : ''), undefined, fix);
  try {
    return await WebAssembly.compile(b);
  } catch (e) {
    throw oswLoadError(where, `it does not compile (${e && e.message})`, e, fix);
  }
}

async function oswFetchAndCompile(url, fix) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    const code = e && e.cause && e.cause.code ? `: ${e.cause.code}` : '';  // Node's fetch hides the reason there
    throw oswLoadError(url, `the request failed (${e && e.message}${code})`, e, fix);
  }
  if (!response.ok)
    throw oswLoadError(url, `HTTP ${response.status}${response.statusText ? ' ' + response.statusText : ''}`, undefined, fix);
  const type = response.headers.get('content-type') || '';
  // Streaming compilation needs the wasm MIME type; anything else is read whole and checked.
  if (typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\s*(;|$)/i.test(type)) {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (e) {
      throw oswLoadError(url, `it does not compile (${e && e.message})`, e, fix);
    }
  }
  let body;
  try {
    body = await response.arrayBuffer();
  } catch (e) {
    throw oswLoadError(url, `reading the response failed (${e && e.message})`, e, fix);
  }
  return oswCompileBytes(body, url, type, fix);
}

// Compiled modules, kept once they have succeeded: by the wasmBinary object (weakly, so
// the bytes are not held), and by wasmUrl ('' for the osw.wasm beside the entry). A failed
// load is dropped, so a later call with good options works.
const oswByBytes = new WeakMap();
const oswByUrl = new Map();
let oswLatest = null;  // the latest module compiled, for calls that name no wasm

function oswCompiledFrom(cache, key, options) {
  let p = cache.get(key);
  if (!p) {
    p = Promise.resolve().then(() => findWasm(options));
    cache.set(key, p);
    p.then((m) => { oswLatest = m; }, () => { if (cache.get(key) === p) cache.delete(key); });
  }
  return p;
}

// Shared memory exists: Node (worker_threads), or a page or worker that is cross-origin
// isolated (served with COOP same-origin and COEP require-corp), where SharedArrayBuffer is.
function oswThreadsPossible() {
  return typeof SharedArrayBuffer === 'function' && (OSW_NODE || globalThis.crossOriginIsolated === true);
}

// options.threads: the threads asked for (an integer >= 1, checked by api.js; undefined: the
// default, 1). Resolves to a module instance; M.oswStart (the threaded build) starts its threads.
function loadModule(options) {
  const threads = options.threads || 1;
  // A call that names no wasm takes the module already compiled, whichever option gave it;
  // one that names its wasm gets that wasm (bad bytes are an error, not ignored).
  const bytes = options.wasmBinary;
  let compiled;
  if (bytes !== undefined)
    compiled = bytes !== null && typeof bytes === 'object' ? oswCompiledFrom(oswByBytes, bytes, options)
      : Promise.resolve().then(() => findWasm(options));  // not bytes: findWasm says so
  else if (options.wasmUrl === undefined && threads > 1 && oswThreadsPossible())
    return oswLoadMt(threads);  // the threaded build beside the entry
  else if (options.wasmUrl !== undefined || !oswLatest)
    compiled = oswCompiledFrom(oswByUrl, options.wasmUrl !== undefined ? String(options.wasmUrl) : '', options);
  else
    compiled = Promise.resolve(oswLatest);
  return compiled.then((wasmModule) => new Promise((resolve, reject) => {
    createOswModule({
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(wasmModule, imports).then((instance) => receiveInstance(instance, wasmModule), reject);
        return {};
      },
      locateFile: () => OSW_WASM_FILE,
      print() {},
      printErr() {},
    }).then(resolve, reject);
  }));
}
