// affinegrid/affinegrid.h: the AffineGrid operator (opset 20): a sampling grid for GridSample from
// a batch of affine matrices.
//
// Inputs: theta (N, 2, 3) for 2-D or (N, 3, 4) for 3-D, float32 / float64 / float16; the
// values of size, [N, C, H, W] or [N, C, D, H, W] (the int64 tensor's contents). Output: grid
// (N, H, W, 2) or (N, D, H, W, 3) of theta's type, whose last axis is (x, y[, z]): x runs
// along W, y along H, z along D, as GridSample reads it.
//
// For each output location the base point (x_w, y_h[, z_d], 1) has one normalised
// coordinate per axis (ag::base_coordinate) and the grid value is theta[n] times it. The
// arithmetic is in double, each output rounded once to theta's type (docs/semantics.md,
// "AffineGrid"). Shapes are checked by affinegrid_output_shape(); affinegrid() re-checks them,
// so a caller cannot make it write outside grid.
#pragma once

#include "core/types.h"

namespace osw {

struct AffineGridAttrs {
  bool align_corners = false;
};

// Checks theta's type and shape against size (n_size values) and sets grid->type, rank and
// dims. Errors (each naming theta or size):
//   TypeError  theta is not float32, float64 or float16;
//   RangeError size has other than 4 or 5 values; a size value is negative; theta is not
//              (N, 2, 3) with 4 size values or (N, 3, 4) with 5; size[0] != N; the grid's
//              element count overflows int64.
// Zero sizes are allowed and give an empty grid (C is not used, only checked).
Status affinegrid_output_shape(const TensorView& theta, const int64_t* size, int n_size,
                               TensorView* grid);

// Computes the grid. grid->data must hold the elements affinegrid_output_shape gave.
Status affinegrid(const AffineGridAttrs& attrs, const TensorView& theta, const int64_t* size,
                  int n_size, TensorView* grid);

// The same in parts (threads, src/threads/pool.h): the grid's rows are its N * (D *) H rows of W
// locations; affinegrid_rows() checks what affinegrid() checks and computes rows
// [begin, end) alone, each value as the whole call computes it. affinegrid_row_count() is
// 0 for a size that is not 4 or 5 values.
int64_t affinegrid_row_count(const int64_t* size, int n_size);
Status affinegrid_rows(const AffineGridAttrs& attrs, const TensorView& theta, const int64_t* size,
                       int n_size, TensorView* grid, int64_t begin, int64_t end);

namespace ag {

// The normalised coordinate of index i on an axis of n points (0 <= i < n):
//   align_corners=1: -1 + 2i / (n - 1)   (-1 and 1 are the centres of the end points)
//                    computed as (2i - (n - 1)) / (n - 1): one rounding, exact at the ends
//                    and symmetric about 0;
//   align_corners=0: -1 + (2i + 1) / n   (the pixel centres of [-1, 1] cut into n pixels)
//                    computed as (2i + 1 - n) / n;
//   n == 1:          0 for both (align_corners=1 would divide by 0: PyTorch gives 0 there,
//                    the ONNX reference fails; see docs/semantics.md).
double base_coordinate(int64_t i, int64_t n, bool align_corners);

// IEEE binary16 bits of d, rounded once to nearest even (overflow to +-Inf, NaN kept).
// Rounding through float32 first could round twice.
uint16_t half_from_double(double d);

}  // namespace ag

}  // namespace osw
