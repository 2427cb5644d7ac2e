// resize/kernels_nearest.cpp: the nearest gather (see resize/kernels_nearest.h for the layout).
#include "resize/kernels_nearest.h"

#include <algorithm>
#include <cstring>

#include "core/simd.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

namespace {

// Copies n bytes between regions that do not overlap.
inline void copy_bytes(uint8_t* d, const uint8_t* s, int64_t n, bool simd) {
#if OSW_HAVE_SIMD
  // Rows of up to 32 KB in v128 steps: as fast as memcpy, without its call out to JS
  // (Emscripten's memcpy hands copies of 512 bytes and more to HEAPU8.copyWithin).
  if (simd && n >= 16 && n <= 32768) {
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
      const v128_t a = wasm_v128_load(s + i), b = wasm_v128_load(s + i + 16);
      const v128_t c = wasm_v128_load(s + i + 32), e = wasm_v128_load(s + i + 48);
      wasm_v128_store(d + i, a);
      wasm_v128_store(d + i + 16, b);
      wasm_v128_store(d + i + 32, c);
      wasm_v128_store(d + i + 48, e);
    }
    for (; i + 16 <= n; i += 16) wasm_v128_store(d + i, wasm_v128_load(s + i));
    if (i < n) wasm_v128_store(d + n - 16, wasm_v128_load(s + n - 16));  // overlaps, same bytes
    return;
  }
#else
  (void)simd;
#endif
  std::memcpy(d, s, static_cast<size_t>(n));
}

// Outputs [u0, u1) of axis last, U bytes each, one by one.
using UnitFn = void (*)(uint8_t* y, const uint8_t* xb, const int64_t* off, int64_t u0, int64_t u1,
                        int64_t unit);

template <int U>
void copy_units(uint8_t* y, const uint8_t* xb, const int64_t* off, int64_t u0, int64_t u1,
                int64_t) {
  for (int64_t o = u0; o < u1; ++o) std::memcpy(y + o * U, xb + off[o], U);
}

void copy_units_any(uint8_t* y, const uint8_t* xb, const int64_t* off, int64_t u0, int64_t u1,
                    int64_t unit) {
  for (int64_t o = u0; o < u1; ++o)
    std::memcpy(y + o * unit, xb + off[o], static_cast<size_t>(unit));
}

UnitFn unit_fn(int64_t unit) {
  switch (unit) {
    case 1: return copy_units<1>;
    case 2: return copy_units<2>;
    case 3: return copy_units<3>;
    case 4: return copy_units<4>;
    case 5: return copy_units<5>;
    case 6: return copy_units<6>;
    case 7: return copy_units<7>;
    case 8: return copy_units<8>;
    case 12: return copy_units<12>;
    case 16: return copy_units<16>;
    default: return copy_units_any;
  }
}

struct Gather {
  const ResizePlan* plan;
  const NearestTables* c;
  int last;
  int64_t n_last;
  int64_t sub_bytes[kMaxRank];  // output bytes of one index of axis a (a < last)
  bool simd;                    // SIMD blocks and merged runs
  bool reuse;
  UnitFn units;
  const uint8_t* prev_xb = nullptr;  // source base of the row written last
  bool have_prev = false;
  int64_t rows_in[kMaxRank + 1];  // [a]: output rows of one index of axis a - 1 (a <= last)
  int64_t lo = 0, hi = 0;         // the rows to write

  void row(const uint8_t* xb, uint8_t* y) {
    if (reuse && have_prev && xb == prev_xb) {  // same sources as the row just before: copy it
      copy_bytes(y, y - c->row_bytes, c->row_bytes, simd);
      return;
    }
    prev_xb = xb;
    have_prev = true;
    const int64_t* off = c->offsets[last].data();
    if (!simd) {
      units(y, xb, off, 0, n_last, c->unit);
      return;
    }
#if OSW_HAVE_SIMD
    if (c->unit == 16) {  // (a float32 RGBA pixel: one load and one store, not a memcpy call)
      for (int64_t o = 0; o < n_last; ++o) wasm_v128_store(y + o * 16, wasm_v128_load(xb + off[o]));
      return;
    }
#endif
    if (c->unit >= 16) {
      const int64_t* src = c->run_src.data();
      const int64_t* len = c->run_len.data();
      // (Inline v128 copies: a run is often a single unit of a few dozen bytes, and a
      // call to memcpy per run makes such runs markedly slower.)
      for (int64_t r = 0; r < c->n_runs; ++r) {
        copy_bytes(y, xb + src[r], len[r], true);
        y += len[r];
      }
      return;
    }
#if OSW_HAVE_SIMD
    const int32_t* start = c->blk_start.data();
    const uint8_t* mask = c->blk_mask.data();
    for (int64_t s = 0; s < c->n_segs; ++s) {
      const NearestSegment& g = c->segs[s];
      if (g.simd) {
        const int32_t* st = start + g.b0;
        const int32_t* const end = start + g.b1;
        const uint8_t* mk = mask + g.b0 * 16;
        uint8_t* yy = y + g.b0 * 16;
        for (; st != end; ++st, mk += 16, yy += 16)
          wasm_v128_store(yy, wasm_i8x16_swizzle(wasm_v128_load(xb + *st), wasm_v128_load(mk)));
      } else {
        units(y, xb, off, g.u0, g.u1, c->unit);
      }
    }
#endif
  }

