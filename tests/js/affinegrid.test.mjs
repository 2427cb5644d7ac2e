// affinegrid.test.mjs — owns AffineGrid-20 through the public API (sampler.run and
// sampler.affineGrid), beyond the 12 conformance cases (which are float32 only):
//   - float64 and float16 theta (Uint16Array bits, and Float16Array where it exists) against
//     a reference written here from the spec, computed in double;
//   - sizes of 1 (the base coordinate is 0 for both align_corners: docs/semantics.md);
//   - the conformance thetas re-typed to float64 and float16 against their float32 answers;
//   - every form of size (array of numbers or bigints, BigInt64Array, int64 tensor, wasm
//     tensor), wasm-tensor theta and runInto;
//   - the error contract (TypeError / RangeError naming the input or attribute, "did you
//     mean"), the sampler staying usable after each error.
//
// Env: OSW_PACKAGE (installed package folder; unset: <repo>/dist/index.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importPackage } from './package.mjs';
import { CONFORMANCE_DIR, float16BitsToNumber, loadCases } from './onnx-cases.mjs';
import { mulberry32 } from './rng.mjs';

const samplerPromise = importPackage().then((m) => m.createSampler());
samplerPromise.catch(() => {});

// ---------------------------------------------------------------- reference (the spec)

// The base coordinate of index i of n points: linspace(-1, 1, n) for align_corners=1, the
// pixel centres -1 + (2i + 1) / n for align_corners=0; an axis of one point is 0.
function base(i, n, alignCorners) {
  if (n === 1) return 0;
  return alignCorners ? -1 + (2 * i) / (n - 1) : -1 + (2 * i + 1) / n;
}

// theta: numbers, N matrices of r x (r + 1); size [N, C, (D,) H, W]. Returns the grid as
// doubles in (N, (D,) H, W, r) order, and each element's |term| sum (for the error bound).
function reference(theta, size, alignCorners) {
  const r = size.length - 2;
  const [N] = size;
  const D = r === 3 ? size[2] : 1, H = size[size.length - 2], W = size[size.length - 1];
  const out = [], mag = [];
  for (let n = 0; n < N; n++)
    for (let d = 0; d < D; d++)
      for (let h = 0; h < H; h++)
        for (let w = 0; w < W; w++) {
          const p = r === 2 ? [base(w, W, alignCorners), base(h, H, alignCorners), 1]
            : [base(w, W, alignCorners), base(h, H, alignCorners), base(d, D, alignCorners), 1];
          for (let row = 0; row < r; row++) {
            let s = 0, m = 0;
            for (let k = 0; k <= r; k++) {
              const term = theta[(n * r + row) * (r + 1) + k] * p[k];
              s += term;
              m += Math.abs(term);
            }
            out.push(s);
            mag.push(m);
          }
        }
  return { out, mag };
}

// float16 bits of a number, rounded to nearest even (the exact value from its double).
function toHalfBits(v) {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | roundEven(a * 2 ** 24);
  const e = Math.floor(Math.log2(a));
  const ex = a >= 2 ** (e + 1) ? e + 1 : a < 2 ** e ? e - 1 : e;
  const q = roundEven(a * 2 ** (10 - ex));  // in [1024, 2048]
  return sign | (((ex + 15) << 10) + q - 1024);
}
function roundEven(x) {
  const f = Math.floor(x), d = x - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}
const halfSpacing = (v) => 2 ** (Math.max(Math.floor(Math.log2(Math.abs(v) || 2 ** -24)), -14) - 10);

const rng = mulberry32(0xaff1);
const uniform = (lo, hi) => lo + (hi - lo) * rng();
const int = (lo, hi) => lo + Math.floor((hi - lo + 1) * rng());

function randomCase(type, r) {
  const N = int(1, 3);
  const size = [N, int(1, 3), ...Array.from({ length: r }, () => (rng() < 0.25 ? 1 : int(1, 6)))];
  let theta = Array.from({ length: N * r * (r + 1) }, () => uniform(-2, 2));
  if (type === 'float32') theta = theta.map(Math.fround);
  if (type === 'float16') theta = theta.map((v) => float16BitsToNumber(toHalfBits(v)));
  return { size, theta, dims: [N, r, r + 1] };
}

