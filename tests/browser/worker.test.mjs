// worker.test.mjs: createSampler({ worker: true }) in the browser under test (OSW_BROWSER),
// in a page that is NOT cross-origin isolated (no COOP/COEP headers): the package's
// browser.mjs loads worker-client.mjs only when a worker sampler is asked for, which starts
// worker.mjs as a module Worker; the worker's sampler has 1 thread there. In the page: every
// operator method gives the bytes of the synchronous sampler (also from an ImageData, an
// ImageBitmap and a <canvas> for the image helpers), bad calls reject with the sync
// sampler's class and message, calls in flight at once settle in order, transfer: true
// detaches the inputs, dispose() rejects calls in flight; no console error. Then a page
// served cross-origin isolated (COOP/COEP): createSampler({ worker: true, threads: 2 })
// computes on 2 threads where the engine gives the page SharedArrayBuffer (else 1), with
// the bytes of the page's 1-thread synchronous sampler.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BLANK_PAGE, ENGINES, ISOLATION_HEADERS, currentEngine, openBrowser, packageDir, startStaticServer } from './helpers.mjs';

const LABEL = ENGINES[currentEngine()];
let server, isolated, browser;
before(async () => {
  server = await startStaticServer([['/pkg/', packageDir()]], { errorHook: true });
  isolated = await startStaticServer([['/pkg/', packageDir()]], { errorHook: true, headers: ISOLATION_HEADERS });
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await isolated?.close();
});

