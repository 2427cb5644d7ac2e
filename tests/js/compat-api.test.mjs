// compat-api.test.mjs — owns the API of the compat modes 'pillow' and 'opencv' in Node
// (their bytes against Pillow and OpenCV: compat-libs.test.mjs): the forms a call may take
// (resize, resizeInto, zero-copy tensors, a Resize node, resizeImage, the worker API), how
// the image's axes are found, the errors (each class and message), loading osw-compat.wasm
// (at once in Node; loadCompat with wasmUrl / wasmBinary; a missing file), and memory.
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importPackage, packageEntry } from './package.mjs';
import { mulberry32 } from './rng.mjs';

const pkg = await importPackage();

function image(h, w, c, seed, Ctor = Uint8Array) {
  const rng = mulberry32(seed);
  return { type: Ctor === Float32Array ? 'float32' : 'uint8', dims: [1, h, w, c], data: Ctor.from({ length: h * w * c }, () => Math.floor(256 * rng())) };
}

test('every form of a compat call gives the same bytes', async () => {
  const s = await pkg.createSampler();
  const x = image(13, 17, 3, 1);
  const opts = { sizes: [6, 29], axes: [1, 2], compat: 'opencv', mode: 'cubic' };
  const y = s.resize(x, opts);
  assert.deepEqual(y.dims, [1, 6, 29, 3]);
  assert.ok(y.data instanceof Uint8Array);
  // resizeInto: into an array, and into a tensor of this sampler's memory from one of its tensors
  const out = { type: 'uint8', dims: [1, 6, 29, 3], data: new Uint8Array(6 * 29 * 3) };
  assert.equal(s.resizeInto(x, out, opts), out);
  assert.deepEqual(out.data, y.data);
  const xt = s.tensor('uint8', x.dims), yt = s.tensor('uint8', y.dims);
  xt.data.set(x.data);
  s.resizeInto(xt, yt, opts);
  assert.deepEqual(new Uint8Array(yt.data), y.data);
  assert.deepEqual(s.resize(xt, opts).data, y.data);
  xt.dispose(); yt.dispose();
  // Uint8ClampedArray in, Uint8ClampedArray out
  const yc = s.resize({ ...x, data: new Uint8ClampedArray(x.data) }, opts);
  assert.ok(yc.data instanceof Uint8ClampedArray);
  assert.deepEqual(new Uint8Array(yc.data.buffer), y.data);
  // a Resize node with the compat on the node (sizes of every axis)
  const sizes = { type: 'int64', dims: [4], data: new BigInt64Array([1n, 6n, 29n, 3n]) };
  const [yn] = s.run({ opType: 'Resize', opset: 19, compat: 'opencv', attributes: { mode: 'cubic' } }, [x, null, null, sizes]);
  assert.deepEqual(yn.data, y.data);
  // the worker API
  const w = await pkg.createSampler({ worker: true, threads: 1 });
  try {
    assert.deepEqual((await w.resize(x, opts)).data, y.data);
  } finally {
    w.dispose();
  }
  s.dispose();
});

test('the image axes: named by axes, else channels last (1-4 values that keep their length), else the last two', async () => {
  const s = await pkg.createSampler();
  const x = image(9, 11, 4, 2);
  const rgba = (h, w) => s.resize(x, { sizes: [h, w], axes: [1, 2], compat: 'pillow', mode: 'linear' }).data;
  // sizes of every axis: the last axis keeps its 4 values, so it holds the channels
  assert.deepEqual(s.resize(x, { sizes: [1, 5, 7, 4], compat: 'pillow', mode: 'linear' }).data, rgba(5, 7));
  // only H changes: still an RGBA image (premultiplied), not rows of 44 channels
  assert.deepEqual(s.resize(x, { sizes: [1, 4, 11, 4], compat: 'pillow', mode: 'linear' }).data, rgba(4, 11));
  // NCHW planes (the last axis changes): each plane is an L image, the same as one plane alone
  const planes = { type: 'uint8', dims: [1, 2, 9, 11], data: x.data.slice(0, 198) };
  const yp = s.resize(planes, { sizes: [5, 6], axes: [2, 3], compat: 'pillow', mode: 'lanczos' }).data;
  const one = s.resize({ type: 'uint8', dims: [9, 11], data: x.data.slice(99, 198) }, { sizes: [5, 6], compat: 'pillow', mode: 'lanczos' }).data;
  assert.deepEqual(yp.slice(30), one);
  // a rank-1 tensor is one row
  assert.deepEqual(s.resize({ type: 'uint8', dims: [11], data: x.data.slice(0, 11) }, { sizes: [4], compat: 'opencv', mode: 'area' }).dims, [4]);
  // nothing changes: a copy, as both libraries make
  assert.deepEqual(s.resize(x, { sizes: [9, 11], axes: [1, 2], compat: 'opencv' }).data, x.data);
  s.dispose();
});

