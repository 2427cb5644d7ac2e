// gridsample/coordinates.h: GridSample's coordinate maths, one pure function per step:
// unnormalising a grid value, reflection, the cubic weights, and the taps of one axis with
// padding resolved (the ONNX rules, and ONNX Runtime's arithmetic under compat
// 'onnxruntime'). Exposed for tests. Coordinates are in double; L is the length of one
// spatial axis of X.
#pragma once

#include "gridsample/params.h"

namespace osw {
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
// Exact for every finite x whose reflection lands on a representable value: beyond 2^52
// (where every double is an integer) x is reduced modulo the period 2 * (hi - lo) with
// fmod, which is exact, instead of through x - hi, which rounds there.
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

// compat 'onnxruntime': the taps of one axis from the grid value g as ONNX Runtime 1.30
// computes them, in the grid's type (float32 when g_f32, every operation rounded to it):
//   x = align_corners ? (g + 1) / 2 * (L - 1) : ((g + 1) * L - 1) / 2
//   NaN, +-Inf or |x| > 2^62 -> x = the lower border (-0.5, or 0 with align_corners)
//   nearest: nearbyint(x); linear: taps floor(x), floor(x) + 1 with the weights
//   (floor(x) + 1) - x and x - floor(x) in that type (a coordinate beyond 2^24 in float32
//   gives weights 0, 1 or 2); cubic: x0 = floor(x) - 1, t = |x - x0 - 1| in that type,
//   cubic_weights(t) on x0 .. x0 + 3. Then each tap is padded as axis_taps pads it.
void axis_taps_ort(GridMode mode, PaddingMode padding, bool align_corners, int64_t L, double g,
                   bool g_f32, AxisTaps* out);

// compat 'onnxruntime': axis_taps_ort's coordinate x of grid value g (NaN, +-Inf or
// |x| > 2^62 replaced by the lower border).
double ort_coordinate(bool align_corners, int64_t L, double g, bool g_f32);

// The taps of one axis from the grid value g (g_f32: the grid is float32): axis_taps of
// unnormalize(g), or under attrs.ort axis_taps_ort.
void grid_axis_taps(const GridSampleAttrs& attrs, int64_t L, double g, bool g_f32, AxisTaps* out);

}  // namespace gs
}  // namespace osw
