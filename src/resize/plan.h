// resize/plan.h: the plan of a Resize: the coordinate maths evaluated once per axis into
// tables (AxisPlan), the kernels' own tables (NearestTables, FixedTables, built by
// resize/kernels_nearest.cpp and resize/kernels_fixed.cpp), the schedule of passes, and
// ResizePlan, which holds them all and is immutable once resize_plan() returns.
//
// Each coordinate_transformation_mode is a pure function (output index -> input
// coordinate) with the spec formula in its comment. build_axis_plan() evaluates the chosen
// function for every output index of an axis and turns it into taps: input indices
// (clamped, so edges are resolved here) and weights (normalised; exclude_outside and
// antialias applied here), plus a mask of outputs that lie outside the crop box of
// tf_crop_and_resize and take extrapolation_value. The kernels only gather, multiply, add.
#pragma once

#include <cmath>

#include "core/types.h"
#include "resize/params.h"

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
  int taps = 0;           // K: the most taps any output uses; rows of index/weight have K
  bool identity = false;  // out == in and every output copies its own input index
  bool any_outside = false;
  Buffer<int32_t> count;    // [out]: taps in use, the first count[o] of the row; zero
                            // weights are dropped, so an output reads only what it weighs
  Buffer<int32_t> index;    // [out * K]: input indices in [0, in)
  Buffer<double> weight;    // [out * K]: weights in use sum to 1
  Buffer<float> weight_f;   // the same weights in float, for float32 kernels
  Buffer<uint8_t> outside;  // [out]: 1 where the output takes extrapolation_value
  // [out], for 2 <= K <= 255 (else empty): n where the output's n = count >= 2 taps are n
  // consecutive inputs, else 0 (the unrolled form of resize_pass_inner_rows4, n == K <= 8;
  // the run loops of the channels-last kernels and of uint8's wide form, any n). Taps of
  // weight 0 are dropped, so an antialias window at an integer scale is not a run (cubic's
  // zeros at +-1 and +-2 scaled: 3x gives 9 taps of 12 with two gaps).
  Buffer<uint8_t> consecutive;

  // The innermost-axis SIMD form (linear/cubic, K <= 4, float kernels): outputs in blocks of
  // 4 whose K taps are consecutive input indices inside the input, all within 8 inputs
  // from the block's base. Such a block loads 8 inputs and shuffles each tap's 4 lanes out
  // of them (see resize_pass_inner_simd). Other blocks run the scalar loop.
  int64_t blocks = 0;        // out / 4 when the form exists, else 0
  Buffer<int32_t> blk_base;  // [blocks]: first input index of the 8 loaded, or -1 (scalar)
  Buffer<uint8_t> blk_mask;  // [blocks * 16]: byte indices of tap 0 for lanes 0..3
  Buffer<float> blk_w;       // [blocks * K * 4]: weights, tap-major
  Buffer<uint32_t> blk_nz;   // [blocks * K * 4]: all ones where the weight is not 0
  // [blocks]: 1 where the block is "dense": every output uses all K taps (none dropped)
  // and starts within 4 inputs of base, so tap k of all 4 lanes comes from one 4-input
  // load at base + k and the tap-0 mask: one load, one shuffle, no masking per tap.
  Buffer<uint8_t> blk_dense;
  int64_t blocks_dense = 0;  // how many blocks are dense
  // Pairs of blocks 2q, 2q + 1 (outputs 8q .. 8q + 7) in the two-phase form of 2x
  // upsampling (K = 2 or 4): the even outputs' windows are s + j (j = 0..3; s = index[8q K],
  // the first even output's first tap, which the kernels read: blk_base[2q] for dense
  // ones), the odd outputs' s + pair_dt + j, and every even (odd) output has the weights
  // pair_w[0] (pair_w[1]). Tap k of the 4 even outputs is then one load at s + k times
  // one weight, and the two phases' sums are interleaved (resize_pass_inner_simd).
  // pair_k0 (the even outputs' taps) = 1 instead of K: the even outputs keep one tap each,
  // at s + j (the others weigh 0 and are dropped), as asymmetric 2x upsampling's copies of
  // x[m] are; the blocks need not be dense then (the odd outputs' loads are checked).
  // The same in double (resize_pass_inner_pairs_f64): pair_wd, and bit 2 of blk_pair where
  // the pair's double weights equal them bit for bit.
  Buffer<uint8_t>
      blk_pair;         // [blocks / 2]: bit 1 where pair q has the form (float), bit 2 (double)
  int64_t pairs = 0;    // how many pairs have it in float (0: blk_pair may be empty)
  int64_t pairs_d = 0;  // ... in double
  int pair_dt = 0;
  int pair_k0 = 0;
  float pair_w[2][4] = {};
  double pair_wd[2][4] = {};
  // Triples of blocks 3q .. 3q + 2 (outputs 12q .. 12q + 11) in the three-phase form of 1.5x
  // upsampling (float, linear: K = 2): output 12q + p + 3j (phase p < 3, j < 4) has its two
  // taps at s + tri_t[p] + 2j + k (s = index[12q K], tri_t[0] = 0) with the weights
  // tri_w[p]. Tap k of a phase's 4 outputs is then every second input from s + tri_t[p] + k:
  // two loads and one fixed shuffle, instead of a swizzle and the block's tables
  // (resize_pass_inner_simd); channels-last rows take the same windows, a pixel per output
  // (resize_pass_channels).
  Buffer<uint8_t> blk_tri;  // [blocks / 3]: 1 where triple q has the form
  int64_t tris = 0;         // how many do (0: blk_tri may be empty)
  int tri_t[3] = {};
  float tri_w[3][2] = {};
};

