// gridsample/parallel.h: GridSample on the thread pool: the split of a run into ranges of
// batch items, blocks and channels (the policy), and the run of those ranges on the pool.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "gridsample/exec_run.h"
#include "gridsample/plan.h"
#include "gridsample/workspace.h"
#include "threads/pool.h"

namespace osw {

// Below this many output elements a call runs on the caller alone: waking a worker and
// cutting the run costs more than the second core would save (docs/architecture.md,
// "Threads"). A location costs much more than a Resize element, on every path.
constexpr int64_t kGridSampleMinWork = int64_t(1) << 13;

// The 2-D fast path: each range loses the overlap of planning and gathers on its first
// block, so 2 tasks per thread (gridsample_split).
constexpr int64_t kFastTasksPerThread = 2;

// The split of the whole of Y into tasks for `threads` threads (exposed for tests): over batch
// items when N alone gives enough tasks, else over blocks of each item, and over channels too
// when there are fewer blocks than tasks wanted. Task t's range is gridsample_task(split, t).
// With `shared` (float32 X on the 2-D fast or the generic path, each chunk of items one
// item, b_chunks > 1), the b_chunks tasks of an item and channel chunk do not cut its blocks
// into fixed ranges but take them one at a time from one counter (GridSampleRange::claim):
// blocks cost unequally (a rotated grid's edge blocks, with padding, cost more than the
// middle ones), and fixed ranges left one thread waiting for the other.
struct GridSampleSplit {
  int64_t tasks = 1;
  int64_t n_chunks = 1, b_chunks = 1, c_chunks = 1;  // chunks of items, blocks, channels
  int64_t n = 0, blocks = 0, c = 0;                  // what is cut
  bool shared = false;
};
// The most counters (items x channel chunks) a shared split uses.
constexpr int64_t kMaxBlockCounters = 256;
GridSampleSplit gridsample_split(const GridSamplePlan& plan, int threads);
// (For a shared split: the range of blocks a task shares, all of its item's, and the index of
// its counter, gridsample_counter().)
GridSampleRange gridsample_task(const GridSampleSplit& split, int64_t t);
int64_t gridsample_counter(const GridSampleSplit& split, int64_t t);

// The smallest block gridsample_parallel_blocks() asks for: much smaller blocks make the
// linear kernel slower (gridsample/kernels_fast2d.h, kFastBlockLinear).
constexpr int64_t kMinParallelBlock = 4096;

#if OSW_HAVE_THREADS
// gridsample_run(plan, gridsample_whole(plan), ...) on the pool, ws[t] per thread; runs of
// less than min_work output elements on the caller alone.
Status gridsample_run_parallel(const GridSamplePlan& plan, const TensorView& x,
                               const TensorView& grid, TensorView* y, ThreadPool* pool,
                               GridSampleWorkspace* ws, int64_t min_work = kGridSampleMinWork);

// Whether a plan should be made again with smaller blocks for `threads` threads, and the
// tuning to make it with: when the 2-D fast path's blocks are too few to give each thread
// several (a 256 x 256 linear grid is one block), blocks of plan.block / (2 * threads)
// locations, at least kMinParallelBlock: two per thread, taken from a shared counter
// (GridSampleSplit), so that a thread that starts late (a worker woken after the caller
// began) still finds blocks to take. Splitting the channels instead makes every thread plan
// the whole block again. The block size never changes a result.
bool gridsample_parallel_blocks(const GridSamplePlan& plan, int threads, gs::Tuning* tuning,
                                int64_t min_work = kGridSampleMinWork);
#else
// A build without threads: the single-thread run itself.
inline Status gridsample_run_parallel(const GridSamplePlan& plan, const TensorView& x,
                                      const TensorView& grid, TensorView* y, ThreadPool*,
                                      GridSampleWorkspace* ws, int64_t = 0) {
  return gridsample_run(plan, gridsample_whole(plan), x, grid, y, ws);
}
inline bool gridsample_parallel_blocks(const GridSamplePlan&, int, gs::Tuning*, int64_t = 0) {
  return false;
}
#endif

}  // namespace osw
