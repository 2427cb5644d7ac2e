// worker-main.js: what runs inside the worker of createSampler({ worker: true }) (see
// worker-client.js): one synchronous sampler, made by the first message, and every later
// message one call on it, answered in order with the result (its arrays transferred) or the
// error's class name and message.
//
// The worker entries (entries/worker-browser.js: dist/worker.mjs; entries/worker-node.js:
// dist/worker-node.mjs and .cjs), each with the whole API inside, call oswServeWorker(createSampler, port, cores) with port = { post, listen } and
// cores = the host's logical cores (os.availableParallelism(), navigator.hardwareConcurrency).

export function oswServeWorker(createSampler, port, cores) {
  'use strict';
  // The worker sampler's default threads: every core, at most DEFAULT_THREADS_CAP. A worker
  // never blocks the caller, so a pool costs only its start-up (in this worker, before
  // createSampler resolves); where shared memory is missing the sampler gets one thread.
  const DEFAULT_THREADS_CAP = 8;
  const BEAT_MS = 1000;  // the beat worker-client.js's start watchdog waits for (STALL_MS)
  const defaultThreads = Math.max(1, Math.min(DEFAULT_THREADS_CAP, Number.isInteger(cores) ? cores : 1));
  const MARK = '__oswWorkerValue__';
  // Not sent to the caller: the zero-copy tier lives in this worker's memory.
  const LOCAL = ['dispose', 'tensor'];
  let sampler = null;
  let queue = null;  // the promise the next call waits for, or null when none waits

  // The markers of worker-client.js's pack(), back into values of the same kind.
  function unpack(v, seen) {
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
    if (seen.has(v)) return seen.get(v);
    if (Object.prototype.hasOwnProperty.call(v, MARK)) {
      if (v[MARK] === 'function') return function () {};
      if (v[MARK] === 'symbol') return Symbol(v.d);
    }
    seen.set(v, v);
    if (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)
      for (const k of Object.keys(v)) v[k] = unpack(v[k], seen);
    return v;
  }

  // The result, ready to post: ImageData as its fields (rebuilt by the caller), and the
  // buffers of its arrays listed for transfer (each a fresh array of this call).
  function result(v, list) {
    if (v === null || typeof v !== 'object') return v;
    if (ArrayBuffer.isView(v)) {
      const b = v.buffer;
      if (b instanceof ArrayBuffer && b.byteLength > 0 && !list.includes(b)) list.push(b);
      return v;
    }
    if (typeof ImageData === 'function' && v instanceof ImageData)
      return { [MARK]: 'image', width: v.width, height: v.height, data: result(v.data, list), colorSpace: v.colorSpace || 'srgb' };
    if (Array.isArray(v)) return v.map((e) => result(e, list));
    const out = {};
    for (const k of Object.keys(v)) out[k] = result(v[k], list);
    return out;
  }

  function errorOf(e) {
    const name = e instanceof TypeError ? 'TypeError' : e instanceof RangeError ? 'RangeError' : 'Error';
    return { name, message: e && e.message !== undefined ? String(e.message) : String(e) };
  }

  port.listen((msg) => {
    const id = msg.id;
    if (msg.op === 'create') {
      // Beats while the sampler is made (worker-client.js: a thread stuck in starting its
      // pool is ended and started again).
      port.post({ beat: true }, []);
      const beat = setInterval(() => port.post({ beat: true }, []), BEAT_MS);
      Promise.resolve().then(() => {
        const options = unpack(msg.options, new Map());
        if (options !== null && typeof options === 'object' && options.threads === undefined && !Object.prototype.hasOwnProperty.call(options, 'threads'))
          options.threads = defaultThreads;
        return createSampler(options);
      }).then((s) => {
        clearInterval(beat);
        sampler = s;
        const methods = [];
        for (const k of Object.getOwnPropertyNames(s)) if (typeof s[k] === 'function' && !LOCAL.includes(k)) methods.push(k);
        port.post({ id, ok: true, value: { methods, threads: typeof s.threads === 'number' ? s.threads : 1 } }, []);
      }, (e) => {
        clearInterval(beat);
        const err = errorOf(e);
        // A wasmUrl resolved against the page is named as the caller gave it.
        if (msg.urlAsGiven !== undefined) err.message = err.message.split(msg.options.wasmUrl).join(msg.urlAsGiven);
        port.post({ id, ok: false, error: err }, []);
      });
      return;
    }
    // Calls are answered in order: while one waits (for osw-compat.wasm, or a method that
    // returns a promise: loadCompat), later ones queue behind it.
    const waiting = queue !== null ? queue.then(() => call(msg)) : call(msg);
    if (waiting !== undefined) {
      const q = waiting.then(() => { if (queue === q) queue = null; });
      queue = q;
    }
  });

  // One call: answered now (returns undefined), or a promise of its answer.
  function call(msg, retried) {
    const id = msg.id;
    // The caller's staging buffers (copies of its inputs) go back to it after the call.
    const staged = msg.staged || [];
    const fail = (e) => port.post({ id, ok: false, error: errorOf(e), staged }, staged);
    const answer = (value) => {
      const list = staged.slice();
      const out = result(value, list);
      port.post({ id, ok: true, value: out, staged }, list);
    };
    let value;
    try {
      value = sampler[msg.method](...unpack(msg.args, new Map()));
    } catch (e) {
      // A compat mode's first use: load its module here, then make the call again.
      if (e && e.oswNeedsCompat && !retried) return sampler.loadCompat().then(() => call(msg, true), fail);
      fail(e);
      return undefined;
    }
    if (value !== null && typeof value === 'object' && typeof value.then === 'function') return value.then(answer, fail);
    answer(value);
    return undefined;
  }
}
