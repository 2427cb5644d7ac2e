// resize/kernels_nearest.h: Resize mode=nearest as a byte gather.
//
// y[o_0, ..., o_r] = x[i_0(o_0), ..., i_r(o_r)], copied as bits whatever the element type.
// Axes after the last resampled axis ("last") are identities and are copied as contiguous
// blocks: one output of axis last is a unit of U = element size x block bytes. An output
// row is everything from axis last inward for one position of the axes before it.
//
// - Rows: every row starts at a source base offset (the sum of the outer axes' offsets).
//   A sub-tensor whose base equals the previous one's (an axis that repeats an index, as
//   upsampling does) is a copy of the output just written, so it is copied, not gathered.
// - Units of fewer than 16 bytes: the output row is cut into 16-byte blocks; a block whose
//   source bytes lie in one 16-byte window inside the input row is one v128 load, one
//   i8x16 swizzle, one v128 store (window starts and masks precomputed). Other blocks (a
//   downsampling axis, short rows) and the row's last partial block copy unit by unit.
// - Units of 16 bytes or more: memcpy runs, consecutive outputs whose sources are
//   consecutive merged into one run.
// The tables are built with the plan, one set per element size (NearestTables in
// resize/plan.h).
#pragma once

#include <cstddef>

#include "core/types.h"
#include "resize/plan.h"

namespace osw {

// Builds the gather's tables of the plan for elements of es bytes.
Status build_nearest_tables(const ResizePlan& plan, size_t es, NearestTables* t);

// The plan's tables for elements of es bytes (nullptr when it was not built for them).
const NearestTables* nearest_tables(const ResizePlan& plan, size_t es);

// Gathers output rows [row_begin, row_end) of y (t->rows of them; a plain copy is one row)
// from x (both plan-shaped, elements of t->elem_size bytes). Reads only x and the rows of
// y it writes. plan.opts.nearest_scalar / nearest_no_reuse force the plain paths.
Status gather_nearest(const ResizePlan& plan, const NearestTables& t, const void* x, void* y,
                      int64_t row_begin, int64_t row_end);

}  // namespace osw
