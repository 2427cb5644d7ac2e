// worker-api.mjs: the worker API (createSampler({ worker: true })) against the synchronous
// one, in Node and in Chromium (a page without cross-origin isolation, as most pages are):
//   - time per call, sync vs worker (copying inputs, and with transfer: true), for the
//     per-call overhead case (Resize nearest f32 1x1x4x4 -> 8x8) and W7a (Resize linear,
//     uint8 RGBA NHWC [1,1080,1920,4] -> [1,2160,3840,4]);
//   - the longest time the calling thread was blocked during a W7a call in the worker: the
//     method call itself (until it returns its Promise: the arguments are copied or
//     transferred then) and the longest gap of a probe that yields to the event loop all the
//     time (Node: setImmediate; Chromium: a MessageChannel ping), over the whole call.
// Medians of --runs N calls (default 9) after 2 warm-ups. Timings are noisy on a shared
// machine; nothing is asserted.
//
//   node bench/worker-api.mjs [--runs N] [--node-only]
//   OSW_DIST=<dir with index.mjs and browser.mjs> node bench/worker-api.mjs
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.OSW_DIST ? process.env.OSW_DIST : join(root, 'dist');
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i < 0 ? dflt : Number(process.argv[i + 1]); };
const RUNS = arg('--runs', 9);

// The measurement, as one function that runs in Node and (as source) in a page.
async function measure({ createSampler, runs, yieldLoop }) {
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };
  const now = () => performance.now();
  const makeRGBA = (n) => { const a = new Uint8Array(n); let s = 1; for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; a[i] = (i & 3) === 3 ? 255 : s >>> 24; } return a; };
  const tiny = () => ({ type: 'float32', dims: [1, 1, 4, 4], data: new Float32Array(16).map((_, i) => i) });
  const tinyOpts = { sizes: [1, 1, 8, 8], mode: 'nearest' };
  const w7 = makeRGBA(1080 * 1920 * 4);
  const w7x = (copy) => ({ type: 'uint8', dims: [1, 1080, 1920, 4], data: copy ? w7.slice() : w7 });
  const w7Opts = { sizes: [2160, 3840], axes: [1, 2], mode: 'linear' };
  const sync = await createSampler();
  const ws = await createSampler({ worker: true });
  const wt = await createSampler({ worker: true, transfer: true });
  const out = { threads: ws.threads };

  async function timeOf(fn, n) {
    for (let i = 0; i < 2; i++) await fn();
    const t = [];
    for (let i = 0; i < n; i++) { const t0 = now(); await fn(); t.push(now() - t0); }
    return median(t);
  }
  // the overhead case: many calls, time per call
  const x = tiny();
  const perCall = async (fn, n) => { const t0 = now(); for (let i = 0; i < n; i++) await fn(); return ((now() - t0) / n) * 1000; };
  await perCall(() => sync.resize(x, tinyOpts), 200);
  const tinySync = [], tinyWorker = [];
  for (let r = 0; r < 5; r++) {
    tinySync.push(await perCall(() => sync.resize(x, tinyOpts), 2000));
    tinyWorker.push(await perCall(() => ws.resize(x, tinyOpts), 300));
  }
  out.tinySyncUs = median(tinySync);
  out.tinyWorkerUs = median(tinyWorker);
  // W7a: sync, worker (copy), worker (transfer: a fresh copy of the input each call, made
  // outside the timing... included here as the caller would need it only to keep its input)
  out.w7SyncMs = await timeOf(() => sync.resize(w7x(false), w7Opts), runs);
  out.w7WorkerMs = await timeOf(() => ws.resize(w7x(false), w7Opts), runs);
  const inputs = Array.from({ length: runs + 2 }, () => w7x(true));
  let k = 0;
  out.w7TransferMs = await timeOf(() => wt.resize(inputs[k++], w7Opts), runs);

  // blocked time during a W7a worker call
  async function blocked(s, copy) {
    const calls = [], gaps = [];
    for (let r = 0; r < runs; r++) {
      const input = w7x(copy);
      let last = now(), maxGap = 0, done = false;
      const probe = yieldLoop(() => { const t = now(); if (t - last > maxGap) maxGap = t - last; last = t; return !done; });
      const t0 = now();
      const p = s.resize(input, w7Opts);
      calls.push(now() - t0);
      await p;
      done = true;
      await probe;
      gaps.push(maxGap);
    }
    return { callMs: median(calls), callMinMs: Math.min(...calls), callMaxMs: Math.max(...calls), gapMs: median(gaps), gapMinMs: Math.min(...gaps), gapMaxMs: Math.max(...gaps) };
  }
  // the probe alone (no call) for as long as a call: what the machine itself costs it
  const idle = [];
  for (let r = 0; r < runs; r++) {
    let last = now(), maxGap = 0;
    const t0 = now();
    await yieldLoop(() => { const t = now(); if (t - last > maxGap) maxGap = t - last; last = t; return t - t0 < out.w7WorkerMs; });
    idle.push(maxGap);
  }
  out.idleGapMs = median(idle);
  out.idleGapMaxMs = Math.max(...idle);
  out.blockedCopy = await blocked(ws, false);
  out.blockedTransfer = await blocked(wt, true);
  ws.dispose(); wt.dispose(); sync.dispose();
  return out;
}

