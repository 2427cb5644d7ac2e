// resize_exec_cold.cpp: Resize execution for every type but float32 and uint8, compiled
// for size (-Oz in CMakeLists.txt): the same templates as resize_exec_hot.cpp.
#include "convert.h"
#include "resize_exec.h"

namespace osw {

template <typename T>
constexpr bool kConvertedType = std::is_same<T, Float16>::value || std::is_same<T, BFloat16>::value ||
                                std::is_same<T, Bool8>::value || std::is_same<T, int32_t>::value ||
                                std::is_same<T, uint32_t>::value;

// float16, bfloat16, bool, int32, uint32 (RunLayout::convert): the nearest gather, and the
// two conversion steps around the float32 or float64 run (resize.cpp runs the steps between
// them). 32-bit integers widen exactly to double and narrow as elem.h stores them, or with
// the compat rounding (row 7), as their own run did.
template <typename T>
Status range_converted(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                       int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared) {
  if (begin >= end) return Status::Ok();
  if (lay.kind == RunLayout::Gather)
    return gather_nearest(plan, *lay.nearest, x.data, y->data, begin, end);
  if (!lay.convert) return Status::Range("resize: a step this type does not run");
  if constexpr (std::is_integral<T>::value) {
    double* xd = reinterpret_cast<double*>(shared->xf.data());
    const double* yd = reinterpret_cast<const double*>(shared->wide.data());
    if (s == 0)
      widen_to_double(static_cast<const T*>(x.data) + begin, xd + begin, end - begin);
    else
      narrow_from_double(yd + begin, static_cast<T*>(y->data) + begin, end - begin,
                         static_cast<int>(plan.attrs.compat));
  } else {
    float* xf = reinterpret_cast<float*>(shared->xf.data());
    if (s == 0) {
      widen_to_float(static_cast<const T*>(x.data) + begin, xf + begin, end - begin);
    } else {
      const float* yf = reinterpret_cast<const float*>(shared->wide.data());
      narrow_from_float(yf + begin, static_cast<T*>(y->data) + begin, end - begin);
    }
  }
  return Status::Ok();
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
