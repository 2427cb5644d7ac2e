// worker-pool.mjs: a prototype answering issue 16's question for pages without cross-origin
// isolation (where a sampler has one thread): is one worker sampler, or a pica-style pool of
// worker samplers over tiles, faster? In Chromium, on a page without COOP/COEP, in rounds that
// alternate the two (medians of --runs N rounds, 2 warm-ups):
//   W7a: Resize linear uint8 RGBA [1,1080,1920,4] -> [1,2160,3840,4]: one worker, vs 2 workers
//        each resizing half of the input rows (with a 2-row overlap, scales exactly 2, so each
//        output row is computed from the same input rows as in the whole resize), the halves
//        copied into one output;
//   W5:  GridSample linear zeros, X [1,32,256,256], grid [1,256,256,2]: one worker, vs 2
//        workers with 16 channels each (NCHW: the halves are contiguous in the output).
// The pool's output is checked to be byte-identical to the single worker's. Nothing is
// asserted about time.
//
//   node bench/worker-pool.mjs [--runs N]
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer, launchBrowser, BLANK_PAGE } from '../tests/browser/helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.OSW_DIST || join(root, 'dist');
const i = process.argv.indexOf('--runs');
const RUNS = i < 0 ? 9 : Number(process.argv[i + 1]);

async function inPage([url, runs]) {
  const { createSampler } = await import(url);
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
  const one = await createSampler({ worker: true });
  const pool = [await createSampler({ worker: true }), await createSampler({ worker: true })];
  const out = { cores: navigator.hardwareConcurrency, isolated: globalThis.crossOriginIsolated === true, threads: one.threads };

  // ---- W7a
  const H = 1080, W = 1920;
  const px = new Uint8Array(H * W * 4).map((_, k) => ((k & 3) === 3 ? 255 : rnd()));
  const opts = { scales: [2, 2], axes: [1, 2], mode: 'linear' };
  const whole = () => one.resize({ type: 'uint8', dims: [1, H, W, 4], data: px }, opts);
  // Tiles of input rows [0, 541) and [538, 1080): output rows [0, 1080) of the first,
  // [4, 1084) of the second (output row Y reads input rows near Y / 2).
  const rowBytes = W * 4, outRow = 2 * W * 4;
  const tiles = () => Promise.all([
      pool[0].resize({ type: 'uint8', dims: [1, 541, W, 4], data: px.subarray(0, 541 * rowBytes) }, opts),
      pool[1].resize({ type: 'uint8', dims: [1, 542, W, 4], data: px.subarray(538 * rowBytes) }, opts),
  ]);
  const tiled = async () => {
    const [a, b] = await tiles();
    const y = new Uint8Array(2 * H * outRow);
    y.set(a.data.subarray(0, 1080 * outRow), 0);
    y.set(b.data.subarray(4 * outRow, 1084 * outRow), 1080 * outRow);
    return { dims: [1, 2 * H, 2 * W, 4], data: y };
  };

  // ---- W5
  const C = 32, S = 256;
  const x = new Float32Array(C * S * S).map(() => rnd() / 255);
  const grid = new Float32Array(S * S * 2);
  const c30 = Math.cos(Math.PI / 6), s30 = Math.sin(Math.PI / 6);
  for (let r = 0; r < S; r++) for (let c = 0; c < S; c++) {
    const u = (2 * c + 1) / S - 1, v = (2 * r + 1) / S - 1, k = 2 * (r * S + c);
    grid[k] = c30 * u - s30 * v; grid[k + 1] = s30 * u + c30 * v;
  }
  const g = { type: 'float32', dims: [1, S, S, 2], data: grid };
  const gWhole = () => one.gridSample({ type: 'float32', dims: [1, C, S, S], data: x }, g);
  const half = C / 2 * S * S;
  const gTiled = async () => {
    const [a, b] = await Promise.all([
      pool[0].gridSample({ type: 'float32', dims: [1, C / 2, S, S], data: x.subarray(0, half) }, g),
      pool[1].gridSample({ type: 'float32', dims: [1, C / 2, S, S], data: x.subarray(half) }, g),
    ]);
    const y = new Float32Array(C * S * S);
    y.set(a.data, 0);
    y.set(b.data, half);
    return { dims: [1, C, S, S], data: y };
  };

  const same = (p, q) => p.data.length === q.data.length && p.data.every((v, k) => Object.is(v, q.data[k]));
  for (const [name, f1, f2] of [['W7a', whole, tiled], ['W7a tiles only (no assembly)', whole, async () => { await tiles(); return null; }], ['W5', gWhole, gTiled]]) {
    if (f2.length === 0 && name.includes('tiles only')) {
      const t1 = [], t2 = [];
      await f1(); await f2();
      for (let r = 0; r < runs; r++) for (const [f, t] of r % 2 ? [[f1, t1], [f2, t2]] : [[f2, t2], [f1, t1]]) { const t0 = performance.now(); await f(); t.push(performance.now() - t0); }
      out[name] = { oneWorkerMs: median(t1), poolOf2Ms: median(t2) };
      out[`${name}Identical`] = 'n/a';
      continue;
    }
    const ref = await f1(), got = await f2();
    out[`${name}Identical`] = same(ref, got) && ref.dims.join() === got.dims.join();
    await f1(); await f2();
    const t1 = [], t2 = [];
    for (let r = 0; r < runs; r++) {
      for (const [f, t] of r % 2 ? [[f1, t1], [f2, t2]] : [[f2, t2], [f1, t1]]) {
        const t0 = performance.now();
        await f();
        t.push(performance.now() - t0);
      }
    }
    out[name] = { oneWorkerMs: median(t1), poolOf2Ms: median(t2) };
  }
  one.dispose(); pool.forEach((s) => s.dispose());
  return out;
}

const server = await startStaticServer([['/dist/', dist]]);
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.goto(server.url + BLANK_PAGE);
  const r = await page.evaluate(inPage, [`${server.url}/dist/browser.mjs`, RUNS]);
  console.log(`Chromium ${browser.version()}, ${r.cores} cores, cross-origin isolated: ${r.isolated}, worker sampler threads: ${r.threads}`);
  for (const k of ['W7a', 'W7a tiles only (no assembly)', 'W5']) {
    const { oneWorkerMs: a, poolOf2Ms: b } = r[k];
    console.log(`  ${k}: one worker ${a.toFixed(1)} ms, pool of 2 workers over tiles ${b.toFixed(1)} ms (${(b / a).toFixed(2)}x), ` +
      `pool output identical: ${r[`${k}Identical`]}`);
  }
} finally {
  await browser.close();
  await server.close();
}
