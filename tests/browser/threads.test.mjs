// threads.test.mjs: createSampler({ threads }) in a browser (OSW_BROWSER: Chromium, Firefox or
// WebKit), through the packed package's browser.mjs (issue 16).
//
// - A page served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
//   require-corp (on every response: the page, browser.mjs, osw-mt.mjs, which the pool's workers run
//   too, the wasm) is cross-origin isolated: createSampler({ threads: 4 }) runs on 4 threads; the 188
//   conformance cases pass on it with the bytes of createSampler({ threads: 1 }), and so do
//   larger cases past the core's work thresholds (parallel.h) (Resize, GridSample 2-D and 3-D, AffineGrid),
//   computed in the page; a module worker of that page gets 2 threads too. No page errors.
// - A page served without those headers is not isolated: createSampler({ threads: 4 }) runs on
//   one thread without an error, the threaded build's files are never requested, and the
//   conformance cases pass. No page errors, no console errors.
// - A pool that cannot start: an isolated page whose CSP has worker-src 'none' gets a clear
//   Error from createSampler({ threads: 4 }) (it used to wait forever), and threads: 1 still
//   works; a pool worker told to load a glue that is not there reports it to the page.
// - WebKitGTK (Debian's 2.50) makes the page cross-origin isolated but does not expose
//   SharedArrayBuffer there: the GLib ports of WebKit leave JavaScriptCore's useSharedArrayBuffer
//   option off (WebKit bug 317847, "[GLIB] Enable SharedArrayBuffer in GLib-backed WebKit",
//   open). The test asserts exactly that and the one-thread fallback, then runs the isolated
//   page again in a WebKit started with JSC_useSharedArrayBuffer=1 (the option Safari has on
//   for isolated pages), where it must get its 4 threads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPECTED_CASES, compareTensors, loadCases } from '../js/onnx-cases.mjs';
import { BLANK_PAGE, ENGINES, ISOLATION_HEADERS, conformanceDir, currentEngine, installPageWire, openBrowser, packageDir, startStaticServer, wire } from './helpers.mjs';

const ENGINE = currentEngine();
const LABEL = ENGINES[ENGINE];
const ARRAYS = {
  Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
};

let isolated, plain, refused, browser, pages;
before(async () => {
  // a module worker for the isolated page, beside the package
  pages = mkdtempSync(join(tmpdir(), 'osw-threads-pages-'));
  writeFileSync(join(pages, 'worker.mjs'), `
    import { createSampler } from '/pkg/dist/browser.mjs';
    // Each step reported as it is reached, so that a worker that never answers (seen once in
    // Firefox under load: the page's evaluate timed out after 180 s) says where it stopped.
    const step = (s) => postMessage({ step: s });
    self.addEventListener('unhandledrejection', (e) => step('unhandled rejection: ' + (e.reason && e.reason.stack || e.reason)));
    step('imported');
    const one = await createSampler({ threads: 1 });
    step('createSampler({ threads: 1 }) resolved');
    const two = await createSampler({ threads: 2 });
    step('createSampler({ threads: 2 }) resolved, threads ' + two.threads);
    const x = { type: 'float32', dims: [1, 3, 300, 400], data: new Float32Array(360000).map((_, i) => Math.sin(i * 0.01) * 50) };
    const a = one.resize(x, { scales: [1, 1, 1.5, 1.5], mode: 'cubic' }).data;
    step('resize on 1 thread returned');
    const b = two.resize(x, { scales: [1, 1, 1.5, 1.5], mode: 'cubic' }).data;
    step('resize on 2 threads returned');
    let same = a.length === b.length;
    for (let i = 0; same && i < a.length; i++) same = Object.is(a[i], b[i]);
    postMessage({ isolated: self.crossOriginIsolated, threads: two.threads, same, n: a.length });
    one.dispose();
    two.dispose();
  `);
  const mounts = [['/pkg/', packageDir()], ['/pages/', pages]];
  isolated = await startStaticServer(mounts, { errorHook: true, headers: ISOLATION_HEADERS });
  plain = await startStaticServer(mounts, { errorHook: true });
  // isolated, but its Content-Security-Policy refuses every worker: the pool's cannot start
  refused = await startStaticServer(mounts, { errorHook: true, headers: { ...ISOLATION_HEADERS, 'Content-Security-Policy': "worker-src 'none'" } });
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await isolated?.close();
  await plain?.close();
  await refused?.close();
  if (pages) rmSync(pages, { recursive: true, force: true });
});


