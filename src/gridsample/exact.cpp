// gridsample/exact.cpp: exact rounding decisions for GridSample's integer outputs
// (docs/semantics.md, "integer outputs decided exactly"), the GridSample side of
// resize/exact.cpp. Compiled for size: the values far from a boundary (nearly all) are
// skipped by exact::next_near's SIMD filter (resize/exact_scan.cpp), and only the others
// are decided here. Not decided (float rounding kept): coordinates beyond 4e15 (every tap
// then falls outside, or on one edge pixel: exact integers), compat 'onnxruntime'
// coordinates beyond 2^24 in float32 (its weights there are not its formula's).
//
// The exact value. A grid value g is a finite double (or float32), an exact dyadic
// rational, and so is every coordinate the spec's formulas make of it:
//   x = ((g + 1) L - 1) / 2, or (g + 1) (L - 1) / 2 with align_corners,
// border padding clamps x to [0, L - 1] and reflection reflects it into [lo, hi] (linear;
// cubic pads its integer taps, which for linear gives the same value). Under compat
// 'onnxruntime' x is the double its float32 formula gives (gs::ort_coordinate), never
// clamped nor reflected (ONNX Runtime pads the taps). With x = P / Q and t = P - floor(x) Q,
// the weights are integers over Q (linear: Q - t, t) or 4 Q^3 (cubic, a = -3/4: Keys'
// kernel), the taps padded and merged as gs::axis_taps does; the output is the sum over tap
// tuples of the axes' numerators times X over the product of the denominators. Q is at most
// 2^(max(b - v, 0) + 1) for g with b bits after the binary point and 2^v the largest power of
// 2 dividing L (L - 1 with align_corners), or 2^b for the compat's x with b bits: a bound of
// each output's denominator D without computing it.
//
// The error bound (bound()). The kernels compute an output as a dot product of K terms in
// the compute type (unit roundoff uc: 2^-24 for 8/16-bit X in float, 2^-53 for 32/64-bit in
// double) from weights that are products over the axes of double weights, rounded to the
// compute type. Per axis a: L_a = the largest sum of |exact weight| (1 linear; 1.375 cubic:
// its two negative taps sum to -3/4 t (1 - t) >= -3/16, and all four to 1), d_a the L1 distance of
// the double weights from the exact ones: the coordinate's error dx (<= 8 u X_a, X_a a bound
// of the magnitudes inside its formula: 4 L + 16 where taps can reach X (beyond, the taps
// all fall outside or on one edge pixel, where border's weights sum to 1 in any case), the
// largest |(g + 1) L| + L + 2 (L - 1 in the product with align_corners) of the call with
// reflection, 0 under 'onnxruntime', whose
// coordinate is its own definition) times the weights' slope (1 linear, 1.5 cubic), plus
// their own arithmetic (u linear, 2 u * 1.5 + 240 u cubic) and padding's merges (K_a u L_a).
// With P = prod (L_a + d_a), the sum's classic bound g_K = K uc / (1 - K uc) and r + 1
// roundings of each product,
//   |computed - exact| <= M ((P - prod L_a) + P (r u + uf) + g_K P (1 + uf)) [+ M P u, 64-bit X]
// with M the largest |X| (the type's range; the call's for 32- and 64-bit types) and uf the
// weights' rounding to float (8/16-bit). eps is twice that. 8/16-bit outputs near a boundary are
// first recomputed in double from plan_location's double weights (bound: the same with
// uc = u, uf = 0). A value within eps of a boundary whose D is below 1 / (4 eps) is that
// boundary (a multiple of 1/2 other than it is 1 / (2 D) > 2 eps away): decided at once.
// 32/64-bit values, whose M makes the coordinate term large: a location whose coordinates
// the double path computes exactly (den_log2's *exact) snaps against the bound with dx = 0.
#include <cmath>
#include <cstring>

#include "core/elem.h"
#include "core/exact_int.h"
#include "gridsample/coordinates.h"
#include "gridsample/exact.h"
#include "gridsample/kernels_generic.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"

