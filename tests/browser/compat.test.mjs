// compat.test.mjs: the compat modes 'pillow' and 'opencv' in the browser under test
// (OSW_BROWSER: Chromium, Firefox or WebKit), through the package's browser module:
//   - the default download stays the default: a sampler that never asks for a compat mode
//     fetches neither dist/compat.mjs nor dist/osw-compat.wasm, and a compat call before
//     sampler.loadCompat() throws an Error that says what to do;
//   - after loadCompat(), Pillow's and OpenCV's own results (tests/compat/oracle_*.py, run
//     here in Node with Debian's python3-pil / python3-opencv) are reproduced bit for bit on
//     uint8 and within 1e-6 / 1e-5 on float32, as in Node (tests/js/compat-libs.test.mjs);
//   - the worker API loads the module by itself on a compat call;
//   - resizeImage({ compat }) equals resize() on the same bytes.
// Without Pillow or OpenCV the oracle cases are skipped with the reason (never silently).
// The functions passed to page.evaluate use what the page's setup (below) puts on window:
/* global osw, sampler, b64, fetched */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BLANK_PAGE, ENGINES, currentEngine, openBrowser, packageDir, repoRoot, startStaticServer } from './helpers.mjs';

const LABEL = ENGINES[currentEngine()];
const PYTHON = '/usr/bin/python3';
let server, browser, page;
before(async () => {
  server = await startStaticServer([['/pkg/', packageDir()]], { errorHook: true });
  browser = await openBrowser();
  page = await browser.newPage();
  await page.goto(server.url + BLANK_PAGE);
  await page.evaluate(async () => {
    window.osw = await import('/pkg/dist/browser.mjs');
    window.sampler = await window.osw.createSampler();
    window.b64 = (s, dtype) => {
      const bin = atob(s), bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      return dtype === 'uint8' ? bytes : new Float32Array(bytes.buffer);
    };
    window.fetched = () => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop());
  });
});
after(async () => {
  await page?.close();
  await browser?.close();
  await server?.close();
});

test(`${LABEL}: no compat file is fetched until a sampler loads them; before, a compat call says how`, async () => {
  const r = await page.evaluate(() => {
    const x = { type: 'uint8', dims: [1, 4, 4, 3], data: new Uint8Array(48) };
    const plain = sampler.resize(x, { sizes: [2, 2], axes: [1, 2], mode: 'linear' }).dims;
    let error = null;
    try { sampler.resize(x, { sizes: [2, 2], axes: [1, 2], compat: 'pillow' }); } catch (e) { error = `${e.constructor.name}: ${e.message}`; }
    return { plain, error, fetched: fetched() };
  });
  assert.deepEqual(r.plain, [1, 2, 2, 3]);
  assert.match(r.error, /^Error: resize: compat 'pillow' runs in osw-compat\.wasm.*await sampler\.loadCompat\(\)/);
  assert.ok(!r.fetched.some((f) => /compat/.test(f)), `fetched before loadCompat: ${r.fetched.join(', ')}`);
  const after = await page.evaluate(async () => { await sampler.loadCompat(); return fetched(); });
  assert.ok(after.includes('compat.mjs') && after.includes('osw-compat.wasm'), `fetched by loadCompat: ${after.join(', ')}`);
  assert.deepEqual(await page.errors(), []);
});

for (const [lib, module, tol] of [['pillow', 'PIL', 1e-6], ['opencv', 'cv2', 1e-5]]) {
  const probe = spawnSync(PYTHON, ['-c', `import numpy, ${module}`], { encoding: 'utf8' });
  const skip = probe.status === 0 ? false : `${module} is not available to ${PYTHON}; install python3-${lib === 'pillow' ? 'pil' : 'opencv'}`;
  test(`${LABEL}: compat '${lib}' reproduces ${module} (uint8 bit for bit, float32 within ${tol})`, { skip }, async (t) => {
    const py = spawnSync(PYTHON, [join(repoRoot, 'tests', 'compat', `oracle_${lib}.py`), '--seed', '7', '--cases', '120'],
      { encoding: 'utf8', maxBuffer: 256 << 20 });
    assert.equal(py.status, 0, py.stderr);
    const cases = py.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    const r = await page.evaluate(async ({ lib, cases, tol }) => {
      await sampler.loadCompat();
      const MODES = { bilinear: 'linear', bicubic: 'cubic' };
      let bad = 0, values = 0;
      const first = [];
      for (const c of cases) {
        const [h, w, ch] = c.in;
        const mode = lib === 'pillow' ? MODES[c.filter] || c.filter : c.interp;
        // Pillow: 2- and 4-channel bytes without premultiplying are independent channels,
        // which the library resizes as planes (the Node test checks both forms).
        if (lib === 'pillow' && c.dtype === 'uint8' && (ch === 2 || ch === 4) && !c.premultiply) continue;
        const size = c.fx != null ? { scales: [c.fy, c.fx] } : { sizes: c.out };
        const y = sampler.resize({ type: c.dtype, dims: [1, h, w, ch], data: b64(c.x, c.dtype) }, { ...size, axes: [1, 2], compat: lib, mode }).data;
        const want = b64(c.y, c.dtype);
        values += want.length;
        let k = -1;
        for (let i = 0; i < want.length && k < 0; i++)
          if (c.dtype === 'uint8' ? y[i] !== want[i] : !(Math.abs(y[i] - want[i]) <= tol * Math.max(1, Math.abs(want[i])))) k = i;
        if (y.length !== want.length || k >= 0) {
          bad++;
          if (first.length < 5) first.push(`${c.dtype} ${c.in} -> ${c.out} ${mode}: at ${k}: ${y[k]}, expected ${want[k]}`);
        }
      }
      return { bad, values, first, n: cases.length };
    }, { lib, cases, tol });
    t.diagnostic(`${r.n} cases, ${r.values} values`);
    assert.equal(r.bad, 0, r.first.join('\n'));
    assert.deepEqual(await page.errors(), []);
  });
}

