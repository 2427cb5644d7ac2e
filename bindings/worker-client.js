// worker-client.js: the sampler of createSampler({ worker: true }), whose operator methods
// return Promises and run in a dedicated worker (a module Worker in browsers, a
// worker_threads Worker in Node) holding a normal synchronous sampler (worker-main.js).
//
// The Node entries import it; in browsers it is dist/worker-client.mjs
// (entries/worker-client-browser.js), which dist/browser.mjs imports only when worker: true
// is asked for (the default download does not grow). Each entry gives oswWorkerSampler() a
// `spawn()` that starts the worker and returns { post, listen, terminate, ref, unref }.
//
// The contract: the same TypeError / RangeError classes and messages as the synchronous
// sampler, as rejections (the worker runs the same checks; errors come back as name and
// message). Calls are answered in the order they were made (one message id per call; the
// worker runs them one after the other). Inputs are copied (structured clone; a view on part
// of a buffer sends only its own bytes); with createSampler({ worker: true, transfer: true })
// input arrays that span their whole ArrayBuffer are transferred instead (the caller's array
// is detached once the call is made). Outputs always come back transferred. *Into methods
// write the result into the caller's output array when the call resolves. In Node the
// worker keeps the process alive only while a call is in flight.

import { OSW_DRAWABLES } from './drawables.js';
import { oswPermissionHint } from './permissions.js';

