// resize/plan.cpp: coordinate transforms and per-axis tap tables for Resize.
#include "resize/plan.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace osw {

namespace coord {

// x / s computed as x * den / num: exact ratios for sizes (row 2), x / s for scales.
static inline double div_scale(double x, const AxisGeometry& g) {
  return x * g.scale_den / g.scale_num;
}

// The half-pixel family is evaluated over one common denominator, so that a coordinate
// that is exactly an integer or a tie (row 2) comes out exact after a single rounding:
//   (x + 0.5) / s - 0.5 = ((2x + 1) * den - num) / (2 * num).
double half_pixel(double x, const AxisGeometry& g) {
  return ((2.0 * x + 1.0) * g.scale_den - g.scale_num) / (2.0 * g.scale_num);
}

// offset + (x + 0.5) / s - 0.5 with offset = L_in/2 * (1 - L_out/W) and W = L_in * s
// simplifies to (L_in - 1)/2 + (2x + 1 - L_out) / (2s).
double half_pixel_symmetric(double x, const AxisGeometry& g) {
  return static_cast<double>(g.in - 1) / 2.0 +
         (2.0 * x + 1.0 - static_cast<double>(g.out)) * g.scale_den / (2.0 * g.scale_num);
}

double pytorch_half_pixel(double x, const AxisGeometry& g) {
  return g.out > 1 ? half_pixel(x, g) : 0.0;
}

double align_corners(double x, const AxisGeometry& g) {
  const double w = g.out_width();
  if (w == 1.0) return 0.0;
  return x * static_cast<double>(g.in - 1) / (w - 1.0);
}

double asymmetric(double x, const AxisGeometry& g) { return div_scale(x, g); }

double tf_half_pixel_for_nn(double x, const AxisGeometry& g) {
  return (2.0 * x + 1.0) * g.scale_den / (2.0 * g.scale_num);
}

// Written as the interpolation ((L_out - 1 - x) * start + x * end) / (L_out - 1) * (L_in - 1),
// equal to the spec's formula, so that the first and last outputs land exactly on
// start * (L_in - 1) and end * (L_in - 1): with end = 1 the last output is the last input
// pixel, not a hair beyond it (which would take extrapolation_value).
double tf_crop_and_resize(double x, const AxisGeometry& g) {
  const double span = static_cast<double>(g.in - 1);
  if (g.out > 1) {
    const double last = static_cast<double>(g.out - 1);
    return ((last - x) * g.roi_start + x * g.roi_end) / last * span;
  }
  return 0.5 * (g.roi_start + g.roi_end) * span;
}

double onnxruntime(CoordMode mode, double xd, const AxisGeometry& g) {
  const float x = static_cast<float>(xd), s = static_cast<float>(g.scale());
  const float in1 = static_cast<float>(g.in - 1);
  switch (mode) {
    case CoordMode::HalfPixel: return (x + 0.5f) / s - 0.5f;
    case CoordMode::PytorchHalfPixel: return g.out > 1 ? (x + 0.5f) / s - 0.5f : 0.0f;
    case CoordMode::Asymmetric: return x / s;
    case CoordMode::TfHalfPixelForNN: return (x + 0.5f) / s;
    case CoordMode::AlignCorners:
      return g.out == 1 ? 0.0f : (x * in1) / static_cast<float>(g.out - 1);
    case CoordMode::TfCropAndResize: {
      const float r0 = static_cast<float>(g.roi_start), r1 = static_cast<float>(g.roi_end);
      if (g.out > 1) return r0 * in1 + ((x * (r1 - r0)) * in1) / static_cast<float>(g.out - 1);
      return 0.5 * (g.roi_start + g.roi_end) * static_cast<double>(g.in - 1);
    }
    case CoordMode::HalfPixelSymmetric: {
      const float w = s * static_cast<float>(g.in);
      const float adj = static_cast<float>(g.out) / w;
      const float c = static_cast<float>(g.in) / 2.0f;
      const float off = c * (1.0f - adj);
      // this line in double, rounded to float32 once (measured: 0 of 690 random nearest
      // draws differ; all-float32 arithmetic, or double without the rounding, do)
      return static_cast<float>(static_cast<double>(off) + (xd + 0.5) / static_cast<double>(s) -
                                0.5);
    }
  }
  return xd;
}

Fn select(CoordMode mode) {
  switch (mode) {
    case CoordMode::HalfPixel: return half_pixel;
    case CoordMode::HalfPixelSymmetric: return half_pixel_symmetric;
    case CoordMode::PytorchHalfPixel: return pytorch_half_pixel;
    case CoordMode::AlignCorners: return align_corners;
    case CoordMode::Asymmetric: return asymmetric;
    case CoordMode::TfHalfPixelForNN: return tf_half_pixel_for_nn;
    case CoordMode::TfCropAndResize: return tf_crop_and_resize;
  }
  return half_pixel;
}

}  // namespace coord

