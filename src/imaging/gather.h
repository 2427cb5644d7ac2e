// imaging/gather.h: the nearest-neighbour copy both compat libraries share (Pillow's NEAREST,
// OpenCV's INTER_NEAREST and INTER_NEAREST_EXACT differ only in their index tables).
// Its functions have internal linkage (static), as opencv_rules.h's: osw-compat.wasm is a
// side module, where an inline (weak) function would become an import of itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/simd.h"

namespace osw {
namespace compat {

namespace gather_detail {

// Windows (SIMD, pixels of 1 to 4 bytes): a group of G output pixels (16 bytes; 5 pixels,
// 15 bytes, for 3-byte pixels) whose source pixels lie in 16 bytes of the row is one load
// and one swizzle; in 32 bytes (downscaling up to 2x), two of each, or-ed (a swizzle gives
// 0 for a lane index over 15, and the indices of the second are the first's minus 16,
// wrapping the first half's past 15). Per group: twice the window's byte offset in the
// source row, plus 1 for 32 bytes, or -1 where the group cannot (sources farther apart, a
// window past the row's end, a pixel outside, a store past the output row's end); and its
// 16 lane indices. Integer upscaling repeats the groups: when the first `run` groups are
// one-load windows whose lanes repeat with a period of 1 or 2 groups and whose offsets grow
// by `step` bytes per period, they are made with the lanes held in registers.
struct Windows {
  int32_t* off = nullptr;
  uint8_t* lanes = nullptr;
  int groups = 0;
  int period = 0, run = 0, step = 0;
  ~Windows() { std::free(off); }
};

// The longest run of groups from the first with period p (see Windows), in whole periods.
static inline int periodic_run(const Windows& w, int p, int* step) {
  if (w.groups < 2 * p) return 0;
  for (int g = 0; g < p; ++g)
    if (w.off[g] < 0 || (w.off[g] & 1)) return 0;
  *step = (w.off[p] >> 1) - (w.off[0] >> 1);
  int g = p;
  for (; g < w.groups; ++g) {
    const int32_t o = w.off[g];
    bool same = o >= 0 && !(o & 1) && (o >> 1) - (w.off[g - p] >> 1) == *step;
    // (a loop, not memcmp: osw-compat.wasm imports no libc function but malloc and free)
    for (int b = 0; b < 16 && same; ++b)
      same = w.lanes[size_t(g) * 16 + b] == w.lanes[size_t(g - p) * 16 + b];
    if (!same) break;
  }
  return g - g % p;
}

static inline int group_pixels(size_t px) { return px == 3 ? 5 : int(16 / px); }

// Fills w for rows of in_w -> out_w pixels of px bytes (1 to 4); false when it cannot have
// the memory (then no group uses a window).
static inline bool make_windows(Windows* w, int in_w, int out_w, size_t px, const int* xs) {
  const int G = group_pixels(px);
  w->groups = out_w / G;
  if (w->groups == 0) return true;
  w->off = static_cast<int32_t*>(std::malloc(size_t(w->groups) * (sizeof(int32_t) + 16)));
  if (!w->off) {
    w->groups = 0;
    return false;
  }
  w->lanes = reinterpret_cast<uint8_t*>(w->off + w->groups);
  const int64_t in_row = int64_t(in_w) * int64_t(px), out_row = int64_t(out_w) * int64_t(px);
  for (int g = 0; g < w->groups; ++g) {
    const int i = g * G;
    int lo = xs[i], hi = xs[i];
    for (int j = 1; j < G; ++j) {
      lo = xs[i + j] < lo ? xs[i + j] : lo;
      hi = xs[i + j] > hi ? xs[i + j] : hi;
    }
    const int64_t start = int64_t(lo) * int64_t(px), span = (int64_t(hi) - lo + 1) * int64_t(px);
    const int64_t window = span <= 16 ? 16 : 32;
    const bool ok = lo >= 0 && span <= 32 && start + window <= in_row &&
                    start < (int64_t(1) << 30) && int64_t(i) * int64_t(px) + 16 <= out_row;
    w->off[g] = ok ? int32_t(start * 2 + (window == 32)) : -1;
    uint8_t* l = w->lanes + size_t(g) * 16;
    for (int b = 0; b < 16; ++b) {
      const int j = b / int(px), k = b % int(px);
      l[b] = ok && j < G ? uint8_t((xs[i + j] - lo) * int(px) + k) : 0;
    }
  }
  for (int p = 1; p <= 2 && w->period == 0; ++p) {
    int step = 0;
    const int run = periodic_run(*w, p, &step);
    if (run >= 4 * p) w->period = p, w->run = run, w->step = step;
  }
  return true;
}

// One output row: pixel i is source pixel xs[i] (PX bytes each; an index < 0 gives zeros).
template <size_t PX>
static void row(const uint8_t* s, uint8_t* d, int out_w, const int* xs, const Windows& w) {
  int i = 0;
#if OSW_HAVE_SIMD
  if (PX <= 4) {
    constexpr int G = PX == 3 ? 5 : int(16 / PX);
    int g = 0;
    if (w.period == 1) {
      const v128_t l0 = wasm_v128_load(w.lanes);
      const uint8_t* p0 = s + (w.off[0] >> 1);
      for (; g < w.run; ++g, i += G, p0 += w.step)
        wasm_v128_store(d + size_t(i) * PX, wasm_i8x16_swizzle(wasm_v128_load(p0), l0));
    } else if (w.period == 2) {
      const v128_t l0 = wasm_v128_load(w.lanes), l1 = wasm_v128_load(w.lanes + 16);
      const uint8_t *p0 = s + (w.off[0] >> 1), *p1 = s + (w.off[1] >> 1);
      for (; g < w.run; g += 2, i += 2 * G, p0 += w.step, p1 += w.step) {
        wasm_v128_store(d + size_t(i) * PX, wasm_i8x16_swizzle(wasm_v128_load(p0), l0));
        wasm_v128_store(d + size_t(i + G) * PX, wasm_i8x16_swizzle(wasm_v128_load(p1), l1));
      }
    }
    for (; g < w.groups; ++g, i += G) {
      const int32_t o = w.off[g];
      if (o >= 0) {
        const uint8_t* p = s + (o >> 1);
        const v128_t l = wasm_v128_load(w.lanes + size_t(g) * 16);
        v128_t v = wasm_i8x16_swizzle(wasm_v128_load(p), l);
        if (o & 1)
          v = wasm_v128_or(v, wasm_i8x16_swizzle(wasm_v128_load(p + 16),
                                                 wasm_i8x16_sub(l, wasm_i8x16_splat(16))));
        wasm_v128_store(d + size_t(i) * PX, v);
        continue;
      }
      for (int j = i; j < i + G; ++j) {
        if (xs[j] < 0)
          std::memset(d + size_t(j) * PX, 0, PX);
        else
          std::memcpy(d + size_t(j) * PX, s + size_t(xs[j]) * PX, PX);
      }
    }
  }
#else
  (void)w;
#endif
  for (; i < out_w; ++i) {
    if (xs[i] < 0)
      std::memset(d + size_t(i) * PX, 0, PX);
    else
      std::memcpy(d + size_t(i) * PX, s + size_t(xs[i]) * PX, PX);
  }
}

template <size_t PX>
static void images(const uint8_t* src, uint8_t* dst, int64_t count, int in_h, int in_w, int out_w,
                   int out_h, const int* xs, const int* ys, const Windows& w) {
  const size_t in_row = size_t(in_w) * PX, out_row = size_t(out_w) * PX;
  for (int64_t n = 0; n < count; ++n, src += size_t(in_h) * in_row) {
    for (int r = 0; r < out_h; ++r, dst += out_row) {
      if (ys[r] < 0)
        std::memset(dst, 0, out_row);
      else if (r > 0 && ys[r] == ys[r - 1])  // upscaling repeats rows: copy the one just made
        std::memcpy(dst, dst - out_row, out_row);
      else
        row<PX>(src + size_t(ys[r]) * in_row, dst, out_w, xs, w);
    }
  }
}

}  // namespace gather_detail

// `count` images of in_h x in_w pixels of `px` bytes (src, one after another) into
// out_h x out_w (dst): output pixel (r, i) is source pixel (ys[r], xs[i]); a negative
// index gives zeros. Needs no memory it cannot do without.
static inline void gather_images(const uint8_t* src, uint8_t* dst, int64_t count, int in_h,
                                 int in_w, int out_w, int out_h, size_t px, const int* xs,
                                 const int* ys) {
  using namespace gather_detail;
  Windows w;
  if (OSW_HAVE_SIMD && px <= 4) make_windows(&w, in_w, out_w, px, xs);
  switch (px) {
    case 1: return images<1>(src, dst, count, in_h, in_w, out_w, out_h, xs, ys, w);
    case 2: return images<2>(src, dst, count, in_h, in_w, out_w, out_h, xs, ys, w);
    case 3: return images<3>(src, dst, count, in_h, in_w, out_w, out_h, xs, ys, w);
    case 4: return images<4>(src, dst, count, in_h, in_w, out_w, out_h, xs, ys, w);
    case 8: return images<8>(src, dst, count, in_h, in_w, out_w, out_h, xs, ys, w);
    case 12: return images<12>(src, dst, count, in_h, in_w, out_w, out_h, xs, ys, w);
    case 16: return images<16>(src, dst, count, in_h, in_w, out_w, out_h, xs, ys, w);
  }
  // other pixel sizes (no caller has them): byte by byte
  const size_t in_row = size_t(in_w) * px, out_row = size_t(out_w) * px;
  for (int64_t n = 0; n < count; ++n, src += size_t(in_h) * in_row)
    for (int r = 0; r < out_h; ++r, dst += out_row)
      for (int i = 0; i < out_w; ++i)
        for (size_t k = 0; k < px; ++k)
          dst[size_t(i) * px + k] =
              ys[r] < 0 || xs[i] < 0 ? 0 : src[size_t(ys[r]) * in_row + size_t(xs[i]) * px + k];
}

}  // namespace compat
}  // namespace osw
