// vite.test.mjs: examples/vite-app built as a user would: copied to a temp dir, the packed
// tarball (OSW_TARBALL) installed with npm, bundled by the repo's Vite, served, and loaded
// in Chromium. Checks that Vite emitted the .wasm, the page fetched it from the bundle's
// assets, and the results are right, also from createSampler({ worker: true }) (Vite
// emits the package's worker file and the client browser.mjs imports on demand). Then the
// same app under `vite` (the dev server, which pre-bundles dependencies) must find the wasm
// too. Last, a second small app that asks for
// createSampler({ threads: 4 }), built by Vite and served cross-origin isolated (COOP/COEP),
// and under the dev server with the headers in its vite.config.js: 4 threads, the threaded
// build's files from the bundle, the bytes of 1 thread.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ISOLATION_HEADERS, collectErrors, launchBrowser, repoRoot, startStaticServer, tarballPath } from './helpers.mjs';

const VITE = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
let app, server, browser, devServer;

before(async () => {
  app = mkdtempSync(join(tmpdir(), 'osw-vite-'));
  browser = await launchBrowser();
});
after(async () => {
  if (devServer && devServer.exitCode === null) devServer.kill();
  await browser?.close();
  await server?.close();
  if (app && !process.env.OSW_KEEP_APP) rmSync(app, { recursive: true, force: true });
});

test('the Vite example builds against the packed tarball and runs in Chromium', async (t) => {
  assert.ok(existsSync(VITE), `${VITE} exists (vite is a devDependency)`);
  cpSync(join(repoRoot, 'examples', 'vite-app'), app, { recursive: true, filter: (src) => !/node_modules|[\\/]dist$/.test(src) });
  // The example lists vite and the package as a user's app would; here vite comes from the
  // repo and the package from the tarball, so nothing is fetched from the registry.
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  assert.equal(pkg.private, true);
  delete pkg.dependencies;
  delete pkg.devDependencies;
  writeFileSync(join(app, 'package.json'), JSON.stringify(pkg, null, 2));

  let t0 = Date.now();
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarballPath()], { cwd: app, stdio: 'pipe' });
  const installMs = Date.now() - t0;
  t0 = Date.now();
  const log = execFileSync(process.execPath, [VITE, 'build', app, '--logLevel', 'warn', '--emptyOutDir'], { cwd: app, encoding: 'utf8', stdio: 'pipe' });
  const buildMs = Date.now() - t0;
  t.diagnostic(`npm install ${installMs} ms, vite build ${buildMs} ms${log.trim() ? `; vite said: ${log.trim()}` : ''}`);

  const assets = readdirSync(join(app, 'dist', 'assets'));
  // Each of the package's files that Vite copies as an asset, found by its bytes (a name
  // carries a content hash, which may begin with any letter, 'c' or 'mt' included): osw.wasm;
  // the compat modes' module, fetched by loadCompat() (the app calls it), and its threaded
  // twin; the threaded build (osw-mt.wasm, osw-mt.mjs: fetched only for threads).
  const emitted = (file) => {
    const bytes = readFileSync(join(app, 'node_modules', 'onnx-sampling-wasm', 'dist', file));
    const found = assets.filter((f) => readFileSync(join(app, 'dist', 'assets', f)).equals(bytes));
    assert.equal(found.length, 1, `${file} once in dist/assets (${assets.join(', ')})`);
    const [base, ext] = file.split('.');
    assert.ok(found[0].startsWith(`${base}-`) && found[0].endsWith(`.${ext}`), `${found[0]} is named after ${file}`);
    return found[0];
  };
  const oswWasm = emitted('osw.wasm');
  const compatWasm = emitted('osw-compat.wasm');
  for (const f of ['osw-compat-mt.wasm', 'osw-mt.wasm', 'osw-mt.mjs']) emitted(f);
  assert.equal(assets.filter((f) => f.endsWith('.wasm')).length, 4, `no other .wasm in dist/assets (${assets.join(', ')})`);

  server = await startStaticServer([['/', join(app, 'dist')]]);
  const page = await browser.newPage();
  const errors = collectErrors(page);
  const wasmResponses = [];
  page.on('response', (r) => { if (r.url().endsWith('.wasm')) wasmResponses.push([r.status(), new URL(r.url()).pathname, r.headers()['content-type']]); });
  await page.goto(server.url + '/');
  await page.waitForFunction(() => document.body.dataset.status !== 'loading', null, { timeout: 30_000 });
  const status = await page.evaluate(() => ({ status: document.body.dataset.status, error: document.body.dataset.error, result: document.body.dataset.result }));
  assert.equal(status.status, 'ok', `the app reported: ${status.error}`);
  const result = JSON.parse(status.result);
  assert.deepEqual(result.dims, [1, 1, 4, 4]);
  assert.deepEqual(result.data, [1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4]);
  assert.deepEqual(result.image, [64, 32]);
  // createSampler({ worker: true }): Vite emitted the package's worker (and the client it
  // loads on demand), which computed the same values with one thread (no isolation here)
  assert.deepEqual(result.worker, { threads: 1, data: result.data });
  assert.ok(assets.some((f) => /^worker-client-.*\.js$/.test(f)) && assets.some((f) => f.startsWith('worker-') && !f.startsWith('worker-client-') && f.endsWith('.js')), `the worker files in dist/assets (${assets.join(', ')})`);
  assert.deepEqual(wasmResponses, [[200, `/assets/${oswWasm}`, 'application/wasm'], [200, `/assets/${oswWasm}`, 'application/wasm'],
    [200, `/assets/${compatWasm}`, 'application/wasm']],
    'the bundled wasm was fetched from the build output, by the page and by the worker, then osw-compat.wasm by loadCompat()');
  // compat 'pillow' in the bundle gives the bytes of the package in Node
  const node = await (await import(pathToFileURL(join(app, 'node_modules', 'onnx-sampling-wasm', 'dist', 'index.mjs')).href)).createSampler();
  const w = 16, h = 8, px = new Uint8Array(w * h * 4);
  for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) px.set([j * 17, i * 36, 255 - j * 17, 255], 4 * (i * w + j));
  const pil = node.resize({ type: 'uint8', dims: [1, h, w, 4], data: px }, { sizes: [4, 8], axes: [1, 2], compat: 'pillow', mode: 'lanczos' });
  assert.deepEqual(result.pillow, { dims: pil.dims, data: Array.from(pil.data) });
  node.dispose();
  // the canvas shows the resized gradient: blue on the left, red on the right
  const [left, right] = await page.evaluate(() => {
    const ctx = document.getElementById('picture').getContext('2d');
    return [Array.from(ctx.getImageData(0, 16, 1, 1).data), Array.from(ctx.getImageData(63, 16, 1, 1).data)];
  });
  assert.ok(left[0] <= 8 && left[2] >= 247 && left[3] === 255, `left edge is blue: ${left}`);
  assert.ok(right[0] >= 247 && right[2] <= 8 && right[3] === 255, `right edge is red: ${right}`);
  assert.deepEqual(errors, []);
  await page.close();
});

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

