// resize/kernels_fixed.h: uint8 linear Resize in integers, where that is exact.
//
// When every weight of the resampled axes is a non-negative multiple of 2^-s (s_h bits on
// the innermost resampled axis h, s_v on the other one v, s_h + s_v <= 16), the float
// computation of a uint8 Resize is exact: every product and partial sum is a multiple of
// 2^-(s_h + s_v) below 2^8, which float's 24-bit significand holds exactly. So is the same
// sum in integers scaled by 2^(s_h + s_v), and rounding it half to even gives the float
// path's output bit for bit. 2x, 4x and 8x upsampling under half_pixel (weights 1/4, 3/4,
// ...), 2x downsampling (1/2, 1/2) and 4x antialias downsampling (1/32 ... 7/32) are such
// plans. The order of the two passes does not change an exact sum.
//
// Two forms:
// - narrow (s_h <= 7, s_h + s_v <= 8), in 16-bit lanes: h blends each input row of X into a
//   row of uint16 sums with byte shuffles (blocks of 16 output lanes whose taps lie in one
//   16- or 32-byte window of the input row) and u8 x u8 -> u16 multiplies, or, when 16 or
//   more elements follow h, whole runs; v blends those rows (cached, as stream_last_two
//   does) into Y with the rounding shift. A single resampled axis runs as h alone (fewer
//   than 16 elements after it) or as v alone (rows of X blended directly).
// - wide (s_h <= 9, s_v <= 7; elements after h in groups of 4, as RGBA): v blends rows of X
//   into uint16 sums first, then h takes two taps at a time with i32x4.dot_i16x8 into
//   32-bit sums, rounded by 2^16.
// The tables are built with the plan (FixedTables in resize/plan.h) when it runs uint8.
#pragma once

#include "core/types.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

// Builds the tables of the plan's integer form when it has one (fc->state 1, else -1; a
// table that cannot be allocated leaves the float path). fixed_force takes the form even
// where few blocks vectorise (tests).
void build_fixed_tables(const ResizePlan& plan, bool fixed_force, FixedTables* fc);

// The units of the integer form's run (resize_execute_range): rows of X when h runs
// alone, else output rows of v (outer * out_v).
int64_t fixed_units(const ResizePlan& plan);

// Runs units [begin, end) of the plan's integer form on uint8 X into Y (plan.fixed.state
// must be 1; the caller then fills the outside of a crop box as usual). Row sums and row
// caches live in ws.
Status resize_u8_fixed(const ResizePlan& plan, const uint8_t* x, uint8_t* y, int64_t begin,
                       int64_t end, ResizeWorkspace* ws);

}  // namespace osw
