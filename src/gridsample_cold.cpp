// gridsample_cold.cpp: GridSample for every X type but float32, compiled for
// size (-Os in CMakeLists.txt): the same templates as gridsample.cpp's float32.
#include "gridsample_exec.h"

namespace osw {

void gs_exec::fill_empty_input(const Geometry& geo, const void* grid, bool grid_f64, size_t es,
                               const void* zero, const void* nan, void* y) {
  const int r = geo.r;
  unsigned char* yb = static_cast<unsigned char*>(y);
  for (int64_t n = 0; n < geo.n; ++n) {
    for (int64_t j = 0; j < geo.out_size; ++j) {
      const int64_t g = (n * geo.out_size + j) * r;
      bool is_nan = false;
      for (int a = 0; a < r; ++a) {
        const double v = grid_f64 ? static_cast<const double*>(grid)[g + a]
                                  : static_cast<double>(static_cast<const float*>(grid)[g + a]);
        is_nan = is_nan || std::isnan(v);
      }
      for (int64_t c = 0; c < geo.c; ++c)
        std::memcpy(yb + ((n * geo.c + c) * geo.out_size + j) * es, is_nan ? nan : zero, es);
    }
  }
}

Status gridsample_run_cold(const GridSampleAttrs& attrs, const gs_exec::Geometry& geo,
                           const TensorView& x, const TensorView& grid, TensorView* y,
                           const gs::Tuning& tuning) {
  return dispatch_dtype(x.type, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_same<T, float>::value)
      return gridsample_run_hot(attrs, geo, x, grid, y, tuning);
    else
      return gs_exec::dispatch_grid<T>(attrs, geo, x, grid, y, tuning);
  });
}

}  // namespace osw
