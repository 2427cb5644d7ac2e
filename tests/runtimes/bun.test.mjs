// bun.test.mjs: the packed package in Bun (the repo's devDependency @oven/bun-linux-x64), as a
// Bun user runs it: an app folder ("type": "commonjs") with the tarball (env OSW_TARBALL,
// required: unset is a failure) npm-installed into node_modules, each script a child process
// that must exit by itself (a timeout kills it) with nothing on stderr. Checked IN Bun:
//   - the README's quick start, as written in the installed README.md, as an ES module and
//     as CommonJS (require): the same output as Node 20;
//   - the 188 ONNX conformance cases through sampler.run() (decoded here with
//     tests/js/onnx-cases.mjs, sent and returned in tests/browser/helpers.mjs's wire format,
//     compared here with compareTensors);
//   - threads: 2: sampler.threads === 2 and the bytes of threads: 1 (a 1x3x256x256 -> 512x512
//     linear Resize, a cubic GridSample of 65536 locations), equal to Node's;
//   - worker: true: the synchronous sampler's bytes, and dispose() lets the process end;
//   - compat 'pillow' and 'opencv' uint8 resizes: the bytes of the same calls in Node 20;
//   - `bun build --compile compiled-app.mjs --outfile osw-app` (the README's command, nothing
//     else on it), the executable copied alone into an empty folder and run there: the quick
//     start, threads: 2, worker: true and the conformance cases, as above.
// The scripts are fixtures/deno/checks.mjs (the checks of every runtime, shared with
// deno.test.mjs), fixtures/bun/compiled-app.mjs and the README block; the reference results
// come from the same scripts run by this Node in the same app.
//
// Env: OSW_TARBALL (required), OSW_CONFORMANCE (the cases; default tests/conformance).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  assertCleanExit, bunBinary, checkConformance, conformanceInput, copyFixtures, createApp, describeRun,
  killChildren, quickStartAsCommonJS, readmeQuickStart, resultOf, runChild, runResult, writeWireModule,
} from './runtime-helpers.mjs';

const RUN_MS = 60_000;      // each child; they take 0.1-2 s here
const BUILD_MS = 120_000;   // bun build --compile: about 1 s here
const TEST_MS = 150_000;
const EXE = 'osw-app';

let bun = null;
let app = null;

before(() => {
  bun = bunBinary();
  app = createApp('osw-bun-');
  copyFixtures(app.app, ['deno/checks.mjs', 'bun/compiled-app.mjs']);
  writeWireModule(app.app);
  const block = readmeQuickStart(app.pkgDir);
  fs.writeFileSync(path.join(app.app, 'quickstart.mjs'), block);
  fs.writeFileSync(path.join(app.app, 'quickstart.cjs'), quickStartAsCommonJS(block));
});

after(() => {
  killChildren();
  app?.remove();
});

const options = (more = {}) => ({ cwd: app.app, env: app.env, timeoutMs: RUN_MS, ...more });
const inBun = (args, more) => runChild(bun.bin, args, options(more));
const inNode = (args, more) => runChild(process.execPath, args, options(more));

// Node's results, each computed once.
const nodeRuns = new Map();
function nodeResult(mode) {
  if (!nodeRuns.has(mode)) nodeRuns.set(mode, runResult(process.execPath, ['checks.mjs', mode], options()));
  return nodeRuns.get(mode);
}
function nodeQuickStart(file) {
  const key = `quickstart ${file}`;
  if (!nodeRuns.has(key)) {
    nodeRuns.set(key, inNode([file]).then((r) => {
      assertCleanExit(r);
      assert.match(r.stdout, /512, 512/, `Node's run of the quick start: ${describeRun(r)}`);
      return r.stdout;
    }));
  }
  return nodeRuns.get(key);
}

function assertThreads(b, n, where) {
  assert.equal(b.threads, 2, `sampler.threads ${where}: ${JSON.stringify(b)}`);
  assert.equal(b.oneThreads, 1);
  assert.ok(b.resize.same, `Resize: threads: 2 differs from threads: 1 ${where}`);
  assert.ok(b.gridSample.same, `GridSample: threads: 2 differs from threads: 1 ${where}`);
  assert.deepEqual(b, n, `${where} and Node 20 differ`);
}
function assertWorker(b, n, where) {
  assert.ok(b.resize.same && b.gridSample.same && b.image.same, `the worker's results differ from the synchronous sampler's ${where}: ${JSON.stringify(b)}`);
  assert.equal(b.disposed, true);
  assert.deepEqual(b, n, `${where} and Node 20 differ`);
}

