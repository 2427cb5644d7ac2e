// resize/params.h: Resize attributes, already opset-resolved, and the per-axis geometry
// (input length, output length, scale, roi) that the plan is built from.
//
// Opset differences (names, defaults, which inputs exist) are settled in the JS layer
// (bindings/api.js), which fills ResizeAttrs and ResizeInputs. Everything numeric that
// decides the output shape lives here: docs/semantics.md rows 3, 5, 6 and
// keep_aspect_ratio_policy.
#pragma once

#include "core/types.h"

namespace osw {

enum class ResizeMode : int32_t { Nearest = 0, Linear = 1, Cubic = 2 };

enum class CoordMode : int32_t {
  HalfPixel = 0,
  HalfPixelSymmetric = 1,
  PytorchHalfPixel = 2,
  AlignCorners = 3,
  Asymmetric = 4,
  TfHalfPixelForNN = 5,
  TfCropAndResize = 6,
};

enum class NearestMode : int32_t {
  RoundPreferFloor = 0,
  RoundPreferCeil = 1,
  Floor = 2,
  Ceil = 3,
  // Resize-10 states no rule; docs/semantics.md row 10: floor on an axis that upsamples
  // (scale >= 1), ceil on one that downsamples.
  Opset10 = 4,
};

enum class AspectPolicy : int32_t { Stretch = 0, NotLarger = 1, NotSmaller = 2 };

// Which other runtime to reproduce where the rows of docs/semantics.md differ (the "compat"
// option).
enum class Compat : int32_t { Onnx = 0, OnnxRuntime = 1, PyTorch = 2 };

struct ResizeAttrs {
  ResizeMode mode = ResizeMode::Nearest;
  CoordMode coord = CoordMode::HalfPixel;
  NearestMode nearest = NearestMode::RoundPreferFloor;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
  double extrapolation_value = 0.0;
  AspectPolicy policy = AspectPolicy::Stretch;
  Compat compat = Compat::Onnx;
};

// The optional inputs of a Resize node, per listed axis. axes lists distinct axes in
// [0, rank); when has_axes is false every axis is listed in order.
struct ResizeInputs {
  bool has_axes = false;
  int n_axes = 0;
  int32_t axes[kMaxRank] = {};
  bool has_scales = false;
  double scales[kMaxRank] = {};  // float32 values widened to double (row 6)
  bool has_sizes = false;
  int64_t sizes[kMaxRank] = {};
  bool has_roi = false;
  double roi[2 * kMaxRank] = {};  // [start_0..start_{n-1}, end_0..end_{n-1}]
};

// What the plan needs of one axis.
struct AxisGeometry {
  int64_t in = 1;
  int64_t out = 1;
  // The scale as a ratio num/den: a given float scale is num = scale, den = 1; a scale
  // derived from sizes is num = out, den = in exactly, so that coordinates computed as
  // x * den / num keep exact ties (row 2).
  double scale_num = 1.0;
  double scale_den = 1.0;
  double roi_start = 0.0;
  double roi_end = 1.0;

  double scale() const { return scale_num / scale_den; }
  // The unrounded output length scale * in (row 3), exact when sizes were given.
  double out_width() const { return static_cast<double>(in) * scale_num / scale_den; }
};

struct ResizeGeometry {
  int rank = 0;
  AxisGeometry axis[kMaxRank];
};

// Validates the inputs against X's dims and computes every axis' geometry, including the
// output shape. Messages name the input ("scales", "sizes", "roi", "axes").
Status resize_geometry(const ResizeAttrs& attrs, const ResizeInputs& inputs, int rank,
                       const int64_t* in_dims, ResizeGeometry* geo);

}  // namespace osw
