// test_digest.cpp: the SIMD build and the scalar build compared bit for bit.
//
// One fixed list of pseudo-random cases (Resize: every mode, every element type, ranks
// 1..5, antialias, crop boxes, compat rounding; GridSample: every mode and padding, both
// align_corners, 4-D and 5-D, several types) is drawn from a generator of its own (the
// same numbers with any standard library), run, and reduced to one line per case: its
// name and a 64-bit FNV-1a hash of the output bytes (or of the error). The hidden test
// "[.digest]" prints them; scripts/native-tests.mjs runs it in the SIMDe build and in the
// scalar build and requires the same lines. The visible test below checks that the list is
// stable within a build (two runs, same lines) and that the hash sees every byte.
#include <catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/elem.h"
#include "gridsample/gridsample.h"
#include "resize/resize.h"

using namespace osw;

namespace {

// splitmix64: the same sequence everywhere.
struct Mix {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
  double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  double real(double lo, double hi) { return lo + (hi - lo) * unit(); }
};

uint64_t fnv1a(const void* p, size_t n, uint64_t h = 0xCBF29CE484222325ull) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001B3ull;
  return h;
}

const DType kTypes[] = {DType::Float32, DType::UInt8,   DType::Int8,    DType::UInt16, DType::Int16,
                        DType::Int32,   DType::Int64,   DType::Float16, DType::Float64, DType::UInt32,
                        DType::UInt64,  DType::BFloat16, DType::Bool};

// Fills n elements of type t with values of the type's range (floats: finite, with a few
// specials).
void fill(Mix& m, DType t, int64_t n, std::vector<uint8_t>* out) {
  const size_t es = dtype_size(t);
  out->assign(size_t(n) * es, 0);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* p = out->data() + size_t(i) * es;
    const double v = m.real(-300, 300);
    switch (t) {
      case DType::Float32: { const float f = float(v); std::memcpy(p, &f, 4); break; }
      case DType::Float64: std::memcpy(p, &v, 8); break;
      case DType::Float16: { const uint16_t h = half_from_float(float(v)); std::memcpy(p, &h, 2); break; }
      case DType::BFloat16: { const uint16_t h = bfloat16_from_float(float(v)); std::memcpy(p, &h, 2); break; }
      case DType::Bool: *p = uint8_t(m.range(0, 1)); break;
      default: {
        const uint64_t r = m.next();
        std::memcpy(p, &r, es);
      }
    }
  }
}

std::string line(const std::string& name, const Status& st, const std::vector<uint8_t>& y) {
  char buf[64];
  const uint64_t h = st.ok() ? fnv1a(y.data(), y.size()) : fnv1a(st.message.data(), st.message.size(), 1);
  std::snprintf(buf, sizeof buf, " %016llx", static_cast<unsigned long long>(h));
  return name + buf;
}

