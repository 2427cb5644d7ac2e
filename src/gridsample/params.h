// gridsample/params.h: GridSample's attributes and the check of its shapes.
//
// The attributes arrive already opset-resolved: the JS layer maps opset 16's
// bilinear/bicubic names to Linear/Cubic and enforces opset 16's 4-D limit. The behaviour
// switches (integer rounding, ONNX Runtime's arithmetic) are attributes too.
#pragma once

#include "core/types.h"

namespace osw {

enum class GridMode : int32_t { Nearest = 0, Linear = 1, Cubic = 2 };
enum class PaddingMode : int32_t { Zeros = 0, Border = 1, Reflection = 2 };

struct GridSampleAttrs {
  GridMode mode = GridMode::Linear;
  PaddingMode padding = PaddingMode::Zeros;
  bool align_corners = false;
  // How integer outputs are rounded (the compat option): 0 half to even (ONNX), 1 toward
  // zero (ONNX Runtime), 2 half up (PyTorch); all saturate.
  int32_t integer_rounding = 0;
  // compat 'onnxruntime' (docs/ort-compat-findings.md, "GridSample"): ONNX Runtime 1.30's
  // coordinate arithmetic (gs::axis_taps_ort), and an X with an empty spatial axis rejected.
  bool ort = false;
};

// Checks x (rank r+2, r >= 1) against grid (N, D1_out..Dr_out, r) and sets y->rank and
// y->dims to (N, C, D1_out..Dr_out). Does not touch y->type or y->data.
Status gridsample_output_shape(const TensorView& x, const TensorView& grid, TensorView* y);

}  // namespace osw