  // The rows of axis a's sub-tensor at xb that lie in [lo, hi) (the sub-tensor's rows are
  // [base, base + rows_in[a]) and its output starts at y). A sub-tensor equal to the one
  // before it is copied from it only when that one was written by this call.
  void axis(int a, const uint8_t* xb, uint8_t* y, int64_t base) {
    if (a == last) {
      row(xb, y);
      return;
    }
    const int64_t* off = c->offsets[a].data();
    const int64_t n = plan->out_dims[a], sub = sub_bytes[a], per = rows_in[a + 1];
    int64_t o = lo > base ? (lo - base) / per : 0;
    const int64_t o_end = std::min(n, (hi - base + per - 1) / per);
    for (y += o * sub; o < o_end; ++o, y += sub) {
      const int64_t first = base + o * per;
      if (reuse && o > 0 && off[o] == off[o - 1] && first - per >= lo && first + per <= hi) {
        // The same sources as the sub-tensor just written: copy it whole.
        copy_bytes(y, y - sub, sub, simd);
        continue;
      }
      axis(a + 1, xb + off[o], y, first);
    }
  }
};

Status build_tables(const ResizePlan& plan, size_t es, NearestTables* c) {
  const int rank = plan.rank;
  const int64_t limit = plan.opts.max_bytes;
  int last = -1;
  for (int a = 0; a < rank; ++a)
    if (!plan.axis[a].identity) last = a;
  c->last = last;
  int64_t block = static_cast<int64_t>(es);
  for (int a = last + 1; a < rank; ++a) block *= plan.in_dims[a];
  c->unit = block;
  c->rows = 1;
  for (int a = 0; a < last; ++a) c->rows *= plan.out_dims[a];
  if (last < 0) {
    c->row_bytes = block;
    return Status::Ok();
  }
  // Byte strides of X, then each axis' offsets.
  int64_t stride[kMaxRank];
  int64_t s = block;
  for (int a = last; a >= 0; --a) {
    stride[a] = s;
    s *= plan.in_dims[a];
  }
  for (int a = 0; a <= last; ++a) {
    const AxisPlan& ap = plan.axis[a];
    if (!c->offsets[a].allocate(ap.out, limit))
      return out_of_memory("nearest offsets", ap.out * 8, limit);
    for (int64_t o = 0; o < ap.out; ++o)
      c->offsets[a][o] = static_cast<int64_t>(ap.index[o * ap.taps]) * stride[a];
  }
  const int64_t U = block, n = plan.out_dims[last];
  const int64_t* off = c->offsets[last].data();
  c->row_bytes = n * U;
  c->n_segs = 0;
  c->n_runs = 0;
  if (U >= 16) {
    // Runs: consecutive outputs with consecutive sources are one memcpy.
    int64_t runs = 0;
    for (int64_t o = 0; o < n; ++o)
      if (o == 0 || off[o] != off[o - 1] + U) ++runs;
    if (!c->run_src.allocate(runs, limit) || !c->run_len.allocate(runs, limit))
      return out_of_memory("nearest runs", runs * 16, limit);
    int64_t r = -1;
    for (int64_t o = 0; o < n; ++o) {
      if (o == 0 || off[o] != off[o - 1] + U) {
        ++r;
        c->run_src[r] = off[o];
        c->run_len[r] = 0;
      }
      c->run_len[r] += U;
    }
    c->n_runs = runs;
    return Status::Ok();
  }
#if OSW_HAVE_SIMD
  // 16-byte blocks of the output row. Output byte j comes from input row byte
  // off[j / U] + j % U; a block is SIMD when its 16 source bytes lie within one 16-byte
  // window [w, w + 16) inside the input row. Sources may decrease (a flipped roi), so
  // the window is taken from their min and max.
  const int64_t in_row = plan.in_dims[last] * U;
  const int64_t nb = c->row_bytes / 16;
  if (!c->blk_start.allocate(nb, limit) || !c->blk_mask.allocate(nb * 16, limit))
    return out_of_memory("nearest blocks", nb * 20, limit);
  int64_t n_simd = 0;
  for (int64_t b = 0; b < nb; ++b) {
    int64_t src[16];
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int k = 0; k < 16; ++k) {
      const int64_t j = b * 16 + k;
      src[k] = off[j / U] + j % U;
      lo = std::min(lo, src[k]);
      hi = std::max(hi, src[k]);
    }
    const int64_t w = std::min(lo, in_row - 16);
    const bool ok = in_row >= 16 && w >= 0 && hi < w + 16 && w <= INT32_MAX;
    c->blk_start[b] = ok ? static_cast<int32_t>(w) : -1;
    for (int k = 0; k < 16; ++k)
      c->blk_mask[b * 16 + k] = ok ? static_cast<uint8_t>(src[k] - w) : 0;
    n_simd += ok;
  }
  // Segments: maximal stretches of SIMD blocks, and between them the outputs that cover
  // the other bytes (a unit straddling a boundary is written twice, with the same bytes).
  // Byte stretches [B0, B1) alternate; the row's tail after the last whole block is scalar.
  int64_t n_segs = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1 && !c->segs.allocate(n_segs, limit))
      return out_of_memory("nearest segments", n_segs * 40, limit);
    int64_t k = 0;
    int64_t b = 0;
    while (b * 16 < c->row_bytes) {
      const bool simd = b < nb && c->blk_start[b] >= 0;
      int64_t e = b + 1;
      while (e < nb && (c->blk_start[e] >= 0) == simd) ++e;
      if (!simd && e == nb) e = nb + 1;  // the scalar stretch takes the tail too
      if (pass == 1) {
        NearestSegment g;
        g.simd = simd ? 1 : 0;
        g.b0 = b;
        g.b1 = std::min(e, nb);
        g.u0 = (b * 16) / U;
        g.u1 = std::min(n, (std::min(e * 16, c->row_bytes) + U - 1) / U);
        c->segs[k] = g;
      }
      ++k;
      b = e;
    }
    n_segs = k;
  }
  c->n_segs = n_segs;
  (void)n_simd;
