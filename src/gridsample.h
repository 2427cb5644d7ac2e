// gridsample.h: the GridSample operator (opsets 16, 20, 22) on any rank r+2 with r >= 1.
//
// Layers (STYLE.md): the attributes arrive here already opset-resolved (the JS layer maps
// opset 16's bilinear/bicubic names to Linear/Cubic and enforces opset 16's 4-D limit).
// gridsample_output_shape() validates shapes; gridsample() computes, per output location,
// the taps (flat input offsets and weights, padding resolved) once, and reuses them for
// all C channels, whose loop only gathers, multiplies and adds. Float32 X with 2 spatial
// dims in linear or cubic mode has a faster path for the locations whose whole 2x2 / 4x4
// footprint lies inside X (see gridsample.cpp).
#pragma once

#include "common.h"

namespace osw {

enum class GridMode : int32_t { Nearest = 0, Linear = 1, Cubic = 2 };
enum class PaddingMode : int32_t { Zeros = 0, Border = 1, Reflection = 2 };

struct GridSampleAttrs {
  GridMode mode = GridMode::Linear;
  PaddingMode padding = PaddingMode::Zeros;
  bool align_corners = false;
  // How integer outputs are rounded (SEMANTICS.md row 7, the compat option): 0 half to
  // even (ONNX), 1 toward zero (ONNX Runtime), 2 half up (PyTorch); all saturate.
  int32_t integer_rounding = 0;
};

// Checks x (rank r+2, r >= 1) against grid (N, D1_out..Dr_out, r) and sets y->rank and
// y->dims to (N, C, D1_out..Dr_out). Does not touch y->type or y->data.
Status gridsample_output_shape(const TensorView& x, const TensorView& grid, TensorView* y);

// Computes y from x and grid. y->dims must be what gridsample_output_shape gave, y->type
// equal to x.type, and y->data hold y->elements() elements. grid.type is Float32 or
// Float64 whatever x.type is.
Status gridsample(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                  TensorView* y);

// The coordinate maths of GridSample, one pure function per step, exposed for tests.
// Coordinates are in double; L is the length of one spatial axis of X.
namespace gs {

// Grid value g in [-1, 1] -> pixel coordinate on an axis of length L:
//   align_corners=1: x = (g + 1) / 2 * (L - 1)   (-1 and 1 are the corner pixels' centres)
//   align_corners=0: x = ((g + 1) * L - 1) / 2   (-1 and 1 are the corner pixels' outer edges)
// +-Inf gives +-Inf (far out of bounds), even for L = 1 with align_corners=1.
double unnormalize(double g, int64_t L, bool align_corners);

// The borders that padding_mode=reflection reflects about: [-0.5, L - 0.5] for
// align_corners=0, [0, L - 1] for align_corners=1.
void reflection_bounds(int64_t L, bool align_corners, double* lo, double* hi);

// Reflects x about lo and hi until it lies in [lo, hi] (spec: -3.5 with borders -1 and 1
// becomes 1.5, then 0.5), in O(1) with fmod. hi == lo gives lo; +-Inf gives the nearer
// border (reflection treats an infinite coordinate as border padding does); NaN stays NaN.
double reflect(double x, double lo, double hi);

// Cubic convolution weights, A = -0.75, for the taps floor(x) - 1 .. floor(x) + 2 where
// t = x - floor(x): w = [k(t + 1), k(t), k(1 - t), k(2 - t)] with
//   k(s) = (A + 2)|s|^3 - (A + 3)|s|^2 + 1         for |s| <= 1,
//          A|s|^3 - 5A|s|^2 + 8A|s| - 4A           for 1 < |s| < 2, else 0.
void cubic_weights(double t, double w[4]);

// The taps of one axis for one unnormalized coordinate x, padding resolved: each index is
// in [0, L - 1] and appears once (taps that padding sends to the same pixel are merged);
// with zeros padding, out-of-bounds taps are dropped, so count may be 0. Never converts an
// out-of-range double to an integer, whatever x is. NaN x or L <= 0 gives count 0.
//   nearest: index nearbyint(x) (half to even), then padded.
//   linear:  border clamps x to [0, L-1], reflection reflects x into reflection_bounds;
//            taps floor(x), floor(x) + 1 with weights 1 - t, t; each tap index padded.
//   cubic:   x itself is not padded; 4 taps (cubic_weights), each tap index padded.
//   +-Inf:   zeros -> no taps; border and reflection -> the edge pixel.
struct AxisTaps {
  int count = 0;
  int64_t index[4] = {};
  double weight[4] = {};
};
void axis_taps(GridMode mode, PaddingMode padding, bool align_corners, int64_t L, double x,
               AxisTaps* out);

// gridsample() with its internal choices forced, so that tests can cover them on small
// inputs: block = output locations planned at a time (0: automatic), wide_offsets = use
// int64 input offsets even where int32 would do (except in wasm32 builds for elements of 2
// bytes or more, which have no int64 kernels: see dispatch_offsets), generic = plan and
// compute every location with the generic (any rank) planner and kernel, never the 2-D
// fast path of float32 X (gridsample.cpp explains that path and the order in which it sums).
struct Tuning {
  int64_t block = 0;
  bool wide_offsets = false;
  bool generic = false;
};
Status gridsample_tuned(const GridSampleAttrs& attrs, const TensorView& x,
                        const TensorView& grid, TensorView* y, const Tuning& tuning);

}  // namespace gs

}  // namespace osw