function tensorOf(type, dims, values) {
  if (type === 'float64') return { type, dims, data: Float64Array.from(values) };
  if (type === 'float32') return { type, dims, data: Float32Array.from(values) };
  return { type, dims, data: Uint16Array.from(values, toHalfBits) };
}
const valuesOf = (t) => (t.type === 'float16' && t.data instanceof Uint16Array ? Array.from(t.data, float16BitsToNumber) : Array.from(t.data));
const sizeTensor = (size) => ({ type: 'int64', dims: [size.length], data: BigInt64Array.from(size, BigInt) });

// Checks a grid against the reference: float64 within the double arithmetic's roundings,
// float32 / float16 within half a spacing of the type (rounded once from double).
function checkGrid(got, type, theta, size, alignCorners, what) {
  const r = size.length - 2;
  assert.equal(got.type, type, what);
  assert.deepEqual(got.dims, [size[0], ...size.slice(2), r], what);
  const { out, mag } = reference(theta, size, alignCorners);
  const vals = valuesOf(got);
  assert.equal(vals.length, out.length, what);
  for (let i = 0; i < out.length; i++) {
    const e = out[i];
    const tol = (type === 'float64' ? 0 : type === 'float32' ? 2 ** -24 * Math.abs(e) * 1.001 + 2 ** -150 : 0.5 * halfSpacing(e) * 1.001)
      + 8 * Number.EPSILON * mag[i];
    assert.ok(Math.abs(vals[i] - e) <= tol, `${what}: element ${i} is ${vals[i]}, expected ${e} (tolerance ${tol})`);
  }
}

// ---------------------------------------------------------------- results

test('float64 and float16 theta, 2-D and 3-D, both align_corners, match the spec', async () => {
  const s = await samplerPromise;
  let n = 0;
  for (const type of ['float64', 'float16', 'float32']) {
    for (const r of [2, 3]) {
      for (const ac of [0, 1]) {
        for (let k = 0; k < 12; k++) {
          const c = randomCase(type, r);
          const what = `${type} ${r}-D align_corners=${ac} size [${c.size}]`;
          const [viaRun] = s.run({ opType: 'AffineGrid', opset: 20, attributes: { align_corners: ac } }, [tensorOf(type, c.dims, c.theta), sizeTensor(c.size)]);
          checkGrid(viaRun, type, c.theta, c.size, ac, `run ${what}`);
          const viaFriendly = s.affineGrid(tensorOf(type, c.dims, c.theta), c.size, { alignCorners: !!ac });
          assert.deepEqual(valuesOf(viaFriendly), valuesOf(viaRun), `affineGrid ${what}`);
          n++;
        }
      }
    }
  }
  assert.equal(n, 144);
});

test('float16 theta: results are the float16 nearest to the double computation', async () => {
  const s = await samplerPromise;
  // theta chosen so that outputs land between float16 values: 0.1 is not a float16
  const theta = [0.0999755859375, 0.199951171875, 0.0999755859375, -0.300048828125, 0.0999755859375, 0.0001];
  const size = [1, 1, 3, 5];
  const got = s.affineGrid(tensorOf('float16', [1, 2, 3], theta), size);
  assert.ok(got.data instanceof Uint16Array);
  const { out } = reference(theta, size, 0);
  assert.deepEqual(Array.from(got.data), out.map(toHalfBits));
});

test('Float16Array theta stays Float16Array (where the runtime has it)', { skip: typeof Float16Array !== 'function' && 'this Node has no Float16Array' }, async () => {
  const s = await samplerPromise;
  const theta = [1, 0.5, -0.25, 0, 1, 0.125];
  const got = s.affineGrid({ type: 'float16', dims: [1, 2, 3], data: new Float16Array(theta) }, [1, 3, 2, 4], { alignCorners: true });
  assert.ok(got.data instanceof Float16Array, got.data.constructor.name);
  const { out } = reference(theta, [1, 3, 2, 4], 1);
  assert.deepEqual(Array.from(got.data), out.map((v) => float16BitsToNumber(toHalfBits(v))));
});

