// loader.js: how every entry turns osw.wasm into a module instance, and the errors of a
// failed load.
//
// makeLoadModule(host) gives the entry's loadModule(options) (api.js). host:
// - createModule: the Emscripten glue's factory (#glue/osw.mjs);
// - findWasm(options): a promise of the compiled WebAssembly.Module, from options.wasmBinary,
//   options.wasmUrl or the osw.wasm of the entry's host (beside it, or imported);
// - loadMt(threads): the threaded build's instance (loader-mt.js), where threadsPossible();
// - threadsPossible(): whether this host has shared memory and workers for it.
// Here:
// - the wasm is fetched (or read) once and compiled by us, never by the glue: one request,
//   one clear Error naming what was tried, why it failed and what fixes that cause, nothing
//   printed;
// - the compiled module is kept after the first success, so that loadModule() returns a
//   fresh instance (its own memory) on every call without fetching or compiling again (a
//   call naming another wasmUrl or wasmBinary loads that one); a failed load is not kept,
//   so a later call with good options works.
//
// Threads (createSampler({ threads })): where threadsPossible(), more than one thread is
// asked for and no wasmUrl or wasmBinary names osw.wasm, the host's loadMt(threads) loads the
// threaded build instead (osw-mt.wasm, compiled with -pthread).

export const OSW_WASM_FILE = 'osw.wasm';

// What fixes a failed load of one of the package's .wasm files, by cause: file (its name in
// dist/), missing (it was not where it was looked for: the bundler's hint) and how (the
// function whose { wasmUrl, wasmBinary } options name it).
export const OSW_FIX = {
  file: OSW_WASM_FILE,
  how: 'createSampler',
  missing: 'If a bundler did not copy it, copy node_modules/onnx-sampling-wasm/dist/osw.wasm ' +
    'next to your bundle, or say where it is with createSampler({ wasmUrl }), or pass its bytes ' +
    'with createSampler({ wasmBinary })',
};

// kind: the cause, which picks the fix: 'missing' (no such file, HTTP 404, not a wasm
// file), 'compile' (bytes that do not compile), 'forbidden' (the host compiles no wasm from
// bytes), 'csp' (a page's Content-Security-Policy forbids it), 'permission' (the runtime's
// permissions; reason names the flag), 'read' (another failed read of a file), 'request'
// (the request failed, or another HTTP status).
export function oswLoadError(where, reason, cause, fix = OSW_FIX, kind = 'missing') {
  const pass = `pass its bytes or a compiled WebAssembly.Module with ${fix.how}({ wasmBinary })`;
  const what = {
    missing: fix.missing,
    compile: `Give it the ${fix.file} of this version of onnx-sampling-wasm (node_modules/onnx-sampling-wasm/dist/${fix.file}), or ${pass}`,
    forbidden: 'This host does not compile WebAssembly from bytes (Cloudflare Workers, edge functions): ' +
      `import the file as a module, \`import wasm from 'onnx-sampling-wasm/${fix.file}'\`, and pass it with ` +
      `${fix.how}({ wasmBinary: wasm }) (the package's workerd and edge-light entries do that for you)`,
    csp: "The page's Content-Security-Policy forbids compiling WebAssembly: allow it with 'wasm-unsafe-eval' in script-src",
    permission: `Grant it, or ${pass}`,
    read: `Check the file and its permissions, or ${pass}`,
    request: `Check that the server is up and serves the file, or say where it is with ${fix.how}({ wasmUrl }), or ${pass}`,
  }[kind];
  const e = new Error(`onnx-sampling-wasm: could not load the WebAssembly module from ${where}: ${reason}. ${what}.`);
  if (cause !== undefined) e.cause = cause;
  return e;
}

// WebAssembly.compile's error, by cause: a host that never compiles from bytes (workerd:
// "Wasm code generation disallowed by embedder"), a page's CSP, or bytes that do not compile.
export function oswCompileError(where, e, fix = OSW_FIX) {
  const m = String(e && e.message);
  if (/Content.Security.Policy|\bCSP\b|unsafe-eval/i.test(m))
    return oswLoadError(where, `compiling it was refused (${m})`, e, fix, 'csp');
  if (/disallowed by embedder|code generation|not allowed/i.test(m))
    return oswLoadError(where, `compiling it was refused (${m})`, e, fix, 'forbidden');
  return oswLoadError(where, `it does not compile (${m})`, e, fix, 'compile');
}

// What the first bytes of a file that is not wasm look like, e.g. an HTML error page.
function oswDescribeStart(bytes) {
  if (bytes.length === 0) return 'the file is empty';
  let text = '';
  for (let i = 0; i < Math.min(bytes.length, 16); i++)
    text += bytes[i] >= 32 && bytes[i] < 127 ? String.fromCharCode(bytes[i]) : '.';
  return `it is not a WebAssembly file (it starts with ${JSON.stringify(text)})`;
}

