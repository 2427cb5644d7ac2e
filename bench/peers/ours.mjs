// ours.mjs: onnx-sampling-wasm itself, loaded from the built package (dist/index.mjs, or
// the file named by OSW_DIST).
//
// Tiers:
//   array  - sampler.resize()/gridSample() on JS TypedArrays: copies X (and grid) into wasm
//            memory, runs, copies Y out into a new TypedArray, frees its temporaries.
//   memory - sampler.resizeInto()/gridSampleInto() on sampler.tensor() inputs and output:
//            no copies, the timing is argument checks + planning + the kernel.
// The per-call workload adds run() (ONNX node level, arrays) as a third variant.

import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './common.mjs';

export const id = 'ours';

// args.threads: the thread counts to time (run.mjs --threads; default 1 and every core).
// The main rows are one thread, as the peers run; every other count adds rows to the same
// workloads, with its own sampler (createSampler({ threads })), in the same rounds.
export async function create(args = {}) {
  const distFile = process.env.OSW_DIST || join(repoRoot, 'dist', 'index.mjs');
  if (!existsSync(distFile))
    throw new Error(`bench: ${distFile} does not exist; build the package first (npm run build), or set OSW_DIST`);
  const mod = await import(pathToFileURL(distFile).href);
  // A build from before the threads option (an A/B run against an older release) has one
  // thread only: it rejects the option, and gets no threaded rows.
  let threaded = true;
  let sampler;
  try {
    sampler = await mod.createSampler({ threads: 1 });
  } catch (e) {
    if (!(e instanceof RangeError) || !/threads/.test(e.message)) throw e;
    threaded = false;
    sampler = await mod.createSampler();
  }
  const extra = [];
  for (const t of args.threads || []) {
    if (t === 1 || !threaded) continue;
    const s = await mod.createSampler({ threads: t });
    extra.push({ threads: t, inUse: s.threads, sampler: s });
  }
  // The worker API (createSampler({ worker: true }), its default threads), where the build
  // has it: W7a and the per-call workload get a row through it, and its blocking probe.
  // The blocking probe keeps the calling thread busy spinning its event loop, so its worker
  // samplers leave it a core (threads = cores - 1): with every core computing, the probe
  // would measure the OS scheduler sharing cores between it and the pool, not the API. A
  // page's main thread, idle between events, is not a thread that competes for a core.
  // The probe's samplers are made when it runs, after the rounds (probeSamplers below).
  let worker = null;
  try {
    worker = await mod.createSampler({ worker: true });
  } catch (e) {
    if (!(e instanceof RangeError) || !/worker/.test(e.message)) throw e;
  }
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const probeThreads = worker ? Math.max(1, Math.min(worker.threads, cores - 1)) : 1;
  const probeSamplers = async () => ({
    copied: await mod.createSampler({ worker: true, threads: probeThreads }),
    transferred: await mod.createSampler({ worker: true, threads: probeThreads, transfer: true }),
  });
  return new Ours(sampler, distFile, extra, worker, probeSamplers);
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };

// Keeps the event loop turning (setImmediate after setImmediate) while tick() returns true,
// so the longest gap between two ticks is the longest time the calling thread was busy.
const spin = (tick) => new Promise((resolve) => { const step = () => (tick() ? setImmediate(step) : resolve()); setImmediate(step); });

// The calling thread's blocking during `runs` calls of call(input()): the time the method
// takes to return its Promise (arguments copied or transferred then), and the longest gap of
// the event loop while the call is in flight; and the same loop with no call for as long,
// the machine's own noise. Medians over the runs.
async function probeBlocking(call, input, runs) {
  const calls = [], gaps = [], idle = [], times = [];
  for (let r = 0; r < runs; r++) {
    const x = input();
    let last = performance.now(), maxGap = 0, done = false;
    const loop = spin(() => { const t = performance.now(); if (t - last > maxGap) maxGap = t - last; last = t; return !done; });
    const t0 = performance.now();
    const p = call(x);
    calls.push(performance.now() - t0);
    await p;
    times.push(performance.now() - t0);
    done = true;
    await loop;
    gaps.push(maxGap);
    let lastI = performance.now(), maxI = 0;
    const t1 = performance.now();
    await spin(() => { const t = performance.now(); if (t - lastI > maxI) maxI = t - lastI; lastI = t; return t - t1 < times[r]; });
    idle.push(maxI);
  }
  return { callMs: median(calls), gapMs: median(gaps), gapMaxMs: Math.max(...gaps), idleGapMs: median(idle), timeMs: median(times), runs };
}

