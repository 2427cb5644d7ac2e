// resize/kernels.h: the loops of Resize. They see tables, never modes or scales.
//
// A linear/cubic/antialias resize is a sequence of separable passes, one per resized axis.
// A pass views its input as [outer, in, inner] and its output as [outer, out, inner]:
//   y[p, o, j] = sum_{k < count[o]} w[o, k] * x[p, index[o, k], j]
// Two shapes of loop cover every axis: inner == 1 (the innermost axis: a short dot product
// per output) and inner > 1 (whole contiguous rows are blended: the SIMD case).
// The scalar kernel is the reference and always builds; the SIMD kernels (OSW_HAVE_SIMD,
// core/simd.h) have the same signatures, and tests compare the two in one binary and between a
// SIMD and a scalar build. Kernels keep no state: what they write besides their output (the
// 4-row kernel's strip) is passed in by the caller, from its workspace.
#pragma once

#include <cstring>

#include "core/convert.h"
#include "core/elem.h"
#include "core/simd.h"
#include "resize/plan.h"

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

// Outputs [o_begin, o_end) of the axis (o_end < 0: all of them) in each of the outer planes.
template <typename Tin, typename Tout, typename F>
void resize_pass_scalar(const Tin* x, Tout* y, int64_t outer, int64_t inner, const AxisPlan& plan,
                        const F* weights, int64_t o_begin = 0, int64_t o_end = -1) {
  const int64_t in = plan.in, out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  if (o_end < 0) o_end = out;
  for (int64_t p = 0; p < outer; ++p) {
    const Tin* xp = x + p * in * inner;
    Tout* yp = y + p * out * inner;
    for (int64_t o = o_begin; o < o_end; ++o) {
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

// Whether an innermost axis has the dense block form for at least 3/4 of its blocks: its
// rows then take the shuffle kernel (resize_pass_inner_simd), else the 4-row one.
inline bool mostly_dense(const AxisPlan& plan) {
  return plan.blocks > 0 && plan.blocks_dense * 4 >= plan.blocks * 3;
}

#if OSW_HAVE_SIMD
// Vector loads and stores of kLanes elements of a storage type T, converted to and from the
// compute type F. Defined for the pairs the SIMD pass supports (kOk: float and double
// themselves, and uint8 in float; the other integer types reach the kernels converted to
// float or double, resize/resize.cpp's RunLayout::convert); the conversions equal
// ElemTraits' scalar ones: integers widen exactly, and narrow by rounding half to even
// (f32x4.nearest), converting with saturation (NaN -> 0) and narrowing with saturation.
template <typename T, typename F>
struct Lanes {
  static constexpr bool kOk = false;
};

template <typename F>
struct Lanes<F, F> {
  static constexpr bool kOk = true;
  using V = typename Vec<F>::V;
  static inline V load(const F* p) { return Vec<F>::load(p); }
  static inline void store(F* p, V v) { Vec<F>::store(p, v); }
};

template <>
struct Lanes<uint8_t, float> {
  static constexpr bool kOk = true;
  static inline v128_t load(const uint8_t* p) {
    const v128_t b = wasm_v128_load32_zero(p);
    return wasm_f32x4_convert_u32x4(wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(b)));
  }
  // The 4 lanes rounded half to even and saturated, in the first 4 bytes of the result.
  static inline v128_t bytes(v128_t v) {
    const v128_t i = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(v));
    const v128_t h = wasm_i16x8_narrow_i32x4(i, i);
    return wasm_u8x16_narrow_i16x8(h, h);
  }
  static inline void store(uint8_t* p, v128_t v) { wasm_v128_store32_lane(p, bytes(v), 0); }
};

#if OSW_HAVE_SIMD
// Each of a table of weights in all 4 lanes (the pairs' pair_w, the triples' tri_w), splat
// once before a kernel's loop.
template <int P, int K>
inline void splat_each(const float (&w)[P][K], v128_t (&v)[P][K]) {
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < K; ++k) v[p][k] = wasm_f32x4_splat(w[p][k]);
}

// One pixel of C = 3 or 4 floats, nothing past it read (C = 3: a 64-bit and a 32-bit lane).
template <int C>
inline v128_t channels_load(const float* p) {
  if constexpr (C == 4)
    return wasm_v128_load(p);
  else
    return wasm_v128_load32_lane(p + 2, wasm_v128_load64_zero(p), 2);
}

// One output of resize_pass_channels: C floats, or for uint8 3 bytes rounded and saturated.
template <int C, typename Tout>
inline void channels_store(Tout* yo, v128_t acc) {
  if constexpr (std::is_same<Tout, uint8_t>::value) {
    const v128_t b = Lanes<uint8_t, float>::bytes(acc);
    wasm_v128_store16_lane(yo, b, 0);
    wasm_v128_store8_lane(yo + 2, b, 2);
  } else if constexpr (C == 4) {
    wasm_v128_store(yo, acc);
  } else {
    wasm_v128_store64_lane(yo, acc, 0);
    wasm_v128_store32_lane(yo + 2, acc, 2);
  }
}

// The outputs of resize_pass_channels from o on whose taps are consecutive (the plan's
// consecutive count n: n >= 2 pixels from index[o * K] on), C = 3 or 4 floats a pixel, in a
// loop of their own: one index load per output, and 16-byte loads for every tap but the
// last (for C = 3 the 4th lane is the next pixel's first element, inside the row as the
// last tap's pixel is; it is never stored). The same sums as the general loop. Returns the
// first output not done. A loop of its own because a branch for these outputs inside the
// general loop is slower. Wide antialias windows take it too (the plan flags runs up to 255
// taps); the general loop with 16-byte loads for C = 3 (a branch on the row's last pixel) is
// slower than this one (docs/performance.md, "Resize kernels").
template <int C>
int64_t channels_runs(const float* xp, float* yp, const AxisPlan& plan, const float* weights,
                      int64_t o, int64_t o_end) {
  const int K = plan.taps;
  const int32_t* index = plan.index.data();
  const uint8_t* cons = plan.consecutive.data();
  for (int n; o < o_end && (n = cons[o]) != 0; ++o) {
    const float* s = xp + int64_t(index[o * K]) * C;
    const float* w = weights + o * K;
    v128_t acc = wasm_f32x4_mul(wasm_f32x4_splat(w[0]), wasm_v128_load(s));
    int k = 1;
    for (; k < n - 1; ++k)
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_f32x4_splat(w[k]), wasm_v128_load(s + k * C)));
    const v128_t xl = channels_load<C>(s + k * C);
    channels_store<C>(yp + o * C, wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_f32x4_splat(w[k]), xl)));
  }
  return o;
}