test(`${LABEL}: the worker API loads osw-compat.wasm on its first compat call; resizeImage({ compat })`, async () => {
  const r = await page.evaluate(async () => {
    const img = new ImageData(9, 7);
    for (let i = 0; i < img.data.length; i++) img.data[i] = (i * 37 + (i >> 2) * 11) & 255;
    const x = { type: 'uint8', dims: [1, 7, 9, 4], data: new Uint8Array(img.data) };
    const want = sampler.resize(x, { sizes: [4, 5], axes: [1, 2], compat: 'pillow', mode: 'lanczos' }).data;
    const byImage = sampler.resizeImage(img, { width: 5, height: 4, compat: 'pillow', mode: 'lanczos' });
    const w = await osw.createSampler({ worker: true, threads: 1 });
    try {
      const got = await w.resize(x, { sizes: [4, 5], axes: [1, 2], compat: 'pillow', mode: 'lanczos' });
      const cv = await w.resize(x, { sizes: [4, 5], axes: [1, 2], compat: 'opencv', mode: 'area' });
      let error = null;
      try { await w.resize(x, { sizes: [4, 5], axes: [1, 2], compat: 'opencv', mode: 'lanczos' }); } catch (e) { error = `${e.constructor.name}: ${e.message}`; }
      return {
        same: Array.from(got.data).join() === Array.from(want).join(),
        image: byImage instanceof ImageData && Array.from(byImage.data).join() === Array.from(want).join(),
        cv: Array.from(cv.data).join() === Array.from(sampler.resize(x, { sizes: [4, 5], axes: [1, 2], compat: 'opencv', mode: 'area' }).data).join(),
        error,
      };
    } finally {
      w.dispose();
    }
  });
  assert.ok(r.same, 'the worker sampler gives the synchronous bytes');
  assert.ok(r.image, 'resizeImage({ compat }) gives resize()\'s bytes');
  assert.ok(r.cv);
  assert.match(r.error, /^RangeError: mode: compat 'opencv' has no 'lanczos'/);
  assert.deepEqual(await page.errors(), []);
});

test(`${LABEL}: the preprocessing helpers give Node's bytes (after loadCompat; and in the worker API)`, async () => {
  const node = await (await import(pathToFileURL(join(packageDir(), 'dist', 'index.mjs')).href)).createSampler();
  const w = 23, h = 14, data = new Uint8ClampedArray(w * h * 4).map((_, i) => (i * 53 + (i >> 3) * 7) & 255);
  const img = { width: w, height: h, data };
  const want = {
    crop: Array.from(node.resizeCrop(img, { size: 9, crop: [7, 8] }).data),
    box: Array.from(node.letterbox(img, { width: 16, height: 16 }).image.data),
    warp: Array.from(node.warpImage(img, [[0.8, 0.3, 1], [-0.3, 0.8, 4]], { width: 20, height: 18 }).data),
  };
  node.dispose();
  const got = await page.evaluate(async ({ w, h, data }) => {
    const img = new ImageData(new Uint8ClampedArray(data), w, h);
    await sampler.loadCompat();
    const sync = {
      crop: Array.from(sampler.resizeCrop(img, { size: 9, crop: [7, 8] }).data),
      box: Array.from(sampler.letterbox(img, { width: 16, height: 16 }).image.data),
      warp: Array.from(sampler.warpImage(img, [[0.8, 0.3, 1], [-0.3, 0.8, 4]], { width: 20, height: 18 }).data),
    };
    const ws = await osw.createSampler({ worker: true, threads: 1 });
    try {
      const box = await ws.letterbox(img, { width: 16, height: 16 });
      return { sync, worker: Array.from(box.image.data) };
    } finally {
      ws.dispose();
    }
  }, { w, h, data: Array.from(data) });
  assert.deepEqual(got.sync, want);
  assert.deepEqual(got.worker, want.box);
  assert.deepEqual(await page.errors(), []);
});
