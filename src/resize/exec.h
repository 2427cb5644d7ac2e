// resize/exec.h: the typed execution of a Resize plan (internal to the library).
//
// Templates over the storage type T, included by two translation units so that the build
// can optimise them differently: resize/exec_hot.cpp instantiates float32 and uint8 (the
// types of models and images) for speed, resize/exec_cold.cpp every other type for size
// (CMakeLists.txt compiles it with -Os). Both compute the same results; only code size and
// speed differ.
//
// Execution follows the plan: the steps of a run on a type (RunLayout, resize/resize.cpp) are the
// nearest gather, or uint8's integer form, or the linear/cubic schedule the plan emitted
// (ResizeStep: which pass or streamed pair, from which named buffer to which), and, for
// integer types under a compat rounding, one more step. Each step runs over a range of its
// units, so that a run may be cut into parts; everything written besides Y is in the
// workspaces.
#pragma once

#include <algorithm>
#include <cstring>

#include "core/elem.h"
#include "resize/kernels.h"
#include "resize/kernels_fixed.h"
#include "resize/kernels_nearest.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

// The steps of a run of a plan on one type (run_layout in resize/resize.cpp).
struct RunLayout {
  enum Kind : int8_t { Gather, Fixed, Interp };
  Kind kind = Interp;
  const NearestTables* nearest = nullptr;  // Gather
  const ResizeSchedule* sched = nullptr;   // Interp
  // Interp for every type but float32, uint8 and float64 (to float32, core/convert.h, or to
  // float64 for 32- and 64-bit integers: their compute types): step 0 widens X into the shared
  // workspace's xf, steps 1..n are the float32 or float64 schedule's from xf, the last of them
  // narrowing its output into Y part by part (with the compat rounding of integers;
  // resize/resize.cpp).
  bool convert = false;
  DType convert_to = DType::Float32;
  // uint8 on the float path: like a converted run without the widening (X read as uint8),
  // its last step writes Y in float into y->data, part by part, narrowed by resize/resize.cpp with
  // the compat's rounding and the exact decisions of resize/exact.h.
  bool parts = false;
  int n_steps = 0;
  // compat 'onnxruntime', antialias on an integer type (docs/ort-compat-findings.md row 7):
  // that type, whose rounding each pass's output gets (resize_round_pass) before the next
  // pass reads it; else Undefined.
  DType round_passes = DType::Undefined;
};

// float32 and uint8: optimised for speed.
Status resize_range_hot(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                        int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                        ResizeWorkspace* ws);
void resize_finish_hot(const ResizePlan& plan, TensorView* y);
// Every other type: optimised for size.
Status resize_range_cold(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                         int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                         ResizeWorkspace* ws);
void resize_finish_cold(const ResizePlan& plan, TensorView* y);
// A converted run's last step: n elements of Y from `at` on, from src (n elements in the
// compute type: float32, or float64 for 32-bit integers), stored as Y's type stores them.
// (src_double: 8- and 16-bit integers that run in double.)
void resize_narrow_converted(const ResizePlan& plan, const void* src, bool src_double,
                             TensorView* y, int64_t at, int64_t n);
// RunLayout::round_passes, after step s of the schedule ran over its units [begin, end):
// those outputs (in the compute type; x: the run's X as the schedule reads it, y: the
// step's output when it is Y, else the shared intermediates) recomputed with ONNX Runtime's
// integer antialias arithmetic, each pass rounded and stored as that type before the next
// reads it (resize/exec_cold.cpp, compiled for size).
Status resize_round_pass(const ResizePlan& plan, const RunLayout& lay, int s, const void* x,
                         void* y, ResizeWorkspace* shared, int64_t begin, int64_t end);

template <typename T>
constexpr bool kResizeHotType = std::is_same<T, float>::value || std::is_same<T, uint8_t>::value;