// Outputs 8q .. 8q + 7 of a pair of blocks in the two-phase form of 2x upsampling
// (AxisPlan::blk_pair), C = 3 or 4 floats a pixel: even outputs 8q + 2j (j < 4) sum taps
// s + j + k with the weights pw[0][k], odd ones s + dt + j + k with pw[1][k] (pair_w, splat
// once by the caller), no index or weight loads. The same products and order of sums as
// the general loop (pair_w equals each output's own weights bit for bit). Loads and stores
// of 16 bytes but the last tap's load and the last output's store (C = 3: their 4th lane is
// the next pixel's first element, inside the row for every other tap; an output's 4th lane
// is overwritten by the next output).
// one: the even outputs have one tap (AxisPlan::pair_k0), their pixel times pw[0][0] (a
// 16-byte load: for C = 3 its 4th lane is the next pixel's, inside the row, as the odd
// outputs' taps reach past it; that lane of the output is overwritten as above).
template <int C, int K>
inline void channels_pair8(const float* s, int64_t dt, const v128_t (*pw)[4], float* y, bool one) {
  auto output = [&](const float* t, const v128_t* w) __attribute__((always_inline)) {
    v128_t acc = wasm_f32x4_mul(w[0], wasm_v128_load(t));
    for (int k = 1; k < K - 1; ++k)
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(w[k], wasm_v128_load(t + k * C)));
    return wasm_f32x4_add(acc, wasm_f32x4_mul(w[K - 1], channels_load<C>(t + (K - 1) * C)));
  };
#pragma clang loop unroll(disable)
  for (int j = 0; j < 4; ++j) {
    wasm_v128_store(y + 2 * j * C, one ? wasm_f32x4_mul(pw[0][0], wasm_v128_load(s + j * C))
                                       : output(s + j * C, pw[0]));
    const v128_t odd = output(s + (dt + j) * C, pw[1]);
    if (C == 4 || j < 3)
      wasm_v128_store(y + (2 * j + 1) * C, odd);
    else
      channels_store<C>(y + 7 * C, odd);
  }
}

// float rows of C = 3 or 4 interleaved channels (channels-last RGB or RGBA: inner == C), one
// output's C elements in the lanes of one vector; for C = 3, 3-element loads and stores (a
// 64-bit and a 32-bit lane), so nothing past a row is touched. Per lane the scalar loop's
// sum, in its order. Runs of consecutive outputs take channels_runs, in 1.5x linear
// upsampling the three-phase triples (below), and in 2x upsampling
// (linear K = 2, cubic K = 4) the pairs of blocks in the two-phase form channels_pair8
// (each a fifth to a quarter off an NHWC float upsampling, for a little code).
// Tout uint8 (C = 3 only: RGB rows written by a float pass, as a streamed pair's second
// pass writes them): rounded and saturated by Lanes<uint8_t, float>::bytes, 3 bytes
// stored.
template <int C, typename Tout>
inline void resize_pass_channels(const float* x, Tout* y, int64_t outer, const AxisPlan& plan,
                                 const float* weights, int64_t o_begin, int64_t o_end) {
  const int64_t in = plan.in, out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  const bool runs = plan.consecutive.size() > 0;  // (2 <= K <= 255; float output only)
  const bool pairs = std::is_same<Tout, float>::value && plan.pairs > 0 && (K == 2 || K == 4) &&
                     weights == plan.weight_f.data();
  const bool one = plan.pair_k0 == 1;
  v128_t pw[2][4];
  splat_each(plan.pair_w, pw);
  // 1.5x linear: the three-phase triples (AxisPlan::blk_tri), 12 outputs with the phases'
  // weights held in registers, no index or weight loads. Their planned bound (the last
  // phase's 8 inputs from s + tri_t[2] + 1 inside the input) keeps every 16-byte load of a
  // pixel inside the row; a triple is taken where an output of the range follows it (C = 3:
  // the last 16-byte store's 4th lane is that output's, which it then overwrites).
  const bool tris = std::is_same<Tout, float>::value && plan.tris > 0 && K == 2 &&
                    weights == plan.weight_f.data();
  v128_t tw[3][2];
  splat_each(plan.tri_w, tw);
  const auto load = channels_load<C>;
  for (int64_t p = 0; p < outer; ++p) {
    const float* xp = x + p * in * C;
    Tout* yp = y + p * out * C;
    for (int64_t o = o_begin; o < o_end; ++o) {
      if constexpr (std::is_same<Tout, float>::value) {
        if (pairs && (o & 7) == 0 && o + 8 <= o_end && (plan.blk_pair[o >> 3] & 1)) {
          const float* s = xp + int64_t(index[o * K]) * C;
          if (K == 2)
            channels_pair8<C, 2>(s, plan.pair_dt, pw, yp + o * C, one);
          else
            channels_pair8<C, 4>(s, plan.pair_dt, pw, yp + o * C, one);
          o += 7;
          continue;
        }
        if (tris && o % 12 == 0 && o + 12 < o_end && plan.blk_tri[o / 12]) {
          const float* s = xp + int64_t(index[o * K]) * C;
          float* yt = yp + o * C;
#pragma clang loop unroll(disable)
          for (int j = 0; j < 4; ++j) {
            for (int h = 0; h < 3; ++h) {  // output o + 3j + h, phase h
              const float* t = s + (plan.tri_t[h] + 2 * j) * C;
              const v128_t v = wasm_f32x4_add(wasm_f32x4_mul(tw[h][0], wasm_v128_load(t)),
                                              wasm_f32x4_mul(tw[h][1], wasm_v128_load(t + C)));
              wasm_v128_store(yt + (3 * j + h) * C, v);
            }
          }
          o += 11;
          continue;
        }
        // (an output that is no run goes straight to the loop below: trying channels_runs
        // on each such output, as where taps of weight 0 break every window (cubic
        // antialias at 3x), would add a large share to that loop's time)
        if (runs && plan.consecutive[o] != 0) {
          // (up to the next pair or triple, where there are any)
          const int64_t stop = pairs  ? std::min(o_end, (o | 7) + 1)
                               : tris ? std::min(o_end, o - o % 12 + 12)
                                      : o_end;
          o = channels_runs<C>(xp, yp, plan, weights, o, stop);
          if (o == o_end) break;
          if (o == stop) {
            --o;
            continue;
          }
        }
      }
      const int32_t* idx = index + o * K;
      const float* w = weights + o * K;
      const int n = count[o];
      v128_t acc = wasm_f32x4_splat(0.0f);
      if (n > 0) acc = wasm_f32x4_mul(wasm_f32x4_splat(w[0]), load(xp + idx[0] * C));
      for (int k = 1; k < n; ++k)
        acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_f32x4_splat(w[k]), load(xp + idx[k] * C)));
      channels_store<C>(yp + o * C, acc);
    }
  }
}
#endif

