// image-helpers.test.mjs: sampler.imageToTensor / tensorToImageData / resizeImage, run in
// the browser under test (OSW_BROWSER: Chromium, Firefox or WebKit) through the packed
// package's browser module (and, in the Chromium run, once in Node, where ImageData does
// not exist): premultiplied resizing leaves no dark fringe at transparent edges,
// linear light averages light, NCHW normalisation round-trips, every browser image source
// reads the same pixels, and bad arguments throw TypeError / RangeError naming the argument.
// The functions passed to page.evaluate use what the page's setup (below) puts on window:
/* global sampler, half, disc, noise, visibleStats */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { BLANK_PAGE, currentEngine, openBrowser, packageDir, startStaticServer } from './helpers.mjs';

let server, browser, page;
before(async () => {
  server = await startStaticServer([['/pkg/', packageDir()]], { errorHook: true });
  browser = await openBrowser();
  page = await browser.newPage();
  await page.goto(server.url + BLANK_PAGE);
  await page.evaluate(async () => {
    const { createSampler } = await import('/pkg/dist/browser.mjs');
    window.sampler = await createSampler();
    // Test images. half(): opaque colour on the left half, transparent black on the right.
    window.half = (w, h, rgb) => {
      const d = new Uint8ClampedArray(w * h * 4);
      for (let y = 0; y < h; y++) for (let x = 0; x < w / 2; x++) d.set([...rgb, 255], 4 * (y * w + x));
      return new ImageData(d, w, h);
    };
    // disc(): an opaque disc of colour rgb on a transparent black square
    window.disc = (n, rgb) => {
      const d = new Uint8ClampedArray(n * n * 4);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++)
        if (Math.hypot(x + 0.5 - n / 2, y + 0.5 - n / 2) < n / 3) d.set([...rgb, 255], 4 * (y * n + x));
      return new ImageData(d, n, n);
    };
    // random opaque pixels from a fixed LCG
    window.noise = (w, h, seed = 1) => {
      const d = new Uint8ClampedArray(w * h * 4);
      let s = seed;
      for (let i = 0; i < d.length; i++) { s = (s * 1664525 + 1013904223) >>> 0; d[i] = i % 4 === 3 ? 255 : s >>> 24; }
      return new ImageData(d, w, h);
    };
    // colour statistics over the pixels with alpha > 0
    window.visibleStats = (img) => {
      let minC = 255, minR = 255, maxOther = 0, n = 0, partial = 0;
      const d = img.data;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] === 0) continue;
        n++;
        if (d[i + 3] < 255) partial++;
        minC = Math.min(minC, d[i], d[i + 1], d[i + 2]);
        minR = Math.min(minR, d[i]);
        maxOther = Math.max(maxOther, d[i + 1], d[i + 2]);
      }
      return { minC, minR, maxOther, n, partial };
    };
  });
});
after(async () => {
  await page?.close();
  await browser?.close();
  await server?.close();
});

