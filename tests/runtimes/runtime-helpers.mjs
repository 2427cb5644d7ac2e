// runtime-helpers.mjs: what the tests of other JavaScript runtimes (tests/runtimes/*.test.mjs)
// share. Each section says which test files use it; add new helpers in a section of their own.

import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_DIR, EXPECTED_CASES, OPS, compareTensors, loadCases } from '../js/onnx-cases.mjs';
import { installPageWire, wire } from '../browser/helpers.mjs';

export const RUNTIMES_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(RUNTIMES_DIR, '..', '..');
export const FIXTURES_DIR = path.join(RUNTIMES_DIR, 'fixtures');
export const PKG = 'onnx-sampling-wasm';

// =====================================================================================
// Deno and Bun (deno.test.mjs, bun.test.mjs)
//
// The package is installed from OSW_TARBALL into a temp app (createApp), the runtime runs
// fixture scripts there as child processes (runChild: a timeout, killed with its process
// group, its output kept for the failure message), and the results come back as one line
// `OSW-RESULT <json>` on stdout (resultOf). The same scripts run under this Node for the
// reference results.
// =====================================================================================

/** The Deno binary of the repo's devDependencies (npm package `deno`). */
export function denoBinary() {
  const candidates = [
    path.join(REPO_ROOT, 'node_modules', '.bin', 'deno'),
    path.join(REPO_ROOT, 'node_modules', 'deno', 'deno'),
    path.join(REPO_ROOT, 'node_modules', '@deno', `${process.platform}-${process.arch === 'x64' ? 'x64' : process.arch}-glibc`, 'deno'),
  ];
  return firstBinary('Deno', candidates, 'the devDependency `deno`');
}

/** The Bun binary of the repo's devDependencies (npm package `@oven/bun-linux-x64`). */
export function bunBinary() {
  const candidates = [path.join(REPO_ROOT, 'node_modules', '@oven', `bun-${process.platform}-${process.arch}`, 'bin', 'bun')];
  return firstBinary('Bun', candidates, `the devDependency \`@oven/bun-${process.platform}-${process.arch}\``);
}