test('sizes of 1: the base coordinate is 0, so the grid is theta\'s last column', async () => {
  const s = await samplerPromise;
  for (const type of ['float32', 'float64', 'float16']) {
    for (const ac of [false, true]) {
      const theta = type === 'float16' ? [0.5, 2, 0.25, -1, 0.75, -0.125] : [0.3, 2.5, 0.7, -1.1, 0.9, -0.6];
      const g = s.affineGrid(tensorOf(type, [1, 2, 3], theta), [1, 1, 1, 1], { alignCorners: ac });
      assert.deepEqual(g.dims, [1, 1, 1, 2]);
      const want = type === 'float64' ? [0.7, -0.6] : type === 'float32' ? [Math.fround(0.7), Math.fround(-0.6)] : [0.25, -0.125];
      assert.deepEqual(valuesOf(g), want, `${type} align_corners=${ac}`);
      // one axis of 1 among others: that axis contributes nothing
      const g3 = s.affineGrid(tensorOf('float64', [1, 3, 4], [1, 0, 5, 0, 0, 1, 5, 0, 0, 0, 1, 0]), [1, 1, 3, 1, 2], { alignCorners: ac });
      assert.deepEqual(g3.dims, [1, 3, 1, 2, 3]);
      const v = valuesOf(g3);
      for (let i = 0; i < v.length; i += 3) {
        const w = (i / 3) % 2, d = Math.floor(i / 6);
        // y is 0 on the axis of 1 (the base coordinates may differ from base() in the last bit)
        assert.ok(Math.abs(v[i] - (base(w, 2, ac) + 5 * base(d, 3, ac))) <= 1e-15, `x ${i}`);
        assert.ok(Math.abs(v[i + 1] - 5 * base(d, 3, ac)) <= 1e-15, `y ${i}`);
        assert.ok(Math.abs(v[i + 2] - base(d, 3, ac)) <= 1e-15, `z ${i}`);
      }
    }
  }
});

test('the conformance thetas as float64 and float16 agree with the float32 answers', async () => {
  const s = await samplerPromise;
  const cases = loadCases(CONFORMANCE_DIR).filter((c) => c.op === 'AffineGrid');
  assert.equal(cases.length, 12);
  for (const c of cases) {
    const theta = Array.from(c.inputs[0].data);
    const expected = Array.from(c.expected.data);
    const [g64] = s.run({ opType: 'AffineGrid', opset: 20, attributes: c.attributes }, [tensorOf('float64', c.inputs[0].dims, theta), c.inputs[1]]);
    assert.equal(g64.type, 'float64');
    assert.deepEqual(g64.dims, c.expected.dims);
    g64.data.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 1e-6, `${c.name} float64 [${i}]: ${v} vs ${expected[i]}`));
    // float16: the theta itself is rounded, so compare with the spec on the rounded theta
    const t16 = tensorOf('float16', c.inputs[0].dims, theta);
    const [g16] = s.run({ opType: 'AffineGrid', opset: 20, attributes: c.attributes }, [t16, c.inputs[1]]);
    checkGrid(g16, 'float16', valuesOf(t16), c.inputs[1].data.map ? Array.from(c.inputs[1].data, Number) : [], c.attributes.align_corners || 0, `${c.name} float16`);
  }
});