std::vector<std::string> resize_lines() {
  std::vector<std::string> out;
  Mix m{0x0D16E57};
  const ResizeMode modes[] = {ResizeMode::Nearest, ResizeMode::Linear, ResizeMode::Cubic};
  for (int c = 0; c < 240; ++c) {
    ResizeAttrs at;
    at.mode = modes[c % 3];
    const DType t = kTypes[(c / 3) % 13];
    const int rank = 1 + (c / 39) % 5;
    at.antialias = at.mode != ResizeMode::Nearest && m.range(0, 3) == 0;
    at.coord = static_cast<CoordMode>(m.range(0, 6));
    at.nearest = static_cast<NearestMode>(m.range(0, 3));
    at.compat = static_cast<Compat>(m.range(0, 2));
    at.exclude_outside = m.range(0, 3) == 0;
    at.extrapolation_value = m.real(-5, 5);
    ResizeInputs in;
    in.has_sizes = true;
    in.has_roi = at.coord == CoordMode::TfCropAndResize;
    int64_t dims[kMaxRank];
    for (int a = 0; a < rank; ++a) {
      dims[a] = m.range(1, rank <= 2 ? 48 : rank == 3 ? 12 : 7);
      const int64_t pick[] = {dims[a], 1, dims[a] / 2 + 1, dims[a] * 2, dims[a] * 3 + 1, dims[a] + 5};
      in.sizes[a] = pick[m.range(0, 5)];
      in.roi[a] = m.real(-0.1, 0.3);
      in.roi[rank + a] = m.real(0.7, 1.1);
    }
    if (rank == 4 && m.range(0, 1) == 1) {  // images: NHWC RGBA 2x up or down
      dims[3] = 4;
      in.sizes[3] = 4;
      const bool up = m.range(0, 1) == 1;
      in.sizes[1] = up ? dims[1] * 2 : dims[1] / 2 + 1;
      in.sizes[2] = up ? dims[2] * 2 : dims[2] / 2 + 1;
    }
    TensorView x, y;
    x.type = t;
    x.rank = rank;
    for (int a = 0; a < rank; ++a) x.dims[a] = dims[a];
    std::vector<uint8_t> xb, yb;
    fill(m, t, x.elements(), &xb);
    x.data = xb.data();
    ResizePlan plan;
    Status st = resize_plan(at, in, rank, dims, &plan);
    if (st.ok()) {
      y.type = t;
      y.rank = rank;
      for (int a = 0; a < rank; ++a) y.dims[a] = plan.out_dims[a];
      yb.assign(size_t(y.elements()) * dtype_size(t), 0);
      y.data = yb.data();
      st = resize_execute(plan, x, &y);
    }
    out.push_back(line("resize " + std::to_string(c) + " mode " + std::to_string(int(at.mode)) + " type " +
                           dtype_name(t) + " rank " + std::to_string(rank),
                       st, yb));
  }
  return out;
}

std::vector<std::string> gridsample_lines() {
  std::vector<std::string> out;
  Mix m{0x6E1D5};
  const DType types[] = {DType::Float32, DType::Float64, DType::Float16, DType::UInt8, DType::Int32};
  int c = 0;
  for (int mode = 0; mode < 3; ++mode)
    for (int pad = 0; pad < 3; ++pad)
      for (int align = 0; align < 2; ++align)
        for (int spatial = 2; spatial <= 3; ++spatial)
          for (int k = 0; k < 3; ++k, ++c) {
            GridSampleAttrs at;
            at.mode = static_cast<GridMode>(mode);
            at.padding = static_cast<PaddingMode>(pad);
            at.align_corners = align == 1;
            const DType t = k == 0 ? DType::Float32 : types[m.range(0, 4)];
            TensorView x, g, y;
            x.type = y.type = t;
            x.rank = spatial + 2;
            x.dims[0] = m.range(1, 2);
            x.dims[1] = m.range(1, 3);
            for (int a = 0; a < spatial; ++a) x.dims[2 + a] = m.range(1, spatial == 2 ? 40 : 8);
            g.type = m.range(0, 1) == 1 ? DType::Float32 : DType::Float64;
            g.rank = spatial + 2;
            g.dims[0] = x.dims[0];
            for (int a = 0; a < spatial; ++a) g.dims[1 + a] = m.range(1, spatial == 2 ? 30 : 6);
            g.dims[spatial + 1] = spatial;
            std::vector<uint8_t> xb, gb, yb;
            fill(m, t, x.elements(), &xb);
            gb.assign(size_t(g.elements()) * dtype_size(g.type), 0);
            for (int64_t i = 0; i < g.elements(); ++i) {
              // mostly inside [-1, 1], some outside, some exactly on pixel centres
              double v = m.range(0, 5) == 0 ? m.real(-1.6, 1.6) : m.real(-1.0, 1.0);
              if (m.range(0, 9) == 0) v = double(m.range(-4, 4)) / 4.0;
              if (g.type == DType::Float32) {
                const float f = float(v);
                std::memcpy(&gb[size_t(i) * 4], &f, 4);
              } else {
                std::memcpy(&gb[size_t(i) * 8], &v, 8);
              }
            }
            x.data = xb.data();
            g.data = gb.data();
            Status st = gridsample_output_shape(x, g, &y);
            if (st.ok()) {
              yb.assign(size_t(y.elements()) * dtype_size(t), 0);
              y.data = yb.data();
              st = gridsample(at, x, g, &y);
            }
            out.push_back(line("gridsample " + std::to_string(c) + " mode " + std::to_string(mode) + " padding " +
                                   std::to_string(pad) + " align " + std::to_string(align) + " type " + dtype_name(t) +
                                   " rank " + std::to_string(spatial + 2),
                               st, yb));
          }
  return out;
}


