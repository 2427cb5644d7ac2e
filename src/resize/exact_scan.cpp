// resize/exact_scan.cpp: the scan of resize_exact_fix() and the recheck in double of 8- and
// 16-bit outputs near a boundary (resize/exact.h), compiled for speed: run on every part of
// an integer output, where at -Oz the recheck would cost more than the uint8 rows themselves.
// What they cannot decide goes to resize_exact_slow() (resize/exact.cpp, for size).
#include <cmath>
#include <cstring>

#include "core/elem.h"
#include "core/exact_int.h"
#include "core/optimize.h"
#include "core/simd.h"
#include "resize/exact.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

namespace {

// X's element i as a double (8- and 16-bit types).
double x_double(const TensorView& x, int64_t i) {
  switch (x.type) {
    case DType::UInt8: return static_cast<const uint8_t*>(x.data)[i];
    case DType::Int8: return static_cast<const int8_t*>(x.data)[i];
    case DType::UInt16: return static_cast<const uint16_t*>(x.data)[i];
    case DType::Int16: return static_cast<const int16_t*>(x.data)[i];
    default: return 0;
  }
}

// The output through the plan's own taps and double weights, over the axes ax[0..n) that
// have more than one tap (offset: X's element so far, the others' taps included): the same
// separable sums as the passes, in double.
double plan_sum(const ResizePlan& plan, const TensorView& x, const int64_t* idx,
                const int64_t* stride, const int* ax, int n, int64_t offset) {
  const AxisPlan& ap = plan.axis[ax[0]];
  const int K = ap.taps;
  const int32_t* index = &ap.index[idx[ax[0]] * K];
  const double* w = &ap.weight[idx[ax[0]] * K];
  const uint8_t* x8 = static_cast<const uint8_t*>(x.data);
  double s = 0;
  if (n == 2 && x.type == DType::UInt8) {   // (two axes of uint8, the usual image: the same
    const AxisPlan& bp = plan.axis[ax[1]];  // sums as the recursion below, without its calls)
    const int32_t* index1 = &bp.index[idx[ax[1]] * bp.taps];
    const double* w1 = &bp.weight[idx[ax[1]] * bp.taps];
    const int n1 = bp.count[idx[ax[1]]];
    const int64_t s0 = stride[ax[0]], s1 = stride[ax[1]];
    for (int k = 0; k < ap.count[idx[ax[0]]]; ++k) {
      const uint8_t* row = x8 + offset + int64_t(index[k]) * s0;
      double t = 0;
      for (int j = 0; j < n1; ++j) t += w1[j] * row[int64_t(index1[j]) * s1];
      s += w[k] * t;
    }
    return s;
  }
  for (int k = 0; k < ap.count[idx[ax[0]]]; ++k) {
    const int64_t off = offset + int64_t(index[k]) * stride[ax[0]];
    s += w[k] * (n > 1                    ? plan_sum(plan, x, idx, stride, ax + 1, n - 1, off)
                 : x.type == DType::UInt8 ? x8[off]
                                          : x_double(x, off));
  }
  return s;
}

struct Fixer {
  const ResizePlan& plan;
  const TensorView& x;
  TensorView* y;
  double eps, eps_d;
  int mode;
  int64_t es;
  double lo_d, hi_d;  // the type's range
  ExactTaps** cache;
  double dmax;  // resize_exact_dmax(plan)
};

// Stores the integer q (|q| < 2^53), saturated to Y's type, as Y's element i.
__attribute__((noinline)) void store(const Fixer& f, int64_t i, double q) {
  q = q < f.lo_d ? f.lo_d : (q > f.hi_d ? f.hi_d : q);
  const int64_t bits = static_cast<int64_t>(q);  // two's complement: the type's low bytes
  std::memcpy(static_cast<unsigned char*>(f.y->data) + i * f.es, &bits, size_t(f.es));
}

// The compat's rounding of w (|w| < 2^53): round_integer_output's rule (0 half to even, 1
// truncation, 2 half up) in double, without its saturation (store() saturates).
double round_as(int mode, double w) {
  return mode == 1 ? std::trunc(w) : mode == 2 ? std::floor(w + 0.5) : std::nearbyint(w);
}

// Whether v lies within eps of a rounding boundary: d = |v - nearest integer| (exact:
// Sterbenz) at least 0.5 - eps (half to even, half up) or at most eps (truncation, but not
// near 0 when eps < 1/4: the exact value is then in (-1, 1), which truncates to 0, so black
// regions cost nothing). NaN: never.
inline bool near_boundary(double v, double eps, bool trunc) {
  const double r = std::nearbyint(v), d = std::fabs(v - r);
  return trunc ? d <= eps && (r != 0 || eps >= 0.25) : d >= 0.5 - eps;
}

// The boundary nearest v: an integer (truncation), else k + 1/2.
inline double boundary(double v, bool trunc) {
  return trunc ? std::nearbyint(v) : std::nearbyint(v - 0.5) + 0.5;
}

#if OSW_HAVE_SIMD
// Whether either of the two doubles at v may lie near a boundary (near_boundary's test on
// both lanes, without truncation's exception at 0; vlo = 0.5 - eps, ve = eps splatted).
inline bool pair_near(const double* v, v128_t vlo, v128_t ve, bool trunc) {
  const v128_t a = wasm_v128_load(v);
  const v128_t d = wasm_f64x2_abs(wasm_f64x2_sub(a, wasm_f64x2_nearest(a)));
  return wasm_v128_any_true(trunc ? wasm_f64x2_le(d, ve) : wasm_f64x2_ge(d, vlo));
}
#endif

// The Fixer of Y's type (lo, hi: its range).
Fixer make_fixer(const ResizePlan& plan, const TensorView& x, TensorView* y, double eps,
                 double eps_d, ExactTaps** cache, double dmax) {
  const int64_t es = dtype_size(y->type);
  const bool is_signed = y->type == DType::Int8 || y->type == DType::Int16 ||
                         y->type == DType::Int32 || y->type == DType::Int64;
  const uint64_t span = es == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * es)) - 1;
  return Fixer{plan,
               x,
               y,
               eps,
               eps_d,
               static_cast<int>(plan.attrs.compat),
               es,
               is_signed ? -double(span / 2 + 1) : 0.0,
               double(is_signed ? span / 2 : span),
               cache,
               dmax};
}