// Converts a double to int64 without overflow: coordinates far outside any axis are
// clamped to +-2^40 first (still far outside, since lengths are below 2^31).
static inline int64_t to_index(double v) {
  if (!(v > -1099511627776.0)) return -1099511627776LL;  // also NaN
  if (v > 1099511627776.0) return 1099511627776LL;
  return static_cast<int64_t>(v);
}

int64_t nearest_index(double x, NearestMode mode, double scale) {
  const double f = std::floor(x);
  const double r = x - f;  // exact
  switch (mode) {
    case NearestMode::RoundPreferFloor: return to_index(r <= 0.5 ? f : f + 1.0);
    case NearestMode::RoundPreferCeil: return to_index(r < 0.5 ? f : f + 1.0);
    case NearestMode::Floor: return to_index(f);
    case NearestMode::Ceil: return to_index(std::ceil(x));
    case NearestMode::Opset10: return to_index(scale >= 1.0 ? f : std::ceil(x));
  }
  return to_index(f);
}

int64_t nearest_index_onnxruntime(double x, NearestMode mode, double scale) {
  const double f = std::floor(x);
  switch (mode) {
    case NearestMode::RoundPreferFloor:
      return to_index(std::fabs(x - (f + 0.5)) < 1e-6 ? f : std::round(x));
    case NearestMode::RoundPreferCeil:
      return to_index(std::fabs(x - (f + 0.5)) < 1e-6 ? f + 1.0 : std::round(x));
    case NearestMode::Floor: return to_index(f);
    case NearestMode::Ceil: return to_index(std::ceil(x));
    case NearestMode::Opset10: return to_index(scale < 1.0 ? std::ceil(x) : std::trunc(x));
  }
  return to_index(f);
}