// Elements of type t for the type list below: the fill above, and one in six a raw bit
// pattern (floats: NaNs of any payload and sign, infinities, zeros, subnormals; bool: any
// byte; integers: any value) or, for integers, a small value (ties of the roundings).
void fill_raw(Mix& m, DType t, int64_t n, std::vector<uint8_t>* out) {
  fill(m, t, n, out);
  const size_t es = dtype_size(t);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* p = out->data() + size_t(i) * es;
    const int64_t pick = m.range(0, 5);
    if (pick == 0) {
      const uint64_t r = m.next();
      std::memcpy(p, &r, es);
    } else if (pick == 1 && t != DType::Bool && t != DType::Float32 && t != DType::Float64 &&
               t != DType::Float16 && t != DType::BFloat16) {
      const int64_t v = m.range(-40, 40);  // little-endian: the low bytes of v
      std::memcpy(p, &v, es);
    }
  }
}

// The sign bit of every NaN of y (elements of type t) cleared.
void clear_nan_signs(DType t, std::vector<uint8_t>* y) {
  const size_t es = dtype_size(t);
  for (size_t i = 0; i + es <= y->size(); i += es) {
    uint8_t* p = y->data() + i;
    uint64_t v = 0;
    std::memcpy(&v, p, es);
    bool nan = false;
    if (t == DType::Float16) nan = (v & 0x7FFF) > 0x7C00;
    else if (t == DType::BFloat16) nan = (v & 0x7FFF) > 0x7F80;
    else if (t == DType::Float32) nan = (v & 0x7FFFFFFFu) > 0x7F800000u;
    else if (t == DType::Float64) nan = (v & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
    if (nan) p[es - 1] &= 0x7F;
  }
}

// GridSample on every X type x mode x padding x compat rounding x align_corners x 2-D/3-D x
// grid type, with special values in X and grid vectors exactly on pixels, NaN, infinite
// and far outside.
std::vector<std::string> gridsample_type_lines() {
  std::vector<std::string> out;
  Mix m{0x7E5C01D};
  int c = 0;
  for (DType t : kTypes)
    for (int mode = 0; mode < 3; ++mode)
      for (int pad = 0; pad < 3; ++pad)
        for (int compat = 0; compat < 3; ++compat)
          for (int align = 0; align < 2; ++align)
            for (int spatial = 2; spatial <= 3; ++spatial)
              for (int gt = 0; gt < 2; ++gt, ++c) {
                GridSampleAttrs at;
                at.mode = static_cast<GridMode>(mode);
                at.padding = static_cast<PaddingMode>(pad);
                at.align_corners = align == 1;
                at.integer_rounding = compat;
                TensorView x, g, y;
                x.type = y.type = t;
                x.rank = spatial + 2;
                x.dims[0] = m.range(1, 2);
                x.dims[1] = m.range(1, 3);
                for (int a = 0; a < spatial; ++a) x.dims[2 + a] = m.range(1, spatial == 2 ? 12 : 5);
                g.type = gt == 0 ? DType::Float32 : DType::Float64;
                g.rank = spatial + 2;
                g.dims[0] = x.dims[0];
                for (int a = 0; a < spatial; ++a) g.dims[1 + a] = m.range(1, spatial == 2 ? 11 : 5);
                g.dims[spatial + 1] = spatial;
                std::vector<uint8_t> xb, gb, yb;
                fill_raw(m, t, x.elements(), &xb);
                gb.assign(size_t(g.elements()) * dtype_size(g.type), 0);
                for (int64_t i = 0; i < g.elements(); ++i) {
                  const int64_t len = x.dims[2 + (spatial - 1 - i % spatial)];  // the axis of this value
                  double v = m.range(0, 5) == 0 ? m.real(-1.6, 1.6) : m.real(-1.0, 1.0);
                  const int64_t pick = m.range(0, 19);
                  if (pick < 4) {  // a pixel centre (or one just outside)
                    const double p = double(m.range(-1, len));
                    v = align == 1 ? (len > 1 ? 2.0 * p / double(len - 1) - 1.0 : 0.0)
                                   : (2.0 * p + 1.0) / double(len) - 1.0;
                  } else if (pick == 4) {
                    v = double(m.range(-4, 4)) / 4.0;
                  } else if (pick == 5) {
                    const double sp[] = {NAN, INFINITY, -INFINITY, 1e30, -1e30, 1.0, -1.0, 0.0};
                    v = sp[m.range(0, 7)];
                  }
                  if (g.type == DType::Float32) {
                    const float f = float(v);
                    std::memcpy(&gb[size_t(i) * 4], &f, 4);
                  } else {
                    std::memcpy(&gb[size_t(i) * 8], &v, 8);
                  }
                }
                x.data = xb.data();
                g.data = gb.data();
                Status st = gridsample_output_shape(x, g, &y);
                if (st.ok()) {
                  yb.assign(size_t(y.elements()) * dtype_size(t), 0);
                  y.data = yb.data();
                  st = gridsample(at, x, g, &y);
                }
                // The sign of a computed NaN is not specified (two NaNs of opposite signs
                // in one location's taps give either, by the order of the operands, which
                // differs between builds): hashed with the sign cleared.
                if (st.ok()) clear_nan_signs(t, &yb);
                out.push_back(line("gridsample types " + std::to_string(c) + " " + dtype_name(t) + " mode " +
                                       std::to_string(mode) + " padding " + std::to_string(pad) + " compat " +
                                       std::to_string(compat) + " align " + std::to_string(align) + " rank " +
                                       std::to_string(spatial + 2) + " grid " + dtype_name(g.type),
                                   st, yb));
              }
  return out;
}

}  // namespace

