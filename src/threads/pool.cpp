// threads/pool.cpp: the thread pool (threads/pool.h): its workers, their sleep and wake-up.
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
    const std::chrono::duration<double, std::micro> spent =
        std::chrono::steady_clock::now() - start;
    if (spent.count() > kSpinMicros) return done();
  }
}

// The pool sleeps on futexes rather than on a mutex and condition variables: one system call
// to sleep and one to wake, where a condition variable woken under its mutex makes the woken
// thread wait for the mutex too; in wasm the wake-up system call is most of the time a job
// takes to start on a sleeping worker.

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

}  // namespace osw
