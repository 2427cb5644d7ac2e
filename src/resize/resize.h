// resize/resize.h: the Resize operator (and Upsample, which is Resize with fixed attributes).
//
// params -> plan -> (workspace + kernels) -> execution:
// - resize_plan() turns attributes, inputs and X's dims into an immutable ResizePlan: the
//   output shape, per-axis tap tables (resize/plan.h), the kernels' own tables (the nearest
//   gather's per element size, uint8's integer form) and the schedule of the linear/cubic
//   passes as an explicit list of steps with named buffers. After it returns, nothing
//   writes the plan: several runs (threads) may share one.
// - Everything a run writes besides Y lives in a ResizeWorkspace (whole intermediates, row
//   caches, strips), with one owner and one reset().
// - resize_execute() runs the plan with a workspace; resize_execute_range() runs one step
//   over a sub-range of its units (rows or planes of a pass) with its own workspace, so
//   that disjoint ranges may run at once and together give the bytes of one whole run.
#pragma once

#include "core/types.h"
#include "resize/params.h"
#include "resize/plan.h"

namespace osw {

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

// The exact taps and denominators of integer outputs (resize/exact.h): made when first
// needed, kept between the runs of one plan (made again for another), freed with the
// workspace.
struct ExactTaps;
void resize_exact_taps_free(ExactTaps* cache);
struct ExactCache {
  ExactTaps* p = nullptr;
  ExactCache() = default;
  ExactCache(const ExactCache&) = delete;
  ExactCache& operator=(ExactCache&& o) noexcept {
    ExactTaps* t = p;
    p = o.p;
    o.p = t;  // (freed with the moved-from one)
    return *this;
  }
  ~ExactCache() { resize_exact_taps_free(p); }
};

// Everything a run writes besides Y. One owner (a caller, a thread); reset() frees it all.
// Buffers grow as runs need them and are kept, so repeated runs do not allocate.
struct ResizeWorkspace {
  Buffer<unsigned char> tmp[2];  // TmpA, TmpB: whole intermediates
  Buffer<unsigned char> rows;    // a streamed pair's row cache or row group; uint8's sums
  Buffer<float> strip;           // the transposed strip of the 4-row kernel
  Buffer<unsigned char>
      wide;  // a run in parts (converted types, uint8): a part of Y in the compute type
  Buffer<unsigned char> xf;  // a converted run: X widened to float32 or float64 (resize/exec.h)
  // What resize_prepare_shared() decides once per run from X's values (the shared
  // workspace's; every range reads them): for 32-bit integer X, Float32 where the plan
  // computes this X exactly in float32 (resize/exact.h), else Undefined (float64, their
  // compute type); the error bounds of integer outputs (resize_exact_eps).
  DType int_compute = DType::Undefined;
  double eps = 0, eps_d = 0;
  ExactCache exact;
  void reset() { *this = ResizeWorkspace(); }
};

Status resize_plan(const ResizeAttrs& attrs, const ResizeInputs& inputs, int rank,
                   const int64_t* in_dims, ResizePlan* plan,
                   const ResizeOptions& opts = ResizeOptions());

// x.dims must equal plan.in_dims and y->dims plan.out_dims; x and y have the same type,
// one the plan was built for.
Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y,
                      ResizeWorkspace* ws);
// The same with a workspace of its own, freed on return.
Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y);

// A run in parts, for callers that split it (threads). The steps of a run on x's type:
// resize_steps() says how many and how many units each has; resize_execute_range() runs
// units [begin, end) of step s, writing only their part of the step's output. Steps run in
// order (every range of step s before any of step s + 1); ranges of one step are disjoint
// and may run at once, each with its own workspace `ws`. `shared` holds what the steps pass
// between them (whole intermediates): resize_prepare_shared() sizes it once per run, and
// every range reads and writes it through disjoint parts, and it decides there what depends
// on X's values (ResizeWorkspace::int_compute): resize_steps() must be given that shared
// workspace (without one: the layout of a run whose X is not known, float64 for 32-bit
// integers). resize_finish() runs last, once.
struct ResizeStepInfo {
  int n = 0;
  int64_t units[kMaxRank + 2] = {};
};
Status resize_steps(const ResizePlan& plan, DType type, ResizeStepInfo* info,
                    const ResizeWorkspace* shared = nullptr);
Status resize_prepare_shared(const ResizePlan& plan, const TensorView& x, ResizeWorkspace* shared);
Status resize_execute_range(const ResizePlan& plan, int s, int64_t begin, int64_t end,
                            const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                            ResizeWorkspace* ws);
Status resize_finish(const ResizePlan& plan, TensorView* y);
// The first check of resize_execute(): x and y have the plan's shapes and one type.
Status resize_check_tensors(const ResizePlan& plan, const TensorView& x, const TensorView& y);

// Both steps at once. Sets y->rank and y->dims; y->data must already hold enough room,
// so callers that do not know the shape use resize_plan first.
Status resize(const ResizeAttrs& attrs, const ResizeInputs& inputs, const TensorView& x,
              TensorView* y);

}  // namespace osw
