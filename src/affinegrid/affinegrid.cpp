// affinegrid/affinegrid.cpp: AffineGrid-20 (see affinegrid/affinegrid.h for the contract).
//
// The operator is small next to the samplers (one 2x3 or 3x4 product per output location),
// so it has no plan of its own: the base coordinates are one division each, and the loops
// are nested D, H, W so that z and y are computed once per plane and row. Compiled for size
// (CMakeLists.txt, OSW_COLD_SOURCES).
#include "affinegrid/affinegrid.h"

#include <cmath>

#include "core/elem.h"

namespace osw {

namespace ag {

double base_coordinate(int64_t i, int64_t n, bool align_corners) {
  if (n <= 1) return 0.0;
  // Exact integers in double for any n < 2^52, so each result is one correctly rounded
  // division.
  const double fi = static_cast<double>(i), fn = static_cast<double>(n);
  if (align_corners) return (2.0 * fi - (fn - 1.0)) / (fn - 1.0);
  return (2.0 * fi + 1.0 - fn) / fn;
}

uint16_t half_from_double(double d) {
  const uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  if (std::isnan(d)) return static_cast<uint16_t>(sign | 0x7e00);
  const double a = std::fabs(d);
  // 65504 is the largest half; from 65520 (halfway to 2^16) on, nearest-even gives Inf.
  if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00);
  if (a < 0x1p-14) {
    // Subnormal range: a multiple of 2^-24; 1024 * 2^-24 carries into the smallest normal,
    // whose bits are 0x0400, so the sum below encodes it too.
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24)));
  }
  int e;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  // 11 significant bits: q in [1024, 2048]; q == 2048 carries into the exponent field.
  const int q = static_cast<int>(std::nearbyint(std::ldexp(a, 11 - e)));
  return static_cast<uint16_t>(sign | (((e - 1 + 15) << 10) + q - 1024));
}

}  // namespace ag

namespace {

inline void put(float* p, double v) { *p = static_cast<float>(v); }
inline void put(double* p, double v) { *p = v; }
inline void put(uint16_t* p, double v) { *p = ag::half_from_double(v); }

// theta[n] (r rows of r + 1) as doubles (float32 and float16 widen exactly).
void load_theta(const TensorView& theta, int64_t n, int count, double* t) {
  const int64_t base = n * count;
  for (int k = 0; k < count; ++k) {
    switch (theta.type) {
      case DType::Float32: t[k] = static_cast<const float*>(theta.data)[base + k]; break;
      case DType::Float64: t[k] = static_cast<const double*>(theta.data)[base + k]; break;
      default: t[k] = half_to_float(static_cast<const uint16_t*>(theta.data)[base + k]); break;
    }
  }
}

// sp = {D, H, W} (D = 1 for 2-D); r = 2 or 3 output values per location. Rows [begin, end)
// of the grid's N * D * H rows of W locations (a row's values do not depend on the others).
template <typename T>
void fill(const AffineGridAttrs& attrs, const TensorView& theta, int r, const int64_t sp[3],
          int64_t begin, int64_t end, T* grid) {
  const int cols = r + 1;
  T* out = grid + begin * sp[2] * r;
  int64_t loaded = -1;
  double t[12];
  for (int64_t i = begin; i < end; ++i) {
    const int64_t n = i / (sp[0] * sp[1]), d = i / sp[1] % sp[0], h = i % sp[1];
    if (n != loaded) {
      load_theta(theta, n, r * cols, t);
      loaded = n;
    }
    const double z = r == 3 ? ag::base_coordinate(d, sp[0], attrs.align_corners) : 0.0;
    const double y = ag::base_coordinate(h, sp[1], attrs.align_corners);
    for (int64_t w = 0; w < sp[2]; ++w) {
      const double x = ag::base_coordinate(w, sp[2], attrs.align_corners);
      // theta row . (x, y[, z], 1), summed left to right as the reference's product.
      for (int row = 0; row < r; ++row) {
        const double* tr = t + row * cols;
        double s = tr[0] * x + tr[1] * y;
        if (r == 3) s += tr[2] * z;
        put(out++, s + tr[r]);
      }
    }
  }
}

}  // namespace

