// package-app.test.mjs — owns the "packed tarball works in an empty app" check.
//
// Installs the `npm pack` tarball named by env OSW_TARBALL into a fresh scratch app
// (package.json "type": "commonjs") in a temp dir, then runs two separate Node processes,
// an ESM script (import) and a CJS script (require), that each do the same small Resize
// (linear, sizes), Resize (nearest, scales) and GridSample on a 1x1x2x2 float32 tensor and
// print the results as JSON. Both must agree exactly and match values computed here from
// the ONNX formulas. OSW_TARBALL unset is a failure, not a skip.
//
// Env: OSW_TARBALL (required, absolute path to the .tgz); OSW_KEEP_APP=1 keeps the temp app.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PKG = 'onnx-sampling-wasm';
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// --- the work both scripts do (same text for ESM and CJS) ---------------------------
const X_VALUES = [1, 2, 3, 4]; // [[1, 2], [3, 4]]
const GRID_POINTS = [[-1, -1], [0, 0], [0.5, -0.25], [1, 1], [-0.3, 0.8], [2, 0]]; // (x, y), 2x3 grid
const SCRIPT_BODY = `
const sampler = await createSampler();
const X = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array(${JSON.stringify(X_VALUES)}) };
const sizes = { type: 'int64', dims: [4], data: new BigInt64Array([1n, 1n, 4n, 4n]) };
const scales = { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) };
const grid = { type: 'float32', dims: [1, 2, 3, 2], data: new Float32Array(${JSON.stringify(GRID_POINTS.flat())}) };
const plain = (t) => ({ type: t.type, dims: Array.from(t.dims, Number), array: t.data.constructor.name, data: Array.from(t.data) });
const linear = sampler.run({ opType: 'Resize', opset: 19, attributes: { mode: 'linear' } }, [X, null, null, sizes]);
const nearest = sampler.run({ opType: 'Resize', opset: 19, attributes: { mode: 'nearest' } }, [X, null, scales]);
const gridsample = sampler.run({ opType: 'GridSample', opset: 22,
  attributes: { mode: 'linear', padding_mode: 'zeros', align_corners: 0 } }, [X, grid]);
const results = { linear: plain(linear[0]), nearest: plain(nearest[0]), gridsample: plain(gridsample[0]) };
process.stdout.write(JSON.stringify({ entry: RESOLVED, results }));
`;

const ESM_SCRIPT = `import { createSampler } from '${PKG}';
const RESOLVED = typeof import.meta.resolve === 'function' ? import.meta.resolve('${PKG}') : null;
${SCRIPT_BODY}`;

const CJS_SCRIPT = `'use strict';
const { createSampler } = require('${PKG}');
const RESOLVED = require.resolve('${PKG}');
(async () => {
${SCRIPT_BODY}
})().catch((err) => { console.error(err && err.stack || err); process.exitCode = 1; });
`;

// --- reference values from the ONNX formulas -----------------------------------------
const at = (y, x) => X_VALUES[y * 2 + x];

// Resize, coordinate_transformation_mode half_pixel, 2 -> 4 per spatial axis.
function resizeAxis(outIndex, inLen, outLen, mode) {
  const scale = outLen / inLen;
  const orig = (outIndex + 0.5) / scale - 0.5;
  if (mode === 'nearest') {
    // nearest_mode round_prefer_floor: x.5 goes down
    const r = orig - Math.floor(orig) === 0.5 ? Math.floor(orig) : Math.round(orig);
    return [[Math.min(Math.max(r, 0), inLen - 1), 1]];
  }
  const c = Math.min(Math.max(orig, 0), inLen - 1); // linear: edge values beyond the border
  const i0 = Math.floor(c);
  const i1 = Math.min(i0 + 1, inLen - 1);
  return [[i0, 1 - (c - i0)], [i1, c - i0]];
}
function expectedResize(mode) {
  const out = [];
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < 4; x++) {
      let v = 0;
      for (const [iy, wy] of resizeAxis(y, 2, 4, mode)) {
        for (const [ix, wx] of resizeAxis(x, 2, 4, mode)) v += wy * wx * at(iy, ix);
      }
      out.push(v);
    }
  }
  return out;
}

