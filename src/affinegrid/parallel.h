// affinegrid/parallel.h: AffineGrid on the thread pool: its rows cut into ranges.
#pragma once

#include <cstdint>

#include "affinegrid/affinegrid.h"
#include "core/types.h"
#include "threads/pool.h"

namespace osw {

// Below this many grid locations a call runs on the caller alone (a location costs a few
// nanoseconds: waking a worker costs more).
constexpr int64_t kAffineGridMinWork = int64_t(1) << 15;

#if OSW_HAVE_THREADS
// affinegrid() on the pool: its rows (affinegrid_rows) split over the threads; grids of
// fewer than min_work locations on the caller alone.
Status affinegrid_parallel(const AffineGridAttrs& attrs, const TensorView& theta,
                           const int64_t* size, int n_size, TensorView* grid, ThreadPool* pool,
                           int64_t min_work = kAffineGridMinWork);
#else
inline Status affinegrid_parallel(const AffineGridAttrs& attrs, const TensorView& theta,
                                  const int64_t* size, int n_size, TensorView* grid, ThreadPool*,
                                  int64_t = 0) {
  return affinegrid(attrs, theta, size, n_size, grid);
}
#endif

}  // namespace osw
