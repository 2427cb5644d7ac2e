// resize/parallel.h: Resize on the thread pool: how much work a run is, the threshold below
// which it stays on the caller, and the run whose steps are cut into ranges for the pool.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "resize/resize.h"
#include "threads/pool.h"

namespace osw {

// Below this amount of work a call runs on the caller alone: waking a worker and cutting the
// steps costs more than the second core would save (docs/architecture.md, "Threads"). The
// work is input + output elements, times 4 for linear and cubic (a nearest element costs a
// few times less than an interpolated one): resize_work().
constexpr int64_t kResizeMinWork = int64_t(1) << 18;

// Resize's work as the threshold counts it.
int64_t resize_work(const ResizePlan& plan);

#if OSW_HAVE_THREADS
// resize_execute() on the pool: the steps in order, each one's units split over the threads,
// ws[t] the workspace of thread t (ws[0] also holds the shared intermediates: whole
// intermediates, shared by the ranges of a step, which write disjoint parts), pool.threads()
// of them. Runs of less than min_work (resize_work()) go to resize_execute(plan, x, y, ws) on
// the caller (tests pass 0 to split any run). The bytes of y are those of resize_execute()
// for any thread count.
Status resize_execute_parallel(const ResizePlan& plan, const TensorView& x, TensorView* y,
                               ThreadPool* pool, ResizeWorkspace* ws,
                               int64_t min_work = kResizeMinWork);
#else
// A build without threads: the single-thread run itself (the default osw.wasm carries none
// of the splitting code).
inline Status resize_execute_parallel(const ResizePlan& plan, const TensorView& x, TensorView* y,
                                      ThreadPool*, ResizeWorkspace* ws, int64_t = 0) {
  return resize_execute(plan, x, y, ws);
}
#endif

}  // namespace osw