// GridSample bilinear, padding zeros, align_corners 0: pixel = ((g + 1) * size - 1) / 2.
function expectedGridSample() {
  const g = new Float32Array(GRID_POINTS.flat()); // the float32 values the scripts send
  const fetch = (y, x) => (y >= 0 && y < 2 && x >= 0 && x < 2 ? at(y, x) : 0);
  const out = [];
  for (let p = 0; p < GRID_POINTS.length; p++) {
    const ix = ((g[2 * p] + 1) * 2 - 1) / 2;
    const iy = ((g[2 * p + 1] + 1) * 2 - 1) / 2;
    const x0 = Math.floor(ix);
    const y0 = Math.floor(iy);
    const dx = ix - x0;
    const dy = iy - y0;
    out.push((1 - dy) * ((1 - dx) * fetch(y0, x0) + dx * fetch(y0, x0 + 1))
      + dy * ((1 - dx) * fetch(y0 + 1, x0) + dx * fetch(y0 + 1, x0 + 1)));
  }
  return out;
}

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} values, expected ${expected.length}`);
  expected.forEach((e, i) => {
    const tol = 1e-7 + 1e-3 * Math.abs(e);
    assert.ok(Math.abs(actual[i] - e) <= tol, `${what}[${i}]: got ${actual[i]}, expected ${e}\n  all: ${JSON.stringify(actual)}`);
  });
}

// --- the scratch app ------------------------------------------------------------------
let appDir = null;
let installed = false;
const outputs = {};

after(() => {
  if (appDir && process.env.OSW_KEEP_APP !== '1') fs.rmSync(appDir, { recursive: true, force: true });
});

function run(file, args, options) {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (err) {
    const detail = [err.message, err.stdout && `stdout:\n${err.stdout}`, err.stderr && `stderr:\n${err.stderr}`]
      .filter(Boolean).join('\n');
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed in ${options.cwd}:\n${detail}`, { cause: err });
  }
}

test('npm installs the packed tarball into an empty CommonJS app', (t) => {
  const tarball = process.env.OSW_TARBALL;
  assert.ok(tarball, 'OSW_TARBALL is not set: set it to the absolute path of the .tgz made by `npm pack`');
  const tgz = path.resolve(tarball);
  assert.ok(fs.existsSync(tgz) && fs.statSync(tgz).isFile(), `OSW_TARBALL=${tgz} does not exist`);

  appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'osw-app-'));
  fs.writeFileSync(path.join(appDir, 'package.json'), JSON.stringify({
    name: 'osw-scratch-app', version: '1.0.0', private: true, type: 'commonjs',
  }, null, 2));
  const log = run(NPM, ['install', tgz, '--no-audit', '--no-fund'], {
    cwd: appDir,
    timeout: 300_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  t.diagnostic(`npm install: ${log.trim().split('\n').pop()}`);

  const pkgDir = path.join(appDir, 'node_modules', PKG);
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  assert.equal(pkg.name, PKG);
  const others = fs.readdirSync(path.join(appDir, 'node_modules')).filter((n) => n !== PKG && !n.startsWith('.'));
  assert.deepEqual(others, [], 'the tarball must not pull in runtime dependencies');
  t.diagnostic(`installed ${PKG}@${pkg.version}: ${fs.readdirSync(pkgDir, { recursive: true }).sort().join(', ')}`);
  installed = true;
});

for (const [kind, file, source] of [['ESM', 'check.mjs', ESM_SCRIPT], ['CJS', 'check.cjs', CJS_SCRIPT]]) {
  test(`${kind} script (${file}) runs the installed package in its own process`, (t) => {
    assert.ok(installed, 'the package was not installed (see the first test)');
    fs.writeFileSync(path.join(appDir, file), source);
    const stdout = run(process.execPath, [file], { cwd: appDir, timeout: 120_000 });
    const out = JSON.parse(stdout);
    if (out.entry) {
      const entryPath = out.entry.startsWith('file:') ? new URL(out.entry).pathname : out.entry;
      t.diagnostic(`${kind} resolved ${PKG} to ${entryPath}`);
      assert.ok(fs.realpathSync(entryPath).startsWith(fs.realpathSync(path.join(appDir, 'node_modules', PKG)) + path.sep),
        `${kind} loaded ${entryPath}, not the installed copy`);
    }
    outputs[kind] = out.results;
  });
}

test('ESM and CJS give identical results', () => {
  assert.ok(outputs.ESM && outputs.CJS, 'both scripts must have run');
  assert.deepEqual(outputs.ESM, outputs.CJS);
});

test('results match the ONNX formulas', () => {
  const r = outputs.ESM || outputs.CJS;
  assert.ok(r, 'no script produced results');

  assert.deepEqual([r.linear.type, r.linear.array, r.linear.dims], ['float32', 'Float32Array', [1, 1, 4, 4]]);
  assertClose(r.linear.data.slice(0, 4), [1, 1.25, 1.75, 2], 'linear first row');
  assertClose(r.linear.data, expectedResize('linear'), 'Resize linear half_pixel 2x2 -> 4x4');

  assert.deepEqual([r.nearest.type, r.nearest.array, r.nearest.dims], ['float32', 'Float32Array', [1, 1, 4, 4]]);
  assert.deepEqual(r.nearest.data, [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
  assert.deepEqual(r.nearest.data, expectedResize('nearest'));

  assert.deepEqual([r.gridsample.type, r.gridsample.array, r.gridsample.dims], ['float32', 'Float32Array', [1, 1, 2, 3]]);
  assertClose(r.gridsample.data, expectedGridSample(), 'GridSample bilinear zeros');
  // worked by hand: corner 0.25*1, centre mean 2.5, (x=1, y=0.25) 0.75*2+0.25*4, (1.5,1.5) 0.25*4,
  // (0.2, 1.3) 0.7*(0.8*3+0.2*4), fully outside 0
  assertClose(r.gridsample.data, [0.25, 2.5, 2.5, 1, 2.24, 0], 'GridSample worked values');
});