namespace osw {
namespace gs_exec {

namespace {

using namespace exact;

// Bits after the binary point of a finite double (0 for an integer).
int frac_bits(double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  const int e = int(u >> 52 & 0x7FF);
  uint64_t m = u & ((uint64_t(1) << 52) - 1);
  if (e != 0) m |= uint64_t(1) << 52;  // v = m 2^(e - 1075), or m 2^-1074 (subnormal)
  const int b = m == 0 ? 0 : (e != 0 ? 1075 - e : 1074) - __builtin_ctzll(m);
  return b > 0 ? b : 0;
}

// log2 of a bound of the exact denominator of location gv's outputs (inf: not known).
// *exact: whether the double path computes the coordinates exactly (default compat, zeros or
// border padding): (g + 1), its product by L (or by L - 1 after / 2) and the - 1 each fit in
// 53 bits when b + e_g + e_L + 1 <= 53 (|g| + 2 < 2^e_g, L + 1 < 2^e_L). The bound's
// coordinate term is then 0.
double den_log2(const GridSamplePlan& plan, const double* gv, bool* exact) {
  const GridSampleAttrs& at = plan.attrs;
  const bool f32 = plan.grid_type == DType::Float32;
  double e = 0;
  *exact = !at.ort && at.padding != PaddingMode::Reflection;
  for (int a = 0; a < plan.geo.r; ++a) {
    const double g = gv[plan.geo.r - 1 - a];
    if (!std::isfinite(g)) return INFINITY;
    // x = ((g + 1) L - 1) / 2 or (g + 1) (L - 1) / 2: with g = m / 2^b (m odd) and L (or
    // L - 1) = 2^v o (o odd), (g + 1) L is over 2^(b - v) (m + 2^b is odd), x over twice that
    const int64_t len = plan.geo.len[a] - (at.align_corners ? 1 : 0);
    const int fb = frac_bits(g), v = len > 0 ? __builtin_ctzll(uint64_t(len)) : 0;
    const double b = at.ort
                         ? frac_bits(gs::ort_coordinate(at.align_corners, plan.geo.len[a], g, f32))
                         : (fb > v ? fb - v : 0) + 1;
    e += at.mode == GridMode::Cubic ? 2 + 3 * b : b;
    int eg = 0, el = 0;
    std::frexp(std::fabs(g) + 2, &eg);
    std::frexp(static_cast<double>(len) + 2, &el);
    *exact = *exact && fb + eg + el + 1 <= 53;
  }
  return e;
}

// The exact taps of one axis (the top comment) into out (4 entries allocated): indices
// padded and merged, numerators over out->den. False when not decided here (a coordinate
// beyond what floor_near takes, a value too large for the big integers).
bool exact_axis(const GridSampleAttrs& at, int64_t L, double g, bool g_f32, Taps* out) {
  out->n = 0;
  out->den = from_i64(1);
  if (!std::isfinite(g) || L <= 0) return false;
  const bool cubic = at.mode == GridMode::Cubic;
  Rat x;
  double guess;
  if (at.ort) {
    guess = gs::ort_coordinate(at.align_corners, L, g, g_f32);
    // (beyond 2^24 its float32 weights are no longer those of its formula: not covered)
    if (!(std::fabs(guess) < (g_f32 ? 0x1p24 : 0x1p52))) return false;
    x = rat(guess);
  } else {
    guess = gs::unnormalize(g, L, at.align_corners);
    const Rat g1 = radd(rat(g), rat(int64_t(1))), two = rat(int64_t(2));
    x = at.align_corners ? rdiv(rmul(g1, rat(L - 1)), two)
                         : rdiv(rsub(rmul(g1, rat(L)), rat(int64_t(1))), two);
    // (Border clamps x and reflection reflects it, for linear: padding only the taps, as
    // below, gives the same value: clamping, or reflecting about an integer or a
    // half-integer, maps the taps of x with their weights onto those of the padded x.)
  }
  int64_t f;
  Big k[4];
  int n;
  if (!point_taps(x, guess, cubic, rat(-0.75), &f, k, &n, &out->den)) return false;
  for (int i = 0; i < n; ++i) {
    if (sign(k[i]) == 0) continue;
    int64_t p = f + i;
    if (at.padding == PaddingMode::Zeros) {
      if (p < 0 || p > L - 1) continue;
    } else if (at.padding == PaddingMode::Border) {
      p = p < 0 ? 0 : (p > L - 1 ? L - 1 : p);
    } else {  // reflected about -1/2 and L - 1/2 (period 2L), or 0 and L - 1 (2L - 2)
      const int64_t period = at.align_corners ? 2 * L - 2 : 2 * L;
      p = period > 0 ? ((p % period) + period) % period : 0;
      p = p < L ? p : period - p - (at.align_corners ? 0 : 1);
    }
    int m = 0;
    while (m < out->n && out->pos[m] != p) ++m;
    if (m == out->n) {
      out->pos[m] = p;
      out->k[m] = Big();
      ++out->n;
    }
    out->k[m] = add(out->k[m], k[i]);
  }
  return !out->den.ovf;
}

// The bound of the top comment: kernels in float (uf: weights rounded to float) or double;
// xr null: for coordinates computed exactly (dx = 0).
double bound(const GridSamplePlan& plan, double M, bool f32, bool wide_x, const double* xr) {
  const double u = 0x1p-53, uc = f32 ? 0x1p-24 : u, uf = f32 ? 0x1p-24 : 0;
  const bool cubic = plan.attrs.mode == GridMode::Cubic;
  const int r = plan.geo.r, ka = cubic ? 4 : 2;
  double P = 1, Lp = 1, K = 1;
  for (int a = 0; a < r; ++a) {
    const double len = static_cast<double>(plan.geo.len[a]);
    const double X = plan.attrs.ort || !xr
                         ? 0
                         : (plan.attrs.padding == PaddingMode::Reflection ? xr[a] : 4 * len + 16);
    const double dx = 8 * u * X, La = cubic ? 1.375 : 1.0;
    const double da =
        cubic ? 4 * (1.5 * (dx + 2 * u) + 240 * u) + 4 * u * La : 2 * (dx + u) + 2 * u * La;
    P *= La + da;
    Lp *= La;
    K *= ka;
  }
  const double gk = K * uc / (1 - K * uc);
  const double e = M * ((P - Lp) + P * (r * u + uf) + gk * P * (1 + uf)) + (wide_x ? M * P * u : 0);
  return 2 * e * (1 + 0x1p-20);
}

// Element i of X of an 8- or 16-bit integer type.
double x_small(const TensorView& x, int64_t i) {
  switch (x.type) {
    case DType::UInt8: return static_cast<const uint8_t*>(x.data)[i];
    case DType::Int8: return static_cast<const int8_t*>(x.data)[i];
    case DType::UInt16: return static_cast<const uint16_t*>(x.data)[i];
    default: return static_cast<const int16_t*>(x.data)[i];
  }
}

// v rounded by rule (0 half to even, 1 toward zero, 2 half up), in double.
double round_rule(double v, int rule) {
  if (rule == 1) return std::trunc(v);
  if (rule == 2) {
    const double f = std::floor(v);
    return v - f >= 0.5 ? f + 1 : f;
  }
  return std::nearbyint(v);
}

// Whether v is within eps of a boundary of rule, and which one (*b).
bool near(double v, double eps, int rule, double* b) {
  if (rule == 1) {
    *b = std::nearbyint(v);
    return std::fabs(v - *b) <= eps && (*b != 0 || eps >= 0.25);  // (-1, 1) truncates to 0
  }
  *b = std::floor(v) + 0.5;
  return std::fabs(v - *b) <= eps;
}

}  // namespace

bool exact_fix(const GridSamplePlan& plan, const TensorView& x, const void* grid_n, int64_t c_count,
               int64_t j_begin, int64_t j_end, void* src, void* y, GridSampleWorkspace* ws) {
  using Off = typename std::conditional<(sizeof(void*) == 4), int32_t, int64_t>::type;
  const Geometry& geo = plan.geo;
  const DType t = x.type;
  const int64_t es = int64_t(dtype_size(t));
  const bool wide = es >= 4, g_f32 = plan.grid_type == DType::Float32;
  const int r = geo.r, rule = plan.attrs.integer_rounding;
  const float* gf = static_cast<const float*>(grid_n);
  const double* gd = static_cast<const double*>(grid_n);
  auto grid = [&](int64_t k) { return g_f32 ? static_cast<double>(gf[k]) : gd[k]; };
  // M and the reflection's coordinate magnitudes
  const double M = magnitude(x, c_count * geo.in_size);
  double xr[kMaxRank] = {};
  for (int a = 0; a < r; ++a) {
    const double len = static_cast<double>(geo.len[a]);
    for (int64_t j = j_begin; plan.attrs.padding == PaddingMode::Reflection && j < j_end; ++j) {
      const double g = std::fabs(grid(j * r + r - 1 - a));
      // (align_corners: (g + 1) / 2 (L - 1); else ((g + 1) L - 1) / 2)
      const double m =
          std::isfinite(g) ? (g + 1) * (plan.attrs.align_corners ? len - 1 : len) + len + 2 : 0;
      xr[a] = m > xr[a] ? m : xr[a];
    }
  }
  const double eps = bound(plan, M, !wide, es == 8, xr);
  const double eps_d = wide ? 0 : bound(plan, M, false, false, xr);
  // 32/64-bit: the bound of locations whose coordinates are exact in double (most float32
  // grid values), where the coordinate term would keep ties of large values from snapping
  const double eps_x = wide ? bound(plan, M, false, es == 8, nullptr) : eps;
  const int64_t taps = plan.max_taps, limit = plan.max_bytes;
  Off* off = nullptr;
  double* w = nullptr;
  Taps ax[kMaxRank];
  int64_t stride[kMaxRank];
  for (int a = 0; a < r; ++a) stride[a] = geo.stride[a];
  // A decision k (an integer, or a boundary the narrowing rounds by the rule): into src
  // before the narrowing (8- to 32-bit: exact there), or into Y after it (64-bit).
  const bool into_src = es < 8;
  auto decide = [&](int64_t i, double k) {
    if (!into_src)
      store_saturated(from_i64(static_cast<int64_t>(k)), t,
                      static_cast<unsigned char*>(y) + i * es);
    else if (wide)
      static_cast<double*>(src)[i] = k;
    else
      static_cast<float*>(src)[i] = static_cast<float>(k);
  };
  int snap = 0, snap_d = 0;  // D <= 2^-snap: D < 1 / (4 eps)
  std::frexp(4 * eps, &snap);
  std::frexp(4 * eps_d, &snap_d);
  int snap_x = 0;
  std::frexp(4 * eps_x, &snap_x);
  TensorView xc = x;
  for (int64_t c = 0; c < c_count; ++c) {
    xc.data = static_cast<unsigned char*>(x.data) + c * geo.in_size * es;
    const int64_t base = c * geo.out_size;
    for (int64_t j = j_begin; j < j_end; ++j) {
      if (!wide) {  // (most values are far from a boundary: skipped 4 at a time)
        j += next_near(static_cast<const float*>(src) + base + j, j_end - j, eps, rule == 1);
        if (j == j_end) break;
      }
      const int64_t i = base + j;
      double v =
          wide ? static_cast<const double*>(src)[i] : double(static_cast<const float*>(src)[i]);
      double b;
      if (!near(v, eps, rule, &b)) continue;
      double gv[kMaxRank];
      for (int a = 0; a < r; ++a) gv[a] = grid(j * r + a);
      bool xe;
      const double e2 = den_log2(plan, gv, &xe);
      if (std::fabs(v) < 0x1p51 &&
          (e2 <= -snap || (xe && e2 <= -snap_x && std::fabs(v - b) <= eps_x))) {
        decide(i, into_src ? b : round_rule(b, rule));  // D < 1 / (4 eps): the exact value is b
        continue;
      }
      if (!wide) {  // again in double from the plan's double weights
        if (!off) {
          off = workspace_array<Off>(ws->tables[0].gen_off, taps, limit);
          w = workspace_array<double>(ws->weights_f64, 2 * taps, limit);
          if (!off || !w) return false;
        }
        const Off n =
            g_f32
                ? plan_location<float, double, Off>(plan.attrs, geo, gf + j * r, off, w, w + taps)
                : plan_location<double, double, Off>(plan.attrs, geo, gd + j * r, off, w, w + taps);
        double sum = 0;
        for (Off k = 0; k < n; ++k) sum += w[k] * x_small(xc, off[k]);
        v = sum;
        if (!near(v, eps_d, rule, &b)) {
          decide(i, round_rule(v, rule));
          continue;
        }
        if (e2 <= -snap_d) {
          decide(i, b);
          continue;
        }
      }
      // big integers
      Big den = from_i64(1);
      bool ok = true;
      for (int a = 0; a < r && ok; ++a) {
        if (ax[a].k.size() < 4 && !(ax[a].k.allocate(4, limit) && ax[a].pos.allocate(4, limit)))
          return false;
        ok = exact_axis(plan.attrs, geo.len[a], gv[r - 1 - a], g_f32, &ax[a]);
        den = mul(den, ax[a].den);
      }
      bool any = ok;
      for (int a = 0; a < r; ++a) any = any && ax[a].n > 0;
      Big num, out;
      if (any) num = tap_sum(xc, ax, stride, 0, r, 0);
      if (!ok || num.ovf || den.ovf || !round_rational(num, den, v, rule, &out)) continue;
      if (into_src) {  // saturated to int64, then by the narrowing to Y's type
        int64_t k;
        store_saturated(out, DType::Int64, &k);
        decide(i, static_cast<double>(k));
      } else {
        store_saturated(out, t, static_cast<unsigned char*>(y) + i * es);
      }
    }
  }
  return true;
}

}  // namespace gs_exec
}  // namespace osw