double cubic_kernel(double s, double a) {
  s = std::fabs(s);
  if (s <= 1.0) return ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0;
  if (s < 2.0) return ((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a;
  return 0.0;
}

namespace {

// Taps of one output before clamping: positions and raw weights.
struct RawTaps {
  int n = 0;
  int64_t first = 0;  // taps sit at first, first + 1, ..., first + n - 1
  double* w = nullptr;
};

// Fills raw taps for a linear or cubic output at input coordinate x.
void filter_taps(const ResizeAttrs& attrs, double x, double scale, RawTaps* t) {
  const bool cubic = attrs.mode == ResizeMode::Cubic;
  if (!(attrs.antialias && scale < 1.0)) {
    const double f = std::floor(x);
    const double d = x - f;
    if (!cubic) {
      t->n = 2;
      t->first = to_index(f);
      t->w[0] = 1.0 - d;
      t->w[1] = d;
    } else {
      const double a = attrs.cubic_a;
      t->n = 4;
      t->first = to_index(f) - 1;
      t->w[0] = cubic_kernel(d + 1.0, a);
      t->w[1] = cubic_kernel(d, a);
      t->w[2] = cubic_kernel(1.0 - d, a);
      t->w[3] = cubic_kernel(2.0 - d, a);
    }
    return;
  }
  // Antialias (row 9): the filter is widened by 1/scale when downsampling and the
  // weights are normalised. As in the ONNX reference, the centre tap is the last input
  // index strictly left of x (ratio in (0, 1]) and taps run over a symmetric window.
  const double base = std::ceil(x) - 1.0;
  const double ratio = x - base;
  int64_t start, end;  // tap offsets i in [start, end) relative to base
  antialias_window(cubic, scale, &start, &end);
  t->n = static_cast<int>(end - start);
  t->first = to_index(base) + start;
  double sum = 0.0;
  for (int64_t i = start; i < end; ++i) {
    const double arg = (static_cast<double>(i) - ratio) * scale;
    const double w =
        cubic ? cubic_kernel(arg, attrs.cubic_a) : std::fmax(0.0, 1.0 - std::fabs(arg));
    t->w[i - start] = w;
    sum += w;
  }
  if (sum != 0.0)
    for (int i = 0; i < t->n; ++i) t->w[i] /= sum;
}

// Most taps one output of this axis can use.
int max_taps(const ResizeAttrs& attrs, double scale) {
  if (attrs.mode == ResizeMode::Nearest) return 1;
  const bool cubic = attrs.mode == ResizeMode::Cubic;
  if (!(attrs.antialias && scale < 1.0)) return cubic ? 4 : 2;
  if (!cubic) {
    const double start = std::floor(-1.0 / scale) + 1.0;
    return static_cast<int>(2.0 - 2.0 * start);
  }
  const double start = std::floor(-2.0 / scale) + 1.0;
  return static_cast<int>(2.0 - 2.0 * start);
}

}  // namespace

// Finds the pairs of blocks in the two-phase form (see AxisPlan::blk_pair): dense blocks,
// or even outputs of one tap each (pair_k0 = 1), whose odd outputs' loads are checked here.
// The phases' weights are those of the pair nearest the middle that has the form's windows;
// every pair whose windows and weights (bit for bit) match is marked.
static Status build_simd_pairs(int K, const Buffer<int64_t>& window, int64_t limit, AxisPlan* p) {
  p->pairs = p->pairs_d = 0;
  const int64_t n = p->blocks / 2;
  if ((K != 2 && K != 4) || n == 0) return Status::Ok();  // the kernel's KC cases
  // s: the first even output's first tap (its window in the dense form)
  auto windows_fit = [&](int64_t q, int dt, int k0) {
    const int64_t o0 = 8 * q, s = p->index[o0 * K];
    if (k0 == K ? !p->blk_dense[2 * q] || !p->blk_dense[2 * q + 1] || dt < 0
                : k0 != 1 || s + dt < 0 || s + dt + K + 2 >= p->in)
      return false;
    for (int j = 0; j < 4; ++j)
      if (p->count[o0 + 2 * j] != k0 || p->index[(o0 + 2 * j) * K] != s + j ||
          p->count[o0 + 2 * j + 1] != K || window[o0 + 2 * j + 1] != s + dt + j)
        return false;
    return true;
  };
  // The first pair with the form's windows from the middle down, else up from it.
  int64_t mid = -1;
  int dt = 0, k0 = K;
  for (int64_t i = 0; i < n && mid < 0; ++i) {
    const int64_t q = i <= n / 2 ? n / 2 - i : i;
    dt = static_cast<int>(window[8 * q + 1] - p->index[8 * q * K]);
    k0 = p->count[8 * q];
    if (dt >= -3 && dt <= 3 && windows_fit(q, dt, k0)) mid = q;
  }
  if (mid < 0) return Status::Ok();
  // The outputs use their k0 or K taps in window order: weight_f[o * K + k] is tap k's
  // (0 past the count).
  for (int ph = 0; ph < 2; ++ph) {
    for (int k = 0; k < K; ++k) {
      p->pair_w[ph][k] = p->weight_f[(8 * mid + ph) * K + k];
      p->pair_wd[ph][k] = p->weight[(8 * mid + ph) * K + k];
    }
  }
  if (!p->blk_pair.allocate(n, limit)) return out_of_memory("a resize plan", n, limit);
  for (int64_t q = 0; q < n; ++q) {
    const bool fit = windows_fit(q, dt, k0);
    bool ok = fit, ok_d = fit;
    for (int j = 0; j < 8; ++j) {
      ok = ok &&
           std::memcmp(&p->weight_f[(8 * q + j) * K], p->pair_w[j % 2], sizeof(float) * K) == 0;
      ok_d = ok_d &&
             std::memcmp(&p->weight[(8 * q + j) * K], p->pair_wd[j % 2], sizeof(double) * K) == 0;
    }
    p->blk_pair[q] = static_cast<uint8_t>((ok ? 1 : 0) | (ok_d ? 2 : 0));
    p->pairs += ok ? 1 : 0;
    p->pairs_d += ok_d ? 1 : 0;
  }
  p->pair_dt = dt;
  p->pair_k0 = k0;
  return Status::Ok();
}

// Finds the triples of blocks in the three-phase form (see AxisPlan::blk_tri): the phases'
// offsets and weights are those of the middle triple; every triple whose windows, tap
// counts and weights (bit for bit) match, with its loads inside the input, is marked.
static Status build_simd_triples(int K, const Buffer<int64_t>& window, int64_t limit, AxisPlan* p) {
  p->tris = 0;
  const int64_t n = p->blocks / 3, mid = 12 * (n / 2);
  if (K != 2 || p->pairs > 0 || n == 0) return Status::Ok();  // (the kernel's case: linear)
  const int* t = p->tri_t;
  for (int h = 0; h < 3; ++h) {
    p->tri_t[h] = static_cast<int>(window[mid + h] - window[mid]);
    for (int k = 0; k < K; ++k) p->tri_w[h][k] = p->weight_f[(mid + h) * K + k];
  }
  if (window[mid] < 0 || t[1] < 0 || t[2] < t[1] || t[2] > 3) return Status::Ok();
  if (!p->blk_tri.allocate(n, limit)) return out_of_memory("a resize plan", n, limit);
  for (int64_t q = 0; q < n; ++q) {
    const int64_t s = window[12 * q];
    bool ok = s >= 0 && s + t[2] + K + 7 <= p->in;  // the last load ends at s + t + K + 7
    for (int64_t j = 0, o = 12 * q; ok && j < 12; ++j, ++o)
      ok = p->count[o] == K && window[o] == s + t[j % 3] + 2 * (j / 3) &&
           std::memcmp(&p->weight_f[o * K], p->tri_w[j % 3], sizeof(float) * K) == 0;
    p->blk_tri[q] = ok ? 1 : 0;
    p->tris += ok ? 1 : 0;
  }
  return Status::Ok();
}

// Builds the innermost-axis SIMD form from the compacted taps and each output's window.
// A block qualifies when its 4 outputs have windows inside the input (no clamping, no
// crop, finite weights), within 8 inputs of the first window, and 8 inputs can be loaded.
static Status build_simd_blocks(const AxisGeometry& g, int K, const Buffer<int64_t>& window,
                                int64_t limit, AxisPlan* p) {
  const int64_t blocks = g.out / 4;
  if (!p->blk_base.allocate(blocks, limit) || !p->blk_mask.allocate(blocks * 16, limit) ||
      !p->blk_w.allocate(blocks * K * 4, limit) || !p->blk_nz.allocate(blocks * K * 4, limit) ||
      !p->blk_dense.allocate(blocks, limit))
    return out_of_memory("a resize plan", blocks * (21 + 32 * K), limit);
  p->blocks_dense = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t o0 = 4 * b;
    const int64_t base = window[o0];
    bool ok = base >= 0 && base + 8 <= g.in;
    for (int j = 0; ok && j < 4; ++j) {
      const int64_t f = window[o0 + j];
      ok = f >= base && f - base + K <= 8 && !std::isnan(p->weight[(o0 + j) * K]);
    }
    p->blk_base[b] = ok ? static_cast<int32_t>(base) : -1;
    p->blk_dense[b] = 0;
    if (!ok) continue;
    // Dense: the loads at base + k (k < K) of 4 inputs stay within the 8 checked above.
    bool dense = true;
    for (int j = 0; j < 4; ++j) {
      const int64_t o = o0 + j;
      const int d = static_cast<int>(window[o] - base);
      dense = dense && d <= 3 && p->count[o] == K;
      for (int byte = 0; byte < 4; ++byte)
        p->blk_mask[b * 16 + j * 4 + byte] = uint8_t(4 * d + byte);
      // Spread the compacted taps back onto the window; absent positions weigh 0.
      for (int k = 0; k < K; ++k) {
        p->blk_w[(b * K + k) * 4 + j] = 0.0f;
        p->blk_nz[(b * K + k) * 4 + j] = 0;
      }
      for (int k = 0; k < p->count[o]; ++k) {
        const int pos = static_cast<int>(p->index[o * K + k] - window[o]);
        p->blk_w[(b * K + pos) * 4 + j] = p->weight_f[o * K + k];
        p->blk_nz[(b * K + pos) * 4 + j] = 0xFFFFFFFFu;
      }
    }
    p->blk_dense[b] = dense ? 1 : 0;
    p->blocks_dense += dense ? 1 : 0;
  }
  p->blocks = blocks;
  OSW_RETURN_IF_ERROR(build_simd_pairs(K, window, limit, p));
  return build_simd_triples(K, window, limit, p);
}

Status build_axis_plan(const ResizeAttrs& attrs, const AxisGeometry& g, AxisPlan* p,
                       int64_t limit) {
  p->in = g.in;
  p->out = g.out;
  p->identity = false;
  p->any_outside = false;
  const double scale = g.scale();
  if (g.out == 0) {  // nothing to plan (and a scale of 0 has no filter width)
    p->taps = 1;
    return Status::Ok();
  }
  const double kt = static_cast<double>(max_taps(attrs, scale));
  // The antialias window grows as 1/scale; a window wider than twice the input plus the
  // filter's own support cannot have more distinct taps than the input has, but the
  // tables still hold the whole window, so bound it.
  if (kt > 1e8)
    return Status::Range("scales: scale " + num_text(scale) +
                         " makes an antialias filter window too large");
  const int K = static_cast<int>(kt);
  p->taps = K;
  int64_t cells;
  if (!checked_mul(g.out, K, &cells)) return Status::Range("plan size overflows");
  if (!p->count.allocate(g.out, limit) || !p->index.allocate(cells, limit) ||
      !p->weight.allocate(cells, limit) || !p->weight_f.allocate(cells, limit) ||
      !p->outside.allocate(g.out, limit))
    return out_of_memory("a resize plan", cells * 17, limit);
  Buffer<double> raw;
  if (!raw.allocate(K, limit)) return out_of_memory("a resize plan", K * 8, limit);

  // First raw tap of each output whose K consecutive taps all lie inside the input
  // (-1 otherwise), for the innermost-axis SIMD form.
  Buffer<int64_t> window;
  const bool simd_form = attrs.mode != ResizeMode::Nearest && K <= 4 && g.in >= 8 && g.out >= 4;
  if (simd_form && !window.allocate(g.out, limit))
    return out_of_memory("a resize plan", g.out * 8, limit);

  const coord::Fn fn = coord::select(attrs.coord);
  const bool ort = attrs.compat == Compat::OnnxRuntime;
  const bool crop = attrs.coord == CoordMode::TfCropAndResize;
  const int64_t last = g.in - 1;
  bool identity = g.out == g.in;

  for (int64_t o = 0; o < g.out; ++o) {
    const double x = ort ? coord::onnxruntime(attrs.coord, static_cast<double>(o), g)
                         : fn(static_cast<double>(o), g);
    int32_t* idx = &p->index[o * K];
    double* w = &p->weight[o * K];
    float* wf = &p->weight_f[o * K];
    // tf_crop_and_resize: a coordinate outside [0, L_in - 1] takes extrapolation_value.
    // NaN (only from degenerate roi arithmetic) counts as outside too.
    const bool outside = crop && !(x >= 0.0 && x <= static_cast<double>(last));
    p->outside[o] = outside ? 1 : 0;
    if (outside || g.in == 0) {
      if (simd_form) window[o] = -1;
      p->any_outside |= outside;
      p->count[o] = 0;
      for (int k = 0; k < K; ++k) {
        idx[k] = 0;
        w[k] = 0.0;
        wf[k] = 0.0f;
      }
      identity = false;
      continue;
    }
    int n = 0;
    if (attrs.mode == ResizeMode::Nearest) {
      int64_t i = ort ? nearest_index_onnxruntime(x, attrs.nearest, scale)
                      : nearest_index(x, attrs.nearest, scale);
      i = i < 0 ? 0 : (i > last ? last : i);
      idx[0] = static_cast<int32_t>(i);
      w[0] = 1.0;
      n = 1;
    } else {
      RawTaps t;
      t.w = raw.data();
      filter_taps(attrs, x, scale, &t);
      if (simd_form)
        window[o] = (t.n == K && t.first >= 0 && t.first + K - 1 <= last) ? t.first : -1;
      if (attrs.exclude_outside) {
        // Taps outside the input get weight 0; the rest are renormalised.
        double sum = 0.0;
        for (int k = 0; k < t.n; ++k) {
          const int64_t pos = t.first + k;
          if (pos < 0 || pos > last) t.w[k] = 0.0;
          sum += t.w[k];
        }
        if (sum != 0.0) {
          for (int k = 0; k < t.n; ++k) t.w[k] /= sum;
        } else {
          // Every tap is outside the input: the renormalisation divides 0 by 0. The
          // result is NaN, as the spec's arithmetic gives (0 for integer outputs).
          const int64_t near = t.first < 0 ? 0 : (t.first > last ? last : t.first);
          idx[0] = static_cast<int32_t>(near);
          w[0] = std::numeric_limits<double>::quiet_NaN();
          t.n = 0;
          n = 1;
        }
      }
      // Clamp positions to the input (edge padding) and drop zero weights, so that an
      // output never reads a value it does not weigh (a NaN or Inf there stays local).
      for (int k = 0; k < t.n; ++k) {
        if (t.w[k] == 0.0) continue;
        int64_t pos = t.first + k;
        pos = pos < 0 ? 0 : (pos > last ? last : pos);
        idx[n] = static_cast<int32_t>(pos);
        w[n] = t.w[k];
        ++n;
      }
    }
    p->count[o] = n;
    for (int k = 0; k < n; ++k) wf[k] = static_cast<float>(w[k]);
    for (int k = n; k < K; ++k) {
      idx[k] = n > 0 ? idx[0] : 0;
      w[k] = 0.0;
      wf[k] = 0.0f;
    }
    if (identity && !(n == 1 && idx[0] == o && w[0] == 1.0)) identity = false;
  }
  p->identity = identity;
  if (K >= 2 && K <= 255) {  // (n in a byte)
    if (!p->consecutive.allocate(g.out, limit)) return out_of_memory("a resize plan", g.out, limit);
    for (int64_t o = 0; o < g.out; ++o) {
      const int32_t* idx = &p->index[o * K];
      const int n = p->count[o];
      bool run = n >= 2;
      for (int k = 1; k < n && run; ++k) run = idx[k] == idx[0] + k;
      p->consecutive[o] = run ? uint8_t(n) : 0;
    }
  } else {
    p->consecutive = Buffer<uint8_t>();  // a reused plan keeps no flags of an earlier one
  }
  p->blocks = 0;
  p->pairs = p->pairs_d = p->tris = 0;
  if (simd_form) OSW_RETURN_IF_ERROR(build_simd_blocks(g, K, window, limit, p));
  return Status::Ok();
}

}  // namespace osw
