// test_threads.cpp: the thread pool (src/threads/pool.h and each operator's parallel.h) and the operators run on it.
//
// Every operator's output is bit for bit the same for 1, 2, 3, 4 and 7 threads as the
// single-thread run's: Resize (every mode, nearest mode, coordinate transformation, all 13
// types, ranks 1-5, exclude_outside, crop boxes, antialias, compat roundings, small allocation
// limits whose failures must be the same errors) and GridSample (ranks 1-3 spatial, every mode
// and padding, align_corners both, X float32/float64 and a few integer types, grid float32 and
// float64, many batch items, small and default blocks) and AffineGrid (2-D and 3-D, its three
// types, align_corners both, empty sizes, errors). In a build without threads
// (OSW_HAVE_THREADS 0: the scalar native build, the wasm Catch2 program) every pool reports 1
// thread and the comparisons still run. Under ThreadSanitizer (scripts/native-tests.mjs,
// osw-tests-tsan) the pools of 2-4 threads make every worker join each step before any
// task is claimed, so the ranges of a step really run at once. A threaded wasm build of these
// tests (checked once by hand: em++ -pthread, under Node) needs a pool of at least 12 Web
// Workers (-sPTHREAD_POOL_SIZE=12): Pools keeps 0 + 1 + 2 + 3 + 6 workers alive.
#include <catch.hpp>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "affinegrid/affinegrid.h"
#include "core/elem.h"
#include "gridsample/gridsample.h"
#include "affinegrid/parallel.h"
#include "gridsample/parallel.h"
#include "resize/parallel.h"
#include "threads/pool.h"
#include "resize/resize.h"
#include "test_plan.h"
#include "test_rng.h"

#if OSW_HAVE_THREADS
#include <atomic>
#endif

using namespace osw;

namespace {

constexpr int kCounts[] = {1, 2, 3, 4, 7};
constexpr int kPools = 5;

// One pool per thread count, each with its workspaces, kept across the cases of a test (so
// the workspaces are dirty from other shapes, as a sampler's are).
struct Pools {
  ThreadPool pool[kPools];
  std::unique_ptr<ResizeWorkspace[]> rws[kPools];
  std::unique_ptr<GridSampleWorkspace[]> gws[kPools];
  Pools() {
    for (int i = 0; i < kPools; ++i) {
      const int got = pool[i].set_threads(kCounts[i]);
      CHECK(got == (OSW_HAVE_THREADS ? kCounts[i] : 1));
      CHECK(pool[i].threads() == got);
      // 2-4 threads: every thread in every job; 7 (more than the cores): as the binding runs.
      pool[i].set_all_join(kCounts[i] > 1 && kCounts[i] < 7);
      rws[i].reset(new ResizeWorkspace[kMaxThreads]);
      gws[i].reset(new GridSampleWorkspace[kMaxThreads]);
    }
  }
  // Whether a workspace of a thread other than the caller's holds memory (a worker ran a
  // task that needed one).
  bool workers_ran(int i) const {
    for (int t = 1; t < kMaxThreads; ++t)
      if (rws[i][t].rows.size() > 0 || rws[i][t].strip.size() > 0 || gws[i][t].bytes() > 0)
        return true;
    return false;
  }
};

const DType kAllTypes[] = {DType::Float32, DType::UInt8,  DType::Int8,    DType::UInt16,
                           DType::Int16,   DType::Int32,  DType::Int64,   DType::Bool,
                           DType::Float16, DType::Float64, DType::UInt32, DType::UInt64,
                           DType::BFloat16};

// n elements of type t: random bytes for integers, 0/1 for bool, finite values in [-300, 300)
// (or [0, 1) when `unit`) for the floating types.
std::vector<unsigned char> random_bytes_of(Rng& r, DType t, int64_t n, bool unit = false) {
  const size_t es = dtype_size(t);
  std::vector<unsigned char> b(size_t(n) * es);
  for (int64_t i = 0; i < n; ++i) {
    unsigned char* p = &b[size_t(i) * es];
    const double v = unit ? r.real(0, 1) : r.real(-300, 300);
    if (t == DType::Float32) {
      const float f = float(v);
      std::memcpy(p, &f, 4);
    } else if (t == DType::Float64) {
      std::memcpy(p, &v, 8);
    } else if (t == DType::Float16) {
      const uint16_t h = half_from_float(float(v));
      std::memcpy(p, &h, 2);
    } else if (t == DType::BFloat16) {
      const uint16_t h = bfloat16_from_float(float(v));
      std::memcpy(p, &h, 2);
    } else if (t == DType::Bool) {
      *p = uint8_t(r.range(0, 1));
    } else {
      for (size_t k = 0; k < es; ++k) p[k] = uint8_t(r.range(0, 255));
    }
  }
  return b;
}

// Whether two outputs are equal byte for byte (a bool, so that a failure does not print
// every byte of both).
bool same_bytes(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  return a == b;
}

using osw_test::view;

}  // namespace