// In the page: the conformance cases through createSampler({ threads: 1 }) and ({ threads }),
// the larger cases through both, and what the page knows. Outputs of the threaded sampler go
// back for the comparison rule; each output of both samplers is compared bytewise in the page.
async function pageRun({ cases, threads, compat: withCompat = true }) {
  const { createSampler } = await import('/pkg/dist/browser.mjs');
  const one = await createSampler({ threads: 1 });
  const many = await createSampler({ threads });
  const { fromWire, toWire } = globalThis.__oswWire;  // helpers.mjs installPageWire
  const sameBytes = (a, b) => {
    if (a.type !== b.type || String(a.dims) !== String(b.dims)) return false;
    const x = new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
    const y = new Uint8Array(b.data.buffer, b.data.byteOffset, b.data.byteLength);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  };
  const call = (fn) => { try { return { out: fn() }; } catch (e) { return { error: `${e.name}: ${e.message}` }; } };
  const outputs = cases.map((c) => {
    const inputs = c.inputs.map(fromWire);
    const node = { opType: c.op, opset: c.opset, attributes: c.attributes };
    const a = call(() => one.run(node, inputs)), b = call(() => many.run(node, inputs));
    if (a.error || b.error) return { error: a.error || b.error, same: a.error === b.error };
    return { output: toWire(b.out[0]), same: sameBytes(a.out[0], b.out[0]) };
  });
  // larger cases (deterministic data), past the core's work threshold
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const f32 = (dims, lo, hi) => ({ type: 'float32', dims, data: Float32Array.from({ length: dims.reduce((p, d) => p * d, 1) }, () => lo + (hi - lo) * rand()) });
  const u8 = (dims) => ({ type: 'uint8', dims, data: Uint8Array.from({ length: dims.reduce((p, d) => p * d, 1) }, () => Math.floor(256 * rand())) });
  const img = f32([1, 3, 240, 320], -50, 50), bytes = u8([1, 3, 240, 320]);
  const grid2 = f32([1, 256, 192, 2], -1.1, 1.1), grid3 = f32([1, 16, 48, 48, 3], -1.1, 1.1);
  const vol = f32([1, 2, 10, 24, 24], -5, 5);
  // [name, call, elements of its inputs]
  const big = [
    ['resize linear x1.7', (s) => s.resize(img, { scales: [1, 1, 1.7, 1.7], mode: 'linear' }), [img]],
    ['resize cubic antialias x0.4', (s) => s.resize(img, { scales: [1, 1, 0.4, 0.4], mode: 'cubic', antialias: true }), [img]],
    ['resize nearest x2 floor', (s) => s.resize(img, { scales: [1, 1, 2, 2], mode: 'nearest', nearestMode: 'floor' }), [img]],
    ['resize uint8 linear x1.5', (s) => s.resize(bytes, { scales: [1, 1, 1.5, 1.5], mode: 'linear' }), [bytes]],
    ['resize uint8 cubic sizes', (s) => s.resize(bytes, { sizes: [1, 3, 500, 333], mode: 'cubic' }), [bytes]],
    ['resize crop box', (s) => s.resize(img, { sizes: [1, 3, 400, 400], mode: 'linear', coordinateTransformationMode: 'tf_crop_and_resize', roi: [0, 0, -0.1, 0.2, 1, 1, 0.9, 1.3], extrapolationValue: 7 }), [img]],
    ['gridSample 2-D linear zeros', (s) => s.gridSample(img, grid2, { mode: 'linear' }), [img, grid2]],
    ['gridSample 2-D cubic reflection', (s) => s.gridSample(img, grid2, { mode: 'cubic', paddingMode: 'reflection' }), [img, grid2]],
    ['gridSample 2-D nearest border aligned', (s) => s.gridSample(img, grid2, { mode: 'nearest', paddingMode: 'border', alignCorners: true }), [img, grid2]],
    ['gridSample 3-D linear', (s) => s.gridSample(vol, grid3, { mode: 'linear' }), [vol, grid3]],
    ['gridSample 3-D nearest border', (s) => s.gridSample(vol, grid3, { mode: 'nearest', paddingMode: 'border' }), [vol, grid3]],
    ['affineGrid 2-D', (s) => s.affineGrid({ type: 'float32', dims: [2, 2, 3], data: new Float32Array([1, 0.2, 0.1, -0.3, 0.9, 0, 0.5, 0, 0, 0, 0.5, 0.2]) }, [2, 3, 300, 280]), []],
    ['affineGrid 3-D', (s) => s.affineGrid({ type: 'float64', dims: [1, 3, 4], data: new Float64Array([1, 0.1, 0, 0, 0, 1, 0.2, 0, 0.1, 0, 1, 0.3]) }, [1, 1, 30, 60, 60], { alignCorners: true }), []],
  ];
  // the core's work of a case, as parallel.h measures it against its thresholds
  const work = (name, out, ins) => {
    if (name.startsWith('resize')) return (out.data.length + ins[0].data.length) * (/nearest/.test(name) ? 1 : 4) / 2 ** 18;
    if (name.startsWith('gridSample')) return out.data.length / 2 ** 13;
    return out.data.length / out.dims[out.dims.length - 1] / 2 ** 15;  // AffineGrid: locations
  };
  const bigResults = big.map(([name, fn, ins]) => {
    const a = call(() => fn(one)), b = call(() => fn(many));
    return { name, error: a.error || b.error, same: !a.error && !b.error && sameBytes(a.out, b.out), work: a.out ? work(name, a.out, ins) : 0 };
  });
  // the compat modes run in the sampler's own memory: a threaded sampler loads
  // osw-compat-mt.wasm into its shared memory, and gives the one-thread sampler's bytes
  if (withCompat) await one.loadCompat();
  if (withCompat) await many.loadCompat();
  const rgba = u8([1, 120, 160, 4]);
  const compat = !withCompat ? [] : [['pillow', 'lanczos', [50, 70]], ['pillow', 'linear', [240, 320]], ['opencv', 'linear', [240, 320]],
    ['opencv', 'nearest', [300, 200]], ['opencv', 'area', [40, 53]]].map(([lib, mode, sizes]) => {
    const o = { sizes, axes: [1, 2], compat: lib, mode };
    const a = call(() => one.resize(rgba, o)), b = call(() => many.resize(rgba, o));
    return { name: `${lib} ${mode}`, error: a.error || b.error, same: !a.error && !b.error && sameBytes(a.out, b.out) };
  });
  const result = {
    isolated: globalThis.crossOriginIsolated === true, sab: typeof SharedArrayBuffer === 'function',
    threads: many.threads, one: one.threads, outputs, big: bigResults, compat, userAgent: navigator.userAgent,
  };
  one.dispose();
  many.dispose();
  return result;
}

