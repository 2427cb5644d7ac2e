// gridsample_cases.h: what the test_gridsample_*.cpp files share: attributes, tensors
// encoded in every type, results and comparisons, random cases and the check against the
// slow reference (reference_gridsample.h).
#pragma once
#include <catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/types.h"
#include "gridsample/gridsample.h"
#include "gridsample/exec.h"  // the fast path's twins, for the tests that compare them
#include "reference_gridsample.h"
#include "core/simd.h"  // OSW_HAVE_SIMD: the one guard macro of the SIMD paths

namespace {

using osw::DType;
using osw::GridMode;
using osw::GridSampleAttrs;
using osw::PaddingMode;
using Dims = std::vector<int64_t>;
using Vals = std::vector<double>;

const GridMode kModes[] = {GridMode::Nearest, GridMode::Linear, GridMode::Cubic};
const PaddingMode kPads[] = {PaddingMode::Zeros, PaddingMode::Border, PaddingMode::Reflection};
const DType kFloatTypes[] = {DType::Float32, DType::Float64};

inline const char* mode_name(GridMode m) {
  return m == GridMode::Nearest ? "nearest" : m == GridMode::Linear ? "linear" : "cubic";
}
inline const char* pad_name(PaddingMode p) {
  return p == PaddingMode::Zeros ? "zeros" : p == PaddingMode::Border ? "border" : "reflection";
}

inline GridSampleAttrs attrs_of(GridMode m, PaddingMode p, bool align) {
  GridSampleAttrs a;
  a.mode = m;
  a.padding = p;
  a.align_corners = align;
  return a;
}

// Deterministic on every platform (std distributions are not).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * (next() >> 11) * 0x1.0p-53; }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % (hi - lo + 1)); }
};

inline int64_t count_of(const Dims& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

// Values as the tensor type holds them (float32 rounds).
inline Vals as_type(DType t, Vals v) {
  if (t == DType::Float32)
    for (double& e : v) e = static_cast<double>(static_cast<float>(e));
  return v;
}

inline std::vector<unsigned char> encode(DType t, const Vals& v) {
  std::vector<unsigned char> b(v.size() * (t == DType::Float32 ? 4 : 8));
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == DType::Float32) {
      const float f = static_cast<float>(v[i]);
      std::memcpy(&b[i * 4], &f, 4);
    } else {
      std::memcpy(&b[i * 8], &v[i], 8);
    }
  }
  return b;
}

inline Vals decode(DType t, const std::vector<unsigned char>& b) {
  const size_t n = b.size() / (t == DType::Float32 ? 4 : 8);
  Vals v(n);
  for (size_t i = 0; i < n; ++i) {
    if (t == DType::Float32) {
      float f;
      std::memcpy(&f, &b[i * 4], 4);
      v[i] = f;
    } else {
      std::memcpy(&v[i], &b[i * 8], 8);
    }
  }
  return v;
}

inline osw::TensorView view_of(DType t, const Dims& d, void* data) {
  osw::TensorView v;
  v.type = t;
  v.rank = static_cast<int>(d.size());
  for (size_t i = 0; i < d.size(); ++i) v.dims[i] = d[i];
  v.data = data;
  return v;
}

struct Result {
  osw::Status status;
  Dims dims;
  Vals y;
};

// Runs the operator on exactly sized heap copies (so that ASan sees any overrun).
inline Result run_gs(const GridSampleAttrs& a, DType xt, const Dims& xd, const Vals& xv, DType gt,
              const Dims& gd, const Vals& gv, const osw::gs::Tuning& tuning = osw::gs::Tuning()) {
  Result res;
  std::vector<unsigned char> xb = encode(xt, xv), gb = encode(gt, gv);
  osw::TensorView x = view_of(xt, xd, xb.empty() ? nullptr : xb.data());
  osw::TensorView g = view_of(gt, gd, gb.empty() ? nullptr : gb.data());
  osw::TensorView y;
  res.status = osw::gridsample_output_shape(x, g, &y);
  if (!res.status.ok()) return res;
  y.type = xt;
  res.dims.assign(y.dims, y.dims + y.rank);
  // Y starts as a poison pattern (0xA5 bytes: a tiny negative number), not zeros, so that
  // an output the kernels never write shows.
  std::vector<unsigned char> yb(static_cast<size_t>(y.elements()) * (xt == DType::Float32 ? 4 : 8), 0xA5);
  y.data = yb.empty() ? nullptr : yb.data();
  res.status = osw::gs::gridsample_tuned(a, x, g, &y, tuning);
  if (res.status.ok()) res.y = decode(xt, yb);
  return res;
}

// The 2-D float32 X through the fast path and through the generic one (gs::Tuning::generic).
struct FastAndGeneric {
  Result fast, gen;
};
inline FastAndGeneric run_fast_and_generic(const GridSampleAttrs& a, const Dims& xd, const Vals& x,
                                    DType gt, const Dims& gd, const Vals& g) {
  osw::gs::Tuning generic;
  generic.generic = true;
  FastAndGeneric r{run_gs(a, DType::Float32, xd, x, gt, gd, g),
                   run_gs(a, DType::Float32, xd, x, gt, gd, g, generic)};
  REQUIRE(r.fast.status.ok());
  REQUIRE(r.gen.status.ok());
  return r;
}

inline bool close(double got, double want, double abs_tol, double rel_tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= abs_tol + rel_tol * std::fabs(want);
}

