// gridsample_cold.cpp: GridSample for every X type but float32, compiled for
// size (-Os in CMakeLists.txt): the same templates as gridsample.cpp's float32.
#include "gridsample_exec.h"

namespace osw {

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