function checkConformance(t, cases, res) {
  let passed = 0;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i], r = res.outputs[i];
    const what = `${c.set}/${c.name}`;
    assert.ok(!r.error, `${what} threw ${r.error}`);
    assert.equal(r.same, true, `${what}: threads ${res.threads} gave other bytes than threads 1`);
    const w = r.output;
    const buf = Buffer.from(w.bytes, 'base64');
    const data = new ARRAYS[w.array](buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    const mismatch = compareTensors({ type: w.type, dims: w.dims, data }, c.expected);
    assert.equal(mismatch, null, `${what}: ${mismatch}`);
    passed++;
  }
  assert.equal(passed, EXPECTED_CASES);
  return passed;
}

const payload = () => {
  const cases = loadCases(conformanceDir());
  return { cases, wire: cases.map((c) => ({ op: c.op, opset: c.opset, attributes: c.attributes, inputs: c.inputs.map(wire) })) };
};

// The isolated page in `b`; `expectSab`: whether this browser exposes SharedArrayBuffer there.
async function isolatedPage(t, b, expectSab) {
  const { cases, wire: w } = payload();
  const page = await b.newPage();
  const label = `${LABEL}${expectSab && ENGINE === 'webkit' ? ' (JSC_useSharedArrayBuffer=1)' : ''}`;
  try {
    await page.goto(isolated.url + BLANK_PAGE);
    const probe = await page.evaluate(() => ({ isolated: globalThis.crossOriginIsolated, sab: typeof SharedArrayBuffer, ua: navigator.userAgent }));
    t.diagnostic(`${label} ${b.version}: crossOriginIsolated ${probe.isolated}, SharedArrayBuffer ${probe.sab} (${probe.ua})`);
    assert.equal(probe.isolated, true, `${label} did not make the page cross-origin isolated although it was served with ` +
      `COOP same-origin and COEP require-corp (crossOriginIsolated ${probe.isolated}, SharedArrayBuffer ${probe.sab})`);
    assert.equal(probe.sab, expectSab ? 'function' : 'undefined', expectSab
      ? `${label} has no SharedArrayBuffer in a cross-origin isolated page`
      : `${label} now exposes SharedArrayBuffer to cross-origin isolated pages (WebKit bug 317847 fixed?): expect threads there`);
    const threads = expectSab ? 4 : 1;
    if (!expectSab) t.diagnostic(`${label} does not expose SharedArrayBuffer to a cross-origin isolated page (WebKit bug 317847, GLib ports): createSampler({ threads: 4 }) must run on 1 thread there`);
    const t0 = Date.now();
    await page.evaluate(installPageWire);
    // WebKitGTK with JSC_useSharedArrayBuffer=1 only: the page's first await after the
    // threaded calls (loadCompat's fetch) lets its pool workers report "__emscripten_thread_init
    // is not a function" (a thread started before its worker had loaded: seen with the
    // previous compat module too, issue 16), so the compat part runs in the other browsers
    const compat = !(ENGINE === 'webkit' && expectSab);
    const res = await page.evaluate(pageRun, { cases: w, threads: 4, compat });
    t.diagnostic(`${cases.length} conformance cases and ${res.big.length} larger cases on threads 1 and ${res.threads} in ${Date.now() - t0} ms` +
      (compat ? `; compat: ${res.compat.map((c) => c.name).join(', ')}` : '; no compat here'));
    assert.equal(res.threads, threads, 'sampler.threads');
    assert.equal(res.one, 1);
    checkConformance(t, cases, res);
    for (const c of res.big) {
      assert.ok(!c.error, `${c.name}: ${c.error}`);
      assert.ok(c.work >= 1, `${c.name}: ${c.work} times the core's work threshold (parallel.h), below it`);
      assert.equal(c.same, true, `${c.name}: threads ${res.threads} gave other bytes than threads 1`);
    }
    for (const c of res.compat) assert.ok(!c.error && c.same, `compat ${c.name}: ${c.error || 'threads gave other bytes'}`);
    const compatMt = isolated.requests.filter(([status, u]) => status === 200 && u.endsWith('osw-compat-mt.wasm'));
    assert.equal(compatMt.length, expectSab && compat ? 1 : 0, expectSab ? 'osw-compat-mt.wasm was fetched once, for the threaded sampler' : 'no osw-compat-mt.wasm without threads');
    // a module worker of the isolated page is isolated too and gets its threads. Firefox: a
    // worker's `new Worker()` (here: of its sampler's thread pool) now and then never returns
    // under load, its timers stopped too (bindings/worker-client.js, whose worker API starts
    // a new worker then): a worker that stalls there, after 'createSampler({ threads: 1 })
    // resolved' and before the threaded sampler resolves, is ended and started again, at most
    // twice, and the test says so. A stall anywhere else, or in another browser, fails.
    const worker = await page.evaluate((retryPoolStart) => new Promise((resolve) => {
      const stalls = [];
      const start = () => {
        const wk = new Worker('/pages/worker.mjs', { type: 'module' });
        const steps = [];
        const t0 = performance.now();
        let timer;
        const arm = () => { clearTimeout(timer); timer = setTimeout(stalled, 30000); };
        const stalled = () => {
          wk.terminate();
          stalls.push(steps.join('; ') || 'none');
          const inPoolStart = /createSampler\(\{ threads: 1 \}\) resolved \(\d+ ms\)$/.test(steps[steps.length - 1] || '');
          if (retryPoolStart && inPoolStart && stalls.length < 3) start();
          else resolve({ error: `no progress from the module worker for 30 s; its steps: ${stalls.join(' | then, started again: ')}` });
        };
        arm();
        wk.onmessage = (e) => {
          if (e.data.step) { steps.push(`${e.data.step} (${Math.round(performance.now() - t0)} ms)`); arm(); return; }
          clearTimeout(timer);
          resolve({ ...e.data, stalls });
          wk.terminate();
        };
        wk.onerror = (e) => { clearTimeout(timer); resolve({ error: `${e.message || 'worker error'}; its steps: ${steps.join('; ')}` }); };
      };
      start();
    }), ENGINE === 'firefox');
    assert.ok(!worker.error, worker.error);
    const { stalls } = worker;
    delete worker.stalls;
    for (const st of stalls) t.diagnostic(`${label}: the module worker stalled starting its pool (Firefox's nested new Worker(), see the comment) and was started again; its steps: ${st}`);
    assert.deepEqual(worker, { isolated: true, threads: expectSab ? 2 : 1, same: true, n: 3 * 450 * 600 });
    assert.deepEqual(await page.errors(), []);
    const mt = isolated.requests.filter(([, u]) => /osw-mt/.test(u));
    if (expectSab) {
      for (const f of ['osw-mt.mjs', 'osw-mt.wasm'])
        assert.ok(mt.some(([status, u]) => status === 200 && u.endsWith(f)), `${f} was fetched`);
    } else {
      assert.deepEqual(mt, [], 'without SharedArrayBuffer no file of the threaded build is requested');
    }
  } finally {
    await page.close();
  }
}