test('compat defaults and scales: Pillow BICUBIC, OpenCV INTER_LINEAR; cv2 fx/fy round the size half to even', async () => {
  const s = await pkg.createSampler();
  const x = image(10, 10, 1, 3);
  const r = (o) => s.resize(x, { axes: [1, 2], ...o });
  assert.deepEqual(r({ sizes: [4, 7], compat: 'pillow' }).data, r({ sizes: [4, 7], compat: 'pillow', mode: 'cubic' }).data);
  assert.notDeepEqual(r({ sizes: [4, 7], compat: 'pillow' }).data, r({ sizes: [4, 7], compat: 'pillow', mode: 'linear' }).data);
  assert.deepEqual(r({ sizes: [4, 7], compat: 'opencv' }).data, r({ sizes: [4, 7], compat: 'opencv', mode: 'linear' }).data);
  // 10 * 0.25 = 2.5 -> 2 (half to even); 10 * 0.35 = 3.5 -> 4; Pillow (from sizes only) floors
  assert.deepEqual(r({ scales: [0.25, 0.35], compat: 'opencv' }).dims, [1, 2, 4, 1]);
  assert.deepEqual(r({ scales: [0.25, 0.35], compat: 'pillow' }).dims, [1, 2, 3, 1]);
  // cv2 keeps fx as the scale: 0.35 is not 4 / 10
  assert.notDeepEqual(r({ scales: [1, 0.35], compat: 'opencv' }).data, r({ sizes: [10, 4], compat: 'opencv' }).data);
  // fx = 1 with the size unchanged resamples nothing
  assert.deepEqual(r({ scales: [1, 1], compat: 'opencv', mode: 'cubic' }).data, x.data);
  s.dispose();
});

