// reference_pillow.h: a slow model of PIL.Image.resize (Pillow 9.4), for tests only.
//
// Written from the rules (see src/imaging/pillow.cpp's header comment), not from the kernel:
// one image at a time, whole intermediate images in std::vector, each output value computed
// by its own loop over its taps. Weights in double, then the uint8 rules plainly: 22-bit
// weights rounded half away from zero, sums started at 2^21, floor-shifted by 22 bits and
// clamped after each pass. `clip_between = false` keeps the horizontal pass's sums
// unclamped (a rule the tests show matters).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace refpil {

enum Filter { Nearest = 0, Box = 1, Bilinear = 2, Hamming = 3, Bicubic = 4, Lanczos = 5 };

inline double support(int f) {
  const double s[] = {0.0, 0.5, 1.0, 1.0, 2.0, 3.0};
  return s[f];
}

inline double sinc(double x) {
  if (x == 0.0) return 1.0;
  const double pi = 3.14159265358979323846;
  return std::sin(x * pi) / (x * pi);
}

inline double kernel(int f, double x) {
  const double ax = x < 0 ? -x : x;
  const double pi = 3.14159265358979323846;
  if (f == Box) return (-0.5 < x && x <= 0.5) ? 1.0 : 0.0;
  if (f == Bilinear) return ax < 1.0 ? 1.0 - ax : 0.0;
  if (f == Hamming) {
    if (ax == 0.0) return 1.0;
    if (ax >= 1.0) return 0.0;
    const double t = ax * pi;
    const double c0 = 0.54f, c1 = 0.46f;  // Pillow writes these as float literals
    return std::sin(t) / t * (c0 + c1 * std::cos(t));
  }
  if (f == Bicubic) {
    const double a = -0.5;
    if (ax < 1.0) return ((a + 2.0) * ax - (a + 3.0)) * ax * ax + 1;
    if (ax < 2.0) return (((ax - 5) * ax + 8) * ax - 4) * a;
    return 0.0;
  }
  // Lanczos: sinc windowed by sinc(x / 3) on [-3, 3)
  if (x >= -3.0 && x < 3.0) return sinc(x) * sinc(x / 3.0);
  return 0.0;
}

// The taps of output i of an axis in -> out.
struct Taps {
  int first = 0;
  std::vector<double> w;
};

inline Taps taps(int in, int out, int f, int i) {
  const double scale = double(in) / double(out);
  const double fs = scale > 1.0 ? scale : 1.0;
  const double sup = support(f) * fs;
  const double centre = (i + 0.5) * scale;
  int lo = int(centre - sup + 0.5), hi = int(centre + sup + 0.5);
  lo = lo < 0 ? 0 : lo;
  hi = hi > in ? in : hi;
  Taps t;
  t.first = lo;
  double total = 0;
  for (int p = lo; p < hi; ++p) {
    t.w.push_back(kernel(f, (p - centre + 0.5) * (1.0 / fs)));
    total += t.w.back();
  }
  if (total != 0)
    for (double& v : t.w) v = v / total;
  return t;
}

inline int32_t to_fixed(double w) {
  const double one = 4194304.0;  // 2^22
  return w < 0 ? int32_t(w * one - 0.5) : int32_t(w * one + 0.5);
}

inline int clamp255(int64_t v) { return v < 0 ? 0 : v > 255 ? 255 : int(v); }

inline uint8_t premul(int c, int a) {
  const int t = c * a + 128;
  return uint8_t((t + (t >> 8)) >> 8);
}

inline uint8_t unpremul(int c, int a) {
  if (a == 0 || a == 255) return uint8_t(c);
  const int v = 255 * c / a;
  return uint8_t(v > 255 ? 255 : v);
}

// Nearest: source index along an axis by Pillow's accumulated coordinate (-1: outside).
inline std::vector<int> nearest_index(int in, int out) {
  std::vector<int> idx(out);
  const double step = double(in) / out;
  double pos = step * 0.5;
  for (int i = 0; i < out; ++i) {
    const int v = pos < 0 ? -1 : int(pos);
    idx[i] = (v >= 0 && v < in) ? v : -1;
    pos += step;
  }
  return idx;
}