test('the Vite example also runs under the vite dev server', async (t) => {
  assert.ok(existsSync(join(app, 'node_modules', 'onnx-sampling-wasm')), 'the build test installed the package');
  const port = await freePort();
  devServer = spawn(process.execPath, [VITE, '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--clearScreen', 'false'],
    { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  devServer.stdout.on('data', (d) => { log += d; });
  devServer.stderr.on('data', (d) => { log += d; });
  const url = `http://127.0.0.1:${port}/`;
  const t0 = Date.now();
  // Ready when it answers HTTP (its banner is not printed in every environment, e.g. with
  // CI=true); every timer is cleared on every path, so a failure cannot hang the runner.
  await new Promise((resolve, reject) => {
    let done = false;
    const finish = (err) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      if (err) reject(err); else resolve();
    };
    const timer = setTimeout(() => finish(new Error(`vite dev did not answer in 30 s: ${log}`)), 30_000);
    devServer.once('exit', (code) => finish(new Error(`vite dev exited with ${code}: ${log}`)));
    const poll = setInterval(() => {
      fetch(url).then((r) => { if (r.ok) finish(); }, () => {});
    }, 200);
  });
  const page = await browser.newPage();
  const errors = collectErrors(page);
  const wasm = [];
  page.on('response', (r) => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasm.push([r.status(), r.headers()['content-type']]); });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.status !== 'loading', null, { timeout: 30_000 });
  const status = await page.evaluate(() => ({ status: document.body.dataset.status, error: document.body.dataset.error, result: document.body.dataset.result }));
  t.diagnostic(`vite dev: started and page done in ${Date.now() - t0} ms`);
  assert.equal(status.status, 'ok', `the app reported: ${status.error}`);
  assert.deepEqual(JSON.parse(status.result).data.slice(0, 4), [1, 1.25, 1.75, 2]);
  assert.deepEqual(JSON.parse(status.result).worker.data.slice(0, 4), [1, 1.25, 1.75, 2], 'the worker sampler works under vite dev');
  assert.deepEqual(wasm, [[200, 'application/wasm'], [200, 'application/wasm'], [200, 'application/wasm']]);
  assert.equal(JSON.parse(status.result).pillow.dims.join(), '1,4,8,4', 'compat \'pillow\' works under vite dev');
  assert.deepEqual(errors, []);
  await page.close();
  devServer.kill();
});

