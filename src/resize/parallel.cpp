// resize/parallel.cpp: Resize's run on the thread pool (resize/parallel.h).
#include "resize/parallel.h"

#include <climits>
#include <utility>

namespace osw {

namespace {

int64_t product(const int64_t* dims, int rank) {
  int64_t p = 1;
  for (int i = 0; i < rank; ++i) p *= dims[i];
  return p;
}

}  // namespace

int64_t resize_work(const ResizePlan& plan) {
  const int64_t elems = plan.out_elems + product(plan.in_dims, plan.rank);  // < 2^63 each
  const int64_t per = plan.attrs.mode == ResizeMode::Nearest ? 1 : 4;
  return elems > INT64_MAX / per ? INT64_MAX : elems * per;
}

#if OSW_HAVE_THREADS

Status resize_execute_parallel(const ResizePlan& plan, const TensorView& x, TensorView* y,
                               ThreadPool* pool, ResizeWorkspace* ws, int64_t min_work) {
  const int threads = pool->threads();
  if (threads <= 1 || resize_work(plan) < min_work) return resize_execute(plan, x, y, ws);
  // The checks of resize_execute(), in its order: tensors, layout, shared buffers.
  OSW_RETURN_IF_ERROR(resize_check_tensors(plan, x, *y));
  if (y->elements() == 0) return Status::Ok();
  // (the shared workspace first: it decides what depends on X's values, the steps too)
  OSW_RETURN_IF_ERROR(resize_prepare_shared(plan, x, &ws[0]));
  ResizeStepInfo info;
  OSW_RETURN_IF_ERROR(resize_steps(plan, x.type, &info, &ws[0]));
  for (int s = 0; s < info.n; ++s) {
    const int64_t units = info.units[s];
    const int64_t tasks = parallel_tasks(units, threads);
    TaskErrors errors(threads);
    auto task = [&](int64_t t, int thread) {
      int64_t begin, end;
      task_range(units, tasks, t, &begin, &end);
      Status st = resize_execute_range(plan, s, begin, end, x, y, &ws[0], &ws[thread]);
      if (!st.ok()) errors.record(thread, t, std::move(st));
    };
    pool->run(tasks, task);
    OSW_RETURN_IF_ERROR(errors.first());
  }
  return resize_finish(plan, y);
}

#endif  // OSW_HAVE_THREADS

}  // namespace osw