// bytes: the .wasm bytes (an ArrayBuffer or a view), or a WebAssembly.Module compiled
// already, which is used as it is (hosts that compile no wasm from bytes import .wasm files
// as modules).
export async function oswCompileBytes(bytes, where, contentType, fix = OSW_FIX) {
  let b;
  if (bytes instanceof ArrayBuffer) b = new Uint8Array(bytes);
  else if (ArrayBuffer.isView(bytes)) b = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  else if (typeof WebAssembly === 'object' && bytes instanceof WebAssembly.Module) return bytes;
  else throw new TypeError(`createSampler: wasmBinary: expected an ArrayBuffer, a Uint8Array or a WebAssembly.Module, got ${bytes === null ? 'null' : typeof bytes}`);
  if (!(b.length >= 8 && b[0] === 0 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d))
    throw oswLoadError(where, oswDescribeStart(b) + (contentType ? `, served as ${contentType}` : ''), undefined, fix);
  try {
    return await WebAssembly.compile(b);
  } catch (e) {
    throw oswCompileError(where, e, fix);
  }
}

export async function oswFetchAndCompile(url, fix = OSW_FIX) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    const code = e && e.cause && e.cause.code ? `: ${e.cause.code}` : '';  // Node's fetch hides the reason there
    throw oswLoadError(url, `the request failed (${e && e.message}${code})`, e, fix, 'request');
  }
  if (!response.ok)
    throw oswLoadError(url, `HTTP ${response.status}${response.statusText ? ' ' + response.statusText : ''}`, undefined, fix,
      response.status === 404 || response.status === 410 ? 'missing' : 'request');
  const type = response.headers.get('content-type') || '';
  // Streaming compilation needs the wasm MIME type; anything else is read whole and checked.
  if (typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\s*(;|$)/i.test(type)) {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (e) {
      throw oswCompileError(url, e, fix);
    }
  }
  let body;
  try {
    body = await response.arrayBuffer();
  } catch (e) {
    throw oswLoadError(url, `reading the response failed (${e && e.message})`, e, fix, 'request');
  }
  return oswCompileBytes(body, url, type, fix);
}

// Shared memory exists in a page or worker that is cross-origin isolated (served with COOP
// same-origin and COEP require-corp), where SharedArrayBuffer is, and Worker.
export function oswBrowserThreadsPossible() {
  return typeof SharedArrayBuffer === 'function' && typeof Worker === 'function' && globalThis.crossOriginIsolated === true;
}

// The entry's loadModule(options): options.threads: the threads asked for (an integer >= 1,
// checked by api.js; undefined: the default, 1). Resolves to a module instance; M.oswStart
// (the threaded build) starts its threads.
export function makeLoadModule(host) {
  const { createModule, findWasm, loadMt, threadsPossible } = host;
  // Compiled modules, kept once they have succeeded: by the wasmBinary object (weakly, so
  // the bytes are not held), and by wasmUrl ('' for the osw.wasm of the entry). A failed
  // load is dropped, so a later call with good options works.
  const byBytes = new WeakMap();
  const byUrl = new Map();
  let latest = null;  // the latest module compiled, for calls that name no wasm

  function compiledFrom(cache, key, options) {
    let p = cache.get(key);
    if (!p) {
      p = Promise.resolve().then(() => findWasm(options));
      cache.set(key, p);
      p.then((m) => { latest = m; }, () => { if (cache.get(key) === p) cache.delete(key); });
    }
    return p;
  }

  return function loadModule(options) {
    const threads = options.threads || 1;
    // A call that names no wasm takes the module already compiled, whichever option gave it;
    // one that names its wasm gets that wasm (bad bytes are an error, not ignored).
    const bytes = options.wasmBinary;
    let compiled;
    if (bytes !== undefined)
      compiled = bytes !== null && typeof bytes === 'object' ? compiledFrom(byBytes, bytes, options)
        : Promise.resolve().then(() => findWasm(options));  // not bytes: findWasm says so
    else if (options.wasmUrl === undefined && threads > 1 && loadMt && threadsPossible())
      return loadMt(threads);  // the threaded build of the entry
    else if (options.wasmUrl !== undefined || !latest)
      compiled = compiledFrom(byUrl, options.wasmUrl !== undefined ? String(options.wasmUrl) : '', options);
    else
      compiled = Promise.resolve(latest);
    return compiled.then((wasmModule) => new Promise((resolve, reject) => {
      createModule({
        instantiateWasm(imports, receiveInstance) {
          WebAssembly.instantiate(wasmModule, imports).then((instance) => receiveInstance(instance, wasmModule), reject);
          return {};
        },
        locateFile: () => OSW_WASM_FILE,
        print() {},
        printErr() {},
      }).then(resolve, reject);
    }));
  };
}
