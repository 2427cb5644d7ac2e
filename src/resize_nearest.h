// resize_nearest.h: Resize mode=nearest as a byte gather.
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
// Tables are built on the first execution and kept with the plan (per element size).
#pragma once

#include <cstddef>

#include "common.h"

namespace osw {

struct ResizePlan;

// A stretch of an output row: 16-byte blocks [b0, b1) of the SIMD form, or outputs
// [u0, u1) of axis last copied one by one.
struct NearestSegment {
  int64_t b0 = 0, b1 = 0;
  int64_t u0 = 0, u1 = 0;
  int32_t simd = 0;
};

struct NearestCache {
  size_t elem_size = 0;  // the element size the tables were built for
  int last = -1;         // the last axis that is not an identity (-1: a plain copy)
  int64_t unit = 0;      // bytes of one output of axis last
  int64_t row_bytes = 0; // bytes of one output row
  // [a][o]: byte offset in X of output index o of axis a, for a <= last.
  Buffer<int64_t> offsets[kMaxRank];
  // unit < 16 (SIMD builds only): per 16-byte block of an output row, the window's start
  // in the input row (-1: no window) and the swizzle mask; the row as segments.
  Buffer<int32_t> blk_start;
  Buffer<uint8_t> blk_mask;
  Buffer<NearestSegment> segs;
  int64_t n_segs = 0;
  // unit >= 16: memcpy runs (source byte offset in the input row, length).
  Buffer<int64_t> run_src;
  Buffer<int64_t> run_len;
  int64_t n_runs = 0;
};

// For tests only: force the plain paths, to compare them with the fast ones.
struct NearestOptions {
  bool scalar = false;    // no SIMD blocks, no merged runs: every output copied alone
  bool no_reuse = false;  // gather every row, even one equal to the previous
};
NearestOptions& nearest_options();

// Gathers y from x (both plan-shaped, elements of elem_size bytes). Builds the plan's
// nearest tables on first use (or when elem_size changes).
Status gather_nearest(const ResizePlan& plan, size_t elem_size, const void* x, void* y);

}  // namespace osw