// The same probe's floor without this library: a plain worker_threads Worker that answers
// each message with a fresh array of the output's size, written through (as a resize writes
// its output) and transferred. Its main-thread gaps are what posting X and receiving a
// result of that size cost in this Node on this machine (structured clone, the result's
// external memory and the garbage collections it brings), whatever computes it.
async function plainWorkerFloor(outBytes, runs, x, transfer) {
  const w = new Worker(`const { parentPort } = require('node:worker_threads');
parentPort.on('message', () => { const y = new Uint8Array(${outBytes}); y.fill(1); parentPort.postMessage(y, [y.buffer]); });`, { eval: true });
  try {
    // (each call's two listeners leave together: one 'error' listener per call would pile up)
    const call = (data) => new Promise((resolve, reject) => {
      const done = (m) => { w.off('error', fail); resolve(m); };
      const fail = (e) => { w.off('message', done); reject(e); };
      w.once('message', done);
      w.once('error', fail);
      w.postMessage(data, transfer ? [data.buffer] : []);
    });
    await call(transfer ? x.slice() : x);
    return await probeBlocking(call, () => (transfer ? x.slice() : x), runs);
  } finally {
    await w.terminate();
  }
}

class Ours {
  constructor(sampler, distFile, extra, worker, probeSamplers) {
    this.sampler = sampler;
    this.worker = worker;    // createSampler({ worker: true }) or null
    this.probeSamplers = probeSamplers;  // () => the blocking probe's worker samplers { copied, transferred }
    this.extra = extra;  // [{ threads, inUse, sampler }]: the threaded samplers
    this.id = id;
    this.name = 'onnx-sampling-wasm';
    this.version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;
    this.distFile = distFile;
    this.note = `built package ${distFile}` +
      (extra.length ? `; threaded rows: ${extra.map((e) => `threads ${e.threads} (${e.inUse} in use)`).join(', ')}` : '; one thread') +
      (worker ? `; worker API rows (worker sampler on ${worker.threads} thread${worker.threads === 1 ? '' : 's'})` : '');
  }

  dispose() {
    if (this.worker) this.worker.dispose();
    for (const e of this.extra) e.sampler.dispose();
    this.sampler.dispose();
  }

  resizeOptions(spec) {
    const o = {
      sizes: spec.axes ? spec.axes.map((a) => spec.out[a]) : spec.out.slice(),
      mode: spec.mode,
      coordinateTransformationMode: 'half_pixel',
    };
    if (spec.axes) o.axes = spec.axes.slice();
    if (spec.antialias) o.antialias = true;
    if (spec.mode === 'cubic') o.cubicCoeffA = spec.cubicA;
    return o;
  }

  // The one-thread cases, then the same cases on each threaded sampler (tagged `threads`;
  // of the per-call workload only resizeInto(), the overhead target's call).
  async prepare(spec, data) {
    const cases = this.casesOf(this.sampler, spec, data);
    for (const e of this.extra) {
      for (const c of this.casesOf(e.sampler, spec, data)) {
        if (spec.perCall && c.variant !== 'resizeInto') { if (c.dispose) c.dispose(); continue; }
        cases.push({ ...c, label: `${c.label}, ${e.threads} threads`, threads: e.threads, threadsInUse: e.inUse });
      }
    }
    // The worker API: W7a-sized (uint8 resize on axes 1, 2) and per-call, inputs copied (the
    // default). Its last column compares with the synchronous resize() on one thread; the
    // blocking probe runs after the rounds (run.mjs), copied and transferred.
    const W = this.worker;
    if (W && spec.op === 'resize' && (spec.perCall || (spec.type === 'uint8' && !spec.antialias))) {
      const opts = this.resizeOptions(spec);
      const x = { type: spec.type, dims: spec.in, data: data.x };
      cases.push({
        label: `worker resize() arrays (worker on ${W.threads} thread${W.threads === 1 ? '' : 's'})`, tier: 'array', variant: 'worker',
        compareVariant: 'resize', worker: true,
        includes: 'createSampler({ worker: true }).resize(): X copied to the worker, the call there, Y transferred back; awaited',
        run: () => W.resize(x, opts),
        output: async () => (await W.resize(x, opts)).data,
        // transferred: each call gets a fresh copy of X, made before the probe starts.
        probe: spec.perCall ? null : async (runs) => {
          const WT = await this.probeSamplers();
          const outBytes = spec.out.reduce((a, b) => a * b, 1);
          try {
            return {
              threads: WT.copied.threads,
              outBytes,
              copied: await probeBlocking((xi) => WT.copied.resize(xi, opts), () => x, runs),
              transferred: await probeBlocking((xi) => WT.transferred.resize(xi, opts), () => ({ ...x, data: x.data.slice() }), runs),
              floor: {
                copied: await plainWorkerFloor(outBytes, runs, x.data, false),
                transferred: await plainWorkerFloor(outBytes, runs, x.data, true),
              },
            };
          } finally {
            WT.copied.dispose();
            WT.transferred.dispose();
          }
        },
      });
    }
    return cases;
  }