// Output i of Y (computed value v, within eps of a boundary). 8- and 16-bit types first in
// double from the plan's double weights, whose error bound (eps_d, the same derivation) is
// far smaller (and under truncation, X equal at every tap decides at once). A value w
// still within e of a boundary is N / D, the one multiple of 1 / D within e of w, when the
// exact value's denominator D (the product of the axes' exact ones) is below 1 / (2 e):
// any other multiple is at least 1 / D - e > e away. (Exact ties are common: 1.5x
// half_pixel has weights 1/2, 1/2 on every third output.) What is left goes to the big
// integers of resize_exact_slow(). Compiled for size: called for few outputs.
OSW_MINSIZE __attribute__((noinline)) void fix_one(const Fixer& f, int64_t i, double v) {
  const ResizePlan& plan = f.plan;
  double w = v, e = f.eps;
  if (!*f.cache) *f.cache = resize_exact_taps_new(plan);
  // (the multi-index once: int64 divisions are slow in wasm, and the tie and the recheck
  // both need it; an output outside a crop box is not an interpolated value: left as is)
  int64_t idx[kMaxRank], stride[kMaxRank], rest = i, st = 1, base = 0;
  for (int a = plan.rank - 1; a >= 0; --a) {
    idx[a] = rest % plan.out_dims[a];
    rest /= plan.out_dims[a];
    stride[a] = st;
    st *= plan.in_dims[a];
    if (plan.axis[a].outside.size() > idx[a] && plan.axis[a].outside[idx[a]]) return;
  }
  // The exact value N / D found from w within e of it, when the denominator D (a bound:
  // the plan's, or this output's) is below 1 / (2 e): N / D is the only multiple of 1 / D
  // that near w, so N = round(w D); then rounded exactly, in integers. (The exact ties,
  // e.g. weights 1/2, 1/2 on every third output of 1.5x half_pixel, and 32-bit outputs,
  // whose error bound is large, are then decided here, not in big integers.)
  const auto tie = [&]() {
    if (!(e < 0.125 && std::fabs(w) < 0x1p51)) return false;
    // (the plan's bound first: the denominators of each output cost big integers)
    double D = f.dmax * e * 2 < 1 ? f.dmax
               : *f.cache         ? resize_exact_den(plan, idx, *f.cache)
                                  : INFINITY;
    D = std::nearbyint(D / (1 + 0x1p-40));  // (the bounds carry that margin: D is an integer)
    if (!(D < 0x1p40 && D * e * 2 * (1 + 0x1p-20) + std::fabs(w * D) * 0x1p-51 < 1)) return false;
    const int64_t d = static_cast<int64_t>(D), n = static_cast<int64_t>(std::nearbyint(w * D));
    int64_t q = n / d, r = n - q * d;  // floor division: 0 <= r < d
    if (r < 0) --q, r += d;
    const bool up = f.mode == 1   ? q < 0 && r != 0
                    : f.mode == 2 ? 2 * r >= d
                                  : 2 * r > d || (2 * r == d && (q & 1));
    store(f, i, double(q + (up ? 1 : 0)));
    return true;
  };
  const bool recheck = f.es < 4 && f.eps_d < 0.25;  // (8/16-bit: in double first, cheaper)
  if (!recheck && tie()) return;
  if (recheck) {
    int ax[kMaxRank], nax = 0;
    for (int a = 0; a < plan.rank; ++a) {  // axes of one tap of weight 1 fold into the offset
      const AxisPlan& ap = plan.axis[a];
      if (ap.count[idx[a]] == 1 && ap.weight[idx[a] * ap.taps] == 1.0)
        base += ap.index[idx[a] * ap.taps] * stride[a];
      else
        ax[nax++] = a;
    }
    // Truncation (compat 'onnxruntime') near an integer: X the same c at every input the
    // exact taps read gives exactly c (the exact weights sum to 1). Flat regions are common
    // in images, and each would otherwise go to the big integers, which is slow.)
    int64_t at = 0;
    if (f.mode == 1 && resize_flat_box(plan, f.x, idx, stride, &at)) {
      store(f, i, x_double(f.x, at));
      return;
    }
    w = nax == 0 ? x_double(f.x, base) : plan_sum(plan, f.x, idx, stride, ax, nax, base);
    e = f.eps_d;
    const double dw = std::fabs(w - std::nearbyint(w));
    // decided (8- and 16-bit ranges are exact in double; e == 0: so is this sum, ties too),
    // or by its denominator, or the plan is exact in double after all (this sum decides)
    if (!(e == 0 || (f.mode == 1 ? dw > e : dw < 0.5 - e))) {
      if (tie()) return;
      if (!(*f.cache && resize_exact_in_double(plan, *f.cache))) {
        resize_exact_slow(plan, f.x, f.y, i, v, *f.cache);
        return;
      }
    }
    store(f, i, round_as(f.mode, w));
    return;
  }
  resize_exact_slow(plan, f.x, f.y, i, v, *f.cache);
}

}  // namespace

