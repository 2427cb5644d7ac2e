// The row conversions of convert.h against elem.h's per-element functions, bit for bit:
// every half and every bfloat16 widened; floats narrowed across every exponent (with
// mantissas at and around the rounding ties of both targets), subnormals, overflow,
// infinities and NaNs of both signs; rows of every length 0..40 at every start offset, so
// that the vector body, the scalar tail and unaligned rows are all covered. In a build
// without SIMD both sides are the scalar functions (the test still runs).
#include <catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/convert.h"
#include "test_rng.h"

using namespace osw;

namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

float float_of(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Floats that reach every branch of both narrowings: for every exponent and sign, mantissas
// 0, 1, the ties and their neighbours for 13 and 16 dropped bits, the largest, and a few
// random ones.
std::vector<float> narrowing_inputs() {
  std::vector<float> v;
  Rng rng(7);
  const uint32_t mantissas[] = {0u,      1u,      0x0FFFu, 0x1000u, 0x1001u, 0x2000u, 0x3000u,
                                0x7FFFu, 0x8000u, 0x8001u, 0x18000u, 0x7FE000u, 0x7FF000u,
                                0x7FFFFFu};
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t e = 0; e < 256; ++e) {
      for (uint32_t m : mantissas) v.push_back(float_of(sign | (e << 23) | m));
      for (int k = 0; k < 8; ++k) v.push_back(float_of(sign | (e << 23) | (uint32_t(rng.g()) & 0x7FFFFFu)));
    }
  // Around the half overflow threshold (65520) and the smallest normal half (2^-14).
  for (uint32_t b = 0x477FE000u; b <= 0x47800000u; b += 0x100u) v.push_back(float_of(b));
  for (uint32_t b = 0x38800000u - 64; b <= 0x38800000u + 64; ++b) v.push_back(float_of(b));
  // Runs of 64 just inside both ends of the normal halves, both signs: whole groups of 8 for
  // the float16 narrowing's fast path (convert.cpp), ties included (0x...1000 patterns).
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t b = 0x477FF000u - 64; b < 0x477FF000u; ++b) v.push_back(float_of(sign | b));
    for (uint32_t b = 0x38800000u; b < 0x38800000u + 64; ++b) v.push_back(float_of(sign | b));
    for (uint32_t k = 0; k < 64; ++k) v.push_back(float_of(sign | 0x3F800000u | (k << 12)));
  }
  // Each value at the edges of the normal halves (and beyond them: zeros, subnormal halves,
  // overflow, the magnitudes whose rounded bits pass 0xFFFF, infinities, NaN) alone in a
  // group of 8 otherwise normal ones, at every position: the fast path's test must send
  // the group to the general form (or, for 0x387FFFFF, round it to 0x0400 either way).
  while (v.size() % 8 != 0) v.push_back(1.0f);
  const uint32_t edges[] = {0x477FF000u, 0x477FEFFFu, 0x477FE000u, 0x47800000u, 0x387FFFFFu,
                            0x387FF000u, 0x387FEFFFu, 0x38000000u, 0x33000000u, 0x33000001u,
                            0u, 1u, 0x48000000u, 0x48400000u, 0x49000000u, 0x4F800000u,
                            0x7F7FFFFFu, 0x7F800000u, 0x7FC00000u, 0x7F800001u};
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t e : edges)
      for (int pos = 0; pos < 8; ++pos)
        for (int k = 0; k < 8; ++k) v.push_back(k == pos ? float_of(sign | e) : 1.5f + 0.25f * float(k));
  // Zeros and magnitudes up to 2^-25 (the fast path clears their lanes) beside one value it
  // cannot take or a normal one, at every pair of positions, and groups of them alone.
  const uint32_t tiny[] = {0u, 1u, 0x33000000u, 0x32FFFFFFu, 0x2F800000u};
  const uint32_t other[] = {0x33000001u, 0x38000000u, 0x387FFFFFu, 0x387FF000u, 0x477FF000u,
                            0x7F800000u, 0x7FC00000u, 0x3F801000u};
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t t : tiny) {
      for (int k = 0; k < 8; ++k) v.push_back(float_of((k & 1 ? sign : 0u) | (k < 4 ? t : tiny[k - 3])));
      for (uint32_t o : other)
        for (int p = 0; p < 8; ++p)
          for (int q = 0; q < 8; ++q)
            for (int k = 0; k < 8; ++k)
              v.push_back(k == p ? float_of(sign | t) : k == q ? float_of((sign ^ 0x80000000u) | o) : 0.75f + 0.125f * float(k));
    }
  for (int i = 0; i < 20000; ++i) v.push_back(float_of(uint32_t(rng.g())));
  return v;
}

}  // namespace