// The kernels' own tables, built with the plan (resize_plan) and read-only afterwards.

// Nearest (resize/kernels_nearest.h): a stretch of an output row: 16-byte blocks [b0, b1) of the
// SIMD form, or outputs [u0, u1) of axis last copied one by one.
struct NearestSegment {
  int64_t b0 = 0, b1 = 0;
  int64_t u0 = 0, u1 = 0;
  int32_t simd = 0;
};

// Nearest: the gather's tables for one element size.
struct NearestTables {
  size_t elem_size = 0;   // the element size the tables were built for (0: none)
  int last = -1;          // the last axis that is not an identity (-1: a plain copy)
  int64_t unit = 0;       // bytes of one output of axis last
  int64_t row_bytes = 0;  // bytes of one output row
  int64_t rows = 0;       // output rows (positions of the axes before last)
  // [a][o]: byte offset in X of output index o of axis a, for a <= last.
  Buffer<int64_t> offsets[kMaxRank];
  // unit < 16 (SIMD builds only): per 16-byte block of an output row, the window's start
  // in the input row (-1: no window) and the swizzle mask; the row as segments.
  Buffer<int32_t> blk_start;
  Buffer<uint8_t> blk_mask;
  Buffer<NearestSegment> segs;
  int64_t n_segs = 0;
  // unit >= 16: memcpy runs (source byte offset in the input row, length).
  Buffer<int64_t> run_src;
  Buffer<int64_t> run_len;
  int64_t n_runs = 0;
};

// uint8 linear in integers (resize/kernels_fixed.h): the tables of one plan.
struct FixedTables {
  int state = 0;       // 1: the fixed path applies; otherwise it does not
  int h = -1, v = -1;  // the innermost resampled axis, the other one (-1: none)
  // The scales of h's and v's integer weights (2^sh, 2^sv). The fewest bits that make them
  // exact are raised so that the final shift is a constant: sh = 7 when h runs alone,
  // else sh + sv = 8 (sv = 8 when v runs alone).
  int sh = 0, sv = 0;
  int kh = 0, kv = 0;   // taps per output (rows of wh / wv)
  int64_t c = 1;        // elements after h: one output of h is c lanes
  Buffer<uint8_t> wh;   // [out_h * kh]: h's weights times 2^sh
  Buffer<uint16_t> wv;  // [out_v * kv]: v's weights times 2^sv
  // h's pass in blocks of 16 output lanes (lane = output * c + element): per block, the
  // window's first byte in the input row (-1: lanes one by one), whether the window is 32
  // bytes (two loads), and per tap 16 shuffle indices and 16 weights.
  int64_t blocks = 0;
  Buffer<int32_t> blk_base;
  Buffer<uint8_t> blk_wide;
  Buffer<uint8_t> blk_mask;  // [blocks * kh * 16]
  Buffer<uint8_t> blk_w;     // [blocks * kh * 16]
  // The wide form: h's weights multiples of 2^-9 and v's of 2^-7 (sh = 9, sv = 7); v's
  // pass first into uint16 sums, then h's with i32x4.dot_i16x8, two taps at a time, 4
  // elements of one output (c must be a multiple of 4, as RGBA is).
  bool wide = false;
  Buffer<int16_t> whp;  // [out_h * ceil(kh / 2) * 8]: h's weights times 2^9, in pairs
  Buffer<uint8_t> wv8;  // [out_v * kv]: v's weights times 2^7
};

