// affinegrid/parallel.cpp: AffineGrid's run on the thread pool (affinegrid/parallel.h).
#include "affinegrid/parallel.h"

#include <climits>

namespace osw {

#if OSW_HAVE_THREADS

Status affinegrid_parallel(const AffineGridAttrs& attrs, const TensorView& theta,
                           const int64_t* size, int n_size, TensorView* grid, ThreadPool* pool,
                           int64_t min_work) {
  const int threads = pool->threads();
  const int64_t rows = affinegrid_row_count(size, n_size);
  const int64_t row_len = n_size >= 4 && size[n_size - 1] > 0 ? size[n_size - 1] : 0;
  if (threads <= 1 || rows < 2 || row_len == 0 || rows > INT64_MAX / row_len ||
      rows * row_len < min_work)
    return affinegrid(attrs, theta, size, n_size, grid);
  OSW_RETURN_IF_ERROR(affinegrid_rows(attrs, theta, size, n_size, grid, 0, 0));  // the checks
  const int64_t tasks = parallel_tasks(rows, threads);
  auto task = [&](int64_t t, int) {
    int64_t begin, end;
    task_range(rows, tasks, t, &begin, &end);
    affinegrid_rows(attrs, theta, size, n_size, grid, begin, end);  // checked above: cannot fail
  };
  pool->run(tasks, task);
  return Status::Ok();
}

#endif  // OSW_HAVE_THREADS

}  // namespace osw
