// threads/pool.h: the thread pool of the synchronous API, and the helpers that cut a count of
// work units into tasks. It knows no operator: each operator describes its parallel work as
// a number of tasks and a callable (resize/parallel.h, gridsample/parallel.h,
// affinegrid/parallel.h), and the pool runs it.
//
// OSW_HAVE_THREADS (core/types.h) is the one switch, as OSW_HAVE_SIMD is for SIMD (core/simd.h): 1
// in a wasm build with -pthread (__EMSCRIPTEN_PTHREADS__) and in a native build that defines
// OSW_THREADS=1 (with -pthread: tests/native's ASan and TSAN builds); 0 everywhere else (the
// default single-threaded osw.wasm, the scalar native build). With 0 the pool is a stub that
// runs every task on the caller and reports 1 thread, and no thread, mutex or atomic is
// referenced.
//
// ThreadPool: `threads - 1` workers started by set_threads() (never per call: in Emscripten
// each one takes a Web Worker of the preloaded pool), the caller taking part as thread 0.
// run(tasks, fn) calls fn(task, thread) once for every task in [0, tasks), each task claimed
// by whichever thread takes the next number of an atomic counter, and returns when all are
// done: its return is the barrier between the steps of a run. fn must not throw (the core is
// built without exceptions); a task that fails records its Status for the caller, which
// reports it after the barrier. The pool allocates nothing per call. A worker that finished a
// job spins a little (the next step of a run follows within microseconds) before it sleeps
// on a condition variable; the kernels take no lock.
//
// The pool owns no tensor memory. Who owns what in a threaded run (docs/architecture.md,
// "Threads"): the plan is shared read only; each thread t has its own workspace ws[t], which
// the operator allocates with kMaxThreads entries.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/types.h"  // (OSW_HAVE_THREADS)

#if OSW_HAVE_THREADS
#include <pthread.h>
#include <atomic>
#endif

#include <utility>

namespace osw {

// The most threads one pool runs (the callers' workspace arrays have this many entries).
constexpr int kMaxThreads = OSW_HAVE_THREADS ? 64 : 1;

class ThreadPool {
 public:
  using TaskFn = void (*)(void* ctx, int64_t task, int thread);

  ThreadPool() = default;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  // Uses n threads from now on (n clamped to [1, kMaxThreads]; 1 in a build without
  // threads): stops the workers, then starts n - 1 new ones. Returns the number in use,
  // less than n if the system refused to start a thread.
#if OSW_HAVE_THREADS
  ~ThreadPool();  // stops and joins the workers
  int set_threads(int n);
#else
  int set_threads(int) { return 1; }
#endif
  int threads() const { return n_threads_; }

  // Tests: when on, run() waits until every worker has entered a job before the caller
  // claims any task, so that every job of more than one task runs on all threads at once
  // (ThreadSanitizer then sees each step's ranges really concurrent). Never in the binding:
  // a Web Worker that is not running yet would hold the caller.
  void set_all_join(bool on) { all_join_ = on; }

  // fn(ctx, task, thread) for every task in [0, tasks), thread in [0, threads()); returns
  // when every task has run.
#if OSW_HAVE_THREADS
  void run(int64_t tasks, TaskFn fn, void* ctx);
#else
  void run(int64_t tasks, TaskFn fn, void* ctx) {
    for (int64_t t = 0; t < tasks; ++t) fn(ctx, t, 0);
  }
#endif

  template <typename F>
  void run(int64_t tasks, F& f) {
    run(
        tasks, [](void* c, int64_t task, int thread) { (*static_cast<F*>(c))(task, thread); },
        static_cast<void*>(&f));
  }

 private:
  int n_threads_ = 1;
  bool all_join_ = false;
#if OSW_HAVE_THREADS
  static void* worker_main(void* arg);
  void worker_loop(int id);
  struct WorkerArg {
    ThreadPool* pool;
    int id;
  };
  void work(int thread);  // claims and runs tasks of the current job
  void stop_workers();

  pthread_t workers_[kMaxThreads] = {};
  WorkerArg args_[kMaxThreads] = {};
  int n_workers_ = 0;

  // The job: its function, context and task count, written by the caller while no worker
  // is inside a job, then published by gen_ (odd: job (gen_ + 1) / 2 open; even: closed).
  // A worker enters a job by counting itself in inside_ and then seeing gen_ still odd and
  // new to it; the caller closes the job (gen_ even) once every task is claimed, then waits
  // until inside_ is 0, so it never rewrites the job under a worker. All in sequentially
  // consistent order (the close and the entry are a Dekker pair).
  TaskFn fn_ = nullptr;
  void* ctx_ = nullptr;
  int64_t tasks_ = 0;
  std::atomic<uint64_t> gen_{0};
  std::atomic<int64_t> next_{0};  // the next task to claim
  std::atomic<int> inside_{0};    // workers inside the current job
  std::atomic<int> entered_{0};   // workers that entered the current job (set_all_join)
  std::atomic<int> sleepers_{0};  // workers asleep on wake_ (or about to be)
  std::atomic<bool> stop_{false};
  // Sleep and wake-up after a short spin (kSpinMicros in threads/pool.cpp), on futexes, with no
  // mutex: workers sleep on wake_seq_ (bumped for every job and for stop); the caller sleeps
  // on inside_ while caller_waiting_ is set, and the last worker to leave the job wakes it.
  std::atomic<uint32_t> wake_seq_{0};
  std::atomic<int> caller_waiting_{0};
#endif
};

// ---- cutting work into tasks -------------------------------------------------------------------

// Tasks per thread in one parallel step: more tasks than threads, so that an uneven split
// (a step's last rows, a core another process takes) still balances.
constexpr int64_t kTasksPerThread = 6;

// How many tasks to cut `units` into for `threads` threads (1 when threads is 1).
inline int64_t parallel_tasks(int64_t units, int threads) {
  if (threads <= 1 || units <= 1) return std::max<int64_t>(units, 0) > 0 ? 1 : 0;
  return std::min<int64_t>(units, threads * kTasksPerThread);
}

// The units [*begin, *end) of task t of `tasks` over `units` (contiguous, in order).
inline void task_range(int64_t units, int64_t tasks, int64_t t, int64_t* begin, int64_t* end) {
  // Contiguous parts whose sizes differ by at most one: task t gets floor(units * t / tasks)
  // onwards (without overflow: units < 2^63 and tasks small).
  const int64_t q = units / tasks, r = units % tasks;
  *begin = t * q + std::min(t, r);
  *end = *begin + q + (t < r ? 1 : 0);
}

#if OSW_HAVE_THREADS
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
#endif

}  // namespace osw