// Runs in the page; returns a report the test checks.
async function inPage(url) {
  const report = { mismatches: [], errors: [], cases: 0, errorCases: 0 };
  try {
    const { createSampler } = await import(url);
    report.isolated = globalThis.crossOriginIsolated === true;
    const sync = await createSampler();
    const before = performance.getEntriesByType('resource').map((e) => e.name);
    report.clientBefore = before.some((n) => n.includes('worker-client.mjs'));
    const ws = await createSampler({ worker: true });
    report.threads = ws.threads;
    report.methods = Object.getOwnPropertyNames(ws).filter((k) => typeof ws[k] === 'function').sort();
    // (the sync sampler's bound methods: browser.mjs's minified private names must not be among them)
    report.syncMethods = Object.getOwnPropertyNames(sync).filter((k) => typeof sync[k] === 'function').sort();

    const bytes = (v) => {
      if (v === null || typeof v !== 'object') return v;
      if (ArrayBuffer.isView(v)) return [Object.prototype.toString.call(v), Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)).join(',')];
      if (Array.isArray(v)) return v.map(bytes);
      const o = {};
      for (const k of ['type', 'dims', 'data', 'width', 'height', 'colorSpace']) if (k in v) o[k] = bytes(v[k]);
      return o;
    };
    const same = async (name, call) => {
      report.cases++;
      let e1 = null, r1, e2 = null, r2;
      try { r1 = await call(sync); } catch (e) { e1 = e; }
      try { r2 = await call(ws); } catch (e) { e2 = e; }
      if (e1 || e2) {
        report.errorCases++;
        if (!e1 || !e2 || e1.constructor !== e2.constructor || e1.message !== e2.message)
          report.mismatches.push(`${name}: sync ${e1 && `${e1.constructor.name}: ${e1.message}`}, worker ${e2 && `${e2.constructor.name}: ${e2.message}`}`);
        return;
      }
      const a = JSON.stringify(bytes(r1)), b = JSON.stringify(bytes(r2));
      if (a !== b) report.mismatches.push(`${name}: results differ ${a.slice(0, 200)} vs ${b.slice(0, 200)}`);
    };

    // seeded values
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
    const T = (type, dims, A) => ({ type, dims, data: A.from({ length: dims.reduce((a, b) => a * b, 1) }, () => (A === Float32Array || A === Float64Array ? rnd() * 8 - 4 : Math.floor(rnd() * 200))) });
    for (const [type, A] of [['float32', Float32Array], ['uint8', Uint8Array], ['float64', Float64Array], ['int32', Int32Array]]) {
      for (const mode of ['nearest', 'linear', 'cubic']) {
        const x = T(type, [1, 2, 5, 7], A);
        await same(`resize ${type} ${mode}`, (s) => s.resize(x, { scales: [1, 1, 1.5, 0.5], mode, antialias: true }));
        const grid = { type: 'float32', dims: [1, 3, 4, 2], data: Float32Array.from({ length: 24 }, () => rnd() * 2.4 - 1.2) };
        await same(`gridSample ${type} ${mode}`, (s) => s.gridSample(x, grid, { mode, paddingMode: 'reflection' }));
      }
    }
    const x = T('float32', [1, 1, 3, 3], Float32Array);
    await same('upsample', (s) => s.upsample(x, { scales: [1, 1, 2, 3] }));
    await same('affineGrid', (s) => s.affineGrid({ type: 'float32', dims: [1, 2, 3], data: new Float32Array([1, 0.1, 0, 0.2, 1, 0.3]) }, [1, 1, 3, 4]));
    await same('run Resize-11', (s) => s.run({ opType: 'Resize', opset: 11, attributes: { mode: 'cubic' } }, [x, { type: 'float32', dims: [0], data: new Float32Array(0) }, { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) }]));
    for (const [name, into] of [['resizeInto', (s, out) => s.resizeInto(x, out, { sizes: [1, 1, 4, 5] })], ['gridSampleInto', (s, out) => s.gridSampleInto(x, { type: 'float32', dims: [1, 4, 5, 2], data: new Float32Array(40).fill(0.3) }, out)]]) {
      await same(name, async (s) => {
        const out = { type: 'float32', dims: [1, 1, 4, 5], data: new Float32Array(20) };
        const y = await into(s, out);
        if (y !== out) throw new Error(`${name} did not return the caller's output`);
        return out;
      });
    }
    // images: ImageData, an ImageBitmap, a <canvas>
    const w = 13, h = 7, px = new Uint8ClampedArray(4 * w * h).map(() => Math.floor(rnd() * 256));
    const img = new ImageData(px, w, h);
    const canvas = document.createElement('canvas');
    canvas.width = w; canvas.height = h;
    canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(4 * w * h).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) % 256)), w, h), 0, 0);
    const bitmap = await createImageBitmap(canvas);
    await same('resizeImage ImageData', (s) => s.resizeImage(img, { width: 29, mode: 'cubic' }));
    await same('resizeImage canvas', (s) => s.resizeImage(canvas, { scale: 0.5 }));
    await same('resizeImage ImageBitmap', (s) => s.resizeImage(bitmap, { height: 20, linearLight: true }));
    await same('imageToTensor canvas', (s) => s.imageToTensor(canvas, { mean: [1, 2, 3], std: [3, 2, 1] }));
    await same('imageToTensor ImageBitmap', (s) => s.imageToTensor(bitmap, { layout: 'nhwc' }));
    await same('tensorToImageData', (s) => s.tensorToImageData({ type: 'float32', dims: [1, 3, 2, 2], data: new Float32Array([0, 50, 100, 300, -4, 3, 9, 250, 1, 2, 3, 4]) }));
    const unloaded = new Image();
    await same('resizeImage <img> not loaded', (s) => s.resizeImage(unloaded, { width: 2 }));
    // errors
    await same('bad x', (s) => s.resize(5, { scales: [2] }));
    await same('bad mode', (s) => s.resize(x, { scales: [1, 1, 2, 2], mode: () => 1 }));
    await same('bad symbol', (s) => s.resize({ ...x, type: Symbol('t') }, { scales: [1, 1, 2, 2] }));
    await same('bad dims', (s) => s.resize({ ...x, dims: [1, 1, 3, 4] }, { scales: [1, 1, 2, 2] }));
    await same('bad grid', (s) => s.gridSample(x, { type: 'int32', dims: [1, 1, 1, 2], data: new Int32Array(2) }));
    await same('bad option', (s) => s.gridSample(x, x, { padding: 'zeros' }));
    await same('bad node', (s) => s.run({ opType: 'Resize', opset: 1 }, [x]));
    await same('bad image', (s) => s.resizeImage({ width: 2, height: 2, data: new Uint8ClampedArray(3) }, { width: 3 }));
    await same('bad output', (s) => s.resizeInto(x, { type: 'float32', dims: [1], data: new Float32Array(1) }, { scales: [1, 1, 2, 2] }));

    // calls in flight at once, errors mixed in: settled in call order with the right values
    const order = [];
    const calls = Array.from({ length: 12 }, (_, i) => (i % 4 === 2
      ? ws.resize(x, { scales: [1, 1, 2, 2], mode: 'quadratic' })
      : ws.resize(x, { sizes: [1, 1, 3 + i, 4] })).then((y) => { order.push(i); return y.dims[2]; }, (e) => { order.push(i); return e.constructor.name; }));
    report.concurrent = await Promise.all(calls);
    report.order = order;

    // transfer: the caller's arrays are detached, the result is right
    const t = await createSampler({ worker: true, transfer: true });
    const xt = { type: 'float32', dims: [1, 1, 3, 3], data: x.data.slice() };
    const p = t.resize(xt, { scales: [1, 1, 2, 2] });
    report.detached = xt.data.length === 0;
    report.transferRight = JSON.stringify(bytes(await p)) === JSON.stringify(bytes(sync.resize(x, { scales: [1, 1, 2, 2] })));
    // dispose with a call in flight
    const big = { type: 'float32', dims: [1, 1, 600, 600], data: new Float32Array(360000) };
    const inFlight = t.resize(big, { scales: [1, 1, 2, 2], mode: 'cubic' });
    t.dispose();
    report.inFlight = await inFlight.then(() => 'resolved', (e) => `${e.constructor.name}: ${e.message}`);
    report.afterDispose = await t.resize(x, { scales: [1, 1, 2, 2] }).then(() => 'resolved', (e) => `${e.constructor.name}: ${e.message}`);
    ws.dispose();
  } catch (e) {
    report.failure = String(e && e.stack || e);
  }
  return report;
}

