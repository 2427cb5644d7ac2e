// resize_fixed.h: uint8 linear Resize in integers, where that is exact.
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
// Tables are built on the first execution and kept with the plan.
#pragma once

#include "common.h"

namespace osw {

struct ResizePlan;

// The tables of one plan (ResizePlan::fixed).
struct FixedCache {
  int state = 0;       // 0: not built yet; 1: the fixed path applies; -1: it does not
  int h = -1, v = -1;  // the innermost resampled axis, the other one (-1: none)
  // The scales of h's and v's integer weights (2^sh, 2^sv). The fewest bits that make them
  // exact are raised so that the final shift is a constant: sh = 7 when h runs alone,
  // else sh + sv = 8 (sv = 8 when v runs alone).
  int sh = 0, sv = 0;
  int kh = 0, kv = 0;  // taps per output (rows of wh / wv)
  int64_t c = 1;       // elements after h: one output of h is c lanes
  Buffer<uint8_t> wh;  // [out_h * kh]: h's weights times 2^sh
  Buffer<uint16_t> wv; // [out_v * kv]: v's weights times 2^sv
  // h's pass in blocks of 16 output lanes (lane = output * c + element): per block, the
  // window's first byte in the input row (-1: lanes one by one), whether the window is 32
  // bytes (two loads), and per tap 16 shuffle indices and 16 weights.
  int64_t blocks = 0;
  Buffer<int32_t> blk_base;
  Buffer<uint8_t> blk_wide;
  Buffer<uint8_t> blk_mask;  // [blocks * kh * 16]
  Buffer<uint8_t> blk_w;     // [blocks * kh * 16]
  // The wide form: h's weights multiples of 2^-9 and v's of 2^-7 (sh = 9, sv = 7); v's
  // pass first into uint16 sums, then h's with i32x4.dot_i16x8, two taps at a time, 4
  // elements of one output (c must be a multiple of 4, as RGBA is).
  bool wide = false;
  Buffer<int16_t> whp;  // [out_h * ceil(kh / 2) * 8]: h's weights times 2^9, in pairs
  Buffer<uint8_t> wv8;  // [out_v * kv]: v's weights times 2^7
};

// For tests only.
struct FixedOptions {
  bool disable = false;  // never take the fixed path (the float path then runs)
  bool force = false;    // take it whenever it is exact, even where few blocks vectorise
};
FixedOptions& fixed_options();

// Runs the plan on uint8 X into Y in integers and returns true when the plan qualifies
// (see above; the caller then fills the outside of a crop box as usual). Returns false,
// with nothing written, when it does not, or *st holds an error (out of memory).
bool resize_u8_fixed(const ResizePlan& plan, const uint8_t* x, uint8_t* y, Status* st);

}  // namespace osw
