// package.test.mjs: the packed package's browser ES module (OSW_PACKAGE/dist/browser.mjs)
// loads in a page of the engine under test (OSW_BROWSER: Chromium, Firefox or WebKit),
// fetches its wasm next to itself, and computes a Resize, a GridSample and a run()
// correctly; createSampler's wasmUrl and wasmBinary options work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BLANK_PAGE, ENGINES, currentEngine, openBrowser, packageDir, startStaticServer } from './helpers.mjs';

const LABEL = ENGINES[currentEngine()];

let server, browser;
before(async () => {
  server = await startStaticServer([['/pkg/', packageDir()]], { errorHook: true });
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage() {
  const page = await browser.newPage();
  await page.goto(server.url + BLANK_PAGE);
  return page;
}

// Resize 2x2 -> 4x4, linear, half_pixel, from the ONNX formulas.
function expectedLinear4x4(x) {
  const out = [];
  const coord = (i) => Math.min(Math.max((i + 0.5) / 2 - 0.5, 0), 1);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      const y = coord(i), xx = coord(j);
      const top = x[0] * (1 - xx) + x[1] * xx, bottom = x[2] * (1 - xx) + x[3] * xx;
      out.push(Math.fround(top * (1 - y) + bottom * y));
    }
  }
  return out;
}

test(`browser.mjs loads in ${LABEL} and resizes a tensor correctly`, async (t) => {
  const page = await openPage();
  const r = await page.evaluate(async () => {
    const mod = await import('/pkg/dist/browser.mjs');
    const t0 = performance.now();
    const sampler = await mod.createSampler();
    const loadMs = performance.now() - t0;
    const x = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
    const y = sampler.resize(x, { sizes: [1, 1, 4, 4], mode: 'linear' });
    const n = sampler.resize(x, { scales: [1, 1, 2, 2] }); // nearest, round_prefer_floor
    const [r] = sampler.run({ opType: 'Resize', opset: 13, attributes: { mode: 'linear' } },
      [x, null, { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) }]);
    // GridSample: the grid's corners and centre of a 2x2 image, align_corners=1
    const grid = { type: 'float32', dims: [1, 1, 3, 2], data: new Float32Array([-1, -1, 1, 1, 0, 0]) };
    const g = sampler.gridSample(x, grid, { alignCorners: true });
    let errorName = '';
    try { sampler.resize(x, { sizes: [1, 1, 4, 4], mode: 'bilinear' }); } catch (e) { errorName = `${e.name}: ${e.message}`; }
    const after = sampler.resize(x, { sizes: [1, 1, 1, 1], mode: 'linear' });
    return {
      exports: Object.keys(mod).sort(),
      types: mod.TENSOR_TYPES,
      loadMs,
      simd: WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11])),
      y: { type: y.type, dims: y.dims, ctor: y.data.constructor.name, data: Array.from(y.data) },
      n: Array.from(n.data),
      r: Array.from(r.data),
      g: Array.from(g.data),
      errorName,
      after: Array.from(after.data),
      hasImageHelpers: typeof sampler.resizeImage === 'function' && typeof sampler.imageToTensor === 'function' && typeof sampler.tensorToImageData === 'function',
    };
  });
  t.diagnostic(`${browser.label} ${browser.version}: createSampler() in the page: ${r.loadMs.toFixed(1)} ms; exports: ${r.exports.join(', ')}`);
  assert.ok(r.exports.includes('createSampler'), 'exports createSampler');
  assert.ok(r.exports.includes('TENSOR_TYPES'), 'exports TENSOR_TYPES');
  assert.ok(r.types.includes('float32'));
  assert.ok(r.simd, `this ${browser.label} validates wasm SIMD`);
  assert.equal(r.y.type, 'float32');
  assert.deepEqual(r.y.dims, [1, 1, 4, 4]);
  assert.equal(r.y.ctor, 'Float32Array');
  assert.deepEqual(r.y.data, expectedLinear4x4([1, 2, 3, 4]));
  assert.deepEqual(r.n, [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
  assert.deepEqual(r.r, r.y.data, 'run(Resize-13, scales 2) equals resize(sizes 4) for 2 -> 4');
  assert.deepEqual(r.g, [1, 4, 2.5]);
  assert.match(r.errorName, /^RangeError: mode: unknown value 'bilinear'.*did you mean 'linear'/);
  assert.deepEqual(r.after, [2.5], 'the sampler still works after an error');
  assert.ok(r.hasImageHelpers, 'the browser build carries the image helpers');
  const wasm = server.requests.filter(([, p]) => p.endsWith('.wasm'));
  assert.deepEqual(wasm, [[200, '/pkg/dist/osw.wasm']], 'fetched osw.wasm next to the module, once');
  assert.deepEqual(await page.errors(), []);
  await page.close();
});

test('createSampler({ wasmUrl }) and createSampler({ wasmBinary }) load the module', async () => {
  for (const how of ['wasmUrl', 'wasmBinary']) {
    const page = await openPage();
    const out = await page.evaluate(async (how) => {
      const url = new URL('/pkg/dist/osw.wasm?via=option', location.href);
      const mod = await import('/pkg/dist/browser.mjs');
      const opts = how === 'wasmUrl' ? { wasmUrl: url } : { wasmBinary: await (await fetch(url)).arrayBuffer() };
      const sampler = await mod.createSampler(opts);
      const x = { type: 'float64', dims: [1, 1, 1, 2], data: new Float64Array([0, 1]) };
      return Array.from(sampler.resize(x, { sizes: [1, 1, 1, 4], mode: 'linear' }).data);
    }, how);
    assert.deepEqual(out, [0, 0.25, 0.75, 1], how);
    assert.deepEqual(await page.errors(), [], how);
    if (how === 'wasmUrl')
      assert.ok(server.requests.some(([s, u]) => s === 200 && u === '/pkg/dist/osw.wasm?via=option'), 'the wasm came from wasmUrl');
    await page.close();
  }
});
