// threads/pool.cpp: the thread pool (threads/pool.h) and the operators' runs on it.
#include "threads/pool.h"

#include <algorithm>
#if OSW_HAVE_THREADS
#include <chrono>
#include <climits>
#include <cmath>
#include <thread>
#ifdef __EMSCRIPTEN__
#include <emscripten/threading.h>
#else
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#endif
#include <utility>

#include "affinegrid/affinegrid.h"
#include "gridsample/gridsample.h"
#include "resize/resize.h"

namespace osw {

// ---- the pool ----------------------------------------------------------------------------------

#if OSW_HAVE_THREADS

namespace {

// How long a worker keeps looking for the next job before it sleeps, and how long the caller
// waits for the workers still inside a job before it sleeps: a run's next step follows its
// previous one within microseconds, and waking a sleeping thread costs tens of microseconds.
constexpr double kSpinMicros = 50;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until done() or for about kSpinMicros; returns done()'s last value.
template <typename Done>
bool spin_until(Done done) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    const std::chrono::duration<double, std::micro> spent = std::chrono::steady_clock::now() - start;
    if (spent.count() > kSpinMicros) return done();
  }
}

// The pool sleeps on futexes rather than on a mutex and condition variables: one system call
// to sleep and one to wake, where a condition variable woken under its mutex makes the woken
// thread wait for the mutex too. Measured in wasm on the 2-core machine kind (Node, W1 of
// bench/ against a worker asleep since the last call): the caller took about 230 us from
// posting a job to starting its own tasks, and the worker about 280 us to start; with
// futexes about 90 and 130 us, most of it the wake-up system call in the virtual machine.

// Blocks while *word == value, or until woken (a spurious return is allowed: callers loop).
template <typename T>
void futex_wait(std::atomic<T>* word, T value) {
  static_assert(sizeof(T) == 4, "a futex is a 32-bit word");
#ifdef __EMSCRIPTEN__
  emscripten_futex_wait(static_cast<volatile void*>(word), static_cast<uint32_t>(value), INFINITY);
#else
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE,
          static_cast<uint32_t>(value), nullptr, nullptr, 0);
#endif
}

// Wakes every thread blocked in futex_wait() on word.
template <typename T>
void futex_wake_all(std::atomic<T>* word) {
#ifdef __EMSCRIPTEN__
  emscripten_futex_wake(static_cast<volatile void*>(word), INT_MAX);
#else
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
          nullptr, 0);
#endif
}

}  // namespace

ThreadPool::~ThreadPool() { stop_workers(); }

void* ThreadPool::worker_main(void* arg) {
  WorkerArg* a = static_cast<WorkerArg*>(arg);
  a->pool->worker_loop(a->id);
  return nullptr;
}

void ThreadPool::worker_loop(int id) {
  uint64_t seen = 0;  // the last generation this worker entered or found closed
  auto posted = [&] {
    const uint64_t g = gen_.load();
    return stop_.load() || ((g & 1) && g != seen);
  };
  for (;;) {
    if (!spin_until(posted)) {
      // Sleep: read the word, count in as a sleeper, then look once more. The caller bumps
      // the word after posting and then reads sleepers_ (all sequentially consistent), so
      // either this look sees the job, or the caller sees this sleeper and wakes the word,
      // which then no longer holds seq (a wake before the wait makes the wait return).
      const uint32_t seq = wake_seq_.load();
      sleepers_.fetch_add(1);
      if (!posted()) futex_wait(&wake_seq_, seq);
      sleepers_.fetch_sub(1);
      continue;  // look again (the wake-up may be spurious)
    }
    if (stop_.load()) return;
    const uint64_t g = gen_.load();
    seen = g;
    // Enter: count in, then check the job is open and still the one seen. If the caller
    // closed it in between, either it sees this worker inside (and waits for it), or this
    // worker sees it closed (and reads nothing of it).
    inside_.fetch_add(1);
    if ((g & 1) && gen_.load() == g) {
      entered_.fetch_add(1);
      work(id);
    }
    // The last one out wakes a caller that sleeps (caller_waiting_ set before it reads
    // inside_: one of the two sees the other).
    if (inside_.fetch_sub(1) == 1 && caller_waiting_.load()) futex_wake_all(&inside_);
  }
}

// Claims tasks until none is left. Runs inside a job: its fields do not change meanwhile.
void ThreadPool::work(int thread) {
  const TaskFn fn = fn_;
  void* const ctx = ctx_;
  const int64_t tasks = tasks_;
  for (;;) {
    const int64_t t = next_.fetch_add(1, std::memory_order_relaxed);
    if (t >= tasks) break;
    fn(ctx, t, thread);
  }
}

