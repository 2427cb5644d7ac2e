// bundlers.test.mjs: examples/bundlers built as a user would, against the packed tarball:
// esbuild, webpack 5 and Rollup for browsers (run in Chromium), esbuild for Node as an ES
// module and as CommonJS (run in Node from a folder holding only the bundle's output, as a
// serverless function is deployed). Each build is the example's npm script, which is the
// line the README gives (checked here); where a bundler does not copy osw.wasm itself, that
// line ends with the copy. Without the copy, the page and the Node bundle must fail with one
// clear Error naming the URL or path, the reason and the options that fix it, fetching once
// and printing nothing; a later createSampler({ wasmUrl }) in the same page must work.
// Vite has its own test (vite.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectErrors, launchBrowser, repoRoot, startStaticServer, tarballPath } from './helpers.mjs';

const COPY = ' && cp node_modules/onnx-sampling-wasm/dist/osw.wasm dist/';
const EXPECTED = [1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4];
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
let app, scripts, server, browser;
const tmp = [];

before(async () => {
  app = mkdtempSync(join(tmpdir(), 'osw-bundlers-'));
  cpSync(join(repoRoot, 'examples', 'bundlers'), app, { recursive: true, filter: (src) => !/node_modules|[\\/]dist$/.test(src) });
  // The example lists its dependencies as a user's app would; here the package comes from
  // the tarball and the bundlers from the repository (devDependencies), so nothing is fetched.
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  scripts = pkg.scripts;
  const bundlers = Object.keys(pkg.devDependencies);
  delete pkg.dependencies;
  delete pkg.devDependencies;
  writeFileSync(join(app, 'package.json'), JSON.stringify(pkg, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarballPath()], { cwd: app, stdio: 'pipe' });
  for (const name of bundlers) {
    const from = join(repoRoot, 'node_modules', name);
    assert.ok(existsSync(from), `${name} is a devDependency of the repository`);
    mkdirSync(join(app, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(from, join(app, 'node_modules', name), 'dir');
  }
  server = await startStaticServer([['/', app]]);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (!process.env.OSW_KEEP_APP) for (const d of [app, ...tmp]) if (d) rmSync(d, { recursive: true, force: true });
});

// Runs a shell line in the app, with the repository's bundler binaries on PATH (as npm run
// puts an app's own node_modules/.bin there).
function sh(line) {
  rmSync(join(app, 'dist'), { recursive: true, force: true });
  const t0 = Date.now();
  const r = spawnSync('sh', ['-c', line], {
    cwd: app, encoding: 'utf8',
    env: { ...process.env, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH}` },
  });
  assert.equal(r.status, 0, `${line}\n${r.stdout}\n${r.stderr}`);
  return { ms: Date.now() - t0, files: readdirSync(join(app, 'dist')).sort() };
}

// Builds with the example's npm script, which must be the README's line, word for word.
function build(name) {
  const line = scripts[name];
  assert.ok(readme.includes(line), `README.md gives the line of ${name}: ${line}`);
  return sh(line);
}

async function openApp() {
  const page = await browser.newPage();
  const errors = collectErrors(page);
  const consoleMessages = [];
  page.on('console', (m) => consoleMessages.push(`${m.type()}: ${m.text()}`));
  const wasm = [];
  page.on('response', (r) => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasm.push([r.status(), new URL(r.url()).pathname]); });
  await page.goto(`${server.url}/index.html`);
  return { page, errors, consoleMessages, wasm };
}
async function waitDone(page) {
  await page.waitForFunction(() => document.body.dataset.status !== 'loading', null, { timeout: 30_000 });
  return page.evaluate(() => ({ ...document.body.dataset }));
}

for (const [name, bundler, copies] of [
  ['build:esbuild', 'esbuild', false],
  ['build:webpack', 'webpack 5', true],
  ['build:rollup', 'Rollup', false],
]) {
  test(`${bundler}: the browser bundle runs in Chromium`, async (t) => {
    assert.equal(scripts[name].endsWith(COPY), !copies, copies ? 'no copy needed' : 'the line copies osw.wasm');
    const { ms, files } = build(name);
    t.diagnostic(`${scripts[name]}: ${ms} ms, dist/: ${files.join(', ')}`);
    // osw.wasm; webpack also copies the threaded build (osw-mt.wasm, osw-mt.mjs: fetched only
    // for threads) under hashed names: the one osw.wasm is found by its bytes
    const osw = readFileSync(join(app, 'node_modules', 'onnx-sampling-wasm', 'dist', 'osw.wasm'));
    const wasmFiles = files.filter((f) => f.endsWith('.wasm') && readFileSync(join(app, 'dist', f)).equals(osw));
    assert.equal(wasmFiles.length, 1, `one osw.wasm in dist/ (${files.join(', ')})`);
    assert.equal(files.filter((f) => f.endsWith('.wasm')).length, copies ? 4 : 1, 'and osw-mt.wasm, osw-compat.wasm and osw-compat-mt.wasm where the bundler copies by itself');
    const { page, errors, consoleMessages, wasm } = await openApp();
    const status = await waitDone(page);
    assert.equal(status.status, 'ok', `the app reported: ${status.error}`);
    assert.deepEqual(JSON.parse(status.result), { dims: [1, 1, 4, 4], data: EXPECTED });
    assert.deepEqual(wasm, [[200, `/dist/${wasmFiles[0]}`]], 'the wasm came from the bundle output, once');
    if (name === 'build:webpack') {
      // webpack 5 emitted the package's worker: a worker sampler computes the same values
      assert.deepEqual(await page.evaluate(() => window.workerExample()), { threads: 1, data: EXPECTED });
      assert.deepEqual(wasm, [[200, `/dist/${wasmFiles[0]}`], [200, `/dist/${wasmFiles[0]}`]], 'the worker fetched the same wasm');
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleMessages, []);
    await page.close();
  });
}

test('esbuild without the copy: one clear Error, one request, nothing printed; then wasmUrl works', async () => {
  const line = scripts['build:esbuild'];
  const { files } = sh(line.slice(0, line.length - COPY.length));
  assert.deepEqual(files, ['main.js'], 'esbuild does not copy osw.wasm by itself');
  const { page, errors, consoleMessages, wasm } = await openApp();
  const status = await waitDone(page);
  assert.equal(status.status, 'error');
  const url = `${server.url}/dist/osw.wasm`;
  assert.ok(status.error.startsWith(`Error: onnx-sampling-wasm: could not load the WebAssembly module from ${url}: HTTP 404 Not Found.`), status.error);
  for (const fix of ['copy node_modules/onnx-sampling-wasm/dist/osw.wasm', 'createSampler({ wasmUrl })', 'createSampler({ wasmBinary })'])
    assert.ok(status.error.includes(fix), `the message says: ${fix}`);
  assert.deepEqual(wasm, [[404, '/dist/osw.wasm']], 'fetched once');
  // The browser's own note of the failed request is all the console shows.
  assert.deepEqual(consoleMessages.filter((m) => !m.startsWith('error: Failed to load resource')), []);
  assert.deepEqual(errors.filter((e) => !e.includes('404')), []);

  // The same page, the same bundle: a later createSampler with a good wasmUrl works.
  await page.evaluate(() => window.startExample({ wasmUrl: '/node_modules/onnx-sampling-wasm/dist/osw.wasm' }));
  const retry = await waitDone(page);
  assert.equal(retry.status, 'ok', `the app reported: ${retry.error}`);
  assert.deepEqual(JSON.parse(retry.result).data, EXPECTED);
  assert.deepEqual(wasm, [[404, '/dist/osw.wasm'], [200, '/node_modules/onnx-sampling-wasm/dist/osw.wasm']]);
  await page.close();
});

// The Node bundles run from a folder holding only dist/'s files: no node_modules anywhere.
function runDeployed(entry) {
  const dir = mkdtempSync(join(tmpdir(), 'osw-deployed-'));
  tmp.push(dir);
  cpSync(join(app, 'dist'), dir, { recursive: true });
  return { dir, r: spawnSync(process.execPath, [join(dir, entry)], { cwd: dir, encoding: 'utf8' }) };
}

for (const [name, entry] of [['build:node-esm', 'server.mjs'], ['build:node-cjs', 'server.cjs']]) {
  test(`esbuild for Node (${name.slice(11).toUpperCase()}): the bundle runs with osw.wasm beside it`, async (t) => {
    assert.ok(scripts[name].endsWith(COPY), 'the line copies osw.wasm');
    const { ms, files } = build(name);
    t.diagnostic(`${scripts[name]}: ${ms} ms, dist/: ${files.join(', ')}`);
    assert.deepEqual(files, ['osw.wasm', entry].sort());
    const { r } = runDeployed(entry);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(JSON.parse(r.stdout), { dims: [1, 1, 4, 4], data: EXPECTED });

    // Without the copy: the error names the path it tried and the options that fix it.
    const line = scripts[name];
    sh(line.slice(0, line.length - COPY.length));
    const { dir, r: bad } = runDeployed(entry);
    assert.equal(bad.status, 1);
    assert.equal(bad.stdout, '');
    assert.equal(bad.stderr.trim(), `onnx-sampling-wasm: could not load the WebAssembly module from ${join(dir, 'osw.wasm')}: no such file. ` +
      'If a bundler did not copy it, copy node_modules/onnx-sampling-wasm/dist/osw.wasm next to your bundle, or say where it is ' +
      'with createSampler({ wasmUrl }), or pass its bytes with createSampler({ wasmBinary }).');
  });
}

// Threads, the worker API and a compat mode in a Node bundle: the line copies the files the
// README lists (the .wasm files, the pool workers' script and the worker API's script, which
// carries the whole API); the bundle then runs from a folder with nothing else.
for (const [name, entry, worker] of [['build:node-threads-esm', 'server-threads.mjs', 'worker-node.mjs'],
  ['build:node-threads-cjs', 'server-threads.cjs', 'worker-node.cjs']]) {
  test(`esbuild for Node (${name.slice(19).toUpperCase()}): threads, the worker API and compat run from the bundle and the listed files`, async (t) => {
    const { ms, files } = build(name);
    t.diagnostic(`${ms} ms, dist/: ${files.join(', ')}`);
    assert.deepEqual(files, ['osw.wasm', 'osw-mt.wasm', 'osw-compat.wasm', 'osw-compat-mt.wasm', 'osw-mt-node.worker.js', worker, entry].sort());
    const { r } = runDeployed(entry);
    assert.equal(r.signal, null, 'the process exits by itself');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(JSON.parse(r.stdout), { threads: 2, workerThreads: 2, threadedSame: true, workerSame: true, compatSame: true });

    // Each listed file is needed: without the worker API's script, its error names it.
    const { dir, r: bad } = (() => {
      const d = mkdtempSync(join(tmpdir(), 'osw-deployed-'));
      tmp.push(d);
      cpSync(join(app, 'dist'), d, { recursive: true, filter: (src) => !src.endsWith(worker) });
      return { dir: d, r: spawnSync(process.execPath, [join(d, entry)], { cwd: d, encoding: 'utf8' }) };
    })();
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, new RegExp(`^onnx-sampling-wasm: the worker failed \\(${join(dir, worker).replace(/[.\\/]/g, '\\$&')}\\): Cannot find module`));
  });
}

