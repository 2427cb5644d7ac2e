// preprocess.test.mjs — owns the preprocessing helpers against the Python pipelines they
// mirror (tests/compat/oracle_preprocess.py, run with Debian's /usr/bin/python3: Pillow,
// OpenCV, PyTorch; torchvision's and Ultralytics' published algorithms written out there):
//   - imageToTensor channels 1 = PIL convert('L'), bit for bit; order 'bgr'; batches; RGB
//     input (3 bytes a pixel) as RGBA with alpha 255;
//   - resizeCrop = torchvision Resize(size) + CenterCrop(crop): on images bit for bit
//     (Pillow BILINEAR), on float tensors within 1e-5 (F.interpolate, antialias);
//   - letterbox = Ultralytics LetterBox (cv2 INTER_LINEAR, border 114), bit for bit, with its
//     scale and padding;
//   - warpImage = cv2.warpAffine's geometry: nearest bit for bit where no coordinate is a
//     tie (quarter turns, integer shifts), linear within 2 levels on a smooth image (OpenCV
//     rounds coordinates to 1/32 pixel).
// Without the Python packages the comparisons are skipped with the reason (never silently).
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPackage } from './package.mjs';
import { mulberry32 } from './rng.mjs';

const PYTHON = '/usr/bin/python3';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const probe = spawnSync(PYTHON, ['-c', 'import numpy, PIL, cv2, torch'], { encoding: 'utf8' });
const skip = probe.status === 0 ? false
  : `numpy, Pillow, OpenCV or PyTorch is not available to ${PYTHON} (${(probe.stderr || '').trim().split('\n').pop()}); npm run setup installs them as root`;
const pkg = await importPackage();