// Index of the first element that differs, or -1.
inline int64_t first_mismatch(const Vals& got, const Vals& want, double abs_tol, double rel_tol) {
  if (got.size() != want.size()) return 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!close(got[i], want[i], abs_tol, rel_tol)) return static_cast<int64_t>(i);
  return -1;
}

inline std::string dims_str(const Dims& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + ")";
}

// Grid value that unnormalizes to pixel coordinate x on an axis of length L.
inline double grid_for(double x, int64_t L, bool align) {
  if (align) return L > 1 ? 2.0 * x / static_cast<double>(L - 1) - 1.0 : 0.0;
  return (2.0 * x + 1.0) / static_cast<double>(L) - 1.0;
}

}  // namespace

// ---- random cases against the reference ----------------------------------------------------

namespace {

// Grid values for one axis: mostly in [-1.3, 1.3], some far out, some exactly on half
// pixels (nearest ties) and whole pixels (t = 0).
inline double random_grid_value(Rng& rng, int64_t L, bool align) {
  const int64_t kind = rng.range(0, 19);
  if (kind == 0) return rng.range(0, 1) ? 5.0 : -5.0;
  if (kind == 1) return rng.range(0, 1) ? 50.0 : -50.0;
  if (kind == 2) return rng.uniform(-60, 60);
  if (kind <= 4) return grid_for(static_cast<double>(rng.range(-2, L + 1)) + 0.5, L, align);
  if (kind == 5) return grid_for(static_cast<double>(rng.range(-2, L + 1)), L, align);
  return rng.uniform(-1.3, 1.3);
}

struct Case {
  Dims xd, gd;
  Vals x, g;
};

inline Case random_case(Rng& rng, int r, int64_t max_in, int64_t max_out, bool align) {
  Case c;
  const int64_t N = rng.range(1, 3), C = rng.range(1, 3);
  c.xd = {N, C};
  c.gd = {N};
  for (int a = 0; a < r; ++a) c.xd.push_back(rng.range(1, max_in));
  for (int a = 0; a < r; ++a) c.gd.push_back(rng.range(1, max_out));
  c.gd.push_back(r);
  c.x.resize(static_cast<size_t>(count_of(c.xd)));
  for (double& v : c.x) v = rng.uniform(-2, 2);
  c.g.resize(static_cast<size_t>(count_of(c.gd)));
  for (size_t i = 0; i < c.g.size(); ++i) {
    const int k = static_cast<int>(i % r);  // grid entry k belongs to X axis r - 1 - k
    c.g[i] = random_grid_value(rng, c.xd[2 + (r - 1 - k)], align);
  }
  return c;
}

// Checks the kernel against the reference for one case, all four type combinations.
inline void check_against_reference(const GridSampleAttrs& a, const Case& c, const osw::gs::Tuning& tuning = {}) {
  for (DType xt : kFloatTypes) {
    for (DType gt : kFloatTypes) {
      const Vals x = as_type(xt, c.x), g = as_type(gt, c.g);
      const Vals want = ref::gridsample(c.xd, x, c.gd, g, a.mode, a.padding, a.align_corners);
      Result r = run_gs(a, xt, c.xd, x, gt, c.gd, g, tuning);
      INFO(mode_name(a.mode) << " " << pad_name(a.padding) << " align " << a.align_corners << " X "
                             << osw::dtype_name(xt) << dims_str(c.xd) << " grid "
                             << osw::dtype_name(gt) << dims_str(c.gd));
      REQUIRE(r.status.ok());
      const double tol = xt == DType::Float32 ? 1e-5 : 1e-12;
      const int64_t bad = first_mismatch(r.y, want, tol, tol);
      INFO("first mismatch at " << bad << ": got " << (bad >= 0 ? r.y[bad] : 0.0) << " want "
                                << (bad >= 0 ? want[bad] : 0.0));
      CHECK(bad == -1);
    }
  }
}

// Grid values for the fast-path test: the general mix plus exact pixels, half pixels,
// points just inside and outside the edges, points a hair off a pixel, and NaN / Inf.
inline double fast_grid_value(Rng& rng, int64_t L, bool align) {
  const int64_t kind = rng.range(0, 15);
  if (kind == 0) {
    const double specials[] = {NAN, INFINITY, -INFINITY};
    return specials[rng.range(0, 2)];
  }
  if (kind == 1) return grid_for(static_cast<double>(rng.range(-1, L)), L, align);
  if (kind == 2) return grid_for(static_cast<double>(rng.range(-1, L)) + 0.5, L, align);
  if (kind == 3) {
    const double edges[] = {0.0, 1.0, static_cast<double>(L - 2), static_cast<double>(L - 1),
                            -0.5, static_cast<double>(L) - 0.5};
    return grid_for(edges[rng.range(0, 5)] + rng.uniform(-1e-3, 1e-3), L, align);
  }
  if (kind == 4) {  // a pixel +- 2^-20 .. 2^-50: t close to 0 or to 1
    const double d = std::ldexp(1.0, -static_cast<int>(rng.range(20, 50)));
    return grid_for(static_cast<double>(rng.range(-1, L)) + (rng.range(0, 1) ? d : -d), L, align);
  }
  if (kind <= 5) return random_grid_value(rng, L, align);
  return grid_for(rng.uniform(-1.5, static_cast<double>(L) + 0.5), L, align);
}

}  // namespace
