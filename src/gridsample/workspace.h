// gridsample/workspace.h: everything a GridSample run writes besides Y (GridSampleWorkspace),
// and the typed view of one of its arrays that the kernels take (gs_exec::workspace_array).
#pragma once

#include "core/types.h"

namespace osw {

// The tables of the block being computed (and, on the fast path, of the next one, planned
// while this one is computed) and the planner's scratch. A run grows the arrays to what its
// plan needs (they never shrink) and leaves them for the next run; reset() frees them all.
// One per run in flight: runs that share a plan but not a workspace share no memory they
// write.
class GridSampleWorkspace {
 public:
  GridSampleWorkspace() = default;
  GridSampleWorkspace(const GridSampleWorkspace&) = delete;
  GridSampleWorkspace& operator=(const GridSampleWorkspace&) = delete;

  void reset();
  int64_t bytes() const;  // held now

  // The arrays, as bytes (the kernels give them their types: workspace_array). tables[1] is
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

namespace gs_exec {

// Array b of the workspace as n elements of T: grown (contents lost) when it holds fewer
// bytes, else as it is (contents unspecified). nullptr when the bytes overflow, exceed
// `limit` (the plan's max_bytes), or malloc fails.
template <typename T>
T* workspace_array(Buffer<unsigned char>& b, int64_t n, int64_t limit) {
  int64_t bytes = 0;
  if (!checked_mul(n, static_cast<int64_t>(sizeof(T)), &bytes)) return nullptr;
  if (b.size() < bytes && !b.allocate(bytes, limit)) return nullptr;
  return reinterpret_cast<T*>(b.data());
}

}  // namespace gs_exec
}  // namespace osw
