// resize_exec_cold.cpp: Resize execution for every type but float32 and uint8, compiled
// for size (-Os in CMakeLists.txt): the same templates as resize_exec_hot.cpp.
#include "resize_exec.h"

namespace osw {

Status resize_execute_cold(const ResizePlan& plan, const TensorView& x, TensorView* y) {
  return dispatch_dtype(x.type, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (kResizeHotType<T>) return resize_execute_hot(plan, x, y);
    else return resize_exec::execute_typed<T>(plan, x, y);
  });
}

}  // namespace osw
