// resize/kernels_fixed.cpp: uint8 linear Resize in 16-bit integers where it is exact (see
// resize/kernels_fixed.h for when, and why the result equals the float path's bit for bit).
#include "resize/kernels_fixed.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/optimize.h"
#include "core/simd.h"
#include "resize/kernels.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

// Code size matters as much as speed here (the download): the kernels, which do the work,
// are compiled for speed and kept out of line; everything else (table building, the loops
// over rows that call the kernels) for size (OSW_MINSIZE, core/optimize.h).
#define OSW_KERNEL __attribute__((noinline))

namespace {

constexpr int kMaxBits = 8;  // narrow: s_h + s_v, so that sums below 255 * 2^8 fit 16 bits
constexpr int kWideH = 9;    // wide: h's weights times 2^9 (int16), v's times 2^7 (bytes):
constexpr int kWideV = 7;    // sums below 255 * 2^16 (exact in float too)

// The fewest fraction bits (<= limit) that make w an integer, or -1.
int dyadic_bits(double w, int limit) {
  for (int s = 0; s <= limit; ++s) {
    const double t = std::ldexp(w, s);
    if (t == std::floor(t)) return s;
  }
  return -1;
}

// Fraction bits of an axis's weights (-1: some weight is negative or not dyadic enough),
// and whether every output's taps lie within `taps` consecutive inputs (the row cache of
// the v pass relies on it).
OSW_MINSIZE int axis_bits(const AxisPlan& ap, int limit) {
  int s = 0;
  for (int64_t o = 0; o < ap.out; ++o) {
    const int n = ap.count[o];
    int32_t lo = 0, hi = 0;
    for (int k = 0; k < n; ++k) {
      const double w = ap.weight[o * ap.taps + k];
      const int b = w >= 0 ? dyadic_bits(w, limit) : -1;
      if (b < 0) return -1;
      s = std::max(s, b);
      const int32_t i = ap.index[o * ap.taps + k];
      lo = k == 0 ? i : std::min(lo, i);
      hi = k == 0 ? i : std::max(hi, i);
    }
    if (n > 0 && hi - lo >= ap.taps) return -1;
  }
  return s;
}

// round(s / 2^n), half to even, for s < 2^16 - 2^(n-1).
inline uint32_t round_shift(uint32_t s, int n) {
  if (n == 0) return s;
  return (s + (1u << (n - 1)) - 1u + ((s >> n) & 1u)) >> n;
}

OSW_MINSIZE int64_t product(const int64_t* d, int from, int to) {
  int64_t p = 1;
  for (int a = from; a < to; ++a) p *= d[a];
  return p;
}

// An axis's weights times 2^s as integers of type I, [out * taps] (the taps an output does
// not use are 0). The caller has checked that they are exact (axis_bits).
template <typename I>
OSW_MINSIZE bool scaled_weights(const AxisPlan& ap, int s, int64_t limit, Buffer<I>* w) {
  const int K = ap.taps;
  if (!w->allocate(ap.out * K, limit)) return false;
  for (int64_t o = 0; o < ap.out; ++o)
    for (int k = 0; k < K; ++k)
      (*w)[o * K + k] =
          k < ap.count[o] ? static_cast<I>(std::ldexp(ap.weight[o * K + k], s)) : I(0);
  return true;
}

// The narrow form (resize/kernels_fixed.h): returns whether it applies.
OSW_MINSIZE bool build_narrow(const ResizePlan& plan, bool force, FixedTables* fc) {
  const int np = plan.n_passes;
  const int64_t limit = plan.opts.max_bytes;
  if (np < 1 || np > 2) return false;
  const int a0 = std::min(plan.order[0], plan.order[np - 1]);
  const int a1 = std::max(plan.order[0], plan.order[np - 1]);
  if (np == 2) {
    fc->v = a0;
    fc->h = a1;
  } else if (product(plan.in_dims, a0 + 1, plan.rank) >= 16) {
    fc->v = a0;  // contiguous rows of 16 or more: blended as whole rows
  } else {
    fc->h = a0;
  }
  if (fc->h >= 0) {
    const AxisPlan& ap = plan.axis[fc->h];
    fc->sh = axis_bits(ap, kMaxBits);
    if (fc->sh < 0 || fc->sh > 7) return false;  // h's weights are bytes: 2^sh <= 128
    fc->kh = ap.taps;
    fc->c = product(plan.in_dims, fc->h + 1, plan.rank);
  }
  if (fc->v >= 0) {
    fc->sv = axis_bits(plan.axis[fc->v], kMaxBits);
    if (fc->sv < 0) return false;
    fc->kv = plan.axis[fc->v].taps;
    if (fc->kv > kMaxStreamTaps) return false;
  }
  if (fc->sh + fc->sv > kMaxBits) return false;
  // Scale the weights up so that the final shift is a constant (clang 14 turns a vector
  // shift by a variable into lane-by-lane code): 7 bits when h runs alone (its weights
  // are bytes), else 8 in all. Sums stay below 2^16.
  if (fc->v < 0)
    fc->sh = 7;
  else
    fc->sv = kMaxBits - fc->sh;

  if (fc->h >= 0) {
    const AxisPlan& ap = plan.axis[fc->h];
    const int K = fc->kh;
    if (!scaled_weights(ap, fc->sh, limit, &fc->wh)) return false;
    const int64_t c = fc->c, in_row = ap.in * c, lanes = ap.out * c;
    // Window starts are int32 (blk_base): rows of 2^31 bytes or more take the float path.
    if (in_row > INT32_MAX - 32) return false;
    fc->blocks = c < 16 ? lanes / 16 : 0;
    const int64_t nb = fc->blocks;
    if (!fc->blk_base.allocate(nb, limit) || !fc->blk_wide.allocate(nb, limit) ||
        !fc->blk_mask.allocate(nb * K * 16, limit) || !fc->blk_w.allocate(nb * K * 16, limit))
      return false;
    int64_t vector_blocks = 0;
    for (int64_t b = 0; b < nb; ++b) {
      int64_t lo = INT64_MAX, hi = -1;
      for (int l = 0; l < 16; ++l) {
        const int64_t lane = b * 16 + l, o = lane / c, e = lane % c;
        for (int k = 0; k < ap.count[o]; ++k) {
          if (fc->wh[o * K + k] == 0) continue;
          const int64_t byte = int64_t(ap.index[o * K + k]) * c + e;
          lo = std::min(lo, byte);
          hi = std::max(hi, byte);
        }
      }
      int64_t base = -1;
      bool wide = false;
      if (hi < 0) {
        base = in_row >= 16 ? 0 : -1;  // every weight 0: no byte is read
      } else if (hi - lo < 16 && in_row >= 16) {
        base = std::min(lo, in_row - 16);
      } else if (hi - lo < 32 && in_row >= 32) {
        base = std::min(lo, in_row - 32);
        wide = true;
      }
      fc->blk_base[b] = static_cast<int32_t>(base);
      fc->blk_wide[b] = wide ? 1 : 0;
      if (base >= 0) ++vector_blocks;
      for (int k = 0; k < K; ++k) {
        uint8_t* m = &fc->blk_mask[(b * K + k) * 16];
        uint8_t* w = &fc->blk_w[(b * K + k) * 16];
        for (int l = 0; l < 16; ++l) {
          const int64_t lane = b * 16 + l, o = lane / c, e = lane % c;
          const uint8_t wk = k < ap.count[o] ? fc->wh[o * K + k] : 0;
          w[l] = wk;
          // A zero weight reads nothing: index 0xFF shuffles in 0 from both windows.
          m[l] = (wk == 0 || base < 0)
                     ? 0xFF
                     : static_cast<uint8_t>(int64_t(ap.index[o * K + k]) * c + e - base);
        }
      }
    }
    // Lanes one by one are slower than the float path's kernels: take the fixed path only
    // when most blocks vectorise (or when forced, for tests).
    if (c < 16 && !force && vector_blocks * 4 < nb * 3) return false;
    if (c < 16 && nb == 0 && !force) return false;
  }
  if (fc->v >= 0 && !scaled_weights(plan.axis[fc->v], fc->sv, limit, &fc->wv)) return false;
  return true;
}

// The wide form (resize/kernels_fixed.h): returns whether it applies.
OSW_MINSIZE bool build_wide(const ResizePlan& plan, FixedTables* fc) {
  const int np = plan.n_passes;
  if (np < 1 || np > 2) return false;
  fc->h = std::max(plan.order[0], plan.order[np - 1]);
  fc->v = np == 2 ? std::min(plan.order[0], plan.order[1]) : -1;
  fc->c = product(plan.in_dims, fc->h + 1, plan.rank);
  // Elements of one output in groups of 4; c = 3 (RGB) is one group of 3 (h_row_wide).
  if (fc->c % 4 != 0 && fc->c != 3) return false;
  const AxisPlan& ph = plan.axis[fc->h];
  if (axis_bits(ph, kWideH) < 0) return false;
  if (fc->v >= 0 && axis_bits(plan.axis[fc->v], kWideV) < 0) return false;
  fc->wide = true;
  fc->sh = kWideH;
  fc->sv = kWideV;
  fc->kh = ph.taps;
  // h's weights in pairs of taps, each pair as 8 int16 lanes [w0 w1 w0 w1 ...] for
  // i32x4.dot_i16x8 (an odd last tap pairs with weight 0).
  const int P = (fc->kh + 1) / 2;
  if (!fc->whp.allocate(ph.out * P * 8, plan.opts.max_bytes)) return false;
  for (int64_t o = 0; o < ph.out; ++o)
    for (int k = 0; k < 2 * P; ++k) {
      const int16_t w =
          k < ph.count[o] ? static_cast<int16_t>(std::ldexp(ph.weight[o * fc->kh + k], kWideH)) : 0;
      for (int e = 0; e < 4; ++e) fc->whp[(o * P + k / 2) * 8 + 2 * e + (k % 2)] = w;
    }
  if (fc->v >= 0) {
    fc->kv = plan.axis[fc->v].taps;
    if (fc->kv > kMaxStreamTaps ||
        !scaled_weights(plan.axis[fc->v], kWideV, plan.opts.max_bytes, &fc->wv8))
      return false;
  }
  return true;
}

// One lane of h's pass: the sum of the taps, scaled by 2^sh.
inline uint32_t h_lane(const FixedTables& fc, const AxisPlan& ap, const uint8_t* xr, int64_t lane) {
  const int64_t o = lane / fc.c, e = lane % fc.c;
  const int K = fc.kh;
  uint32_t acc = 0;
  for (int k = 0; k < ap.count[o]; ++k)
    acc += uint32_t(fc.wh[o * K + k]) * xr[int64_t(ap.index[o * K + k]) * fc.c + e];
  return acc;
}

#if OSW_HAVE_SIMD
// round(s / 2^N) half to even, 8 lanes of uint16 (N constant: see build_narrow()).
template <int N>
inline v128_t round_shift_u16(v128_t s) {
  const v128_t odd = wasm_v128_and(wasm_u16x8_shr(s, N), wasm_i16x8_splat(1));
  return wasm_u16x8_shr(
      wasm_i16x8_add(wasm_i16x8_add(s, wasm_i16x8_splat((1 << (N - 1)) - 1)), odd), N);
}
#endif

// Scalar loops stay scalar: the vector paths cover the bulk, and vectorised copies of the
// tails would only add code.
#define OSW_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")

// h's pass on one input row xr (in * c bytes): out * c lanes into yr, as uint16 sums
// (final false) or as uint8 rounded by 2^7 (final true). The block loop is instantiated
// for 2 taps (the common linear case: the shuffle loop unrolled) and for any count; the
// rest of the function once (a copy of all of it for 2 taps would grow the download).
OSW_KERNEL void h_row_k(const FixedTables& fc, const AxisPlan& ap, const uint8_t* xr, void* yr,
                        bool final) {
  const int64_t c = fc.c, lanes = ap.out * c;
  uint16_t* y16 = static_cast<uint16_t*>(yr);
  uint8_t* y8 = static_cast<uint8_t*>(yr);
  auto put = [&](int64_t lane) {
    const uint32_t s = h_lane(fc, ap, xr, lane);
    if (final)
      y8[lane] = static_cast<uint8_t>(round_shift(s, 7));
    else
      y16[lane] = static_cast<uint16_t>(s);
  };
  int64_t done = 0;
#if OSW_HAVE_SIMD
  const v128_t sixteen = wasm_i8x16_splat(16), zero = wasm_i16x8_splat(0);
  auto emit = [&](int64_t lane, v128_t a0, v128_t a1) {
    if (final) {
      wasm_v128_store(y8 + lane,
                      wasm_u8x16_narrow_i16x8(round_shift_u16<7>(a0), round_shift_u16<7>(a1)));
    } else {
      wasm_v128_store(y16 + lane, a0);
      wasm_v128_store(y16 + lane + 8, a1);
    }
  };
  const auto block_loop = [&](auto kc) __attribute__((always_inline)) {
    const int K = decltype(kc)::value > 0 ? int(decltype(kc)::value) : fc.kh;
    for (int64_t b = 0; b < fc.blocks; ++b) {
      const int32_t base = fc.blk_base[b];
      if (base < 0) {
        OSW_SCALAR_LOOP
        for (int64_t l = b * 16; l < b * 16 + 16; ++l) put(l);
        continue;
      }
      const uint8_t* m = &fc.blk_mask[b * K * 16];
      const uint8_t* w = &fc.blk_w[b * K * 16];
      const v128_t lo = wasm_v128_load(xr + base);
      v128_t a0 = zero, a1 = zero;
      if (fc.blk_wide[b]) {
        const v128_t hi = wasm_v128_load(xr + base + 16);
        for (int k = 0; k < K; ++k) {
          const v128_t mk = wasm_v128_load(m + 16 * k), wk = wasm_v128_load(w + 16 * k);
          const v128_t v = wasm_v128_or(wasm_i8x16_swizzle(lo, mk),
                                        wasm_i8x16_swizzle(hi, wasm_i8x16_sub(mk, sixteen)));
          a0 = wasm_i16x8_add(a0, wasm_u16x8_extmul_low_u8x16(v, wk));
          a1 = wasm_i16x8_add(a1, wasm_u16x8_extmul_high_u8x16(v, wk));
        }
      } else {
        for (int k = 0; k < K; ++k) {
          const v128_t wk = wasm_v128_load(w + 16 * k);
          const v128_t v = wasm_i8x16_swizzle(lo, wasm_v128_load(m + 16 * k));
          a0 = wasm_i16x8_add(a0, wasm_u16x8_extmul_low_u8x16(v, wk));
          a1 = wasm_i16x8_add(a1, wasm_u16x8_extmul_high_u8x16(v, wk));
        }
      }
      emit(b * 16, a0, a1);
    }
  };
  if (c < 16) {
    if (fc.kh == 2)
      block_loop(std::integral_constant<int, 2>());
    else
      block_loop(std::integral_constant<int, 0>());
    done = fc.blocks * 16;
  } else {
    const int K = fc.kh;
    // Outputs of 16 or more contiguous lanes: each blends whole input runs.
    for (int64_t o = 0; o < ap.out; ++o) {
      const int n = ap.count[o];
      const uint8_t* wo = &fc.wh[o * K];
      const int32_t* idx = &ap.index[o * K];
      int64_t j = 0;
      for (; j + 16 <= c; j += 16) {
        v128_t a0 = zero, a1 = zero;
        for (int k = 0; k < n; ++k) {
          const v128_t v = wasm_v128_load(xr + int64_t(idx[k]) * c + j);
          const v128_t wk = wasm_i8x16_splat(static_cast<int8_t>(wo[k]));
          a0 = wasm_i16x8_add(a0, wasm_u16x8_extmul_low_u8x16(v, wk));
          a1 = wasm_i16x8_add(a1, wasm_u16x8_extmul_high_u8x16(v, wk));
        }
        emit(o * c + j, a0, a1);
      }
      OSW_SCALAR_LOOP
      for (; j < c; ++j) put(o * c + j);
    }
    done = lanes;
  }
#endif
  OSW_SCALAR_LOOP
  for (int64_t l = done; l < lanes; ++l) put(l);
}

// v's pass: n rows of R (uint8 from X, or uint16 sums from h's pass) blended with integer
// weights w into len bytes of Y, rounded by 2^8. n == 0 writes zeros (an output outside a
// crop box, filled later). KC: n when known (2: linear, unrolled).
template <typename R, int KC>
OSW_KERNEL void v_row(const R* const* rows, const uint16_t* w, int n, uint8_t* out, int64_t len) {
  if (n == 0) {
    std::memset(out, 0, size_t(len));
    return;
  }
  if (KC > 0) n = KC;
  int64_t j = 0;
#if OSW_HAVE_SIMD
  for (; j + 16 <= len; j += 16) {
    v128_t a0 = wasm_i16x8_splat(0), a1 = a0;
    for (int k = 0; k < n; ++k) {
      v128_t lo, hi;
      if constexpr (sizeof(R) == 1) {
        const v128_t b = wasm_v128_load(rows[k] + j);
        lo = wasm_u16x8_extend_low_u8x16(b);
        hi = wasm_u16x8_extend_high_u8x16(b);
      } else {
        lo = wasm_v128_load(rows[k] + j);
        hi = wasm_v128_load(rows[k] + j + 8);
      }
      const v128_t wk = wasm_i16x8_splat(static_cast<int16_t>(w[k]));
      a0 = wasm_i16x8_add(a0, wasm_i16x8_mul(lo, wk));
      a1 = wasm_i16x8_add(a1, wasm_i16x8_mul(hi, wk));
    }
    wasm_v128_store(out + j, wasm_u8x16_narrow_i16x8(round_shift_u16<kMaxBits>(a0),
                                                     round_shift_u16<kMaxBits>(a1)));
  }
#endif
  OSW_SCALAR_LOOP
  for (; j < len; ++j) {
    uint32_t acc = 0;
    for (int k = 0; k < n; ++k) acc += uint32_t(w[k]) * rows[k][j];
    out[j] = static_cast<uint8_t>(round_shift(acc, kMaxBits));
  }
}

// The wide form's v pass: n rows of X blended with byte weights w into len uint16 sums
// (below 255 * 2^7, so they are also int16). n == 0 writes zeros (an output outside a crop box,
// filled later).
OSW_KERNEL void v_row_sums(const uint8_t* const* rows, const uint8_t* w, int n, uint16_t* out,
                           int64_t len) {
  int64_t j = 0;
#if OSW_HAVE_SIMD
  for (; j + 16 <= len; j += 16) {
    v128_t a0 = wasm_i16x8_splat(0), a1 = a0;
    for (int k = 0; k < n; ++k) {
      const v128_t b = wasm_v128_load(rows[k] + j),
                   wk = wasm_i8x16_splat(static_cast<int8_t>(w[k]));
      a0 = wasm_i16x8_add(a0, wasm_u16x8_extmul_low_u8x16(b, wk));
      a1 = wasm_i16x8_add(a1, wasm_u16x8_extmul_high_u8x16(b, wk));
    }
    wasm_v128_store(out + j, a0);
    wasm_v128_store(out + j + 8, a1);
  }
#endif
  OSW_SCALAR_LOOP
  for (; j < len; ++j) {
    uint32_t acc = 0;
    for (int k = 0; k < n; ++k) acc += uint32_t(w[k]) * rows[k][j];
    out[j] = static_cast<uint16_t>(acc);
  }
}

#if OSW_HAVE_SIMD
// 4 lanes of 32-bit sums rounded half to even by 2^16 (each below 2^24).
inline v128_t wide_round(v128_t acc) {
  const v128_t odd = wasm_v128_and(wasm_u32x4_shr(acc, 16), wasm_i32x4_splat(1));
  return wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(acc, wasm_i32x4_splat(0x7FFF)), odd), 16);
}

