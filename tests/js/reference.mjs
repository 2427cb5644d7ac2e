// reference.mjs — owns the slow, obviously-correct references of ONNX Resize and
// GridSample that tests/js/property.test.mjs compares the library against.
//
// Written from the spec text (seeds 000/001/003/004) and the project's decisions in
// shared/docs/SEMANTICS.md, structured like the ONNX reference implementation rather than
// like the library's plan tables: for every output element, each axis' source coordinate
// is computed from its formula, and the N-D value is built by nested 1-D interpolation
// (interpolate each sub-tensor along the inner axes, then 1-D along the outermost). All
// arithmetic is in float64 JS numbers; nothing is cached, nothing is vectorised.
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

// ---------------------------------------------------------------- Resize

// Source coordinate of output index x on one axis.
//   ax: { inLen, outLen, scale, W, exact: { num, den } | null, roiStart, roiEnd }
// `exact` is set when the output size came from `sizes` with policy stretch: the scale
// is then the ratio out/in and the formulas divide once by it, as x * in / out.
export function sourceCoordinate(coord, x, ax) {
  const { inLen: L, outLen: O, scale: s, W } = ax;
  // (x + c) / s, computed as (x + c) * in / out when the ratio is exact.
  const div = (v) => (ax.exact ? (v * L) / O : v / s);
  switch (coord) {
    case 'half_pixel':
      return div(x + 0.5) - 0.5;
    case 'half_pixel_symmetric': {
      const offset = (L / 2) * (1 - O / W);
      return offset + div(x + 0.5) - 0.5;
    }
    case 'pytorch_half_pixel':
      return O > 1 ? div(x + 0.5) - 0.5 : 0;
    case 'align_corners':
      return W === 1 ? 0 : (x * (L - 1)) / (W - 1);
    case 'asymmetric':
      return div(x);
    case 'tf_half_pixel_for_nn':
      return div(x + 0.5);
    case 'tf_crop_and_resize': {
      const a = ax.roiStart, b = ax.roiEnd;
      return O > 1 ? a * (L - 1) + (x * (b - a) * (L - 1)) / (O - 1) : 0.5 * (a + b) * (L - 1);
    }
    default:
      throw new Error(`reference: unknown coordinate_transformation_mode ${coord}`);
  }
}

// Nearest index for source coordinate xs.
export function nearestIndex(xs, nearestMode, scale, L) {
  const f = Math.floor(xs);
  const frac = xs - f;
  let i;
  switch (nearestMode) {
    case 'round_prefer_floor': i = frac <= 0.5 ? f : f + 1; break;
    case 'round_prefer_ceil': i = frac < 0.5 ? f : f + 1; break;
    case 'floor': i = f; break;
    case 'ceil': i = Math.ceil(xs); break;
    case 'opset10': i = scale >= 1 ? f : Math.ceil(xs); break;
    default: throw new Error(`reference: unknown nearest_mode ${nearestMode}`);
  }
  return clamp(i, 0, L - 1);
}

// Taps and weights of one 1-D interpolation at source coordinate xs: [{ index, weight }],
// indices already resolved against the edge (clamped, or dropped by exclude_outside).
export function taps1d(xs, ax, p) {
  const L = ax.inLen, s = ax.scale;
  const a = p.cubicA === undefined ? -0.75 : p.cubicA;
  let raw; // [{ index (unclamped), weight }]
  if (p.antialias && s < 1) {
    // Pillow-style widened filter, as the ONNX reference's *_coeffs_antialias.
    const base = Math.ceil(xs) - 1;
    const ratio = xs - base; // in (0, 1]
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
    const f = Math.floor(xs);
    const t = xs - f;
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
    let sum = 0;
    for (const r of raw) {
      if (r.index < 0 || r.index > L - 1) r.weight = 0;
      sum += r.weight;
    }
    for (const r of raw) r.weight /= sum;
    return raw.filter((r) => r.weight !== 0);
  }
  return raw.filter((r) => r.weight !== 0).map((r) => ({ index: clamp(r.index, 0, L - 1), weight: r.weight }));
}

// Per-axis parameters: output length, the scale used in the formulas, the unrounded
// output length W, and whether coordinates use the exact ratio in/out.
export function resizeAxes(inDims, p) {
  const r = inDims.length;
  const axesSet = p.axes ? new Set(p.axes.map((a) => (a < 0 ? a + r : a))) : null;
  const inAxes = (i) => (axesSet ? axesSet.has(i) : true);
  const policy = p.keepAspectRatioPolicy || 'stretch';
  const roi = p.roi || null;
  const out = [];
  if (p.sizes && policy !== 'stretch') {
    let scale = policy === 'not_larger' ? Infinity : -Infinity;
    for (let i = 0; i < r; i++) {
      if (!inAxes(i)) continue;
      const q = Number(p.sizes[i]) / inDims[i];
      scale = policy === 'not_larger' ? Math.min(scale, q) : Math.max(scale, q);
    }
    for (let i = 0; i < r; i++) {
      const L = inDims[i];
      if (!inAxes(i)) { out.push({ inLen: L, outLen: L, scale: 1, W: L, exact: null }); continue; }
      const O = Math.floor(scale * L + 0.5);
      out.push({ inLen: L, outLen: O, scale, W: scale * L, exact: null });
    }
  } else if (p.sizes) {
    for (let i = 0; i < r; i++) {
      const L = inDims[i], O = Number(p.sizes[i]);
      out.push({ inLen: L, outLen: O, scale: O / L, W: O, exact: { num: O, den: L } });
    }
  } else {
    for (let i = 0; i < r; i++) {
      const L = inDims[i], s = Number(p.scales[i]);
      out.push({ inLen: L, outLen: Math.floor(L * s), scale: s, W: s * L, exact: null });
    }
  }
  for (let i = 0; i < r; i++) {
    out[i].roiStart = roi ? Number(roi[i]) : 0;
    out[i].roiEnd = roi ? Number(roi[r + i]) : 1;
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

  for (let flat = 0; flat < n; flat++) {
    const oidx = unravel(flat, outDims);
    const xs = oidx.map((o, i) => sourceCoordinate(coord, o, axes[i]));
    if (coord === 'tf_crop_and_resize' && xs.some((v, i) => v < 0 || v > axes[i].inLen - 1)) {
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
  const lo = (L) => (align ? 0 : -0.5);
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
