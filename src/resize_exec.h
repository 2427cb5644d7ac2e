// resize_exec.h: the typed execution of a Resize plan (internal to the library).
//
// Templates over the storage type T, included by two translation units so that the build
// can optimise them differently: resize_exec_hot.cpp instantiates float32 and uint8 (the
// types of models and images) for speed, resize_exec_cold.cpp every other type for size
// (CMakeLists.txt compiles it with -Os). Both compute the same results; only code size and
// speed differ.
#pragma once

#include <algorithm>
#include <cstring>

#include "elem.h"
#include "resize.h"
#include "resize_kernels.h"
#include "resize_nearest.h"

namespace osw {

// float32 and uint8: optimised for speed.
Status resize_execute_hot(const ResizePlan& plan, const TensorView& x, TensorView* y);
// Every other type: optimised for size.
Status resize_execute_cold(const ResizePlan& plan, const TensorView& x, TensorView* y);

template <typename T>
constexpr bool kResizeHotType = std::is_same<T, float>::value || std::is_same<T, uint8_t>::value;

namespace resize_exec {

// Fills every output whose coordinate lies outside the crop box with value.
template <typename T>
void fill_outside(const ResizePlan& plan, T value, T* y) {
  const int rank = plan.rank;
  for (int a = 0; a < rank; ++a) {
    const AxisPlan& ap = plan.axis[a];
    if (!ap.any_outside) continue;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < a; ++i) outer *= plan.out_dims[i];
    for (int i = a + 1; i < rank; ++i) inner *= plan.out_dims[i];
    for (int64_t p = 0; p < outer; ++p)
      for (int64_t o = 0; o < ap.out; ++o)
        if (ap.outside[o]) std::fill_n(y + (p * ap.out + o) * inner, inner, value);
  }
}

template <typename F>
const F* weights_of(const AxisPlan& ap) {
  if constexpr (std::is_same<F, float>::value) return ap.weight_f.data();
  else return ap.weight.data();
}

// Shape of the last two passes, along axes v (outer) and h (inner, h > v), over the
// current dims cur (h still at its input length): outer_v blocks of everything after v,
// block_in elements each before h's pass and block_out after it; inside a block, h's pass
// sees outer_h rows of inner_h elements.
struct PairShape {
  int64_t outer_v = 1, block_in = 1, block_out = 1, outer_h = 1, inner_h = 1;
};

inline PairShape pair_shape(const ResizePlan& plan, const int64_t* cur, int v, int h) {
  PairShape s;
  for (int a = 0; a < v; ++a) s.outer_v *= cur[a];
  for (int a = v + 1; a < plan.rank; ++a) {
    s.block_in *= cur[a];
    s.block_out *= a == h ? plan.out_dims[h] : cur[a];
  }
  for (int a = v + 1; a < h; ++a) s.outer_h *= cur[a];
  for (int a = h + 1; a < plan.rank; ++a) s.inner_h *= cur[a];
  return s;
}

// The last two passes, along axes v (outer) then h (inner, h > v), fused and streamed:
// each output row of v (a block of everything after v) blends a few rows of h's result,
// and those rows are computed on demand into a small cache, one input row at a time. The
// intermediate tensor between the two passes never exists: scratch is K_v rows, and the
// rows are still in cache when they are blended. Same arithmetic as the two passes.
template <typename Tin, typename T, typename F>
Status stream_last_two(const ResizePlan& plan, const Tin* src, T* y, const int64_t* cur,
                       int h, int v) {
  const AxisPlan& ph = plan.axis[h];
  const AxisPlan& pv = plan.axis[v];
  const PairShape sh = pair_shape(plan, cur, v, h);
  const int64_t outer_v = sh.outer_v, block_in = sh.block_in, block_mid = sh.block_out;
  const int64_t outer_h = sh.outer_h, inner_h = sh.inner_h;
  const int K = pv.taps;
  // An input row of a narrower type that the inner pass reads more than once per element
  // (upsampling, or a filter wider than its stride, as antialias is) is widened once into
  // one more row of F first.
  constexpr bool kNarrow = !std::is_same<Tin, F>::value;
  const bool widen_first = kNarrow && ph.out * int64_t(ph.taps) > ph.in;
  if (K > kMaxStreamTaps) return Status::Range("resize: filter too wide to stream");
  const int64_t bytes = (K * block_mid + (widen_first ? block_in : 0)) * int64_t(sizeof(F));
  if (plan.scratch[0].size() < bytes && !plan.scratch[0].allocate(bytes))
    return out_of_memory("resize row cache", bytes);
  F* cache = reinterpret_cast<F*>(plan.scratch[0].data());
  F* wide = cache + K * block_mid;
  RowSlots<F> cached(cache, block_mid, K);
  const F* wh = weights_of<F>(ph);
  const F* wv = weights_of<F>(pv);
  const F* rows[kMaxStreamTaps];
  for (int64_t p = 0; p < outer_v; ++p) {
    cached.reset();
    const Tin* sp = src + p * pv.in * block_in;
    T* yp = y + p * pv.out * block_mid;
    auto fill = [&](int64_t row, F* dst) {
      if (widen_first) {
        widen_row<Tin, F>(sp + row * block_in, wide, block_in);
        resize_pass<F, F, F>(wide, dst, outer_h, inner_h, ph, wh);
      } else {
        resize_pass<Tin, F, F>(sp + row * block_in, dst, outer_h, inner_h, ph, wh);
      }
    };
    for (int64_t o = 0; o < pv.out; ++o) {
      const int n = pv.count[o];
      const int32_t* idx = pv.index.data() + o * K;
      for (int k = 0; k < n; ++k) rows[k] = cached.get(idx[k], fill);
      blend_rows_into<T, F>(rows, wv + o * K, n, yp + o * block_mid, block_mid);
    }
  }
  return Status::Ok();
}

// The last two passes when the outer axis v runs first and the inner axis h last (h > v):
// kGroup output rows of v (each a block of everything after v) are blended into a small
// buffer, and h's pass runs on that group at once, writing kGroup rows of Y. The
// intermediate tensor between the two passes never exists, and h's pass sees several rows
// (the 4-row transposed kernel applies when h is innermost; float32 then overlaps the next
// group's blend with this group's h pass, see below). Same arithmetic as the two whole
// passes: blend_rows_into computes each element as resize_pass does.
template <typename T, typename F, typename Tin>
Status stream_outer_then_inner(const ResizePlan& plan, const Tin* src, T* y, const int64_t* cur,
                               int v, int h) {
  constexpr int64_t kGroup = 4;
  const AxisPlan& pv = plan.axis[v];
  const AxisPlan& ph = plan.axis[h];
  const PairShape sh = pair_shape(plan, cur, v, h);
  const int64_t outer_v = sh.outer_v, block_in = sh.block_in, block_out = sh.block_out;
  const int64_t outer_h = sh.outer_h, inner_h = sh.inner_h;
  // Two groups when the h pass is the 4-row kernel (below), else one.
  bool overlap = false;
#if OSW_HAVE_SIMD
  if constexpr (std::is_same<F, float>::value && std::is_same<T, float>::value &&
                  std::is_same<Tin, float>::value) {
    overlap = inner_h == 1 && outer_h == 1 && !mostly_dense(ph) && pv.out >= 2 * kGroup &&
              rows4_strip(ph) != nullptr;
  }
#endif
  int64_t bytes = (overlap ? 2 : 1) * kGroup * block_in * int64_t(sizeof(F));
  if (plan.scratch[0].size() < bytes && !plan.scratch[0].allocate(bytes)) {
    // Under a small allocation limit: one group, as without the overlap. (Rarely reached:
    // with v first, X itself is usually larger than two groups.)
    overlap = false;
    bytes = kGroup * block_in * int64_t(sizeof(F));
    if (!plan.scratch[0].allocate(bytes)) return out_of_memory("resize row group", bytes);
  }
  F* group = reinterpret_cast<F*>(plan.scratch[0].data());
  const int K = pv.taps;
  const F* wv = weights_of<F>(pv);
  const F* wh = weights_of<F>(ph);
  const Tin* rows[kMaxStreamTaps];
  if (K > kMaxStreamTaps) return Status::Range("resize: filter too wide to stream");
  for (int64_t p = 0; p < outer_v; ++p) {
    const Tin* sp = src + p * pv.in * block_in;
    T* yp = y + p * pv.out * block_out;
    // Output row o of v, elements [c0, c1) of its block, into dst.
    auto blend = [&](int64_t o, F* dst, int64_t c0, int64_t c1) {
      const int n = pv.count[o];
      const int32_t* idx = pv.index.data() + o * K;
      for (int k = 0; k < n; ++k) rows[k] = sp + int64_t(idx[k]) * block_in + c0;
      blend_rows_into<F, F>(rows, wv + o * K, n, dst + c0, c1 - c0);
    };
#if OSW_HAVE_SIMD
    if constexpr (std::is_same<F, float>::value && std::is_same<T, float>::value &&
                  std::is_same<Tin, float>::value) {
      if (overlap) {
        // The h pass of one group (arithmetic on a strip in cache) is cut into parts, and
        // the v blend of the next group's rows (reads of X, from memory) is cut into as
        // many, which run between them: the memory reads of the next group then overlap
        // this group's arithmetic instead of waiting for it. Parts of about 256 elements
        // of a row measured best on W4 of bench/ (2048-long rows: 0.7x the time of
        // unsplit groups; whole rows per part 0.8x; 128 or 64 elements slower than 256).
        // Same sums as the loop below.
        float* t = inner_rows4_strip().data();
        F* cur = group;
        F* next = group + kGroup * block_in;
        for (int64_t j = 0; j < kGroup; ++j) blend(j, cur + j * block_in, 0, block_in);
        const int64_t split = std::max<int64_t>(1, std::min<int64_t>(16, block_in / 256));
        const int64_t parts = kGroup * split;
        const int64_t quads = ph.out / 4;
        int64_t o0 = 0;
        for (; o0 + kGroup <= pv.out; o0 += kGroup) {
          rows4_transpose(cur, block_in, t);
          const int64_t rows_next = std::min(kGroup, pv.out - (o0 + kGroup));
          for (int64_t q = 0; q < parts; ++q) {
            const int64_t j = q / split, s = q % split;
            if (j < rows_next)
              blend(o0 + kGroup + j, next + j * block_in, block_in * s / split,
                    block_in * (s + 1) / split);
            const int64_t b = quads * q / parts * 4;
            const int64_t e = q + 1 < parts ? quads * (q + 1) / parts * 4 : ph.out;
            rows4_part(t, ph, yp + o0 * block_out, b, e);
          }
          std::swap(cur, next);
        }
        if (o0 < pv.out)  // the last rows (fewer than a group), blended above
          resize_pass<F, T, F>(cur, yp + o0 * block_out, pv.out - o0, inner_h, ph, wh);
        continue;
      }
    }
#endif
    for (int64_t o0 = 0; o0 < pv.out; o0 += kGroup) {
      const int64_t g = std::min(kGroup, pv.out - o0);
      for (int64_t j = 0; j < g; ++j) blend(o0 + j, group + j * block_in, 0, block_in);
      resize_pass<F, T, F>(group, yp + o0 * block_out, g * outer_h, inner_h, ph, wh);
    }
  }
  return Status::Ok();
}

// Linear / cubic: separable passes. T is the storage type, F the compute type. The last
// two passes are streamed, so the tensor between them never exists: an inner axis then
// an outer one (the usual W-then-H of images) by stream_last_two, an outer axis then an
// inner one by stream_outer_then_inner (float32 and uint8). The other passes write whole
// intermediate tensors.
template <typename T, typename Tout = T>
Status interpolate(const ResizePlan& plan, const T* x, Tout* y) {
  using F = typename ElemTraits<T>::Compute;
  const int rank = plan.rank;
  const int np = plan.n_passes;
  int64_t cur[kMaxRank];
  for (int a = 0; a < rank; ++a) cur[a] = plan.in_dims[a];
  if (np == 0) {
    int64_t n = 1;
    for (int a = 0; a < rank; ++a) n *= cur[a];
    for (int64_t i = 0; i < n; ++i) y[i] = narrow<Tout>(widen<F>(x[i]));
    return Status::Ok();
  }
  const bool fuse_a = np >= 2 && plan.order[np - 1] < plan.order[np - 2] &&
                      plan.axis[plan.order[np - 1]].taps <= kMaxStreamTaps;
  // The other order (an outer axis, then one inside it, as H then W when downsampling):
  // streamed in groups of rows (read from X itself, or from a whole intermediate) when a
  // group of rows fits a small buffer.
  bool fuse_b = false;
  int64_t pair_block = 1;  // elements after the pair's outer axis, before its inner pass
  // (float32 and uint8 only: the other types keep the two whole passes, and less code.)
  if (kResizeHotType<T> && !fuse_a && np >= 2 && plan.order[np - 2] < plan.order[np - 1] &&
      plan.axis[plan.order[np - 2]].taps <= kMaxStreamTaps) {
    int64_t d[kMaxRank];
    for (int a = 0; a < rank; ++a) d[a] = cur[a];
    for (int i = 0; i < np - 2; ++i) d[plan.order[i]] = plan.out_dims[plan.order[i]];
    bool fits = true;
    for (int a = plan.order[np - 2] + 1; a < rank && fits; ++a)
      fits = checked_mul(pair_block, d[a], &pair_block);
    fuse_b = fits && pair_block <= (int64_t(1) << 20);  // a group: 4 rows of <= 2^20 elements
  }
  const bool fuse = fuse_a || fuse_b;
  const int plain = fuse ? np - 2 : np;  // passes run on whole tensors
  // Intermediate results of the plain passes (the last one's too when fusing), in F.
  int64_t scratch = 0;
  {
    int64_t d[kMaxRank];
    for (int a = 0; a < rank; ++a) d[a] = cur[a];
    const int kept = fuse ? plain : np - 1;
    for (int i = 0; i < kept; ++i) {
      d[plan.order[i]] = plan.out_dims[plan.order[i]];
      int64_t n = 1;
      for (int a = 0; a < rank; ++a)
        if (!checked_mul(n, d[a], &n)) return Status::Range("Y: intermediate too large");
      scratch = std::max(scratch, n);
    }
  }
  // Kept with the plan. Slot 0 is the streaming row cache when fusing, so whole
  // intermediates then use slots 1 and, for a third, 0 is not needed: alternate 1 <-> 0
  // only when not fusing.
  const int64_t bytes = scratch * int64_t(sizeof(F));
  F* buf[2] = {nullptr, nullptr};
  const int first_slot = fuse ? 1 : 0;
  const int n_bufs = fuse ? (plain > 0 ? 1 : 0) : std::min(2, np - 1);
  for (int i = 0; i < n_bufs; ++i) {
    Buffer<unsigned char>& b = plan.scratch[first_slot + i];
    if (b.size() < bytes && !b.allocate(bytes)) return out_of_memory("resize scratch", bytes);
    buf[i] = reinterpret_cast<F*>(b.data());
  }
  if (fuse && plain > 1) {
    // More than one whole pass before the streamed pair: they alternate through a second
    // buffer kept beside the row cache.
    Buffer<unsigned char>& b = plan.extra_scratch;
    if (b.size() < bytes && !b.allocate(bytes)) return out_of_memory("resize scratch", bytes);
    buf[1] = reinterpret_cast<F*>(b.data());
  }

  for (int i = 0; i < plain; ++i) {
    const int a = plan.order[i];
    const AxisPlan& ap = plan.axis[a];
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < a; ++j) outer *= cur[j];
    for (int j = a + 1; j < rank; ++j) inner *= cur[j];
    const F* w = weights_of<F>(ap);
    const bool first = i == 0, final = !fuse && i + 1 == np;
    F* dst = final ? nullptr : buf[i % 2];
    const F* src = first ? nullptr : buf[(i + 1) % 2];
    if (first && final) resize_pass<T, Tout, F>(x, y, outer, inner, ap, w);
    else if (first) resize_pass<T, F, F>(x, dst, outer, inner, ap, w);
    else if (final) resize_pass<F, Tout, F>(src, y, outer, inner, ap, w);
    else resize_pass<F, F, F>(src, dst, outer, inner, ap, w);
    cur[a] = plan.out_dims[a];
  }
  if (!fuse) return Status::Ok();
  if constexpr (kResizeHotType<T>) {
    if (fuse_b) {
      const int v = plan.order[np - 2], h = plan.order[np - 1];
      if (plain == 0) return stream_outer_then_inner<Tout, F>(plan, x, y, cur, v, h);
      return stream_outer_then_inner<Tout, F>(plan, buf[(plain - 1) % 2], y, cur, v, h);
    }
  }
  const int h = plan.order[np - 2], v = plan.order[np - 1];
  if (plain == 0) return stream_last_two<T, Tout, F>(plan, x, y, cur, h, v);
  return stream_last_two<F, Tout, F>(plan, buf[(plain - 1) % 2], y, cur, h, v);
}