export function oswWorkerSampler(options, createSyncSampler, spawn) {
  'use strict';

  const MARK = '__oswWorkerValue__';
  const DISPOSED = 'sampler: its sampler was disposed (sampler.dispose()); create a new one with createSampler()';
  const IN_FLIGHT = 'sampler: the sampler was disposed (sampler.dispose()) while this call was in flight; it has no result';
  // The argument that receives the result, per *Into method (runInto: outputs[0]).
  const INTO = { resizeInto: 1, upsampleInto: 1, gridSampleInto: 2, runInto: 2 };
  // Fields a tensor or an image is read by, taken also where they are getters or inherited
  // (an onnxruntime-web Tensor's data, ImageData's fields).
  const FIELDS = ['type', 'dims', 'data', 'width', 'height', 'colorSpace'];
  // Browser images the worker cannot receive: read here into ImageData, as the synchronous
  // sampler reads them (a scratch canvas), with its messages when one is not ready.
  // (bindings/drawables.js; ImageBitmap and VideoFrame are transferable, so sent as they are)
  const DRAWABLES = OSW_DRAWABLES.filter(([name]) => name !== 'ImageBitmap' && name !== 'VideoFrame');
  const IMAGE_METHODS = ['imageToTensor', 'resizeImage'];

  const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`);
  const tagGetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag).get;
  const typedName = (a) => tagGetter.call(a);  // undefined if not a TypedArray
  const isShared = (b) => typeof SharedArrayBuffer === 'function' && b instanceof SharedArrayBuffer;

  // ------------------------------------------------------------ options

  const o = options;
  if (typeof o.worker !== 'boolean')
    return Promise.reject(new TypeError(`createSampler: worker: expected true or false, got ${describe(o.worker)}`));
  if (o.transfer !== undefined && typeof o.transfer !== 'boolean')
    return Promise.reject(new TypeError(`createSampler: transfer: expected true or false, got ${describe(o.transfer)}`));
  const rest = {};
  for (const k of Object.keys(o)) if (k !== 'worker' && k !== 'transfer') rest[k] = o[k];
  if (!o.worker) {
    if (o.transfer !== undefined) return Promise.reject(new RangeError('createSampler: transfer applies only with worker: true'));
    return createSyncSampler(rest);
  }
  const transferInputs = o.transfer === true;

  // A relative wasmUrl means the same file as for the synchronous sampler: resolved against
  // the page (the worker would resolve it against its own script); messages name it as given.
  let urlAsGiven;
  const u = rest.wasmUrl;
  if (u !== null && typeof u === 'object' && typeof u.href === 'string') rest.wasmUrl = u.href;  // a URL, as the sync sampler reads it
  if (typeof rest.wasmUrl === 'string' && typeof document !== 'undefined' && document.baseURI) {
    try {
      const abs = new URL(rest.wasmUrl, document.baseURI).href;
      if (abs !== rest.wasmUrl) { urlAsGiven = rest.wasmUrl; rest.wasmUrl = abs; }
    } catch { /* not a URL: the worker reports it as the sync sampler would */ }
  }

  // ------------------------------------------------------------ values to the worker

  // The intrinsic TypedArray constructor of an array (Uint8Array for a Node Buffer).
  const ctorOf = (a) => globalThis[typedName(a)];

  // A copy of v the worker can receive: plain data, the same for the checks as v. Functions
  // and symbols become markers the worker turns back into one of the same kind (messages
  // describe them); a view sends only its own bytes; buffers to transfer go to `list`.
  function pack(v, ctx) {
    if (v === null || v === undefined) return v;
    const t = typeof v;
    if (t === 'function') return { [MARK]: 'function' };
    if (t === 'symbol') return { [MARK]: 'symbol', d: v.description };
    if (t !== 'object') return v;
    if (ctx.seen.has(v)) return ctx.seen.get(v);
    let out;
    if (ArrayBuffer.isView(v)) {
      out = packView(v, ctx);
    } else if (v instanceof ArrayBuffer || isShared(v)) {
      out = v;
    } else if (Array.isArray(v)) {
      out = new Array(v.length);
      ctx.seen.set(v, out);
      for (let i = 0; i < v.length; i++) out[i] = pack(v[i], ctx);
    } else if (isCloneableImage(v)) {
      out = v;
    } else {
      out = {};
      ctx.seen.set(v, out);
      for (const k of Object.keys(v)) out[k] = pack(v[k], ctx);
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null)
        for (const k of FIELDS) if (!(k in out) && k in v) out[k] = pack(v[k], ctx);
    }
    ctx.seen.set(v, out);
    return out;
  }

  function packView(v, ctx) {
    const buf = v.buffer;
    if (isShared(buf)) return v;  // shared, not copied: the worker reads the same memory
    const name = typedName(v);
    if (name === undefined) {  // a DataView
      return new DataView(buf.slice(v.byteOffset, v.byteOffset + v.byteLength));
    }
    const C = ctorOf(v);
    const whole = v.byteOffset === 0 && v.byteLength === buf.byteLength && buf.byteLength > 0;
    if (whole && ctx.transfer && v.constructor === C) {
      if (!ctx.list.includes(buf)) ctx.list.push(buf);
      return v;  // transferred: the caller's array is detached
    }
    if (whole && v.byteLength < STAGE_MIN && v.constructor === C) return v;  // small: cloned
    // Only the view's own elements (a detached one has none), copied here into a buffer sent
    // as is (large ones into a staging buffer the worker sends back, whose memory is already
    // mapped: a fresh one costs page faults, several ms for megabytes).
    const n = v.length;
    const copy = v.byteLength >= STAGE_MIN ? new C(stagingBuffer(v.byteLength, ctx), 0, n) : new C(n);
    if (n > 0) copy.set(v);
    if (copy.byteLength > 0 && !ctx.list.includes(copy.buffer)) ctx.list.push(copy.buffer);
    return copy;
  }

  // Staging buffers: the inputs' copies of the last call, returned by the worker (at most a
  // few; dropped with the sampler). One that fits a request (not more than twice its size)
  // is taken; else a new one is made.
  const STAGE_MIN = 1 << 18;
  let staging = [];
  function stagingBuffer(bytes, ctx) {
    const i = staging.findIndex((b) => b.byteLength >= bytes && b.byteLength <= 2 * bytes);
    const b = i >= 0 ? staging.splice(i, 1)[0] : new ArrayBuffer(bytes);
    ctx.staged.push(b);
    return b;
  }

  function isCloneableImage(v) {
    for (const n of ['ImageBitmap', 'VideoFrame', 'ImageData'])
      if (typeof globalThis[n] === 'function' && v instanceof globalThis[n]) return true;
    return false;
  }

  // An image argument the worker cannot receive (a DOM element, an OffscreenCanvas), read
  // into ImageData here; anything else as it is.
  function readImage(v) {
    if (v === null || typeof v !== 'object') return v;
    for (const [name, size, notReady] of DRAWABLES) {
      if (typeof globalThis[name] !== 'function' || !(v instanceof globalThis[name])) continue;
      const [w, h] = size(v);
      if (!(w > 0 && h > 0)) throw new RangeError(`image: ${notReady}`);
      const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(w, h) : Object.assign(document.createElement('canvas'), { width: w, height: h });
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(v, 0, 0, w, h);
      return ctx.getImageData(0, 0, w, h);
    }
    return v;
  }

  // The worker writes an *Into result into a fresh array of the output's kind and length
  // (the output's contents are not sent); the caller's output gets it on resolution.
  function outputStandIn(t, ctx) {
    if (t === null || typeof t !== 'object' || ArrayBuffer.isView(t)) return pack(t, ctx);
    const type = t.type, data = t.data, dims = t.dims;
    const name = typedName(data);
    if (name === undefined || typeof globalThis[name] !== 'function') return pack(t, ctx);
    return { type: pack(type, ctx), data: new globalThis[name](data.length), dims: pack(dims, ctx) };
  }

  // ------------------------------------------------------------ values from the worker

  const unpackResult = (v) => {
    if (v !== null && typeof v === 'object' && v[MARK] === 'image') {
      if (typeof ImageData === 'function') {
        try {
          return v.colorSpace && v.colorSpace !== 'srgb' ? new ImageData(v.data, v.width, v.height, { colorSpace: v.colorSpace }) : new ImageData(v.data, v.width, v.height);
        } catch { return new ImageData(v.data, v.width, v.height); }
      }
      return { width: v.width, height: v.height, data: v.data, colorSpace: v.colorSpace };
    }
    return v;
  };

  function errorFrom(e) {
    const E = e.name === 'TypeError' ? TypeError : e.name === 'RangeError' ? RangeError : Error;
    return new E(e.message);
  }

  function copyInto(target, result) {
    const d = target.data, r = result.data;
    new Uint8Array(d.buffer, d.byteOffset, d.byteLength).set(new Uint8Array(r.buffer, r.byteOffset, r.byteLength));
  }

  // ------------------------------------------------------------ the channel

  // Starting: while the worker creates its sampler it beats every BEAT_MS of worker-main.js.
  // Once it was heard, STALL_MS of silence mean its thread is stuck: a worker's
  // `new Worker()` of its thread pool can fail to return on a loaded machine (Firefox,
  // cross-origin isolated pages; the worker's timers stop too). That worker is ended and
  // a new one is started, at most START_ATTEMPTS times; the last one with threads: 1, which
  // starts no worker of its own, and without this watchdog (a worker whose timers are only
  // slowed, in a background tab, still starts). Before the first beat nothing is timed: the
  // worker's script may be slow to arrive, and a failed load is an 'error' event.
  const STALL_MS = 8000, START_ATTEMPTS = 3;
  let port = null;
  let onHeard = null;  // the watchdog of the start in progress
  const pending = new Map();  // id -> { resolve, reject }, in call order
  let nextId = 1;
  let dead = null;  // the Error every call gets once the worker is gone
  let disposed = false;

  function settle(id) {
    const p = pending.get(id);
    if (!p) return null;
    pending.delete(id);
    if (pending.size === 0) port.unref();
    return p;
  }
  function failAll(err) {
    for (const id of [...pending.keys()]) settle(id).reject(err);
  }
  // Starts a worker and makes it the channel; a message from an ended one is ignored.
  function connect() {
    const p = spawn();
    p.unref();
    port = p;
    p.listen({
      message(msg) {
        if (port !== p) return;
        if (onHeard) onHeard();
        if (msg.beat) return;
        if (msg.staged && msg.staged.length) staging = msg.staged.filter((b) => b.byteLength > 0).slice(0, 4);
        const q = settle(msg.id);
        if (!q) return;
        if (msg.ok) q.resolve(msg.value); else q.reject(errorFrom(msg.error));
      },
      error(err) {  // the worker failed to start or crashed
        if (port !== p) return;
        dead = err;
        failAll(err);
        p.terminate();
      },
    });
  }
  try {
    connect();
  } catch (e) {
    return Promise.reject(e);
  }

  function send(msg, transfer) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      msg.id = id;
      if (pending.size === 0) port.ref();
      pending.set(id, { resolve, reject });
      try {
        port.post(msg, transfer);
      } catch (e) {
        settle(id);
        reject(e);
      }
    });
  }

  function call(method, args) {
    if (disposed) return Promise.reject(new Error(DISPOSED));
    if (dead) return Promise.reject(dead);
    const ctx = { transfer: transferInputs, list: [], seen: new Map(), staged: [] };
    let sent, target = null;
    try {
      if (IMAGE_METHODS.includes(method) && args.length > 0) { args = args.slice(); args[0] = readImage(args[0]); }
      const into = INTO[method];
      sent = new Array(args.length);
      for (let i = 0; i < args.length; i++) {
        if (i !== into) { sent[i] = pack(args[i], ctx); continue; }
        const a = args[i];
        if (method === 'runInto') {
          if (Array.isArray(a) && a.length === 1) { target = a; sent[i] = [outputStandIn(a[0], ctx)]; } else sent[i] = pack(a, ctx);
        } else {
          target = a;
          sent[i] = outputStandIn(a, ctx);
        }
      }
    } catch (e) {
      return Promise.reject(e);  // a getter of the caller's object threw: as the sync sampler would
    }
    return send({ op: 'call', method, args: sent, staged: ctx.staged }, ctx.list).then((value) => {
      if (target === null) return unpackResult(value);
      // The result is in the stand-in: copied into the caller's output, which is returned
      // (outputs, the array, for runInto), as the synchronous sampler does.
      if (method === 'runInto') { copyInto(target[0], value[0]); return target; }
      copyInto(target, value);
      return target;
    });
  }

  // ------------------------------------------------------------ the sampler

  const createCtx = { transfer: false, list: [], seen: new Map(), staged: [] };
  let createMsg;
  try {
    createMsg = { op: 'create', options: pack(rest, createCtx), urlAsGiven };
  } catch (e) {
    port.terminate();
    return Promise.reject(e);
  }
  // The create message on the current worker, and the watchdog described above.
  function start(attempt) {
    const last = attempt + 1 === START_ATTEMPTS;
    if (last) createMsg.options = Object.assign({}, createMsg.options, { threads: 1 });
    const created = send(createMsg, []);
    if (last) return created;
    const id = createMsg.id;
    return new Promise((resolve, reject) => {
      let timer = null;
      const stop = () => { clearTimeout(timer); onHeard = null; };
      onHeard = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stop();
          // Stuck: forget its create call, end it, start another.
          settle(id);
          port.terminate();
          try {
            connect();
          } catch (e) {
            reject(e);
            return;
          }
          resolve(start(attempt + 1));
        }, STALL_MS);
        if (typeof timer === 'object' && timer && typeof timer.unref === 'function') timer.unref();
      };
      created.then((v) => { stop(); resolve(v); }, (e) => { stop(); reject(e); });
    });
  }

  return start(0).then((info) => {
    const sampler = {};
    for (const name of info.methods)
      Object.defineProperty(sampler, name, { value: (...args) => call(name, args), writable: true, configurable: true, enumerable: false });
    Object.defineProperty(sampler, 'threads', { value: info.threads, enumerable: true });
    Object.defineProperty(sampler, 'worker', { value: true, enumerable: true });
    Object.defineProperty(sampler, 'disposed', { get: () => disposed, enumerable: true });
    // Ends the worker: calls in flight reject (their results are lost), later calls reject
    // as the synchronous sampler's throw. Idempotent.
    Object.defineProperty(sampler, 'dispose', {
      value: () => {
        if (disposed) return;
        disposed = true;
        port.unref();
        port.terminate();
        failAll(new Error(IN_FLIGHT));
      },
      writable: true, configurable: true,
    });
    return sampler;
  }, (e) => {
    port.terminate();
    throw e;
  });
}

// The channel to a worker_threads Worker (Node), made by make(): a worker that cannot be made
// (Node's permission model without --allow-worker) or that fails (its script missing, an
// exception in it) is one Error naming the script, the original as its cause.
export function oswNodePort(make, file) {
  const failed = (e) => {
    const m = e && e.message !== undefined ? String(e.message) : String(e);
    const hint = oswPermissionHint(e, 'worker');
    const err = new Error(`onnx-sampling-wasm: the worker failed (${file}): ${m}${hint && !m.includes(hint) ? ` (${hint})` : ''}`);
    err.cause = e;
    return err;
  };
  let worker;
  try {
    worker = make();
  } catch (e) {
    throw failed(e);
  }
  return {
    post: (msg, transfer) => worker.postMessage(msg, transfer),
    listen(h) {
      worker.on('message', h.message);
      worker.on('error', (e) => h.error(failed(e)));
      worker.on('exit', (code) => h.error(new Error(`onnx-sampling-wasm: the worker exited (code ${code})`)));
    },
    terminate: () => { worker.terminate(); },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
  };
}

// The channel to a module Worker (browsers).
export function oswBrowserPort(worker) {
  return {
    post: (msg, transfer) => worker.postMessage(msg, transfer),
    listen(h) {
      worker.addEventListener('message', (e) => h.message(e.data));
      worker.addEventListener('messageerror', () => h.error(new Error('onnx-sampling-wasm: a message from the worker could not be read')));
      worker.addEventListener('error', (e) => {
        e.preventDefault();
        h.error(new Error(`onnx-sampling-wasm: the worker failed${e.message ? `: ${e.message}` : ' to start (could its script worker.mjs be loaded?)'}`));
      });
    },
    terminate: () => worker.terminate(),
    ref() {},
    unref() {},
  };
}