test('size forms: numbers, bigints, BigInt64Array, int64 tensor, wasm tensors, runInto', async () => {
  const s = await samplerPromise;
  const theta = tensorOf('float32', [2, 2, 3], [1, 0, 0, 0, 1, 0, 0.5, -0.5, 0.25, 0.5, 0.5, -0.25]);
  const want = s.affineGrid(theta, [2, 3, 4, 5]);
  assert.deepEqual(want.dims, [2, 4, 5, 2]);
  checkGrid(want, 'float32', Array.from(theta.data), [2, 3, 4, 5], 0, 'numbers');
  for (const size of [[2n, 3n, 4n, 5n], BigInt64Array.of(2n, 3n, 4n, 5n), sizeTensor([2, 3, 4, 5])])
    assert.deepEqual(s.affineGrid(theta, size).data, want.data);
  const ws = s.tensor('int64', [4]);
  const wt = s.tensor('float32', [2, 2, 3]);
  const wo = s.tensor('float32', [2, 4, 5, 2]);
  try {
    ws.data.set([2n, 3n, 4n, 5n]);
    wt.data.set(theta.data);
    assert.deepEqual(s.affineGrid(wt, ws).data, want.data);
    const outs = [wo];
    assert.equal(s.runInto({ opType: 'AffineGrid', opset: 20 }, [wt, ws], outs), outs);
    assert.deepEqual(new Float32Array(wo.data), want.data);
  } finally {
    ws.dispose();
    wt.dispose();
    wo.dispose();
  }
  // a later opset runs AffineGrid-20; align_corners changes the result
  const [g21] = s.run({ opType: 'AffineGrid', opset: 21 }, [theta, sizeTensor([2, 3, 4, 5])]);
  assert.deepEqual(g21.data, want.data);
  assert.notDeepEqual(s.affineGrid(theta, [2, 3, 4, 5], { alignCorners: true }).data, want.data);
  // zero sizes give an empty grid
  const empty = s.affineGrid(theta, [2, 0, 0, 5]);
  assert.deepEqual(empty.dims, [2, 0, 5, 2]);
  assert.equal(empty.data.length, 0);
});

// ---------------------------------------------------------------- errors