// The same into 4 bytes.
inline v128_t wide_bytes(v128_t acc) {
  const v128_t r = wide_round(acc);
  const v128_t r16 = wasm_u16x8_narrow_i32x4(r, r);
  return wasm_u8x16_narrow_i16x8(r16, r16);
}

// h_row_wide's outputs [o, o_end) whose taps are consecutive, an even number of them (the
// plan's consecutive count n: n pixels from index[o * K] on), C = 3 or 4: each pair of taps
// is one 16-byte load of two neighbouring pixels' sums, without index loads (C = 3: lanes 6
// and 7, the next pixel's or the padding's, feed only lane 3, which is not stored). Two
// outputs of the same count are rounded and stored together. The same products and sums
// as the general loop. Returns the first output not done.
template <int C>
int64_t wide_runs(const AxisPlan& ap, const int16_t* whp, const uint16_t* t, uint8_t* y, int64_t o,
                  int64_t o_end) {
  const int K = ap.taps, P = (K + 1) / 2;
  const uint8_t* cons = ap.consecutive.data();
  const auto sums = [&](int64_t q, int n) __attribute__((always_inline)) {
    const uint16_t* p = t + int64_t(ap.index[q * K]) * C;
    const int16_t* w = whp + q * P * 8;
    v128_t acc = wasm_i32x4_splat(0);
    for (int k = 0; k < n; k += 2) {
      v128_t v = wasm_v128_load(p + k * C);
      v = C == 4 ? wasm_i16x8_shuffle(v, v, 0, 4, 1, 5, 2, 6, 3, 7)
                 : wasm_i16x8_shuffle(v, v, 0, 3, 1, 4, 2, 5, 6, 7);
      acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(v, wasm_v128_load(w + k * 4)));
    }
    return wide_round(acc);
  };
  for (int n; o < o_end && (n = cons[o]) != 0 && n % 2 == 0;) {
    const bool two = o + 1 < o_end && cons[o + 1] == n;
    const v128_t a = sums(o, n), b = two ? sums(o + 1, n) : a;
    const v128_t r16 = wasm_u16x8_narrow_i32x4(a, b);
    v128_t r8 = wasm_u8x16_narrow_i16x8(r16, r16);
    if (C == 3 && two) {  // (a's 3 bytes, then b's)
      r8 = wasm_i8x16_shuffle(r8, r8, 0, 1, 2, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
      wasm_v128_store32_lane(y + o * 3, r8, 0);
      wasm_v128_store16_lane(y + o * 3 + 4, r8, 2);
    } else if (C == 3) {
      wasm_v128_store16_lane(y + o * 3, r8, 0);
      wasm_v128_store8_lane(y + o * 3 + 2, r8, 2);
    } else if (two) {
      wasm_v128_store64_lane(y + o * 4, r8, 0);
    } else {
      wasm_v128_store32_lane(y + o * 4, r8, 0);
    }
    o += two ? 2 : 1;
  }
  return o;
}
#endif

