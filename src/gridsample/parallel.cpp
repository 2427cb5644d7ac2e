// gridsample/parallel.cpp: GridSample's split into ranges and its run on the thread pool
// (gridsample/parallel.h).
#include "gridsample/parallel.h"

#include <algorithm>
#if OSW_HAVE_THREADS
#include <atomic>
#endif
#include <utility>

namespace osw {

GridSampleSplit gridsample_split(const GridSamplePlan& plan, int threads) {
  GridSampleSplit s;
  s.n = plan.geo.n;
  s.blocks = plan.blocks;
  s.c = plan.geo.c;
  if (threads <= 1 || plan.path == GridSamplePlan::Path::Nothing || s.n <= 0 || s.blocks <= 0 ||
      s.c <= 0)
    return s;
  // The fast path plans a range's first block before any of its work (the later ones are
  // planned between the gathers of the one before): fewer, longer ranges there.
  const int64_t per_thread =
      plan.path == GridSamplePlan::Path::Fast2d ? kFastTasksPerThread : kTasksPerThread;
  const int64_t want = threads * per_thread;
  if (s.n >= want) {
    s.n_chunks = want;
  } else {
    s.n_chunks = s.n;
    s.b_chunks = std::min(s.blocks, (want + s.n - 1) / s.n);
    // Fewer blocks than threads: the channels too, in just enough parts to give every thread
    // a task (each part plans the same blocks again).
    const int64_t parts = s.n * s.b_chunks;
    if (parts < threads) s.c_chunks = std::min(s.c, (threads + parts - 1) / parts);
    // Blocks taken from a counter: one task per thread is enough for each item and
    // channel chunk (they take blocks until none is left).
    s.shared =
        OSW_HAVE_THREADS && plan.x_type == DType::Float32 && s.b_chunks > 1 &&
        (plan.path == GridSamplePlan::Path::Fast2d || plan.path == GridSamplePlan::Path::Generic) &&
        s.n * s.c_chunks <= kMaxBlockCounters;
    if (s.shared) s.b_chunks = std::min<int64_t>(s.b_chunks, threads);
  }
  s.tasks = s.n_chunks * s.b_chunks * s.c_chunks;
  return s;
}

GridSampleRange gridsample_task(const GridSampleSplit& split, int64_t t) {
  GridSampleRange r;
  const int64_t per_item = split.b_chunks * split.c_chunks;
  task_range(split.n, split.n_chunks, t / per_item, &r.n_begin, &r.n_end);
  const int64_t rem = t % per_item;
  if (split.shared) {
    r.block_end = split.blocks;
  } else {
    task_range(split.blocks, split.b_chunks, rem / split.c_chunks, &r.block_begin, &r.block_end);
  }
  task_range(split.c, split.c_chunks, rem % split.c_chunks, &r.c_begin, &r.c_end);
  return r;
}

int64_t gridsample_counter(const GridSampleSplit& split, int64_t t) {
  return t / (split.b_chunks * split.c_chunks) * split.c_chunks + t % split.c_chunks;
}

#if OSW_HAVE_THREADS

bool gridsample_parallel_blocks(const GridSamplePlan& plan, int threads, gs::Tuning* tuning,
                                int64_t min_work) {
  if (threads <= 1 || plan.path != GridSamplePlan::Path::Fast2d || tuning->block > 0) return false;
  if (plan.geo.n * plan.geo.c * plan.geo.out_size < min_work) return false;
  if (plan.geo.n * plan.blocks >= threads * kTasksPerThread) return false;
  const int64_t block = std::max(kMinParallelBlock, plan.block / (2 * int64_t(threads)));
  if (block >= plan.block) return false;
  tuning->block = block;
  return true;
}

Status gridsample_run_parallel(const GridSamplePlan& plan, const TensorView& x,
                               const TensorView& grid, TensorView* y, ThreadPool* pool,
                               GridSampleWorkspace* ws, int64_t min_work) {
  const int threads = pool->threads();
  const int64_t out = plan.geo.n * plan.geo.c * plan.geo.out_size;
  if (threads <= 1 || out < min_work)
    return gridsample_run(plan, gridsample_whole(plan), x, grid, y, &ws[0]);
  const GridSampleSplit split = gridsample_split(plan, threads);
  if (split.tasks <= 1) return gridsample_run(plan, gridsample_whole(plan), x, grid, y, &ws[0]);
  TaskErrors errors(threads);
  std::atomic<int64_t> counters[kMaxBlockCounters];
  if (split.shared) {
    for (int64_t i = 0; i < split.n * split.c_chunks; ++i)
      counters[i].store(0, std::memory_order_relaxed);
  }
  auto task = [&](int64_t t, int thread) {
    GridSampleRange r = gridsample_task(split, t);
    if (split.shared) r.claim = &counters[gridsample_counter(split, t)];
    Status st = gridsample_run(plan, r, x, grid, y, &ws[thread]);
    if (!st.ok()) errors.record(thread, t, std::move(st));
  };
  pool->run(split.tasks, task);
  return errors.first();
}

#endif  // OSW_HAVE_THREADS

}  // namespace osw