TEST_CASE("convert: every half widens to half_to_float's bits", "[core][convert]") {
  std::vector<uint16_t> h(65536 + 7);
  for (uint32_t i = 0; i < 65536; ++i) h[i] = uint16_t(i);
  for (int off : {0, 3}) {
    std::vector<float> out(65536);
    widen_to_float(reinterpret_cast<const Float16*>(h.data() + off), out.data(), 65536 - off);
    for (uint32_t i = 0; i + off < 65536; ++i) {
      INFO("half " << (i + off));
      REQUIRE(bits_of(out[i]) == bits_of(half_to_float(uint16_t(i + off))));
    }
  }
}

// The vector loop takes another form for 8 halves with a subnormal among them: every half
// again, each beside a subnormal one (so every vector holds one), and runs of normal halves
// with one subnormal at each position.
TEST_CASE("convert: every half widens the same beside a subnormal half", "[core][convert]") {
  std::vector<uint16_t> h(2 * 65536);
  for (uint32_t i = 0; i < 65536; ++i) {
    h[2 * i] = uint16_t(i);
    h[2 * i + 1] = uint16_t(1 + i % 1023) | uint16_t(i & 0x8000);
  }
  std::vector<float> out(h.size());
  widen_to_float(reinterpret_cast<const Float16*>(h.data()), out.data(), int64_t(h.size()));
  for (size_t i = 0; i < h.size(); ++i) {
    INFO("half 0x" << std::hex << h[i]);
    REQUIRE(bits_of(out[i]) == bits_of(half_to_float(h[i])));
  }
  // Groups of normal halves and zeros (the vector loop's short form) with one subnormal,
  // infinity or NaN at each position, and without.
  for (const uint16_t odd : {uint16_t(0x3C01), uint16_t(0x0001), uint16_t(0x83FF), uint16_t(0x7C00),
                             uint16_t(0xFC00), uint16_t(0x7C01), uint16_t(0xFFFF), uint16_t(0x0000), uint16_t(0x8000)})
    for (int pos = 0; pos < 8; ++pos) {
      uint16_t v[8] = {0x0000, 0x8000, 0x0400, 0x8400, 0x7BFF, 0xFBFF, 0x3C00, 0xC555};
      v[pos] = odd;
      float o[8];
      widen_to_float(reinterpret_cast<const Float16*>(v), o, 8);
      for (int i = 0; i < 8; ++i) {
        INFO("half 0x" << std::hex << v[i] << " at " << i);
        REQUIRE(bits_of(o[i]) == bits_of(half_to_float(v[i])));
      }
    }
  for (int pos = 0; pos < 8; ++pos) {
    const uint16_t row[8] = {0x3C00, 0x7C00, 0xFE01, 0x0000, 0x8000, 0x7BFF, 0x0400, 0xC123};
    std::vector<uint16_t> v(row, row + 8);
    v[size_t(pos)] = 0x8201;
    std::vector<float> o(8);
    widen_to_float(reinterpret_cast<const Float16*>(v.data()), o.data(), 8);
    for (int i = 0; i < 8; ++i) REQUIRE(bits_of(o[size_t(i)]) == bits_of(half_to_float(v[size_t(i)])));
  }
}

TEST_CASE("convert: every bfloat16 widens to bfloat16_to_float's bits", "[core][convert]") {
  std::vector<uint16_t> b(65536);
  for (uint32_t i = 0; i < 65536; ++i) b[i] = uint16_t(i);
  std::vector<float> out(65536);
  widen_to_float(reinterpret_cast<const BFloat16*>(b.data()), out.data(), 65536);
  for (uint32_t i = 0; i < 65536; ++i) REQUIRE(bits_of(out[i]) == bits_of(bfloat16_to_float(uint16_t(i))));
}

