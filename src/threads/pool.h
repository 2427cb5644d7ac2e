// threads/pool.h: the thread pool of the synchronous API (issue 16), and the operators' runs on it.
//
// OSW_HAVE_THREADS (core/types.h) is the one switch, as OSW_HAVE_SIMD is for SIMD (core/simd.h): 1 in
// a wasm build with -pthread (__EMSCRIPTEN_PTHREADS__) and in a native build that defines
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
// "Threads"): the plan is shared read only; each thread t has its own workspace ws[t];
// resize's whole intermediates are in ws[0] (shared by the ranges of a step, which write
// disjoint parts).
#pragma once

#include <cstdint>

#include "core/types.h"  // (OSW_HAVE_THREADS)

#if OSW_HAVE_THREADS
#include <atomic>
#include <pthread.h>
#endif

#include "affinegrid/affinegrid.h"
#include "gridsample/gridsample.h"
#include "resize/resize.h"

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
    run(tasks, [](void* c, int64_t task, int thread) { (*static_cast<F*>(c))(task, thread); },
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
  std::atomic<int64_t> next_{0};    // the next task to claim
  std::atomic<int> inside_{0};      // workers inside the current job
  std::atomic<int> entered_{0};     // workers that entered the current job (set_all_join)
  std::atomic<int> sleepers_{0};    // workers asleep on wake_ (or about to be)
  std::atomic<bool> stop_{false};
  // Sleep and wake-up after a short spin (kSpinMicros in threads/pool.cpp), on futexes, with no
  // mutex: workers sleep on wake_seq_ (bumped for every job and for stop); the caller sleeps
  // on inside_ while caller_waiting_ is set, and the last worker to leave the job wakes it.
  std::atomic<uint32_t> wake_seq_{0};
  std::atomic<int> caller_waiting_{0};
#endif
};

// ---- the operators on a pool -----------------------------------------------------------------

// Below these amounts of work a call runs on the caller alone: waking a worker and cutting
// the steps costs more than the second core would save (docs/architecture.md, "Threads":
// the measurement). Resize: input + output elements, times 4 for linear and cubic (a
// nearest element costs a few times less than an interpolated one). GridSample: output
// elements (a location costs 10-25 ns on every path, much more than a Resize element).
constexpr int64_t kResizeMinWork = int64_t(1) << 18;
constexpr int64_t kGridSampleMinWork = int64_t(1) << 13;
// AffineGrid: grid locations (3-9 ns each natively).
constexpr int64_t kAffineGridMinWork = int64_t(1) << 15;

// Tasks per thread in one parallel step: more tasks than threads, so that an uneven split
// (a step's last rows, a core another process takes) still balances.
constexpr int64_t kTasksPerThread = 6;
// GridSample's 2-D fast path: each range loses the overlap of planning and gathers on its
// first block, so 2 per thread (gridsample_split).
constexpr int64_t kFastTasksPerThread = 2;

// How many tasks to cut `units` into for `threads` threads (1 when threads is 1).
int64_t parallel_tasks(int64_t units, int threads);
// The units [*begin, *end) of task t of `tasks` over `units` (contiguous, in order).
void task_range(int64_t units, int64_t tasks, int64_t t, int64_t* begin, int64_t* end);

// The split of the whole of Y into tasks for `threads` threads (exposed for tests): over batch
// items when N alone gives enough tasks, else over blocks of each item, and over channels too
// when there are fewer blocks than tasks wanted. Task t's range is gridsample_task(split, t).
// With `shared` (float32 X on the 2-D fast or the generic path, each chunk of items one
// item, b_chunks > 1), the b_chunks tasks of an item and channel chunk do not cut its blocks
// into fixed ranges but take them one at a time from one counter (GridSampleRange::claim):
// blocks cost unequally (a rotated grid's edge blocks, with padding, took 1.45x the middle
// ones in W6), and fixed ranges left one thread waiting for the other.
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

// Resize's work as the threshold counts it.
int64_t resize_work(const ResizePlan& plan);

#if OSW_HAVE_THREADS
// resize_execute() on the pool: the steps in order, each one's units split over the threads,
// ws[t] the workspace of thread t (ws[0] also holds the shared intermediates), pool.threads()
// of them. Runs of less than min_work (resize_work()) go to resize_execute(plan, x, y, ws) on
// the caller (tests pass 0 to split any run). The bytes of y are those of resize_execute()
// for any thread count.
Status resize_execute_parallel(const ResizePlan& plan, const TensorView& x, TensorView* y,
                               ThreadPool* pool, ResizeWorkspace* ws,
                               int64_t min_work = kResizeMinWork);

// gridsample_run(plan, gridsample_whole(plan), ...) on the pool, ws[t] per thread; runs of
// less than min_work output elements on the caller alone.
Status gridsample_run_parallel(const GridSamplePlan& plan, const TensorView& x,
                               const TensorView& grid, TensorView* y, ThreadPool* pool,
                               GridSampleWorkspace* ws, int64_t min_work = kGridSampleMinWork);

// Whether a plan should be made again with smaller blocks for `threads` threads, and the
// tuning to make it with: when the 2-D fast path's blocks are too few to give each thread
// several (W5: a 256 x 256 linear grid is one block of 65536 locations), blocks of
// plan.block / (2 * threads) locations, at least kMinParallelBlock: two per thread, taken
// from a shared counter (GridSampleSplit), so that a thread that starts late (a worker
// woken after the caller began) still finds blocks to take. Splitting the channels instead
// makes every thread plan the whole block again; much smaller blocks make the linear kernel
// slower (gridsample/kernels_fast2d.h, kFastBlockLinear: 32768 took 1.13x the time of 65536, 4096
// 1.8x; W5 on 2 threads in wasm, back to back: 16384 1.02x the time of 32768, 8192 1.1x).
// The block size never changes a result.
constexpr int64_t kMinParallelBlock = 4096;
bool gridsample_parallel_blocks(const GridSamplePlan& plan, int threads, gs::Tuning* tuning,
                                int64_t min_work = kGridSampleMinWork);

// affinegrid() on the pool: its rows (affinegrid_rows) split over the threads; grids of
// fewer than min_work locations on the caller alone.
Status affinegrid_parallel(const AffineGridAttrs& attrs, const TensorView& theta,
                           const int64_t* size, int n_size, TensorView* grid, ThreadPool* pool,
                           int64_t min_work = kAffineGridMinWork);
#else
// A build without threads: the single-thread runs themselves (the default osw.wasm carries
// none of the splitting code).
inline Status resize_execute_parallel(const ResizePlan& plan, const TensorView& x, TensorView* y,
                                      ThreadPool*, ResizeWorkspace* ws, int64_t = 0) {
  return resize_execute(plan, x, y, ws);
}
inline Status gridsample_run_parallel(const GridSamplePlan& plan, const TensorView& x,
                                      const TensorView& grid, TensorView* y, ThreadPool*,
                                      GridSampleWorkspace* ws, int64_t = 0) {
  return gridsample_run(plan, gridsample_whole(plan), x, grid, y, ws);
}
inline bool gridsample_parallel_blocks(const GridSamplePlan&, int, gs::Tuning*, int64_t = 0) {
  return false;
}
inline Status affinegrid_parallel(const AffineGridAttrs& attrs, const TensorView& theta,
                                  const int64_t* size, int n_size, TensorView* grid, ThreadPool*,
                                  int64_t = 0) {
  return affinegrid(attrs, theta, size, n_size, grid);
}
#endif

}  // namespace osw
