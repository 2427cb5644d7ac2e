// loader-mt.js: how the threaded build (osw-mt.wasm, compiled with -pthread) becomes a module
// instance with a pool of workers, for createSampler({ threads }) where shared memory exists.
//
// The Node entries call oswLoadThreaded with the Node threaded glue (glue-node.js); in
// browsers it is in dist/osw-mt.mjs (entries/mt-browser.js: the threaded glue, an ES module
// that browser.mjs imports only when threads are possible and asked for, and that every
// pool worker runs; the download of browser.mjs does not grow). The pool workers run
// pool.js.
//
// h: { threads (>= 2), find() (compiles the entry's osw-mt.wasm; done once), factory (the
// glue's createOswMtModule), mainScript (what each pool worker loads: the glue), workerScript
// (the pool workers' script), node (the workers are Node worker_threads) }.
//
// - The pool has exactly threads - 1 workers and is created and loaded while the module loads
//   (the glue reads Module.oswPoolSize as PTHREAD_POOL_SIZE), before its promise resolves: a
//   worker cannot start while a call blocks the thread that made it, so calls never wait for
//   one.
// - The memory is shared and any thread may grow it; the glue's HEAPU8 (which api/sampler-core.js reads)
//   then still views the old, shorter buffer, so HEAPU8 becomes a getter that views the memory
//   afresh when the heap's break (sbrk) passed the end of the view: a read of one shared word
//   per access (memory.buffer would cost a few tens of ns, several times a call). Every
//   address in use is below the break, so a view that reaches it covers them all.
// - Node: the pool's workers are unref'd once loaded, so they never keep a process alive.
// - M.oswStart(sampler) starts the threads in the core (setThreads) and returns how many it
//   uses; M.oswEnd(sampler) terminates the workers (dispose()), as does the garbage collector
//   for a sampler that was dropped without dispose().

import { oswPermissionHint } from './permissions.js';

export const OSW_MT_NOTE = '(This was the threaded build, for createSampler({ threads }): osw-mt.wasm and, in ' +
  'browsers, osw-mt.mjs go beside browser.mjs; or ask for threads: 1.)';

let oswMtCompiled = null;  // the compiled osw-mt.wasm beside the entry, once it succeeded

const oswPools = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((end) => end()) : null;

export function oswLoadThreaded(h) {
  let compiled = oswMtCompiled;
  if (!compiled) {
    compiled = oswMtCompiled = Promise.resolve().then(h.find);
    compiled.catch((e) => {
      if (oswMtCompiled === compiled) oswMtCompiled = null;
      if (e && typeof e.message === 'string') e.message += ' ' + OSW_MT_NOTE;
    });
  }
  return compiled.then((wasmModule) => new Promise((resolve, reject) => {
    // A pool worker that cannot start (its script missing or blocked, or its load failing
    // inside it) would leave the glue waiting for it forever, and in Node its 'error' event
    // would be an uncaught exception: it rejects the load instead (oswPoolWatch).
    // (fail may run more than once, e.g. for each worker: the promise settles once. The
    // watch stays on a dropped pool, so a later error of its workers is heard and ignored:
    // in Node an 'error' event without a listener would be an uncaught exception.)
    let workers = [];
    const fail = (e) => {
      for (const w of workers) w.terminate();
      reject(e);
    };
    const M = {
      oswPoolSize: Math.min(h.threads, 64) - 1,  // var pthreadPoolSize = Module.oswPoolSize (CMakeLists.txt); the core runs at most 64 (kMaxThreads)
      mainScriptUrlOrBlob: h.mainScript,     // what each pool worker loads
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(wasmModule, imports).then((instance) => receiveInstance(instance, wasmModule)).catch(fail);
        return {};
      },
      locateFile: (f) => (/\.worker\.js$/.test(f) ? h.workerScript : f),
      print() {},
      printErr() {},
    };
    let ready;
    try {
      ready = h.factory(M);  // creates the pool's workers (M.PThread), then loads them
    } catch (e) {
      fail(oswPoolError(h, e && e.message, e));  // e.g. a Worker refused at once
      return;
    }
    workers = M.PThread.unusedWorkers.slice();
    const unwatch = oswPoolWatch(M, workers, h, fail);
    ready.then((m) => { unwatch(); resolve(m); }, fail);
  })).then((M) => oswThreadedReady(M, h));
}