// The wide form's h pass on one row t of uint16 sums (in * c of them, c a multiple of 4 or
// 3, each below 2^15): 4 elements of one output at a time (for c = 3, its 3 elements: the
// 4th lane reads the next element, or one of the 4 uint16 of padding after the last row,
// and is not stored), two taps per i32x4.dot_i16x8, rounded by 2^16 into Y. Runs of
// consecutive outputs take wide_runs, a loop of its own (a loop that kept the general
// one's state spilled it to the stack and lost most of the gain).
OSW_KERNEL void h_row_wide(const FixedTables& fc, const AxisPlan& ap, const uint16_t* t,
                           uint8_t* y) {
  const int64_t c = fc.c;
  const int K = fc.kh, P = (K + 1) / 2;
#if OSW_HAVE_SIMD
  const bool runs = c <= 4 && ap.consecutive.size() > 0;
#endif
  for (int64_t o = 0; o < ap.out; ++o) {
#if OSW_HAVE_SIMD
    if (runs) {
      o = c == 4 ? wide_runs<4>(ap, fc.whp.data(), t, y, o, ap.out)
                 : wide_runs<3>(ap, fc.whp.data(), t, y, o, ap.out);
      if (o == ap.out) break;
    }
#endif
    const int n = ap.count[o];
    const int32_t* idx = &ap.index[o * K];
    const int16_t* w = &fc.whp[o * P * 8];
    for (int64_t e = 0; e < c; e += 4) {
#if OSW_HAVE_SIMD
      v128_t acc = wasm_i32x4_splat(0);
      for (int k = 0; k < n; k += 2) {
        const uint16_t* p0 = t + int64_t(idx[k]) * c + e;
        const uint16_t* p1 = k + 1 < n ? t + int64_t(idx[k + 1]) * c + e : p0;  // weight 0
        const v128_t v = wasm_v128_load64_lane(p1, wasm_v128_load64_zero(p0), 1);
        const v128_t pairs = wasm_i16x8_shuffle(v, v, 0, 4, 1, 5, 2, 6, 3, 7);
        acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(pairs, wasm_v128_load(w + (k / 2) * 8)));
      }
      const v128_t r8 = wide_bytes(acc);
      if (c == 3) {
        wasm_v128_store16_lane(y + o * 3, r8, 0);
        wasm_v128_store8_lane(y + o * 3 + 2, r8, 2);
      } else {
        wasm_v128_store32_lane(y + o * c + e, r8, 0);
      }
#else
      for (int64_t q = 0; q < std::min<int64_t>(4, c - e); ++q) {
        uint32_t acc = 0;
        for (int k = 0; k < n; ++k)
          acc += uint32_t(w[(k / 2) * 8 + k % 2]) * t[int64_t(idx[k]) * c + e + q];
        y[o * c + e + q] = static_cast<uint8_t>(round_shift(acc, kWideH + kWideV));
      }
#endif
    }
  }
}

