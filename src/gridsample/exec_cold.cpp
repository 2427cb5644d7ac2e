// gridsample/exec_cold.cpp: GridSample for every X type but float32, compiled for size (-Os in
// CMakeLists.txt). float64 runs the same templates as gridsample/gridsample.cpp's float32; every
// other type runs the float32 kernels (float64 ones for 32- and 64-bit integers) between row
// conversions (core/convert.h), as Resize does: one instantiation of the kernels instead of one
// per type, the same bytes (docs/architecture.md, "GridSample: converted types").
#include "core/convert.h"
#include "gridsample/exact.h"
#include "gridsample/exec.h"

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

namespace {

using gs_exec::Geometry;
using gs_exec::Path;

// ---- converted types ------------------------------------------------------------------
//
// Their own kernels computed in ElemTraits<T>::Compute (float; double for 32- and 64-bit
// integers): each tap's value loaded exactly into it, the taps' weights and sums in it,
// one rounding on store (core/elem.h; integers with the compat rounding, row 7). The float32
// (float64) kernels on X widened exactly into that type compute the same sums on the same
// values, and narrow_from_float/double stores as ElemTraits<T>::store and
// round_integer_output do (core/convert.h), so every computed output is the same. The one thing
// they did not compute is a copy: a location with one tap of weight 1 (every nearest
// location, a linear or cubic one exactly on a pixel or clamped to a corner) copied the
// element itself, which the round trip through float keeps for every value but a float16
// NaN with another payload than 0x200, a signalling bfloat16 NaN, a bool byte above 1 and a
// 64-bit integer not exact in double. When X holds such an element, those copies are made
// again from X (copy_taps).

template <typename T>
using Wide = typename ElemTraits<T>::Compute;

// Bit tests of the round trip's cases (core/elem.h): a float16 NaN comes back as 0x7E00 with its
// sign, a bfloat16 NaN with its quiet bit set, a bool as 0 or 1, a 64-bit integer as the
// double nearest to it.
template <typename T>
bool inexact_copy(const void* xv, int64_t n) {
  bool any = false;
  if constexpr (std::is_same<T, Float16>::value || std::is_same<T, BFloat16>::value) {
    const uint16_t* h = static_cast<const uint16_t*>(xv);
    const uint16_t inf = std::is_same<T, Float16>::value ? 0x7C00 : 0x7F80;
    const uint16_t keep = std::is_same<T, Float16>::value ? 0x03FF : 0x0040;
    const uint16_t kept = std::is_same<T, Float16>::value ? 0x0200 : 0x0040;
    for (int64_t i = 0; i < n; ++i) any |= (h[i] & 0x7FFF) > inf && (h[i] & keep) != kept;
  } else if constexpr (std::is_same<T, Bool8>::value) {
    const uint8_t* b = static_cast<const uint8_t*>(xv);
    for (int64_t i = 0; i < n; ++i) any |= b[i] > 1;
  } else if constexpr (sizeof(T) == 8) {
    const T* x = static_cast<const T*>(xv);
    for (int64_t i = 0; i < n && !any; ++i)
      any = round_integer_output<T>(0, static_cast<double>(x[i])) != x[i];
  } else {
    (void)xv, (void)n;  // 8- to 32-bit integers are exact in their compute type
  }
  return any;
}

// What run_converted does per type, chosen by a switch (function pointers with int64
// arguments would make Emscripten add dynCall wrappers to the glue).
enum class Step { Widen, Narrow, Inexact };
bool convert_step(Step step, DType t, const void* in, void* out, int64_t n, int mode) {
  bool any = false;
  dispatch_dtype(t, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (!std::is_same<T, float>::value && !std::is_same<T, double>::value) {
      if (step == Step::Widen) {
        if constexpr (sizeof(Wide<T>) == 8)
          widen_to_double(static_cast<const T*>(in), static_cast<double*>(out), n);
        else
          widen_to_float(static_cast<const T*>(in), static_cast<float*>(out), n);
      } else if (step == Step::Narrow) {
        if constexpr (sizeof(Wide<T>) == 8)
          narrow_from_double(static_cast<const double*>(in), static_cast<T*>(out), n, mode);
        else if constexpr (std::is_integral<T>::value)
          narrow_from_float(static_cast<const float*>(in), static_cast<T*>(out), n, mode);
        else
          narrow_from_float(static_cast<const float*>(in), static_cast<T*>(out), n);
      } else {
        any = inexact_copy<T>(in, n);
      }
    }
    return Status::Ok();
  });
  return any;
}