function report(where, r) {
  const f = (v) => v.toFixed(2);
  console.log(`\n${where} (worker sampler: ${r.threads} thread${r.threads === 1 ? '' : 's'})`);
  console.log(`  overhead case (Resize nearest f32 1x1x4x4 -> 8x8): sync ${f(r.tinySyncUs)} us/call, worker ${f(r.tinyWorkerUs)} us/call`);
  console.log(`  W7a (uint8 RGBA 1080x1920 -> 2160x3840 linear): sync ${f(r.w7SyncMs)} ms, worker ${f(r.w7WorkerMs)} ms (inputs copied), ${f(r.w7TransferMs)} ms (transfer: true)`);
  console.log(`  the probe alone, no call (the machine's own noise): longest gap ${f(r.idleGapMs)} ms (max ${f(r.idleGapMaxMs)})`);
  for (const [k, label] of [['blockedCopy', 'inputs copied'], ['blockedTransfer', 'transfer: true']]) {
    const b = r[k];
    console.log(`  calling thread blocked during a W7a worker call (${label}): the call itself ${f(b.callMs)} ms (min ${f(b.callMinMs)}, max ${f(b.callMaxMs)}), ` +
      `longest event-loop gap ${f(b.gapMs)} ms (min ${f(b.gapMinMs)}, max ${f(b.gapMaxMs)})`);
  }
}

// ------------------------------------------------------------------ Node
const mod = await import(pathToFileURL(join(dist, 'index.mjs')).href);
const nodeYield = (tick) => new Promise((resolve) => { const step = () => (tick() ? setImmediate(step) : resolve()); setImmediate(step); });
report(`Node ${process.versions.node}`, await measure({ createSampler: mod.createSampler, runs: RUNS, yieldLoop: nodeYield }));

// ------------------------------------------------------------------ Chromium
if (!process.argv.includes('--node-only')) {
  const { startStaticServer, launchBrowser, BLANK_PAGE } = await import('../tests/browser/helpers.mjs');
  const server = await startStaticServer([['/dist/', dist]]);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(server.url + BLANK_PAGE);
    const r = await page.evaluate(async ([src, url, runs]) => {
      const { createSampler } = await import(url);
      const channel = new MessageChannel();
      const pageYield = (tick) => new Promise((resolve) => {
        channel.port1.onmessage = () => (tick() ? channel.port2.postMessage(0) : resolve());
        channel.port2.postMessage(0);
      });
      const fn = (0, eval)(`(${src})`);
      return fn({ createSampler, runs, yieldLoop: pageYield });
    }, [measure.toString(), `${server.url}/dist/browser.mjs`, RUNS]);
    report(`Chromium ${browser.version()}, a page without cross-origin isolation`, r);
  } finally {
    await browser.close();
    await server.close();
  }
}