// Same result as resize_pass_scalar<Tin, Tout, F> (same order of operations per element).
// Rows (inner > 1) are blended kLanes at a time; the last partial vector and the innermost
// axis (inner == 1) run the scalar loop, so nothing is read or written past an end.
template <typename Tin, typename Tout, typename F>
void resize_pass_simd(const Tin* x, Tout* y, int64_t outer, int64_t inner, const AxisPlan& plan,
                      const F* weights, int64_t o_begin = 0, int64_t o_end = -1) {
  using VF = Vec<F>;
  using LI = Lanes<Tin, F>;
  using LO = Lanes<Tout, F>;
  constexpr int L = VF::kLanes;
  if constexpr (std::is_same<Tin, float>::value && std::is_same<Tout, float>::value &&
                std::is_same<F, float>::value) {
    if (inner == 3 || inner == 4) {
      const int64_t oe = o_end < 0 ? plan.out : o_end;
      if (inner == 3)
        resize_pass_channels<3>(x, y, outer, plan, weights, o_begin, oe);
      else
        resize_pass_channels<4>(x, y, outer, plan, weights, o_begin, oe);
      return;
    }
  }
  if constexpr (std::is_same<Tin, float>::value && std::is_same<Tout, uint8_t>::value &&
                std::is_same<F, float>::value) {
    if (inner == 3) {
      resize_pass_channels<3>(x, y, outer, plan, weights, o_begin, o_end < 0 ? plan.out : o_end);
      return;
    }
  }
  if (inner < L) {
    resize_pass_scalar<Tin, Tout, F>(x, y, outer, inner, plan, weights, o_begin, o_end);
    return;
  }
  const int64_t in = plan.in, out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  const int64_t vec_end = inner - inner % L;
  if (o_end < 0) o_end = out;
  for (int64_t p = 0; p < outer; ++p) {
    const Tin* xp = x + p * in * inner;
    Tout* yp = y + p * out * inner;
    for (int64_t o = o_begin; o < o_end; ++o) {
      const int32_t* idx = index + o * K;
      const F* w = weights + o * K;
      const int n = count[o];
      Tout* yo = yp + o * inner;
      if (n == 0) {
        std::memset(static_cast<void*>(yo), 0, sizeof(Tout) * inner);
        continue;
      }
      const Tin* r0 = xp + idx[0] * inner;
      const typename VF::V w0 = VF::splat(w[0]);
      if (n == 1) {
        for (int64_t j = 0; j < vec_end; j += L) LO::store(yo + j, VF::mul(w0, LI::load(r0 + j)));
      } else if (n == 2) {
        // Two taps (linear): the common case, kept free of the generic tap loop.
        const Tin* r1 = xp + idx[1] * inner;
        const typename VF::V w1 = VF::splat(w[1]);
        for (int64_t j = 0; j < vec_end; j += L) {
          typename VF::V acc = VF::mul(w0, LI::load(r0 + j));
          LO::store(yo + j, VF::madd(acc, w1, LI::load(r1 + j)));
        }
      } else {
        int64_t j = 0;
        // Four vectors per step (each tap's weight and row fetched once), then one.
        for (; j + 4 * L <= vec_end; j += 4 * L) {
          typename VF::V a0 = VF::mul(w0, LI::load(r0 + j)), a1 = VF::mul(w0, LI::load(r0 + j + L));
          typename VF::V a2 = VF::mul(w0, LI::load(r0 + j + 2 * L)),
                         a3 = VF::mul(w0, LI::load(r0 + j + 3 * L));
          for (int k = 1; k < n; ++k) {
            const typename VF::V wk = VF::splat(w[k]);
            const Tin* rk = xp + idx[k] * inner + j;
            a0 = VF::madd(a0, wk, LI::load(rk));
            a1 = VF::madd(a1, wk, LI::load(rk + L));
            a2 = VF::madd(a2, wk, LI::load(rk + 2 * L));
            a3 = VF::madd(a3, wk, LI::load(rk + 3 * L));
          }
          LO::store(yo + j, a0);
          LO::store(yo + j + L, a1);
          LO::store(yo + j + 2 * L, a2);
          LO::store(yo + j + 3 * L, a3);
        }
        for (; j < vec_end; j += L) {
          typename VF::V acc = VF::mul(w0, LI::load(r0 + j));
          for (int k = 1; k < n; ++k)
            acc = VF::madd(acc, VF::splat(w[k]), LI::load(xp + idx[k] * inner + j));
          LO::store(yo + j, acc);
        }
      }
      for (int64_t j = vec_end; j < inner; ++j) {
        F acc = w[0] * widen<F>(xp[idx[0] * inner + j]);
        for (int k = 1; k < n; ++k) acc += w[k] * widen<F>(xp[idx[k] * inner + j]);
        yo[j] = narrow<Tout>(acc);
      }
    }
  }
}