// run(b) in a WebKit started with JSC_useSharedArrayBuffer=1 (WebKitWebDriver passes its
// environment to MiniBrowser and its web process), closed after it.
async function inWebKitWithSab(run) {
  process.env.JSC_useSharedArrayBuffer = '1';
  const withSab = await openBrowser();
  delete process.env.JSC_useSharedArrayBuffer;
  try {
    await run(withSab);
  } finally {
    await withSab.close();
  }
}

test(`${LABEL}: a cross-origin isolated page runs createSampler({ threads: 4 }) on 4 threads, with the bytes of 1 thread` +
  (ENGINE === 'webkit' ? ' (WebKitGTK: on 1, it has no SharedArrayBuffer; on 4 with JSC_useSharedArrayBuffer=1)' : ''), async (t) => {
  if (ENGINE !== 'webkit') return isolatedPage(t, browser, true);
  await isolatedPage(t, browser, false);
  await inWebKitWithSab((b) => isolatedPage(t, b, true));
});

test(`${LABEL}: a page that is not cross-origin isolated runs createSampler({ threads: 4 }) on 1 thread, without errors, and never fetches the threaded build`, async (t) => {
  const { cases, wire: w } = payload();
  const page = await browser.newPage();
  try {
    await page.goto(plain.url + BLANK_PAGE);
    await page.evaluate(installPageWire);
    const res = await page.evaluate(pageRun, { cases: w, threads: 4 });
    assert.equal(res.isolated, false);
    assert.equal(res.threads, 1, 'sampler.threads');
    checkConformance(t, cases, res);
    for (const c of res.big) {
      assert.ok(!c.error, `${c.name}: ${c.error}`);
      assert.equal(c.same, true, c.name);
    }
    assert.deepEqual(await page.errors(), []);
    assert.deepEqual(plain.requests.filter(([, u]) => /osw-mt|osw-compat-mt/.test(u)), [], 'no file of the threaded build was requested');
    for (const c of res.compat) assert.ok(!c.error && c.same, `compat ${c.name}: ${c.error || 'other bytes'}`);
    t.diagnostic(`${LABEL}: not isolated (SharedArrayBuffer ${res.sab ? 'exists' : 'does not exist'}): threads ${res.threads}`);
  } finally {
    await page.close();
  }
});

