// bench_threads.cpp: native timing of the threaded runs (src/threads/pool.h and each operator's parallel.h), 1 thread against N.
//
// Not a test and not part of `npm test`: build it on demand (tests/native, target
// osw-bench-threads: -O2, SIMDe, -pthread) and run it on an idle machine:
//   cmake --build build-native --target osw-bench-threads && build-native/osw-bench-threads [N] [rounds] [cold]
// For the workloads of bench/README.md (W1-W7b) it prints the best and the median of
// `rounds` timed calls (default 15) on 1 and on N threads (default 2), interleaved call by
// call, and their ratio; then a sweep of Resize and GridSample sizes around the work
// thresholds (kResizeMinWork, kGridSampleMinWork) timed with the threshold off (min_work 0), which is how the
// threshold was chosen; then the per-call time of a tiny Resize (the overhead case).
// With `cold`, every timed call starts as in `npm run bench`: caches evicted, the pool asleep
// (gap() below).
// Runs the calls the way bindings/embind.cpp does: a Resize plan built once, its workspaces
// kept; GridSample planned on every call, its workspaces reset after it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "affinegrid/affinegrid.h"
#include "gridsample/gridsample.h"
#include "affinegrid/parallel.h"
#include "gridsample/parallel.h"
#include "resize/parallel.h"
#include "threads/pool.h"
#include "resize/resize.h"
#include "test_plan.h"

using namespace osw;

namespace {

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Stat {
  double best, median;
};

Stat stat_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

using osw_test::view;

struct Resize {
  ResizePlan plan;
  DType type;
  std::vector<unsigned char> x, y;
  std::unique_ptr<ResizeWorkspace[]> ws{new ResizeWorkspace[kMaxThreads]};
  // The binding's path: a plan built once.
  Resize(const ResizeAttrs& at, const ResizeInputs& in, int rank, const int64_t* dims, DType t)
      : type(t) {
    ResizeOptions o;
    o.type = t;
    if (!resize_plan(at, in, rank, dims, &plan, o).ok()) std::abort();
    int64_t n = 1;
    for (int a = 0; a < rank; ++a) n *= dims[a];
    x.resize(size_t(n) * dtype_size(t));
    std::mt19937 g(1);
    if (t == DType::Float32) {
      float* p = reinterpret_cast<float*>(x.data());
      for (int64_t i = 0; i < n; ++i) p[i] = float(g() % 1000) / 1000.0f;
    } else {
      for (auto& b : x) b = uint8_t(g());
    }
    y.resize(size_t(plan.out_elems) * dtype_size(t));
  }
  void run(ThreadPool* pool, int64_t min_work) {
    TensorView xv = view(type, plan.rank, plan.in_dims, x.data());
    TensorView yv = view(type, plan.rank, plan.out_dims, y.data());
    if (!resize_execute_parallel(plan, xv, &yv, pool, ws.get(), min_work).ok()) std::abort();
  }
};

struct Grid {
  GridSampleAttrs at;
  TensorView X, G, Y;
  std::vector<float> x, g, y;
  std::unique_ptr<GridSampleWorkspace[]> ws{new GridSampleWorkspace[kMaxThreads]};
  gs::Tuning tuning;  // block 0: the default blocks
  bool replan = true;  // as the binding: smaller blocks on several threads (gridsample_parallel_blocks)
  // X (1, c, h, w); the grid of a 30 degree rotation of (1, h, w), align_corners 0.
  Grid(GridMode mode, PaddingMode pad, int64_t c, int64_t h, int64_t w) {
    at.mode = mode;
    at.padding = pad;
    const int64_t xd[4] = {1, c, h, w}, gd[4] = {1, h, w, 2};
    x.resize(size_t(c * h * w));
    std::mt19937 r(2);
    for (float& v : x) v = float(r() % 1000) / 1000.0f;
    g.resize(size_t(h * w * 2));
    const double a = 30.0 * 3.14159265358979323846 / 180.0, ca = std::cos(a), sa = std::sin(a);
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < w; ++j) {
        const double bx = (2.0 * j + 1 - w) / w, by = (2.0 * i + 1 - h) / h;
        g[size_t((i * w + j) * 2)] = float(ca * bx - sa * by);
        g[size_t((i * w + j) * 2 + 1)] = float(sa * bx + ca * by);
      }
    X = view(DType::Float32, 4, xd, x.data());
    G = view(DType::Float32, 4, gd, g.data());
    if (!gridsample_output_shape(X, G, &Y).ok()) std::abort();
    Y.type = DType::Float32;
    y.resize(size_t(Y.elements()));
    Y.data = y.data();
  }
  void run(ThreadPool* pool, int64_t min_work) {
    GridSamplePlan plan;
    gs::Tuning t = tuning;
    if (!gridsample_plan(at, X, G, Y, t, &plan).ok()) std::abort();
    if (replan && gridsample_parallel_blocks(plan, pool->threads(), &t) &&
        !gridsample_plan(at, X, G, Y, t, &plan).ok())
      std::abort();
    if (!gridsample_run_parallel(plan, X, G, &Y, pool, ws.get(), min_work).ok()) std::abort();
    for (int t = 0; t < pool->threads(); ++t) ws[t].reset();
  }
};