// The innermost axis (inner == 1) in float, for plans with the SIMD block form. Per block
// of 4 outputs: load the 8 inputs from the block's base, and for each tap k build the
// vector of the 4 outputs' k-th inputs with two byte shuffles (lanes from the first 8
// bytes' vector, then from the second's; a shuffle index past 15 yields 0, so OR merges
// them). Zero-weight taps are masked out and the sum starts from -0.0, the additive
// identity, so each output equals the scalar loop's bit for bit, NaN locality and -0.0
// included. Dense blocks (every output uses all K taps, starting within 4 inputs of the
// base: upsampling and mild downsampling away from the edges) take a shorter path: tap k
// of the 4 lanes is one 4-input load at base + k shuffled by the tap-0 mask, and the sum
// starts from tap 0's product, as the scalar loop does. Blocks without the form, and the
// last out % 4 outputs, run the scalar loop. KC is K when known at compile time, else 0.
template <int KC>
inline void resize_pass_inner_simd_k(const float* x, float* y, int64_t outer,
                                     const AxisPlan& plan) {
  const int64_t in = plan.in, out = plan.out;
  const int K = KC > 0 ? KC : plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  const float* weights = plan.weight_f.data();
  const v128_t four = wasm_i8x16_splat(4), sixteen = wasm_i8x16_splat(16);
  const v128_t neg_zero = wasm_f32x4_splat(-0.0f);
  auto scalar_output = [&](const float* xp, float* yp, int64_t o) {
    const int n = count[o];
    const int32_t* idx = index + o * K;
    const float* w = weights + o * K;
    float acc = n > 0 ? w[0] * xp[idx[0]] : 0.0f;
    for (int k = 1; k < n; ++k) acc += w[k] * xp[idx[k]];
    yp[o] = acc;
  };
  // The two-phase pairs (2x upsampling; K = 2 and 4 only, KC known): both phases'
  // weights, splat once.
  v128_t pw[2][4];
  splat_each(plan.pair_w, pw);
  const uint8_t* pair = KC > 0 && plan.pairs > 0 ? plan.blk_pair.data() : nullptr;
  // The three-phase triples (1.5x upsampling, linear: KC = 2; AxisPlan::blk_tri), a run of
  // them in one loop with the phases' weights splat once (a float store may alias
  // plan.tri_w, so inside the general loop the weights are loaded again for every triple).
  const uint8_t* tri = KC == 2 && plan.tris > 0 ? plan.blk_tri.data() : nullptr;
  v128_t tw[3][2];
  splat_each(plan.tri_w, tw);
  for (int64_t p = 0; p < outer; ++p) {
    const float* xp = x + p * in;
    float* yp = y + p * out;
    for (int64_t b = 0; b < plan.blocks; ++b) {
      if (KC > 0 && pair && (b & 1) == 0) {
        // A run of pairs in one tight loop (checked first: blocks in the 2x form are the
        // common case of the plans that have any; V8 compiles the per-block tests of the
        // loop below into 2x upsampling's critical path otherwise).
        while (b + 1 < plan.blocks && (pair[b / 2] & 1)) {
          // Outputs 4b .. 4b + 7: even ones e[j] = sum_k w0[k] x[s + j + k] (k < pair_k0),
          // odd ones from s + dt; the same products and order of sums as the scalar loop.
          const float* xe = xp + index[4 * b * K];
          const float* xo = xe + plan.pair_dt;
          v128_t e = wasm_f32x4_mul(pw[0][0], wasm_v128_load(xe));
          v128_t o = wasm_f32x4_mul(pw[1][0], wasm_v128_load(xo));
          for (int k = 1; k < K; ++k) {
            if (k < plan.pair_k0)
              e = wasm_f32x4_add(e, wasm_f32x4_mul(pw[0][k], wasm_v128_load(xe + k)));
            o = wasm_f32x4_add(o, wasm_f32x4_mul(pw[1][k], wasm_v128_load(xo + k)));
          }
          wasm_v128_store(yp + 4 * b, wasm_i32x4_shuffle(e, o, 0, 4, 1, 5));
          wasm_v128_store(yp + 4 * b + 4, wasm_i32x4_shuffle(e, o, 2, 6, 3, 7));
          b += 2;
        }
        if (b >= plan.blocks) break;
      }
      if (KC == 2 && tri && static_cast<int32_t>(b) % 3 == 0) {
        while (b + 2 < plan.blocks && tri[b / 3]) {
          // Outputs 4b .. 4b + 11: phase h's j-th, 4b + h + 3j, sums tap k of the inputs s +
          // tri_t[h] + 2j + k (every second input: two loads, one shuffle) in the scalar
          // loop's order; then the phases are interleaved into the three vectors of outputs.
          const float* xs = xp + index[4 * b * K];
          v128_t ph[3];
          for (int h = 0; h < 3; ++h) {
            const float* xt = xs + plan.tri_t[h];
            const auto every2 = [](const float* q) {
              return wasm_i32x4_shuffle(wasm_v128_load(q), wasm_v128_load(q + 4), 0, 2, 4, 6);
            };
            ph[h] = wasm_f32x4_add(wasm_f32x4_mul(tw[h][0], every2(xt)),
                                   wasm_f32x4_mul(tw[h][1], every2(xt + 1)));
          }
          // [p0 p1 p2 p0'], [p1' p2' p0'' p1''], [p2'' p0''' p1''' p2''']
          const v128_t a = wasm_i32x4_shuffle(ph[0], ph[1], 0, 4, 1, 1);
          const v128_t c = wasm_i32x4_shuffle(ph[1], ph[2], 1, 5, 2, 2);
          const v128_t e = wasm_i32x4_shuffle(ph[0], ph[1], 3, 7, 3, 3);
          wasm_v128_store(yp + 4 * b, wasm_i32x4_shuffle(a, ph[2], 0, 1, 4, 2));
          wasm_v128_store(yp + 4 * b + 4, wasm_i32x4_shuffle(c, ph[0], 0, 1, 6, 2));
          wasm_v128_store(yp + 4 * b + 8, wasm_i32x4_shuffle(ph[2], e, 2, 4, 5, 3));
          b += 3;
        }
        if (b >= plan.blocks) break;
      }
      const int32_t base = plan.blk_base[b];
      if (base < 0) {
        for (int64_t o = 4 * b; o < 4 * b + 4; ++o) scalar_output(xp, yp, o);
        continue;
      }
      const float* xb = xp + base;
      v128_t m = wasm_v128_load(plan.blk_mask.data() + b * 16);
      const float* w = plan.blk_w.data() + b * K * 4;
      if (plan.blk_dense[b]) {
        v128_t acc = wasm_f32x4_mul(wasm_v128_load(w), wasm_i8x16_swizzle(wasm_v128_load(xb), m));
        for (int k = 1; k < K; ++k)
          acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_v128_load(w + 4 * k),
                                                   wasm_i8x16_swizzle(wasm_v128_load(xb + k), m)));
        wasm_v128_store(yp + 4 * b, acc);
        continue;
      }
      const v128_t lo = wasm_v128_load(xb), hi = wasm_v128_load(xb + 4);
      const uint32_t* nz = plan.blk_nz.data() + b * K * 4;
      v128_t acc = neg_zero;
      for (int k = 0; k < K; ++k) {
        const v128_t v = wasm_v128_or(wasm_i8x16_swizzle(lo, m),
                                      wasm_i8x16_swizzle(hi, wasm_i8x16_sub(m, sixteen)));
        const v128_t prod = wasm_f32x4_mul(wasm_v128_load(w + 4 * k), v);
        acc = wasm_f32x4_add(acc, wasm_v128_bitselect(prod, neg_zero, wasm_v128_load(nz + 4 * k)));
        m = wasm_i8x16_add(m, four);
      }
      wasm_v128_store(yp + 4 * b, acc);
    }
    for (int64_t o = 4 * plan.blocks; o < out; ++o) scalar_output(xp, yp, o);
  }
}

