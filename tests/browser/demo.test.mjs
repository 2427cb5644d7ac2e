// demo.test.mjs: the demo page (web/) served as `npm start` serves it, but with /dist/ taken
// from the package under test (OSW_PACKAGE/dist). Drives a Resize and a GridSample through
// the page's controls (select, check, fill, keyboard), then compares screenshots of the
// output canvas with the references in tests/browser/ref/ (max channel difference <= 3 on
// at least 99.5 % of the pixels). Also: the difference view, the loupe, the timing table,
// labels on every control, and loading an image by file picker and by drag and drop.
//
//   OSW_UPDATE_REFS=1 node --test tests/browser/demo.test.mjs    rewrites the references
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectErrors, compareImages, decodePngs, here, launchBrowser, packageDir, repoRoot, startStaticServer } from './helpers.mjs';

const REF_DIR = join(here, 'ref');
const UPDATE = process.env.OSW_UPDATE_REFS === '1';
const TOLERANCE = 3;
const MIN_FRACTION = 0.995;

let server, browser, page, errors;
before(async () => {
  server = await startStaticServer([['/dist/', join(packageDir(), 'dist')], ['/', join(repoRoot, 'web')]]);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1, colorScheme: 'light' });
  errors = collectErrors(page);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const settled = () => page.evaluate(() => window.__demo.settled());

async function checkAgainstRef(t, name) {
  // The canvas's own pixel grid: its box may sit at a fractional offset (Blink snaps the
  // pixels to the device grid), so clip at the rounded position with the canvas's size.
  const canvas = page.locator('#out-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const [w, h] = await canvas.evaluate((c) => [c.width, c.height]);
  const shot = await page.screenshot({ clip: { x: Math.round(box.x), y: Math.round(box.y), width: w, height: h }, animations: 'disabled' });
  // The screenshot is the canvas at 1:1: its opaque pixels equal the canvas's data.
  const [decoded] = await decodePngs(page, [shot]);
  const own = Buffer.from(await canvas.evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let s = '';
    for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
    return btoa(s);
  }), 'base64');
  let bad = 0, opaque = 0;
  for (let i = 0; i < own.length; i += 4) {
    if (own[i + 3] !== 255) continue;
    opaque++;
    const g = decoded.data;
    if (Math.max(Math.abs(own[i] - g[i]), Math.abs(own[i + 1] - g[i + 1]), Math.abs(own[i + 2] - g[i + 2])) > 1) bad++;
  }
  assert.ok(opaque > 0 && bad <= opaque * 0.001, `${name}: the screenshot is not the canvas at 1:1 (${bad} of ${opaque} opaque pixels differ)`);
  const file = join(REF_DIR, `${name}.png`);
  if (UPDATE) {
    mkdirSync(REF_DIR, { recursive: true });
    writeFileSync(file, shot);
    t.diagnostic(`wrote ${file} (${(shot.length / 1024).toFixed(1)} KiB)`);
    return;
  }
  assert.ok(existsSync(file), `${file} is missing: run with OSW_UPDATE_REFS=1 to create it`);
  const [want] = await decodePngs(page, [readFileSync(file)]);
  const got = decoded;
  const c = compareImages(got, want, TOLERANCE);
  t.diagnostic(`${name}: ${got.width} x ${got.height}, max channel difference ${c.maxDiff}, ${(100 * c.fractionWithin).toFixed(3)} % within ${TOLERANCE}`);
  assert.ok(c.sameSize, `${name}: screenshot ${got.width} x ${got.height}, reference ${want.width} x ${want.height}`);
  assert.ok(c.fractionWithin >= MIN_FRACTION,
    `${name}: only ${(100 * c.fractionWithin).toFixed(3)} % of pixels within ${TOLERANCE} of the reference (max difference ${c.maxDiff})`);
}

test('the demo loads, runs the sample image and labels every control', async (t) => {
  const t0 = Date.now();
  await page.goto(server.url + '/');
  await page.evaluate(() => window.__demo.ready);
  const first = await settled();
  t.diagnostic(`page ready with its first run in ${Date.now() - t0} ms: ${JSON.stringify(first.times)}`);
  assert.equal(first.error, undefined);
  assert.equal(await page.getAttribute('body', 'data-status'), 'done');
  assert.deepEqual([first.width, first.height], [192, 128], 'default: Resize, scale 0.5 of the 384 x 256 sample');
  assert.match(await page.textContent('#image-info'), /sample\.png: 384 × 256/);
  const unlabeled = await page.evaluate(() => [...document.querySelectorAll('input, select, button, canvas[tabindex]')]
    .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.textContent.trim())
    .map((el) => el.id || el.outerHTML.slice(0, 60)));
  assert.deepEqual(unlabeled, [], 'every control has a label');
  const wasm = server.requests.filter(([, u]) => u.endsWith('.wasm'));
  assert.deepEqual(wasm, [[200, '/dist/osw.wasm']], 'the wasm came from the package under test');
});