TEST_CASE("digest: the SIMD-vs-scalar case list is deterministic and its hash sees every byte", "[resize][exec]") {
  const std::vector<std::string> a = resize_lines(), b = resize_lines();
  REQUIRE(a == b);
  REQUIRE(a.size() == 240);
  const std::vector<std::string> g1 = gridsample_lines(), g2 = gridsample_lines();
  REQUIRE(g1 == g2);
  REQUIRE(g1.size() == 108);
  const std::vector<std::string> t1 = gridsample_type_lines(), t2 = gridsample_type_lines();
  REQUIRE(t1 == t2);
  REQUIRE(t1.size() == 13 * 3 * 3 * 3 * 2 * 2 * 2);
  // Most cases run (a case that fails to plan still has a line, from its message).
  int distinct = 0;
  for (size_t i = 1; i < a.size(); ++i) distinct += a[i].substr(a[i].size() - 16) != a[i - 1].substr(a[i - 1].size() - 16);
  CHECK(distinct > 200);
  std::vector<uint8_t> bytes(1000, 7);
  const uint64_t h = fnv1a(bytes.data(), bytes.size());
  for (size_t i : {size_t(0), size_t(500), size_t(999)}) {
    bytes[i] ^= 1;
    CHECK(fnv1a(bytes.data(), bytes.size()) != h);
    bytes[i] ^= 1;
  }
}

// Prints the digest lines (run by name: `osw-tests-... "[.digest]"`).
TEST_CASE("digest: print", "[.digest]") {
  for (const std::string& s : resize_lines()) std::printf("%s\n", s.c_str());
  for (const std::string& s : gridsample_lines()) std::printf("%s\n", s.c_str());
  for (const std::string& s : gridsample_type_lines()) std::printf("%s\n", s.c_str());
  SUCCEED();
}