inline void resize_pass_inner_simd(const float* x, float* y, int64_t outer, const AxisPlan& plan) {
  switch (plan.taps) {
    case 2: resize_pass_inner_simd_k<2>(x, y, outer, plan); break;
    case 4: resize_pass_inner_simd_k<4>(x, y, outer, plan); break;
    default: resize_pass_inner_simd_k<0>(x, y, outer, plan); break;
  }
}

// 4x4 transpose: rows a, b, c, d in, columns out (a[j], b[j], c[j], d[j]) in r[j].
inline void transpose4(v128_t a, v128_t b, v128_t c, v128_t d, v128_t r[4]) {
  const v128_t t0 = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
  r[0] = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  r[1] = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  r[2] = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  r[3] = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

// sum_k w[k] * s[4 k] over 4 lanes, k = 0 .. R - 1 in order (tap 0's product first): the
// taps of an output whose R inputs are consecutive, read from a transposed strip.
template <int R>
inline v128_t dot_consecutive(const float* s, const float* w) {
  v128_t acc = wasm_f32x4_mul(wasm_v128_load32_splat(w), wasm_v128_load(s));
#pragma clang loop unroll(full)
  for (int k = 1; k < R; ++k)
    acc = wasm_f32x4_add(acc,
                         wasm_f32x4_mul(wasm_v128_load32_splat(w + k), wasm_v128_load(s + 4 * k)));
  return acc;
}

// Whether every output of the axis is the mean of two neighbours, 0.5 * x[2o] + 0.5 *
// x[2o + 1]: linear (or any mode's) exact 2x downscaling with half_pixel coordinates.
__attribute__((noinline)) inline bool halves_2x(const AxisPlan& ap) {
  if (ap.in != 2 * ap.out || ap.taps < 2 || ap.weight_f.size() < ap.out * ap.taps) return false;
  const int K = ap.taps;
  for (int64_t o = 0; o < ap.out; ++o) {
    const int32_t* idx = ap.index.data() + o * K;
    const float* w = ap.weight_f.data() + o * K;
    if (ap.count[o] != 2 || idx[0] != 2 * o || idx[1] != 2 * o + 1 || w[0] != 0.5f || w[1] != 0.5f)
      return false;
  }
  return true;
}

// One output row of a 2x2 downscale (both axes halves_2x), outer axis first as the streamed
// pair computes it: t = 0.5 * r0 + 0.5 * r1 per column, then y[j] = 0.5 * t[2j] + 0.5 *
// t[2j + 1]; the same operations in the same order as blend_rows_into followed by the
// inner pass, so the same bytes, in one pass over the two rows (the pair's general form
// writes t into a row group first, twice the memory traffic when X is out of cache).
__attribute__((noinline)) inline void down2x2_row(const float* r0, const float* r1, float* y,
                                                  int64_t out) {
  int64_t j = 0;
  const v128_t h = wasm_f32x4_splat(0.5f);
  for (; j + 4 <= out; j += 4) {
    const v128_t t0 = wasm_f32x4_add(wasm_f32x4_mul(h, wasm_v128_load(r0 + 2 * j)),
                                     wasm_f32x4_mul(h, wasm_v128_load(r1 + 2 * j)));
    const v128_t t1 = wasm_f32x4_add(wasm_f32x4_mul(h, wasm_v128_load(r0 + 2 * j + 4)),
                                     wasm_f32x4_mul(h, wasm_v128_load(r1 + 2 * j + 4)));
    const v128_t even = wasm_i32x4_shuffle(t0, t1, 0, 2, 4, 6);
    const v128_t odd = wasm_i32x4_shuffle(t0, t1, 1, 3, 5, 7);
    wasm_v128_store(y + j, wasm_f32x4_add(wasm_f32x4_mul(h, even), wasm_f32x4_mul(h, odd)));
  }
  for (; j < out; ++j) {
    const float e = 0.5f * r0[2 * j] + 0.5f * r1[2 * j];
    const float o = 0.5f * r0[2 * j + 1] + 0.5f * r1[2 * j + 1];
    y[j] = 0.5f * e + 0.5f * o;
  }
}

// Rows of C = 3 or 4 interleaved channels (channels-last RGB or RGBA, h's neighbours C
// elements apart), as the streamed pair computes them: with h first (StreamLast) each row's
// pixel pairs blended (0.5 a + 0.5 b), then the two rows (0.5 t0 + 0.5 t1); with v first
// (StreamGroup) the rows blended first, then the pixel pairs. One pixel per vector. With
// C = 3 a vector's fourth lane is the next pixel's first channel, stored before that
// pixel's own store overwrites it, and the row's last pixel is computed one element early
// (its loads end at the rows' ends: out >= 2) and stored as its 3 lanes (not past the row,
// which may be another thread's).
__attribute__((noinline)) inline void down2x2_row_cx(const float* r0, const float* r1, float* y,
                                                     int64_t out, int C, bool inner_first) {
  // The two sums of the first blend: (r0, s1) and (s2, s3); pixel 2j at offset 0, 2j + 1 at C.
  const float* s1 = inner_first ? r0 + C : r1;
  const float* s2 = inner_first ? r1 : r0 + C;
  const float* s3 = r1 + C;
  const v128_t h = wasm_f32x4_splat(0.5f);
  auto pixel = [&](int64_t i) __attribute__((always_inline)) {
    const v128_t t0 = wasm_f32x4_add(wasm_f32x4_mul(h, wasm_v128_load(r0 + i)),
                                     wasm_f32x4_mul(h, wasm_v128_load(s1 + i)));
    const v128_t t1 = wasm_f32x4_add(wasm_f32x4_mul(h, wasm_v128_load(s2 + i)),
                                     wasm_f32x4_mul(h, wasm_v128_load(s3 + i)));
    return wasm_f32x4_add(wasm_f32x4_mul(h, t0), wasm_f32x4_mul(h, t1));
  };
  const int64_t n = C == 4 ? out : out - 1;
  int64_t i = 0;
#pragma clang loop unroll(disable)
  for (float* const e = y + C * n; y < e; y += C, i += 2 * C) wasm_v128_store(y, pixel(i));
  if (C == 3) {
    const v128_t v = pixel(i - 1);
    wasm_v128_store64_lane(y, wasm_i32x4_shuffle(v, v, 1, 2, 3, 3), 0);
    wasm_v128_store32_lane(y + 2, v, 3);
  }
}

// The streamed pair's units [begin, end) (output rows of v) of an exact 2x downscale of both
// axes, when the pair has the shape of one of the kernels above: h innermost with v first
// (down2x2_row), or h before 3 or 4 channels in either order (down2x2_row_cx), outer_h 1
// and block_in = 2 * block_out elements per row. Returns false, having done nothing,
// otherwise.
inline bool down2x2_rows(const AxisPlan& pv, const AxisPlan& ph, bool inner_first, int64_t inner_h,
                         int64_t outer_h, const float* src, float* y, int64_t begin, int64_t end,
                         int64_t block_in, int64_t block_out) {
  const bool cx = (inner_h == 3 && ph.out >= 2) || inner_h == 4;
  if (!(cx || (inner_h == 1 && !inner_first)) || outer_h != 1 || !halves_2x(pv) || !halves_2x(ph))
    return false;
  for (int64_t u = begin; u < end; ++u) {
    const int64_t p = u / pv.out, o = u - p * pv.out;
    const float* sp = src + (p * pv.in + 2 * o) * block_in;
    float* yo = y + (p * pv.out + o) * block_out;
    if (cx)
      down2x2_row_cx(sp, sp + block_in, yo, ph.out, int(inner_h), inner_first);
    else
      down2x2_row(sp, sp + block_in, yo, ph.out);
  }
  return true;
}

// Outputs [o_begin, o_end) of 4 rows from their transposed strip t, into rows y0,
// y0 + out, ... (o_begin a multiple of 4). R > 0: every 4 outputs whose plan.consecutive
// counts are all R take dot_consecutive<R> (R == K, no index loads, unrolled); the
// others, and all of them when R == 0, the loop over their taps.
template <int R>
void rows4_outputs(const float* t, const AxisPlan& plan, const uint8_t* regular, float* y0,
                   int64_t o_begin, int64_t o_end) {
  const int64_t out = plan.out;
  const int K = plan.taps;
  const int32_t* count = plan.count.data();
  const int32_t* index = plan.index.data();
  const float* weights = plan.weight_f.data();
  float *y1 = y0 + out, *y2 = y1 + out, *y3 = y2 + out;
  auto output = [&](int64_t o) {
    const int n = count[o];
    const int32_t* idx = index + o * K;
    const float* w = weights + o * K;
    if (n == 0) return wasm_f32x4_splat(0.0f);
    v128_t acc = wasm_f32x4_mul(wasm_v128_load32_splat(w), wasm_v128_load(t + 4 * idx[0]));
    for (int k = 1; k < n; ++k)
      acc = wasm_f32x4_add(
          acc, wasm_f32x4_mul(wasm_v128_load32_splat(w + k), wasm_v128_load(t + 4 * idx[k])));
    return acc;
  };
  int64_t o = o_begin;
  for (; o + 4 <= o_end; o += 4) {
    v128_t row[4];
    bool done = false;
    if constexpr (R > 0) {
      uint32_t four;
      std::memcpy(&four, regular + o, 4);
      if (four == uint32_t(R) * 0x01010101u) {
        transpose4(dot_consecutive<R>(t + 4 * index[o * R], weights + o * R),
                   dot_consecutive<R>(t + 4 * index[(o + 1) * R], weights + (o + 1) * R),
                   dot_consecutive<R>(t + 4 * index[(o + 2) * R], weights + (o + 2) * R),
                   dot_consecutive<R>(t + 4 * index[(o + 3) * R], weights + (o + 3) * R), row);
        done = true;
      }
    }
    if (!done) transpose4(output(o), output(o + 1), output(o + 2), output(o + 3), row);
    wasm_v128_store(y0 + o, row[0]);
    wasm_v128_store(y1 + o, row[1]);
    wasm_v128_store(y2 + o, row[2]);
    wasm_v128_store(y3 + o, row[3]);
  }
  for (; o < o_end; ++o) {
    const v128_t v = output(o);
    y0[o] = wasm_f32x4_extract_lane(v, 0);
    y1[o] = wasm_f32x4_extract_lane(v, 1);
    y2[o] = wasm_f32x4_extract_lane(v, 2);
    y3[o] = wasm_f32x4_extract_lane(v, 3);
  }
}

// The pieces of resize_pass_inner_rows4, also used on their own by a streamed pair
// (stream_outer_then_inner): the strip, in the caller's buffer (nullptr when it cannot be
// allocated), the transpose of
// 4 rows into it, and outputs [o_begin, o_end) of the 4 rows (o_begin a multiple of 4).
inline float* rows4_strip(const AxisPlan& plan, Buffer<float>* strip, int64_t max_bytes) {
  if (strip->size() < plan.in * 4 && !strip->allocate(plan.in * 4, max_bytes)) return nullptr;
  return strip->data();
}
inline void rows4_transpose(const float* r0, int64_t in, float* t) {
  const float *r1 = r0 + in, *r2 = r1 + in, *r3 = r2 + in;
  int64_t c = 0;
  for (; c + 4 <= in; c += 4) {
    v128_t col[4];
    transpose4(wasm_v128_load(r0 + c), wasm_v128_load(r1 + c), wasm_v128_load(r2 + c),
               wasm_v128_load(r3 + c), col);
    for (int j = 0; j < 4; ++j) wasm_v128_store(t + 4 * (c + j), col[j]);
  }
  for (; c < in; ++c) wasm_v128_store(t + 4 * c, wasm_f32x4_make(r0[c], r1[c], r2[c], r3[c]));
}
__attribute__((noinline)) inline void rows4_part(const float* t, const AxisPlan& plan, float* y0,
                                                 int64_t o_begin, int64_t o_end) {
  // plan.consecutive: the outputs that take the unrolled form (K <= 8). A plan's K is
  // 1 (nearest) or even (2 or 4, or 2 - 2 * floor(1 - support / scale) with antialias), so
  // odd K has no unrolled copy.
  const uint8_t* regular = plan.consecutive.size() >= plan.out ? plan.consecutive.data() : nullptr;
  switch (regular ? plan.taps : 0) {
    case 2: rows4_outputs<2>(t, plan, regular, y0, o_begin, o_end); break;
    case 4: rows4_outputs<4>(t, plan, regular, y0, o_begin, o_end); break;
    case 6: rows4_outputs<6>(t, plan, regular, y0, o_begin, o_end); break;
    case 8: rows4_outputs<8>(t, plan, regular, y0, o_begin, o_end); break;
    default: rows4_outputs<0>(t, plan, regular, y0, o_begin, o_end); break;
  }
}

// The innermost axis (inner == 1) in float, 4 rows at a time: the 4 rows are transposed
// into a strip of in vectors (lane j = row j), so that every tap of every output is one
// vector load whatever the plan's indices (clamped edges, wide antialias windows,
// downsampling), and the weight is the same in all lanes. Each lane computes exactly the
// scalar loop's sum (same taps, same order, starting from tap 0's product), so the result
// equals it bit for bit. Outputs whose K taps are consecutive inputs (K = 2, 4, 6, 8) skip the
// index loads (rows4_outputs). The outputs are transposed back 4 at a time. The last
// outer % 4 rows run the scalar loop. Returns false (nothing written) when the strip
// cannot be allocated; the caller then runs another kernel.
inline bool resize_pass_inner_rows4(const float* x, float* y, int64_t outer, const AxisPlan& plan,
                                    Buffer<float>* strip, int64_t max_bytes) {
  const int64_t in = plan.in, out = plan.out;
  float* t = rows4_strip(plan, strip, max_bytes);
  if (!t) return false;
  int64_t p = 0;
  for (; p + 4 <= outer; p += 4) {
    rows4_transpose(x + p * in, in, t);
    rows4_part(t, plan, y + p * out, 0, out);
  }
  if (p < outer)
    resize_pass_scalar<float, float, float>(x + p * in, y + p * out, outer - p, 1, plan,
                                            plan.weight_f.data());
  return true;
}

// The innermost axis (inner == 1) in double (float64 X, and the integer types that compute
// in double) in 2x upsampling: the pairs of blocks in the two-phase form (AxisPlan::blk_pair
// bit 2, weights pair_wd; the even phase's taps up to pair_k0) two outputs of a phase per
// f64x2 vector, tap k of both one 16-byte load (their windows are neighbours), the phases
// interleaved by two shuffles; every other output the scalar loop. Each lane is the scalar loop's
// sum in its order (from tap 0's product; pair_wd equals each output's own weights bit for bit), so
// the bytes are the scalar loop's. (The scalar inner pass is most of a float64 NCHW 2x
// upsampling; this halves it or better. K is a run-time value: a copy per K is larger and
// only slightly faster.)
inline void resize_pass_inner_pairs_f64(const double* x, double* y, int64_t outer,
                                        const AxisPlan& plan, const double* weights,
                                        int64_t o_begin, int64_t o_end) {
  const int K = plan.taps;
  v128_t pw[2][4];
  for (int ph = 0; ph < 2; ++ph)
    for (int k = 0; k < K; ++k) pw[ph][k] = wasm_f64x2_splat(plan.pair_wd[ph][k]);
  const int64_t dt = plan.pair_dt;
  for (int64_t p = 0; p < outer; ++p) {
    const double* xp = x + p * plan.in;
    double* yp = y + p * plan.out;
    for (int64_t o = o_begin; o < o_end;) {
      if ((o & 7) == 0 && o + 8 <= o_end && (plan.blk_pair[o >> 3] & 2)) {
        const double* s = xp + plan.index[o * K];
        for (int j = 0; j < 4; j += 2) {
          v128_t e = wasm_f64x2_mul(pw[0][0], wasm_v128_load(s + j));
          v128_t d = wasm_f64x2_mul(pw[1][0], wasm_v128_load(s + dt + j));
          for (int k = 1; k < K; ++k) {
            if (k < plan.pair_k0)
              e = wasm_f64x2_add(e, wasm_f64x2_mul(pw[0][k], wasm_v128_load(s + j + k)));
            d = wasm_f64x2_add(d, wasm_f64x2_mul(pw[1][k], wasm_v128_load(s + dt + j + k)));
          }
          wasm_v128_store(yp + o + 2 * j, wasm_i64x2_shuffle(e, d, 0, 2));
          wasm_v128_store(yp + o + 2 * j + 2, wasm_i64x2_shuffle(e, d, 1, 3));
        }
        o += 8;
        continue;
      }
      const int64_t stop = std::min(o_end, (o | 7) + 1);
      resize_pass_scalar<double, double, double>(xp, yp, 1, 1, plan, weights, o, stop);
      o = stop;
    }
  }
}
#endif  // OSW_HAVE_SIMD

// Rows of Tin (the compute type F, or X's own type) blended into a row of T:
// out[j] = sum_k w[k] * rows[k][j] for j < len (the outer pass of a streamed pair, see
// stream_last_two and stream_outer_then_inner). n == 0 writes zeros (outside the crop box:
// filled later). Every element is computed as the scalar loop does (tap 0's product, then
// the others in order); uint8 output stores 16 lanes at a time.
template <typename T, typename F, typename Tin>
void blend_rows_into(const Tin* const* rows, const F* w, int n, T* out, int64_t len) {
  if (n == 0) {
    std::memset(static_cast<void*>(out), 0, sizeof(T) * len);
    return;
  }
  int64_t j = 0;
#if OSW_HAVE_SIMD
  if constexpr (Lanes<T, F>::kOk && Lanes<Tin, F>::kOk) {
    using VF = Vec<F>;
    using LI = Lanes<Tin, F>;
    constexpr int L = VF::kLanes;
    using V = typename VF::V;
    const V w0 = VF::splat(w[0]);
    // Four vectors per step: each tap's weight and row are fetched once for 4 * L lanes.
    // Every lane still sums tap 0's product, then the others in order. (Four named
    // vectors, not an array, and always inlined: clang 14 kept the lambda out of line
    // for its two uses, returning the four through memory, a large slowdown.)
    struct Four {
      V a0, a1, a2, a3;
    };
    auto sum4 = [&](int64_t at) __attribute__((always_inline)) {
      const Tin* r0 = rows[0] + at;
      Four s{VF::mul(w0, LI::load(r0)), VF::mul(w0, LI::load(r0 + L)),
             VF::mul(w0, LI::load(r0 + 2 * L)), VF::mul(w0, LI::load(r0 + 3 * L))};
      for (int k = 1; k < n; ++k) {
        const V wk = VF::splat(w[k]);
        const Tin* rk = rows[k] + at;
        s.a0 = VF::madd(s.a0, wk, LI::load(rk));
        s.a1 = VF::madd(s.a1, wk, LI::load(rk + L));
        s.a2 = VF::madd(s.a2, wk, LI::load(rk + 2 * L));
        s.a3 = VF::madd(s.a3, wk, LI::load(rk + 3 * L));
      }
      return s;
    };
    if constexpr (std::is_same<T, uint8_t>::value && std::is_same<F, float>::value) {
      // 16 outputs per step, rounded half to even, narrowed with saturation (int32 ->
      // int16 -> uint8, as Lanes<uint8_t, float>::store does).
      auto to_i32 = [](V v) { return wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(v)); };
      for (; j + 16 <= len; j += 16) {
        const Four s = sum4(j);
        const v128_t a = wasm_i16x8_narrow_i32x4(to_i32(s.a0), to_i32(s.a1));
        const v128_t b = wasm_i16x8_narrow_i32x4(to_i32(s.a2), to_i32(s.a3));
        wasm_v128_store(out + j, wasm_u8x16_narrow_i16x8(a, b));
      }
    } else if (n > 2) {
      for (; j + 4 * L <= len; j += 4 * L) {
        const Four s = sum4(j);
        Lanes<T, F>::store(out + j, s.a0);
        Lanes<T, F>::store(out + j + L, s.a1);
        Lanes<T, F>::store(out + j + 2 * L, s.a2);
        Lanes<T, F>::store(out + j + 3 * L, s.a3);
      }
    }
    if (n == 2) {
      const typename VF::V w1 = VF::splat(w[1]);
      for (; j + L <= len; j += L)
        Lanes<T, F>::store(out + j,
                           VF::madd(VF::mul(w0, LI::load(rows[0] + j)), w1, LI::load(rows[1] + j)));
    } else {
      for (; j + L <= len; j += L) {
        typename VF::V acc = VF::mul(w0, LI::load(rows[0] + j));
        for (int k = 1; k < n; ++k) acc = VF::madd(acc, VF::splat(w[k]), LI::load(rows[k] + j));
        Lanes<T, F>::store(out + j, acc);
      }
    }
  }
#endif
  for (; j < len; ++j) {
    F acc = w[0] * widen<F>(rows[0][j]);
    for (int k = 1; k < n; ++k) acc += w[k] * widen<F>(rows[k][j]);
    out[j] = narrow<T>(acc);
  }
}