// Whether X holds one value over every input the exact taps of the
// output at multi-index idx can read (compat 'onnxruntime': its exact coordinates are the
// plan's doubles, so its taps are the plan's): on each axis the plan's taps, and one more
// on each side where the plan dropped some. (It drops taps whose double weight is 0; under
// this compat only at integer coordinates, where the exact weight is 0 too: none other in
// 40 million outputs of 5 coordinate modes, linear and cubic. The margin does not rest on
// that.) *at: the offset of one of them.
// (Out of line: inside fix_one it would be compiled for size, slower on flat regions.)
__attribute__((noinline)) bool resize_flat_box(const ResizePlan& plan, const TensorView& x,
                                               const int64_t* idx, const int64_t* stride,
                                               int64_t* at) {
  int64_t span[kMaxRank], k[kMaxRank], st[kMaxRank], off = 0;
  int n = 0;  // the axes of more than one input
  for (int a = 0; a < plan.rank; ++a) {
    const AxisPlan& ap = plan.axis[a];
    const int32_t* ix = &ap.index[idx[a] * ap.taps];
    const int c = ap.count[idx[a]];
    int64_t lo = ix[0], hi = ix[c - 1];  // (clamped consecutive taps: in order)
    if (c < ap.taps) {
      lo = lo > 0 ? lo - 1 : 0;
      hi = hi + 1 < ap.in ? hi + 1 : hi;
    }
    off += lo * stride[a];
    if (hi > lo) {
      span[n] = hi - lo;
      k[n] = 0;
      st[n++] = stride[a];
    }
  }
  const int64_t es = dtype_size(x.type);
  auto load = [&x, es](int64_t o) -> uint64_t {
    if (es == 1) return static_cast<const uint8_t*>(x.data)[o];
    if (es == 2) return static_cast<const uint16_t*>(x.data)[o];
    if (es == 4) return static_cast<const uint32_t*>(x.data)[o];
    return static_cast<const uint64_t*>(x.data)[o];
  };
  *at = off;
  const uint64_t first = load(off);
  for (;;) {  // every input of the box, the last axis fastest; off follows k
    int a = n - 1;
    for (; a >= 0 && k[a] == span[a]; --a) {
      off -= k[a] * st[a];
      k[a] = 0;
    }
    if (a < 0) return true;
    off += st[a];
    ++k[a];
    if (load(off) != first) return false;
  }
}

