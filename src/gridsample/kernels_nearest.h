// gridsample/kernels_nearest.h: GridSample's nearest fast path for float32 X (one tap per
// location: each block's offsets, then one gather per channel), and the in-order read that
// brings a plane into cache before gathers that follow the grid in any direction.
#pragma once

#include <cstring>

#include "core/types.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"

namespace osw {
namespace gs_exec {

// float32 X, nearest: the channels of the range for block [j0, j0 + nb) of item n, from the
// block's planned taps (plan_location): each location's tap becomes its offset or -1 (no
// tap), each plane is read in order first when the block has at least as many locations as
// the plane has cache lines, then gathered (y = x[offset], or 0). Returns false, having
// done nothing, when this does not apply (another mode, or a NaN coordinate in the block:
// gather_block then runs as for every type). off is rewritten when it returns true.
bool nearest_block(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n, int64_t j0,
                   int64_t nb, const float* x, float* y, int32_t* off, const float* w,
                   const int32_t* count, GridSampleWorkspace* ws);
bool nearest_block(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n, int64_t j0,
                   int64_t nb, const float* x, float* y, int64_t* off, const float* w,
                   const int64_t* count, GridSampleWorkspace* ws);
// The same for a 2-D nearest block with a float32 grid and zeros or border padding, the
// offsets computed straight from the block's grid vectors g (no planned taps, whose general
// arithmetic would cost more than the gathers): returns false, having done nothing, where
// that does not apply (another mode, rank or padding, or a NaN coordinate in the block).
bool nearest_grid_block(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n,
                        int64_t j0, int64_t nb, const float* g, const float* x, float* y,
                        int32_t* off, GridSampleWorkspace* ws);
bool nearest_grid_block(const GridSamplePlan& plan, const GridSampleRange& range, int64_t n,
                        int64_t j0, int64_t nb, const float* g, const float* x, float* y,
                        int64_t* off, GridSampleWorkspace* ws);

// Reads 4 bytes of every 64 of x[0 .. n), in order, so that the memory system streams X into
// the cache at full speed, rather than the gathers (which follow the grid in any direction)
// meeting each line cold, one at a time. Worth it only for an X that stays in cache until
// the gathers reach it: the callers bound n. Returns a value of the reads, for the caller to
// store in the workspace's touch_sink (which keeps them).
inline uint32_t touch_in_order(const float* x, int64_t n) {
  uint32_t acc = 0;
  for (int64_t i = 0; i < n; i += 16) {
    uint32_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    acc |= bits;
  }
  return acc;
}

}  // namespace gs_exec
}  // namespace osw