// The typed kernels' copies (gather_block: one tap of weight C(1)) of the locations
// [j_begin, j_end) of batch item n, channels [c_begin, c_end): the element (es bytes)
// itself. The taps planned again, as the run planned them.
template <typename C, typename G>
Status copy_taps(const GridSamplePlan& plan, int64_t n, int64_t j_begin, int64_t j_end,
                 int64_t c_begin, int64_t c_end, int64_t es, const unsigned char* x,
                 const void* grid_v, unsigned char* y, GridSampleWorkspace* ws) {
  using Off = typename std::conditional<(sizeof(void*) == 4), int32_t, int64_t>::type;
  const G* grid = static_cast<const G*>(grid_v);
  const Geometry& geo = plan.geo;
  const int64_t taps = plan.max_taps, limit = plan.max_bytes;
  GridSampleWorkspace::Tables& tb = ws->tables[0];
  Off* off = gs_exec::workspace_array<Off>(tb.gen_off, taps, limit);
  C* w = gs_exec::workspace_array<C>(tb.gen_w, taps, limit);
  double* wd = gs_exec::workspace_array<double>(ws->weights_f64, taps, limit);
  if (!off || !w || !wd) return out_of_memory("GridSample taps", taps * 8, limit);
  for (int64_t j = j_begin; j < j_end; ++j) {
    const Off count = gs_exec::plan_location<G, C, Off>(
        plan.attrs, geo, grid + (n * geo.out_size + j) * geo.r, off, w, wd);
    if (count != 1 || !(w[0] == C(1))) continue;
    for (int64_t c = c_begin; c < c_end; ++c) {
      const int64_t plane = n * geo.c + c;
      std::memcpy(y + (plane * geo.out_size + j) * es, x + (plane * geo.in_size + off[0]) * es, es);
    }
  }
  return Status::Ok();
}

// The first output location of block k of a batch item (k = blocks: out_size). Blocks in
// order are consecutive runs of locations (GridSamplePlan).
int64_t block_start(const GridSamplePlan& plan, int64_t k) {
  if (k >= plan.blocks) return plan.geo.out_size;
  if (plan.path == Path::Fast2d)
    return (k / plan.blocks_w) * plan.th * plan.geo.out_w + (k % plan.blocks_w) * plan.tw;
  return k * plan.block;
}