// The tables of one axis; each allocation takes at most `limit` bytes (ResizeOptions).
Status build_axis_plan(const ResizeAttrs& attrs, const AxisGeometry& g, AxisPlan* plan,
                       int64_t limit = kDefaultMaxBytes);

// Antialias on a downsampling axis (row 9): the tap offsets [*start, *end) of an output
// relative to its base (the last input index strictly left of its coordinate), a window
// symmetric about the widened filter (support 1 or 2 times 1/scale).
inline void antialias_window(bool cubic, double scale, int64_t* start, int64_t* end) {
  *start = static_cast<int64_t>(std::floor((cubic ? -2.0 : -1.0) / scale) + 1.0);
  *end = cubic ? 2 - *start : *start + (2 - 2 * *start);
}

// Choices made when planning. The test switches force the plain paths of the kernels, to
// compare them with the fast ones; they never change a result.
struct ResizeOptions {
  // The element type the plan will run (its kernels' tables are built for it alone), or
  // Undefined: every type.
  DType type = DType::Undefined;
  bool fixed_disable = false;     // uint8: never take the integer form (the float path runs)
  bool fixed_force = false;       // uint8: take it whenever exact, even where few blocks vectorise
  bool nearest_scalar = false;    // nearest: no SIMD blocks, no merged runs
  bool nearest_no_reuse = false;  // nearest: gather every row, even one equal to the previous
  // The most bytes one allocation may take, for the plan's tables and for every run of the
  // plan (its workspaces' buffers): larger ones fail with a RangeError naming the limit.
  int64_t max_bytes = kDefaultMaxBytes;
};

// The buffers a step reads and writes: X, Y, and two whole intermediates (in the compute
// type F) that alternate between plain passes.
enum class ResizeBuf : int8_t { X, Y, TmpA, TmpB };

// One step of the linear/cubic schedule.
//  Pass        one separable pass along axis `a` over the whole tensor src -> dst.
//  StreamLast  the last two passes fused: inner axis h first, then outer axis v (v < h);
//              rows of h's result are computed on demand into a row cache of the workspace.
//  StreamGroup the last two passes fused: outer axis v first, then inner axis h (v < h);
//              groups of 4 rows of v are blended into the workspace, then h's pass.
//  Copy        no axis is resampled: Y is X converted.
// dims: the tensor's dims before the step. units: how the step splits (resize_execute_range):
// a Pass along an inner axis (elements after it) into its output rows (outer * out), along
// the innermost axis into its rows (outer); a streamed pair into the output rows of v
// (outer_v * out_v); Copy into elements.
// (Plain members, no initializers: a value-initialized ResizeSchedule{} is all zeros, one
// fill, and build_schedule sets every field of the steps it writes.)
struct ResizeStep {
  enum Kind : int8_t { Pass, StreamLast, StreamGroup, Copy };
  Kind kind;
  int a;     // Pass: the axis
  int v, h;  // streamed pairs: the outer and the inner axis
  ResizeBuf src, dst;
  int64_t dims[kMaxRank];
  int64_t units;
};

struct ResizeSchedule {
  int n;
  ResizeStep step[kMaxRank];
  int n_tmp;          // how many of TmpA, TmpB the steps use (in that order)
  int64_t tmp_elems;  // elements of each
  bool too_large;     // an intermediate has more than 2^63 elements (a run fails)
};

struct ResizePlan {
  ResizeAttrs attrs;
  ResizeGeometry geo;
  ResizeOptions opts;
  int rank = 0;
  int64_t in_dims[kMaxRank] = {};
  int64_t out_dims[kMaxRank] = {};
  int64_t out_elems = 0;
  AxisPlan axis[kMaxRank];
  // Linear/cubic: the axes resampled, in the order the passes run (identity axes skipped).
  int n_passes = 0;
  int order[kMaxRank] = {};
  // Linear/cubic: the passes as steps, for the types compiled for size ([0]) and for
  // float32 and uint8 ([1]: these also stream an outer axis then an inner one).
  ResizeSchedule schedule[2] = {};
  // Nearest: the gather's tables per element size (index log2 of 1, 2, 4, 8 bytes), built
  // for the sizes of opts.type.
  NearestTables nearest[4];
  // uint8 linear in integers (resize/kernels_fixed.h): its tables, when the plan has the form.
  FixedTables fixed;
};

}  // namespace osw
