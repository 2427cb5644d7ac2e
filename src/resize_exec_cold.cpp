// resize_exec_cold.cpp: Resize execution for every type but float32 and uint8, compiled
// for size (-Oz in CMakeLists.txt): float64 through the same templates as
// resize_exec_hot.cpp, every other type through conversions around the float32 or float64
// run (one instantiation of the kernels instead of one per type: 4.5 kB less gzipped).
#include "convert.h"
#include "resize_exec.h"

namespace osw {

// Every type but float32 and uint8 (hot) and float64 (the float64 steps themselves).
template <typename T>
constexpr bool kConvertedType = !kResizeHotType<T> && !std::is_same<T, double>::value;

// The converted types (RunLayout::convert): the nearest gather, and the
// widening of X before the float32 or float64 run (resize.cpp runs its steps, and narrows
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
    if (lay.convert_to == DType::Float64) {  // (a large float32 error bound: resize.cpp)
      double* xd = reinterpret_cast<double*>(shared->xf.data()) + begin;
      for (int64_t i = 0; i < end - begin; ++i) xd[i] = xs[i];
      return Status::Ok();
    }
  }
  if constexpr (sizeof(typename ElemTraits<T>::Compute) == 8)
    widen_to_double(xs, reinterpret_cast<double*>(shared->xf.data()) + begin, end - begin);
  else
    widen_to_float(xs, reinterpret_cast<float*>(shared->xf.data()) + begin, end - begin);
  return Status::Ok();
}

// Y's elements [at, at + n) from src, as their own run stored them (elem.h), or with the
// compat rounding (row 7) for 32-bit integers.
void resize_narrow_converted(const ResizePlan& plan, const void* src, bool src_double, TensorView* y,
                             int64_t at, int64_t n) {
  const float* f = static_cast<const float*>(src);
  const double* d = static_cast<const double*>(src);
  const int mode = static_cast<int>(plan.attrs.compat);
  if (src_double && dtype_size(y->type) <= 2) {  // 8- and 16-bit integers run in double
    dispatch_dtype(y->type, "Y", [&](auto tag) -> Status {
      using T = decltype(tag);
      if constexpr (std::is_integral<T>::value && sizeof(T) <= 2)
        for (int64_t i = 0; i < n; ++i) static_cast<T*>(y->data)[at + i] = round_integer_output<T>(mode, d[i]);
      return Status::Ok();
    });
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
    case DType::Int32: narrow_from_double(d, static_cast<int32_t*>(y->data) + at, n, mode); break;
    case DType::UInt32: narrow_from_double(d, static_cast<uint32_t*>(y->data) + at, n, mode); break;
    case DType::Int64: narrow_from_double(d, static_cast<int64_t*>(y->data) + at, n, mode); break;
    case DType::UInt64: narrow_from_double(d, static_cast<uint64_t*>(y->data) + at, n, mode); break;
    default: break;
  }
}

Status resize_range_cold(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                         int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                         ResizeWorkspace* ws) {
  return dispatch_dtype(x.type, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (kResizeHotType<T>) return resize_range_hot(plan, lay, s, begin, end, x, y, shared, ws);
    else if constexpr (kConvertedType<T>) return range_converted<T>(plan, lay, s, begin, end, x, y, shared);
    else return resize_exec::range_typed<T>(plan, lay, s, begin, end, x, y, shared, ws);
  });
}

void resize_finish_cold(const ResizePlan& plan, TensorView* y) {
  dispatch_dtype(y->type, "Y", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (kResizeHotType<T>) resize_finish_hot(plan, y);
    else resize_exec::finish_typed<T>(plan, y);
    return Status::Ok();
  });
}

}  // namespace osw