OSW_MINSIZE void resize_exact_fix(const ResizePlan& plan, const TensorView& x, const void* src,
                                  bool src_double, TensorView* y, int64_t at, int64_t n, double eps,
                                  double eps_d, ExactTaps** cache, double dmax) {
  const Fixer f = make_fixer(plan, x, y, eps, eps_d, cache, dmax);
  const bool trunc = f.mode == 1;
  int64_t j = 0;
  if (!src_double) {  // (the SIMD loop is resize_exact_narrow's: here the tails)
    const float* v = static_cast<const float*>(src);
    for (; j < n; ++j)
      if (near_boundary(v[j], eps, trunc)) fix_one(f, at + j, v[j]);
  } else {
    const double* v = static_cast<const double*>(src);
#if OSW_HAVE_SIMD
    const v128_t vlo = wasm_f64x2_splat(0.5 - eps), ve = wasm_f64x2_splat(eps);
    for (; j + 2 <= n; j += 2) {
      if (!pair_near(v + j, vlo, ve, trunc)) continue;
      for (int64_t k = j; k < j + 2; ++k)
        if (near_boundary(v[k], eps, trunc)) fix_one(f, at + k, v[k]);
    }
#endif
    for (; j < n; ++j)
      if (near_boundary(v[j], eps, trunc)) fix_one(f, at + j, v[j]);
  }
}

