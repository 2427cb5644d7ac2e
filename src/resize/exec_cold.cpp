// resize/exec_cold.cpp: Resize execution for every type but float32 and uint8, compiled
// for size (-Os in CMakeLists.txt): float64 through the same templates as
// resize/exec_hot.cpp, every other type through conversions around the float32 or float64
// run (one instantiation of the kernels instead of one per type, for a smaller osw.wasm).
#include <cmath>

#include <algorithm>
#include <cstring>
#include "core/convert.h"

#include "resize/exec.h"

namespace osw {

// Every type but float32 and uint8 (hot) and float64 (the float64 steps themselves).
template <typename T>
constexpr bool kConvertedType = !kResizeHotType<T> && !std::is_same<T, double>::value;

// The converted types (RunLayout::convert): the nearest gather, and the
// widening of X before the float32 or float64 run (resize/resize.cpp runs its steps, and narrows
// the last one's output through resize_narrow_converted). 32-bit integers widen exactly to
// double.
template <typename T>
Status range_converted(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                       int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared) {
  if (begin >= end) return Status::Ok();
  if (lay.kind == RunLayout::Gather)
    return gather_nearest(plan, *lay.nearest, x.data, y->data, begin, end);
  if (!lay.convert || s != 0) return Status::Range("resize: a step this type does not run");
  const T* xs = static_cast<const T*>(x.data) + begin;
  if constexpr (std::is_integral<T>::value && sizeof(T) <= 2) {
    if (lay.convert_to == DType::Float64) {
      // (8- and 16-bit integers whose float32 error bound is large run in double,
      // resize/resize.cpp): widened to float in this range's own bytes, then to double in place,
      // from the end (double i covers floats 2i and 2i + 1, at or after float i)
      double* d = reinterpret_cast<double*>(shared->xf.data()) + begin;
      float* f = reinterpret_cast<float*>(d);
      widen_to_float(xs, f, end - begin);
      for (int64_t i = end - begin; i-- > 0;) d[i] = f[i];
      return Status::Ok();
    }
  }
  if constexpr (std::is_integral<T>::value && sizeof(T) == 4) {
    if (lay.convert_to == DType::Float32) {  // (run exactly in float32: resize/resize.cpp)
      widen_to_float(xs, reinterpret_cast<float*>(shared->xf.data()) + begin, end - begin);
      return Status::Ok();
    }
  }
  if constexpr (sizeof(typename ElemTraits<T>::Compute) == 8)
    widen_to_double(xs, reinterpret_cast<double*>(shared->xf.data()) + begin, end - begin);
  else
    widen_to_float(xs, reinterpret_cast<float*>(shared->xf.data()) + begin, end - begin);
  return Status::Ok();
}

// Y's elements [at, at + n) from src, as their own run stored them (core/elem.h), or with the
// compat rounding (row 7) for 32-bit integers.
void resize_narrow_converted(const ResizePlan& plan, const void* src, bool src_double,
                             TensorView* y, int64_t at, int64_t n) {
  const float* f = static_cast<const float*>(src);
  const double* d = static_cast<const double*>(src);
  const int mode = static_cast<int>(plan.attrs.compat);
  const int64_t es = dtype_size(y->type);
  if (src_double && es <= 2) {  // (8- and 16-bit integers that run in double)
    switch (y->type) {
      case DType::UInt8: narrow_from_double(d, static_cast<uint8_t*>(y->data) + at, n, mode); break;
      case DType::Int8: narrow_from_double(d, static_cast<int8_t*>(y->data) + at, n, mode); break;
      case DType::UInt16:
        narrow_from_double(d, static_cast<uint16_t*>(y->data) + at, n, mode);
        break;
      default: narrow_from_double(d, static_cast<int16_t*>(y->data) + at, n, mode); break;
    }
    return;
  }
  switch (y->type) {
    case DType::Float16: narrow_from_float(f, static_cast<Float16*>(y->data) + at, n); break;
    case DType::BFloat16: narrow_from_float(f, static_cast<BFloat16*>(y->data) + at, n); break;
    case DType::Bool: narrow_from_float(f, static_cast<Bool8*>(y->data) + at, n); break;
    case DType::UInt8: narrow_from_float(f, static_cast<uint8_t*>(y->data) + at, n, mode); break;
    case DType::Int8: narrow_from_float(f, static_cast<int8_t*>(y->data) + at, n, mode); break;
    case DType::Int16: narrow_from_float(f, static_cast<int16_t*>(y->data) + at, n, mode); break;
    case DType::UInt16: narrow_from_float(f, static_cast<uint16_t*>(y->data) + at, n, mode); break;
    case DType::Int32:
      if (src_double)
        narrow_from_double(d, static_cast<int32_t*>(y->data) + at, n, mode);
      else
        narrow_from_float(f, static_cast<int32_t*>(y->data) + at, n, mode);
      break;
    case DType::UInt32:
      if (src_double)
        narrow_from_double(d, static_cast<uint32_t*>(y->data) + at, n, mode);
      else
        narrow_from_float(f, static_cast<uint32_t*>(y->data) + at, n, mode);
      break;
    case DType::Int64: narrow_from_double(d, static_cast<int64_t*>(y->data) + at, n, mode); break;
    case DType::UInt64: narrow_from_double(d, static_cast<uint64_t*>(y->data) + at, n, mode); break;
    default: break;
  }
}

// compat 'onnxruntime', antialias on an integer type: the pass of step st recomputed over
// its units [begin, end) as ONNX Runtime 1.30 computes it (docs/ort-compat-findings.md row
// 7; its arithmetic as measured, the filter as ONNX Runtime's upsample_antialias.h defines it): per
// output o, center = 0.5 + x_orig(o) (float32, coord::onnxruntime), support = 1 (linear) or
// 2 (cubic) scaled by 1/s when downsampling, taps floor(center -+ support + 0.5) (at most
// 2 ceil(support) + 1), weights filter((i - center + 0.5) * min(s, 1)) in float32, those of
// taps outside the input added to the edge taps unless exclude_outside, normalised by
// their float32 sum. 8-bit types: weights rounded to multiples of 2^-22, sum in int32 from
// 2^21, >> 22, clamped to [0, 255] (int8 then keeps the low byte: 200 -> -56); other
// integers: the float32 sum rounded half away from zero, saturated. src: the step's input
// (src_kind 0: X's uint8 elements, 1 float, 2 double), out: its output (dbl: double, else
// float), both whole.
static Status ort_aa_pass(const ResizePlan& plan, DType type, const ResizeStep& st, const void* src,
                          int src_kind, void* out, bool dbl, int64_t begin, int64_t end) {
  const int a = st.a;
  const AxisGeometry& g = plan.geo.axis[a];
  const int64_t in = st.dims[a], n_out = plan.out_dims[a];
  int64_t inner = 1;
  for (int j = a + 1; j < plan.rank; ++j) inner *= st.dims[j];
  const bool cubic = plan.attrs.mode == ResizeMode::Cubic, excl = plan.attrs.exclude_outside;
  const float ca = static_cast<float>(plan.attrs.cubic_a);
  const float scale = 1.0f / static_cast<float>(g.scale());
  const float half = cubic ? 2.0f : 1.0f;
  const float support = scale >= 1.0f ? half * scale : half;
  const float inv_scale = scale >= 1.0f ? 1.0f / scale : 1.0f;
  const int64_t window = static_cast<int64_t>(std::ceil(support)) * 2 + 1;
  Buffer<float> wt;
  Buffer<int64_t> span;
  const int64_t limit = plan.opts.max_bytes;
  if (!wt.allocate(n_out * window + window, limit) || !span.allocate(2 * n_out, limit))
    return out_of_memory("antialias weights", n_out * (window * 4 + 16), limit);
  float* buf = wt.data() + n_out * window;  // one output's raw weights
  for (int64_t o = 0; o < n_out; ++o) {
    const float center =
        0.5f + (scale == 1.0f
                    ? static_cast<float>(o)
                    : static_cast<float>(coord::onnxruntime(plan.attrs.coord, double(o), g)));
    // (a NaN or far-away centre, e.g. from a tf_crop_and_resize roi, has no taps to find:
    // clamped to +-2^40 before the conversion, which is otherwise undefined)
    const auto tap = [](float v) {
      return static_cast<int64_t>(
          !(v == v) ? 0.0f : std::min(std::max(v, -1099511627776.0f), 1099511627776.0f));
    };
    const int64_t lo_real = tap(std::floor(center - support + 0.5f));
    int64_t hi_real = tap(std::floor(center + support + 0.5f));
    hi_real = lo_real + std::min(std::max<int64_t>(hi_real - lo_real, 0), window);
    const int64_t lo_cut = std::min(std::max<int64_t>(lo_real, 0), in);
    const int64_t hi_cut = std::min(std::max<int64_t>(hi_real, 0), in);
    const int64_t lo = excl ? lo_cut : lo_real, cnt = (excl ? hi_cut : hi_real) - lo;
    float total = 0.0f;
    for (int64_t i = 0; i < cnt; ++i) {
      float t = std::fabs((static_cast<float>(i + lo) - center + 0.5f) * inv_scale);
      t = cubic ? (t < 1.0f   ? ((ca + 2.0f) * t - (ca + 3.0f)) * t * t + 1.0f
                   : t < 2.0f ? (((t - 5.0f) * t + 8.0f) * t - 4.0f) * ca
                              : 0.0f)
                : (t < 1.0f ? 1.0f - t : 0.0f);
      buf[i] = t;
      total += t;
    }
    if (!excl && lo_cut < hi_cut) {
      const int64_t neg = std::min(std::max<int64_t>(-lo, 0), cnt - 1);
      for (int64_t i = 0; i < neg; ++i) buf[neg] += buf[i];
      const int64_t past = std::min(std::max<int64_t>(cnt + lo - in, 0), cnt - 1);
      for (int64_t i = cnt - past; i < cnt; ++i) buf[cnt - past - 1] += buf[i];
      if ((neg | past) > 0)
        for (int64_t i = 0; i < hi_cut - lo_cut; ++i) buf[i] = buf[i + neg];
    }
    const float inv = total == 0.0f ? 1.0f : 1.0f / total;
    for (int64_t i = 0; i < hi_cut - lo_cut; ++i) wt[o * window + i] = buf[i] * inv;
    span[2 * o] = lo_cut;
    span[2 * o + 1] = hi_cut;
  }
  const bool eight = type == DType::UInt8 || type == DType::Int8;
  // the type's range (int32's as ONNX Runtime's saturating cast in wasm; the other types,
  // which ONNX Runtime does not resize, as storing them does)
  const int bits = 8 * int(dtype_size(type));
  const bool is_signed = type == DType::Int16 || type == DType::Int32 || type == DType::Int64;
  const double lo_t = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi_t = is_signed ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
  const int64_t per_unit = inner == 1 ? n_out : inner;
  for (int64_t u = begin; u < end; ++u) {
    // unit u: a row of n_out outputs (inner == 1), else the inner elements of output row u
    for (int64_t e = 0; e < per_unit; ++e) {
      const int64_t o = inner == 1 ? e : u % n_out, k = inner == 1 ? 0 : e;
      const int64_t p = inner == 1 ? u : u / n_out;
      const float* w = wt.data() + o * window;
      int32_t acc8 = 1 << 21;
      float accf = 0.0f;
      for (int64_t i = span[2 * o]; i < span[2 * o + 1]; ++i, ++w) {
        const int64_t at = (p * in + i) * inner + k;
        const double v = src_kind == 0   ? static_cast<const uint8_t*>(src)[at]
                         : src_kind == 1 ? double(static_cast<const float*>(src)[at])
                                         : static_cast<const double*>(src)[at];
        if (eight) {
          // ONNX Runtime's int arithmetic as wasm runs it: the weight's conversion saturates
          // and the sum wraps (an extreme cubic_coeff_a overflows it; no undefined behaviour here)
          const float fw = std::round(*w * 4194304.0f);
          const int32_t wi = !(fw == fw)            ? 0
                             : fw >= 2147483648.0f  ? INT32_MAX
                             : fw <= -2147483648.0f ? INT32_MIN
                                                    : int32_t(fw);
          acc8 = int32_t(uint32_t(acc8) + uint32_t(int32_t(v)) * uint32_t(wi));
        } else
          accf += static_cast<float>(v) * *w;
      }
      double r = std::round(accf);  // half away from zero
      if (eight) {
        r = std::min(std::max(acc8 >> 22, 0), 255);
        if (type == DType::Int8 && r > 127) r -= 256;
      } else {
        // stored as the type before the next pass: saturated to its range (NaN -> 0)
        r = !(r == r) ? 0.0 : std::min(std::max(r, lo_t), hi_t);
      }
      const int64_t at = (p * n_out + o) * inner + k;
      if (dbl)
        static_cast<double*>(out)[at] = r;
      else
        static_cast<float*>(out)[at] = static_cast<float>(r);
    }
  }
  return Status::Ok();
}

Status resize_round_pass(const ResizePlan& plan, const RunLayout& lay, int s, const void* x,
                         void* y, ResizeWorkspace* shared, int64_t begin, int64_t end) {
  const DType type = lay.round_passes;
  if (type == DType::Undefined || s >= lay.sched->n) return Status::Ok();
  const ResizeStep& st = lay.sched->step[s];
  if (st.kind != ResizeStep::Pass) return Status::Ok();  // (a Copy copies integers)
  auto buf = [&](ResizeBuf b) -> void* {
    return b == ResizeBuf::Y   ? y
           : b == ResizeBuf::X ? const_cast<void*>(x)
                               : shared->tmp[b == ResizeBuf::TmpA ? 0 : 1].data();
  };
  const bool dbl = dtype_size(type) >= 4;  // computed in double (core/elem.h)
  const int src_kind = st.src == ResizeBuf::X && type == DType::UInt8 ? 0 : dbl ? 2 : 1;
  return ort_aa_pass(plan, type, st, buf(st.src), src_kind, buf(st.dst), dbl, begin, end);
}

Status resize_range_cold(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                         int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                         ResizeWorkspace* ws) {
  return dispatch_dtype(x.type, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (kResizeHotType<T>)
      return resize_range_hot(plan, lay, s, begin, end, x, y, shared, ws);
    else if constexpr (kConvertedType<T>)
      return range_converted<T>(plan, lay, s, begin, end, x, y, shared);
    else
      return resize_exec::range_typed<T>(plan, lay, s, begin, end, x, y, shared, ws);
  });
}

