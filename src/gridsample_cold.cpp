// gridsample_cold.cpp: GridSample for every X type but float32, compiled for
// size (-Oz in CMakeLists.txt): the same templates as gridsample.cpp's float32.
#include "gridsample_exec.h"

namespace osw {

void gs_exec::fill_empty_input(const GridSamplePlan& plan, const GridSampleRange& range,
                               const void* grid, size_t es, const void* zero, const void* nan,
                               void* y) {
  const Geometry& geo = plan.geo;
  const bool grid_f64 = plan.grid_type == DType::Float64;
  const int r = geo.r;
  const int64_t j_begin = range.block_begin * plan.block;
  const int64_t j_end = std::min(range.block_end * plan.block, geo.out_size);
  unsigned char* yb = static_cast<unsigned char*>(y);
  for (int64_t n = range.n_begin; n < range.n_end; ++n) {
    for (int64_t j = j_begin; j < j_end; ++j) {
      const int64_t g = (n * geo.out_size + j) * r;
      bool is_nan = false;
      for (int a = 0; a < r; ++a) {
        const double v = grid_f64 ? static_cast<const double*>(grid)[g + a]
                                  : static_cast<double>(static_cast<const float*>(grid)[g + a]);
        is_nan = is_nan || std::isnan(v);
      }
      for (int64_t c = range.c_begin; c < range.c_end; ++c)
        std::memcpy(yb + ((n * geo.c + c) * geo.out_size + j) * es, is_nan ? nan : zero, es);
    }
  }
}

Status gridsample_run_cold(const GridSamplePlan& plan, const GridSampleRange& range,
                           const TensorView& x, const TensorView& grid, TensorView* y,
                           GridSampleWorkspace* ws) {
  return dispatch_dtype(x.type, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_same<T, float>::value)
      return gridsample_run_hot(plan, range, x, grid, y, ws);
    else
      return gs_exec::dispatch_grid<T>(plan, range, x, grid, y, ws);
  });
}

}  // namespace osw
