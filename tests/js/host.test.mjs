// host.test.mjs — the package is a good citizen of the program it is put into.
//
//   - Node: createSampler() touches no process-wide state: no uncaughtException or
//     unhandledRejection listener of ours (an app's own handler keeps the process alive),
//     process.argv and process.exitCode untouched, and a crash elsewhere does not print
//     the minified glue. Run in child processes, so each starts from a clean process.
//   - Strict CSP: no eval or new Function in any file a page or Node loads.
//   - createSampler: a failed load leaves nothing behind; a later call with good options
//     works. Each sampler has its own module instance.
//   - dispose(): the instance and its memory become collectable (RSS falls after a large
//     call, in a child run with --expose-gc); memoryBytes reports the heap; every method of
//     a disposed sampler throws a clear Error; a later createSampler() makes a fresh one.
//   - The methods are bound: `const { resize } = sampler` works.
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importPackage, packageEntry } from './package.mjs';

const entry = packageEntry();
const distDir = path.dirname(entry);
const { createSampler } = await importPackage();

const f32 = (arr, dims = [arr.length]) => ({ type: 'float32', dims, data: Float32Array.from(arr) });

// Runs `body` (an ES module's text; ENTRY is the package entry's URL) in a fresh Node
// process; returns { status, stdout, stderr, lines }.
function runChild(body, nodeArgs = [], scriptArgs = []) {
  const dir = mkdtempSync(path.join(tmpdir(), 'osw-host-'));
  try {
    const file = path.join(dir, 'child.mjs');
    writeFileSync(file, `const ENTRY = ${JSON.stringify(pathToFileURL(entry).href)};\n${body}`);
    const r = spawnSync(process.execPath, [...nodeArgs, file, ...scriptArgs], { encoding: 'utf8', timeout: 120_000 });
    if (r.error) throw r.error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split('\n').filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- Node process state

test("Node: the app's own uncaughtException / unhandledRejection handlers stay in charge", () => {
  const r = runChild(`
const log = (m) => process.stdout.write(m + '\\n');
process.on('uncaughtException', (e) => log('app handler: ' + e.message));
process.on('unhandledRejection', (e) => log('app rejection handler: ' + e.message));
const counts = () => Object.fromEntries(process.eventNames().map((n) => [String(n), process.listenerCount(n)]));
const before = counts();
const argv = process.argv.slice();
let exitCalls = 0;
const realExit = process.exit;
process.exit = function (code) { exitCalls++; return realExit.call(process, code); };
const { createSampler } = await import(ENTRY);
// a failed load (bytes that are not wasm), then good ones
try { await createSampler({ wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 255]) }); log('bad load: resolved'); }
catch (e) { log('bad load: rejected'); }
const s = await createSampler();
const s2 = await createSampler();
s2.dispose();
const y = s.resize({ type: 'float32', dims: [2], data: new Float32Array([1, 3]) }, { sizes: [4], mode: 'linear' });
log('result ' + JSON.stringify(Array.from(y.data)));
log('state ' + JSON.stringify({ before, after: counts(), argvSame: JSON.stringify(argv) === JSON.stringify(process.argv), exitCode: String(process.exitCode) }));
setTimeout(() => { throw new Error('thrown from a timer'); }, 0);
setTimeout(() => { Promise.reject(new Error('a rejected promise')); }, 10);
setTimeout(() => {
  const z = s.resize({ type: 'float32', dims: [2], data: new Float32Array([1, 3]) }, { sizes: [4], mode: 'linear' });
  log('survived ' + JSON.stringify({ z: Array.from(z.data), exitCalls, exitCode: String(process.exitCode) }));
}, 50);
`, [], ['first-arg', 'second-arg']);
  assert.equal(r.status, 0, `the process died (status ${r.status}); stderr: ${r.stderr.slice(0, 500)}`);
  const find = (prefix) => r.lines.find((l) => l.startsWith(prefix));
  assert.equal(find('bad load:'), 'bad load: rejected');
  assert.equal(find('result '), 'result [1,1.5,2.5,3]');
  const state = JSON.parse(find('state ').slice(6));
  assert.deepEqual(state.after, state.before, 'createSampler() added or removed process listeners');
  assert.equal(state.argvSame, true, 'process.argv changed');
  assert.equal(state.exitCode, 'undefined', 'process.exitCode was set');
  assert.ok(r.lines.includes('app handler: thrown from a timer'), r.stdout);
  assert.deepEqual(r.lines.filter((l) => l.startsWith('app rejection handler')), ['app rejection handler: a rejected promise'],
    'only the app\'s own rejection reached its handler (the failed load left no unhandled rejection)');
  const survived = JSON.parse(find('survived ').slice(9));
  assert.deepEqual(survived, { z: [1, 1.5, 2.5, 3], exitCalls: 0, exitCode: 'undefined' });
});

test('Node: an unrelated crash is reported by Node as usual, without our glue in it', () => {
  const r = runChild(`
const { createSampler } = await import(ENTRY);
await createSampler();
setTimeout(() => { throw new Error('the app crashed'); }, 0);
`);
  assert.equal(r.status, 1, 'Node exits with 1 on an uncaught exception');
  assert.match(r.stderr, /Error: the app crashed/);
  assert.ok(!/createOswModule|wasmBinary|HEAPU8/.test(r.stderr), `stderr shows the module's source:\n${r.stderr.slice(0, 300)}`);
  assert.ok(r.stderr.length < 4000, `stderr is ${r.stderr.length} characters`);
});

// ---------------------------------------------------------------- strict CSP

test('strict CSP: no eval or new Function in the loaders and the API bundles', () => {
  const files = readdirSync(distDir).filter((f) => /\.(mjs|cjs|js)$/.test(f));
  // The Emscripten glue is inside each entry (scripts/build.mjs): these are all the loaders.
  for (const need of ['index.cjs', 'index.mjs', 'browser.mjs'])
    assert.ok(files.includes(need), `${need} is in ${distDir}`);
  const dynamic = /\bnew\s+Function\b|\beval\s*\(|\bnew_\s*\(\s*Function\b|(^|[^\w$.])Function\s*\(/;
  for (const f of files) {
    const text = readFileSync(path.join(distDir, f), 'utf8');
    const m = dynamic.exec(text);
    assert.ok(m === null, m && `${f}: dynamic code at ...${text.slice(Math.max(0, m.index - 60), m.index + 60)}...`);
  }
});

// ---------------------------------------------------------------- loading

test('a failed load does not poison later createSampler() calls', async () => {
  const bad = [new Uint8Array(0), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 2, 3]), new Uint8Array(64).fill(7).buffer];
  for (const wasmBinary of bad) {
    await assert.rejects(createSampler({ wasmBinary }), Error);
    const s = await createSampler();
    assert.deepEqual(Array.from(s.resize(f32([1, 3]), { sizes: [4], mode: 'linear' }).data), [1, 1.5, 2.5, 3]);
    s.dispose();
  }
});

test('wasmBinary given as bytes of any view or an ArrayBuffer loads', async () => {
  const wasm = readFileSync(path.join(distDir, 'osw.wasm'));
  const copy = new Uint8Array(wasm.length + 8);
  copy.set(wasm, 8);
  for (const wasmBinary of [wasm, new DataView(copy.buffer, 8), copy.slice(8).buffer]) {
    const s = await createSampler({ wasmBinary });
    assert.deepEqual(Array.from(s.resize(f32([1, 3]), { sizes: [4], mode: 'linear' }).data), [1, 1.5, 2.5, 3]);
    s.dispose();
  }
});

test('each sampler has its own module instance and memory', async () => {
  const a = await createSampler();
  const b = await createSampler();
  assert.notEqual(a._M, b._M);
  const mb = b.memoryBytes;
  const t = a.tensor('float32', [1 << 22]);  // 16 MiB: a's heap grows, b's does not
  t.data.fill(1);
  assert.ok(a.memoryBytes > mb, `a.memoryBytes ${a.memoryBytes} > ${mb}`);
  assert.equal(b.memoryBytes, mb);
  a.dispose();
  b.dispose();
});

test("another sampler's wasm tensors work as inputs and outputs (copied, not read in place)", async () => {
  const a = await createSampler();
  const b = await createSampler();
  const xa = a.tensor('float32', [1, 1, 2, 3]);
  xa.data.set([1, 2, 3, 4, 5, 6]);
  const ref = a.resize(xa, { sizes: [1, 1, 3, 5], mode: 'linear' });
  // a's tensor into b
  assert.deepEqual(Array.from(b.resize(xa, { sizes: [1, 1, 3, 5], mode: 'linear' }).data), Array.from(ref.data));
  // b writing into a's tensor, from a's and from b's input
  const ya = a.tensor('float32', [1, 1, 3, 5]);
  const xb = b.tensor('float32', [1, 1, 2, 3]);
  xb.data.set([1, 2, 3, 4, 5, 6]);
  for (const x of [xa, xb]) {
    ya.data.fill(-1);
    assert.equal(b.resizeInto(x, ya, { sizes: [1, 1, 3, 5], mode: 'linear' }), ya);
    assert.deepEqual(Array.from(ya.data), Array.from(ref.data));
  }
  // GridSample with a's grid in b
  const grid = a.tensor('float32', [1, 1, 2, 2]);
  grid.data.set([0, 0, 1, 1]);
  const x4 = f32([1, 2, 3, 4], [1, 1, 2, 2]);
  assert.deepEqual(Array.from(b.gridSample(x4, grid).data), Array.from(a.gridSample(x4, grid).data));
  a.dispose();
  b.dispose();
});

// ---------------------------------------------------------------- dispose and memoryBytes

test('dispose(): RSS falls back after a large call; memoryBytes reports the heap', () => {
  const r = runChild(`
const { createSampler } = await import(ENTRY);
const rss = async () => {
  for (let i = 0; i < 3; i++) { gc(); await new Promise((res) => setImmediate(res)); }
  return process.memoryUsage().rss;
};
const s = await createSampler();
const m0 = s.memoryBytes;
const r0 = await rss();
// 1 x 1 x 2 x 2 -> 8192 x 8192 float32: 256 MiB written in wasm memory (every page touched)
const y = s.tensor('float32', [1, 1, 8192, 8192]);
s.resizeInto({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) }, y, { sizes: [1, 1, 8192, 8192], mode: 'linear' });
const probe = y.data[8192 * 8192 - 1];
y.dispose();
const m1 = s.memoryBytes;
const r1 = await rss();
s.dispose();
s.dispose();  // idempotent
const m2 = s.memoryBytes;
const r2 = await rss();
const s2 = await createSampler();
process.stdout.write(JSON.stringify({ m0, m1, m2, r0, r1, r2, probe, fresh: s2.memoryBytes }) + '\\n');
`, ['--expose-gc']);
  assert.equal(r.status, 0, r.stderr);
  const v = JSON.parse(r.lines.at(-1));
  const MiB = 2 ** 20;
  assert.equal(v.probe, 4);
  assert.ok(v.m0 > 0 && v.m0 <= 32 * MiB, `initial memoryBytes ${v.m0}`);
  assert.ok(v.m1 >= v.m0 + 256 * MiB, `memoryBytes after the call ${v.m1} reports the growth`);
  assert.equal(v.m2, 0, 'memoryBytes is 0 once disposed');
  assert.ok(v.fresh > 0 && v.fresh <= 32 * MiB, `a new sampler starts small (${v.fresh})`);
  const grown = v.r1 - v.r0, fell = v.r1 - v.r2;
  assert.ok(grown > 200 * MiB, `RSS grew by ${(grown / MiB).toFixed(0)} MiB with the call`);
  assert.ok(fell > 0.8 * grown, `RSS fell by ${(fell / MiB).toFixed(0)} MiB of ${(grown / MiB).toFixed(0)} MiB after dispose()`);
});

test('a disposed sampler throws a clear Error from every method; its tensors too', async () => {
  const s = await createSampler();
  const t = s.tensor('float32', [2]);
  const t2 = s.tensor('float32', [4]);
  const { resize, dispose } = s;
  s.dispose();
  const disposed = (e) => e.constructor === Error && /sampler was disposed.*createSampler\(\)/.test(e.message);
  const x = f32([1, 2]);
  const img = { width: 1, height: 1, data: new Uint8ClampedArray(4) };
  const calls = {
    run: () => s.run({ opType: 'Resize', opset: 19 }, [x, null, f32([2])]),
    runInto: () => s.runInto({ opType: 'Resize', opset: 19 }, [x, null, f32([2])], [f32([0, 0, 0, 0])]),
    resize: () => s.resize(x, { scales: [2] }),
    resizeInto: () => s.resizeInto(x, f32([0, 0, 0, 0]), { scales: [2] }),
    upsample: () => s.upsample(x, { scales: [2] }),
    upsampleInto: () => s.upsampleInto(x, f32([0, 0, 0, 0]), { scales: [2] }),
    gridSample: () => s.gridSample(f32([1, 2, 3, 4], [1, 1, 2, 2]), f32([0, 0], [1, 1, 1, 2])),
    gridSampleInto: () => s.gridSampleInto(f32([1, 2, 3, 4], [1, 1, 2, 2]), f32([0, 0], [1, 1, 1, 2]), f32([0], [1, 1, 1, 1])),
    affineGrid: () => s.affineGrid(f32([1, 0, 0, 0, 1, 0], [1, 2, 3]), [1, 1, 2, 2]),
    tensor: () => s.tensor('float32', [2]),
    imageToTensor: () => s.imageToTensor(img),
    tensorToImageData: () => s.tensorToImageData(f32([0, 0, 0], [1, 3, 1, 1])),
    resizeImage: () => s.resizeImage(img, { width: 2 }),
    resizeCrop: () => s.resizeCrop(img, { size: 2 }),
    letterbox: () => s.letterbox(img, { width: 2, height: 2 }),
    warpImage: () => s.warpImage(img, [1, 0, 0, 0, 1, 0]),
    'destructured resize': () => resize(x, { scales: [2] }),
    'bad arguments too': () => s.resize(null),
    'tensor.data': () => t.data,
  };
  for (const [name, call] of Object.entries(calls)) assert.throws(call, disposed, name);
  // the one method that returns a Promise rejects with that Error
  const promised = { loadCompat: () => s.loadCompat() };
  for (const [name, call] of Object.entries(promised)) await assert.rejects(call(), disposed, name);
  // every public method of the prototype is in the lists above
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(s)))
    if (name[0] !== '_' && name !== 'constructor' && name !== 'dispose' && name !== 'memoryBytes' && name !== 'threads')
      assert.ok(name in calls || name in promised, `${name} is checked after dispose`);
  assert.equal(t.disposed, true, 'a tensor of a disposed sampler reports disposed');
  t2.dispose();  // freeing after the sampler is gone is a no-op
  dispose();     // and so is disposing again, destructured too
  assert.equal(s.memoryBytes, 0);
  assert.equal(s.threads, 0, 'a disposed sampler uses no threads');
  // its tensors passed to a live sampler: the same clear error
  const other = await createSampler();
  assert.throws(() => other.resize(t, { scales: [2] }), (e) => disposed(e) && /^x: /.test(e.message));
  other.dispose();
});

test('the methods are bound: destructuring works', async () => {
  const s = await createSampler();
  const { run, resize, resizeInto, upsample, gridSample, tensor, imageToTensor, resizeImage, dispose } = s;
  const x = f32([1, 3]);
  assert.deepEqual(Array.from(resize(x, { sizes: [4], mode: 'linear' }).data), [1, 1.5, 2.5, 3]);
  assert.deepEqual(Array.from(upsample(x, { scales: [2] }).data), [1, 1, 3, 3]);
  assert.deepEqual(Array.from(run({ opType: 'Resize', opset: 19, attributes: { mode: 'linear' } }, [x, null, null,
    { type: 'int64', dims: [1], data: new BigInt64Array([4n]) }])[0].data), [1, 1.5, 2.5, 3]);
  const y = tensor('float32', [4]);
  resizeInto(x, y, { sizes: [4], mode: 'linear' });
  assert.deepEqual(Array.from(y.data), [1, 1.5, 2.5, 3]);
  assert.deepEqual(Array.from(gridSample(f32([1, 2, 3, 4], [1, 1, 2, 2]), f32([0, 0], [1, 1, 1, 2])).data), [2.5]);
  const img = { width: 2, height: 1, data: new Uint8ClampedArray([0, 0, 0, 255, 200, 200, 200, 255]) };
  assert.deepEqual(imageToTensor(img).dims, [1, 3, 1, 2]);
  assert.equal(resizeImage(img, { width: 4 }).width, 4);
  // a bound method stays tied to its sampler
  const other = { resize };
  assert.deepEqual(Array.from(other.resize(x, { sizes: [2] }).data), [1, 3]);
  dispose();
  assert.throws(() => resize(x, { sizes: [4] }), /disposed/);
  // the bound methods are not enumerable: a sampler logs as its state, not a list of functions
  assert.ok(!Object.keys(s).includes('resize'));
});