function firstBinary(name, candidates, what) {
  for (const c of candidates) {
    if (!fs.existsSync(c)) continue;
    try {
      const version = execFileSync(c, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n')[0];
      return { bin: c, version };
    } catch (e) {
      throw new Error(`${c} --version failed: ${e.message}`, { cause: e });
    }
  }
  throw new Error(`no ${name} binary (looked for ${candidates.join(', ')}): \`npm ci\` in ${REPO_ROOT} installs it (${what})`);
}

/** The absolute path of OSW_TARBALL; unset or missing is a failure. */
export function tarballPath() {
  const t = process.env.OSW_TARBALL;
  assert.ok(t, 'OSW_TARBALL is not set: set it to the absolute path of the .tgz made by `npm pack`');
  const tgz = path.resolve(t);
  assert.ok(fs.existsSync(tgz) && fs.statSync(tgz).isFile(), `OSW_TARBALL=${tgz} does not exist`);
  return tgz;
}

/**
 * An environment whose writes (npm's cache, Deno's DENO_DIR, HOME, TMPDIR, ...) stay under
 * `dir`, with no colours, update checks or telemetry; without node --test's NODE_TEST_CONTEXT.
 */
export function sandboxEnv(dir, more = {}) {
  const d = (name) => { const p = path.join(dir, name); fs.mkdirSync(p, { recursive: true }); return p; };
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  delete env.FORCE_COLOR;   // Deno colours its output when FORCE_COLOR is set, whatever its value
  Object.assign(env, {
    HOME: d('home'), XDG_CONFIG_HOME: d('config'), XDG_CACHE_HOME: d('cache'), XDG_DATA_HOME: d('data'), TMPDIR: d('tmp'),
    npm_config_cache: d('npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false',
    DENO_DIR: d('deno-dir'), DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1', BUN_INSTALL_CACHE_DIR: d('bun-cache'),
    NO_COLOR: '1',
  }, more);
  return env;
}

/**
 * A fresh temp folder `root` holding `app/` (package.json of the given "type", the tarball
 * installed by npm, nothing else in node_modules) and `env` (sandboxEnv(root)).
 * Returns { root, app, pkgDir, env, remove() }.
 */
export function createApp(prefix, { type = 'commonjs' } = {}) {
  const tgz = tarballPath();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const app = path.join(root, 'app');
  fs.mkdirSync(app);
  const env = sandboxEnv(path.join(root, 'sandbox'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'osw-runtime-app', version: '1.0.0', private: true, type }, null, 2));
  try {
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', tgz, '--no-audit', '--no-fund', '--offline'],
      { cwd: app, env, encoding: 'utf8', timeout: 300_000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    fs.rmSync(root, { recursive: true, force: true });
    throw new Error(`npm install ${tgz} failed in ${app}:\n${e.message}\n${e.stdout || ''}\n${e.stderr || ''}`, { cause: e });
  }
  const pkgDir = path.join(app, 'node_modules', PKG);
  const others = fs.readdirSync(path.join(app, 'node_modules')).filter((n) => n !== PKG && !n.startsWith('.'));
  assert.deepEqual(others, [], 'the tarball must not pull in runtime dependencies');
  return { root, app, pkgDir, env, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** Copies fixture files (names relative to tests/runtimes/fixtures/) into `dir`, flat. */
export function copyFixtures(dir, names) {
  for (const n of names) fs.copyFileSync(path.join(FIXTURES_DIR, n), path.join(dir, path.basename(n)));
}

/**
 * Writes `wire.mjs` into `dir`: tests/browser/helpers.mjs's installPageWire (the page side of
 * the wire format), as a module exporting { fromWire, toWire } for the fixture scripts.
 */
export function writeWireModule(dir) {
  const src = `// Generated by tests/runtimes/runtime-helpers.mjs from tests/browser/helpers.mjs's installPageWire.\n`
    + `const installPageWire = ${installPageWire.toString()};\n`
    + 'installPageWire();\n'
    + 'export const { fromWire, toWire, runCases } = globalThis.__oswWire;\n';
  fs.writeFileSync(path.join(dir, 'wire.mjs'), src);
}

/**
 * The README's quick start: the first ```js block of the INSTALLED package's README.md that
 * imports createSampler from the package (the one right under `npm install`), as written.
 */
export function readmeQuickStart(pkgDir) {
  const readme = fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const importLine = `import { createSampler } from '${PKG}';`;
  const block = blocks.find((b) => b.includes(importLine));
  assert.ok(block, `${pkgDir}/README.md has no \`\`\`js block with ${importLine}`);
  return block;
}

/** The quick start as a CommonJS script: require() instead of import, the rest in an async function. */
export function quickStartAsCommonJS(block) {
  const importLine = `import { createSampler } from '${PKG}';`;
  const body = block.replace(importLine, '');
  return `'use strict';\nconst { createSampler } = require('${PKG}');\n(async () => {\n${body}\n})().catch((e) => { console.error(e); process.exitCode = 1; });\n`;
}

const live = new Set();

/**
 * Runs a command to its end in its own process group. Resolves { code, signal, stdout,
 * stderr, timedOut, ms, what }; on timeout the group is killed (SIGKILL) and timedOut is true.
 */
export function runChild(file, args, { cwd, env, input, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const what = `${path.basename(file)} ${args.join(' ')} (in ${cwd})`;
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(child);
    let stdout = '', stderr = '', timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s) => { stdout += s; });
    child.stderr.setEncoding('utf8').on('data', (s) => { stderr += s; });
    child.stdin.on('error', () => {});   // a child that exits before reading its input
    child.stdin.end(input === undefined ? '' : input);
    const timer = setTimeout(() => { timedOut = true; killGroup(child); }, timeoutMs);
    const done = (code, signal, err) => {
      clearTimeout(timer);
      live.delete(child);
      if (err) stderr += `\n[spawn error: ${err.message}]`;
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - t0, what });
    };
    child.on('error', (e) => done(null, null, e));
    child.on('close', (code, signal) => done(code, signal));
  });
}

function killGroup(child) {
  try { process.kill(-child.pid, 'SIGKILL'); } catch { try { child.kill('SIGKILL'); } catch { /* gone */ } }
}

