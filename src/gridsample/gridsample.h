// gridsample/gridsample.h: the GridSample operator (opsets 16, 20, 22) on any rank r+2 with r >= 1.
//
// Layers (STYLE.md): the attributes arrive here already opset-resolved (the JS layer maps
// opset 16's bilinear/bicubic names to Linear/Cubic and enforces opset 16's 4-D limit).
// gridsample_output_shape() validates shapes; gridsample() computes, per output location,
// the taps (flat input offsets and weights, padding resolved) once, and reuses them for
// all C channels, whose loop only gathers, multiplies and adds. Float32 X with 2 spatial
// dims in linear or cubic mode has a faster path for the locations whose whole 2x2 / 4x4
// footprint lies inside X (see gridsample/gridsample.cpp).
//
// gridsample() is plan -> (workspace + kernels) -> run (STYLE habit 13), steps that a
// caller can also take one by one: gridsample_plan() checks everything and decides the
// path and the blocks once per shape, into an immutable GridSamplePlan that any number of
// runs may share; gridsample_run() computes any part of Y (batch items x blocks x channels,
// a GridSampleRange) with a GridSampleWorkspace that holds everything the run writes
// besides Y. Runs of disjoint ranges, each with its own workspace, write disjoint parts of
// Y, and together give exactly the bytes of one whole run.
#pragma once

#include "core/types.h"

#if OSW_HAVE_THREADS
#include <atomic>
#endif

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
  // compat 'onnxruntime' (docs/ort-compat-findings.md, "GridSample"): ONNX Runtime 1.30's
  // coordinate arithmetic (gs::axis_taps_ort), and an X with an empty spatial axis rejected.
  bool ort = false;
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

// gridsample() with its internal choices forced, so that tests can cover them on small
// inputs: block = output locations planned at a time (0: automatic), wide_offsets = use
// int64 input offsets even where int32 would do (except in wasm32 builds for elements of 2
// bytes or more, which have no int64 kernels: see dispatch_offsets), generic = plan and
// compute every location with the generic (any rank) planner and kernel, never the 2-D
// fast path of float32 X (gridsample/gridsample.cpp explains that path and the order in which it
// sums). max_bytes = the most bytes one allocation of a run may take (createSampler({ maxBytes })):
// the plan keeps it, its blocks come down to fit it, and its runs allocate under it.
struct Tuning {
  int64_t block = 0;
  bool wide_offsets = false;
  bool generic = false;
  int64_t max_bytes = kDefaultMaxBytes;
};
Status gridsample_tuned(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                        TensorView* y, const Tuning& tuning);

}  // namespace gs

// ---- plan, workspace, run -----------------------------------------------------------------

// The shapes as the planner and the kernels see them.
struct GridSampleGeometry {
  int r = 0;
  int64_t n = 0, c = 0;
  int64_t len[kMaxRank] = {};     // X's spatial lengths, outermost first
  int64_t stride[kMaxRank] = {};  // elements between neighbours along each spatial axis
  int64_t in_size = 0;            // elements of one (n, c) plane of X
  int64_t out_size = 0;           // output locations per batch item
  int64_t out_h = 1, out_w = 1;   // r = 2: the output's spatial lengths
};

// What a run of one shape does, decided once. Immutable once built: any number of runs,
// each with its own workspace, may share it.
struct GridSamplePlan {
  enum class Path : int32_t {
    Nothing,     // Y has no element (SEMANTICS row 12)
    EmptyInput,  // X has a spatial length 0 (zeros padding): every output is 0, or NaN
    Generic,     // any rank and type: taps per location (plan_location), then each channel
    Fast2d,      // float32 X, r = 2, linear or cubic (gridsample/gridsample.cpp)
  };
  GridSampleAttrs attrs;
  DType x_type = DType::Undefined, grid_type = DType::Undefined;
  GridSampleGeometry geo;
  Path path = Path::Nothing;
  // int64 input offsets where the build has int64 kernels (gs::Tuning::wide_offsets, or a
  // plane of more than 2^31 - 1 elements).
  bool wide_offsets = false;
  int64_t max_taps = 0;  // taps of one generic location at most
  // The output locations of one batch item in blocks, the unit of planning and of ranges:
  //   Generic, EmptyInput: `block` consecutive locations (the last block may be shorter);
  //   Fast2d: tiles of th x tw locations, blocks_h x blocks_w of them: th whole rows
  //           (tw = out_w), or one part of a row (th = 1) when a row is longer than the
  //           block size; block = th * tw.
  int64_t block = 0, th = 1, tw = 1, blocks_h = 0, blocks_w = 0;
  int64_t blocks = 0;  // per batch item
  int64_t table = 0;   // entries of one block's generic tap table: block * max_taps
  int64_t max_bytes = kDefaultMaxBytes;  // gs::Tuning's: the most one allocation of a run takes
};