test('compat errors: class and message', async () => {
  const s = await pkg.createSampler();
  const x = image(6, 6, 3, 4);
  const e = (o, cls, re, input = x) => assert.throws(() => s.resize(input, o), (err) => err instanceof cls && re.test(err.message), JSON.stringify(o));
  e({ sizes: [3, 3], axes: [1, 2], mode: 'lanczos' }, RangeError, /^mode: 'lanczos' needs compat 'pillow' or 'opencv'$/);
  e({ sizes: [3, 3], axes: [1, 2], compat: 'opencv', mode: 'box' }, RangeError, /^mode: compat 'opencv' has no 'box' \(cv2\.resize has .*'area'.*\); 'box' exists with compat 'pillow'$/);
  e({ sizes: [3, 3], axes: [1, 2], compat: 'pillow', mode: 'area' }, RangeError, /^mode: compat 'pillow' has no 'area'.*'area' exists with compat 'opencv'$/);
  e({ sizes: [3, 3], axes: [1, 2], compat: 'pillow', antialias: true }, RangeError, /^antialias: compat 'pillow' reproduces PIL\.Image\.resize, which has no such parameter/);
  e({ sizes: [3, 3], axes: [1, 2], compat: 'opencv', coordinateTransformationMode: 'half_pixel' }, RangeError, /^coordinateTransformationMode: compat 'opencv' reproduces cv2\.resize/);
  e({ sizes: [3, 3], axes: [1, 2], compat: 'pil' }, RangeError, /^compat: unknown value 'pil'/);
  e({ sizes: [2, 3, 3, 3], compat: 'pillow' }, RangeError, /^compat 'pillow': resizes images; .* only the axes H = 1 and W = 2 may change, got axes \[0, 1, 2\]/);
  e({ sizes: [3, 3], axes: [1, 2], compat: 'pillow' }, TypeError, /^x: compat 'pillow' resizes uint8 and float32 tensors .*got 'int16'/,
    { type: 'int16', dims: [1, 6, 6, 3], data: new Int16Array(108) });
  e({ sizes: [3, 3], axes: [1, 2], compat: 'opencv' }, RangeError, /^compat 'opencv': an image has 1 to 4 channels \(the axes after W\), got 5/,
    { type: 'uint8', dims: [1, 6, 6, 5], data: new Uint8Array(180) });
  e({ sizes: [3, 3], axes: [1, 2], compat: 'opencv' }, RangeError, /^x: an axis of length 0 cannot be resized to a non-zero length/,
    { type: 'uint8', dims: [1, 0, 6, 3], data: new Uint8Array(0) });
  assert.throws(() => s.upsample(x, { scales: [1, 2, 2, 1], compat: 'pillow' }), /^RangeError: compat: 'pillow' reproduces PIL\.Image\.resize, a Resize; upsample does not take it$/);
  assert.throws(() => s.gridSample({ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array(4) }, { type: 'float32', dims: [1, 1, 1, 2], data: new Float32Array(2) }, { compat: 'opencv' }),
    /^RangeError: compat: unknown value 'opencv'; expected one of 'onnx', 'onnxruntime', 'pytorch'/);
  assert.throws(() => s.run({ opType: 'GridSample', opset: 20, compat: 'pillow' }, [{ type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array(4) }, { type: 'float32', dims: [1, 1, 1, 2], data: new Float32Array(2) }]),
    /^RangeError: compat: 'pillow' applies to Resize only/);
  // empty outputs: the computed shape, no elements
  assert.deepEqual(s.resize(x, { sizes: [0, 3], axes: [1, 2], compat: 'opencv' }).dims, [1, 0, 3, 3]);
  // an output of the wrong shape
  assert.throws(() => s.resizeInto(x, { type: 'uint8', dims: [1, 3, 3, 3], data: new Uint8Array(27) }, { sizes: [3, 4], axes: [1, 2], compat: 'opencv' }),
    /^RangeError: output: expected dims \[1, 3, 4, 3\], got \[1, 3, 3, 3\]$/);
  // maxBytes holds for the compat module too
  const small = await pkg.createSampler({ maxBytes: 100 });
  assert.throws(() => small.resize(x, { sizes: [12, 12], axes: [1, 2], compat: 'pillow' }), /^RangeError: X: needs 108 bytes, more than the limit of 100 bytes/);
  small.dispose();
  // the sampler stays usable after every error
  assert.deepEqual(s.resize(x, { sizes: [3, 3], axes: [1, 2], compat: 'pillow' }).dims, [1, 3, 3, 3]);
  s.dispose();
});

