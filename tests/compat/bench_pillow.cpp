// bench_pillow.cpp: the Pillow compat kernels against the library's own uint8 Resize on the
// same work (development tool; single thread). Natively:
//   clang++-14 -O2 -msse4.1 -std=c++17 -Isrc -Itests/cpp -DOSW_USE_SIMDE tests/compat/bench_pillow.cpp
//       $(find src -name "*.cpp" -not -path "src/imaging/*") src/imaging/pillow.cpp
//       -o /tmp/bench_pillow                                     (one command line)
// or em++ -O2 -msimd128 -fno-exceptions -sALLOW_MEMORY_GROWTH=1 ... -o /tmp/bench_pillow.js,
// run with node --no-experimental-fetch.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "imaging/imaging.h"
#include "resize/resize.h"
#include "test_plan.h"

using namespace osw;

namespace {

template <typename F>
double best_us(F f, int rounds) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    if (us < best) best = us;
  }
  return best;
}

void bench(const char* name, int h, int w, int c, int oh, int ow, bool aa, int rounds) {
  std::vector<uint8_t> x(size_t(h) * w * c), y(size_t(oh) * ow * c);
  std::mt19937 g(1);
  for (auto& b : x) b = uint8_t(g());
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.antialias = aa;
  ResizeInputs in;
  in.has_sizes = true;
  const int64_t dims[4] = {1, h, w, c};
  const int64_t out[4] = {1, oh, ow, c};
  for (int a = 0; a < 4; ++a) in.sizes[a] = out[a];
  ResizeOptions o;
  o.type = DType::UInt8;
  ResizePlan plan;
  if (!resize_plan(at, in, 4, dims, &plan, o).ok()) std::abort();
  ResizeWorkspace ws;
  TensorView xv = osw_test::view(DType::UInt8, 4, dims, x.data());
  TensorView yv = osw_test::view(DType::UInt8, 4, out, y.data());
  double onnx = best_us([&] { if (!resize_execute(plan, xv, &yv, &ws).ok()) std::abort(); }, rounds);
  compat::ImageBatch b{1, h, w, c, oh, ow};
  double pil = best_us([&] { compat::pillow_resize_u8(x.data(), y.data(), b, compat::PillowFilter::Bilinear, false); }, rounds);
  double pilp = c == 4 ? best_us([&] { compat::pillow_resize_u8(x.data(), y.data(), b, compat::PillowFilter::Bilinear, true); }, rounds) : 0;
  double lan = best_us([&] { compat::pillow_resize_u8(x.data(), y.data(), b, compat::PillowFilter::Lanczos, false); }, rounds);
  std::printf("%-34s onnx linear%s %8.0f us | pillow bilinear %8.0f us (premul %8.0f) lanczos %8.0f us\n",
              name, aa ? " aa" : "   ", onnx, pil, pilp, lan);
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  bench("RGBA 1080p -> 4K", 1080, 1920, 4, 2160, 3840, false, rounds);
  bench("RGBA 4K -> 540p", 2160, 3840, 4, 540, 960, true, rounds);
  bench("RGBA 1000x750 -> 640x480", 750, 1000, 4, 480, 640, true, rounds);
  bench("RGB 1000x750 -> 640x480", 750, 1000, 3, 480, 640, true, rounds);
  bench("L 1000x750 -> 640x480", 750, 1000, 1, 480, 640, true, rounds);
  bench("RGBA 640x480 -> 1000x750", 480, 640, 4, 750, 1000, false, rounds);
  bench("RGB 224 <- 1000x750", 750, 1000, 3, 224, 224, true, rounds);
  return 0;
}