void ThreadPool::run(int64_t tasks, TaskFn fn, void* ctx) {
  if (tasks <= 0) return;
  if (n_workers_ == 0 || tasks == 1) {
    for (int64_t t = 0; t < tasks; ++t) fn(ctx, t, 0);
    return;
  }
  // Post: no worker is inside a job now (the previous run waited for inside_ == 0).
  fn_ = fn;
  ctx_ = ctx;
  tasks_ = tasks;
  next_.store(0, std::memory_order_relaxed);
  entered_.store(0);
  gen_.fetch_add(1);  // odd: open
  wake_seq_.fetch_add(1);
  if (sleepers_.load() > 0) futex_wake_all(&wake_seq_);
  if (all_join_) {
    while (entered_.load() < n_workers_) std::this_thread::yield();
  }
  work(0);
  // Every task is claimed: close the job, then wait for the workers inside it. (A worker
  // that never woke up for it is not waited for: in Emscripten a thread whose Web Worker is
  // not running yet cannot hold the caller up.)
  gen_.fetch_add(1);  // even: closed
  auto none_inside = [&] { return inside_.load() == 0; };
  if (!spin_until(none_inside)) {
    caller_waiting_.store(1);
    for (int v = inside_.load(); v != 0; v = inside_.load()) futex_wait(&inside_, v);
    caller_waiting_.store(0);
  }
}

void ThreadPool::stop_workers() {
  if (n_workers_ == 0) return;
  stop_.store(true);
  wake_seq_.fetch_add(1);
  futex_wake_all(&wake_seq_);
  for (int i = 0; i < n_workers_; ++i) pthread_join(workers_[i], nullptr);
  n_workers_ = 0;
  stop_.store(false);
  n_threads_ = 1;
}

int ThreadPool::set_threads(int n) {
  n = std::max(1, std::min(n, kMaxThreads));
  if (n == n_threads_) return n_threads_;
  stop_workers();
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  // The kernels keep little on the stack; 256 KiB is ample, and in wasm each thread's stack
  // is taken from the heap.
  pthread_attr_setstacksize(&attr, 256 << 10);
  for (int i = 0; i < n - 1; ++i) {
    args_[i].pool = this;
    args_[i].id = i + 1;
    if (pthread_create(&workers_[i], &attr, &ThreadPool::worker_main, &args_[i]) != 0) break;
    ++n_workers_;
  }
  pthread_attr_destroy(&attr);
  n_threads_ = n_workers_ + 1;
  return n_threads_;
}

#endif

// ---- splitting ---------------------------------------------------------------------------------

int64_t parallel_tasks(int64_t units, int threads) {
  if (threads <= 1 || units <= 1) return std::max<int64_t>(units, 0) > 0 ? 1 : 0;
  return std::min<int64_t>(units, threads * kTasksPerThread);
}

void task_range(int64_t units, int64_t tasks, int64_t t, int64_t* begin, int64_t* end) {
  // Contiguous parts whose sizes differ by at most one: task t gets floor(units * t / tasks)
  // onwards (without overflow: units < 2^63 and tasks small).
  const int64_t q = units / tasks, r = units % tasks;
  *begin = t * q + std::min(t, r);
  *end = *begin + q + (t < r ? 1 : 0);
}

// ---- failures inside tasks -----------------------------------------------------------------------

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
namespace {

// The first failure of a parallel step, by task number, so that the message a caller sees does
// not depend on which thread met which failure first. Each thread writes only its own slot;
// the caller reads them after the barrier (the pool's run() returning).
struct TaskErrors {
  int64_t task[kMaxThreads];
  Status status[kMaxThreads];
  explicit TaskErrors(int threads) : n(threads) {
    for (int i = 0; i < n; ++i) task[i] = -1;
  }
  void record(int thread, int64_t t, Status st) {
    if (task[thread] < 0 || t < task[thread]) {
      task[thread] = t;
      status[thread] = std::move(st);
    }
  }
  Status first() {
    int best = -1;
    for (int i = 0; i < n; ++i)
      if (task[i] >= 0 && (best < 0 || task[i] < task[best])) best = i;
    return best < 0 ? Status::Ok() : status[best];
  }
  int n;
};

}  // namespace

// ---- Resize ------------------------------------------------------------------------------------

Status resize_execute_parallel(const ResizePlan& plan, const TensorView& x, TensorView* y,
                               ThreadPool* pool, ResizeWorkspace* ws, int64_t min_work) {
  const int threads = pool->threads();
  if (threads <= 1 || resize_work(plan) < min_work)
    return resize_execute(plan, x, y, ws);
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

// ---- GridSample --------------------------------------------------------------------------------

#endif  // OSW_HAVE_THREADS

GridSampleSplit gridsample_split(const GridSamplePlan& plan, int threads) {
  GridSampleSplit s;
  s.n = plan.geo.n;
  s.blocks = plan.blocks;
  s.c = plan.geo.c;
  if (threads <= 1 || plan.path == GridSamplePlan::Path::Nothing || s.n <= 0 || s.blocks <= 0 ||
      s.c <= 0)
    return s;
  // The fast path plans a range's first block before any of its work (the later ones are
  // planned between the gathers of the one before): fewer, longer ranges there. Measured on
  // W6 (16 blocks) run by one thread as 12 ranges took 1.19x the time of one range.
  const int64_t per_thread = plan.path == GridSamplePlan::Path::Fast2d ? kFastTasksPerThread
                                                                        : kTasksPerThread;
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
    s.shared = OSW_HAVE_THREADS && plan.x_type == DType::Float32 && s.b_chunks > 1 &&
               (plan.path == GridSamplePlan::Path::Fast2d ||
                plan.path == GridSamplePlan::Path::Generic) &&
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
    for (int64_t i = 0; i < split.n * split.c_chunks; ++i) counters[i].store(0, std::memory_order_relaxed);
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

// ---- AffineGrid --------------------------------------------------------------------------------

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
