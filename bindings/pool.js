// pool.js: what a worker of the threaded build's pool runs (Node, Deno and Bun: a
// worker_threads Worker of dist/osw-mt-node.worker.js; browsers: a module worker of
// dist/osw-mt.mjs named 'osw-pthread').
//
// The threaded glue of emcc 3.1.6 (#glue/osw-mt*.mjs) drives its pool workers by messages:
// { cmd: 'load', wasmModule, wasmMemory } makes the worker's own instance of the module in
// the shared memory (the glue, told ENVIRONMENT_IS_PTHREAD, answers { cmd: 'loaded' }
// itself); { cmd: 'run', ... } runs a thread's entry point on it; 'cancel',
// 'processThreadQueue' and 'processProxyingQueue' act on the running thread. This is the
// package's own handler of those messages, in place of the worker script emcc writes, so
// that the worker assigns no globals of its host (Deno's worker `location` is read-only) and
// evaluates no code (the glue is imported, not read and run), and a load that fails is
// reported ({ cmd: 'oswFailed', text }, loader-mt.js) rather than left unanswered.
//
// oswServePool({ factory, post, listen, printErr }): factory is the glue's createOswMtModule;
// post(message) answers the main thread; listen(f) calls f(data) for each message from it;
// printErr(text) writes to the host's error stream.
export function oswServePool({ factory, post, listen, printErr }) {
  let Module = {
    // The module arrives compiled with the 'load' message; instantiated here, at once. (The
    // glue catches a failure here and still answers 'loaded': the report goes first.)
    instantiateWasm(imports, receiveInstance) {
      let instance;
      try {
        instance = new WebAssembly.Instance(Module.wasmModule, imports);
      } catch (e) {
        failed(e);
        throw e;
      }
      receiveInstance(instance);
      Module.wasmModule = null;
      return instance.exports;
    },
  };
  function failed(e) {
    post({ cmd: 'oswFailed', text: String(e && e.message !== undefined ? e.message : e) });
  }

  function run(d) {
    Module.__performance_now_clock_drift = performance.now() - d.time;
    Module.__emscripten_thread_init(d.threadInfoStruct, 0, 0, 1);
    Module.establishStackSpace();
    Module.PThread.receiveObjectTransfer(d);
    Module.PThread.threadInit();
    try {
      const result = Module.invokeEntryPoint(d.start_routine, d.arg);
      if (Module.keepRuntimeAlive()) Module.PThread.setExitStatus(result);
      else Module.__emscripten_thread_exit(result);
    } catch (ex) {
      if (ex === 'unwind') return;  // the thread's stack unwound on purpose (emscripten_exit_with_live_runtime)
      if (!(ex instanceof Module.ExitStatus)) throw ex;
      if (!Module.keepRuntimeAlive()) Module.__emscripten_thread_exit(ex.status);
    }
  }

  listen((d) => {
    try {
      switch (d.cmd) {
        case 'load':
          Module.wasmModule = d.wasmModule;
          Module.wasmMemory = d.wasmMemory;
          Module.buffer = d.wasmMemory.buffer;
          Module.ENVIRONMENT_IS_PTHREAD = true;
          {
            let ready;
            try {
              ready = factory(Module);
            } catch (e) {
              failed(e);
              return;
            }
            ready.then((instance) => { Module = instance; }, failed);
          }
          return;
        case 'run': run(d); return;
        case 'cancel': if (Module._pthread_self()) Module.__emscripten_thread_exit(-1); return;
        case 'processThreadQueue': if (Module._pthread_self()) Module._emscripten_current_thread_process_queued_calls(); return;
        case 'processProxyingQueue': if (Module._pthread_self()) Module._emscripten_proxy_execute_queue(d.queue); return;
        default:
          if (d.target === 'setimmediate') return;  // the glue's own setImmediate messages
          printErr(`onnx-sampling-wasm: a pool worker received an unknown command ${JSON.stringify(d.cmd)}`);
      }
    } catch (ex) {
      printErr(`onnx-sampling-wasm: a pool worker failed: ${ex && ex.stack ? ex.stack : ex}`);
      if (Module.__emscripten_thread_crashed) Module.__emscripten_thread_crashed();
      throw ex;
    }
  });
}