#if OSW_HAVE_SIMD
namespace {

// 8 values of Y (8- or 16-bit type t) from the int32 lanes a and b: saturated as
// narrow_small (core/convert.cpp) stores them.
void store8(DType t, void* y, v128_t a, v128_t b) {
  const v128_t h = wasm_i16x8_narrow_i32x4(a, b);
  switch (t) {
    case DType::UInt16: wasm_v128_store(y, wasm_u16x8_narrow_i32x4(a, b)); break;
    case DType::Int16: wasm_v128_store(y, h); break;
    case DType::UInt8: wasm_v128_store64_lane(y, wasm_u8x16_narrow_i16x8(h, h), 0); break;
    default: wasm_v128_store64_lane(y, wasm_i8x16_narrow_i16x8(h, h), 0); break;
  }
}

// The narrowing and the scan of resize_exact_fix() in one pass over the float values
// (half to even, or truncation); returns the count done (a multiple of 8).
int64_t narrow_fix(const Fixer& f, const float* v, int64_t at, int64_t n) {
  unsigned char* y = static_cast<unsigned char*>(f.y->data);
  // (eps 0: a plan computed exactly, whose values near a boundary are on it, even where
  // its outputs have no common denominator: dmax inf)
  const bool trunc = f.mode == 1, up = f.mode == 2, snap = f.eps == 0 || f.dmax * f.eps * 4 < 1;
  float lo = static_cast<float>(0.5 - f.eps), e = static_cast<float>(f.eps);
  if (double(lo) > 0.5 - f.eps) lo = std::nextafter(lo, 0.0f);
  if (double(e) < f.eps) e = std::nextafter(e, 1.0f);
  const v128_t vlo = wasm_f32x4_splat(lo), ve = wasm_f32x4_splat(e), h = wasm_f32x4_splat(0.5f);
  // (truncation's values near 0 need nothing when eps < 1/4: near_boundary; else NaN,
  // equal to nothing)
  const v128_t zero = wasm_f32x4_splat(f.eps < 0.25 ? 0.0f : NAN);
  // The lanes of v rounded by the compat's rule (truncation: by the store's trunc_sat), and
  // the mask of those near a boundary, which under snap are set to the boundary's rounding
  // (an integer under truncation, else k + 1/2: |v| < 2^22, so these steps are exact).
  const auto round4 = [&](v128_t a, v128_t* near) {
    const v128_t r = wasm_f32x4_nearest(a), d = wasm_f32x4_abs(wasm_f32x4_sub(a, r));
    *near = trunc ? wasm_v128_andnot(wasm_f32x4_le(d, ve), wasm_f32x4_eq(r, zero))
                  : wasm_f32x4_ge(d, vlo);
    const v128_t out = trunc ? a : up ? wasm_f32x4_floor(wasm_f32x4_add(a, h)) : r;
    if (!snap) return out;
    const v128_t b = wasm_f32x4_add(wasm_f32x4_nearest(wasm_f32x4_sub(a, h)), h);
    const v128_t tie = trunc ? r : up ? wasm_f32x4_add(b, h) : wasm_f32x4_nearest(b);
    return wasm_v128_bitselect(tie, out, *near);
  };
  int64_t j = 0;
  const DType t = f.y->type;
  if (f.mode == 0 && (t == DType::UInt8 || t == DType::UInt16)) {
    // Half to even (the default compat), written out: the lambda's general form costs as
    // much as the resize itself, and the snap's tie arithmetic runs only for groups with a
    // lane near a boundary (exact ties: every third output of 1.5x; rare for most plans).
    //
    // Unsigned types, rounded by the float unit: each value clamped to [-1, max + 1] (pmax
    // with -1 first: NaN gives -1, stored as 0), so that |v| < 2^22, then added to
    // 1.5 * 2^23, whose last bits then hold the value rounded half to even: the integer is
    // the sum's bits less those of 1.5 * 2^23, and the sum less 1.5 * 2^23 the rounded
    // float. The same as f32x4.nearest then i32x4.trunc_sat (the loop below), whose
    // saturating conversion takes several instructions in V8, so this form is faster there.
    const v128_t vmin = wasm_f32x4_splat(-1.0f);
    const v128_t vmax = wasm_f32x4_splat(t == DType::UInt8 ? 256.0f : 65536.0f);
    const v128_t magic = wasm_f32x4_splat(0x1.8p23f);
    const auto clamp = [&](v128_t x) { return wasm_f32x4_pmin(wasm_f32x4_pmax(vmin, x), vmax); };
    const auto tie = [&](v128_t x) {  // (an integer float: its bits as above)
      const v128_t r =
          wasm_f32x4_nearest(wasm_f32x4_add(wasm_f32x4_nearest(wasm_f32x4_sub(x, h)), h));
      return wasm_i32x4_sub(wasm_f32x4_add(r, magic), magic);
    };
    // 16 values per step, one test of the four masks (faster than 8 per step).
    for (; j + 16 <= n; j += 16) {
      v128_t a[4], s[4], nr[4], iv[4];
      for (int q = 0; q < 4; ++q) {
        a[q] = clamp(wasm_v128_load(v + j + 4 * q));
        s[q] = wasm_f32x4_add(a[q], magic);
        nr[q] =
            wasm_f32x4_ge(wasm_f32x4_abs(wasm_f32x4_sub(a[q], wasm_f32x4_sub(s[q], magic))), vlo);
        iv[q] = wasm_i32x4_sub(s[q], magic);
      }
      const bool any =
          wasm_v128_any_true(wasm_v128_or(wasm_v128_or(nr[0], nr[1]), wasm_v128_or(nr[2], nr[3])));
      if (any && snap)
        for (int q = 0; q < 4; ++q) iv[q] = wasm_v128_bitselect(tie(a[q]), iv[q], nr[q]);
      if (t == DType::UInt8) {
        wasm_v128_store(y + at + j, wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(iv[0], iv[1]),
                                                            wasm_i16x8_narrow_i32x4(iv[2], iv[3])));
      } else {
        wasm_v128_store(y + (at + j) * 2, wasm_u16x8_narrow_i32x4(iv[0], iv[1]));
        wasm_v128_store(y + (at + j) * 2 + 16, wasm_u16x8_narrow_i32x4(iv[2], iv[3]));
      }
      if (!any || snap) continue;
      for (int64_t k = j; k < j + 16; ++k)
        if (near_boundary(v[k], f.eps, trunc)) fix_one(f, at + k, v[k]);
    }
  }
  for (; j + 8 <= n; j += 8) {
    v128_t na, nb;
    const v128_t ra = round4(wasm_v128_load(v + j), &na),
                 rb = round4(wasm_v128_load(v + j + 4), &nb);
    store8(t, y + (at + j) * f.es, wasm_i32x4_trunc_sat_f32x4(ra), wasm_i32x4_trunc_sat_f32x4(rb));
    if (snap || !wasm_v128_any_true(wasm_v128_or(na, nb))) continue;
    for (int64_t k = j; k < j + 8; ++k)
      if (near_boundary(v[k], f.eps, trunc)) fix_one(f, at + k, v[k]);
  }
  return j;
}

}  // namespace
#endif