test('premultiplied resize of an image with transparency: no dark fringe', async (t) => {
  const r = await page.evaluate(() => {
    const out = {};
    const img = half(64, 16, [255, 255, 255]);
    for (const mode of ['linear', 'cubic']) {
      for (const [name, opts] of [['down', { width: 20, height: 5 }], ['up', { scale: 3 }], ['odd', { width: 47, height: 11 }]]) {
        for (const premultiply of [true, false]) {
          const y = sampler.resizeImage(img, { ...opts, mode, premultiply });
          out[`${mode} ${name} premultiply=${premultiply}`] = { ...visibleStats(y), w: y.width, h: y.height, isImageData: y instanceof ImageData };
        }
      }
    }
    // a red disc on transparent black, shrunk and enlarged: partially covered pixels stay red
    const red = disc(40, [255, 0, 0]);
    out['red down'] = visibleStats(sampler.resizeImage(red, { width: 13 }));
    out['red up cubic'] = visibleStats(sampler.resizeImage(red, { width: 97, mode: 'cubic' }));
    out['red down linearLight'] = visibleStats(sampler.resizeImage(red, { width: 13, linearLight: true }));
    out['red down no premultiply'] = visibleStats(sampler.resizeImage(red, { width: 13, premultiply: false }));
    return out;
  });
  for (const [k, s] of Object.entries(r)) t.diagnostic(`${k}: ${JSON.stringify(s)}`);
  for (const mode of ['linear', 'cubic']) {
    for (const name of ['down', 'up', 'odd']) {
      const p = r[`${mode} ${name} premultiply=true`];
      assert.ok(p.isImageData, 'resizeImage returns an ImageData in the browser');
      assert.ok(p.partial > 0, `${mode} ${name}: there are partially transparent edge pixels`);
      assert.ok(p.minC >= 254, `${mode} ${name}: premultiplied, visible pixels stay white (min channel ${p.minC})`);
      const n = r[`${mode} ${name} premultiply=false`];
      assert.ok(n.minC < 200, `${mode} ${name}: without premultiply the edge darkens (min channel ${n.minC}), so the check means something`);
    }
  }
  assert.deepEqual([r['linear down premultiply=true'].w, r['linear down premultiply=true'].h], [20, 5]);
  assert.deepEqual([r['linear up premultiply=true'].w, r['linear up premultiply=true'].h], [192, 48]);
  for (const k of ['red down', 'red up cubic', 'red down linearLight']) {
    assert.ok(r[k].partial > 0, `${k}: has partially transparent pixels`);
    assert.ok(r[k].maxOther <= 1, `${k}: no green/blue creeps in (max ${r[k].maxOther})`);
    assert.ok(r[k].minR >= 254, `${k}: edge pixels stay fully red (min R ${r[k].minR})`);
  }
  const np = r['red down no premultiply'];
  assert.ok(np.minR < 200, `without premultiply the red edge darkens (min R ${np.minR})`);
});

test('resizeImage: linear light, sizes, scale, nearest and agreement with resize()', async () => {
  const r = await page.evaluate(() => {
    // 1-px black/white checkerboard, halved: the average is 50 % linear light = sRGB 188
    const n = 32, d = new Uint8ClampedArray(n * n * 4);
    for (let i = 0; i < n * n; i++) { const v = ((i % n) + Math.floor(i / n)) % 2 ? 255 : 0; d.set([v, v, v, 255], 4 * i); }
    const cb = new ImageData(d, n, n);
    const at = 4 * (8 * 16 + 8); // an inner pixel: at the border the clamped taps weigh one colour more
    const srgbMean = sampler.resizeImage(cb, { width: 16 }).data[at];
    const linMean = sampler.resizeImage(cb, { width: 16, linearLight: true }).data[at];
    // linear light on its own is lossless for every byte value (sRGB -> linear -> sRGB)
    const ramp = new Uint8ClampedArray(256 * 4);
    for (let v = 0; v < 256; v++) ramp.set([v, 255 - v, v, 255], 4 * v);
    const same = sampler.resizeImage(new ImageData(ramp, 256, 1), { width: 256, height: 1, mode: 'nearest', linearLight: true });
    const rampExact = same.data.every((v, i) => v === ramp[i]);
    // one of width / height keeps the aspect ratio; scale follows floor(len * scale)
    const img = noise(30, 20);
    const a = sampler.resizeImage(img, { width: 45 });
    const b = sampler.resizeImage(img, { height: 7 });
    const c = sampler.resizeImage(img, { scale: [0.5, 1.5] });
    // an opaque image: resizeImage equals imageToTensor -> resize -> tensorToImageData
    const x = sampler.imageToTensor(img, { channels: 4 });
    const y = sampler.resize(x, { sizes: [1, 4, 13, 17], mode: 'cubic', antialias: true });
    const viaTensor = sampler.tensorToImageData(y);
    const direct = sampler.resizeImage(img, { width: 17, height: 13, mode: 'cubic' });
    let maxDiff = 0;
    for (let i = 0; i < direct.data.length; i++) maxDiff = Math.max(maxDiff, Math.abs(direct.data[i] - viaTensor.data[i]));
    // nearest: every output pixel is an input pixel
    const nn = sampler.resizeImage(img, { scale: 2, mode: 'nearest' });
    const nnOk = nn.data[0] === img.data[0] && nn.data[4 * (2 * 60 + 3)] === img.data[4 * (30 + 1)];
    return { srgbMean, linMean, rampExact, a: [a.width, a.height], b: [b.width, b.height], c: [c.width, c.height], maxDiff, nnOk };
  });
  assert.ok(Math.abs(r.srgbMean - 128) <= 1, `sRGB average of black and white: ${r.srgbMean}`);
  assert.ok(Math.abs(r.linMean - 188) <= 1, `linear-light average of black and white: ${r.linMean}`);
  assert.ok(r.rampExact, 'sRGB -> linear -> sRGB returns every byte value');
  assert.deepEqual(r.a, [45, 30]);
  assert.deepEqual(r.b, [11, 7]);
  assert.deepEqual(r.c, [45, 10]);
  assert.ok(r.maxDiff <= 1, `resizeImage vs resize on the tensor: max difference ${r.maxDiff}`);
  assert.ok(r.nnOk, 'nearest copies pixels');
});