// A part of Y: batch items [n_begin, n_end) x blocks [block_begin, block_end) of each x
// channels [c_begin, c_end). Parts that do not overlap write disjoint elements of Y.
struct GridSampleRange {
  int64_t n_begin = 0, n_end = 0;
  int64_t block_begin = 0, block_end = 0;
  int64_t c_begin = 0, c_end = 0;
#if OSW_HAVE_THREADS
  // Threaded runs (threads/pool.cpp, gridsample_run_parallel): when set, the range is one batch
  // item, and its blocks are shared with the other ranges that hold the same counter: each
  // block it computes is block_begin + claim->fetch_add(1), taken when it is about to be
  // planned, until that passes block_end. The threads then end within about a block of each
  // other, whatever the blocks cost. Only on float32 X (the 2-D fast and the generic paths).
  std::atomic<int64_t>* claim = nullptr;
#endif
};

#if OSW_HAVE_THREADS
// The next block of `range` after k (the first: k = block_begin - 1); block_end when none.
inline int64_t next_block(const GridSampleRange& range, int64_t k) {
  if (!range.claim) return k + 1;
  const int64_t i = range.block_begin + range.claim->fetch_add(1, std::memory_order_relaxed);
  return i < range.block_end ? i : range.block_end;
}
#else
inline int64_t next_block(const GridSampleRange&, int64_t k) { return k + 1; }
#endif

// The whole of Y.
GridSampleRange gridsample_whole(const GridSamplePlan& plan);

// Everything a run writes besides Y: the tables of the block being computed (and, on the
// fast path, of the next one, planned while this one is computed) and the planner's
// scratch. A run grows the arrays to what its plan needs (they never shrink) and leaves
// them for the next run; reset() frees them all. One per run in flight: runs that share a
// plan but not a workspace share no memory they write.
class GridSampleWorkspace {
 public:
  GridSampleWorkspace() = default;
  GridSampleWorkspace(const GridSampleWorkspace&) = delete;
  GridSampleWorkspace& operator=(const GridSampleWorkspace&) = delete;

  void reset();
  int64_t bytes() const;  // held now

  // The arrays, for the kernels (gridsample/exec.h gives them their types). tables[1] is
  // used by the fast path only, when a range has more than one block.
  struct Tables {
    Buffer<unsigned char> fast_pos, fast_off, fast_w;          // fast locations
    Buffer<unsigned char> gen_pos, gen_off, gen_w, gen_count;  // generic locations' taps
    Buffer<unsigned char> zero_runs;                           // runs of taps-less locations
  };
  Tables tables[2];
  Buffer<unsigned char> weights_f64;  // plan_location's weights in double
  // Types run through the float32 (float64) kernels (gridsample/exec_cold.cpp): the planes of X
  // and of Y of one batch item's part of a range, in float.
  Buffer<unsigned char> conv_x, conv_y;
  // The sink of touch_in_order's reads (the value means nothing; a volatile store keeps
  // the reads).
  volatile uint32_t touch_sink = 0;
};

// Checks attributes, types and shapes (everything gs::gridsample_tuned checks but the data
// pointers) and plans y = GridSample(x, grid): y->dims and y->type as gridsample() needs
// them; data pointers are not read. tuning as in gs::gridsample_tuned.
Status gridsample_plan(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                       const TensorView& y, const gs::Tuning& tuning, GridSamplePlan* plan);

// Computes the part `range` of y (the shapes and types of the plan; data pointers are
// checked here) with the workspace ws. The other elements of y are not touched.
Status gridsample_run(const GridSamplePlan& plan, const GridSampleRange& range, const TensorView& x,
                      const TensorView& grid, TensorView* y, GridSampleWorkspace* ws);

}  // namespace osw
