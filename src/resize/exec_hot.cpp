// resize/exec_hot.cpp: Resize execution for float32 and uint8, compiled for speed.
#include "resize/exec.h"

namespace osw {

Status resize_range_hot(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                        int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                        ResizeWorkspace* ws) {
  if (x.type == DType::Float32)
    return resize_exec::range_typed<float>(plan, lay, s, begin, end, x, y, shared, ws);
  if (x.type == DType::UInt8)
    return resize_exec::range_typed<uint8_t>(plan, lay, s, begin, end, x, y, shared, ws);
  return Status::Type("X: not a float32 or uint8 tensor");  // resize_execute never sends one
}

void resize_finish_hot(const ResizePlan& plan, TensorView* y) {
  if (y->type == DType::Float32)
    resize_exec::finish_typed<float>(plan, y);
  else if (y->type == DType::UInt8)
    resize_exec::finish_typed<uint8_t>(plan, y);
}

}  // namespace osw