async function refusedPage(t, b) {
  const page = await b.newPage();
  try {
    await page.goto(refused.url + BLANK_PAGE);
    const res = await page.evaluate(async () => {
      const { createSampler } = await import('/pkg/dist/browser.mjs');
      const out = { isolated: globalThis.crossOriginIsolated, sab: typeof SharedArrayBuffer };
      const t0 = performance.now();
      out.many = await Promise.race([
        createSampler({ threads: 4 }).then((s) => ({ threads: s.threads }), (e) => ({ error: `${e.constructor.name}: ${e.message}` })),
        new Promise((r) => setTimeout(() => r({ error: 'createSampler({ threads: 4 }) did not settle within 30 s' }), 30000)),
      ]);
      out.ms = Math.round(performance.now() - t0);
      const one = await createSampler({ threads: 1 });
      out.one = { threads: one.threads, y: Array.from(one.resize({ type: 'float32', dims: [2], data: new Float32Array([1, 3]) }, { scales: [2], mode: 'linear' }).data) };
      one.dispose();
      await new Promise((r) => setTimeout(r, 200));  // late errors of the dropped workers
      return out;
    });
    t.diagnostic(`${LABEL} ${b.version}: ${JSON.stringify(res)}`);
    assert.deepEqual(res.one, { threads: 1, y: [1, 1.5, 2.5, 3] });
    if (res.sab !== 'function') {
      // WebKitGTK: isolated without SharedArrayBuffer (see the top): one thread, no worker asked for
      assert.deepEqual(res.many, { threads: 1 });
    } else {
      assert.ok(res.many.error, `createSampler({ threads: 4 }) resolved (${JSON.stringify(res.many)}) although no worker may start`);
      assert.match(res.many.error, /^Error: onnx-sampling-wasm: a worker of the thread pool did not start \(http:\/\/127\.0\.0\.1:\d+\/pkg\/dist\/osw-mt\.mjs\): .*[^.]\. \(This was the threaded build, for createSampler\(\{ threads \}\): osw-mt\.wasm and, in browsers, osw-mt\.mjs go beside browser\.mjs; or ask for threads: 1\.\)$/);
    }
    // the browser's own report of the refusal is expected (Firefox's driver gives it as a page
    // error); any other error, e.g. an exception thrown from a handler of the pool, is not
    const errors = await page.errors();
    assert.deepEqual(errors.filter((e) => !/Content-Security-Policy|Content Security Policy|CSP violation/.test(e)), [], 'no error but the refusal');
  } finally {
    await page.close();
  }
}