// A row of T widened to the compute type F (exact for every T the SIMD passes take):
// lets a pass that reads each input several times (upsampling) convert it once. uint8 to
// float: core/convert.cpp's widen_to_float (one swizzle per 4 bytes), out of line: a call per row.
template <typename T, typename F>
void widen_row(const T* x, F* y, int64_t len) {
  if constexpr (std::is_same<T, uint8_t>::value && std::is_same<F, float>::value) {
    widen_to_float(x, y, len);
  } else {
    for (int64_t j = 0; j < len; ++j) y[j] = widen<F>(x[j]);
  }
}

// The widest filter a streamed pair of passes holds (rows it keeps per output).
constexpr int kMaxStreamTaps = 512;

// The rows of a streamed pair's first pass, kept in a small cache: input row r of the
// outer axis lives in slot r % slots (the taps of one output lie within `slots`
// consecutive rows, so they never share a slot) and is computed by fill(r, slot's data) the
// first time an output asks for it. slots <= kMaxStreamTaps.
template <typename R>
class RowSlots {
 public:
  RowSlots(R* cache, int64_t row_len, int slots) : cache_(cache), len_(row_len), slots_(slots) {
    reset();
  }
  // Forgets every row (a new block of the outer axis starts).
  void reset() {
    for (int s = 0; s < slots_; ++s) tag_[s] = -1;
  }
  template <typename Fill>
  R* get(int64_t row, Fill&& fill) {
    const int64_t s = row % slots_;
    R* dst = cache_ + s * len_;
    if (tag_[s] != row) {
      fill(row, dst);
      tag_[s] = row;
    }
    return dst;
  }

