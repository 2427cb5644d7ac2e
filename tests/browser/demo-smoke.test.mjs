// demo-smoke.test.mjs: the demo page (web/) in the browser under test (OSW_BROWSER:
// Chromium, Firefox or WebKit), served as `npm start` serves it with /dist/ from the package
// under test. It loads, runs the sample image, and with the settings of demo.test.mjs
// (a cubic antialiased Resize to 160 x 107; a cubic GridSample warp with reflection padding)
// the output canvas holds the pixels of the reference screenshots in tests/browser/ref/
// (max channel difference <= 3 on at least 99.5 % of the opaque pixels), with no page errors.
// The controls are set from the page (value + input/change events), which every engine
// can do; demo.test.mjs (Chromium) drives them as a user would and checks much more.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES, currentEngine, decodePngs, here, openBrowser, packageDir, repoRoot, startStaticServer } from './helpers.mjs';

const LABEL = ENGINES[currentEngine()];
const TOLERANCE = 3;
const MIN_FRACTION = 0.995;
let server, browser, page;
before(async () => {
  server = await startStaticServer([['/dist/', join(packageDir(), 'dist')], ['/', join(repoRoot, 'web')]], { errorHook: true });
  browser = await openBrowser();
  page = await browser.newPage({ width: 1400, height: 1000 });
});
after(async () => {
  await page?.close();
  await browser?.close();
  await server?.close();
});

// Sets controls by id ([id, value]: booleans check, anything else is the value) as the page
// would see a user do it, then waits until the run they start has finished.
const setControls = (settings) => page.evaluate(async (settings) => {
  for (const [id, v] of settings) {
    const el = document.getElementById(id);
    if (!el) throw new Error(`no control #${id}`);
    if (typeof v === 'boolean') el.checked = v; else el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return window.__demo.settled();
}, settings);

async function checkCanvasAgainstRef(t, name) {
  const got = await page.evaluate(() => {
    const c = document.getElementById('out-canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let s = '';
    for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
    return { width: c.width, height: c.height, data: btoa(s) };
  });
  const [want] = await decodePngs(page, [readFileSync(join(here, 'ref', `${name}.png`))]);
  assert.deepEqual([got.width, got.height], [want.width, want.height], `${name}: canvas and reference sizes`);
  // The reference is a screenshot (the canvas over the page): compare the opaque pixels.
  const own = Buffer.from(got.data, 'base64');
  let opaque = 0, within = 0, maxDiff = 0;
  for (let i = 0; i < own.length; i += 4) {
    if (own[i + 3] !== 255) continue;
    opaque++;
    const d = Math.max(Math.abs(own[i] - want.data[i]), Math.abs(own[i + 1] - want.data[i + 1]), Math.abs(own[i + 2] - want.data[i + 2]));
    if (d <= TOLERANCE) within++;
    maxDiff = Math.max(maxDiff, d);
  }
  const n = got.width * got.height;
  t.diagnostic(`${LABEL} ${name}: ${got.width} x ${got.height}, ${opaque} opaque pixels, max channel difference ${maxDiff}, ${(100 * within / opaque).toFixed(3)} % within ${TOLERANCE}`);
  assert.ok(opaque >= n / 2, `${name}: only ${opaque} of ${n} pixels are opaque`);
  assert.ok(within >= MIN_FRACTION * opaque,
    `${name}: only ${(100 * within / opaque).toFixed(3)} % of the opaque pixels within ${TOLERANCE} of the reference (max difference ${maxDiff})`);
}

test(`the demo loads and runs the sample image in ${LABEL}`, async (t) => {
  await page.goto(server.url + '/');
  await page.waitFor(() => Boolean(window.__demo && window.__demo.ready), undefined, 30_000);
  const first = await page.evaluate(async () => { await window.__demo.ready; return window.__demo.settled(); });
  t.diagnostic(`${LABEL} ${browser.version}: first run ${JSON.stringify(first.times)}`);
  assert.equal(first.error, undefined);
  assert.deepEqual([first.width, first.height], [192, 128], 'default: Resize, scale 0.5 of the 384 x 256 sample');
  const info = await page.evaluate(() => ({ status: document.body.dataset.status, image: document.getElementById('image-info').textContent }));
  assert.equal(info.status, 'done');
  assert.match(info.image, /sample\.png: 384 × 256/);
  const wasm = server.requests.filter(([, u]) => u.endsWith('.wasm'));
  assert.deepEqual(wasm, [[200, '/dist/osw.wasm']], 'the wasm came from the package under test');
});

test(`Resize from the controls gives the reference pixels in ${LABEL}`, async (t) => {
  const r = await setControls([['fit', false], ['resize-mode', 'cubic'], ['coord-mode', 'half_pixel'], ['antialias', true],
    ['size-by-size', true], ['out-width', 160]]);
  assert.equal(r.error, undefined);
  assert.deepEqual([r.width, r.height], [160, 107]);
  assert.equal(r.settings.resize.mode, 'cubic');
  await checkCanvasAgainstRef(t, 'resize');
});

test(`GridSample with a warp from the controls gives the reference pixels in ${LABEL}`, async (t) => {
  const r = await setControls([['op-grid', true], ['grid-mode', 'cubic'], ['padding-mode', 'reflection'], ['rotation', 25],
    ['zoom', 0.8], ['shear', 0.2], ['distortion', 'swirl'], ['strength', 0.4]]);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.settings.grid, {
    mode: 'cubic', paddingMode: 'reflection', alignCorners: false, rotation: 25, zoom: 0.8, shear: 0.2,
    distortion: 'swirl', strength: 0.4,
  });
  assert.deepEqual([r.width, r.height], [384, 256]);
  await checkCanvasAgainstRef(t, 'gridsample');
  assert.deepEqual(await page.errors(), []);
});
