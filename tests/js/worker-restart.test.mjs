// The worker sampler's start-up watchdog (bindings/worker-client.js): a worker that beat once
// and then went silent while creating its sampler (its thread stuck, as Firefox's nested
// `new Worker()` was seen to be) is ended and a new one started; the last attempt asks for
// one thread and is not timed. Tested on the client alone, with scripted workers: the file
// is evaluated in a context whose timers run 1000 times faster, so the 8 s of silence take 8 ms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSync } from 'esbuild';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The client module bundled into a script that defines the global oswClient (esbuild, the
// build's bundler).
const source = buildSync({
  stdin: { contents: "export { oswWorkerSampler } from './worker-client.js';", resolveDir: join(root, 'bindings') },
  bundle: true, format: 'iife', globalName: 'oswClient', platform: 'neutral', write: false,
}).outputFiles[0].text;

function loadClient() {
  const timers = new Set();
  const context = vm.createContext({
    // Handles whose unref() does nothing: the client unrefs its watchdog (so that a Node
    // process is not kept alive by it), which here would let the event loop end while a
    // test awaits a start that only the watchdog can finish.
    setTimeout: (fn, ms) => { const h = { t: setTimeout(fn, ms / 1000), unref() {} }; timers.add(h); return h; },
    clearTimeout: (h) => { if (h) { clearTimeout(h.t); timers.delete(h); } },
    URL, Promise, Map, Object, Array, Symbol, Error, TypeError, RangeError, Uint8Array, ArrayBuffer, DataView,
    Int8Array, Float32Array,
  });
  vm.runInContext(`${source}\nglobalThis.oswWorkerSampler = oswClient.oswWorkerSampler;`, context);
  return { oswWorkerSampler: context.oswWorkerSampler, timers };
}

// A scripted worker: behave(msg, reply) runs on each message the client posts.
function scriptedWorkers(behaviours) {
  const started = [];
  const spawn = () => {
    const behave = behaviours[started.length];
    if (!behave) throw new Error('no more workers scripted');
    const w = { handlers: null, posted: [], terminated: false, refs: 0 };
    started.push(w);
    const reply = (m) => queueMicrotask(() => { if (!w.terminated) w.handlers.message(m); });
    return {
      post: (msg) => { w.posted.push(structuredClone(msg)); behave(msg, reply); },
      listen: (h) => { w.handlers = h; },
      terminate: () => { w.terminated = true; },
      ref: () => { w.refs++; },
      unref: () => { w.refs--; },
    };
  };
  return { spawn, started };
}

const created = (threads) => (msg, reply) => {
  if (msg.op === 'create') { reply({ beat: true }); reply({ id: msg.id, ok: true, value: { methods: ['resize'], threads } }); }
  if (msg.op === 'call') reply({ id: msg.id, ok: true, value: 'done' });
};
const stuckAfterBeat = (msg, reply) => { if (msg.op === 'create') reply({ beat: true }); };
const silent = () => {};

test('a worker that beat and then stopped while creating its sampler is ended and another one started', async () => {
  const { oswWorkerSampler } = loadClient();
  const w = scriptedWorkers([stuckAfterBeat, created(2)]);
  const s = await oswWorkerSampler({ worker: true, threads: 2 }, null, w.spawn);
  assert.equal(s.threads, 2);
  assert.equal(w.started.length, 2);
  assert.equal(w.started[0].terminated, true, 'the stuck worker was ended');
  assert.equal(w.started[1].terminated, false);
  assert.equal(w.started[1].posted[0].options.threads, 2, 'the second attempt asks for the same threads');
  assert.equal(await s.resize({}, {}), 'done', 'calls go to the new worker');
  assert.equal(w.started[0].posted.length, 1, 'nothing more went to the ended worker');
  s.dispose();
});

test('the last attempt asks for one thread and is never timed out', async () => {
  const { oswWorkerSampler } = loadClient();
  let answer;
  const slowLast = (msg, reply) => { if (msg.op === 'create') { reply({ beat: true }); answer = () => reply({ id: msg.id, ok: true, value: { methods: ['resize'], threads: 1 } }); } };
  const w = scriptedWorkers([stuckAfterBeat, stuckAfterBeat, slowLast]);
  const p = oswWorkerSampler({ worker: true }, null, w.spawn);
  await new Promise((r) => setTimeout(r, 100));  // many times the scaled 8 s
  assert.equal(w.started.length, 3, 'no fourth worker');
  assert.equal(w.started[2].posted[0].options.threads, 1);
  answer();
  const s = await p;
  assert.equal(s.threads, 1);
  assert.deepEqual(w.started.map((x) => x.terminated), [true, true, false]);
  s.dispose();
});

test('a worker that was never heard from is not timed (its script may be slow to arrive)', async () => {
  const { oswWorkerSampler } = loadClient();
  let answer;
  const late = (msg, reply) => { if (msg.op === 'create') answer = () => { reply({ beat: true }); reply({ id: msg.id, ok: true, value: { methods: [], threads: 2 } }); }; };
  const w = scriptedWorkers([late, silent]);
  const p = oswWorkerSampler({ worker: true, threads: 2 }, null, w.spawn);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(w.started.length, 1);
  answer();
  assert.equal((await p).threads, 2);
});

test('an error while creating is reported, not retried', async () => {
  const { oswWorkerSampler } = loadClient();
  const refuse = (msg, reply) => { if (msg.op === 'create') { reply({ beat: true }); reply({ id: msg.id, ok: false, error: { name: 'RangeError', message: 'createSampler: threads: expected 1..64' } }); } };
  const w = scriptedWorkers([refuse]);
  await assert.rejects(oswWorkerSampler({ worker: true, threads: 2 }, null, w.spawn), { name: 'RangeError', message: 'createSampler: threads: expected 1..64' });
  assert.equal(w.started.length, 1);
});

test('beats after the sampler was created do not arm anything', async () => {
  const { oswWorkerSampler, timers } = loadClient();
  const w = scriptedWorkers([created(2)]);
  const s = await oswWorkerSampler({ worker: true, threads: 2 }, null, w.spawn);
  w.started[0].handlers.message({ beat: true });
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(w.started.length, 1);
  assert.equal(w.started[0].terminated, false);
  for (const h of timers) clearTimeout(h.t);
  s.dispose();
});