// One HWC image (h x w x c, uint8) -> oh x ow x c.
inline std::vector<uint8_t> resize_u8(const std::vector<uint8_t>& x, int h, int w, int c,
                                      int oh, int ow, int f, bool premultiply,
                                      bool clip_between = true) {
  if (h == oh && w == ow) return x;
  std::vector<uint8_t> y(size_t(oh) * ow * c, 0);
  if (f == Nearest) {
    const std::vector<int> ys = nearest_index(h, oh), xs = nearest_index(w, ow);
    for (int r = 0; r < oh; ++r)
      for (int q = 0; q < ow; ++q)
        for (int k = 0; k < c; ++k)
          if (ys[r] >= 0 && xs[q] >= 0)
            y[(size_t(r) * ow + q) * c + k] = x[(size_t(ys[r]) * w + xs[q]) * c + k];
    return y;
  }
  // Source as ints, premultiplied if asked.
  std::vector<int64_t> src(x.begin(), x.end());
  if (premultiply)
    for (size_t p = 0; p < size_t(h) * w; ++p)
      for (int k = 0; k + 1 < c; ++k)
        src[p * c + k] = premul(x[p * c + k], x[p * c + c - 1]);
  int cw = w;
  if (w != ow) {  // horizontal pass over every row
    std::vector<int64_t> mid(size_t(h) * ow * c);
    for (int q = 0; q < ow; ++q) {
      const Taps t = taps(w, ow, f, q);
      for (int r = 0; r < h; ++r)
        for (int k = 0; k < c; ++k) {
          int64_t s = 1 << 21;
          for (size_t j = 0; j < t.w.size(); ++j)
            s += src[(size_t(r) * w + t.first + j) * c + k] * to_fixed(t.w[j]);
          const int64_t v = s >> 22;
          mid[(size_t(r) * ow + q) * c + k] = clip_between ? clamp255(v) : v;
        }
    }
    src.swap(mid);
    cw = ow;
  }
  if (h != oh) {  // vertical pass
    std::vector<int64_t> out(size_t(oh) * cw * c);
    for (int r = 0; r < oh; ++r) {
      const Taps t = taps(h, oh, f, r);
      for (size_t p = 0; p < size_t(cw) * c; ++p) {
        int64_t s = 1 << 21;
        for (size_t j = 0; j < t.w.size(); ++j)
          s += src[(t.first + j) * cw * c + p] * to_fixed(t.w[j]);
        out[size_t(r) * cw * c + p] = s >> 22;
      }
    }
    src.swap(out);
  }
  for (size_t p = 0; p < y.size(); ++p) y[p] = uint8_t(clamp255(src[p]));
  if (premultiply)
    for (size_t p = 0; p < size_t(oh) * ow; ++p)
      for (int k = 0; k + 1 < c; ++k)
        y[p * c + k] = unpremul(y[p * c + k], y[p * c + c - 1]);
  return y;
}

// Mode "F": sums in double in tap order, float after each pass.
inline std::vector<float> resize_f32(const std::vector<float>& x, int h, int w, int c, int oh,
                                     int ow, int f) {
  if (h == oh && w == ow) return x;
  std::vector<float> y(size_t(oh) * ow * c, 0.0f);
  if (f == Nearest) {
    const std::vector<int> ys = nearest_index(h, oh), xs = nearest_index(w, ow);
    for (int r = 0; r < oh; ++r)
      for (int q = 0; q < ow; ++q)
        for (int k = 0; k < c; ++k)
          if (ys[r] >= 0 && xs[q] >= 0)
            y[(size_t(r) * ow + q) * c + k] = x[(size_t(ys[r]) * w + xs[q]) * c + k];
    return y;
  }
  std::vector<float> src = x;
  int cw = w;
  if (w != ow) {
    std::vector<float> mid(size_t(h) * ow * c);
    for (int q = 0; q < ow; ++q) {
      const Taps t = taps(w, ow, f, q);
      for (int r = 0; r < h; ++r)
        for (int k = 0; k < c; ++k) {
          double s = 0;
          for (size_t j = 0; j < t.w.size(); ++j)
            s += double(src[(size_t(r) * w + t.first + j) * c + k]) * t.w[j];
          mid[(size_t(r) * ow + q) * c + k] = float(s);
        }
    }
    src.swap(mid);
    cw = ow;
  }
  if (h != oh) {
    std::vector<float> out(size_t(oh) * cw * c);
    for (int r = 0; r < oh; ++r) {
      const Taps t = taps(h, oh, f, r);
      for (size_t p = 0; p < size_t(cw) * c; ++p) {
        double s = 0;
        for (size_t j = 0; j < t.w.size(); ++j)
          s += double(src[(t.first + j) * cw * c + p]) * t.w[j];
        out[size_t(r) * cw * c + p] = float(s);
      }
    }
    src.swap(out);
  }
  return src;
}

}  // namespace refpil