int64_t resize_exact_narrow(const ResizePlan& plan, const TensorView& x, const float* src,
                            TensorView* y, int64_t at, int64_t n, double eps, double eps_d,
                            ExactTaps** cache, double dmax) {
#if OSW_HAVE_SIMD
  const DType t = y->type;
  if (t != DType::UInt8 && t != DType::Int8 && t != DType::UInt16 && t != DType::Int16) return 0;
  return narrow_fix(make_fixer(plan, x, y, eps, eps_d, cache, dmax), src, at, n);
#else
  (void)plan, (void)x, (void)src, (void)y, (void)at, (void)n, (void)eps, (void)eps_d, (void)cache,
      (void)dmax;
  return 0;
#endif
}

// (Compiled for size, with the vector test written out: the compiler's own unrolled loops
// are larger.)
OSW_MINSIZE void resize_exact_snap(void* src, bool src_double, int64_t n, double eps, int mode) {
  const bool trunc = mode == 1;
  int64_t j = 0;
  if (!src_double) {  // (8- and 16-bit: the few values resize_exact_narrow left)
    float* v = static_cast<float*>(src);
    for (; j < n; ++j)
      if (near_boundary(v[j], eps, trunc)) v[j] = static_cast<float>(boundary(v[j], trunc));
  } else {
    double* v = static_cast<double*>(src);
#if OSW_HAVE_SIMD
    const v128_t vlo = wasm_f64x2_splat(0.5 - eps), ve = wasm_f64x2_splat(eps);
    for (; j + 2 <= n; j += 2) {
      if (!pair_near(v + j, vlo, ve, trunc)) continue;
      for (int64_t k = j; k < j + 2; ++k)
        if (near_boundary(v[k], eps, trunc) && std::fabs(v[k]) < 0x1p51)
          v[k] = boundary(v[k], trunc);
    }
#endif
    for (; j < n; ++j)
      if (near_boundary(v[j], eps, trunc) && std::fabs(v[j]) < 0x1p51) v[j] = boundary(v[j], trunc);
  }
}

// (core/exact_int.h) SIMD over 4 floats at a time; the test in float over-selects (eps widened
// by 2^-22, more than the float rounding of d - half), and the caller decides in double.
int64_t exact::next_near(const float* v, int64_t n, double eps, bool trunc) {
  const float e = static_cast<float>(eps) + 0x1p-22f, h = trunc ? 0.0f : 0.5f;
  int64_t i = 0;
#if OSW_HAVE_SIMD
  const v128_t ve = wasm_f32x4_splat(e), vh = wasm_f32x4_splat(h), one = wasm_f32x4_splat(1.0f);
  const v128_t vt = wasm_i32x4_splat(trunc ? -1 : 0);
  for (; i + 4 <= n; i += 4) {
    const v128_t x = wasm_v128_load(v + i);
    const v128_t d = wasm_f32x4_sub(x, wasm_f32x4_floor(x));
    const v128_t m = wasm_v128_or(wasm_f32x4_le(wasm_f32x4_abs(wasm_f32x4_sub(d, vh)), ve),
                                  wasm_v128_and(vt, wasm_f32x4_le(wasm_f32x4_sub(one, d), ve)));
    if (wasm_v128_any_true(m)) break;
  }
#endif
  for (; i < n; ++i) {
    const float d = v[i] - std::floor(v[i]);
    if (std::fabs(d - h) <= e || (trunc && 1.0f - d <= e)) return i;
  }
  return n;
}

}  // namespace osw
