// gridsample/plan.h: what a GridSample run of one shape does, decided once: the test
// switches (gs::Tuning), the shapes as the kernels see them, the path and the blocks of the
// output (GridSamplePlan, immutable once built), and the parts of Y a run computes
// (GridSampleRange). gridsample_plan() checks everything but the data pointers and plans.
#pragma once

#include "core/types.h"
#include "gridsample/params.h"

#if OSW_HAVE_THREADS
#include <atomic>
#endif

namespace osw {
namespace gs {

// gridsample() with its internal choices forced, so that tests can cover them on small
// inputs: block = output locations planned at a time (0: automatic), wide_offsets = use
// int64 input offsets even where int32 would do (except in wasm32 builds for elements of 2
// bytes or more, which have no int64 kernels: see gs_exec::has_wide_offsets), generic = plan
// and compute every location with the generic (any rank) planner and kernel, never the 2-D
// fast path of float32 X (gridsample/kernels_fast2d.h explains that path and the order in
// which it sums). max_bytes = the most bytes one allocation of a run may take
// (createSampler({ maxBytes })): the plan keeps it, its blocks come down to fit it, and its
// runs allocate under it.
struct Tuning {
  int64_t block = 0;
  bool wide_offsets = false;
  bool generic = false;
  int64_t max_bytes = kDefaultMaxBytes;
};

}  // namespace gs

namespace gs_exec {

// The generic path: output locations planned at a time, and the preferred cap on block *
// taps per location (the tap table of one block).
constexpr int64_t kMaxBlock = 256;
constexpr int64_t kTableEntries = 16384;

// The 2-D fast path: output locations per block. A block is whole output rows (or one part
// of a row longer than this), so that one channel's pass over a block writes one contiguous
// run of Y. Cubic keeps its 76 bytes of plan per location, streamed again for every
// channel, to blocks that stay in cache (docs/performance.md has the measurements).
constexpr int64_t kFastBlock = 4096;
// Linear takes larger blocks (28 bytes of fast plan per location): before each channel's
// pass over a block it reads the rows of X that the block's fast locations reach in order
// (gridsample/kernels_fast2d.h, kTouchBandBytes), so the plane is streamed once per block
// rather than met line by line along the grid.
constexpr int64_t kFastBlockLinear = 65536;

// Whether int64 offsets are built for X elements of es bytes: in wasm32 a plane of
// elements of 2 bytes or more has fewer than 2^31 of them (memory is at most 4 GiB), so
// int32 offsets always do there and the int64 kernels are not built for those types.
constexpr bool has_wide_offsets(size_t es) { return !(sizeof(void*) == 4 && es >= 2); }

}  // namespace gs_exec

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
    Nothing,     // Y has no element: nothing to compute
    EmptyInput,  // X has a spatial length 0 (zeros padding): every output is 0, or NaN
    Generic,     // any rank and type: taps per location (plan_location), then each channel
    Fast2d,      // float32 X, r = 2, linear or cubic (gridsample/kernels_fast2d.h)
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
  // Threaded runs (gridsample/parallel.h, gridsample_run_parallel): when set, the range is
  // one batch item, and its blocks are shared with the other ranges that hold the same
  // counter: each block it computes is block_begin + claim->fetch_add(1), taken when it is
  // about to be planned, until that passes block_end. The threads then end within about a
  // block of each other, whatever the blocks cost. Only on float32 X (the 2-D fast and the
  // generic paths).
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

// Checks attributes, types and shapes (everything gs::gridsample_tuned checks but the data
// pointers) and plans y = GridSample(x, grid): y->dims and y->type as gridsample() needs
// them; data pointers are not read. tuning as in gs::gridsample_tuned.
Status gridsample_plan(const GridSampleAttrs& attrs, const TensorView& x, const TensorView& grid,
                       const TensorView& y, const gs::Tuning& tuning, GridSamplePlan* plan);

}  // namespace osw
