// reference_opencv.h: a slow, plain model of cv2.resize (OpenCV 4.6, x86-64) on one HWC image,
// written from the rules listed at the top of src/imaging/opencv.cpp and independent of its
// code: every output value is computed on its own, straight from the input. The options turn
// single rules off, so tests can show that each one changes results.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace refcv {

enum Interp { kNearest = 0, kLinear = 1, kCubic = 2, kArea = 3, kNearestExact = 6 };

struct Options {
  bool linear2x_is_area = true;  // LINEAR at exactly 2x down is AREA
  bool cubic_split = true;       // cubic vertical: vector formula below the vector end
};

inline int rnd(double v) { return int(std::nearbyint(v)); }  // cvRound: half to even
inline int rndf(float v) { return int(std::nearbyint(v)); }
inline uint8_t clamp_u8(long long v) { return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v); }

template <typename T>
T store(float v) {
  if constexpr (std::is_same<T, float>::value) {
    return v;
  } else {
    return clamp_u8(rndf(v));
  }
}

// Float coordinate of destination index d (linear, cubic; area_mode: AREA upscaling).
inline void coord(bool area_mode, double inv_scale, int d, int* s, float* f) {
  const double scale = 1.0 / inv_scale;
  if (!area_mode) {
    float t = float((d + 0.5) * scale - 0.5);
    *s = int(std::floor(t));
    *f = t - float(*s);
  } else {
    *s = int(std::floor(d * scale));
    float t = float((d + 1) - (*s + 1) * inv_scale);
    *f = t <= 0 ? 0.f : t - float(std::floor(t));
  }
}