const TH = () => tensorOf('float32', [1, 2, 3], [1, 0, 0, 0, 1, 0]);
const TH3 = () => tensorOf('float32', [1, 3, 4], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
const node = (attributes, opset = 20) => ({ opType: 'AffineGrid', opset, attributes });
const ERRORS = [
  // TypeError: a wrong kind of argument
  ['theta missing', (s) => s.run(node(), [null, sizeTensor([1, 1, 2, 2])]), TypeError, /^theta: the input tensor is required/],
  ['size missing', (s) => s.run(node(), [TH()]), TypeError, /^size: the size tensor is required/],
  ['theta int32', (s) => s.run(node(), [{ type: 'int32', dims: [1, 2, 3], data: new Int32Array(6) }, sizeTensor([1, 1, 2, 2])]), TypeError, /^theta: expected a tensor of type float32 or float64 or float16, got 'int32'/],
  ['theta an array', (s) => s.affineGrid([1, 0, 0, 0, 1, 0], [1, 1, 2, 2]), TypeError, /^theta\.type: expected a string/],
  ['size int32 tensor', (s) => s.run(node(), [TH(), { type: 'int32', dims: [4], data: Int32Array.of(1, 1, 2, 2) }]), TypeError, /^size: expected a tensor of type int64, got 'int32'/],
  ['size a string', (s) => s.affineGrid(TH(), '1,1,2,2'), TypeError, /^size: expected an array of integers or an int64 tensor/],
  ['size element a string', (s) => s.affineGrid(TH(), [1, 1, '2', 2]), TypeError, /^size\[2\]: expected an integer/],
  ['alignCorners a string', (s) => s.affineGrid(TH(), [1, 1, 2, 2], { alignCorners: 'yes' }), TypeError, /^alignCorners: expected true or false \(or 0 or 1\), got the string "yes"$/],
  // RangeError: a bad shape or value
  ['size of 3 values', (s) => s.affineGrid(TH(), [1, 1, 2]), RangeError, /^size: expected 4 values \[N, C, H, W\] \(2-D\) or 5 values \[N, C, D, H, W\] \(3-D\), got 3/],
  ['size of 40 values', (s) => s.affineGrid(TH(), new Array(40).fill(1)), RangeError, /^size: expected 4 values .* got 40/],
  ['size 2-D tensor', (s) => s.run(node(), [TH(), { type: 'int64', dims: [2, 2], data: BigInt64Array.of(1n, 1n, 2n, 2n) }]), RangeError, /^size: expected a 1-D tensor, got dims \[2, 2\]/],
  ['size negative', (s) => s.affineGrid(TH(), [1, 1, -3, 2]), RangeError, /^size\[2\]: must be non-negative, got -3/],
  ['size fractional', (s) => s.affineGrid(TH(), [1, 1, 2.5, 2]), RangeError, /^size\[2\]: expected an integer, got 2.5/],
  ['size beyond 2^53', (s) => s.run(node(), [TH(), { type: 'int64', dims: [4], data: BigInt64Array.of(1n, 1n, 2n ** 60n, 2n) }]), RangeError, /^size\[2\]: \d+ is too large/],
  ['N mismatch', (s) => s.affineGrid(TH(), [2, 1, 2, 2]), RangeError, /^size\[0\]: N is 2 but theta holds 1 matrices/],
  ['2-D theta, 3-D size', (s) => s.affineGrid(TH(), [1, 1, 2, 2, 2]), RangeError, /^theta: expected dims \[N, 3, 4\] for 5 size values \(3-D\), got \[1, 2, 3\]/],
  ['3-D theta, 2-D size', (s) => s.affineGrid(TH3(), [1, 1, 2, 2]), RangeError, /^theta: expected dims \[N, 2, 3\] for 4 size values \(2-D\), got \[1, 3, 4\]/],
  ['theta rank 2', (s) => s.affineGrid(tensorOf('float32', [2, 3], [1, 0, 0, 0, 1, 0]), [1, 1, 2, 2]), RangeError, /^theta: expected dims \[N, 2, 3\].*got \[2, 3\]/],
  ['theta rank 33', (s) => s.affineGrid(tensorOf('float32', new Array(33).fill(1), [0]), [1, 1, 2, 2]), RangeError, /^theta: rank must be in \[0, 32\], got 33/],
  ['align_corners 2', (s) => s.run(node({ align_corners: 2 }), [TH(), sizeTensor([1, 1, 2, 2])]), RangeError, /^align_corners: expected true or false \(or 0 or 1\), got 2$/],
  ['unknown attribute', (s) => s.run(node({ align_corner: 1 }), [TH(), sizeTensor([1, 1, 2, 2])]), RangeError, /^attributes\.align_corner: AffineGrid-20 \(opset 20\) has no attribute 'align_corner' \(did you mean 'align_corners'\?\)/],
  ['unknown option', (s) => s.affineGrid(TH(), [1, 1, 2, 2], { alignCorner: true }), RangeError, /^affineGrid: unknown option 'alignCorner' \(did you mean 'alignCorners'\?\)/],
  ['opset 19', (s) => s.run(node({}, 19), [TH(), sizeTensor([1, 1, 2, 2])]), RangeError, /^opset: AffineGrid does not exist before opset 20, got opset 19/],
  ['three inputs', (s) => s.run(node(), [TH(), sizeTensor([1, 1, 2, 2]), null]), RangeError, /^inputs: AffineGrid-20 \(opset 20\) takes 2 inputs, got 3/],
  ['opType misspelt', (s) => s.run({ opType: 'AfineGrid', opset: 20 }, [TH(), sizeTensor([1, 1, 2, 2])]), RangeError, /did you mean 'AffineGrid'\?/],
  ['grid over maxBytes', (s) => s.affineGrid(TH(), [1, 1, 2 ** 20, 2 ** 20]), RangeError, /bytes, more than the limit/],
];

for (const [name, call, Kind, re] of ERRORS) {
  test(`error: ${name}`, async () => {
    const s = await samplerPromise;
    assert.throws(() => call(s), (e) => {
      assert.equal(e.constructor, Kind, `${e.name}: ${e.message}`);
      assert.match(e.message, re);
      return true;
    });
    // still usable
    const g = s.affineGrid(TH(), [1, 1, 1, 2]);
    assert.deepEqual(Array.from(g.data), [-0.5, 0, 0.5, 0]);
  });
}