#endif
  return Status::Ok();
}

}  // namespace

Status build_nearest_tables(const ResizePlan& plan, size_t es, NearestTables* t) {
  *t = NearestTables();
  OSW_RETURN_IF_ERROR(build_tables(plan, es, t));
  t->elem_size = es;
  return Status::Ok();
}

const NearestTables* nearest_tables(const ResizePlan& plan, size_t es) {
  const int i = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : es == 8 ? 3 : -1;
  if (i < 0 || plan.nearest[i].elem_size != es) return nullptr;
  return &plan.nearest[i];
}

Status gather_nearest(const ResizePlan& plan, const NearestTables& c, const void* xv, void* yv,
                      int64_t row_begin, int64_t row_end) {
  const uint8_t* x = static_cast<const uint8_t*>(xv);
  uint8_t* y = static_cast<uint8_t*>(yv);
  if (row_begin >= row_end) return Status::Ok();
  if (c.last < 0) {
    std::memcpy(y, x, static_cast<size_t>(c.row_bytes));
    return Status::Ok();
  }
  Gather g;
  g.plan = &plan;
  g.c = &c;
  g.last = c.last;
  g.n_last = plan.out_dims[c.last];
  g.simd = !plan.opts.nearest_scalar;
  g.reuse = !plan.opts.nearest_no_reuse;
#if !OSW_HAVE_SIMD
  if (c.unit < 16) g.simd = false;
#endif
  g.units = unit_fn(c.unit);
  int64_t sub = c.row_bytes, rows = 1;
  g.rows_in[c.last] = 1;
  for (int a = c.last - 1; a >= 0; --a) {
    g.sub_bytes[a] = sub;
    sub *= plan.out_dims[a];
    rows *= plan.out_dims[a];
    g.rows_in[a] = rows;
  }
  g.lo = row_begin;
  g.hi = row_end;
  g.axis(0, x, y, 0);
  return Status::Ok();
}

}  // namespace osw