/** Kills every child of runChild still running (for `after`). */
export function killChildren() {
  for (const c of live) killGroup(c);
  live.clear();
}

/** A run's outcome, for assertion messages. */
export function describeRun(r, limit = 4000) {
  const cut = (s) => (s.length > limit ? `${s.slice(0, limit)}… (${s.length} chars)` : s);
  return `${r.what}: ${r.timedOut ? `TIMED OUT after ${r.ms} ms (killed)` : `exit code ${r.code}${r.signal ? `, signal ${r.signal}` : ''}, ${r.ms} ms`}`
    + `\n--- stdout:\n${cut(r.stdout.trim())}\n--- stderr:\n${cut(r.stderr.trim())}`;
}

/** Asserts the run ended by itself with code 0 and an empty stderr. */
export function assertCleanExit(r) {
  assert.ok(!r.timedOut, `the process did not exit by itself: ${describeRun(r)}`);
  assert.equal(r.code, 0, `the process failed: ${describeRun(r)}`);
  assert.equal(r.stderr.trim(), '', `the process printed on stderr (the package prints nothing): ${describeRun(r)}`);
}

/** The JSON of the run's last `OSW-RESULT <json>` line. */
export function resultOf(r) {
  const line = r.stdout.split('\n').filter((l) => l.startsWith('OSW-RESULT ')).pop();
  assert.ok(line, `no OSW-RESULT line: ${describeRun(r)}`);
  return JSON.parse(line.slice('OSW-RESULT '.length));
}

/** Runs and checks a fixture mode: a clean exit and its result. */
export async function runResult(file, args, options) {
  const r = await runChild(file, args, options);
  assertCleanExit(r);
  return resultOf(r);
}

/** The conformance cases and the JSON that checks.mjs's `conformance` mode reads on stdin. */
export function conformanceInput() {
  const cases = loadCases(CONFORMANCE_DIR);
  const input = JSON.stringify(cases.map((c) => ({ op: c.op, opset: c.opset, attributes: c.attributes, inputs: c.inputs.map(wire) })));
  return { cases, input };
}

const ARRAYS = {
  Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
};

/** A wire tensor ({ type, dims, array, bytes }) back into { type, dims, data }. */
export function unwire(w) {
  const Ctor = ARRAYS[w.array];
  assert.ok(Ctor, `output data is a ${w.array}`);
  const buf = Buffer.from(w.bytes, 'base64');
  return { type: w.type, dims: w.dims, data: new Ctor(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)) };
}

/**
 * Compares the outputs of checks.mjs's `conformance` mode with the cases (compareTensors),
 * reports `conformance in <label>: P/T passed (AffineGrid: p/t)` as a diagnostic and fails
 * unless all EXPECTED_CASES passed (listing the first failures).
 */
export function checkConformance(t, cases, result, label) {
  assert.equal(result.outputs.length, cases.length, `${label} returned ${result.outputs.length} outputs for ${cases.length} cases`);
  const perOp = Object.fromEntries(OPS.map((op) => [op, { passed: 0, total: 0 }]));
  const failures = [];
  cases.forEach((c, i) => {
    const r = result.outputs[i];
    perOp[c.op].total++;
    const why = r.error !== undefined ? `threw ${r.error}` : compareTensors(unwire(r.output), c.expected);
    if (why === null) perOp[c.op].passed++;
    else failures.push(`${c.set}/${c.name} (${c.op} opset ${c.opset} ${JSON.stringify(c.attributes)}): ${why}`);
  });
  const passed = cases.length - failures.length;
  t.diagnostic(`conformance in ${label}: ${passed}/${cases.length} passed (AffineGrid: ${perOp.AffineGrid.passed}/${perOp.AffineGrid.total})`);
  assert.equal(cases.length, EXPECTED_CASES, `found ${cases.length} cases in ${CONFORMANCE_DIR}`);
  for (const op of OPS) assert.ok(perOp[op].total > 0, `no ${op} cases ran in ${label}`);
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${cases.length} cases failed in ${label}`);
}

// ============================================================ end of the Deno and Bun section