test('osw-compat.wasm: read at once in Node; loadCompat({ wasmBinary, wasmUrl }); a missing file says what to do; memory is counted and freed', async () => {
  const file = join(dirname(packageEntry()), 'osw-compat.wasm');
  const s = await pkg.createSampler();
  const x = image(40, 40, 4, 5);
  const y = s.resize(x, { sizes: [90, 70], axes: [1, 2], compat: 'pillow', mode: 'lanczos' });
  // the compat module lives in the sampler's memory: its tensors are resized in place, and
  // memoryBytes is that one memory
  const xt = s.tensor('uint8', x.dims), yt = s.tensor('uint8', y.dims);
  xt.data.set(x.data);
  const before = s.memoryBytes;
  for (let i = 0; i < 3; i++) {
    yt.data.fill(0);
    assert.equal(s.resizeInto(xt, yt, { sizes: [90, 70], axes: [1, 2], compat: 'pillow', mode: 'lanczos' }), yt);
    assert.deepEqual(yt.data, y.data);
  }
  assert.equal(s.memoryBytes, before, 'no second memory: resizing tensors in place needs no more');
  assert.throws(() => s.resizeInto(xt, xt, { sizes: [40, 40], axes: [1, 2], compat: 'opencv' }), /^RangeError: output: must not share memory with an input/);
  xt.dispose();
  yt.dispose();
  const t = await pkg.createSampler({ loadCompat: { wasmBinary: readFileSync(file) } });
  assert.deepEqual(t.resize(x, { sizes: [90, 70], axes: [1, 2], compat: 'pillow', mode: 'lanczos' }).data, y.data);
  await t.loadCompat({ wasmUrl: file });
  await assert.rejects(t.loadCompat({ wasmUrl: join(dirname(packageEntry()), 'no-such.wasm') }),
    (e) => e instanceof Error && /could not load the WebAssembly module from .*no-such\.wasm: no such file\. The compat modes 'pillow' and 'opencv' need it/.test(e.message));
  await assert.rejects(t.loadCompat({ wasmBinary: new Uint8Array([60, 104, 116, 109, 108, 62, 0, 0]) }), /it is not a WebAssembly file \(it starts with "<html>\.\."\)/);
  await assert.rejects(t.loadCompat({ wasmBinary: 'bytes' }), (e) => e instanceof TypeError && /^loadCompat: wasmBinary: expected the \.wasm bytes/.test(e.message));
  await assert.rejects(pkg.createSampler({ loadCompat: 'yes' }), (e) => e instanceof TypeError && /^createSampler: loadCompat: expected true, false or the options/.test(e.message));
  // a failed load leaves the sampler as it was
  assert.deepEqual(t.resize(x, { sizes: [90, 70], axes: [1, 2], compat: 'pillow', mode: 'lanczos' }).data, y.data);
  t.dispose();
  s.dispose();
  assert.equal(s.memoryBytes, 0);
  assert.throws(() => s.resize(x, { sizes: [9, 7], axes: [1, 2], compat: 'pillow' }), /disposed/);
  await assert.rejects(s.loadCompat(), /disposed/);
});

test('osw-compat-mt.wasm for threaded samplers: the same bytes, loaded into their shared memory, whatever its heap held before', async () => {
  const x = image(37, 53, 4, 9);
  const o = { sizes: [61, 29], axes: [1, 2], compat: 'pillow', mode: 'cubic' };  // (its support is static data)
  const one = await pkg.createSampler();
  const want = one.resize(x, o).data;
  for (const threads of [1, 2]) {
    const s = await pkg.createSampler({ threads });
    // freed memory full of 0xFF bytes, where the compat module's static data may then be
    // placed: it must be initialized all the same (a flag there must not say it was)
    // (blocks of about the size it allocates first, and large ones)
    const junk = [];
    for (let n = 24; n <= 96; n++) for (let k = 0; k < 4; k++) junk.push(s.tensor('uint8', [n]));
    junk.push(s.tensor('uint8', [1 << 16]), s.tensor('uint8', [1 << 20]));
    for (const t of junk) t.data.fill(255);
    for (const t of junk) t.dispose();
    assert.deepEqual(s.resize(x, o).data, want, `threads ${threads}`);
    s.dispose();
  }
  // a module of the other memory kind is refused with what to do
  const mt = await pkg.createSampler({ threads: 2 });
  await assert.rejects(mt.loadCompat({ wasmBinary: readFileSync(join(dirname(packageEntry()), 'osw-compat.wasm')) }),
    /the compat module does not link to this sampler .*a sampler with threads takes osw-compat-mt\.wasm/);
  assert.deepEqual(mt.resize(x, o).data, want, 'and the sampler goes on with the right one');
  mt.dispose();
  const st = await pkg.createSampler();
  await assert.rejects(st.loadCompat({ wasmBinary: readFileSync(join(dirname(packageEntry()), 'osw-compat-mt.wasm')) }),
    /the compat module does not link to this sampler .*a sampler with one thread takes osw-compat\.wasm/);
  st.dispose();
  one.dispose();
});
