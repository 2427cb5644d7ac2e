// conformance.test.mjs — owns the Node.js conformance run of the public API.
//
// Loads all 188 ONNX cases (tests/js/onnx-cases.mjs: Resize, Upsample, GridSample and
// AffineGrid), imports the package the way Node's
// ESM loader would (the "node"/"import" entry of the package.json "exports"), creates one
// sampler and runs every case through sampler.run(), one test per case named
// `${set}/${name}`. Nothing is skipped; a final test insists on exactly 188 cases and
// another reports the per-op counts (scripts/test.mjs reads them into its summary).
//
// Env:
//   OSW_PACKAGE      absolute path of an installed package folder
//                    (e.g. /tmp/app/node_modules/onnx-sampling-wasm);
//                    unset: the repo build, dist/index.mjs
//   OSW_CONFORMANCE  conformance data dir; unset: <repo>/tests/conformance

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CONFORMANCE_DIR, EXPECTED_CASES, OPS, PENDING_SETS, loadCases, compareTensors, readIndex } from './onnx-cases.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

// Resolve a package folder's entry for an ESM import in Node: follow "exports" ["."]
// through the conditions node / import / default in the object's own key order (as
// Node does), falling back to "main" when there is no "exports".
function resolvePackageEntry(pkgDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const conditions = new Set(['node', 'import', 'default']);
  const pick = (target) => {
    if (typeof target === 'string') return target;
    if (Array.isArray(target)) {
      for (const t of target) { const r = pick(t); if (r) return r; }
      return null;
    }
    if (target && typeof target === 'object') {
      for (const [key, value] of Object.entries(target)) {
        if (conditions.has(key)) { const r = pick(value); if (r) return r; }
      }
    }
    return null;
  };
  let entry;
  if (pkg.exports !== undefined) {
    const exp = pkg.exports;
    const dot = typeof exp === 'object' && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith('.'))
      ? exp['.'] : exp;
    entry = pick(dot);
    if (!entry) throw new Error(`${pkgDir}/package.json: no "node"/"import"/"default" export for "."`);
  } else {
    entry = pkg.main || 'index.js';
  }
  return path.resolve(pkgDir, entry);
}

function packageEntry() {
  if (process.env.OSW_PACKAGE) {
    const dir = path.resolve(process.env.OSW_PACKAGE);
    if (!fs.existsSync(path.join(dir, 'package.json'))) {
      throw new Error(`OSW_PACKAGE=${dir} is not a package folder (no package.json)`);
    }
    return resolvePackageEntry(dir);
  }
  return path.join(repoRoot, 'dist', 'index.mjs');
}

// ---------------------------------------------------------------------------

const conformanceDir = CONFORMANCE_DIR;
let cases = [];
let loadError = null;
try {
  cases = loadCases(conformanceDir);
} catch (err) {
  loadError = err;
}

let entry = null;
const samplerPromise = (async () => {
  entry = packageEntry();
  const mod = await import(pathToFileURL(entry).href);
  if (typeof mod.createSampler !== 'function') {
    throw new Error(`${entry} does not export createSampler (exports: ${Object.keys(mod).join(', ')})`);
  }
  return mod.createSampler();
})();
samplerPromise.catch(() => {}); // reported by each test instead of as an unhandled rejection

const results = new Map(); // op -> { total, passed }

test('package loads and createSampler() resolves', async (t) => {
  const sampler = await samplerPromise;
  t.diagnostic(`package entry: ${entry}`);
  t.diagnostic(`conformance data: ${conformanceDir}`);
  assert.ok(sampler && typeof sampler.run === 'function', 'sampler.run is a function');
});

for (const c of cases) {
  test(`${c.set}/${c.name}`, async () => {
    const r = results.get(c.op) || { total: 0, passed: 0 };
    results.set(c.op, r);
    r.total++;
    const sampler = await samplerPromise;
    const outputs = sampler.run({ opType: c.op, opset: c.opset, attributes: c.attributes }, c.inputs);
    assert.ok(Array.isArray(outputs), `run() returned ${outputs === null ? 'null' : typeof outputs}, expected an array`);
    assert.equal(outputs.length, 1, `run() returned ${outputs.length} outputs, expected 1`);
    const mismatch = compareTensors(outputs[0], c.expected);
    assert.equal(mismatch, null, `${c.op} opset ${c.opset} ${JSON.stringify(c.attributes)}: ${mismatch}`);
    r.passed++;
  });
}

test('per-op case counts', (t) => {
  assert.equal(loadError, null, `loading cases failed: ${loadError && loadError.stack}`);
  const bySetOp = {};
  for (const c of cases) {
    const key = `${c.op} (${c.set}, opset ${c.opset})`;
    bySetOp[key] = (bySetOp[key] || 0) + 1;
  }
  for (const op of OPS) {
    const r = results.get(op) || { total: 0, passed: 0 };
    t.diagnostic(`${op}: ${r.passed}/${r.total} passed`);
    assert.ok(r.total > 0, `no ${op} cases ran`);
  }
  for (const [key, n] of Object.entries(bySetOp).sort()) t.diagnostic(`  ${key}: ${n}`);
});

test(`exactly ${EXPECTED_CASES} cases were found and run`, () => {
  assert.equal(loadError, null, `loading cases from ${conformanceDir} failed: ${loadError && loadError.message}`);
  assert.equal(cases.length, EXPECTED_CASES, `found ${cases.length} cases in ${conformanceDir}`);
  const ran = [...results.values()].reduce((a, r) => a + r.total, 0);
  assert.equal(ran, EXPECTED_CASES, `${ran} case tests ran`);
});

for (const [set, why] of Object.entries(PENDING_SETS)) {
  const n = readIndex(conformanceDir, set).length;
  test(`${set}/: ${n} cases`, { skip: `${why}; not counted in the ${EXPECTED_CASES}` }, () => {});
}