test('imageToTensor -> tensorToImageData: NCHW normalisation round trip', async (t) => {
  const r = await page.evaluate(() => {
    const mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225];
    const img = noise(37, 23, 7);
    const x = sampler.imageToTensor(img, { scale: 1 / 255, mean, std });
    // every element against the formula, computed here in double and rounded to float32
    let maxErr = 0, badIndex = -1;
    const n = 37 * 23;
    for (let c = 0; c < 3; c++) for (let i = 0; i < n; i++) {
      const want = Math.fround((img.data[4 * i + c] * (1 / 255) - mean[c]) / std[c]);
      const e = Math.abs(x.data[c * n + i] - want);
      if (e > maxErr) { maxErr = e; badIndex = c * n + i; }
    }
    const back = sampler.tensorToImageData(x, { scale: 1 / 255, mean, std });
    let rgbSame = true, alpha255 = true;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) if (back.data[4 * i + c] !== img.data[4 * i + c]) rgbSame = false;
      if (back.data[4 * i + 3] !== 255) alpha255 = false;
    }
    // NHWC uint8 RGBA is the bytes as they are, both ways
    const u = sampler.imageToTensor(img, { layout: 'nhwc', channels: 4 });
    const uBack = sampler.tensorToImageData(u, { layout: 'nhwc' });
    // NCHW RGBA with premultiply, round trip (alpha 255 here: exact)
    const p = sampler.imageToTensor(img, { channels: 4, premultiply: true });
    const pBack = sampler.tensorToImageData(p, { premultiply: true });
    // 1-channel tensors become grey; float64 is accepted; rank 3 (C, H, W) too
    const grey = sampler.tensorToImageData({ type: 'float64', dims: [1, 2, 2], data: new Float64Array([0, 100.5, 255.7, -3]) });
    return {
      dims: x.dims, type: x.type, ctor: x.data.constructor.name, maxErr, badIndex, rgbSame, alpha255,
      u: { type: u.type, dims: u.dims, ctor: u.data.constructor.name, same: u.data.every((v, i) => v === img.data[i]) },
      uBackSame: uBack.data.every((v, i) => v === img.data[i]),
      pSame: pBack.data.every((v, i) => v === img.data[i]),
      grey: Array.from(grey.data), greyIsImageData: grey instanceof ImageData,
    };
  });
  t.diagnostic(`max |tensor - formula| = ${r.maxErr}`);
  assert.deepEqual(r.dims, [1, 3, 23, 37]);
  assert.equal(r.type, 'float32');
  assert.equal(r.ctor, 'Float32Array');
  assert.equal(r.maxErr, 0, `element ${r.badIndex} differs from (x * scale - mean) / std`);
  assert.ok(r.rgbSame, 'RGB survives the round trip exactly');
  assert.ok(r.alpha255, 'a 3-channel tensor gives opaque pixels');
  assert.deepEqual(r.u, { type: 'uint8', dims: [1, 23, 37, 4], ctor: 'Uint8Array', same: true });
  assert.ok(r.uBackSame);
  assert.ok(r.pSame);
  assert.deepEqual(r.grey, [0, 0, 0, 255, 100, 100, 100, 255, 255, 255, 255, 255, 0, 0, 0, 255], 'rounded half to even, clamped');
  assert.ok(r.greyIsImageData);
});