  casesOf(S, spec, data) {
    if (spec.op === 'resize') {
      const opts = this.resizeOptions(spec);
      const x = { type: spec.type, dims: spec.in, data: data.x };
      const xT = S.tensor(spec.type, spec.in);
      xT.data.set(data.x);
      const yT = S.tensor(spec.type, spec.out);
      const cases = [];
      if (spec.perCall) {
        // run(): the ONNX node level, Resize-19 with sizes as an int64 tensor.
        const node = { opType: 'Resize', opset: 19, attributes: { mode: spec.mode } };
        const sizes = { type: 'int64', dims: [spec.out.length], data: BigInt64Array.from(spec.out.map(BigInt)) };
        cases.push({
          label: 'run() arrays', tier: 'array', variant: 'run',
          includes: 'run() of a Resize-19 node: checks, copy X in, kernel, copy Y out to a new array',
          run: () => S.run(node, [x, null, null, sizes]),
          output: async () => S.run(node, [x, null, null, sizes])[0].data,
        });
      }
      cases.push({
        label: 'resize() arrays', tier: 'array', variant: 'resize',
        includes: 'resize(): checks, copy X into wasm memory, kernel, copy Y out to a new TypedArray',
        run: () => S.resize(x, opts),
        output: async () => S.resize(x, opts).data,
      });
      cases.push({
        label: 'resizeInto() wasm tensors', tier: 'memory', variant: 'resizeInto',
        includes: 'resizeInto(): X and Y are sampler.tensor() in wasm memory; checks + plan + kernel, no copies',
        run: () => S.resizeInto(xT, yT, opts),
        output: async () => { S.resizeInto(xT, yT, opts); return yT.data.slice(); },
        dispose: () => { xT.dispose(); yT.dispose(); },
      });
      return cases;
    }
    if (spec.op === 'grid') {
      const opts = { mode: spec.mode, paddingMode: spec.padding, alignCorners: spec.alignCorners };
      const x = { type: spec.type, dims: spec.x, data: data.x };
      const g = { type: 'float32', dims: spec.grid, data: data.grid };
      const xT = S.tensor(spec.type, spec.x);
      xT.data.set(data.x);
      const gT = S.tensor('float32', spec.grid);
      gT.data.set(data.grid);
      const yT = S.tensor(spec.type, spec.out);
      return [
        {
          label: 'gridSample() arrays', tier: 'array', variant: 'gridSample',
          includes: 'gridSample(): checks, copy X and grid in, kernel, copy Y out to a new TypedArray',
          run: () => S.gridSample(x, g, opts),
          output: async () => S.gridSample(x, g, opts).data,
        },
        {
          label: 'gridSampleInto() wasm tensors', tier: 'memory', variant: 'gridSampleInto',
          includes: 'gridSampleInto(): X, grid, Y are sampler.tensor() in wasm memory; no copies',
          run: () => S.gridSampleInto(xT, gT, yT, opts),
          output: async () => { S.gridSampleInto(xT, gT, yT, opts); return yT.data.slice(); },
          dispose: () => { xT.dispose(); gT.dispose(); yT.dispose(); },
        },
      ];
    }
    return [];
  }
}
