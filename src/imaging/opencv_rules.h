// imaging/opencv_rules.h: the coordinate and weight rules of cv2.resize (OpenCV 4.6) that
// src/imaging/opencv.cpp applies; see the top of opencv.cpp for the whole list. Internal to the
// compat module (the tests read it to pin single rules).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "imaging/imaging.h"

namespace osw {
namespace compat {
namespace cvrules {

enum class Axis { X, Y };
enum class Kind { Nearest, NearestExact, Linear, Cubic, AreaUp, AreaFast, AreaGeneral };

// OpenCV's cvRound (and saturate_cast<int>) on doubles: round half to even.
static inline int round_even(double v) { return static_cast<int>(std::nearbyint(v)); }

static inline bool valid(const ImageBatch& g, double isx, double isy, int interp) {
  if (interp != 0 && interp != 1 && interp != 2 && interp != 3 && interp != 6) return false;
  if (g.count < 0 || g.in_h < 1 || g.in_w < 1 || g.out_h < 1 || g.out_w < 1) return false;
  if (g.channels < 1 || g.channels > 4) return false;
  const int64_t lim = int64_t(1) << 28;  // OpenCV's int sizes, with room for taps and sums
  if (g.in_h > lim || g.out_h > lim || g.in_w * g.channels > lim || g.out_w * g.channels > lim)
    return false;
  if (!(isx > DBL_EPSILON && isy > DBL_EPSILON) || !std::isfinite(isx) || !std::isfinite(isy))
    return false;
  // OpenCV derives the output size from the scales again: it must be the one given.
  return round_even(double(g.in_w) * isx) == g.out_w && round_even(double(g.in_h) * isy) == g.out_h;
}

struct Path {
  Kind kind;
  int iscale_x, iscale_y;
};

// Which code path cv::resize takes (sizes already differ from the input's).
static inline Path choose(int, int, int, int, double isx, double isy, CvInterp interp) {
  if (interp == CvInterp::Nearest) return {Kind::Nearest, 0, 0};
  if (interp == CvInterp::NearestExact) return {Kind::NearestExact, 0, 0};
  const double sx = 1. / isx, sy = 1. / isy;
  const int ix = round_even(sx), iy = round_even(sy);
  const bool integer = std::fabs(sx - ix) < DBL_EPSILON && std::fabs(sy - iy) < DBL_EPSILON;
  if (interp == CvInterp::Linear && integer && ix == 2 && iy == 2) interp = CvInterp::Area;
  if (interp == CvInterp::Area && sx >= 1 && sy >= 1)
    return {integer ? Kind::AreaFast : Kind::AreaGeneral, ix, iy};
  if (interp == CvInterp::Cubic) return {Kind::Cubic, 0, 0};
  return {interp == CvInterp::Area ? Kind::AreaUp : Kind::Linear, 0, 0};
}

// Source indices of nearest / nearest-exact along one axis.
static inline void nearest_table(bool exact, double inv_scale, int in, int out, int* t) {
  if (exact) {
    const int step = int(((int64_t(in) << 16) + out / 2) / out);
    const int base = step / 2 - 1;  // OpenCV 4.6 (later versions: - in % 2)
    for (int d = 0; d < out; ++d) {
      const int s = int((int64_t(step) * d + base) >> 16);
      t[d] = s < in - 1 ? s : in - 1;
    }
  } else {
    const double inv = 1. / inv_scale;
    for (int d = 0; d < out; ++d) {
      const int s = int(std::floor(d * inv));
      t[d] = s < in - 1 ? s : in - 1;
    }
  }
}

// The fractional coordinate OpenCV derives for destination index d (float, as OpenCV).
static inline float frac_coord(Kind kind, Axis axis, double inv_scale, int in, int d, int* s_out) {
  const double scale = 1. / inv_scale;
  float f;
  int s;
  if (kind != Kind::AreaUp) {
    f = float((d + 0.5) * scale - 0.5);
    s = int(std::floor(f));
    f -= float(s);
  } else {
    s = int(std::floor(d * scale));
    f = float((d + 1) - (s + 1) * inv_scale);
    f = f <= 0 ? 0.f : f - float(std::floor(f));
  }
  if (axis == Axis::X && kind != Kind::Cubic) {
    if (s < 0) f = 0, s = 0;
    if (s >= in - 1) f = 0, s = in - 1;
  }
  *s_out = s;
  return f;
}

static inline void cubic_weights(float x, float* w) {
  const float A = -0.75f;
  w[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  w[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  w[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  w[3] = 1.f - w[0] - w[1] - w[2];
}

// saturate_cast<short>(w * 2048): cvRound of the float product, then clamped.
static inline int16_t fixed_weight(float w) {
  const float v = w * 2048.f;
  const int r = static_cast<int>(std::nearbyint(v));
  return static_cast<int16_t>(r < -32768 ? -32768 : r > 32767 ? 32767 : r);
}

// Taps (clamped source indices) and weights of the separable paths along one axis: ks = 2
// (linear, area upscaling) or 4 (cubic) per destination index.
static inline void axis_taps(Axis axis, Kind kind, double inv_scale, int in, int out, int* taps,
                             float* wf, int16_t* wi) {
  const int ks = kind == Kind::Cubic ? 4 : 2;
  for (int d = 0; d < out; ++d) {
    int s;
    const float f = frac_coord(kind, axis, inv_scale, in, d, &s);
    float w[4];
    if (ks == 4) {
      cubic_weights(f, w);
    } else {
      w[0] = 1.f - f;
      w[1] = f;
    }
    const int first = s - (ks / 2 - 1);
    for (int k = 0; k < ks; ++k) {
      const int t = first + k;
      taps[d * ks + k] = t < 0 ? 0 : t > in - 1 ? in - 1 : t;
      wf[d * ks + k] = w[k];
      wi[d * ks + k] = fixed_weight(w[k]);
    }
  }
}

struct AreaTap {
  int s, d;
  float w;
};

// OpenCV's area decimation table along one axis; returns its length (at most 2 * in + 2).
static inline int area_table(int in, int out, double scale, AreaTap* tab) {
  int k = 0;
  for (int d = 0; d < out; ++d) {
    const double f1 = d * scale, f2 = f1 + scale;
    const double cell = scale < in - f1 ? scale : in - f1;
    int s1 = int(std::ceil(f1)), s2 = int(std::floor(f2));
    s2 = s2 < in - 1 ? s2 : in - 1;
    s1 = s1 < s2 ? s1 : s2;
    if (s1 - f1 > 1e-3) tab[k++] = {s1 - 1, d, float((s1 - f1) / cell)};
    for (int s = s1; s < s2; ++s) tab[k++] = {s, d, float(1.0 / cell)};
    if (f2 - s2 > 1e-3) {
      const double part = f2 - s2 < 1. ? f2 - s2 : 1.;
      tab[k++] = {s2, d, float((part < cell ? part : cell) / cell)};
    }
  }
  return k;
}

}  // namespace cvrules
}  // namespace compat
}  // namespace osw