void resize_exec::fill_outside(const ResizePlan& plan, const void* value, size_t es, void* y) {
  unsigned char* yb = static_cast<unsigned char*>(y);
  for (int a = 0; a < plan.rank; ++a) {
    const AxisPlan& ap = plan.axis[a];
    if (!ap.any_outside) continue;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < a; ++i) outer *= plan.out_dims[i];
    for (int i = a + 1; i < plan.rank; ++i) inner *= plan.out_dims[i];
    const size_t bytes = size_t(inner) * es;
    for (int64_t p = 0; p < outer; ++p)
      for (int64_t o = 0; o < ap.out; ++o) {
        if (!ap.outside[o]) continue;
        // one element, then the filled part doubled until the block is full
        unsigned char* d = yb + size_t(p * ap.out + o) * bytes;
        if (bytes == 0) continue;
        std::memcpy(d, value, es);
        for (size_t done = es; done < bytes;) {
          const size_t n = std::min(done, bytes - done);
          std::memcpy(d + done, d, n);
          done += n;
        }
      }
  }
}

void resize_finish_cold(const ResizePlan& plan, TensorView* y) {
  dispatch_dtype(y->type, "Y", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (kResizeHotType<T>)
      resize_finish_hot(plan, y);
    else
      resize_exec::finish_typed<T>(plan, y);
    return Status::Ok();
  });
}

}  // namespace osw