function python(jobs) {
  const r = spawnSync(PYTHON, [join(root, 'tests', 'compat', 'oracle_preprocess.py')], { input: JSON.stringify(jobs), encoding: 'utf8', maxBuffer: 256 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}
const b64 = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
const bytes = (s) => new Uint8Array(Buffer.from(s, 'base64'));

// A random image: noise (kind 0), a smooth gradient (1), or blocks with hard edges (2).
function randomImage(rng, w, h, c, kind = Math.floor(3 * rng())) {
  const d = new Uint8ClampedArray(w * h * c);
  for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) for (let k = 0; k < c; k++) {
    const v = kind === 0 ? 256 * rng() : kind === 1 ? 127.5 + 120 * Math.sin(0.11 * i * (k + 1) + 0.07 * j) : ((i >> 2) + (j >> 2) + k) % 2 ? 230 : 20;
    d[(i * w + j) * c + k] = k === 3 ? Math.max(1, v) : v;
  }
  return { width: w, height: h, data: d };
}

test('imageToTensor: gray is PIL convert(\'L\'); BGR swaps R and B; batches stack; RGB input is RGBA with alpha 255', { skip }, async () => {
  const s = await pkg.createSampler();
  const rng = mulberry32(11);
  const imgs = [];
  for (let k = 0; k < 12; k++) imgs.push([randomImage(rng, 1 + Math.floor(20 * rng()), 1 + Math.floor(15 * rng()), k % 2 ? 3 : 4, 0), k % 2 ? 3 : 4]);
  const want = python(imgs.map(([im, c]) => ({ op: 'gray', x: b64(im.data), h: im.height, w: im.width, c })));
  imgs.forEach(([im], k) => {
    const t = s.imageToTensor(im, { channels: 1, layout: 'nhwc', type: 'uint8' });
    assert.deepEqual(t.dims, [1, im.height, im.width, 1]);
    assert.deepEqual(t.data, bytes(want[k]), `image ${k}`);
    // float32: the same bytes through mean / std
    const f = s.imageToTensor(im, { channels: 1, scale: 1 / 255, mean: [0.5], std: [0.25] });
    assert.deepEqual(f.dims, [1, 1, im.height, im.width]);
    assert.ok(f.data.every((v, i) => Math.abs(v - (bytes(want[k])[i] / 255 - 0.5) / 0.25) < 1e-5));
  });
  const [rgba] = imgs[0];
  const rgb = { width: rgba.width, height: rgba.height, data: new Uint8ClampedArray(rgba.width * rgba.height * 3) };
  for (let i = 0; i < rgba.width * rgba.height; i++) for (let c = 0; c < 3; c++) rgb.data[3 * i + c] = rgba.data[4 * i + c];
  const opaque = { ...rgba, data: rgba.data.map((v, i) => (i % 4 === 3 ? 255 : v)) };
  for (const o of [{}, { layout: 'nhwc' }, { channels: 4, scale: 1 / 255 }, { order: 'bgr', layout: 'nhwc' }, { channels: 1 }])
    assert.deepEqual(s.imageToTensor(rgb, o), s.imageToTensor(opaque, o), JSON.stringify(o));
  const bgr = s.imageToTensor(rgba, { order: 'bgr', layout: 'nhwc', channels: 4 }).data;
  const rgbT = s.imageToTensor(rgba, { layout: 'nhwc', channels: 4 }).data;
  for (let i = 0; i < bgr.length; i += 4) assert.deepEqual([bgr[i], bgr[i + 1], bgr[i + 2], bgr[i + 3]], [rgbT[i + 2], rgbT[i + 1], rgbT[i], rgbT[i + 3]]);
  // a batch: N images of one size
  const b = s.imageToTensor([rgba, opaque, rgb], { scale: 1 / 255 });
  assert.deepEqual(b.dims, [3, 3, rgba.height, rgba.width]);
  const one = s.imageToTensor(opaque, { scale: 1 / 255 }).data;
  assert.deepEqual(b.data.subarray(one.length, 2 * one.length), one);
  assert.deepEqual(b.data.subarray(2 * one.length), one);
  assert.throws(() => s.imageToTensor([rgba, imgs[1][0]]), /^RangeError: image\[1\]: a batch needs images of one size/);
  assert.throws(() => s.imageToTensor([]), /^RangeError: image: a batch needs at least one image/);
  assert.throws(() => s.imageToTensor(rgba, { order: 'brg' }), /^RangeError: order: unknown value 'brg'/);
  assert.throws(() => s.imageToTensor(rgba, { channels: 1, premultiply: true }), /^RangeError: premultiply: needs colour channels/);
  // resizeImage answers RGB with RGB
  const r = s.resizeImage(rgb, { width: 7, height: 5 });
  assert.equal(r.data.length, 7 * 5 * 3);
  const r4 = s.resizeImage(opaque, { width: 7, height: 5 }).data;
  for (let i = 0; i < 35; i++) for (let c = 0; c < 3; c++) assert.equal(r.data[3 * i + c], r4[4 * i + c]);
  s.dispose();
});

test('resizeCrop is torchvision Resize(size) + CenterCrop(crop): images as Pillow, tensors as F.interpolate', { skip }, async () => {
  const s = await pkg.createSampler();
  const rng = mulberry32(12);
  const cases = [];
  for (let k = 0; k < 24; k++) {
    const w = 3 + Math.floor(60 * rng()), h = 3 + Math.floor(60 * rng()), c = k % 2 ? 3 : 4;
    const size = 2 + Math.floor(40 * rng()), crop = [1 + Math.floor(45 * rng()), 1 + Math.floor(45 * rng())];
    cases.push({ im: randomImage(rng, w, h, c), c, size, crop });
  }
  const want = python(cases.map(({ im, c, size, crop }) => ({ op: 'resize_crop', x: b64(im.data), h: im.height, w: im.width, c, size, crop })));
  cases.forEach(({ im, size, crop }, k) => {
    const y = s.resizeCrop(im, { size, crop });
    assert.deepEqual([y.width, y.height], [crop[1], crop[0]]);
    assert.deepEqual(new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.length), bytes(want[k]), `case ${k}: ${im.width}x${im.height} size ${size} crop ${crop}`);
  });
  // tensors
  const tcases = [];
  for (let k = 0; k < 10; k++) {
    const c = 1 + Math.floor(3 * rng()), w = 4 + Math.floor(40 * rng()), h = 4 + Math.floor(40 * rng());
    tcases.push({ c, w, h, x: Float32Array.from({ length: c * h * w }, () => rng() * 2 - 1), size: 3 + Math.floor(30 * rng()), crop: [2 + Math.floor(30 * rng()), 2 + Math.floor(30 * rng())] });
  }
  const twant = python(tcases.map((t) => ({ op: 'resize_crop_tensor', x: Array.from(t.x), c: t.c, h: t.h, w: t.w, size: t.size, crop: t.crop })));
  tcases.forEach((t, k) => {
    const y = s.resizeCrop({ type: 'float32', dims: [t.c, t.h, t.w], data: t.x }, { size: t.size, crop: t.crop });
    assert.deepEqual(y.dims, [t.c, ...t.crop]);
    let worst = 0;
    y.data.forEach((v, i) => { worst = Math.max(worst, Math.abs(v - twant[k][i])); });
    assert.ok(worst <= 1e-5, `tensor case ${k}: max difference ${worst}`);
  });
  s.dispose();
});