// The gap before each timed call (main(): "cold"): the caller writes kEvictBytes (the
// caches then hold none of the call's data) and keeps busy until kGapMicros have passed
// since the gap began (the writing included), while the pool's workers sleep: what `npm run
// bench` does in V8 (a garbage collection, then 15 ms with the event loop turning) without V8.
// (The threshold sweep below runs cold too, and so takes about a minute longer.)
bool g_cold = false;
constexpr size_t kEvictBytes = size_t(64) << 20;
constexpr double kGapMicros = 15000;
void gap() {
  static std::vector<unsigned char> evict(kEvictBytes);
  static unsigned char v = 0;
  const double t0 = now_us();
  std::fill(evict.begin(), evict.end(), ++v);
  volatile unsigned sink = 0;
  while (now_us() - t0 < kGapMicros) sink = sink + 1;
}

// Times fn on pool a and pool b, interleaved, `rounds` times each after one warm-up.
void compare(const char* name, ThreadPool* a, ThreadPool* b, int rounds,
             const std::function<void(ThreadPool*)>& fn) {
  std::vector<double> ta, tb;
  fn(a);
  fn(b);
  for (int i = 0; i < rounds; ++i) {
    for (int k = 0; k < 2; ++k) {
      ThreadPool* p = (i + k) % 2 ? b : a;
      if (g_cold) gap();
      const double t0 = now_us();
      fn(p);
      (p == a ? ta : tb).push_back(now_us() - t0);
    }
  }
  const Stat sa = stat_of(ta), sb = stat_of(tb);
  std::printf("%-44s %10.1f %10.1f %10.1f %10.1f   %.2f (median %.2f)\n", name, sa.best, sa.median,
              sb.best, sb.median, sb.best / sa.best, sb.median / sa.median);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 15;
  g_cold = argc > 3 && std::string(argv[3]) == "cold";
  ThreadPool one, many;
  one.set_threads(1);
  const int got = many.set_threads(n);
  std::printf("threads: 1 against %d; %d rounds; times in us", got, rounds);
  if (g_cold)
    std::printf("; before each call the caches evicted (%zu MiB written) and %.0f ms busy, the pool asleep",
                kEvictBytes >> 20, kGapMicros / 1000);
  std::printf("\n");
  std::printf("%-44s %10s %10s %10s %10s   %s\n", "case", "1t best", "1t median", "Nt best",
              "Nt median", "Nt/1t best");

  auto resize4 = [](ResizeMode mode, bool aa, const int64_t* dims, const int64_t* out, DType t) {
    ResizeAttrs at;
    at.mode = mode;
    at.antialias = aa;
    at.nearest = NearestMode::RoundPreferFloor;
    ResizeInputs in;
    in.has_sizes = true;
    for (int a = 0; a < 4; ++a) in.sizes[a] = out[a];
    return std::unique_ptr<Resize>(new Resize(at, in, 4, dims, t));
  };
  const int64_t w1_in[4] = {1, 3, 512, 512}, w1_out[4] = {1, 3, 1024, 1024};
  const int64_t w4_in[4] = {1, 3, 2048, 2048}, w4_out[4] = {1, 3, 512, 512};
  const int64_t w7a_in[4] = {1, 1080, 1920, 4}, w7a_out[4] = {1, 2160, 3840, 4};
  const int64_t w7b_in[4] = {1, 2160, 3840, 4}, w7b_out[4] = {1, 540, 960, 4};
  {
    auto w = resize4(ResizeMode::Linear, false, w1_in, w1_out, DType::Float32);
    compare("W1 resize linear f32 3x512^2 -> 1024^2", &one, &many, rounds,
            [&](ThreadPool* p) { w->run(p, kResizeMinWork); });
  }
  {
    auto w = resize4(ResizeMode::Nearest, false, w1_in, w1_out, DType::Float32);
    compare("W2 resize nearest f32 3x512^2 -> 1024^2", &one, &many, rounds,
            [&](ThreadPool* p) { w->run(p, kResizeMinWork); });
  }
  {
    auto w = resize4(ResizeMode::Cubic, false, w1_in, w1_out, DType::Float32);
    compare("W3 resize cubic f32 3x512^2 -> 1024^2", &one, &many, rounds,
            [&](ThreadPool* p) { w->run(p, kResizeMinWork); });
  }
  {
    auto w = resize4(ResizeMode::Linear, true, w4_in, w4_out, DType::Float32);
    compare("W4 resize linear aa f32 3x2048^2 -> 512^2", &one, &many, rounds,
            [&](ThreadPool* p) { w->run(p, kResizeMinWork); });
  }
  {
    Grid w(GridMode::Linear, PaddingMode::Zeros, 32, 256, 256);
    compare("W5 gridsample linear zeros 32x256^2", &one, &many, rounds,
            [&](ThreadPool* p) { w.run(p, kGridSampleMinWork); });
  }
  {
    Grid w(GridMode::Cubic, PaddingMode::Border, 8, 256, 256);
    compare("W6 gridsample cubic border 8x256^2", &one, &many, rounds,
            [&](ThreadPool* p) { w.run(p, kGridSampleMinWork); });
  }
  if (std::getenv("OSW_BENCH_BLOCKS")) {  // W5 split other ways: channels, or given blocks
    {
      Grid w(GridMode::Linear, PaddingMode::Zeros, 32, 256, 256);
      w.replan = false;
      compare("W5 split over channels", &one, &many, rounds,
              [&](ThreadPool* p) { w.run(p, kGridSampleMinWork); });
    }
    for (int64_t b : {32768, 16384, 8192}) {
      Grid w(GridMode::Linear, PaddingMode::Zeros, 32, 256, 256);
      w.tuning.block = b;
      char name[64];
      std::snprintf(name, sizeof name, "W5 with blocks of %lld", (long long)b);
      compare(name, &one, &many, rounds, [&](ThreadPool* p) { w.run(p, kGridSampleMinWork); });
    }
  }
  {
    auto w = resize4(ResizeMode::Linear, false, w7a_in, w7a_out, DType::UInt8);
    compare("W7a resize linear u8 1080p RGBA -> 4K", &one, &many, rounds,
            [&](ThreadPool* p) { w->run(p, kResizeMinWork); });
  }
  {
    auto w = resize4(ResizeMode::Linear, true, w7b_in, w7b_out, DType::UInt8);
    compare("W7b resize linear aa u8 4K RGBA -> 540p", &one, &many, rounds,
            [&](ThreadPool* p) { w->run(p, kResizeMinWork); });
  }

  {
    float th[6] = {0.9f, -0.3f, 0.1f, 0.3f, 0.9f, -0.2f};
    const int64_t th_dims[3] = {1, 2, 3}, size[4] = {1, 3, 1024, 1024};
    TensorView theta = view(DType::Float32, 3, th_dims, th), grid;
    if (!affinegrid_output_shape(theta, size, 4, &grid).ok()) std::abort();
    std::vector<float> g(size_t(grid.elements()));
    grid.data = g.data();
    compare("AffineGrid f32 1024x1024", &one, &many, rounds, [&](ThreadPool* p) {
      if (!affinegrid_parallel(AffineGridAttrs(), theta, size, 4, &grid, p).ok()) std::abort();
    });
  }

  std::printf("\nthreshold sweep (min_work 0: always split); work as resize_work() counts it, "
              "or GridSample's output elements\n");
  for (int64_t s : {8, 16, 32, 64, 96, 128, 192, 256}) {
    const int64_t in[4] = {1, 1, s, s}, out[4] = {1, 1, 2 * s, 2 * s};
    for (DType t : {DType::Float32, DType::UInt8}) {
      for (ResizeMode m : {ResizeMode::Nearest, ResizeMode::Linear}) {
        auto w = resize4(m, false, in, out, t);
        char name[96];
        std::snprintf(name, sizeof name, "resize %s %s %lldx%lld x2 (work %lld)",
                      m == ResizeMode::Nearest ? "nearest" : "linear",
                      t == DType::Float32 ? "f32" : "u8", (long long)s, (long long)s,
                      (long long)resize_work(w->plan));
        compare(name, &one, &many, rounds * 4, [&](ThreadPool* p) { w->run(p, 0); });
      }
    }
  }
  for (int64_t s : {16, 32, 64, 128}) {
    for (GridMode m : {GridMode::Nearest, GridMode::Linear, GridMode::Cubic}) {
      Grid w(m, PaddingMode::Zeros, 1, s, s);
      char name[96];
      std::snprintf(name, sizeof name, "gridsample %s 1x%lldx%lld (work %lld)",
                    m == GridMode::Nearest ? "nearest" : m == GridMode::Linear ? "linear" : "cubic",
                    (long long)s, (long long)s, (long long)(s * s));
      compare(name, &one, &many, rounds * 4, [&](ThreadPool* p) { w.run(p, 0); });
    }
  }

  std::printf("\noverhead: nearest f32 1x1x4x4 -> 8x8, per call (ns), as resizeInto() runs it\n");
  {
    const int64_t in[4] = {1, 1, 4, 4}, out[4] = {1, 1, 8, 8};
    auto w = resize4(ResizeMode::Nearest, false, in, out, DType::Float32);
    for (int rep = 0; rep < 3; ++rep) {
      for (ThreadPool* p : {&one, &many}) {
        const int calls = 200000;
        const double t0 = now_us();
        for (int i = 0; i < calls; ++i) w->run(p, kResizeMinWork);
        std::printf("  %d thread(s): %.1f ns per call\n", p->threads(),
                    (now_us() - t0) * 1000.0 / calls);
      }
    }
  }
  return 0;
}