namespace resize_exec {

// Fills every output whose coordinate lies outside the crop box with the es bytes at value
// (one element of Y's type). Byte-wise, so one copy serves every type (a crop box is rare
// and its fill is no hot loop).
void fill_outside(const ResizePlan& plan, const void* value, size_t es, void* y);

template <typename F>
const F* weights_of(const AxisPlan& ap) {
  if constexpr (std::is_same<F, float>::value)
    return ap.weight_f.data();
  else
    return ap.weight.data();
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

// The last two passes, inner axis h first, then outer axis v (v < h), fused and streamed
// (ResizeStep::StreamLast): each output row of v (a block of everything after v) blends a
// few rows of h's result, and those rows are computed on demand into a small cache, one
// input row at a time. The intermediate tensor between the two passes never exists:
// ws->rows holds K_v rows, and the rows are still in cache when they are blended. Same
// arithmetic as the two passes. Units [begin, end): output rows of v (outer_v * out_v).
template <typename Tin, typename T, typename F>
Status stream_last_two(const ResizePlan& plan, const ResizeStep& st, const Tin* src, T* y,
                       int64_t begin, int64_t end, ResizeWorkspace* ws) {
  const int h = st.h, v = st.v;
  const AxisPlan& ph = plan.axis[h];
  const AxisPlan& pv = plan.axis[v];
  const PairShape sh = pair_shape(plan, st.dims, v, h);
  const int64_t block_in = sh.block_in, block_mid = sh.block_out;
  const int64_t outer_h = sh.outer_h, inner_h = sh.inner_h;
  const int K = pv.taps;
  // An input row of a narrower type (uint8) is widened into one more row of F first, then
  // passed as F: the float kernels (shuffles, channels, 4 rows), and no pass of its own.
  constexpr bool widen_first = !std::is_same<Tin, F>::value;
  if (K > kMaxStreamTaps) return Status::Range("resize: filter too wide to stream");
#if OSW_HAVE_SIMD
  // Exact 2x downscaling of both axes before 3 or 4 channels (channels-last RGB, RGBA): one
  // pass over each two rows, the same operations in the same order, and no row cache.
  if constexpr (std::is_same<F, float>::value && std::is_same<T, float>::value &&
                std::is_same<Tin, float>::value) {
    if (down2x2_rows(pv, ph, true, inner_h, outer_h, src, y, begin, end, block_in, block_mid))
      return Status::Ok();
  }
#endif
  const int64_t bytes = (K * block_mid + (widen_first ? block_in : 0)) * int64_t(sizeof(F));
  if (ws->rows.size() < bytes && !ws->rows.allocate(bytes, plan.opts.max_bytes))
    return out_of_memory("resize row cache", bytes, plan.opts.max_bytes);
  F* cache = reinterpret_cast<F*>(ws->rows.data());
  F* wide = cache + K * block_mid;
  RowSlots<F> cached(cache, block_mid, K);
  const F* wh = weights_of<F>(ph);
  const F* wv = weights_of<F>(pv);
  const F* rows[kMaxStreamTaps];
  for (int64_t u = begin; u < end;) {
    const int64_t p = u / pv.out, o_end = std::min(pv.out, end - p * pv.out);
    cached.reset();
    const Tin* sp = src + p * pv.in * block_in;
    T* yp = y + p * pv.out * block_mid;
    auto fill = [&](int64_t row, F* dst) {
      if constexpr (widen_first) {
        widen_row<Tin, F>(sp + row * block_in, wide, block_in);
        resize_pass<F, F, F>(wide, dst, outer_h, inner_h, ph, wh, &ws->strip, plan.opts.max_bytes);
      } else {
        resize_pass<Tin, F, F>(sp + row * block_in, dst, outer_h, inner_h, ph, wh, &ws->strip,
                               plan.opts.max_bytes);
      }
    };
    for (int64_t o = u - p * pv.out; o < o_end; ++o) {
      const int n = pv.count[o];
      const int32_t* idx = pv.index.data() + o * K;
      for (int k = 0; k < n; ++k) rows[k] = cached.get(idx[k], fill);
      blend_rows_into<T, F>(rows, wv + o * K, n, yp + o * block_mid, block_mid);
    }
    u = p * pv.out + o_end;
  }
  return Status::Ok();
}

// The last two passes, outer axis v first, then inner axis h (v < h; ResizeStep::
// StreamGroup): kGroup output rows of v (each a block of everything after v) are blended
// into a small buffer (ws->rows), and h's pass runs on that group at once, writing kGroup
// rows of Y. The intermediate tensor between the two passes never exists, and h's pass
// sees several rows (the 4-row transposed kernel applies when h is innermost; float32 then
// overlaps the next group's blend with this group's h pass, see below). Same arithmetic as
// the two whole passes: blend_rows_into computes each element as resize_pass does, and the
// 4-row kernel gives the scalar loop's bytes, so a group may start at any row.
// Units [begin, end): output rows of v (outer_v * out_v).
template <typename T, typename F, typename Tin>
Status stream_outer_then_inner(const ResizePlan& plan, const ResizeStep& st, const Tin* src, T* y,
                               int64_t begin, int64_t end, ResizeWorkspace* ws) {
  constexpr int64_t kGroup = 4;
  const int v = st.v, h = st.h;
  const AxisPlan& pv = plan.axis[v];
  const AxisPlan& ph = plan.axis[h];
  const PairShape sh = pair_shape(plan, st.dims, v, h);
  const int64_t block_in = sh.block_in, block_out = sh.block_out;
  const int64_t outer_h = sh.outer_h, inner_h = sh.inner_h;
  // Two groups when the h pass is the 4-row kernel (below), else one.
  bool overlap = false;
#if OSW_HAVE_SIMD
  float* strip = nullptr;
  if constexpr (std::is_same<F, float>::value && std::is_same<T, float>::value &&
                std::is_same<Tin, float>::value) {
    // Exact 2x downscaling on both axes: one pass, no row group (down2x2_row).
    if (down2x2_rows(pv, ph, false, inner_h, outer_h, src, y, begin, end, block_in, block_out))
      return Status::Ok();
    overlap = inner_h == 1 && outer_h == 1 && !mostly_dense(ph) && pv.out >= 2 * kGroup &&
              (strip = rows4_strip(ph, &ws->strip, plan.opts.max_bytes)) != nullptr;
  }
#endif
  const int K = pv.taps;
  // A uint8 X whose rows v reads more than once per element (upsampling, or a filter wider
  // than its stride, as antialias is): each row widened once into a cache of K rows after
  // the group, then blended as floats, the same products and sums. (In V8, widening every
  // row again for each output row it feeds took 75% of uint8 RGB cubic antialias 1080p ->
  // 540p.) uint8 X only (its runs write float: RunLayout::parts): one copy of this code.
  constexpr bool kWiden = std::is_same<Tin, uint8_t>::value;
  bool widen_v = kWiden && pv.out * int64_t(K) > pv.in && K <= kMaxStreamTaps;
  int64_t bytes = ((overlap ? 2 : 1) * kGroup + (widen_v ? K : 0)) * block_in * int64_t(sizeof(F));
  if (ws->rows.size() < bytes && !ws->rows.allocate(bytes, plan.opts.max_bytes)) {
    // Under a small allocation limit: one group, as without the overlap or the cache.
    // (Rarely reached: with v first, X itself is usually larger than two groups.)
    overlap = widen_v = false;
    bytes = kGroup * block_in * int64_t(sizeof(F));
    if (!ws->rows.allocate(bytes, plan.opts.max_bytes))
      return out_of_memory("resize row group", bytes, plan.opts.max_bytes);
  }
  F* group = reinterpret_cast<F*>(ws->rows.data());
  RowSlots<F> cached(group + kGroup * block_in, block_in, widen_v ? K : 1);
  const F* frows[kMaxStreamTaps];
  const F* wv = weights_of<F>(pv);
  const F* wh = weights_of<F>(ph);
  const Tin* rows[kMaxStreamTaps];
  if (K > kMaxStreamTaps) return Status::Range("resize: filter too wide to stream");
  for (int64_t u = begin; u < end;) {
    const int64_t p = u / pv.out, o_first = u - p * pv.out;
    const int64_t o_last = std::min(pv.out, end - p * pv.out);
    u = p * pv.out + o_last;
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
        // of a row are faster than unsplit groups, whole rows per part, and 128 or 64
        // elements (docs/performance.md, "Resize kernels").
        // Same sums as the loop below.
        float* t = strip;
        F* cur = group;
        F* next = group + kGroup * block_in;
        const int64_t first = std::min(kGroup, o_last - o_first);
        for (int64_t j = 0; j < first; ++j) blend(o_first + j, cur + j * block_in, 0, block_in);
        const int64_t split = std::max<int64_t>(1, std::min<int64_t>(16, block_in / 256));
        const int64_t parts = kGroup * split;
        const int64_t quads = ph.out / 4;
        int64_t o0 = o_first;
        for (; o0 + kGroup <= o_last; o0 += kGroup) {
          rows4_transpose(cur, block_in, t);
          const int64_t rows_next = std::min(kGroup, o_last - (o0 + kGroup));
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
        if (o0 < o_last)  // the last rows (fewer than a group), blended above
          resize_pass<F, T, F>(cur, yp + o0 * block_out, o_last - o0, inner_h, ph, wh, &ws->strip,
                               plan.opts.max_bytes);
        continue;
      }
    }
#endif
    cached.reset();
    auto widen = [&](int64_t row, F* dst) {
      widen_row<Tin, F>(sp + row * block_in, dst, block_in);
    };
    for (int64_t o0 = o_first; o0 < o_last; o0 += kGroup) {
      const int64_t g = std::min(kGroup, o_last - o0);
      for (int64_t j = 0; j < g; ++j) {
        if constexpr (kWiden) {
          if (widen_v) {
            const int64_t o = o0 + j;
            const int n = pv.count[o];
            const int32_t* idx = pv.index.data() + o * K;
            for (int k = 0; k < n; ++k) frows[k] = cached.get(idx[k], widen);
            blend_rows_into<F, F>(frows, wv + o * K, n, group + j * block_in, block_in);
            continue;
          }
        }
        blend(o0 + j, group + j * block_in, 0, block_in);
      }
      resize_pass<F, T, F>(group, yp + o0 * block_out, g * outer_h, inner_h, ph, wh, &ws->strip,
                           plan.opts.max_bytes);
    }
  }
  return Status::Ok();
}

// Units [begin, end) of a plain pass along axis st.a, src -> dst: output rows (outer * out)
// along an inner axis, rows (outer) along the innermost one. A whole run is one call.
template <typename Tin, typename Tout, typename F>
Status pass_range(const ResizePlan& plan, const ResizeStep& st, const Tin* src, Tout* dst,
                  int64_t begin, int64_t end, ResizeWorkspace* ws) {
  const AxisPlan& ap = plan.axis[st.a];
  int64_t inner = 1;
  for (int j = st.a + 1; j < plan.rank; ++j) inner *= st.dims[j];
  const F* w = weights_of<F>(ap);
  if constexpr (!std::is_same<Tin, F>::value) {
    // uint8 X (the only type whose steps read X in another type than F) has no pass of its
    // own (it would add to the download): along the innermost axis its rows are widened, a few
    // at a time, into ws->rows and passed as F (its kernels: the 4-row, shuffle and
    // channels forms); along an outer axis each output row blends its input rows, widening
    // as it loads (blend_rows_into, as streamed pairs do). The same products and sums.
    const int K = ap.taps;
    if (inner == 1) {
      // (at least 4 rows, for the 4-row kernel; about 64 kB; fewer under a small maxBytes)
      const int64_t row_bytes = std::max<int64_t>(1, ap.in) * int64_t(sizeof(F));
      const int64_t batch = std::min(std::max<int64_t>(4, (int64_t(1) << 16) / row_bytes),
                                     std::max<int64_t>(1, plan.opts.max_bytes / row_bytes));
      const int64_t rows = std::min(batch, end - begin), bytes = rows * row_bytes;
      if (ws->rows.size() < bytes && !ws->rows.allocate(bytes, plan.opts.max_bytes))
        return out_of_memory("resize rows", bytes, plan.opts.max_bytes);
      F* wide = reinterpret_cast<F*>(ws->rows.data());
      for (int64_t r = begin; r < end; r += rows) {
        const int64_t n = std::min(rows, end - r);
        widen_row<Tin, F>(src + r * ap.in, wide, n * ap.in);
        resize_pass<F, Tout, F>(wide, dst + r * ap.out, n, 1, ap, w, &ws->strip,
                                plan.opts.max_bytes);
      }
      return Status::Ok();
    }
    const int64_t bytes = K * int64_t(sizeof(const Tin*));
    if (ws->rows.size() < bytes && !ws->rows.allocate(bytes, plan.opts.max_bytes))
      return out_of_memory("resize rows", bytes, plan.opts.max_bytes);
    const Tin** rows = reinterpret_cast<const Tin**>(ws->rows.data());
    for (int64_t u = begin; u < end; ++u) {
      const int64_t p = u / ap.out, o = u - p * ap.out;
      const int n = ap.count[o];
      const int32_t* idx = ap.index.data() + o * K;
      for (int k = 0; k < n; ++k) rows[k] = src + (p * ap.in + idx[k]) * inner;
      blend_rows_into<Tout, F>(rows, w + o * K, n, dst + u * inner, inner);
    }
    return Status::Ok();
  }
  if (inner == 1) {
    resize_pass<Tin, Tout, F>(src + begin * ap.in, dst + begin * ap.out, end - begin, 1, ap, w,
                              &ws->strip, plan.opts.max_bytes);
    return Status::Ok();
  }
  for (int64_t u = begin; u < end;) {
    const int64_t p = u / ap.out, o = u - p * ap.out;
    const Tin* sp = src + p * ap.in * inner;
    Tout* dp = dst + p * ap.out * inner;
    if (o == 0 && end - u >= ap.out) {  // whole planes
      const int64_t q = (end - u) / ap.out;
      resize_pass<Tin, Tout, F>(sp, dp, q, inner, ap, w, &ws->strip, plan.opts.max_bytes);
      u += q * ap.out;
    } else {
      const int64_t o_end = std::min(ap.out, o + (end - u));
      resize_pass<Tin, Tout, F>(sp, dp, 1, inner, ap, w, &ws->strip, plan.opts.max_bytes, o, o_end);
      u += o_end - o;
    }
  }
  return Status::Ok();
}

// Units [begin, end) of one step of the linear/cubic schedule. T is the storage type of X,
// Tout that of the step's output when it is Y (T, or F before a compat rounding), F the
// compute type; TmpA and TmpB are whole intermediates in F, in the shared workspace.
template <typename T, typename Tout>
Status interp_step(const ResizePlan& plan, const ResizeStep& st, const T* x, Tout* y,
                   ResizeWorkspace* shared, int64_t begin, int64_t end, ResizeWorkspace* ws) {
  using F = typename ElemTraits<T>::Compute;
  auto tmp = [&](ResizeBuf b) {
    return reinterpret_cast<F*>(shared->tmp[b == ResizeBuf::TmpA ? 0 : 1].data());
  };
  const bool from_x = st.src == ResizeBuf::X, to_y = st.dst == ResizeBuf::Y;
  switch (st.kind) {
    case ResizeStep::Copy:
      for (int64_t i = begin; i < end; ++i) y[i] = narrow<Tout>(widen<F>(x[i]));
      return Status::Ok();
    case ResizeStep::Pass:
      if (from_x && to_y) return pass_range<T, Tout, F>(plan, st, x, y, begin, end, ws);
      if (from_x) return pass_range<T, F, F>(plan, st, x, tmp(st.dst), begin, end, ws);
      if (to_y) return pass_range<F, Tout, F>(plan, st, tmp(st.src), y, begin, end, ws);
      return pass_range<F, F, F>(plan, st, tmp(st.src), tmp(st.dst), begin, end, ws);
    case ResizeStep::StreamGroup:
      if constexpr (kResizeHotType<T>) {
        if (from_x) return stream_outer_then_inner<Tout, F>(plan, st, x, y, begin, end, ws);
        return stream_outer_then_inner<Tout, F>(plan, st, tmp(st.src), y, begin, end, ws);
      }
      break;  // never planned for these types (ResizePlan::schedule[0])
    case ResizeStep::StreamLast:
      if (from_x) return stream_last_two<T, Tout, F>(plan, st, x, y, begin, end, ws);
      return stream_last_two<F, Tout, F>(plan, st, tmp(st.src), y, begin, end, ws);
  }
  return Status::Range("resize: a step this type does not run");
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

// Units [begin, end) of step s of a run on T (RunLayout).
template <typename T>
Status range_typed(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin, int64_t end,
                   const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                   ResizeWorkspace* ws) {
  const T* xs = static_cast<const T*>(x.data);
  T* ys = static_cast<T*>(y->data);
  if (begin >= end) return Status::Ok();
  if (lay.kind == RunLayout::Gather) {
    // A bit copy whatever T is (resize/kernels_nearest.cpp).
    return gather_nearest(plan, *lay.nearest, xs, ys, begin, end);
  }
  if constexpr (std::is_same<T, uint8_t>::value) {
    // Exact in 16-bit integers for many linear plans (resize/kernels_fixed.h): same result.
    if (lay.kind == RunLayout::Fixed) return resize_u8_fixed(plan, xs, ys, begin, end, ws);
  }
  if constexpr (std::is_integral<T>::value) {
    // uint8 on the float path (RunLayout::parts; the only integer type that runs its own
    // steps): they write float, the last one into y->data, the caller's part buffer, which
    // resize/resize.cpp narrows with the compat's rounding and exact decisions (resize/exact.h).
    using F = typename ElemTraits<T>::Compute;
    return interp_step<T, F>(plan, lay.sched->step[s], xs, static_cast<F*>(y->data), shared, begin,
                             end, ws);
  } else {
    return interp_step<T, T>(plan, lay.sched->step[s], xs, ys, shared, begin, end, ws);
  }
}

// The last thing a run does: fills the outputs outside a crop box.
template <typename T>
void finish_typed(const ResizePlan& plan, TensorView* y) {
  const T value = compat_extrapolation<T>(plan.attrs);
  fill_outside(plan, &value, sizeof(T), y->data);
}

}  // namespace resize_exec
}  // namespace osw
