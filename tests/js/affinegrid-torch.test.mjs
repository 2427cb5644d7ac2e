// affinegrid-torch.test.mjs — owns the comparison of AffineGrid with PyTorch's
// torch.nn.functional.affine_grid (Debian python3-torch, run with /usr/bin/python3; setup.mjs
// installs it), over seeded random thetas, batch and sizes (1 included), 2-D and 3-D, both
// align_corners:
//   - float64: PyTorch computes in float64; the results agree within 1e-6 (the issue's
//     bound) and in fact within double rounding (asserted: 16 eps x the sum of |theta row|);
//   - float32: PyTorch computes the base grid and the product in float32, the library in
//     double, rounded once; they agree within float32 rounding of the product's terms.
// Without python3-torch the test is skipped with the reason printed (never silently).
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { importPackage } from './package.mjs';
import { mulberry32 } from './rng.mjs';

const PYTHON = '/usr/bin/python3';  // Debian's python3, which has Debian's torch
const probe = spawnSync(PYTHON, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8' });
const torchVersion = probe.status === 0 ? probe.stdout.trim() : null;
const skip = torchVersion ? false
  : `PyTorch is not available to ${PYTHON} (${(probe.error?.message || probe.stderr || '').trim().split('\n').pop()}); install python3-torch (npm run setup does it as root)`;

// Reads the cases (JSON) on stdin; prints, per case, the float64 and float32 grids.
const SCRIPT = `
import json, sys, torch
out = []
for c in json.load(sys.stdin):
    r = {}
    for name, dtype in (('f64', torch.float64), ('f32', torch.float32)):
        theta = torch.tensor(c['theta'], dtype=dtype).reshape(c['dims'])
        g = torch.nn.functional.affine_grid(theta, c['size'], align_corners=bool(c['align']))
        r[name] = g.reshape(-1).tolist()
    out.append(r)
json.dump(out, sys.stdout)
`;

test(`AffineGrid agrees with torch.nn.functional.affine_grid${torchVersion ? ` (PyTorch ${torchVersion})` : ''}`, { skip }, async (t) => {
  const s = await (await importPackage()).createSampler();
  const rng = mulberry32(0x70c4);
  const int = (lo, hi) => lo + Math.floor((hi - lo + 1) * rng());
  const cases = [];
  for (let k = 0; k < 160; k++) {
    const r = k % 2 === 0 ? 2 : 3;
    const N = int(1, 3);
    // PyTorch refuses sizes of 0; 1 is drawn often (its base coordinate is 0)
    const size = [N, int(1, 3), ...Array.from({ length: r }, () => (rng() < 0.2 ? 1 : int(2, 9)))];
    const scale = rng() < 0.5 ? 1 : 100;
    const theta = Array.from({ length: N * r * (r + 1) }, () => scale * (2 * rng() - 1));
    cases.push({ theta, dims: [N, r, r + 1], size, align: (k >> 1) % 2 });
  }
  const py = spawnSync(PYTHON, ['-c', SCRIPT], { input: JSON.stringify(cases), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(py.status, 0, `python failed: ${py.stderr}`);
  const torch = JSON.parse(py.stdout);
  assert.equal(torch.length, cases.length);

  let max64 = 0, max32 = 0, max32ulps = 0, elements = 0, ones = 0;
  cases.forEach((c, k) => {
    const what = `case ${k}: ${c.dims[1]}-D size [${c.size}] align_corners=${c.align}`;
    const r = c.dims[1];
    ones += c.size.slice(2).filter((v) => v === 1).length;
    const per = c.size.slice(2).reduce((a, b) => a * b, r);  // grid values per matrix
    // the sum of |theta[n][row][j]| bounds the product's terms (|base coordinate| <= 1)
    const rowMagnitude = (theta, i) => {
      const n = Math.floor(i / per), row = i % r;
      let m = 0;
      for (let j = 0; j <= r; j++) m += Math.abs(theta[(n * r + row) * (r + 1) + j]);
      return m;
    };
    // float64
    const g64 = s.affineGrid({ type: 'float64', dims: c.dims, data: Float64Array.from(c.theta) }, c.size, { alignCorners: !!c.align });
    assert.deepEqual(g64.dims, [c.size[0], ...c.size.slice(2), r], what);
    assert.equal(g64.data.length, torch[k].f64.length, what);
    g64.data.forEach((v, i) => {
      const d = Math.abs(v - torch[k].f64[i]);
      max64 = Math.max(max64, d);
      assert.ok(d <= 1e-6, `${what} float64 [${i}]: ${v} vs PyTorch ${torch[k].f64[i]}`);
      assert.ok(d <= 16 * Number.EPSILON * rowMagnitude(c.theta, i), `${what} float64 [${i}]: ${v} vs PyTorch ${torch[k].f64[i]}: more than double rounding`);
    });
    // float32: both start from the same float32 theta
    const th32 = Float32Array.from(c.theta);
    const g32 = s.affineGrid({ type: 'float32', dims: c.dims, data: th32 }, c.size, { alignCorners: !!c.align });
    g32.data.forEach((v, i) => {
      const e = torch[k].f32[i];
      const mag = rowMagnitude(th32, i);
      const d = Math.abs(v - e);
      max32 = Math.max(max32, d);
      max32ulps = Math.max(max32ulps, d / (2 ** -24 * mag));
      assert.ok(d <= 2 ** -21 * mag, `${what} float32 [${i}]: ${v} vs PyTorch ${e} (|theta row| ${mag})`);
    });
    elements += g64.data.length;
  });
  assert.ok(ones > 20, 'sizes of 1 were drawn');
  t.diagnostic(`${cases.length} cases, ${elements} grid values per type; max |library - PyTorch|: float64 ${max64.toExponential(2)}, float32 ${max32.toExponential(2)} (${max32ulps.toFixed(2)} x 2^-24 x |theta row|)`);
});
