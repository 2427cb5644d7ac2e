// resize_exec_cold.cpp: Resize execution for every type but float32 and uint8, compiled
// for size (-Oz in CMakeLists.txt): the same templates as resize_exec_hot.cpp.
#include "resize_exec.h"

namespace osw {

Status resize_range_cold(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                         int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                         ResizeWorkspace* ws) {
  return dispatch_dtype(x.type, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (kResizeHotType<T>) return resize_range_hot(plan, lay, s, begin, end, x, y, shared, ws);
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
