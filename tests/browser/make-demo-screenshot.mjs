// make-demo-screenshot.mjs: writes docs/demo.png for the README: two screenshots of the demo
// (a Resize, then a GridSample warp with the difference view), stacked, scaled down by the
// library's own resizeImage in the page, and written as a 256-colour PNG (median cut). Not a test; run by hand after changing the demo:
//
//   OSW_PACKAGE=<installed package> node tests/browser/make-demo-screenshot.mjs [out.png]
// (OSW_PACKAGE unset: the repo's dist/.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePng, launchBrowser, packageDir, repoRoot, startStaticServer } from './helpers.mjs';

const SCALE = Number(process.env.SCALE || 0.8);
const out = process.argv[2] || join(repoRoot, 'docs', 'demo.png');
const server = await startStaticServer([['/dist/', join(packageDir(), 'dist')], ['/', join(repoRoot, 'web')]]);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' });
  await page.goto(server.url + '/');
  await page.evaluate(() => window.__demo.ready);
  const settled = () => page.evaluate(() => window.__demo.settled());
  await settled();

  // 1. Resize: cubic, antialiased, to 0.6; the loupe on the zone plate.
  await page.fill('#scale', '0.6');
  await settled();
  await page.evaluate(() => { document.activeElement.blur(); window.__demo.setPosition(0.47, 0.16); });
  const clip = { x: 0, y: 0, width: 1360, height: 760 };
  const shot1 = await page.screenshot({ clip });

  // 2. GridSample: rotation, scale, shear and a swirl; difference against nearest.
  await page.check('#op-grid');
  await page.selectOption('#grid-mode', 'cubic');
  await page.selectOption('#padding-mode', 'reflection');
  await page.fill('#rotation', '25');
  await page.fill('#zoom', '0.8');
  await page.fill('#shear', '0.2');
  await page.selectOption('#distortion', 'swirl');
  await page.fill('#strength', '0.4');
  await page.check('#compare');
  await page.selectOption('#compare-with', 'mode:nearest');
  await settled();
  await page.evaluate(() => { document.activeElement.blur(); window.__demo.setPosition(0.55, 0.45); });
  const shot2 = await page.screenshot({ clip });

  // Stack, scale to SCALE with resizeImage (cubic, antialiased), encode as PNG in the page.
  const png = await page.evaluate(async ([a, b, scale]) => {
    const { createSampler } = await import('/dist/browser.mjs');
    const sampler = await createSampler();
    const bitmaps = await Promise.all([a, b].map((s) => createImageBitmap(new Blob([Uint8Array.from(atob(s), (c) => c.charCodeAt(0))], { type: 'image/png' }))));
    const w = bitmaps[0].width, h = bitmaps[0].height + bitmaps[1].height + 12;
    const c = new OffscreenCanvas(w, h);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#8a93a3';
    ctx.fillRect(0, 0, w, h);
    ctx.drawImage(bitmaps[0], 0, 0);
    ctx.drawImage(bitmaps[1], 0, bitmaps[0].height + 12);
    const small = sampler.resizeImage(c, { width: Math.round(w * scale), mode: 'cubic' });
    const d = small.data;
    let s = '';
    for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
    return { width: small.width, height: small.height, rgba: btoa(s) };
  }, [shot1.toString('base64'), shot2.toString('base64'), SCALE]);
  const buf = await encodePng(Buffer.from(png.rgba, 'base64'), png.width, png.height, { colors: Number(process.env.COLORS || 256) });
  writeFileSync(out, buf);
  console.log(`wrote ${out} (${(buf.length / 1024).toFixed(1)} KiB)`);
} finally {
  await browser.close();
  await server.close();
}
