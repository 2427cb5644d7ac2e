// resize_kernels.h: the loops of Resize. They see tables, never modes or scales.
//
// A linear/cubic/antialias resize is a sequence of separable passes, one per resized axis.
// A pass views its input as [outer, in, inner] and its output as [outer, out, inner]:
//   y[p, o, j] = sum_{k < count[o]} w[o, k] * x[p, index[o, k], j]
// Two shapes of loop cover every axis: inner == 1 (the innermost axis: a short dot product
// per output) and inner > 1 (whole contiguous rows are blended: the SIMD case).
// The scalar kernel is the reference and always builds; the SIMD kernel has the same
// signature, and tests compare the two in one binary.
#pragma once

#include <cstring>

#include "elem.h"
#include "resize_plan.h"
#include "simd.h"

namespace osw {

// Element conversions between a storage type T and a compute type F.
template <typename F, typename T>
inline F widen(T v) {
  return static_cast<F>(ElemTraits<T>::load(v));
}
template <typename T, typename F>
inline T narrow(F v) {
  return ElemTraits<T>::store(static_cast<typename ElemTraits<T>::Compute>(v));
}

template <typename Tin, typename Tout, typename F>
void resize_pass_scalar(const Tin* x, Tout* y, int64_t outer, int64_t inner,
                        const AxisPlan& plan, const F* weights) {
  const int64_t in = plan.in, out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  for (int64_t p = 0; p < outer; ++p) {
    const Tin* xp = x + p * in * inner;
    Tout* yp = y + p * out * inner;
    for (int64_t o = 0; o < out; ++o) {
      const int32_t* idx = index + o * K;
      const F* w = weights + o * K;
      const int n = count[o];
      Tout* yo = yp + o * inner;
      for (int64_t j = 0; j < inner; ++j) {
        // Starts from the first product, not from 0, so that -0.0 survives as the SIMD
        // kernel keeps it.
        F acc = n > 0 ? w[0] * widen<F>(xp[idx[0] * inner + j]) : F(0);
        for (int k = 1; k < n; ++k) acc += w[k] * widen<F>(xp[idx[k] * inner + j]);
        yo[j] = narrow<Tout>(acc);
      }
    }
  }
}

#if OSW_HAVE_SIMD
// Same result as resize_pass_scalar<F, F, F> (same order of operations per element).
// Rows (inner > 1) are blended kLanes at a time; the last partial vector and the innermost
// axis (inner == 1) run the scalar loop, so nothing is read or written past an end.
template <typename F>
void resize_pass_simd(const F* x, F* y, int64_t outer, int64_t inner, const AxisPlan& plan,
                      const F* weights) {
  using VF = Vec<F>;
  constexpr int L = VF::kLanes;
  if (inner < L) {
    resize_pass_scalar<F, F, F>(x, y, outer, inner, plan, weights);
    return;
  }
  const int64_t in = plan.in, out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  const int64_t vec_end = inner - inner % L;
  for (int64_t p = 0; p < outer; ++p) {
    const F* xp = x + p * in * inner;
    F* yp = y + p * out * inner;
    for (int64_t o = 0; o < out; ++o) {
      const int32_t* idx = index + o * K;
      const F* w = weights + o * K;
      const int n = count[o];
      F* yo = yp + o * inner;
      if (n == 0) {
        std::memset(yo, 0, sizeof(F) * inner);
        continue;
      }
      const F* r0 = xp + idx[0] * inner;
      const typename VF::V w0 = VF::splat(w[0]);
      if (n == 1) {
        for (int64_t j = 0; j < vec_end; j += L) VF::store(yo + j, VF::mul(w0, VF::load(r0 + j)));
      } else if (n == 2) {
        // Two taps (linear): the common case, kept free of the generic tap loop.
        const F* r1 = xp + idx[1] * inner;
        const typename VF::V w1 = VF::splat(w[1]);
        for (int64_t j = 0; j < vec_end; j += L) {
          typename VF::V acc = VF::mul(w0, VF::load(r0 + j));
          VF::store(yo + j, VF::madd(acc, w1, VF::load(r1 + j)));
        }
      } else {
        for (int64_t j = 0; j < vec_end; j += L) {
          typename VF::V acc = VF::mul(w0, VF::load(r0 + j));
          for (int k = 1; k < n; ++k)
            acc = VF::madd(acc, VF::splat(w[k]), VF::load(xp + idx[k] * inner + j));
          VF::store(yo + j, acc);
        }
      }
      for (int64_t j = vec_end; j < inner; ++j) {
        F acc = w[0] * xp[idx[0] * inner + j];
        for (int k = 1; k < n; ++k) acc += w[k] * xp[idx[k] * inner + j];
        yo[j] = acc;
      }
    }
  }
}
#endif

// The pass the executor uses: SIMD where the types allow, scalar otherwise.
template <typename Tin, typename Tout, typename F>
inline void resize_pass(const Tin* x, Tout* y, int64_t outer, int64_t inner,
                        const AxisPlan& plan, const F* weights) {
#if OSW_HAVE_SIMD
  if constexpr (std::is_same<Tin, F>::value && std::is_same<Tout, F>::value) {
    resize_pass_simd<F>(x, y, outer, inner, plan, weights);
    return;
  }
#endif
  resize_pass_scalar<Tin, Tout, F>(x, y, outer, inner, plan, weights);
}

}  // namespace osw