test('letterbox is Ultralytics LetterBox (cv2.resize INTER_LINEAR, border 114), with its scale and padding', { skip }, async () => {
  const s = await pkg.createSampler();
  const rng = mulberry32(13);
  const cases = [];
  for (let k = 0; k < 24; k++) {
    const w = 2 + Math.floor(90 * rng()), h = 2 + Math.floor(90 * rng()), c = k % 2 ? 3 : 4;
    cases.push({ im: randomImage(rng, w, h, c), c, width: 8 + Math.floor(60 * rng()), height: 8 + Math.floor(60 * rng()), fill: k % 3 ? 114 : 0 });
  }
  cases.push({ im: randomImage(rng, 64, 48, 3), c: 3, width: 64, height: 64, fill: 114 });  // no resize, padding only
  const want = python(cases.map(({ im, c, width, height, fill }) => ({ op: 'letterbox', x: b64(im.data), h: im.height, w: im.width, c, width, height, fill })));
  cases.forEach(({ im, width, height, fill }, k) => {
    const r = s.letterbox(im, { width, height, fill });
    assert.deepEqual([r.image.width, r.image.height], [width, height]);
    assert.deepEqual(new Uint8Array(r.image.data.buffer, r.image.data.byteOffset, r.image.data.length), bytes(want[k].y), `case ${k}: ${im.width}x${im.height} -> ${width}x${height}`);
    assert.equal(r.scale, want[k].scale);
    assert.deepEqual([r.left, r.top], [want[k].left, want[k].top]);
  });
  s.dispose();
});

test('warpImage takes cv2.warpAffine\'s pixel matrix: quarter turns and shifts exact, any rotation close', { skip }, async () => {
  const s = await pkg.createSampler();
  const rng = mulberry32(14);
  const jobs = [], ours = [];
  // a non-square image turned by 90 degrees about its centre, shifted, mirrored; nearest
  for (const [w, h] of [[9, 5], [16, 7], [6, 11]]) {
    const im = randomImage(rng, w, h, 4, 0);
    im.data.forEach((v, i) => { if (i % 4 === 3) im.data[i] = 255; });
    for (const m of [[0, 1, 0, -1, 0, w - 1], [1, 0, 3, 0, 1, -2], [-1, 0, w - 1, 0, 1, 0]]) {
      const [ow, oh] = m[0] === 0 ? [h, w] : [w, h];
      jobs.push({ op: 'warp', x: b64(im.data), h, w, c: 4, m, width: ow, height: oh, flag: 'nearest' });
      ours.push([s.warpImage(im, [m.slice(0, 3), m.slice(3)], { width: ow, height: oh, mode: 'nearest' }), 0]);
    }
  }
  // a rotation of 30 degrees about the centre of a smooth 40 x 24 image; linear
  const im = randomImage(rng, 40, 24, 4, 1);
  im.data.forEach((v, i) => { if (i % 4 === 3) im.data[i] = 255; });
  const a = Math.PI / 6, cx = 19.5, cy = 11.5, cos = Math.cos(a), sin = Math.sin(a);
  const m = [cos, sin, (1 - cos) * cx - sin * cy, -sin, cos, sin * cx + (1 - cos) * cy];  // cv2.getRotationMatrix2D
  jobs.push({ op: 'warp', x: b64(im.data), h: 24, w: 40, c: 4, m, width: 40, height: 24, flag: 'linear' });
  ours.push([s.warpImage(im, m, { mode: 'linear' }), 2]);
  const want = python(jobs);
  ours.forEach(([y, tol], k) => {
    const w = bytes(want[k]);
    let worst = 0, compared = 0;
    for (let i = 0; i < w.length; i++) {
      // linear: compare where OpenCV's 4 taps are all inside (its border blends with 0 alpha-less)
      if (tol && (w[i - (i % 4) + 3] !== 255 || y.data[i - (i % 4) + 3] !== 255)) continue;
      worst = Math.max(worst, Math.abs(y.data[i] - w[i]));
      compared++;
    }
    assert.ok(compared > w.length / 2, `case ${k}: compared ${compared} of ${w.length}`);
    assert.ok(worst <= tol, `case ${k}: max difference ${worst} (allowed ${tol})`);
  });
  assert.throws(() => s.warpImage(im, [[1, 2, 3], [2, 4, 6]]), /^RangeError: matrix: not invertible/);
  assert.throws(() => s.warpImage(im, [1, 2, 3]), /^TypeError: matrix: expected a 2x3 matrix/);
  s.dispose();
});