// Row 16 under compat 'onnxruntime': extrapolation_value converted as ONNX Runtime's
// static_cast<T>(float) does in wasm: 32- and 64-bit integers truncate and saturate; 8- and
// 16-bit signed types keep the low bits of the saturated int32, unsigned ones the low bits
// of the saturated uint32 (negative and NaN give 0).
template <typename T>
T compat_extrapolation(const ResizeAttrs& at) {
  const double v = at.extrapolation_value;
  if constexpr (std::is_integral<T>::value) {
    if (at.compat == Compat::OnnxRuntime) {
      const double t = std::trunc(static_cast<double>(static_cast<float>(v)));
      if (sizeof(T) >= 4) return saturate_round<T>(t);
      if (std::is_signed<T>::value) return static_cast<T>(saturate_round<int32_t>(t));
      return static_cast<T>(saturate_round<uint32_t>(t));
    }
  }
  return narrow<T>(v);
}

template <typename T>
Status execute_typed(const ResizePlan& plan, const TensorView& x, TensorView* y) {
  const T* xs = static_cast<const T*>(x.data);
  T* ys = static_cast<T*>(y->data);
  if (plan.attrs.mode == ResizeMode::Nearest) {
    // A bit copy whatever T is (resize_nearest.cpp).
    OSW_RETURN_IF_ERROR(gather_nearest(plan, sizeof(T), xs, ys));
  } else if (std::is_integral<T>::value && plan.attrs.compat != Compat::Onnx) {
    // compat (row 7): interpolate into the compute type, then round as that runtime does.
    using F = typename ElemTraits<T>::Compute;
    int64_t n = 1;
    for (int a = 0; a < plan.rank; ++a) n *= plan.out_dims[a];
    Buffer<F> tmp;
    if (!tmp.allocate(n)) return out_of_memory("compat rounding", n * int64_t(sizeof(F)));
    OSW_RETURN_IF_ERROR((interpolate<T, F>(plan, xs, tmp.data())));
    if constexpr (std::is_integral<T>::value) {
      const int mode = static_cast<int>(plan.attrs.compat);
      for (int64_t i = 0; i < n; ++i) ys[i] = round_integer_output<T>(mode, static_cast<double>(tmp[i]));
    }
  } else {
    bool done = false;
    if constexpr (std::is_same<T, uint8_t>::value) {
      // Exact in 16-bit integers for many linear plans (resize_fixed.h): same result.
      Status st;
      done = resize_u8_fixed(plan, xs, ys, &st);
      OSW_RETURN_IF_ERROR(st);
    }
    if (!done) OSW_RETURN_IF_ERROR(interpolate<T>(plan, xs, ys));
  }
  fill_outside<T>(plan, compat_extrapolation<T>(plan.attrs), ys);
  return Status::Ok();
}

}  // namespace resize_exec
}  // namespace osw