test('the README quick start runs in Bun as written, as an ES module', { timeout: TEST_MS }, async (t) => {
  t.diagnostic(`Bun ${bun.version} (${bun.bin}); app ${app.app}`);
  const [b, n] = await Promise.all([inBun(['quickstart.mjs']), nodeQuickStart('quickstart.mjs')]);
  assertCleanExit(b);
  assert.equal(b.stdout, n, 'Bun printed something else than Node');
});

test('the README quick start runs in Bun as CommonJS (require)', { timeout: TEST_MS }, async () => {
  const [b, n] = await Promise.all([inBun(['quickstart.cjs']), nodeQuickStart('quickstart.cjs')]);
  assertCleanExit(b);
  assert.equal(b.stdout, n, 'Bun printed something else than Node');
});

test('the 188 conformance cases pass in Bun through sampler.run()', { timeout: TEST_MS }, async (t) => {
  const { cases, input } = conformanceInput();
  const r = await inBun(['checks.mjs', 'conformance'], { input });
  assertCleanExit(r);
  checkConformance(t, cases, resultOf(r), 'Bun');
});

test('threads: 2 in Bun: two threads, the bytes of threads: 1 and of Node; the pool does not keep the process alive', { timeout: TEST_MS }, async () => {
  const [b, n] = await Promise.all([runResult(bun.bin, ['checks.mjs', 'threads'], options()), nodeResult('threads')]);
  assertThreads(b, n, 'in Bun');
});

test('worker: true in Bun: the synchronous sampler\'s bytes; dispose() lets the process exit', { timeout: TEST_MS }, async () => {
  const [b, n] = await Promise.all([runResult(bun.bin, ['checks.mjs', 'worker'], options()), nodeResult('worker')]);
  assertWorker(b, n, 'in Bun');
});

test('compat \'pillow\' and \'opencv\' in Bun give the bytes of Node 20', { timeout: TEST_MS }, async () => {
  const [b, n] = await Promise.all([runResult(bun.bin, ['checks.mjs', 'compat'], options()), nodeResult('compat')]);
  assert.deepEqual(b, n, 'Bun and Node 20 differ');
});

test(`bun build --compile compiled-app.mjs --outfile ${EXE}: the executable runs alone in an empty folder`, { timeout: 4 * TEST_MS }, async (t) => {
  const build = await inBun(['build', '--compile', 'compiled-app.mjs', '--outfile', path.join('..', 'build', EXE)], { timeoutMs: BUILD_MS });
  assert.ok(!build.timedOut && build.code === 0, `the build failed: ${describeRun(build)}`);
  const alone = fs.mkdtempSync(path.join(app.root, 'alone-'));
  fs.copyFileSync(path.join(app.root, 'build', EXE), path.join(alone, EXE));
  fs.chmodSync(path.join(alone, EXE), 0o755);
  fs.rmSync(path.join(app.root, 'build'), { recursive: true, force: true });
  assert.deepEqual(fs.readdirSync(alone), [EXE]);
  const exe = path.join(alone, EXE);
  const inExe = (args, more) => runChild(exe, args, { cwd: alone, env: app.env, timeoutMs: RUN_MS, ...more });

  await t.test('the README quick start', async () => {
    const [r, n] = await Promise.all([inExe(['quickstart']), nodeQuickStart('quickstart.mjs')]);
    assertCleanExit(r);
    assert.equal(r.stdout, n, 'the executable printed something else than Node');
  });
  await t.test('threads: 2', async () => {
    const r = await inExe(['threads']);
    assertCleanExit(r);
    assertThreads(resultOf(r), await nodeResult('threads'), 'in the Bun executable');
  });
  await t.test('worker: true', async () => {
    const r = await inExe(['worker']);
    assertCleanExit(r);
    assertWorker(resultOf(r), await nodeResult('worker'), 'in the Bun executable');
  });
  await t.test('the 188 conformance cases', async (tt) => {
    const { cases, input } = conformanceInput();
    const r = await inExe(['conformance'], { input });
    assertCleanExit(r);
    checkConformance(tt, cases, resultOf(r), 'Bun (compiled)');
  });
});