// The wide form: v's pass first (rows of X into uint16 sums), then h's pass into Y.
// Units: output rows of v (outer * out_v).
OSW_MINSIZE Status run_wide(const ResizePlan& plan, const FixedTables& fc, const uint8_t* x,
                            uint8_t* y, int64_t begin, int64_t end, ResizeWorkspace* ws) {
  const int64_t* d = plan.in_dims;
  const AxisPlan& ph = plan.axis[fc.h];
  const int64_t in_row = ph.in * fc.c, out_row = ph.out * fc.c;
  // Without v, every row of h is blended alone with weight 1.
  const int64_t outer_h = fc.v >= 0 ? product(d, fc.v + 1, fc.h) : 1;
  const int64_t block_in = outer_h * in_row, block_out = outer_h * out_row;
  const int64_t in_v = fc.v >= 0 ? plan.axis[fc.v].in : 1,
                out_v = fc.v >= 0 ? plan.axis[fc.v].out : 1;
  // (+ 4 uint16 of padding: c = 3 reads one element past the last row, h_row_wide)
  const int64_t bytes = (block_in + 4) * int64_t(sizeof(uint16_t));
  if (ws->rows.size() < bytes && !ws->rows.allocate(bytes, plan.opts.max_bytes))
    return out_of_memory("resize row sums", bytes, plan.opts.max_bytes);
  uint16_t* sums = reinterpret_cast<uint16_t*>(ws->rows.data());
  const uint8_t* rows[kMaxStreamTaps];
  static constexpr uint8_t kOne = 1 << kWideV;
  for (int64_t u = begin; u < end; ++u) {
    const int64_t p = u / out_v, o = u % out_v;
    const uint8_t* sp = x + p * in_v * block_in;
    uint8_t* yp = y + p * out_v * block_out;
    int n = 1;
    const uint8_t* w = &kOne;
    if (fc.v >= 0) {
      const AxisPlan& pv = plan.axis[fc.v];
      n = pv.count[o];
      w = &fc.wv8[o * fc.kv];
      for (int k = 0; k < n; ++k) rows[k] = sp + int64_t(pv.index[o * fc.kv + k]) * block_in;
    } else {
      rows[0] = sp;
    }
    v_row_sums(rows, w, n, sums, block_in);
    for (int64_t q = 0; q < outer_h; ++q)
      h_row_wide(fc, ph, sums + q * in_row, yp + o * block_out + q * out_row);
  }
  return Status::Ok();
}

}  // namespace