// ---- the pool ------------------------------------------------------------------------------------

TEST_CASE("threads: the pool runs every task once, for any task count, and reports its threads", "[threads][pool]") {
  for (int n : {1, 2, 3, 4, 7}) {
    ThreadPool pool;
    CHECK(pool.threads() == 1);
    CHECK(pool.set_threads(n) == (OSW_HAVE_THREADS ? n : 1));
    for (int64_t tasks : {0, 1, 2, 3, 5, 8, 13, 64, 1000}) {
      std::vector<int> hits(size_t(tasks), 0);
      std::vector<int> thread_of(size_t(tasks), -1);
      auto fn = [&](int64_t t, int thread) {
        hits[size_t(t)] += 1;
        thread_of[size_t(t)] = thread;
      };
      pool.run(tasks, fn);
      for (int64_t t = 0; t < tasks; ++t) {
        INFO(n << " threads, " << tasks << " tasks, task " << t);
        REQUIRE(hits[size_t(t)] == 1);
        REQUIRE(thread_of[size_t(t)] >= 0);
        REQUIRE(thread_of[size_t(t)] < pool.threads());
      }
    }
  }
  ThreadPool pool;
  CHECK(pool.set_threads(0) == 1);
  CHECK(pool.set_threads(-5) == 1);
#if !(defined(__EMSCRIPTEN__) && OSW_HAVE_THREADS)
  // (Not in a threaded wasm build: its threads come from a preloaded pool of Web Workers,
  // and one that is not loaded yet cannot start, nor be joined, while this test runs.)
  CHECK(pool.set_threads(kMaxThreads + 10) == (OSW_HAVE_THREADS ? kMaxThreads : 1));
#endif
  CHECK(pool.set_threads(3) == (OSW_HAVE_THREADS ? 3 : 1));
  CHECK(pool.set_threads(2) == (OSW_HAVE_THREADS ? 2 : 1));
  CHECK(pool.threads() == (OSW_HAVE_THREADS ? 2 : 1));
  CHECK(pool.set_threads(1) == 1);
  int count = 0;
  auto fn = [&](int64_t, int thread) { count += thread == 0 ? 1 : 100; };
  pool.run(10, fn);
  CHECK(count == 10);  // one thread: all on the caller
}

