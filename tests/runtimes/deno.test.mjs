// deno.test.mjs: the packed package in Deno (the repo's devDependency `deno`), as a Deno user
// runs it: an app folder with package.json and the tarball (env OSW_TARBALL, required: unset
// is a failure) npm-installed into node_modules, no deno.json, `deno run` with exactly the
// permission flags the README names (DENO_FLAGS), each script a child process that must exit
// by itself (a timeout kills it) with nothing on stderr. Checked IN Deno:
//   - the README's quick start, as written in the installed README.md: same output as Node 20;
//   - the 188 ONNX conformance cases through sampler.run() (decoded here with
//     tests/js/onnx-cases.mjs, sent and returned in tests/browser/helpers.mjs's wire format,
//     compared here with compareTensors);
//   - threads: 2: sampler.threads === 2 and the bytes of threads: 1 (a 1x3x256x256 -> 512x512
//     linear Resize, a cubic GridSample of 65536 locations), equal to Node's;
//   - worker: true: the synchronous sampler's bytes, and dispose() lets the process end;
//   - compat 'pillow' and 'opencv' uint8 resizes: the bytes of the same calls in Node 20;
//   - without --allow-read, createSampler() rejects with an Error that names the flag and does
//     not send the user to copy files (Deno's permissions, not a bundler, are the cause).
// The scripts are fixtures/deno/checks.mjs (modes) and the README block; the reference
// results come from the same scripts run by this Node in the same app.
//
// Env: OSW_TARBALL (required), OSW_CONFORMANCE (the cases; default tests/conformance).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  assertCleanExit, checkConformance, conformanceInput, copyFixtures, createApp, denoBinary, describeRun,
  killChildren, readmeQuickStart, resultOf, runChild, runResult, writeWireModule,
} from './runtime-helpers.mjs';

// The flags the README gives for Deno (read access to the package's files: its .wasm files
// are read with fs; importing it and starting its workers need no permission). Relative to
// the app folder, the cwd of every run.
const DENO_FLAGS = ['--allow-read=node_modules/onnx-sampling-wasm'];
const RUN_MS = 60_000;    // each child; they take 0.1-2 s here
const TEST_MS = 150_000;

let deno = null;
let app = null;

before(() => {
  deno = denoBinary();
  app = createApp('osw-deno-');
  copyFixtures(app.app, ['deno/checks.mjs']);
  writeWireModule(app.app);
  fs.writeFileSync(path.join(app.app, 'quickstart.mjs'), readmeQuickStart(app.pkgDir));
});

after(() => {
  killChildren();
  app?.remove();
});

const inDeno = (args, options = {}) => runChild(deno.bin, ['run', ...args], { cwd: app.app, env: app.env, timeoutMs: RUN_MS, ...options });
const inNode = (args, options = {}) => runChild(process.execPath, args, { cwd: app.app, env: app.env, timeoutMs: RUN_MS, ...options });
const checks = (mode) => Promise.all([
  runResult(deno.bin, ['run', ...DENO_FLAGS, 'checks.mjs', mode], { cwd: app.app, env: app.env, timeoutMs: RUN_MS }),
  runResult(process.execPath, ['checks.mjs', mode], { cwd: app.app, env: app.env, timeoutMs: RUN_MS }),
]);

test(`the README quick start runs in Deno as written (deno run ${DENO_FLAGS.join(' ')})`, { timeout: TEST_MS }, async (t) => {
  t.diagnostic(`${deno.version.split('\n')[0]} (${deno.bin}); app ${app.app}`);
  const [d, n] = await Promise.all([inDeno([...DENO_FLAGS, 'quickstart.mjs']), inNode(['quickstart.mjs'])]);
  assertCleanExit(n);
  assertCleanExit(d);
  assert.match(n.stdout, /512, 512/, `Node's run of the quick start: ${describeRun(n)}`);
  assert.equal(d.stdout, n.stdout, 'Deno printed something else than Node');
});

test('the 188 conformance cases pass in Deno through sampler.run()', { timeout: TEST_MS }, async (t) => {
  const { cases, input } = conformanceInput();
  const r = await inDeno([...DENO_FLAGS, 'checks.mjs', 'conformance'], { input });
  assertCleanExit(r);
  checkConformance(t, cases, resultOf(r), 'Deno');
});

test('threads: 2 in Deno: two threads, the bytes of threads: 1 and of Node; the pool does not keep the process alive', { timeout: TEST_MS }, async () => {
  const [d, n] = await checks('threads');
  assert.equal(d.threads, 2, `sampler.threads in Deno: ${JSON.stringify(d)}`);
  assert.equal(d.oneThreads, 1);
  assert.ok(d.resize.same, 'Resize: threads: 2 differs from threads: 1 in Deno');
  assert.ok(d.gridSample.same, 'GridSample: threads: 2 differs from threads: 1 in Deno');
  assert.deepEqual(d, n, 'Deno and Node 20 differ');
});

test('worker: true in Deno: the synchronous sampler\'s bytes; dispose() lets the process exit', { timeout: TEST_MS }, async () => {
  const [d, n] = await checks('worker');
  assert.ok(d.resize.same && d.gridSample.same && d.image.same, `the worker's results differ from the synchronous sampler's: ${JSON.stringify(d)}`);
  assert.equal(d.disposed, true);
  assert.ok(Number.isInteger(d.threads) && d.threads >= 1, `threads ${d.threads}`);
  assert.deepEqual(d, n, 'Deno and Node 20 differ');
});

test('compat \'pillow\' and \'opencv\' in Deno give the bytes of Node 20', { timeout: TEST_MS }, async () => {
  const [d, n] = await checks('compat');
  assert.deepEqual(d, n, 'Deno and Node 20 differ');
});

test('without --allow-read, createSampler() rejects with an Error naming the flag', { timeout: TEST_MS }, async () => {
  const r = await inDeno(['checks.mjs', 'noread']);
  assertCleanExit(r);
  const e = resultOf(r);
  assert.equal(e.ok, false, 'createSampler() resolved without read permission');
  assert.equal(e.isError, true, `rejected with a non-Error: ${JSON.stringify(e)}`);
  assert.match(e.message, /^onnx-sampling-wasm: /, `the package's own message: ${e.message}`);
  assert.match(e.message, /--allow-read/, `the message should name the flag: ${e.message}`);
  assert.ok(e.message.includes(path.join(app.pkgDir, 'dist')), `the message should name what to allow (the package's dist/): ${e.message}`);
  assert.doesNotMatch(e.message, /If a bundler did not copy it|copy node_modules/,
    `a permission is missing, nothing is to be copied: the message should not say to copy the wasm: ${e.message}`);
  assert.equal(e.cause?.name, 'NotCapable', `Deno's error should be the cause: ${JSON.stringify(e.cause)}`);
});