Status run_converted(const GridSamplePlan& plan, const GridSampleRange& range, const TensorView& x,
                     const TensorView& grid, TensorView* y, GridSampleWorkspace* ws) {
  const DType t = plan.x_type;
  const int64_t es = int64_t(dtype_size(t));
  const bool wide = es >= 4;  // 32- and 64-bit integers compute in double (core/elem.h)
  const Geometry& geo = plan.geo;
  const int64_t cc = range.c_end - range.c_begin, limit = plan.max_bytes;
  const int64_t cs = wide ? 8 : 4;
  const int64_t j_begin = block_start(plan, range.block_begin),
                j_end = block_start(plan, range.block_end);
  // The buffers of one batch item in float, checked against the limit at their size for
  // all of its channels: a run fails or succeeds alike however a call is split into ranges.
  const int64_t kTooMany = std::numeric_limits<int64_t>::max();
  int64_t x_bytes = 0, y_bytes = 0, per_plane = cs;
  if (!checked_mul(per_plane, geo.c, &per_plane)) per_plane = kTooMany;
  if (!checked_mul(per_plane, geo.in_size, &x_bytes)) x_bytes = kTooMany;
  if (!checked_mul(per_plane, geo.out_size, &y_bytes)) y_bytes = kTooMany;
  if (x_bytes > limit) return out_of_memory("GridSample X in float", x_bytes, limit);
  if (y_bytes > limit) return out_of_memory("GridSample Y in float", y_bytes, limit);
  unsigned char* xf =
      gs_exec::workspace_array<unsigned char>(ws->conv_x, cc * geo.in_size * cs, limit);
  if (!xf) return out_of_memory("GridSample X in float", cc * geo.in_size * cs, limit);
  unsigned char* yf =
      gs_exec::workspace_array<unsigned char>(ws->conv_y, cc * geo.out_size * cs, limit);
  if (!yf) return out_of_memory("GridSample Y in float", cc * geo.out_size * cs, limit);

  // One batch item's planes of the range as the planes of a plan of their own.
  GridSamplePlan sub = plan;
  sub.x_type = wide ? DType::Float64 : DType::Float32;
  sub.geo.n = 1;
  sub.geo.c = cc;
  GridSampleRange part;
  part.n_end = 1;
  part.block_begin = range.block_begin;
  part.block_end = range.block_end;
  part.c_end = cc;
  TensorView xv, gv, yv;
  xv.type = yv.type = sub.x_type;
  xv.data = xf;
  yv.data = yf;
  gv.type = plan.grid_type;
  const int mode = plan.attrs.integer_rounding;
  const bool is_integer = t != DType::Float16 && t != DType::BFloat16 && t != DType::Bool;
  const int64_t gs = plan.grid_type == DType::Float64 ? 8 : 4;
  const unsigned char* xb = static_cast<const unsigned char*>(x.data);
  unsigned char* yb = static_cast<unsigned char*>(y->data);
  for (int64_t n = range.n_begin; n < range.n_end; ++n) {
    const int64_t first = n * geo.c + range.c_begin;  // the range's first plane
    const unsigned char* xn = xb + first * geo.in_size * es;
    convert_step(Step::Widen, t, xn, xf, cc * geo.in_size, 0);
    gv.data = static_cast<unsigned char*>(grid.data) + n * geo.out_size * geo.r * gs;
    Status st = wide ? gs_exec::dispatch_grid<double>(sub, part, xv, gv, &yv, ws)
                     : gridsample_run_hot(sub, part, xv, gv, &yv, ws);
    if (!st.ok()) return st;
    // Integer outputs within float error of a rounding boundary decided exactly
    // (gridsample/exact.cpp: before the narrowing, or for 64-bit after it); nearest outputs
    // are copies.
    TensorView xr = x;
    xr.data = const_cast<unsigned char*>(xn);
    unsigned char* yn = yb + first * geo.out_size * es;
    const bool exact = is_integer && plan.attrs.mode != GridMode::Nearest;
    bool ok =
        !(exact && es < 8) || gs_exec::exact_fix(plan, xr, gv.data, cc, j_begin, j_end, yf, yn, ws);
    for (int64_t p = 0; p < cc; ++p)
      convert_step(Step::Narrow, t, yf + (p * geo.out_size + j_begin) * cs,
                   yn + (p * geo.out_size + j_begin) * es, j_end - j_begin, mode);
    ok = ok && (!(exact && es == 8) ||
                gs_exec::exact_fix(plan, xr, gv.data, cc, j_begin, j_end, yf, yn, ws));
    if (!ok) return out_of_memory("GridSample taps", plan.max_taps * 24, limit);
    if (convert_step(Step::Inexact, t, xn, nullptr, cc * geo.in_size, 0)) {
      const bool g64 = plan.grid_type == DType::Float64;
      if (wide)
        st = g64 ? copy_taps<double, double>(plan, n, j_begin, j_end, range.c_begin, range.c_end,
                                             es, xb, grid.data, yb, ws)
                 : copy_taps<double, float>(plan, n, j_begin, j_end, range.c_begin, range.c_end, es,
                                            xb, grid.data, yb, ws);
      else
        st = g64 ? copy_taps<float, double>(plan, n, j_begin, j_end, range.c_begin, range.c_end, es,
                                            xb, grid.data, yb, ws)
                 : copy_taps<float, float>(plan, n, j_begin, j_end, range.c_begin, range.c_end, es,
                                           xb, grid.data, yb, ws);
      if (!st.ok()) return st;
    }
  }
  return Status::Ok();
}

template <typename T>
Status run_type(const GridSamplePlan& plan, const GridSampleRange& range, const TensorView& x,
                const TensorView& grid, TensorView* y, GridSampleWorkspace* ws) {
  using C = Wide<T>;
  if (plan.path == Path::EmptyInput) {
    const T zero = ElemTraits<T>::store(C(0));
    const T nan = ElemTraits<T>::store(std::numeric_limits<C>::quiet_NaN());
    gs_exec::fill_empty_input(plan, range, grid.data, sizeof(T), &zero, &nan, y->data);
    return Status::Ok();
  }
  return run_converted(plan, range, x, grid, y, ws);
}

}  // namespace

Status gridsample_run_cold(const GridSamplePlan& plan, const GridSampleRange& range,
                           const TensorView& x, const TensorView& grid, TensorView* y,
                           GridSampleWorkspace* ws) {
  return dispatch_dtype(x.type, "X", [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_same<T, float>::value)
      return gridsample_run_hot(plan, range, x, grid, y, ws);
    else if constexpr (std::is_same<T, double>::value)
      return gs_exec::dispatch_grid<T>(plan, range, x, grid, y, ws);
    else
      return run_type<T>(plan, range, x, grid, y, ws);
  });
}

}  // namespace osw
