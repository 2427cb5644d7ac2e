// resize_plan.h: the coordinate maths of Resize, evaluated once per axis into tables.
//
// Each coordinate_transformation_mode is a pure function (output index -> input
// coordinate) with the spec formula in its comment. build_axis_plan() evaluates the chosen
// function for every output index of an axis and turns it into taps: input indices
// (clamped, so edges are resolved here) and weights (normalised; exclude_outside and
// antialias applied here), plus a mask of outputs that lie outside the crop box of
// tf_crop_and_resize and take extrapolation_value. The kernels only gather, multiply, add.
#pragma once

#include "common.h"
#include "resize_params.h"

namespace osw {

namespace coord {
// All take the output index x and the axis geometry and return the input coordinate.
// s = scale (num/den, see AxisGeometry), L_in = input length, L_out = output length,
// W = unrounded output length s * L_in.

// (x + 0.5) / s - 0.5
double half_pixel(double x, const AxisGeometry& g);
// offset + (x + 0.5) / s - 0.5, offset = L_in / 2 * (1 - L_out / W)
double half_pixel_symmetric(double x, const AxisGeometry& g);
// L_out > 1 ? (x + 0.5) / s - 0.5 : 0   (row 4: 0 for a single output, as the spec says)
double pytorch_half_pixel(double x, const AxisGeometry& g);
// W == 1 ? 0 : x * (L_in - 1) / (W - 1)   (row 3: W unrounded)
double align_corners(double x, const AxisGeometry& g);
// x / s
double asymmetric(double x, const AxisGeometry& g);
// (x + 0.5) / s
double tf_half_pixel_for_nn(double x, const AxisGeometry& g);
// L_out > 1 ? start * (L_in - 1) + x * (end - start) * (L_in - 1) / (L_out - 1)
//           : 0.5 * (start + end) * (L_in - 1)
double tf_crop_and_resize(double x, const AxisGeometry& g);

using Fn = double (*)(double, const AxisGeometry&);
Fn select(CoordMode mode);

// compat 'onnxruntime' (row 2 and 3): ONNX Runtime's formulas, every operation rounded
// to float32, dividing by the float32 scale; align_corners with the integer output length.
double onnxruntime(CoordMode mode, double x, const AxisGeometry& g);
}  // namespace coord

// compat 'onnxruntime': nearest index as ONNX Runtime picks it from its float32 coordinate:
// round_prefer_floor/ceil take anything within 1e-6 of k + 0.5 as the tie and otherwise
// round half away from zero; floor/ceil exact; Resize-10 ceil when downsampling, else trunc.
int64_t nearest_index_onnxruntime(double x, NearestMode mode, double scale);

// Nearest index (before clamping) of input coordinate x under a nearest_mode.
int64_t nearest_index(double x, NearestMode mode, double scale);

// Cubic convolution kernel with coefficient a (Keys): for |s| <= 1
// (a+2)|s|^3 - (a+3)|s|^2 + 1; for 1 < |s| < 2: a|s|^3 - 5a|s|^2 + 8a|s| - 4a; else 0.
double cubic_kernel(double s, double a);

struct AxisPlan {
  int64_t in = 0;
  int64_t out = 0;
  int taps = 0;            // K: the most taps any output uses; rows of index/weight have K
  bool identity = false;   // out == in and every output copies its own input index
  bool any_outside = false;
  Buffer<int32_t> count;   // [out]: taps in use, the first count[o] of the row; zero
                           // weights are dropped, so an output reads only what it weighs
  Buffer<int32_t> index;   // [out * K]: input indices in [0, in)
  Buffer<double> weight;   // [out * K]: weights in use sum to 1
  Buffer<float> weight_f;  // the same weights in float, for float32 kernels
  Buffer<uint8_t> outside; // [out]: 1 where the output takes extrapolation_value
  // [out], for 2 <= K <= 8 (else empty): 1 where the output uses all K taps and they are
  // K consecutive inputs (the unrolled form of resize_pass_inner_rows4).
  Buffer<uint8_t> consecutive;

  // The innermost-axis SIMD form (linear/cubic, K <= 4, float kernels): outputs in blocks of
  // 4 whose K taps are consecutive input indices inside the input, all within 8 inputs
  // from the block's base. Such a block loads 8 inputs and shuffles each tap's 4 lanes out
  // of them (see resize_pass_inner_simd). Other blocks run the scalar loop.
  int64_t blocks = 0;       // out / 4 when the form exists, else 0
  Buffer<int32_t> blk_base; // [blocks]: first input index of the 8 loaded, or -1 (scalar)
  Buffer<uint8_t> blk_mask; // [blocks * 16]: byte indices of tap 0 for lanes 0..3
  Buffer<float> blk_w;      // [blocks * K * 4]: weights, tap-major
  Buffer<uint32_t> blk_nz;  // [blocks * K * 4]: all ones where the weight is not 0
  // [blocks]: 1 where the block is "dense": every output uses all K taps (none dropped)
  // and starts within 4 inputs of base, so tap k of all 4 lanes comes from one 4-input
  // load at base + k and the tap-0 mask: one load, one shuffle, no masking per tap.
  Buffer<uint8_t> blk_dense;
  int64_t blocks_dense = 0;  // how many blocks are dense
  // Pairs of dense blocks 2q, 2q + 1 (outputs 8q .. 8q + 7) in the two-phase form of 2x
  // upsampling (K = 2 or 4): the even outputs' windows are s + j (s = blk_base[2q],
  // j = 0..3), the odd outputs' s + pair_dt + j, and every even (odd) output has the weights
  // pair_w[0] (pair_w[1]). Tap k of the 4 even outputs is then one load at s + k times
  // one weight, and the two phases' sums are interleaved (resize_pass_inner_simd).
  Buffer<uint8_t> blk_pair;  // [blocks / 2]: 1 where pair q has the form
  int64_t pairs = 0;         // how many pairs have it (0: blk_pair may be empty)
  int pair_dt = 0;
  float pair_w[2][4] = {};
};

Status build_axis_plan(const ResizeAttrs& attrs, const AxisGeometry& g, AxisPlan* plan);

}  // namespace osw