TEST_CASE("convert: floats narrow to half_from_float's and bfloat16_from_float's bits", "[core][convert]") {
  const std::vector<float> in = narrowing_inputs();
  std::vector<uint16_t> h(in.size()), b(in.size());
  narrow_from_float(in.data(), reinterpret_cast<Float16*>(h.data()), int64_t(in.size()));
  narrow_from_float(in.data(), reinterpret_cast<BFloat16*>(b.data()), int64_t(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    INFO("float bits 0x" << std::hex << bits_of(in[i]));
    REQUIRE(h[i] == half_from_float(in[i]));
    REQUIRE(b[i] == bfloat16_from_float(in[i]));
  }
}

TEST_CASE("convert: bool rows are ElemTraits<Bool8>'s load and store", "[core][convert]") {
  std::vector<float> in = narrowing_inputs();
  for (float f : {0.0f, 0.5f, 0.49999997f, 0.50000006f, 1.0f, 1.5f, 2.5f, 255.5f, 256.0f, -0.5f, -1.0f})
    in.push_back(f);
  std::vector<uint8_t> b(in.size(), 7);
  narrow_from_float(in.data(), reinterpret_cast<Bool8*>(b.data()), int64_t(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    INFO("float bits 0x" << std::hex << bits_of(in[i]));
    REQUIRE(b[i] == ElemTraits<Bool8>::store(in[i]).value);
  }
  std::vector<uint8_t> raw(256);
  for (int i = 0; i < 256; ++i) raw[i] = uint8_t(i);
  std::vector<float> w(256);
  widen_to_float(reinterpret_cast<const Bool8*>(raw.data()), w.data(), 256);
  for (int i = 0; i < 256; ++i) REQUIRE(w[i] == ElemTraits<Bool8>::load(Bool8{uint8_t(i)}));
}

TEST_CASE("convert: rows of every length and offset write exactly their elements", "[core][convert]") {
  Rng rng(11);
  std::vector<float> src(64);
  for (float& f : src) f = float_of(uint32_t(rng.g()) & 0xC7FFFFFFu);  // finite and small enough
  for (int off = 0; off < 8; ++off)
    for (int n = 0; n <= 40; ++n) {
      std::vector<uint16_t> h(64, 0xABCDu), b(64, 0xABCDu);
      narrow_from_float(src.data() + off, reinterpret_cast<Float16*>(h.data() + off), n);
      narrow_from_float(src.data() + off, reinterpret_cast<BFloat16*>(b.data() + off), n);
      std::vector<float> wh(64, -1.0f), wb(64, -1.0f);
      widen_to_float(reinterpret_cast<const Float16*>(h.data() + off), wh.data() + off, n);
      widen_to_float(reinterpret_cast<const BFloat16*>(b.data() + off), wb.data() + off, n);
      for (int i = 0; i < 64; ++i) {
        const bool inside = i >= off && i < off + n;
        REQUIRE(h[i] == (inside ? half_from_float(src[i]) : 0xABCDu));
        REQUIRE(b[i] == (inside ? bfloat16_from_float(src[i]) : 0xABCDu));
        REQUIRE(bits_of(wh[i]) == bits_of(inside ? half_to_float(h[i]) : -1.0f));
        REQUIRE(bits_of(wb[i]) == bits_of(inside ? bfloat16_to_float(b[i]) : -1.0f));
      }
    }
}

namespace {

// Doubles that reach every case of the 32- and 64-bit stores: halves and their neighbours
// (both signs, small and near 2^31 / 2^32), the bounds of int32 and uint32 and one unit
// either side, the doubles at and around the bounds of int64 and uint64, and 2^53 + 1 and
// beyond, values far beyond them, infinities, NaN, negative zero, and random values.
std::vector<double> int_narrowing_inputs() {
  std::vector<double> v;
  const double centres[] = {0.0, 1.0, 2.0, 3.0, 100.0, 2147483646.0, 2147483647.0, 2147483648.0,
                            4294967294.0, 4294967295.0, 4294967296.0, 1073741824.0};
  for (double c : centres)
    for (double d : {-1.0, -0.5, 0.0, 0.5, 1.0, 1.5})
      for (double s : {1.0, -1.0}) {
        const double x = s * (c + d);
        v.push_back(x);
        v.push_back(std::nextafter(x, INFINITY));
        v.push_back(std::nextafter(x, -INFINITY));
      }
  for (double x : {1e10, -1e10, 1e300, -1e300, double(INFINITY), -double(INFINITY), double(NAN),
                   -double(NAN), -0.0, 4.9e-324, -4.9e-324, 0.49999999999999994})
    v.push_back(x);
  Rng rng(13);
  for (int i = 0; i < 2000; ++i) {
    const double u = double(rng.g() & 0xFFFFFFFFFull) / 16.0;  // quarters up to 2^32
    v.push_back(i % 2 ? u : -u / 2);
  }
  for (double x : {9223372036854775807.0, 9223372036854775808.0, -9223372036854775808.0,
                   -9223372036854777856.0, 18446744073709551615.0, 18446744073709549568.0,
                   9007199254740993.0, -9007199254740993.5})
    v.push_back(x);
  return v;
}

template <typename I>
void check_int_rows() {
  const std::vector<double> in = int_narrowing_inputs();
  for (int mode = 0; mode < 3; ++mode) {
    // Every length up to 11 at every start offset up to 3 (vector body, tail, unaligned),
    // then the whole list.
    for (int off = 0; off < 4; ++off)
      for (int n = 0; n <= 11; ++n) {
        std::vector<I> y(16, I(0x5A5A5A5A));
        narrow_from_double(in.data() + 40 + off, y.data() + off, n, mode);
        for (int i = 0; i < 16; ++i) {
          const bool inside = i >= off && i < off + n;
          REQUIRE(y[i] == (inside ? round_integer_output<I>(mode, in[40 + i]) : I(0x5A5A5A5A)));
        }
      }
    std::vector<I> y(in.size());
    narrow_from_double(in.data(), y.data(), int64_t(in.size()), mode);
    for (size_t i = 0; i < in.size(); ++i) {
      INFO("mode " << mode << " value " << in[i]);
      REQUIRE(y[i] == round_integer_output<I>(mode, in[i]));
    }
  }
  // Widening: the bounds, and every length and offset.
  std::vector<I> x = {std::numeric_limits<I>::min(), std::numeric_limits<I>::max(), I(0), I(1),
                      I(-1), I(12345678), I(0x80000000u), I(0x7FFFFFFF),
                      I((int64_t(1) << 53) + 1), I(-(int64_t(1) << 53) - 1)};
  Rng rng(17);
  while (x.size() < 24) x.push_back(I(rng.g()));
  for (int off = 0; off < 4; ++off)
    for (int n = 0; n + off <= int(x.size()) && n <= 20; ++n) {
      std::vector<double> out(x.size() + 4, -7.0);
      widen_to_double(x.data() + off, out.data() + off, n);
      for (int i = 0; i < int(out.size()); ++i) {
        const bool inside = i >= off && i < off + n;
        REQUIRE(out[i] == (inside ? double(x[i]) : -7.0));
      }
    }
}

}  // namespace

TEST_CASE("convert: int32 and uint32 rows widen exactly and store as round_integer_output", "[core][convert]") {
  check_int_rows<int32_t>();
  check_int_rows<uint32_t>();
}

namespace {

// Floats for the 8- and 16-bit stores: every half-integer tie and its float neighbours
// around the bounds of each type, 0.49999997 (whose sum with 0.5 rounds up in float),
// -0.0, infinities, NaN, values far beyond int32, and random ones.
std::vector<float> small_int_inputs() {
  std::vector<float> v;
  for (double c : {0.0, 1.0, 2.0, 126.0, 127.0, 128.0, 254.0, 255.0, 256.0, 32766.0, 32767.0,
                   32768.0, 65534.0, 65535.0, 65536.0, 1000.0})
    for (double d : {-0.5, 0.0, 0.5, 1.5})
      for (double s : {1.0, -1.0}) {
        const float x = float(s * (c + d));
        v.push_back(x);
        v.push_back(std::nextafter(x, INFINITY));
        v.push_back(std::nextafter(x, -INFINITY));
      }
  for (float x : {0.49999997f, -0.49999997f, -0.0f, 1e10f, -1e10f, 3e38f, float(INFINITY),
                  -float(INFINITY), float(NAN), 2147483648.0f, -2147483904.0f})
    v.push_back(x);
  Rng rng(19);
  for (int i = 0; i < 3000; ++i) v.push_back(float(rng.real(-70000, 70000)));
  return v;
}

// narrow_from_float into I for every compat rounding: rows of every length and offset
// write exactly their elements, and every input stores as round_integer_output.
template <typename I, typename F = float>
void check_narrow_rows(const std::vector<F>& in) {
  const auto narrow = [](const F* a, I* b, int64_t n, int mode) {
    if constexpr (std::is_same<F, float>::value) narrow_from_float(a, b, n, mode);
    else narrow_from_double(a, b, n, mode);
  };
  for (int mode = 0; mode < 3; ++mode) {
    for (int off = 0; off < 4; ++off)
      for (int n = 0; n <= 19; ++n) {
        std::vector<I> y(24, I(0x5A));
        narrow(in.data() + 30 + off, y.data() + off, n, mode);
        for (int i = 0; i < 24; ++i) {
          const bool inside = i >= off && i < off + n;
          REQUIRE(y[i] == (inside ? round_integer_output<I>(mode, double(in[30 + i])) : I(0x5A)));
        }
      }
    std::vector<I> y(in.size());
    narrow(in.data(), y.data(), int64_t(in.size()), mode);
    for (size_t i = 0; i < in.size(); ++i) {
      INFO("mode " << mode << " value " << in[i]);
      REQUIRE(y[i] == round_integer_output<I>(mode, double(in[i])));
    }
  }
}

template <typename I>
void check_small_int_rows() {
  check_narrow_rows<I>(small_int_inputs());
  // Widening: every value of the type, at two offsets.
  const int64_t count = int64_t(std::numeric_limits<I>::max()) - std::numeric_limits<I>::min() + 1;
  std::vector<I> x(size_t(count) + 3);
  for (int64_t i = 0; i < count; ++i) x[size_t(i)] = I(std::numeric_limits<I>::min() + i);
  for (int off : {0, 3}) {
    std::vector<float> out(x.size(), -7.0f);
    widen_to_float(x.data() + off, out.data(), count - off);
    for (int64_t i = 0; i + off < count; ++i) REQUIRE(out[size_t(i)] == float(x[size_t(i + off)]));
  }
}

}  // namespace

TEST_CASE("convert: 8- and 16-bit rows widen exactly and store as round_integer_output", "[core][convert]") {
  check_small_int_rows<int8_t>();
  check_small_int_rows<int16_t>();
  check_small_int_rows<uint16_t>();
  check_small_int_rows<uint8_t>();
}

// 8- and 16-bit integers that run in double (16-bit cubic): the same stores from double,
// with doubles a float cannot hold just beside every tie and bound.
TEST_CASE("convert: 8- and 16-bit rows from double store as round_integer_output", "[core][convert]") {
  std::vector<double> in;
  for (float x : small_int_inputs()) {
    in.push_back(double(x));
    in.push_back(std::nextafter(double(x), INFINITY));
    in.push_back(std::nextafter(double(x), -INFINITY));
  }
  check_narrow_rows<int8_t>(in);
  check_narrow_rows<uint8_t>(in);
  check_narrow_rows<int16_t>(in);
  check_narrow_rows<uint16_t>(in);
}

TEST_CASE("convert: 64-bit rows widen as static_cast and store as round_integer_output", "[core][convert]") {
  check_int_rows<int64_t>();
  check_int_rows<uint64_t>();
}

// 32-bit integers on the float32 steps (resize.cpp, where those compute X exactly): the
// same stores from float as round_integer_output (saturating at the 32-bit bounds, NaN to
// 0, half up in double), and widening as static_cast<float> (rounded beyond 2^24).
TEST_CASE("convert: int32 and uint32 rows from float store as round_integer_output", "[core][convert]") {
  std::vector<float> in = small_int_inputs();
  for (float x : {4294967296.0f, 4294967040.0f, -2147483648.0f, 2147483520.0f, 16777217.0f, 8388608.5f})
    in.push_back(x);
  auto check = [&](auto zero) {
    using I = decltype(zero);
    check_narrow_rows<I>(in);
    std::vector<I> x = {std::numeric_limits<I>::min(), std::numeric_limits<I>::max(), I(0), I(1),
                        I(16777216), I(16777217), I(16777219), I(-1)};
    Rng rng(23);
    for (int i = 0; i < 500; ++i) x.push_back(I(rng.range(int64_t(std::numeric_limits<I>::min()), int64_t(std::numeric_limits<I>::max()))));
    for (int off : {0, 3}) {
      std::vector<float> out(x.size(), -7.0f);
      widen_to_float(x.data() + off, out.data(), int64_t(x.size()) - off);
      for (size_t i = 0; i + off < x.size(); ++i) REQUIRE(out[i] == static_cast<float>(x[i + off]));
    }
  };
  check(int32_t{});
  check(uint32_t{});
}