OSW_MINSIZE void build_fixed_tables(const ResizePlan& plan, bool force, FixedTables* fc) {
  // The narrow form where it applies and vectorises, else the wide one, else none.
  *fc = FixedTables();
  if (!build_narrow(plan, force, fc)) {
    *fc = FixedTables();  // drops the tables of a partial build
    if (!build_wide(plan, fc)) *fc = FixedTables();
  }
  fc->state = fc->h >= 0 || fc->v >= 0 ? 1 : -1;
}

OSW_MINSIZE int64_t fixed_units(const ResizePlan& plan) {
  const FixedTables& fc = plan.fixed;
  const int64_t* d = plan.in_dims;
  if (fc.v < 0) return product(d, 0, fc.h);
  return product(d, 0, fc.v) * plan.axis[fc.v].out;
}

OSW_MINSIZE Status resize_u8_fixed(const ResizePlan& plan, const uint8_t* x, uint8_t* y,
                                   int64_t begin, int64_t end, ResizeWorkspace* ws) {
  const FixedTables& fc = plan.fixed;
  if (fc.wide) return run_wide(plan, fc, x, y, begin, end, ws);
  const int rank = plan.rank;
  const int64_t* d = plan.in_dims;
  if (fc.v < 0) {
    // h alone: each row of X straight to Y.
    const AxisPlan& ap = plan.axis[fc.h];
    const int64_t in_row = ap.in * fc.c, out_row = ap.out * fc.c;
    for (int64_t r = begin; r < end; ++r) h_row_k(fc, ap, x + r * in_row, y + r * out_row, true);
    return Status::Ok();
  }
  const AxisPlan& pv = plan.axis[fc.v];
  const int K = fc.kv;
  const uint8_t* rows8[kMaxStreamTaps];
  const uint16_t* rows16[kMaxStreamTaps];
  if (fc.h < 0) {
    // v alone: rows of X blended straight into Y.
    const int64_t block = product(d, fc.v + 1, rank);
    for (int64_t u = begin; u < end; ++u) {
      const int64_t p = u / pv.out, o = u % pv.out;
      const uint8_t* sp = x + p * pv.in * block;
      uint8_t* yp = y + p * pv.out * block;
      const int n = pv.count[o];
      for (int k = 0; k < n; ++k) rows8[k] = sp + int64_t(pv.index[o * K + k]) * block;
      v_row<uint8_t, 0>(rows8, &fc.wv[o * K], n, yp + o * block, block);
    }
    return Status::Ok();
  }
  // Both: h's pass per input row of v, into a cache of K rows of uint16 sums; v blends them.
  const AxisPlan& ph = plan.axis[fc.h];
  const int64_t outer_h = product(d, fc.v + 1, fc.h);
  const int64_t in_row = ph.in * fc.c, out_row = ph.out * fc.c;
  const int64_t block_in = outer_h * in_row, block_out = outer_h * out_row;
  const int64_t bytes = K * block_out * int64_t(sizeof(uint16_t));
  if (ws->rows.size() < bytes && !ws->rows.allocate(bytes, plan.opts.max_bytes))
    return out_of_memory("resize row cache", bytes, plan.opts.max_bytes);
  RowSlots<uint16_t> cached(reinterpret_cast<uint16_t*>(ws->rows.data()), block_out, K);
  for (int64_t u = begin; u < end;) {
    const int64_t p = u / pv.out;
    const int64_t o_end = std::min(pv.out, end - p * pv.out);
    cached.reset();
    const uint8_t* sp = x + p * pv.in * block_in;
    uint8_t* yp = y + p * pv.out * block_out;
    auto fill = [&](int64_t row, uint16_t* dst) {
      for (int64_t q = 0; q < outer_h; ++q)
        h_row_k(fc, ph, sp + row * block_in + q * in_row, dst + q * out_row, false);
    };
    for (int64_t o = u - p * pv.out; o < o_end; ++o) {
      const int n = pv.count[o];
      for (int k = 0; k < n; ++k) rows16[k] = cached.get(pv.index[o * K + k], fill);
      if (n == 2)
        v_row<uint16_t, 2>(rows16, &fc.wv[o * K], n, yp + o * block_out, block_out);
      else
        v_row<uint16_t, 0>(rows16, &fc.wv[o * K], n, yp + o * block_out, block_out);
    }
    u = p * pv.out + o_end;
  }
  return Status::Ok();
}

}  // namespace osw