 private:
  R* cache_;
  int64_t len_;
  int slots_;
  int64_t tag_[kMaxStreamTaps];
};

// The pass the executor uses: SIMD where the types allow, scalar otherwise. Kept out of
// line: its callers run it on whole rows or tensors, and one copy per type pair keeps the
// download small. strip: the 4-row kernel's buffer (the caller's workspace), allocated under
// max_bytes. Outputs [o_begin, o_end) of the axis in each plane (o_end < 0: all); a part of the
// axis only along an inner axis (inner > 1).
template <typename Tin, typename Tout, typename F>
__attribute__((noinline)) void resize_pass(const Tin* x, Tout* y, int64_t outer, int64_t inner,
                                           const AxisPlan& plan, const F* weights,
                                           Buffer<float>* strip, int64_t max_bytes,
                                           int64_t o_begin = 0, int64_t o_end = -1) {
#if OSW_HAVE_SIMD
  if constexpr (std::is_same<Tin, float>::value && std::is_same<Tout, float>::value &&
                std::is_same<F, float>::value) {
    if (inner == 1) {
      // Several rows without the dense block form (antialias, downsampling, edges):
      // transposed 4 rows at a time. A single row, or the dense form: shuffles.
      if (outer >= 4 && !mostly_dense(plan) &&
          resize_pass_inner_rows4(x, y, outer, plan, strip, max_bytes))
        return;
      if (plan.blocks > 0) {
        resize_pass_inner_simd(x, y, outer, plan);
        return;
      }
    }
  }
  if constexpr (std::is_same<Tin, double>::value && std::is_same<Tout, double>::value &&
                std::is_same<F, double>::value) {
    if (inner == 1 && plan.pairs_d > 0 && weights == plan.weight.data()) {
      const int64_t oe = o_end < 0 ? plan.out : o_end;
      resize_pass_inner_pairs_f64(x, y, outer, plan, weights, o_begin, oe);
      return;
    }
  }
  if constexpr (Lanes<Tin, F>::kOk && Lanes<Tout, F>::kOk) {
    resize_pass_simd<Tin, Tout, F>(x, y, outer, inner, plan, weights, o_begin, o_end);
    return;
  }
#endif
  (void)strip;
  (void)max_bytes;
  resize_pass_scalar<Tin, Tout, F>(x, y, outer, inner, plan, weights, o_begin, o_end);
}

}  // namespace osw
