// workerd.test.mjs: the packed package in Cloudflare's runtime (workerd, through `wrangler dev --local`).
//
// Installs the tarball named by env OSW_TARBALL (required: unset is a failure) with npm into
// a fresh temp Worker app, beside the Worker of fixtures/workerd/ (worker.js, wrangler.toml),
// which imports `{ createSampler } from 'onnx-sampling-wasm'` as a user does; starts the
// repo's wrangler on a free 127.0.0.1 port (wrangler needs Node >= 22: env OSW_NODE22, else
// .cache/node/26.12.1, which scripts/test.mjs installs) and checks over HTTP, each computed IN
// workerd:
//   - the 188 ONNX conformance cases through sampler.run() (decoded here with
//     tests/js/onnx-cases.mjs, sent and returned in the wire format of tests/browser/helpers.mjs,
//     compared here with compareTensors);
//   - the README's quick start with no options;
//   - compat 'pillow' and 'opencv' uint8 resizes after sampler.loadCompat(), byte for byte
//     equal to the same calls made here in Node with the same installed package;
//   - createSampler({ threads: 2 }) gives threads === 1 and the default's results;
//   - createSampler({ worker: true }) rejects with an Error saying there is no Worker and
//     that the synchronous sampler runs there;
//   - createSampler({ wasmBinary: <the WebAssembly.Module of 'onnx-sampling-wasm/osw.wasm'> }).
// wrangler runs offline with its HOME, XDG dirs, TMPDIR and logs in the temp dir (no metrics,
// no Request.cf fetch); its output is shown only when a test fails; `after` kills its process
// group (SIGKILL: it ignores SIGTERM) and removes the temp dir.
//
// Env: OSW_TARBALL (required), OSW_NODE22 (a Node >= 22 binary for wrangler),
// OSW_CONFORMANCE (the cases; default tests/conformance), OSW_KEEP_APP=1 keeps the temp dir.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CONFORMANCE_DIR, EXPECTED_CASES, compareTensors, loadCases } from '../js/onnx-cases.mjs';
import { installPageWire, wire } from '../browser/helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const FIXTURES = path.join(here, 'fixtures', 'workerd');
const PKG = 'onnx-sampling-wasm';
const NODE22_DEFAULT = path.join(repoRoot, '.cache', 'node', '26.12.1', 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
const WRANGLER = path.join(repoRoot, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const READY_MS = 60_000;     // wrangler is ready in about 1.5-2.5 s here
const REQUEST_MS = 60_000;
const TEST_MS = 90_000;
const ARRAYS = {
  Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
};

// ---------------------------------------------------------------- helpers (this file's own)

/** A Node >= 22 for wrangler: OSW_NODE22, else the one scripts/test.mjs installs. */
function findNode22() {
  const candidate = process.env.OSW_NODE22 || NODE22_DEFAULT;
  const how = 'wrangler needs Node >= 22: set OSW_NODE22 to such a node binary, or run `node scripts/test.mjs` once '
    + `(it installs Node 26.12.1 from the npm registry into ${path.join(repoRoot, '.cache', 'node')})`;
  if (!fs.existsSync(candidate)) throw new Error(`${candidate} does not exist. ${how}`);
  let version;
  try {
    version = execFileSync(candidate, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch (e) {
    throw new Error(`${candidate} --version failed (${e.message}). ${how}`, { cause: e });
  }
  if (!(Number(/^v(\d+)\./.exec(version)?.[1]) >= 22)) throw new Error(`${candidate} is Node ${version}. ${how}`);
  return { node: candidate, version };
}

/** Runs a command to its end; on failure an Error with its output. */
function run(file, args, options) {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (err) {
    const detail = [err.message, err.stdout && `stdout:\n${err.stdout}`, err.stderr && `stderr:\n${err.stderr}`].filter(Boolean).join('\n');
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed in ${options.cwd}:\n${detail}`, { cause: err });
  }
}

/** npm for the Node running this test: its npm-cli.js beside it, else `npm` on PATH. */
function npmCommand() {
  const cli = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  return fs.existsSync(cli) ? [process.execPath, [cli]] : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
}

/** The environment of npm and wrangler: everything they write goes under `dir`, nothing is sent. */
function sandboxEnv(dir) {
  const d = (name) => { const p = path.join(dir, name); fs.mkdirSync(p, { recursive: true }); return p; };
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;           // set by node --test; not for the children
  Object.assign(env, {
    HOME: d('home'), XDG_CONFIG_HOME: d('config'), XDG_CACHE_HOME: d('cache'), XDG_DATA_HOME: d('data'),
    XDG_STATE_HOME: d('state'), TMPDIR: d('tmp'),
    npm_config_cache: d('npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false',
    WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', DO_NOT_TRACK: '1', WRANGLER_HIDE_BANNER: 'true',
    WRANGLER_LOG_PATH: d('wrangler-logs'), WRANGLER_CACHE_DIR: d('wrangler-cache'), NO_UPDATE_NOTIFIER: '1', CI: '1',
    NO_COLOR: '1', FORCE_COLOR: '0',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',  // miniflare would fetch Request.cf from workers.cloudflare.com
    MINIFLARE_CACHE_DIR: d('miniflare-cache'),
  });
  return env;
}

/** Starts `wrangler dev --local` in its own process group; resolves { url } on its Ready line. */
function startWrangler({ node, cwd, env, log }) {
  const child = spawn(node, [WRANGLER, 'dev', '--local', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0',
    '--show-interactive-dev-session=false'], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`wrangler printed no "Ready on" line in ${READY_MS / 1000} s`)), READY_MS);
    const onData = (chunk) => {
      // eslint-disable-next-line no-control-regex -- ESC starts the colour codes removed here
      const s = chunk.toString().replace(/\x1b\[[0-9;]*m/g, '');   // its colours, whatever NO_COLOR says
      log.push(s);
      out += s;
      const m = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ url: m[1] }); }
      // A build error (e.g. an import the bundler cannot resolve) leaves wrangler waiting
      // for a change of the files: give up at once (after the rest of the message).
      else if (/\[ERROR\]/.test(out)) setTimeout(() => reject(new Error('wrangler reported an error before it was ready')), 500);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`wrangler exited (code ${code}, signal ${signal}) before it was ready`)); });
  });
  return { child, ready };
}

/** Ends a detached child's whole process group (wrangler, esbuild, workerd). */
// The group is killed even when wrangler itself has exited: its workerd may outlive it.
function killGroup(child) {
  if (!child) return Promise.resolve();
  const running = child.exitCode === null && child.signalCode === null;
  const exited = running ? new Promise((resolve) => { child.once('exit', resolve); setTimeout(resolve, 5_000).unref(); }) : Promise.resolve();
  try { process.kill(-child.pid, 'SIGKILL'); } catch { if (running) try { child.kill('SIGKILL'); } catch { /* gone */ } }
  return exited;
}

/** Deterministic bytes (a 32-bit LCG), the same in Node on every run. */
function lcgBytes(n, seed) {
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; out[i] = s >>> 24; }
  return out;
}
const lcgFloats = (n, seed, lo, hi) => Float32Array.from(lcgBytes(n, seed), (b, i) => lo + (hi - lo) * ((b + (i % 7) / 7) / 256));

/** A wire tensor back into { type, dims, data }. */
function unwire(w) {
  const Ctor = ARRAYS[w.array];
  assert.ok(Ctor, `output data is a ${w.array}`);
  const buf = Buffer.from(w.bytes, 'base64');
  return { type: w.type, dims: w.dims, data: new Ctor(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)) };
}
const bytesOf = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

/** Asserts a workerd tensor (wire form) is bit for bit the Node one. */
function assertSameTensor(w, expected, what) {
  const got = unwire(w);
  assert.equal(got.type, expected.type, `${what}: type`);
  assert.deepEqual(got.dims, Array.from(expected.dims, Number), `${what}: dims`);
  assert.equal(got.data.constructor.name, expected.data.constructor.name, `${what}: array type`);
  assert.ok(bytesOf(got).equals(bytesOf(expected)), `${what}: the bytes differ from Node's`);
}

// ---------------------------------------------------------------- the app and wrangler

let tmp = null;
let wrangler = null;
let baseUrl = null;
let node = null;          // the installed package, imported in this Node process
let setupInfo = '';
const log = [];

// Should this process end before `after` (Ctrl-C, a runner's SIGTERM), wrangler goes too.
const killNow = () => { if (wrangler) try { process.kill(-wrangler.pid, 'SIGKILL'); } catch { /* gone */ } };
process.on('exit', killNow);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    killNow();
    if (tmp && process.env.OSW_KEEP_APP !== '1') try { fs.rmSync(tmp, { recursive: true, force: true }); } catch { /* best effort */ }
    process.kill(process.pid, sig);
  });
}

before(async () => {
  const tarball = process.env.OSW_TARBALL;
  assert.ok(tarball, 'OSW_TARBALL is not set: set it to the absolute path of the .tgz made by `npm pack`');
  const tgz = path.resolve(tarball);
  assert.ok(fs.existsSync(tgz) && fs.statSync(tgz).isFile(), `OSW_TARBALL=${tgz} does not exist`);
  const node22 = findNode22();
  assert.ok(fs.existsSync(WRANGLER), `${WRANGLER} does not exist (the repo's dev dependencies are not installed)`);

  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'osw-workerd-'));
  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  const env = sandboxEnv(path.join(tmp, 'sandbox'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'osw-workerd-app', version: '1.0.0', private: true, type: 'module' }, null, 2));
  for (const f of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, f), path.join(app, f));
  // The wire format's decoder and encoder, the browser tests' own (installPageWire), as a
  // module the Worker imports.
  fs.writeFileSync(path.join(app, 'wire.js'),
    `${installPageWire.toString()}\ninstallPageWire();\nexport const { fromWire, toWire, runCases } = globalThis.__oswWire;\n`);
  const [npm, npmArgs] = npmCommand();
  run(npm, [...npmArgs, 'install', tgz, '--no-audit', '--no-fund'], { cwd: app, env, timeout: 100_000 });
  const pkg = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', PKG, 'package.json'), 'utf8'));

  // Node's side: the same installed copy, imported as a Node user's ES module does.
  fs.writeFileSync(path.join(app, 'node-side.mjs'), `export * from '${PKG}';\n`);
  node = await import(pathToFileURL(path.join(app, 'node-side.mjs')).href);

  const t0 = Date.now();
  const started = startWrangler({ node: node22.node, cwd: app, env, log });
  wrangler = started.child;
  try {
    ({ url: baseUrl } = await started.ready);
  } catch (e) {
    throw new Error(`${e.message}\n--- wrangler output ---\n${log.join('')}`, { cause: e });
  }
  setupInfo = `${PKG}@${pkg.version} from ${tgz}; wrangler ${JSON.parse(fs.readFileSync(path.join(path.dirname(WRANGLER), '..', 'package.json'), 'utf8')).version} `
    + `on Node ${node22.version} ready at ${baseUrl} in ${Date.now() - t0} ms`;
}, { timeout: 170_000 });