function oswPoolError(h, detail, cause) {
  if (detail) detail = String(detail).replace(/\.$/, '');  // WebKit's "The operation is insecure."
  const hint = oswPermissionHint(cause, 'worker');
  if (hint && !String(detail).includes(hint)) detail = `${detail || 'it could not start'} (${hint})`;
  const e = new Error(`onnx-sampling-wasm: a worker of the thread pool did not start (${h.workerScript}): ` +
    `${detail || 'its script did not load (not served beside the entry, or refused by a Content-Security-Policy worker-src?)'}. ${OSW_MT_NOTE}`);
  if (cause !== undefined) e.cause = cause;
  return e;
}

// Until the pool has loaded, a worker's error (Node: its 'error' event; browsers: the Worker's
// error event, e.g. its script not found or refused) or its report that its load failed
// ({ cmd: 'oswFailed' }, posted by the pool worker, pool.js) calls
// fail(Error). The glue's own handler of a worker's error (set once the wasm is instantiated)
// asks M.oswWorkerError first and throws only when there is none (scripts/glue.mjs edits
// it), so an error while loading is reported once, as the rejection. Returns the function
// that stops watching, called once the pool has loaded: later errors are the glue's again.
function oswPoolWatch(M, workers, h, fail) {
  let done = false;
  const onError = (e) => {
    if (e && typeof e.preventDefault === 'function') e.preventDefault();  // handled: the rejection says it
    if (done) return;
    done = true;
    fail(oswPoolError(h, e && e.message, e));
  };
  const onMessage = (m) => {
    const d = h.node ? m : m.data;
    if (d && d.cmd === 'oswFailed') onError({ message: `its load failed: ${d.text}` });
  };
  M.oswWorkerError = (e) => { onError(e); return true; };
  for (const w of workers) {
    if (h.node) { w.on('error', onError); w.on('message', onMessage); }
    else { w.addEventListener('error', onError); w.addEventListener('message', onMessage); }
  }
  return () => {
    delete M.oswWorkerError;
    for (const w of workers) {
      if (h.node) { w.off('error', onError); w.off('message', onMessage); }
      else { w.removeEventListener('error', onError); w.removeEventListener('message', onMessage); }
    }
  };
}

function oswThreadedReady(M, h) {
  const memory = M.wasmMemory;
  let u8 = M.HEAPU8;
  const brk = new Uint32Array(u8.buffer, M._emscripten_get_sbrk_ptr(), 1);  // the break, a low address
  Object.defineProperty(M, 'HEAPU8', {
    configurable: true,
    get() {
      if (brk[0] > u8.length) u8 = new Uint8Array(memory.buffer);
      return u8;
    },
    set(v) { u8 = v; },
  });
  const P = M.PThread;
  const workers = () => P.unusedWorkers.concat(P.runningWorkers);
  if (h.node) for (const w of workers()) w.unref();
  M.oswWorkers = workers;
  // Ends the pool: its workers, whether idle or running a thread of the core. Held by the
  // registry, so it must not refer to a sampler.
  const end = () => {
    for (const w of workers()) w.terminate();
    P.unusedWorkers = [];
    P.runningWorkers = [];
  };
  M.oswStart = (sampler) => {
    if (oswPools) oswPools.register(sampler, end, sampler);
    const pool = M.oswPoolSize;
    return pool > 0 && typeof M.setThreads === 'function' ? M.setThreads(pool + 1) : 1;
  };
  M.oswEnd = (sampler) => {
    if (oswPools) oswPools.unregister(sampler);
    end();
  };
  return M;
}