#if OSW_HAVE_THREADS
TEST_CASE("threads: the pool's threads run at once, and each job waits for all its tasks", "[threads][pool]") {
  for (int n : {2, 3, 4}) {
    ThreadPool pool;
    REQUIRE(pool.set_threads(n) == n);
    // n tasks that each wait (at most 20 s) until all n have started: they can only finish
    // if n threads run them at once.
    std::atomic<int> started{0};
    std::atomic<int> seen_mask{0};
    bool all_met = true;
    std::atomic<int> timeouts{0};
    auto fn = [&](int64_t, int thread) {
      seen_mask.fetch_or(1 << thread);
      started.fetch_add(1);
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (started.load() < n) {
        if (std::chrono::steady_clock::now() > until) {
          timeouts.fetch_add(1);
          break;
        }
        std::this_thread::yield();
      }
    };
    pool.run(n, fn);
    all_met = timeouts.load() == 0;
    CHECK(all_met);
    CHECK(seen_mask.load() == (1 << n) - 1);
    // The job ends only when every task has: long tasks on the workers are all done when
    // run() returns.
    std::vector<std::atomic<int>> done(64);
    auto slow = [&](int64_t t, int thread) {
      if (thread != 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      done[size_t(t)].store(1);
    };
    for (int rep = 0; rep < 5; ++rep) {
      for (auto& d : done) d.store(0);
      pool.run(64, slow);
      int sum = 0;
      for (auto& d : done) sum += d.load();
      CHECK(sum == 64);
    }
  }
}
#endif

TEST_CASE("threads: task ranges and the GridSample split cover the work exactly once", "[threads][parallel]") {
  for (int64_t units : {1, 2, 5, 17, 100, 4097}) {
    for (int threads : {1, 2, 3, 4, 7, kMaxThreads}) {
      const int64_t tasks = parallel_tasks(units, threads);
      REQUIRE(tasks >= 1);
      REQUIRE(tasks <= units);
      if (threads == 1) REQUIRE(tasks == 1);
      if (threads > 1 && units >= threads * kTasksPerThread) REQUIRE(tasks == threads * kTasksPerThread);
      int64_t next = 0;
      for (int64_t t = 0; t < tasks; ++t) {
        int64_t b, e;
        task_range(units, tasks, t, &b, &e);
        REQUIRE(b == next);
        REQUIRE(e > b);
        REQUIRE(e - b <= units / tasks + 1);
        next = e;
      }
      REQUIRE(next == units);
    }
  }
  Rng r(16);
  int by_items = 0, by_channels = 0, shared = 0;
  for (int c = 0; c < 400; ++c) {
    GridSamplePlan plan;
    plan.path = r.pick({GridSamplePlan::Path::Generic, GridSamplePlan::Path::Fast2d,
                        GridSamplePlan::Path::EmptyInput});
    plan.x_type = r.pick({DType::Float32, DType::Float32, DType::Float64, DType::UInt8});
    plan.geo.n = r.pick<int64_t>({1, 2, 3, 50, 400});
    plan.geo.c = r.range(1, 9);
    plan.blocks = r.pick<int64_t>({1, 2, 3, 7, 40});
    const int threads = int(r.pick<int64_t>({1, 2, 3, 4, 7}));
    const GridSampleSplit s = gridsample_split(plan, threads);
    INFO("case " << c << " threads " << threads << " n " << plan.geo.n << " c " << plan.geo.c
                 << " blocks " << plan.blocks << " path " << int(plan.path) << " x " << int(plan.x_type));
    if (threads == 1) REQUIRE(s.tasks == 1);
    if (threads > 1)
      REQUIRE(s.tasks >= std::min<int64_t>(threads, plan.geo.n * plan.blocks * plan.geo.c));
    // Blocks shared through counters: exactly on float32 X, 2-D fast or generic path, where
    // an item's blocks would be cut (threaded builds).
    const bool may_share = plan.x_type == DType::Float32 && plan.path != GridSamplePlan::Path::EmptyInput;
    REQUIRE(s.shared == (OSW_HAVE_THREADS && may_share && threads > 1 && s.n_chunks == plan.geo.n &&
                         plan.blocks > 1 && s.b_chunks > 1));
    by_items += s.n_chunks < plan.geo.n;
    by_channels += s.c_chunks > 1;
    shared += s.shared;
    std::vector<int> hits(size_t(plan.geo.n * plan.blocks * plan.geo.c), 0);
    std::vector<int> counter_seen(static_cast<size_t>(kMaxBlockCounters), 0);
    std::vector<GridSampleRange> of_counter(static_cast<size_t>(kMaxBlockCounters));
    for (int64_t t = 0; t < s.tasks; ++t) {
      const GridSampleRange g = gridsample_task(s, t);
      REQUIRE(g.n_begin < g.n_end);
      REQUIRE(g.block_begin < g.block_end);
      REQUIRE(g.c_begin < g.c_end);
      if (s.shared) {
        // One item, all its blocks; the tasks of one counter have the same item and
        // channels, and those are counted once (the counter hands each block out once).
        REQUIRE(g.n_end == g.n_begin + 1);
        REQUIRE(g.block_begin == 0);
        REQUIRE(g.block_end == plan.blocks);
        REQUIRE(s.b_chunks <= threads);
        const int64_t k = gridsample_counter(s, t);
        REQUIRE(k >= 0);
        REQUIRE(k < s.n * s.c_chunks);
        if (counter_seen[size_t(k)]++) {
          const GridSampleRange& f = of_counter[size_t(k)];
          REQUIRE(f.n_begin == g.n_begin);
          REQUIRE(f.c_begin == g.c_begin);
          REQUIRE(f.c_end == g.c_end);
          continue;
        }
        of_counter[size_t(k)] = g;
      }
      for (int64_t n = g.n_begin; n < g.n_end; ++n)
        for (int64_t b = g.block_begin; b < g.block_end; ++b)
          for (int64_t ch = g.c_begin; ch < g.c_end; ++ch)
            hits[size_t((n * plan.blocks + b) * plan.geo.c + ch)] += 1;
    }
    for (int h : hits) REQUIRE(h == 1);
    if (s.shared)
      for (int64_t k = 0; k < s.n * s.c_chunks; ++k) REQUIRE(counter_seen[size_t(k)] == s.b_chunks);
  }
  CHECK(by_items > 10);
  CHECK(by_channels > 10);
  if (OSW_HAVE_THREADS) CHECK(shared > 30);
}

// ---- Resize ----------------------------------------------------------------------------------------

TEST_CASE("threads: Resize gives the same bytes on 1, 2, 3, 4 and 7 threads", "[threads][parallel]") {
  Rng r(0x7E4D);
  Pools pools;
  int checked = 0, errors = 0, split = 0;
  int modes[3] = {}, nearest[5] = {}, coords[7] = {}, types[17] = {}, ranks[6] = {};
  int antialias = 0, exclude = 0;
  bool workers_ran = false;
  for (int c = 0; c < 700; ++c) {
    ResizeAttrs at;
    at.mode = r.pick({ResizeMode::Nearest, ResizeMode::Linear, ResizeMode::Cubic});
    at.nearest = r.pick({NearestMode::RoundPreferFloor, NearestMode::RoundPreferCeil,
                         NearestMode::Floor, NearestMode::Ceil, NearestMode::Opset10});
    at.coord = CoordMode(r.range(0, 6));
    at.antialias = at.mode != ResizeMode::Nearest && r.range(0, 3) == 0;
    at.exclude_outside = at.mode == ResizeMode::Cubic && r.coin();
    at.cubic_a = r.pick({-0.75, -0.5});
    at.compat = r.pick({Compat::Onnx, Compat::Onnx, Compat::OnnxRuntime, Compat::PyTorch});
    at.extrapolation_value = r.pick({0.0, 7.0, -1.5});
    const DType t = c % 5 == 0 ? r.pick({DType::Float32, DType::UInt8}) : kAllTypes[r.range(0, 12)];
    const int rank = int(r.range(1, 5));
    int64_t dims[kMaxRank];
    ResizeInputs in;
    in.has_roi = at.coord == CoordMode::TfCropAndResize;
    const bool by_scales = r.range(0, 3) == 0;
    in.has_scales = by_scales;
    in.has_sizes = !by_scales;
    // A few larger cases (the steps have many units, the tasks real work); mostly small.
    const bool big = c % 10 == 0;
    for (int a = 0; a < rank; ++a) {
      dims[a] = r.range(1, big ? (rank <= 2 ? 300 : rank == 3 ? 40 : 12) : (rank <= 2 ? 40 : 7));
      in.sizes[a] = r.coin() ? dims[a]
                             : r.pick<int64_t>({1, 2, dims[a] / 2 + 1, dims[a] * 2, dims[a] * 2 + 3, dims[a] * 3});
      in.scales[a] = r.pick({1.0, 0.5, 2.0, 1.7, 0.3, 3.0});
      in.roi[a] = r.real(-0.2, 0.3);
      in.roi[rank + a] = r.real(0.7, 1.2);
    }
    if (t == DType::UInt8 && rank == 4 && r.coin()) {  // RGBA images: uint8's integer form
      at.mode = ResizeMode::Linear;
      at.coord = CoordMode::HalfPixel;
      dims[0] = 1;
      dims[3] = in.sizes[0] = in.sizes[3] = 4;
      dims[1] = r.range(1, big ? 60 : 12);
      dims[2] = r.range(1, big ? 60 : 12);
      const bool up = r.coin();
      in.sizes[1] = up ? dims[1] * 2 : dims[1] / 2 + 1;
      in.sizes[2] = up ? dims[2] * 2 : dims[2] / 2 + 1;
      in.has_scales = false;
      in.has_sizes = true;
    }
    ResizeOptions opts;
    opts.type = r.coin() ? t : DType::Undefined;
    // Sometimes a small allocation limit: the runs fail, with the same error on any thread
    // count.
    if (r.range(0, 5) == 0) opts.max_bytes = r.pick<int64_t>({64, 256, 1024, 8192});
    ResizePlan plan;
    if (!resize_plan(at, in, rank, dims, &plan, opts).ok()) continue;
    int64_t nx = 1;
    for (int a = 0; a < rank; ++a) nx *= dims[a];
    if (plan.out_elems == 0 || plan.out_elems > 400000) continue;
    const size_t es = dtype_size(t);
    std::vector<unsigned char> x = random_bytes_of(r, t, nx);
    std::vector<unsigned char> want(size_t(plan.out_elems) * es, 0x5A);
    TensorView xv = view(t, rank, plan.in_dims, x.data());
    TensorView wv = view(t, rank, plan.out_dims, want.data());
    const Status st1 = resize_execute(plan, xv, &wv);
    INFO("case " << c << " mode " << int(at.mode) << " nearest " << int(at.nearest) << " coord "
                 << int(at.coord) << " type " << dtype_name(t) << " rank " << rank << " antialias "
                 << at.antialias << " exclude " << at.exclude_outside << " compat " << int(at.compat)
                 << " limit " << opts.max_bytes << " out " << plan.out_elems);
    ResizeStepInfo info;
    REQUIRE(resize_steps(plan, t, &info).ok());
    for (int i = 0; i < kPools; ++i) {
      INFO(kCounts[i] << " threads");
      std::vector<unsigned char> got(want.size(), 0xA5);
      TensorView gv = view(t, rank, plan.out_dims, got.data());
      // Under a limit, whether a run allocates depends on what its workspaces hold: fresh
      // ones, as the single run's (the binding resets them for every new plan).
      if (opts.max_bytes != kDefaultMaxBytes)
        for (int k = 0; k < kMaxThreads; ++k) pools.rws[i][k].reset();
      const Status st = resize_execute_parallel(plan, xv, &gv, &pools.pool[i], pools.rws[i].get(), 0);
      workers_ran = workers_ran || pools.workers_ran(i);
      REQUIRE(st.kind == st1.kind);
      REQUIRE(st.message == st1.message);
      if (st1.ok()) REQUIRE(same_bytes(got, want));
    }
    if (!st1.ok()) {
      ++errors;
      continue;
    }
    for (int s = 0; s < info.n; ++s) split += info.units[s] > 1;
    ++checked;
    modes[int(at.mode)] += 1;
    if (at.mode == ResizeMode::Nearest) nearest[int(at.nearest)] += 1;
    coords[int(at.coord)] += 1;
    types[int(t)] += 1;
    ranks[rank] += 1;
    antialias += at.antialias;
    exclude += at.exclude_outside;
  }
  CHECK(checked > 400);
  CHECK(errors > 5);
  CHECK(split > 400);
  for (int m = 0; m < 3; ++m) CHECK(modes[m] > 20);
  for (int m = 0; m < 5; ++m) CHECK(nearest[m] > 5);
  for (int m = 0; m < 7; ++m) CHECK(coords[m] > 10);
  for (DType t : kAllTypes) CHECK(types[int(t)] > 5);
  for (int k = 1; k <= 5; ++k) CHECK(ranks[k] > 20);
  CHECK(antialias > 20);
  CHECK(exclude > 10);
  if (OSW_HAVE_THREADS) CHECK(workers_ran);
}

TEST_CASE("threads: Resize above the work threshold splits on its own; below it runs on the caller", "[threads][parallel]") {
  Rng r(5);
  Pools pools;
  for (ResizeMode mode : {ResizeMode::Nearest, ResizeMode::Linear, ResizeMode::Cubic}) {
    for (DType t : {DType::Float32, DType::UInt8}) {
      ResizeAttrs at;
      at.mode = mode;
      ResizeInputs in;
      in.has_sizes = true;
      const int64_t dims[4] = {1, 3, 200, 240};
      in.sizes[0] = 1;
      in.sizes[1] = 3;
      in.sizes[2] = 400;
      in.sizes[3] = 121;
      ResizePlan plan;
      REQUIRE(resize_plan(at, in, 4, dims, &plan).ok());
      REQUIRE(resize_work(plan) >= kResizeMinWork);
      std::vector<unsigned char> x = random_bytes_of(r, t, 3 * 200 * 240);
      std::vector<unsigned char> want(size_t(plan.out_elems) * dtype_size(t), 1);
      TensorView xv = view(t, 4, dims, x.data());
      TensorView wv = view(t, 4, plan.out_dims, want.data());
      REQUIRE(resize_execute(plan, xv, &wv).ok());
      for (int i = 0; i < kPools; ++i) {
        std::vector<unsigned char> got(want.size(), 2);
        TensorView gv = view(t, 4, plan.out_dims, got.data());
        REQUIRE(resize_execute_parallel(plan, xv, &gv, &pools.pool[i], pools.rws[i].get()).ok());
        REQUIRE(same_bytes(got, want));
      }
    }
  }
  // Below the threshold nothing but the caller's workspace is touched.
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  ResizeInputs in;
  in.has_sizes = true;
  const int64_t dims[2] = {40, 50};
  in.sizes[0] = 80;
  in.sizes[1] = 20;
  ResizePlan plan;
  REQUIRE(resize_plan(at, in, 2, dims, &plan).ok());
  std::vector<float> x(2000, 0.5f), y(1600);
  TensorView xv = view(DType::Float32, 2, dims, x.data());
  TensorView yv = view(DType::Float32, 2, plan.out_dims, y.data());
  std::unique_ptr<ResizeWorkspace[]> ws(new ResizeWorkspace[kMaxThreads]);
  REQUIRE(resize_execute_parallel(plan, xv, &yv, &pools.pool[3], ws.get()).ok());
  REQUIRE(resize_work(plan) < kResizeMinWork);
  for (int t = 1; t < kMaxThreads; ++t) CHECK(ws[t].rows.size() + ws[t].strip.size() + ws[t].tmp[0].size() == 0);
  for (float v : y) CHECK(v == 0.5f);
}

// ---- GridSample --------------------------------------------------------------------------------

TEST_CASE("threads: GridSample gives the same bytes on 1, 2, 3, 4 and 7 threads", "[threads][parallel]") {
  Rng r(0x6D5);
  Pools pools;
  int checked = 0, paths[4] = {}, multi_item = 0;
  int combos[3][3] = {};
  bool workers_ran = false;
  for (int c = 0; c < 500; ++c) {
    GridSampleAttrs at;
    at.mode = GridMode(r.range(0, 2));
    at.padding = PaddingMode(r.range(0, 2));
    at.align_corners = r.coin();
    const int sp = int(r.pick<int64_t>({1, 2, 2, 2, 3, 3}));
    const DType xt = c % 6 == 5 ? r.pick({DType::UInt8, DType::Int32, DType::Float16})
                                : r.pick({DType::Float32, DType::Float32, DType::Float64});
    if (xt != DType::Float32 && xt != DType::Float64) at.integer_rounding = int32_t(r.range(0, 2));
    const DType gt = r.pick({DType::Float32, DType::Float64});
    const bool big = c % 8 == 0;
    int64_t xd[kMaxRank], gd[kMaxRank];
    xd[0] = gd[0] = r.pick<int64_t>({1, 1, 2, 3, 30});
    xd[1] = r.range(1, big ? 8 : 5);
    const int64_t max_in = sp == 3 ? 6 : 20, max_out = big ? (sp == 3 ? 12 : sp == 2 ? 70 : 400)
                                                          : (sp == 3 ? 5 : sp == 2 ? 14 : 40);
    for (int a = 0; a < sp; ++a) {
      xd[2 + a] = r.range(1, max_in);
      gd[1 + a] = r.range(1, max_out);
    }
    gd[1 + sp] = sp;
    TensorView X = view(xt, sp + 2, xd, nullptr), G = view(gt, sp + 2, gd, nullptr), Y;
    REQUIRE(gridsample_output_shape(X, G, &Y).ok());
    Y.type = xt;
    if (Y.elements() > 300000) continue;
    std::vector<unsigned char> xb = random_bytes_of(r, xt, X.elements());
    // Grid values mostly inside [-1, 1], some out (padding), as doubles then encoded.
    std::vector<unsigned char> gb(size_t(G.elements()) * dtype_size(gt));
    for (int64_t i = 0; i < G.elements(); ++i) {
      const double v = r.range(0, 9) == 0 ? r.real(-3, 3) : r.real(-1.05, 1.05);
      if (gt == DType::Float32) {
        const float f = float(v);
        std::memcpy(&gb[size_t(i) * 4], &f, 4);
      } else {
        std::memcpy(&gb[size_t(i) * 8], &v, 8);
      }
    }
    X.data = xb.data();
    G.data = gb.data();
    gs::Tuning tuning;
    tuning.block = r.pick<int64_t>({0, 0, 1, 3, 7, 16, 64});
    const size_t es = dtype_size(xt);
    std::vector<unsigned char> want(size_t(Y.elements()) * es, 0x5A);
    Y.data = want.data();
    REQUIRE(gs::gridsample_tuned(at, X, G, &Y, tuning).ok());
    GridSamplePlan plan;
    REQUIRE(gridsample_plan(at, X, G, Y, tuning, &plan).ok());
    INFO("case " << c << " X " << dtype_name(xt) << " rank " << sp + 2 << " N " << xd[0] << " C "
                 << xd[1] << " grid " << dtype_name(gt) << " mode " << int(at.mode) << " padding "
                 << int(at.padding) << " align " << at.align_corners << " block " << tuning.block
                 << " path " << int(plan.path) << " blocks " << plan.blocks);
    for (int i = 0; i < kPools; ++i) {
      INFO(kCounts[i] << " threads");
      std::vector<unsigned char> got(want.size(), 0xA5);
      TensorView gy = Y;
      gy.data = got.data();
      REQUIRE(gridsample_run_parallel(plan, X, G, &gy, &pools.pool[i], pools.gws[i].get(), 0).ok());
      workers_ran = workers_ran || pools.workers_ran(i);
      REQUIRE(same_bytes(got, want));
    }
    ++checked;
    paths[int(plan.path)] += 1;
    multi_item += xd[0] >= 30;
    combos[int(at.mode)][int(at.padding)] += 1;
  }
  CHECK(checked > 400);
  CHECK(paths[int(GridSamplePlan::Path::Generic)] > 100);
  CHECK(paths[int(GridSamplePlan::Path::Fast2d)] > 50);
  CHECK(multi_item > 20);
  for (auto& row : combos)
    for (int n : row) CHECK(n > 15);
  if (OSW_HAVE_THREADS) CHECK(workers_ran);
}

TEST_CASE("threads: GridSample above the work threshold splits on its own (W5/W6-like shapes)", "[threads][parallel]") {
  Rng r(9);
  Pools pools;
  int replanned = 0;
  for (GridMode mode : {GridMode::Linear, GridMode::Cubic, GridMode::Nearest}) {
    const int64_t xd[4] = {1, 5, 64, 64}, gd[4] = {1, 96, 80, 2};
    TensorView X = view(DType::Float32, 4, xd, nullptr), G = view(DType::Float32, 4, gd, nullptr), Y;
    REQUIRE(gridsample_output_shape(X, G, &Y).ok());
    Y.type = DType::Float32;
    std::vector<unsigned char> xb = random_bytes_of(r, DType::Float32, X.elements(), true);
    std::vector<float> g(size_t(G.elements()));
    for (float& v : g) v = float(r.real(-1.1, 1.1));
    X.data = xb.data();
    G.data = g.data();
    GridSampleAttrs at;
    at.mode = mode;
    std::vector<unsigned char> want(size_t(Y.elements()) * 4);
    Y.data = want.data();
    REQUIRE(gridsample(at, X, G, &Y).ok());
    GridSamplePlan plan;
    REQUIRE(gridsample_plan(at, X, G, Y, gs::Tuning(), &plan).ok());
    for (int i = 0; i < kPools; ++i) {
      std::vector<unsigned char> got(want.size(), 0xA5);
      TensorView gy = Y;
      gy.data = got.data();
      // As the binding plans: again in smaller blocks when there are too few to share.
      GridSamplePlan used = plan;
      gs::Tuning tuning;
      if (gridsample_parallel_blocks(plan, pools.pool[i].threads(), &tuning)) {
        REQUIRE(gridsample_plan(at, X, G, Y, tuning, &used).ok());
        CHECK(used.blocks > plan.blocks);
        ++replanned;
      }
      REQUIRE(gridsample_run_parallel(used, X, G, &gy, &pools.pool[i], pools.gws[i].get()).ok());
      REQUIRE(same_bytes(got, want));
    }
  }
  // Linear (one block of 7680 locations) is planned again on 2, 3, 4 and 7 threads.
  CHECK(replanned == (OSW_HAVE_THREADS ? 4 : 0));
  // Below the threshold only the caller's workspace is used.
  const int64_t xd[4] = {1, 2, 16, 16}, gd[4] = {1, 40, 40, 2};
  TensorView X = view(DType::Float32, 4, xd, nullptr), G = view(DType::Float32, 4, gd, nullptr), Y;
  REQUIRE(gridsample_output_shape(X, G, &Y).ok());
  REQUIRE(Y.elements() < kGridSampleMinWork);
  Y.type = DType::Float32;
  std::vector<float> x(512, 0.25f), g(3200, 0.0f), y(3200);
  X.data = x.data();
  G.data = g.data();
  Y.data = y.data();
  GridSamplePlan plan;
  REQUIRE(gridsample_plan(GridSampleAttrs(), X, G, Y, gs::Tuning(), &plan).ok());
  std::unique_ptr<GridSampleWorkspace[]> ws(new GridSampleWorkspace[kMaxThreads]);
  REQUIRE(gridsample_run_parallel(plan, X, G, &Y, &pools.pool[3], ws.get()).ok());
  CHECK(ws[0].bytes() > 0);
  for (int t = 1; t < kMaxThreads; ++t) CHECK(ws[t].bytes() == 0);
  for (float v : y) CHECK(v == 0.25f);
}

// ---- AffineGrid --------------------------------------------------------------------------------

TEST_CASE("threads: AffineGrid gives the same bytes on 1, 2, 3, 4 and 7 threads", "[threads][parallel]") {
  Rng r(0xA6);
  Pools pools;
  int checked = 0, failed = 0, dims3 = 0;
  for (int c = 0; c < 300; ++c) {
    const int n_size = r.coin() ? 4 : 5;
    const int sp = n_size - 2;
    const DType t = r.pick({DType::Float32, DType::Float64, DType::Float16});
    const bool big = c % 10 == 0;
    int64_t size[5];
    size[0] = r.range(1, 4);
    size[1] = r.range(1, 3);
    for (int i = 2; i < n_size; ++i)
      size[i] = r.range(0, 9) == 0 ? 0 : r.range(1, big ? (sp == 2 ? 300 : 40) : (sp == 2 ? 30 : 8));
    // Sometimes a theta of the wrong shape (an error on every thread count).
    const bool wrong = r.range(0, 14) == 0;
    const int64_t th_dims[3] = {size[0], sp, wrong ? sp : sp + 1};
    std::vector<unsigned char> th = random_bytes_of(r, t, th_dims[0] * th_dims[1] * th_dims[2]);
    TensorView theta = view(t, 3, th_dims, th.data()), grid;
    AffineGridAttrs at;
    at.align_corners = r.coin();
    TensorView shape;
    const Status st_shape = affinegrid_output_shape(theta, size, n_size, &shape);
    if (!st_shape.ok()) {
      // The shape was refused: the run refuses it the same way on every pool.
      grid.type = t;
      for (int i = 0; i < kPools; ++i) {
        const Status st = affinegrid_parallel(at, theta, size, n_size, &grid, &pools.pool[i], 0);
        REQUIRE(st.kind == ErrorKind::RangeError);
        REQUIRE(st.message == affinegrid(at, theta, size, n_size, &grid).message);
      }
      ++failed;
      continue;
    }
    const size_t bytes = size_t(shape.elements()) * dtype_size(t);
    std::vector<unsigned char> want(bytes, 0x5A);
    grid = shape;
    grid.data = want.data();
    REQUIRE(affinegrid(at, theta, size, n_size, &grid).ok());
    INFO("case " << c << " " << dtype_name(t) << " n_size " << n_size << " align " << at.align_corners);
    for (int i = 0; i < kPools; ++i) {
      std::vector<unsigned char> got(bytes, 0xA5);
      TensorView g = shape;
      g.data = got.data();
      REQUIRE(affinegrid_parallel(at, theta, size, n_size, &g, &pools.pool[i], 0).ok());
      REQUIRE(same_bytes(got, want));
    }
    ++checked;
    dims3 += sp == 3;
  }
  CHECK(checked > 200);
  CHECK(failed > 5);
  CHECK(dims3 > 80);
  // Rows outside the grid are refused.
  float th[6] = {1, 0, 0, 0, 1, 0};
  const int64_t th_dims[3] = {1, 2, 3}, size[4] = {1, 1, 4, 5};
  TensorView theta = view(DType::Float32, 3, th_dims, th), grid;
  REQUIRE(affinegrid_output_shape(theta, size, 4, &grid).ok());
  std::vector<float> g(40, -7.0f);
  grid.data = g.data();
  CHECK(affinegrid_row_count(size, 4) == 4);
  CHECK(affinegrid_rows(AffineGridAttrs(), theta, size, 4, &grid, 0, 5).kind == ErrorKind::RangeError);
  CHECK(affinegrid_rows(AffineGridAttrs(), theta, size, 4, &grid, 3, 2).kind == ErrorKind::RangeError);
  // One row alone writes its W locations and nothing else.
  REQUIRE(affinegrid_rows(AffineGridAttrs(), theta, size, 4, &grid, 2, 3).ok());
  for (int i = 0; i < 40; ++i) CHECK((g[size_t(i)] == -7.0f) == (i < 20 || i >= 30));
}