after(async () => {
  await killGroup(wrangler);
  wrangler = null;
  if (tmp && process.env.OSW_KEEP_APP !== '1') fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

/** POSTs (or GETs) a route of the Worker; its JSON; a { fatal } answer fails here with the Worker's error. */
async function call(route, body) {
  const res = await fetch(`${baseUrl}/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_MS),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `/${route}: HTTP ${res.status}: ${text.slice(0, 2000)}`);
  const out = JSON.parse(text);
  if (out.fatal) {
    const where = (out.fatal.stack || '').split('\n').filter((l) => /^\s+at /.test(l)).join('\n');
    assert.fail(`/${route} threw in workerd: ${out.fatal.name}: ${out.fatal.message}${where ? `\n${where}` : ''}`);
  }
  return out;
}

/** A test whose failure also shows what wrangler printed meanwhile (the first: since its start). */
let shown = 0;
function workerdTest(name, fn) {
  test(name, { timeout: TEST_MS }, async (t) => {
    const from = shown;
    try {
      await fn(t);
    } catch (e) {
      t.diagnostic(`wrangler output:\n${log.slice(from).join('').trimEnd() || '(nothing)'}`);
      throw e;
    } finally {
      shown = log.length;
    }
  });
}

// ---------------------------------------------------------------- the checks

workerdTest('the quick start runs in workerd with no options', async (t) => {
  t.diagnostic(setupInfo);
  const r = await call('quickstart');
  const sampler = await node.createSampler();
  const expected = sampler.resize({ type: 'float32', dims: [2, 2], data: new Float32Array([1, 2, 3, 4]) }, { scales: [2, 2], mode: 'linear' });
  sampler.dispose();
  assert.equal(r.threads, 1);
  assertSameTensor(r.output, expected, 'resize 2x2 -> 4x4 linear');
  assert.deepEqual(Array.from(unwire(r.output).data.slice(0, 4)), [1, 1.25, 1.75, 2]);
});

workerdTest(`the ${EXPECTED_CASES} conformance cases pass in workerd through sampler.run()`, async (t) => {
  const cases = loadCases(CONFORMANCE_DIR);
  const payload = cases.map((c) => ({ op: c.op, opset: c.opset, attributes: c.attributes, inputs: c.inputs.map(wire) }));
  const res = await call('conformance', payload);
  assert.equal(res.outputs.length, cases.length, 'one output per case');
  let passed = 0;
  const affine = { passed: 0, total: 0 };
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i];
    const r = res.outputs[i];
    if (c.op === 'AffineGrid') affine.total++;
    await t.test(`${c.set}/${c.name}`, () => {
      assert.equal(r.error, undefined, `${c.op} opset ${c.opset} ${JSON.stringify(c.attributes)} threw ${r.error}`);
      const mismatch = compareTensors(unwire(r.output), c.expected);
      assert.equal(mismatch, null, `${c.op} opset ${c.opset} ${JSON.stringify(c.attributes)}: ${mismatch}`);
      passed++;
      if (c.op === 'AffineGrid') affine.passed++;
    });
  }
  t.diagnostic(`conformance in workerd: ${passed}/${cases.length} passed (AffineGrid: ${affine.passed}/${affine.total})`);
  assert.ok(affine.total > 0, 'no AffineGrid cases ran');
  assert.equal(cases.length, EXPECTED_CASES, `found ${cases.length} cases in ${CONFORMANCE_DIR}`);
  assert.equal(passed, EXPECTED_CASES, `${passed} of ${cases.length} cases passed in workerd`);
});

workerdTest("compat 'pillow' and 'opencv' give Node's bytes in workerd", async () => {
  const rgb = { type: 'uint8', dims: [1, 37, 53, 3], data: lcgBytes(37 * 53 * 3, 7) };
  const rgba = { type: 'uint8', dims: [1, 29, 41, 4], data: lcgBytes(29 * 41 * 4, 11) };
  // RGBA with every alpha level (Pillow premultiplies it)
  for (let i = 3; i < rgba.data.length; i += 4) rgba.data[i] = (i * 37) & 255;
  const images = [rgb, rgba];
  const axes = [1, 2];
  const calls = [
    { image: 0, options: { sizes: [24, 40], axes, compat: 'pillow', mode: 'linear' } },
    { image: 0, options: { sizes: [60, 90], axes, compat: 'pillow' } },                 // cubic, the default
    { image: 0, options: { sizes: [12, 20], axes, compat: 'pillow', mode: 'box' } },
    { image: 1, options: { sizes: [17, 19], axes, compat: 'pillow', mode: 'lanczos' } },
    { image: 1, options: { sizes: [58, 82], axes, compat: 'pillow', mode: 'linear' } },
    { image: 0, options: { sizes: [60, 90], axes, compat: 'opencv' } },                 // linear, the default
    { image: 0, options: { scales: [0.5, 0.5], axes, compat: 'opencv', mode: 'area' } },
    { image: 0, options: { sizes: [40, 61], axes, compat: 'opencv', mode: 'nearest_exact' } },
    { image: 1, options: { sizes: [50, 70], axes, compat: 'opencv', mode: 'cubic' } },
  ];
  const r = await call('compat', { images: images.map(wire), calls });
  // The workerd entry has osw-compat.wasm imported: no loadCompat() is needed (as in Node).
  assert.equal(r.beforeLoad, 'worked', `a compat call before loadCompat() in workerd: ${r.beforeLoad}`);
  const sampler = await node.createSampler();
  await sampler.loadCompat();
  assert.equal(r.outputs.length, calls.length);
  calls.forEach((c, i) => {
    const what = `${c.options.compat} ${c.options.mode || '(default mode)'} ${JSON.stringify(c.options.sizes || c.options.scales)} of ${JSON.stringify(images[c.image].dims)}`;
    assert.equal(r.outputs[i].error, undefined, `${what} threw in workerd: ${r.outputs[i].error}`);
    assertSameTensor(r.outputs[i].output, sampler.resize(images[c.image], c.options), what);
  });
  sampler.dispose();
});

workerdTest('createSampler({ threads: 2 }) runs on one thread in workerd, with the same results', async () => {
  const x = { type: 'float32', dims: [1, 3, 256, 256], data: lcgFloats(3 * 256 * 256, 3, -2, 2) };
  const options = { sizes: [1, 3, 384, 384], mode: 'linear' };   // large enough for a pool, were there one
  const r = await call('threads', { input: wire(x), options });
  assert.equal(r.threads, 1, 'sampler.threads with { threads: 2 }');
  assert.equal(r.defaultThreads, 1, 'sampler.threads by default');
  assert.deepEqual(r.dims, [1, 3, 384, 384]);
  assert.equal(r.digestThreads, r.digestDefault, '{ threads: 2 } and the default sampler differ');
  const sampler = await node.createSampler();
  const expected = createHash('sha256').update(bytesOf(sampler.resize(x, options))).digest('hex');
  sampler.dispose();
  assert.equal(r.digestDefault, expected, "workerd's result differs from Node's");
});

workerdTest('createSampler({ worker: true }) rejects in workerd, saying there is no Worker and the synchronous sampler runs', async (t) => {
  const r = await call('worker');
  assert.ok(!r.threwSynchronously, `createSampler threw synchronously instead of rejecting: ${JSON.stringify(r.error)}`);
  assert.equal(r.notAPromise, undefined, `createSampler returned ${r.notAPromise}, not a Promise`);
  assert.ok(!r.resolved, `createSampler({ worker: true }) resolved (threads ${r.threads}) in a host without Worker`);
  assert.ok(r.rejected, 'createSampler({ worker: true }) did not reject');
  t.diagnostic(`rejection: ${r.error.name}: ${r.error.message}`);
  assert.ok(r.error.isError, `the rejection is not an Error: ${JSON.stringify(r.error)}`);
  assert.match(r.error.message, /\bWorker\b/, `the message should name Worker: ${r.error.name}: ${r.error.message}`);
  assert.match(r.error.message, /synchronous/i, `the message should say the synchronous sampler runs here: ${r.error.name}: ${r.error.message}`);
});

workerdTest("createSampler({ wasmBinary }) takes the WebAssembly.Module of 'onnx-sampling-wasm/osw.wasm'", async () => {
  const x = { type: 'float32', dims: [1, 2, 5, 7], data: lcgFloats(70, 5, -3, 3) };
  const grid = { type: 'float32', dims: [1, 4, 6, 2], data: lcgFloats(48, 9, -1.2, 1.2) };
  const resizeOptions = { sizes: [1, 2, 9, 11], mode: 'cubic' };
  const gridOptions = { mode: 'linear', paddingMode: 'border' };
  const r = await call('wasmBinary', { x: wire(x), grid: wire(grid), resizeOptions, gridOptions });
  assert.equal(r.isModule, true, "wrangler did not make 'onnx-sampling-wasm/osw.wasm' a WebAssembly.Module");
  assert.equal(r.threads, 1);
  const sampler = await node.createSampler();
  assertSameTensor(r.resize, sampler.resize(x, resizeOptions), 'resize cubic');
  assertSameTensor(r.gridSample, sampler.gridSample(x, grid, gridOptions), 'gridSample linear border');
  sampler.dispose();
});
