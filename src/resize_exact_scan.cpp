// resize_exact_scan.cpp: the scan of resize_exact_fix() and the recheck in double of 8- and
// 16-bit outputs near a boundary (resize_exact.h), compiled for speed: run on every part of
// an integer output, and (at -Oz) the recheck took 1.3-1.9x the time of uint8 cubic rows.
// What they cannot decide goes to resize_exact_slow() (resize_exact.cpp, for size).
#include <cmath>
#include <cstring>

#include "resize.h"
#include "resize_exact.h"
#include "simd.h"

namespace osw {

void resize_exact_slow(const ResizePlan& plan, const TensorView& x, TensorView* y, int64_t i,
                       double v);

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
  for (int k = 0; k < ap.count[idx[ax[0]]]; ++k) {
    const int64_t off = offset + int64_t(index[k]) * stride[ax[0]];
    s += w[k] * (n > 1 ? plan_sum(plan, x, idx, stride, ax + 1, n - 1, off)
                       : x.type == DType::UInt8 ? x8[off] : x_double(x, off));
  }
  return s;
}

struct Fixer {
  const ResizePlan& plan;
  const TensorView& x;
  TensorView* y;
  double eps_d;
  int mode;
  int64_t es;
  double lo_d, hi_d;  // the type's range
};

// Output i of Y (computed value v, within eps of a boundary): 8- and 16-bit types first in
// double from the plan's double weights, whose error bound (eps_d, the same derivation) is
// far smaller; what is still within it of a boundary (mostly exact ties), and wider
// types, in resize_exact_slow().
__attribute__((noinline)) void fix_one(const Fixer& f, int64_t i, double v) {
  const ResizePlan& plan = f.plan;
  if (f.es < 4 && f.eps_d < 0.25) {
    int64_t idx[kMaxRank], stride[kMaxRank], rest = i, st = 1, base = 0;
    int ax[kMaxRank], nax = 0;
    for (int a = plan.rank - 1; a >= 0; --a) {
      idx[a] = rest % plan.out_dims[a];
      rest /= plan.out_dims[a];
      stride[a] = st;
      st *= plan.in_dims[a];
      if (plan.axis[a].outside.size() > idx[a] && plan.axis[a].outside[idx[a]]) return;
    }
    for (int a = 0; a < plan.rank; ++a) {  // axes of one tap of weight 1 fold into the offset
      const AxisPlan& ap = plan.axis[a];
      if (ap.count[idx[a]] == 1 && ap.weight[idx[a] * ap.taps] == 1.0) base += ap.index[idx[a] * ap.taps] * stride[a];
      else ax[nax++] = a;
    }
    const double w = nax == 0 ? x_double(f.x, base) : plan_sum(plan, f.x, idx, stride, ax, nax, base);
    const double dw = std::fabs(w - std::nearbyint(w));
    if (f.mode == 1 ? dw > f.eps_d : dw < 0.5 - f.eps_d) {
      // Decided: the rounding of w, saturated (8- and 16-bit ranges are exact in double).
      double q = f.mode == 1 ? std::trunc(w) : f.mode == 2 ? std::floor(w + 0.5) : std::nearbyint(w);
      q = q < f.lo_d ? f.lo_d : (q > f.hi_d ? f.hi_d : q);
      const int64_t bits = static_cast<int64_t>(q);
      std::memcpy(static_cast<unsigned char*>(f.y->data) + i * f.es, &bits, size_t(f.es));
      return;
    }
  }
  resize_exact_slow(plan, f.x, f.y, i, v);
}

}  // namespace

void resize_exact_fix(const ResizePlan& plan, const TensorView& x, const void* src, bool src_double,
                      TensorView* y, int64_t at, int64_t n, double eps, double eps_d) {
  const int64_t es = dtype_size(y->type);
  const bool is_signed = y->type == DType::Int8 || y->type == DType::Int16 ||
                         y->type == DType::Int32 || y->type == DType::Int64;
  const uint64_t span = es == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * es)) - 1;
  const Fixer f{plan, x, y, eps_d, static_cast<int>(plan.attrs.compat), es,
                is_signed ? -double(span / 2 + 1) : 0.0, double(is_signed ? span / 2 : span)};
  const bool trunc = f.mode == 1;
  // A value v is near a boundary when d = |v - nearest integer| (exact: Sterbenz) is at
  // least 0.5 - eps (half to even, half up) or at most eps (truncation). NaN: never.
  int64_t j = 0;
  if (!src_double) {
    const float* v = static_cast<const float*>(src);
#if OSW_HAVE_SIMD
    // The thresholds in float, rounded so that every value near a boundary is caught.
    float lo = static_cast<float>(0.5 - eps), e = static_cast<float>(eps);
    if (double(lo) > 0.5 - eps) lo = std::nextafter(lo, 0.0f);
    if (double(e) < eps) e = std::nextafter(e, 1.0f);
    const v128_t vlo = wasm_f32x4_splat(lo), ve = wasm_f32x4_splat(e);
    for (; j + 4 <= n; j += 4) {
      const v128_t a = wasm_v128_load(v + j);
      const v128_t d = wasm_f32x4_abs(wasm_f32x4_sub(a, wasm_f32x4_nearest(a)));
      if (!wasm_v128_any_true(trunc ? wasm_f32x4_le(d, ve) : wasm_f32x4_ge(d, vlo))) continue;
      for (int64_t k = j; k < j + 4; ++k) {
        const double dk = std::fabs(double(v[k]) - std::nearbyint(double(v[k])));
        if (trunc ? dk <= eps : dk >= 0.5 - eps) fix_one(f, at + k, v[k]);
      }
    }
#endif
    for (; j < n; ++j) {
      const double dk = std::fabs(double(v[j]) - std::nearbyint(double(v[j])));
      if (trunc ? dk <= eps : dk >= 0.5 - eps) fix_one(f, at + j, v[j]);
    }
  } else {
    const double* v = static_cast<const double*>(src);
#if OSW_HAVE_SIMD
    const v128_t vlo = wasm_f64x2_splat(0.5 - eps), ve = wasm_f64x2_splat(eps);
    for (; j + 2 <= n; j += 2) {
      const v128_t a = wasm_v128_load(v + j);
      const v128_t d = wasm_f64x2_abs(wasm_f64x2_sub(a, wasm_f64x2_nearest(a)));
      if (!wasm_v128_any_true(trunc ? wasm_f64x2_le(d, ve) : wasm_f64x2_ge(d, vlo))) continue;
      for (int64_t k = j; k < j + 2; ++k) {
        const double dk = std::fabs(v[k] - std::nearbyint(v[k]));
        if (trunc ? dk <= eps : dk >= 0.5 - eps) fix_one(f, at + k, v[k]);
      }
    }
#endif
    for (; j < n; ++j) {
      const double dk = std::fabs(v[j] - std::nearbyint(v[j]));
      if (trunc ? dk <= eps : dk >= 0.5 - eps) fix_one(f, at + j, v[j]);
    }
  }
}

}  // namespace osw
