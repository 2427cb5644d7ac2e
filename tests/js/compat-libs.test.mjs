// compat-libs.test.mjs — owns the comparison of the compat modes 'pillow' and 'opencv'
// with Pillow and OpenCV themselves (Debian python3-pil 9.4 and python3-opencv 4.6, run with
// /usr/bin/python3; setup.mjs installs them). tests/compat/oracle_pillow.py and
// oracle_opencv.py draw seeded random images (noise, gradients, edges; low alphas) and
// sizes (up, down, mixed, integer and non-integer ratios, 1) and resize them with the
// library; every case is resized here through the public API and compared:
//   - uint8: bit for bit (the issue's requirement);
//   - float32: within 1e-6 (Pillow "F") / 1e-5 (OpenCV) relative, per value.
// Each case also runs through a second layout where the library's rules say it must give
// the same bytes (channels as planes, NCHW, where the channels are independent).
// Without Pillow or OpenCV the test is skipped with the reason printed (never silently).
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs);
// OSW_COMPAT_CASES (cases per oracle run; default 300).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPackage } from './package.mjs';

const PYTHON = '/usr/bin/python3';  // Debian's python3, which has Debian's Pillow and OpenCV
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CASES = Number(process.env.OSW_COMPAT_CASES || 300);

function probe(module, pkg) {
  const r = spawnSync(PYTHON, ['-c', `import numpy, ${module}; print(${module}.__version__)`], { encoding: 'utf8' });
  if (r.status === 0) return { version: r.stdout.trim(), skip: false };
  return { version: null, skip: `${module} is not available to ${PYTHON} (${(r.error?.message || r.stderr || '').trim().split('\n').pop()}); install ${pkg} (npm run setup does it as root)` };
}

// The oracle's cases: one JSON object a line, x and y as base64 bytes (HWC).
function oracle(lib, seed, cases) {
  const r = spawnSync(PYTHON, [join(root, 'tests', 'compat', `oracle_${lib}.py`), '--seed', String(seed), '--cases', String(cases)],
    { encoding: 'utf8', maxBuffer: 512 << 20 });
  assert.equal(r.status, 0, `oracle_${lib}.py failed: ${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

function typed(dtype, b64) {
  const bytes = Buffer.from(b64, 'base64');
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return dtype === 'uint8' ? copy : new Float32Array(copy.buffer);
}

// HWC -> CHW (channels as planes).
function planes(data, h, w, c) {
  const out = new data.constructor(data.length);
  for (let k = 0; k < c; k++) for (let i = 0; i < h * w; i++) out[k * h * w + i] = data[i * c + k];
  return out;
}

const PILLOW_MODES = { nearest: 'nearest', box: 'box', bilinear: 'linear', hamming: 'hamming', bicubic: 'cubic', lanczos: 'lanczos' };

// Compares the library's result with the oracle's; returns a description of the first
// mismatch, or null. tol: relative tolerance for float32 (0 for bytes).
function mismatch(got, want, tol) {
  if (got.length !== want.length) return `length ${got.length}, expected ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    const a = got[i], b = want[i];
    if (tol === 0 ? a !== b : !(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)) || (Number.isNaN(a) && Number.isNaN(b))))
      return `at ${i}: ${a}, expected ${b}`;
  }
  return null;
}

function run(lib, s, c) {
  const [h, w, ch] = c.in, [oh, ow] = c.out;
  const x = typed(c.dtype, c.x), want = typed(c.dtype, c.y);
  const mode = lib === 'pillow' ? PILLOW_MODES[c.filter] : c.interp;
  const size = lib === 'opencv' && c.fx !== null && c.fx !== undefined
    ? { scales: [c.fy, c.fx] } : { sizes: [oh, ow] };
  const opts = { ...size, axes: [1, 2], compat: lib, mode };
  // Pillow's channels are independent but for premultiplied alpha (LA, RGBA bytes, which
  // the library premultiplies for 2 and 4 channels), so each case also runs as planes, and
  // a case without premultiplying runs only so. (OpenCV's arithmetic depends on the row's
  // width in values, channels included: its images run only as they are.)
  const alpha = c.dtype === 'uint8' && (ch === 2 || ch === 4);
  const independent = lib === 'pillow' && !(alpha && c.premultiply);
  const results = [];
  if (lib === 'opencv' || !alpha || c.premultiply)
    results.push(['NHWC', s.resize({ type: c.dtype, dims: [1, h, w, ch], data: x }, opts).data]);
  if (independent) {
    const y = s.resize({ type: c.dtype, dims: [ch, h, w], data: planes(x, h, w, ch) }, opts).data;
    results.push(['channels as planes', y, true]);
  }
  return { want, results, oh, ow, ch };
}

for (const [lib, module, pkg, seeds, tol32] of [
  ['pillow', 'PIL', 'python3-pil', [1, 2], 1e-6],
  ['opencv', 'cv2', 'python3-opencv', [1, 2], 1e-5],
]) {
  const { version, skip } = probe(module, pkg);
  test(`compat '${lib}' equals ${module} ${version || ''} on random images (uint8 bit for bit, float32 within ${tol32})`, { skip }, async (t) => {
    const s = await (await importPackage()).createSampler();
    let n = 0, bytes = 0;
    const failures = [];
    const counts = {};
    for (const seed of seeds) {
      for (const c of oracle(lib, seed, CASES)) {
        const { want, results, oh, ow, ch } = run(lib, s, c);
        const key = `${c.dtype} ${lib === 'pillow' ? c.filter : c.interp}`;
        counts[key] = (counts[key] || 0) + 1;
        for (const [layout, got, asPlanes] of results) {
          const expect = asPlanes ? planes(want, oh, ow, ch) : want;
          const m = mismatch(got, expect, c.dtype === 'uint8' ? 0 : tol32);
          if (m !== null && failures.length < 10)
            failures.push(`seed ${seed}: ${c.dtype} ${JSON.stringify(c.in)} -> ${JSON.stringify(c.out)} ${lib === 'pillow' ? c.filter : c.interp}${c.fx != null ? ` fx=${c.fx} fy=${c.fy}` : ''}${c.premultiply ? ' premultiplied' : ''} (${layout}): ${m}`);
          if (m !== null) n++;
        }
        bytes += want.length;
      }
    }
    t.diagnostic(`${Object.entries(counts).map(([k, v]) => `${k}: ${v}`).join(', ')}; ${bytes} values compared`);
    assert.equal(n, 0, `${n} results differ from ${module}:\n${failures.join('\n')}`);
    s.dispose();
  });
}