// A user's app with threads: index.html + main.js, and a vite.config.js that serves the
// COOP/COEP headers under `vite` (dev) and `vite preview`.
const THREADS_APP = {
  'index.html': '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>threads</title><body data-status="loading"><script type="module" src="./main.js"></script>',
  'main.js': `import { createSampler } from 'onnx-sampling-wasm';
(async () => {
  const one = await createSampler({ threads: 1 });
  const four = await createSampler({ threads: 4 });
  const x = { type: 'float32', dims: [1, 3, 300, 400], data: new Float32Array(360000).map((_, i) => Math.sin(i * 0.01) * 50) };
  const a = one.resize(x, { scales: [1, 1, 1.5, 1.5], mode: 'cubic' }).data;
  const b = four.resize(x, { scales: [1, 1, 1.5, 1.5], mode: 'cubic' }).data;
  let same = a.length === b.length;
  for (let i = 0; same && i < a.length; i++) same = Object.is(a[i], b[i]);
  document.body.dataset.result = JSON.stringify({ isolated: crossOriginIsolated, threads: four.threads, same, n: a.length });
  document.body.dataset.status = 'ok';
})().catch((e) => { document.body.dataset.error = String(e && e.stack || e); document.body.dataset.status = 'error'; });
`,
  'vite.config.js': `// Cross-origin isolation, so that createSampler({ threads }) gets its threads.
const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
export default { server: { headers }, preview: { headers } };
`,
};

async function threadsPage(url, t, label) {
  const page = await browser.newPage();
  const errors = collectErrors(page);
  const fetched = [];
  page.on('response', (r) => { if (/osw/.test(r.url())) fetched.push([r.status(), new URL(r.url()).pathname]); });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.status !== 'loading', null, { timeout: 60_000 });
  const status = await page.evaluate(() => ({ status: document.body.dataset.status, error: document.body.dataset.error, result: document.body.dataset.result }));
  assert.equal(status.status, 'ok', `the app reported: ${status.error}`);
  assert.deepEqual(JSON.parse(status.result), { isolated: true, threads: 4, same: true, n: 3 * 450 * 600 });
  t.diagnostic(`${label}: fetched ${fetched.map(([c, p]) => `${c} ${p}`).join(', ')}`);
  for (const f of [/osw-mt[^/]*\.mjs$/, /osw-mt[^/]*\.wasm$/]) assert.ok(fetched.some(([c, p]) => c === 200 && f.test(p)), `${f} was fetched`);
  assert.deepEqual(errors, []);
  await page.close();
}

test('a Vite app asking for createSampler({ threads: 4 }), built and served cross-origin isolated, runs on 4 threads', async (t) => {
  assert.ok(existsSync(join(app, 'node_modules', 'onnx-sampling-wasm')), 'the build test installed the package');
  const dir = join(app, 'threads-app');
  cpSync(join(app, 'node_modules'), join(dir, 'node_modules'), { recursive: true });
  for (const [f, text] of Object.entries(THREADS_APP)) writeFileSync(join(dir, f), text);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'threads-app', private: true, type: 'module' }));
  execFileSync(process.execPath, [VITE, 'build', dir, '--logLevel', 'warn', '--emptyOutDir'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  const assets = readdirSync(join(dir, 'dist', 'assets'));
  t.diagnostic(`assets: ${assets.join(', ')}`);
  const isolated = await startStaticServer([['/', join(dir, 'dist')]], { headers: ISOLATION_HEADERS });
  try {
    await threadsPage(isolated.url + '/', t, 'vite build');
  } finally {
    await isolated.close();
  }
  // the dev server, with the headers from vite.config.js
  const port = await freePort();
  const dev = spawn(process.execPath, [VITE, '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--clearScreen', 'false'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  dev.stdout.on('data', (d) => { log += d; });
  dev.stderr.on('data', (d) => { log += d; });
  try {
    const url = `http://127.0.0.1:${port}/`;
    for (const t0 = Date.now(); ;) {
      if (await fetch(url).then((r) => r.ok, () => false)) break;
      if (dev.exitCode !== null || Date.now() - t0 > 30_000) throw new Error(`vite dev did not answer: ${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await threadsPage(url, t, 'vite dev');
  } finally {
    dev.kill();
  }
});
