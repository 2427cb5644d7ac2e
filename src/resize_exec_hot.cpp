// resize_exec_hot.cpp: Resize execution for float32 and uint8, compiled for speed.
#include "resize_exec.h"

namespace osw {

Status resize_execute_hot(const ResizePlan& plan, const TensorView& x, TensorView* y) {
  if (x.type == DType::Float32) return resize_exec::execute_typed<float>(plan, x, y);
  if (x.type == DType::UInt8) return resize_exec::execute_typed<uint8_t>(plan, x, y);
  return Status::Type("X: not a float32 or uint8 tensor");  // resize_execute never sends one
}

}  // namespace osw