test('Resize from the controls matches the reference screenshot', async (t) => {
  await page.uncheck('#fit'); // show the output at 1:1 so the screenshot is its pixels
  await page.selectOption('#resize-mode', 'linear');
  await page.selectOption('#resize-mode', 'cubic');
  await page.selectOption('#coord-mode', 'half_pixel');
  await page.check('#antialias');
  await page.check('#size-by-size');
  await page.fill('#out-width', '160'); // keep aspect: height 107
  const r = await settled();
  assert.equal(r.error, undefined);
  assert.deepEqual([r.width, r.height], [160, 107]);
  assert.equal(await page.inputValue('#out-height'), '107');
  assert.equal(r.settings.resize.mode, 'cubic');
  assert.equal(r.times.length, 1);
  assert.match(r.times[0][0], /^resizeImage \(cubic\)$/);
  assert.match(await page.textContent('#status'), /^Resize: 384 × 256 → 160 × 107 in [\d.]+ ms$/);
  t.diagnostic(`resizeImage: ${r.times[0][1].toFixed(2)} ms`);
  await checkAgainstRef(t, 'resize');
});

test('GridSample with a warp from the controls matches the reference screenshot', async (t) => {
  await page.check('#op-grid');
  assert.equal(await page.isVisible('#grid-controls'), true);
  assert.equal(await page.isVisible('#resize-controls'), false);
  await page.selectOption('#grid-mode', 'cubic');
  await page.selectOption('#padding-mode', 'reflection');
  // the rotation slider: set to 20, then 5 steps of 1 degree by keyboard
  await page.fill('#rotation', '20');
  await page.focus('#rotation');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await page.fill('#zoom', '0.8');
  await page.fill('#shear', '0.2');
  await page.selectOption('#distortion', 'swirl');
  await page.fill('#strength', '0.4');
  const r = await settled();
  assert.equal(r.error, undefined);
  assert.equal(await page.textContent('#rotation-out'), '25');
  assert.deepEqual(r.settings.grid, {
    mode: 'cubic', paddingMode: 'reflection', alignCorners: false, rotation: 25, zoom: 0.8, shear: 0.2,
    distortion: 'swirl', strength: 0.4,
  });
  assert.deepEqual([r.width, r.height], [384, 256]);
  assert.deepEqual(r.times.map(([k]) => k), ['imageToTensor', 'build the grid (JS)', 'gridSample (cubic, reflection)', 'tensorToImageData']);
  t.diagnostic(`times: ${r.times.map(([k, ms]) => `${k} ${ms.toFixed(2)} ms`).join(', ')}`);
  await checkAgainstRef(t, 'gridsample');
});

test('the difference view, the loupe and the timing table', async () => {
  await page.check('#compare');
  await page.selectOption('#compare-with', 'mode:nearest');
  const r = await settled();
  assert.equal(await page.isVisible('#diff-figure'), true);
  assert.ok(r.diff.max > 0 && r.diff.differing > 0.1, `cubic vs nearest differ: ${JSON.stringify(r.diff)}`);
  assert.match(await page.textContent('#diff-label'), /vs mode nearest/);
  const rows = await page.$$eval('#timings tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].textContent)]));
  assert.equal(rows.length, 8, 'A and B: four calls each');
  assert.ok(rows.every(([, ms]) => ms >= 0 && Number.isFinite(ms)));
  assert.match(rows[6][0], /^B: gridSample \(nearest, reflection\)$/);
  // comparing a setting with itself shows no difference
  await page.selectOption('#compare-with', 'mode:cubic');
  const same = await settled();
  assert.deepEqual([same.diff.max, same.diff.differing], [0, 0]);
  // loupe: focus the output and move with the keyboard
  await page.focus('#out-canvas');
  await page.evaluate(() => window.__demo.setPosition(0, 0));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  assert.match(await page.textContent('#loupe-out-text'), /^output \(1, 10\) rgba \d+ \d+ \d+ \d+$/);
  await page.uncheck('#compare');
  await settled();
  assert.equal(await page.isVisible('#diff-figure'), false);
});

test('images load from the file picker and by drag and drop', async () => {
  const png = readFileSync(join(REF_DIR, 'resize.png'));
  await page.setInputFiles('#file', { name: 'picked.png', mimeType: 'image/png', buffer: png });
  await page.waitForFunction(() => /picked\.png/.test(document.getElementById('image-info').textContent));
  let r = await settled();
  assert.match(await page.textContent('#image-info'), /^picked\.png: 160 × 107$/);
  assert.deepEqual([r.width, r.height], [160, 107], 'GridSample keeps the size of the new input');

  const dt = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const d = new DataTransfer();
    d.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
    return d;
  }, readFileSync(join(repoRoot, 'web', 'sample.png')).toString('base64'));
  await page.dispatchEvent('#views', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('#views', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('#views', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => /dropped\.png/.test(document.getElementById('image-info').textContent));
  r = await settled();
  assert.match(await page.textContent('#image-info'), /^dropped\.png: 384 × 256$/);
  assert.deepEqual([r.width, r.height], [384, 256]);
  assert.equal(await page.evaluate(() => document.body.classList.contains('dragging')), false);
  assert.deepEqual(errors, []);
});