test('imageToTensor reads ImageBitmap, canvas, OffscreenCanvas and <img> alike', async () => {
  const r = await page.evaluate(async () => {
    const img = noise(24, 16, 3);
    const canvas = document.createElement('canvas');
    canvas.width = 24; canvas.height = 16;
    canvas.getContext('2d').putImageData(img, 0, 0);
    const off = new OffscreenCanvas(24, 16);
    off.getContext('2d').putImageData(img, 0, 0);
    const bitmap = await createImageBitmap(img);
    const el = new Image();
    el.src = canvas.toDataURL('image/png');
    await el.decode();
    const ref = Array.from(sampler.imageToTensor(img).data);
    const same = {};
    for (const [name, src] of Object.entries({ canvas, off, bitmap, el }))
      same[name] = Array.from(sampler.imageToTensor(src).data).every((v, i) => v === ref[i]);
    // resizeImage takes them too
    const fromCanvas = sampler.resizeImage(canvas, { width: 12 });
    let notLoaded = '';
    try { sampler.imageToTensor(new Image()); } catch (e) { notLoaded = `${e.name}: ${e.message}`; }
    return { same, size: [fromCanvas.width, fromCanvas.height], notLoaded };
  });
  assert.deepEqual(r.same, { canvas: true, off: true, bitmap: true, el: true });
  assert.deepEqual(r.size, [12, 8]);
  assert.match(r.notLoaded, /^RangeError: image: the <img> has not finished loading/);
});

test('bad arguments throw TypeError / RangeError naming the argument', async () => {
  const r = await page.evaluate(() => {
    const img = noise(4, 4);
    const tries = {
      noImage: () => sampler.imageToTensor(null),
      string: () => sampler.imageToTensor('pixels.png'),
      shortData: () => sampler.imageToTensor({ width: 4, height: 4, data: new Uint8ClampedArray(10) }),
      floatData: () => sampler.imageToTensor({ width: 1, height: 1, data: new Float32Array(4) }),
      layout: () => sampler.imageToTensor(img, { layout: 'nwhc' }),
      channels: () => sampler.imageToTensor(img, { channels: 2 }),
      meanLength: () => sampler.imageToTensor(img, { mean: [1, 2] }),
      stdZero: () => sampler.imageToTensor(img, { std: [1, 0, 1] }),
      uint8Norm: () => sampler.imageToTensor(img, { type: 'uint8', scale: 1 / 255 }),
      unknownOption: () => sampler.imageToTensor(img, { chanels: 4 }),
      tensorType: () => sampler.tensorToImageData({ type: 'int64', dims: [1, 1, 1, 1], data: new BigInt64Array(1) }),
      tensorChannels: () => sampler.tensorToImageData({ type: 'float32', dims: [1, 2, 1, 1], data: new Float32Array(2) }),
      tensorBatch: () => sampler.tensorToImageData({ type: 'float32', dims: [2, 3, 1, 1], data: new Float32Array(6) }),
      notTensor: () => sampler.tensorToImageData(img),
      noOptions: () => sampler.resizeImage(img),
      noSize: () => sampler.resizeImage(img, { mode: 'linear' }),
      sizeAndScale: () => sampler.resizeImage(img, { width: 2, scale: 2 }),
      zeroWidth: () => sampler.resizeImage(img, { width: 0 }),
      mode: () => sampler.resizeImage(img, { width: 2, mode: 'bicubic' }),
      antialias: () => sampler.resizeImage(img, { width: 2, antialias: 'yes' }),
      coord: () => sampler.resizeImage(img, { width: 2, coordinateTransformationMode: 'half-pixel' }),
    };
    const out = {};
    for (const [k, f] of Object.entries(tries)) {
      try { f(); out[k] = 'no error'; } catch (e) { out[k] = `${e.name}: ${e.message}`; }
    }
    out.stillWorks = sampler.resizeImage(img, { width: 2 }).width;
    return out;
  });
  const expect = {
    noImage: /^TypeError: image: expected ImageData/,
    string: /^TypeError: image: expected ImageData.*got the string "pixels.png"/,
    shortData: /^RangeError: image: 4 x 4 pixels need 64 bytes \(RGBA\) or 48 \(RGB\) but data has 10/,
    floatData: /^TypeError: image\.data: expected RGBA or RGB bytes/,
    layout: /^RangeError: layout: unknown value 'nwhc'; expected one of 'nchw', 'nhwc'/,
    channels: /^RangeError: channels: expected 1 \(gray\), 3 \(RGB, or BGR with order 'bgr'\) or 4 \(RGBA\), got 2/,
    meanLength: /^RangeError: mean: expected 3 values/,
    stdZero: /^RangeError: std\[1\]: must not be 0/,
    uint8Norm: /^RangeError: type: 'uint8' tensors/,
    unknownOption: /^RangeError: imageToTensor: unknown option 'chanels' \(did you mean 'channels'\?\)/,
    tensorType: /^TypeError: tensor\.type: expected 'float32', 'float64', 'uint8'/,
    tensorChannels: /^RangeError: tensor: expected 1, 3 or 4 channels/,
    tensorBatch: /^RangeError: tensor\.dims\[0\]: expected a batch of 1/,
    notTensor: /^TypeError: tensor\.type: expected a string/,
    noOptions: /^TypeError: resizeImage: options/,
    noSize: /^TypeError: resizeImage: width, height or scale is required/,
    sizeAndScale: /^RangeError: resizeImage: give width \/ height or scale, not both/,
    zeroWidth: /^RangeError: width: expected a positive integer, got 0/,
    mode: /^RangeError: mode: unknown value 'bicubic'.*did you mean 'cubic'/,
    antialias: /^TypeError: antialias: expected true or false/,
    coord: /^RangeError: coordinateTransformationMode: unknown value 'half-pixel'.*did you mean 'half_pixel'/,
  };
  for (const [k, re] of Object.entries(expect)) assert.match(r[k], re, k);
  assert.equal(r.stillWorks, 2);
  assert.deepEqual(await page.errors(), []);
});