inline void cubic_w(float x, float w[4]) {
  const float A = -0.75f;
  w[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  w[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  w[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  w[3] = 1.f - w[0] - w[1] - w[2];
}

inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

// Taps and float weights of one axis at destination index d.
inline int taps(int kind /*1 linear, 2 cubic, 3 area-up*/, bool is_x, double inv_scale, int in, int d,
                int idx[4], float w[4]) {
  int s;
  float f;
  coord(kind == 3, inv_scale, d, &s, &f);
  if (kind == 2) {
    cubic_w(f, w);
    for (int k = 0; k < 4; ++k) idx[k] = clampi(s - 1 + k, 0, in - 1);
    return 4;
  }
  if (is_x) {
    if (s < 0) s = 0, f = 0;
    if (s >= in - 1) s = in - 1, f = 0;
  }
  w[0] = 1.f - f;
  w[1] = f;
  idx[0] = clampi(s, 0, in - 1);
  idx[1] = clampi(s + 1, 0, in - 1);
  return 2;
}

inline short q11(float w) {
  const int r = rndf(w * 2048.f);
  return short(r < -32768 ? -32768 : r > 32767 ? 32767 : r);
}

struct AreaEntry {
  int s;
  float w;
};
// The source pixels and weights of destination cell d (AREA downscaling, general).
inline std::vector<AreaEntry> area_cell(int in, double scale, int d) {
  std::vector<AreaEntry> e;
  const double f1 = d * scale, f2 = f1 + scale;
  const double cell = std::min(scale, in - f1);
  int s1 = int(std::ceil(f1)), s2 = int(std::floor(f2));
  s2 = std::min(s2, in - 1);
  s1 = std::min(s1, s2);
  if (s1 - f1 > 1e-3) e.push_back({s1 - 1, float((s1 - f1) / cell)});
  for (int s = s1; s < s2; ++s) e.push_back({s, float(1.0 / cell)});
  if (f2 - s2 > 1e-3) e.push_back({s2, float(std::min(std::min(f2 - s2, 1.), cell) / cell)});
  return e;
}

template <typename T>
std::vector<T> resize(const std::vector<T>& x, int H, int W, int C, int OH, int OW, double isx,
                      double isy, int interp, Options opt = Options()) {
  const bool u8 = std::is_same<T, uint8_t>::value;
  std::vector<T> y(size_t(OH) * OW * C);
  auto X = [&](int r, int c, int ch) { return x[(size_t(r) * W + c) * C + ch]; };
  if (H == OH && W == OW) return x;
  if (interp == kNearest || interp == kNearestExact) {
    for (int oy = 0; oy < OH; ++oy)
      for (int ox = 0; ox < OW; ++ox) {
        int sy, sx;
        if (interp == kNearest) {
          sy = std::min(int(std::floor(oy * (1.0 / isy))), H - 1);
          sx = std::min(int(std::floor(ox * (1.0 / isx))), W - 1);
        } else {
          const long long ifx = ((long long)W * 65536 + OW / 2) / OW, ify = ((long long)H * 65536 + OH / 2) / OH;
          sx = std::min(int((ifx * ox + ifx / 2 - 1) >> 16), W - 1);
          sy = std::min(int((ify * oy + ify / 2 - 1) >> 16), H - 1);
        }
        for (int ch = 0; ch < C; ++ch) y[(size_t(oy) * OW + ox) * C + ch] = X(sy, sx, ch);
      }
    return y;
  }
  const double scale_x = 1.0 / isx, scale_y = 1.0 / isy;
  const int ix = rnd(scale_x), iy = rnd(scale_y);
  const bool integer = std::fabs(scale_x - ix) < DBL_EPSILON && std::fabs(scale_y - iy) < DBL_EPSILON;
  if (opt.linear2x_is_area && interp == kLinear && integer && ix == 2 && iy == 2) interp = kArea;
  const int RW = OW * C;  // a row in elements
  if (interp == kArea && scale_x >= 1 && scale_y >= 1) {
    for (int oy = 0; oy < OH; ++oy)
      for (int ox = 0; ox < OW; ++ox)
        for (int ch = 0; ch < C; ++ch) {
          const int e = ox * C + ch;  // element index in the output row
          float v;
          if (integer) {
            const int y0 = oy * iy, x0 = ox * ix;
            const int full = (y0 + iy <= H) ? (W / ix) * C : 0;
            if (e < full) {
              if (u8 && ix == 2 && iy == 2 && C != 2) {
                const int s = X(y0, x0, ch) + X(y0, x0 + 1, ch) + X(y0 + 1, x0, ch) + X(y0 + 1, x0 + 1, ch);
                y[size_t(oy) * RW + e] = T((s + 2) >> 2);
                continue;
              }
              if (!u8 && ix == 2 && iy == 2 && (C == 1 || C == 4) && e < (full & ~3)) {
                v = ((float(X(y0, x0, ch)) + float(X(y0, x0 + 1, ch))) +
                     (float(X(y0 + 1, x0, ch)) + float(X(y0 + 1, x0 + 1, ch)))) * 0.25f;
              } else if (u8) {
                long long s = 0;
                for (int a = 0; a < iy; ++a)
                  for (int b = 0; b < ix; ++b) s += X(y0 + a, x0 + b, ch);
                v = float(s) * (1.f / float(ix * iy));
              } else {
                std::vector<float> vals;
                for (int a = 0; a < iy; ++a)
                  for (int b = 0; b < ix; ++b) vals.push_back(float(X(y0 + a, x0 + b, ch)));
                float s = 0;
                size_t k = 0;
                for (; k + 4 <= vals.size(); k += 4) s += ((vals[k] + vals[k + 1]) + vals[k + 2]) + vals[k + 3];
                for (; k < vals.size(); ++k) s += vals[k];
                v = s * (1.f / float(ix * iy));
              }
            } else {  // a cell cut by the border
              double s = 0;
              float sf = 0;
              int count = 0;
              for (int a = 0; a < iy && y0 + a < H; ++a)
                for (int b = 0; b < ix && x0 + b < W; ++b) s += X(y0 + a, x0 + b, ch), sf += float(X(y0 + a, x0 + b, ch)), ++count;
              v = u8 ? float(s) / float(count) : sf / float(count);
            }
          } else {
            const auto ey = area_cell(H, scale_y, oy), ex = area_cell(W, scale_x, ox);
            float sum = 0;
            for (size_t j = 0; j < ey.size(); ++j) {
              float buf = 0;
              for (const auto& t : ex) buf += float(X(ey[j].s, t.s, ch)) * t.w;
              sum = j == 0 ? ey[j].w * buf : sum + ey[j].w * buf;
            }
            v = sum;
          }
          y[size_t(oy) * RW + e] = store<T>(v);
        }
    return y;
  }
  // Separable: linear, cubic, area upscaling.
  const int kind = interp == kCubic ? 2 : interp == kArea ? 3 : 1;
  for (int oy = 0; oy < OH; ++oy) {
    int yi[4], xi[4];
    float yw[4], xw[4];
    const int ks = taps(kind, false, isy, H, oy, yi, yw);
    for (int ox = 0; ox < OW; ++ox) {
      taps(kind, true, isx, W, ox, xi, xw);
      for (int ch = 0; ch < C; ++ch) {
        const int e = ox * C + ch;
        if (u8) {
          long long h[4];
          for (int r = 0; r < ks; ++r) {
            h[r] = 0;
            for (int k = 0; k < ks; ++k) h[r] += (long long)X(yi[r], xi[k], ch) * q11(xw[k]);
          }
          long long b[4];
          for (int r = 0; r < ks; ++r) b[r] = q11(yw[r]);
          long long out;
          if (ks == 2) {
            out = ((((h[0] >> 4) * b[0]) >> 16) + (((h[1] >> 4) * b[1]) >> 16) + 2) >> 2;
          } else if (opt.cubic_split && e < (RW & ~7)) {
            const float sc = 1.f / (2048 * 2048);
            const float t = float(h[0]) * (float(b[0]) * sc) +
                            (float(h[1]) * (float(b[1]) * sc) +
                             (float(h[2]) * (float(b[2]) * sc) + float(h[3]) * (float(b[3]) * sc)));
            out = rndf(t);
          } else {
            out = (h[0] * b[0] + h[1] * b[1] + h[2] * b[2] + h[3] * b[3] + (1 << 21)) >> 22;
          }
          y[size_t(oy) * RW + e] = T(clamp_u8(out));
        } else {
          float h[4];
          for (int r = 0; r < ks; ++r) {
            h[r] = float(X(yi[r], xi[0], ch)) * xw[0];
            for (int k = 1; k < ks; ++k) h[r] += float(X(yi[r], xi[k], ch)) * xw[k];
          }
          float out;
          if (ks == 2)
            out = h[0] * yw[0] + h[1] * yw[1];
          else if (opt.cubic_split && e < (RW & ~3))
            out = h[0] * yw[0] + (h[1] * yw[1] + (h[2] * yw[2] + h[3] * yw[3]));
          else
            out = ((h[0] * yw[0] + h[1] * yw[1]) + h[2] * yw[2]) + h[3] * yw[3];
          y[size_t(oy) * RW + e] = T(out);
        }
      }
    }
  }
  return y;
}

}  // namespace refcv