test(`${LABEL}: the worker API in a page without cross-origin isolation: 1 thread, the sync API's results and errors`, async (t) => {
  const page = await browser.newPage();
  await page.goto(server.url + BLANK_PAGE);
  const r = await page.evaluate(inPage, `${server.url}/pkg/dist/browser.mjs`);
  assert.equal(r.failure, undefined, r.failure);
  t.diagnostic(`${LABEL} ${browser.version}: ${r.cases} calls compared (${r.errorCases} errors), threads ${r.threads}`);
  assert.equal(r.isolated, false, 'the page is not cross-origin isolated');
  assert.equal(r.threads, 1);
  assert.equal(r.clientBefore, false, 'worker-client.mjs is not loaded before a worker sampler is asked for');
  assert.deepEqual(r.methods, ['affineGrid', 'dispose', 'gridSample', 'gridSampleInto', 'imageToTensor', 'letterbox', 'loadCompat', 'resize', 'resizeCrop', 'resizeImage', 'resizeInto', 'run', 'runInto', 'tensorToImageData', 'upsample', 'upsampleInto', 'warpImage']);
  // the sync sampler binds the same methods and tensor(), and nothing else (its private ones,
  // whose names the minifier shortened, stay on its prototype chain)
  assert.deepEqual(r.syncMethods, [...r.methods, 'tensor'].sort());
  assert.deepEqual(r.mismatches, []);
  assert.ok(r.cases >= 40 && r.errorCases >= 10, `${r.cases} cases, ${r.errorCases} errors`);
  assert.deepEqual(r.concurrent, [3, 4, 'RangeError', 6, 7, 8, 'RangeError', 10, 11, 12, 'RangeError', 14]);
  assert.deepEqual(r.order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  assert.equal(r.detached, true, 'transfer: true detaches the input array');
  assert.equal(r.transferRight, true);
  assert.match(r.inFlight, /^Error: sampler: the sampler was disposed \(sampler\.dispose\(\)\) while this call was in flight/);
  assert.equal(r.afterDispose, 'Error: sampler: its sampler was disposed (sampler.dispose()); create a new one with createSampler()');
  const paths = server.requests.map(([s, u]) => `${s} ${u}`);
  for (const f of ['worker-client.mjs', 'worker.mjs']) assert.ok(paths.includes(`200 /pkg/dist/${f}`), `${f} was fetched: ${paths.join(', ')}`);
  assert.deepEqual(await page.errors(), []);
  assert.deepEqual(await page.evaluate(() => window.__oswErrors), []);
  await page.close();
});

// Firefox sometimes never returned from the worker's `new Worker()` of its pool (a full run
// in session 7 hung here until the driver's 180 s timeout). The client now ends such a worker
// and starts another (bindings/worker-client.js; tests/js/worker-restart.test.mjs), so this
// test does not retry: the page gives up after 60 s and says at which stage it was.
test(`${LABEL}: in a cross-origin isolated page, a worker sampler with threads: 2 uses them, with the bytes of one thread`, async (t) => {
  const page = await browser.newPage();
  await page.goto(isolated.url + BLANK_PAGE);
  const r = await isolatedWorkerRun(page);
  assert.equal(r.hung, undefined, `the isolated page hung for 60 s at stage '${r.hung}'`);
  assert.equal(r.failure, undefined, r.failure);
  t.diagnostic(`${LABEL}: isolated ${r.isolated}, SharedArrayBuffer ${r.sab}, worker sampler threads ${r.threads}`);
  assert.equal(r.isolated, true);
  assert.equal(r.threads, r.sab ? 2 : 1, 'two threads where the page has shared memory');
  assert.deepEqual(r.same, [true, true, true]);
  assert.deepEqual(await page.errors(), []);
  assert.deepEqual(await page.evaluate(() => window.__oswErrors), []);
  await page.close();
});

function isolatedWorkerRun(page) {
  return page.evaluate(async (url) => {
    window.__stage = 'start';
    const watchdog = new Promise((resolve) => setTimeout(() => resolve({ hung: window.__stage }), 60000));
    return Promise.race([watchdog, (async () => {
    try {
      window.__stage = 'import';
      const { createSampler } = await import(url);
      window.__stage = 'createSampler()';
      const sync = await createSampler();
      window.__stage = 'createSampler({ worker: true, threads: 2 })';
      const ws = await createSampler({ worker: true, threads: 2 });
      let seed = 3;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
      const x = { type: 'float32', dims: [1, 3, 160, 200], data: Float32Array.from({ length: 96000 }, rnd) };
      const px = { type: 'uint8', dims: [1, 270, 480, 4], data: Uint8Array.from({ length: 518400 }, () => Math.floor(rnd() * 256)) };
      const g = { type: 'float32', dims: [1, 120, 150, 2], data: Float32Array.from({ length: 36000 }, () => rnd() * 2.2 - 1.1) };
      const calls = [
        (s) => s.resize(x, { scales: [1, 1, 2, 2], mode: 'cubic' }),
        (s) => s.resize(px, { sizes: [540, 960], axes: [1, 2], mode: 'linear' }),
        (s) => s.gridSample(x, g, { mode: 'linear', paddingMode: 'border' }),
      ];
      const same = [];
      for (const [i, c] of calls.entries()) {
        window.__stage = `call ${i}`;
        const a = c(sync), b = await c(ws);
        same.push(a.data.length === b.data.length && a.data.every((v, i) => Object.is(v, b.data[i])) && a.dims.join() === b.dims.join());
      }
      const out = { isolated: globalThis.crossOriginIsolated, sab: typeof SharedArrayBuffer === 'function', threads: ws.threads, syncThreads: sync.threads, same };
      ws.dispose();
      return out;
    } catch (e) {
      return { failure: String(e && e.stack || e) };
    }
    })()]);
  }, `${isolated.url}/pkg/dist/browser.mjs`);
}
