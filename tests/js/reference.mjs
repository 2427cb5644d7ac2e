// reference.mjs — owns the slow, obviously-correct references of ONNX Resize and
// GridSample that tests/js/property.test.mjs compares the library against.
//
// Written from the spec text (seeds 000/001/003/004) and the project's decisions in
// shared/docs/SEMANTICS.md, structured like the ONNX reference implementation rather than
// like the library's plan tables: for every output element, each axis' source coordinate
// is computed from its formula, and the N-D value is built by nested 1-D interpolation
// (interpolate each sub-tensor along the inner axes, then 1-D along the outermost).
// Values and weights are float64 JS numbers. Resize source coordinates are exact rationals
// (see "exact rationals" below): the formulas are the documented ones, but the decisions
// that jump (nearest rounding, floor, the tf_crop_and_resize bounds test) are taken on
// their true value, never on a value one ulp off. GridSample is all float64, as decided.
// Nothing is vectorised; per-axis coordinates are computed once per call.
//
// Tensors are { type, dims, data }; data may be any array-like of numbers.

// ---------------------------------------------------------------- small helpers

function product(dims) {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

function stridesOf(dims) {
  const s = new Array(dims.length);
  let acc = 1;
  for (let i = dims.length - 1; i >= 0; i--) { s[i] = acc; acc *= dims[i]; }
  return s;
}

// Row-major index -> multi-index.
function unravel(flat, dims) {
  const idx = new Array(dims.length);
  for (let i = dims.length - 1; i >= 0; i--) {
    const d = dims[i];
    idx[i] = d === 0 ? 0 : flat % d;
    flat = d === 0 ? 0 : Math.floor(flat / d);
  }
  return idx;
}

function clamp(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

// Keys' cubic convolution kernel with coefficient a (the spec's cubic_coeff_a).
export function keys(s, a) {
  const x = Math.abs(s);
  if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
  if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
  return 0;
}

// ---------------------------------------------------------------- exact rationals
//
// Resize source coordinates are computed exactly, as BigInt fractions: every input is a
// rational (integer lengths and sizes, float32 scales and roi values are dyadic), so the
// coordinate of each formula has one true value, and the decisions that jump (the nearest
// index at a .5 tie, floor() at an integer, tf_crop_and_resize's bounds test) are taken on
// that value (SEMANTICS row 2: "decide on the exact value"). Only the fractional part that
// feeds the interpolation weights is rounded to a double.

function gcd(a, b) {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b) [a, b] = [b, a % b];
  return a;
}

class Q {
  constructor(n, d = 1n) {
    if (d === 0n) throw new RangeError('reference: division by zero in an exact coordinate');
    if (d < 0n) { n = -n; d = -d; }
    const g = gcd(n, d) || 1n;
    this.n = n / g;
    this.d = d / g;
  }

  // The exact value of a finite double.
  static of(v) {
    if (v instanceof Q) return v;
    if (typeof v === 'bigint') return new Q(v);
    if (!Number.isFinite(v)) throw new RangeError(`reference: ${v} is not finite`);
    let d = 1n;
    while (!Number.isInteger(v)) { v *= 2; d *= 2n; } // exact: doubling a double is exact
    return new Q(BigInt(v), d);
  }

  add(o) { o = Q.of(o); return new Q(this.n * o.d + o.n * this.d, this.d * o.d); }
  sub(o) { o = Q.of(o); return new Q(this.n * o.d - o.n * this.d, this.d * o.d); }
  mul(o) { o = Q.of(o); return new Q(this.n * o.n, this.d * o.d); }
  div(o) { o = Q.of(o); return new Q(this.n * o.d, this.d * o.n); }
  cmp(o) { o = Q.of(o); const l = this.n * o.d, r = o.n * this.d; return l < r ? -1 : l > r ? 1 : 0; }
  isZero() { return this.n === 0n; }
  // floor and ceil as integers (Number; lengths here are small)
  floor() { const q = this.n / this.d; return Number(this.n < 0n && q * this.d !== this.n ? q - 1n : q); }
  ceil() { return -new Q(-this.n, this.d).floor(); }
  toNumber() { return Number(this.n) / Number(this.d); }
}

const HALF = new Q(1n, 2n);

// ---------------------------------------------------------------- Resize

// Exact source coordinate (a Q) of output index x on one axis.
//   ax: { inLen, outLen, s (Q: the scale), W (Q: unrounded output length), roiStart, roiEnd (Q) }
export function sourceCoordinate(coord, x, ax) {
  const L = ax.inLen, O = ax.outLen, s = ax.s, W = ax.W;
  const X = Q.of(x);
  switch (coord) {
    case 'half_pixel': // (x + 0.5) / s - 0.5
      return X.add(HALF).div(s).sub(HALF);
    case 'half_pixel_symmetric': { // offset + (x + 0.5) / s - 0.5, offset = in/2 * (1 - out/W)
      const offset = Q.of(L).div(2).mul(Q.of(1).sub(Q.of(O).div(W)));
      return offset.add(X.add(HALF).div(s)).sub(HALF);
    }
    case 'pytorch_half_pixel': // out > 1 ? (x + 0.5) / s - 0.5 : 0
      return O > 1 ? X.add(HALF).div(s).sub(HALF) : Q.of(0);
    case 'align_corners': // W == 1 ? 0 : x * (in - 1) / (W - 1)
      return W.cmp(1) === 0 ? Q.of(0) : X.mul(L - 1).div(W.sub(1));
    case 'asymmetric': // x / s
      return X.div(s);
    case 'tf_half_pixel_for_nn': // (x + 0.5) / s
      return X.add(HALF).div(s);
    case 'tf_crop_and_resize': { // out > 1 ? start*(in-1) + x*(end-start)*(in-1)/(out-1) : 0.5*(start+end)*(in-1)
      const a = ax.roiStart, b = ax.roiEnd;
      return O > 1
        ? a.mul(L - 1).add(X.mul(b.sub(a)).mul(L - 1).div(O - 1))
        : a.add(b).mul(HALF).mul(L - 1);
    }
    default:
      throw new Error(`reference: unknown coordinate_transformation_mode ${coord}`);
  }
}

// Nearest index for the exact source coordinate xs (a Q), clamped to [0, in - 1].
export function nearestIndex(xs, nearestMode, scale, L) {
  const f = xs.floor();
  const c = xs.sub(f).cmp(HALF); // fractional part against 0.5
  let i;
  switch (nearestMode) {
    case 'round_prefer_floor': i = c <= 0 ? f : f + 1; break;
    case 'round_prefer_ceil': i = c < 0 ? f : f + 1; break;
    case 'floor': i = f; break;
    case 'ceil': i = xs.ceil(); break;
    case 'opset10': i = scale >= 1 ? f : xs.ceil(); break; // Resize-10 (row 10)
    default: throw new Error(`reference: unknown nearest_mode ${nearestMode}`);
  }
  return clamp(i, 0, L - 1);
}

// Taps and weights of one 1-D interpolation at the exact source coordinate xs:
// [{ index, weight }], indices resolved against the edge (clamped, or dropped by
// exclude_outside), zero weights dropped (such taps are never read).
export function taps1d(xs, ax, p) {
  const L = ax.inLen, s = ax.scale;
  const a = p.cubicA === undefined ? -0.75 : p.cubicA;
  let raw; // [{ index (unclamped), weight }]
  if (p.antialias && s < 1) {
    // Pillow-style widened filter, as the ONNX reference's *_coeffs_antialias.
    const base = xs.ceil() - 1;
    const ratio = xs.sub(base).toNumber(); // in (0, 1]
    raw = [];
    if (p.mode === 'linear') {
      const start = Math.floor(-1 / s) + 1;
      const end = start + 2 - 2 * start;
      for (let i = start; i < end; i++) raw.push({ index: base + i, weight: Math.max(0, 1 - Math.abs((i - ratio) * s)) });
    } else {
      const start = Math.floor(-2 / s) + 1;
      const end = 2 - start;
      for (let i = start; i < end; i++) raw.push({ index: base + i, weight: keys((i - ratio) * s, a) });
    }
    let sum = 0;
    for (const r of raw) sum += r.weight;
    for (const r of raw) r.weight /= sum;
  } else {
    const f = xs.floor();
    const t = xs.sub(f).toNumber(); // in [0, 1)
    if (p.mode === 'linear') {
      raw = [{ index: f, weight: 1 - t }, { index: f + 1, weight: t }];
    } else {
      raw = [
        { index: f - 1, weight: keys(t + 1, a) },
        { index: f, weight: keys(t, a) },
        { index: f + 1, weight: keys(1 - t, a) },
        { index: f + 2, weight: keys(2 - t, a) },
      ];
    }
  }
  if (p.excludeOutside) {
    // Outside taps get weight 0 and the rest is renormalised to sum 1. When every tap is
    // outside this is 0/0 = NaN, as in the ONNX reference (`coeffs /= sum(coeffs)`).
    let sum = 0;
    for (const r of raw) {
      if (r.index < 0 || r.index > L - 1) r.weight = 0;
      sum += r.weight;
    }
    if (sum === 0) return [{ index: 0, weight: NaN }];
    for (const r of raw) r.weight /= sum;
    return raw.filter((r) => r.weight !== 0);
  }
  return raw.filter((r) => r.weight !== 0).map((r) => ({ index: clamp(r.index, 0, L - 1), weight: r.weight }));
}

// Per-axis parameters: input and output length, the scale used in the formulas (exact, s,
// and as a double, scale), and the unrounded output length W (exact).
//   scales:            out = floor(in * scale), s = the float32 scale, W = s * in
//   sizes, stretch:    out = sizes, s = out / in, W = out
//   sizes, not_larger / not_smaller: s = min / max over the listed axes of sizes/in,
//                      out = floor(s * in + 0.5) (double, row 6), W = s * in
export function resizeAxes(inDims, p) {
  const r = inDims.length;
  const axesSet = p.axes ? new Set(p.axes.map((a) => (a < 0 ? a + r : a))) : null;
  const inAxes = (i) => (axesSet ? axesSet.has(i) : true);
  const policy = p.keepAspectRatioPolicy || 'stretch';
  const roi = p.roi || null;
  const out = [];
  const ONE = Q.of(1);
  if (p.sizes && policy !== 'stretch') {
    let best = null;
    for (let i = 0; i < r; i++) {
      if (!inAxes(i) || inDims[i] === 0) continue;
      const q = new Q(BigInt(p.sizes[i]), BigInt(inDims[i]));
      if (best === null || (policy === 'not_larger' ? q.cmp(best) < 0 : q.cmp(best) > 0)) best = q;
    }
    const s = best || ONE;
    const scale = s.toNumber();
    for (let i = 0; i < r; i++) {
      const L = inDims[i];
      if (!inAxes(i)) { out.push({ inLen: L, outLen: L, s: ONE, scale: 1, W: Q.of(L) }); continue; }
      out.push({ inLen: L, outLen: Math.floor(scale * L + 0.5), s, scale, W: s.mul(L) });
    }
  } else if (p.sizes) {
    for (let i = 0; i < r; i++) {
      const L = inDims[i], O = Number(p.sizes[i]);
      const s = L > 0 ? new Q(BigInt(O), BigInt(L)) : ONE; // L = 0: no element to compute
      out.push({ inLen: L, outLen: O, s, scale: L > 0 ? O / L : 1, W: Q.of(O) });
    }
  } else {
    for (let i = 0; i < r; i++) {
      const L = inDims[i], scale = Number(p.scales[i]);
      out.push({ inLen: L, outLen: Math.floor(L * scale), s: Q.of(scale), scale, W: Q.of(scale).mul(L) });
    }
  }
  for (let i = 0; i < r; i++) {
    out[i].roiStart = Q.of(roi ? Number(roi[i]) : 0);
    out[i].roiEnd = Q.of(roi ? Number(roi[r + i]) : 1);
  }
  return out;
}

/**
 * referenceResize(x, p) -> { dims, data: Float64Array }
 * p = { mode, coord, nearestMode, cubicA, excludeOutside, antialias, extrapolationValue,
 *       scales | sizes (full rank), roi (full rank, [starts..., ends...]),
 *       keepAspectRatioPolicy, axes (optional: the axes the policy looks at) }
 */
export function referenceResize(x, p) {
  const inDims = Array.from(x.dims, Number);
  const r = inDims.length;
  const axes = resizeAxes(inDims, p);
  const outDims = axes.map((a) => a.outLen);
  const n = product(outDims);
  const data = new Float64Array(n);
  if (n === 0) return { dims: outDims, data };
  const inStrides = stridesOf(inDims);
  const X = x.data;
  const coord = p.coord || 'half_pixel';
  const mode = p.mode || 'nearest';
  const extrap = p.extrapolationValue === undefined ? 0 : p.extrapolationValue;

  // The coordinate of an output index depends only on its axis: compute each once.
  const coords = axes.map((ax) => Array.from({ length: ax.outLen }, (_, o) => sourceCoordinate(coord, o, ax)));

  for (let flat = 0; flat < n; flat++) {
    const oidx = unravel(flat, outDims);
    const xs = oidx.map((o, i) => coords[i][o]);
    if (coord === 'tf_crop_and_resize' && xs.some((v, i) => v.cmp(0) < 0 || v.cmp(axes[i].inLen - 1) > 0)) {
      data[flat] = extrap;
      continue;
    }
    if (mode === 'nearest') {
      let off = 0;
      for (let i = 0; i < r; i++) off += nearestIndex(xs[i], p.nearestMode || 'round_prefer_floor', axes[i].scale, axes[i].inLen) * inStrides[i];
      data[flat] = Number(X[off]);
      continue;
    }
    // Nested 1-D interpolation: value(axis, offset) interpolates the sub-tensor that starts
    // at `offset` along axes axis..r-1; the outermost call is value(0, 0).
    const value = (axis, offset) => {
      if (axis === r) return Number(X[offset]);
      let acc = 0;
      for (const t of taps1d(xs[axis], axes[axis], p)) acc += t.weight * value(axis + 1, offset + t.index * inStrides[axis]);
      return acc;
    };
    data[flat] = value(0, 0);
  }
  return { dims: outDims, data };
}

// ---------------------------------------------------------------- GridSample

// Reflect a continuous coordinate into [lo, hi], bouncing as often as needed.
export function reflect(v, lo, hi) {
  const range = hi - lo;
  if (range <= 0) return lo;
  if (v < lo) {
    const d = lo - v;
    const k = Math.floor(d / range);
    const rem = d - k * range;
    return k % 2 === 0 ? lo + rem : hi - rem;
  }
  if (v > hi) {
    const d = v - hi;
    const k = Math.floor(d / range);
    const rem = d - k * range;
    return k % 2 === 0 ? hi - rem : lo + rem;
  }
  return v;
}

function roundHalfEven(v) {
  const f = Math.floor(v);
  const d = v - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

// Unnormalize a grid value g in [-1, 1] to a pixel coordinate on an axis of length L.
export function unnormalize(g, L, alignCorners) {
  return alignCorners ? ((g + 1) / 2) * (L - 1) : ((g + 1) * L - 1) / 2;
}

/**
 * referenceGridSample(x, grid, { mode: 'linear'|'nearest'|'cubic' (or the opset-16 names),
 *   padding: 'zeros'|'border'|'reflection', alignCorners }) -> { dims, data: Float64Array }
 */
export function referenceGridSample(x, grid, opts = {}) {
  const modeName = opts.mode || 'linear';
  const mode = { bilinear: 'linear', bicubic: 'cubic' }[modeName] || modeName;
  const padding = opts.padding || 'zeros';
  const align = !!opts.alignCorners;
  const xd = Array.from(x.dims, Number);
  const gd = Array.from(grid.dims, Number);
  const N = xd[0], C = xd[1];
  const spatial = xd.slice(2);
  const r = spatial.length;
  const outSpatial = gd.slice(1, 1 + r);
  const outDims = [N, C, ...outSpatial];
  const data = new Float64Array(product(outDims));
  const nOutSp = product(outSpatial);
  const xStrides = stridesOf(spatial);
  const nInSp = product(spatial);
  const lo = () => (align ? 0 : -0.5);
  const hi = (L) => (align ? L - 1 : L - 0.5);

  // A tap index on an axis after padding; null means "contributes 0" (zeros padding).
  const padIndex = (i, L) => {
    if (i >= 0 && i <= L - 1) return i;
    if (padding === 'zeros') return null;
    if (padding === 'border') return clamp(i, 0, L - 1);
    // reflect the integer index with the same bounds as continuous coordinates; the
    // result is an integer, clamped in case of rounding.
    return clamp(Math.round(reflect(i, lo(L), hi(L))), 0, L - 1);
  };

  for (let n = 0; n < N; n++) {
    for (let o = 0; o < nOutSp; o++) {
      // grid[n, o..., :] lists coordinates innermost-first: g[0] is for the last axis of X.
      const gOff = (n * nOutSp + o) * r;
      const coords = new Array(r);
      for (let k = 0; k < r; k++) {
        const axis = r - 1 - k;
        coords[axis] = unnormalize(Number(grid.data[gOff + k]), spatial[axis], align);
      }
      for (let c = 0; c < C; c++) {
        const base = (n * C + c) * nInSp;
        const yIdx = (n * C + c) * nOutSp + o;
        if (coords.some((v) => Number.isNaN(v))) { data[yIdx] = NaN; continue; }
        const at = (idx) => Number(x.data[base + idx]);
        if (mode === 'nearest') {
          let off = 0, zero = false;
          for (let a = 0; a < r; a++) {
            const i = padIndex(roundHalfEven(coords[a]), spatial[a]);
            if (i === null) { zero = true; break; }
            off += i * xStrides[a];
          }
          data[yIdx] = zero ? 0 : at(off);
          continue;
        }
        // per-axis taps [{ index | null, weight }]
        const tapsPerAxis = coords.map((v, a) => {
          const L = spatial[a];
          if (mode === 'linear') {
            if (padding === 'border') v = clamp(v, 0, L - 1);
            else if (padding === 'reflection') v = reflect(v, lo(L), hi(L));
            const f = Math.floor(v), t = v - f;
            return [{ i: f, w: 1 - t }, { i: f + 1, w: t }]
              .filter((tp) => tp.w !== 0)
              .map((tp) => ({ index: padIndex(tp.i, L), weight: tp.w }));
          }
          const f = Math.floor(v), t = v - f, A = -0.75;
          return [
            { i: f - 1, w: keys(t + 1, A) }, { i: f, w: keys(t, A) },
            { i: f + 1, w: keys(1 - t, A) }, { i: f + 2, w: keys(2 - t, A) },
          ].filter((tp) => tp.w !== 0).map((tp) => ({ index: padIndex(tp.i, L), weight: tp.w }));
        });
        // nested 1-D interpolation, outermost spatial axis last
        const value = (a, off) => {
          if (a === r) return at(off);
          let acc = 0;
          for (const tp of tapsPerAxis[a]) {
            if (tp.index === null) continue; // zeros padding: the tap contributes 0
            acc += tp.weight * value(a + 1, off + tp.index * xStrides[a]);
          }
          return acc;
        };
        data[yIdx] = value(0, 0);
      }
    }
  }
  return { dims: outDims, data };
}