test('resizeImage frees its wasm tensors, also when resize() throws', async (t) => {
  const r = await page.evaluate(() => {
    const M = sampler._M;
    if (typeof M.heapUsed !== 'function') return { skipped: true };
    const img = disc(40, [0, 200, 90]);
    // The same calls twice: the first round may grow what the core keeps between calls
    // (plan buffers); a leak grows the heap in every round.
    const round = () => {
      for (let i = 0; i < 20; i++) {
        sampler.resizeImage(img, { width: 17 + i, mode: i % 2 ? 'cubic' : 'linear', linearLight: i % 3 === 0 });
        try { sampler.resizeImage(img, { width: 9, coordinateTransformationMode: 'half-pixel' }); } catch { /* expected */ }
        try { sampler.resizeImage(img, { width: 9, cubicCoeffA: 'x' }); } catch { /* expected */ }
      }
      sampler.resizeImage(img, { width: 10 });
    };
    round();
    const before = Number(M.heapUsed());
    round();
    round();
    return { before, after: Number(M.heapUsed()) };
  });
  if (r.skipped) { t.skip('this build has no heapUsed() hook'); return; }
  t.diagnostic(`wasm heap in use: ${r.before} -> ${r.after} bytes`);
  assert.ok(Math.abs(r.after - r.before) <= 256, `the wasm heap grew from ${r.before} to ${r.after} bytes`);
});

// Node only: once, in the Chromium run.
test('in Node the helpers return ImageData-like objects', { skip: currentEngine() !== 'chromium' && 'runs once, with the Chromium tests' }, async () => {
  const entry = pathToFileURL(join(packageDir(), 'dist', 'index.mjs')).href;
  const { createSampler } = await import(entry);
  const sampler = await createSampler();
  assert.equal(typeof globalThis.ImageData, 'undefined');
  const img = { width: 2, height: 1, data: new Uint8ClampedArray([255, 0, 0, 255, 0, 0, 0, 0]) };
  const y = sampler.resizeImage(img, { width: 4 });
  assert.deepEqual(Object.keys(y).sort(), ['colorSpace', 'data', 'height', 'width']);
  assert.equal(y.data.constructor, Uint8ClampedArray);
  assert.deepEqual([y.width, y.height], [4, 2]);
  for (let i = 0; i < 4; i++) if (y.data[4 * i + 3] > 0) assert.equal(y.data[4 * i], 255, `pixel ${i} stays red`);
  assert.throws(() => sampler.imageToTensor({ nodeName: 'IMG' }), (e) => e instanceof TypeError && /^image\.width: expected an integer|^image: expected ImageData/.test(e.message));
});