Status affinegrid_output_shape(const TensorView& theta, const int64_t* size, int n_size,
                               TensorView* grid) {
  if (theta.type != DType::Float32 && theta.type != DType::Float64 && theta.type != DType::Float16)
    return Status::Type(
        std::string("theta: expected a tensor of type float32, float64 or float16, got '") +
        dtype_name(theta.type) + "'");
  if (n_size != 4 && n_size != 5)
    return Status::Range(
        "size: expected 4 values [N, C, H, W] (2-D) or 5 values [N, C, D, H, W] (3-D), got " +
        int_text(n_size));
  for (int i = 0; i < n_size; ++i)
    if (size[i] < 0)
      return Status::Range("size[" + int_text(i) + "]: must be non-negative, got " +
                           int_text(size[i]));
  const int r = n_size - 2;
  const bool shape_ok = theta.rank == 3 && theta.dims[1] == r && theta.dims[2] == r + 1;
  if (!shape_ok) {
    std::string got;
    for (int i = 0; i < theta.rank; ++i) got += (i ? ", " : "") + int_text(theta.dims[i]);
    return Status::Range(std::string("theta: expected dims [N, ") + int_text(r) + ", " +
                         int_text(r + 1) + "] for " + int_text(n_size) + " size values (" +
                         (r == 2 ? "2-D" : "3-D") + "), got [" + got + "]");
  }
  if (size[0] != theta.dims[0])
    return Status::Range("size[0]: N is " + int_text(size[0]) + " but theta holds " +
                         int_text(theta.dims[0]) + " matrices (theta.dims[0])");
  grid->type = theta.type;
  grid->rank = r + 2;
  grid->dims[0] = size[0];
  for (int i = 0; i < r; ++i) grid->dims[1 + i] = size[2 + i];
  grid->dims[r + 1] = r;
  int64_t n = 1;
  for (int i = 0; i < grid->rank; ++i)
    if (!checked_mul(n, grid->dims[i], &n))
      return Status::Range("size: the grid would have more than 2^63 elements");
  int64_t bytes;
  if (!checked_mul(n, static_cast<int64_t>(dtype_size(theta.type)), &bytes))
    return Status::Range("size: the grid would take more than 2^63 bytes");
  return Status::Ok();
}

namespace {

// grid's type and dims against theta and size (what affinegrid_output_shape gives).
Status check_grid(const TensorView& theta, const int64_t* size, int n_size,
                  const TensorView& grid) {
  TensorView expect;
  OSW_RETURN_IF_ERROR(affinegrid_output_shape(theta, size, n_size, &expect));
  bool same = grid.type == expect.type && grid.rank == expect.rank;
  for (int i = 0; same && i < expect.rank; ++i) same = grid.dims[i] == expect.dims[i];
  if (!same) return Status::Range("grid: the output's type or dims differ from the computed ones");
  return Status::Ok();
}

// Rows [begin, end) of a checked grid.
void fill_rows(const AffineGridAttrs& attrs, const TensorView& theta, const int64_t* size,
               int n_size, TensorView* grid, int64_t begin, int64_t end) {
  const int r = n_size - 2;
  const int64_t sp[3] = {r == 3 ? size[2] : 1, size[n_size - 2], size[n_size - 1]};
  switch (theta.type) {
    case DType::Float32:
      fill(attrs, theta, r, sp, begin, end, static_cast<float*>(grid->data));
      break;
    case DType::Float64:
      fill(attrs, theta, r, sp, begin, end, static_cast<double*>(grid->data));
      break;
    default: fill(attrs, theta, r, sp, begin, end, static_cast<uint16_t*>(grid->data)); break;
  }
}

}  // namespace

Status affinegrid(const AffineGridAttrs& attrs, const TensorView& theta, const int64_t* size,
                  int n_size, TensorView* grid) {
  OSW_RETURN_IF_ERROR(check_grid(theta, size, n_size, *grid));
  // Every row: N * (D *) H, a product of the grid's dims (checked: no overflow).
  const int64_t rows = grid->dims[0] * (n_size == 5 ? size[2] * size[3] : size[2]);
  if (size[n_size - 1] > 0) fill_rows(attrs, theta, size, n_size, grid, 0, rows);
  return Status::Ok();
}

int64_t affinegrid_row_count(const int64_t* size, int n_size) {
  if (n_size != 4 && n_size != 5) return 0;
  int64_t rows = 1;  // N * (D) * H, each < 2^63 when the grid's shape checks out
  for (int i = 0; i < n_size - 1; ++i)
    if (i != 1 && !checked_mul(rows, size[i] < 0 ? 0 : size[i], &rows)) return 0;
  return rows;
}

Status affinegrid_rows(const AffineGridAttrs& attrs, const TensorView& theta, const int64_t* size,
                       int n_size, TensorView* grid, int64_t begin, int64_t end) {
  OSW_RETURN_IF_ERROR(check_grid(theta, size, n_size, *grid));
  if (begin < 0 || end > affinegrid_row_count(size, n_size) || begin > end)
    return Status::Range("grid: rows outside the grid");
  if (begin < end && size[n_size - 1] > 0) fill_rows(attrs, theta, size, n_size, grid, begin, end);
  return Status::Ok();
}

}  // namespace osw