test(`${LABEL}: a cross-origin isolated page whose Content-Security-Policy refuses workers gets one clear Error from createSampler({ threads: 4 }) instead of a wait forever; threads: 1 still works` +
  (ENGINE === 'webkit' ? ' (WebKitGTK: also with JSC_useSharedArrayBuffer=1)' : ''), async (t) => {
  await refusedPage(t, browser);
  if (ENGINE === 'webkit') await inWebKitWithSab((b) => refusedPage(t, b));
});

// The pool worker's side of the same contract: a worker of osw-mt.mjs whose load fails inside
// it (here: sent no compiled module to instantiate, which the glue itself would answer with
// 'loaded') reports it ({ cmd: 'oswFailed' }, which the page's loader turns into the
// rejection) instead of leaving the page waiting.
test(`${LABEL}: a pool worker whose load fails reports it to the page`, async (t) => {
  const page = await browser.newPage();
  try {
    await page.goto(isolated.url + BLANK_PAGE);
    const res = await page.evaluate(() => new Promise((resolve) => {
      if (typeof SharedArrayBuffer !== 'function') return resolve({ skipped: 'no SharedArrayBuffer' });
      const wk = new Worker('/pkg/dist/osw-mt.mjs', { type: 'module', name: 'osw-pthread' });
      const timer = setTimeout(() => resolve({ error: 'no report within 20 s' }), 20000);
      wk.onmessage = (e) => { clearTimeout(timer); wk.terminate(); resolve({ data: e.data }); };
      wk.onerror = (e) => { clearTimeout(timer); wk.terminate(); resolve({ error: `error event: ${e.message}` }); };
      const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
      wk.postMessage({ cmd: 'load', wasmMemory: memory, wasmModule: null });
    }));
    if (res.skipped) return t.diagnostic(`${LABEL}: ${res.skipped} in an isolated page (see above); nothing to load`);
    assert.ok(!res.error, res.error);
    assert.equal(res.data.cmd, 'oswFailed');
    assert.match(res.data.text, /WebAssembly\.Instance|Module/, 'the text says what failed');
    t.diagnostic(`${LABEL}: the worker reported: ${res.data.text}`);
    assert.deepEqual((await page.errors()).filter((e) => !/instantiateWasm|WebAssembly\.Instance/.test(e)), []);
  } finally {
    await page.close();
  }
});
