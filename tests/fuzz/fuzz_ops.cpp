// fuzz_ops.cpp: a libFuzzer target over the public C++ entry points of the core.
//
// The input bytes are decoded (front to back, 0 once exhausted) into one call:
//   byte 0 even -> Resize:      rank, dims, every attribute, axes, scales or sizes, roi,
//                               element type, data  -> resize_plan + resize_execute, the
//                               one-step resize() on the same case, the plan executed
//                               again, and on X of a second element type;
//   byte 0 odd  -> GridSample:  X rank and dims, grid dims, mode, padding, align_corners,
//                               element types, X and grid values -> gridsample_output_shape
//                               + gridsample, and gs::gridsample_tuned with another
//                               blocking / offset width.
// Parameters are mostly small and valid, with rare hostile values (NaN, Inf, negative,
// 0, 2^31, 2^63-1, repeated or out-of-range axes, out-of-range enum values, unknown type
// codes). Every element type the core knows is used. Whatever remains after the
// parameters is raw data for the tensors.
//
// What the harness checks, besides "no crash, no leak, no out-of-bounds access, no UB"
// (ASan + UBSan + LSan):
//   - a failing call returns a TypeError or RangeError status with a message;
//   - negative or > 2^31-1 input dims are rejected; element type codes the core does not
//     know are rejected (Resize may return Ok when the output is empty: nothing to convert);
//   - every output element is written: outputs are pre-filled with two different byte
//     patterns and two runs (two entry points / two tunings) must agree bit for bit;
//   - Resize nearest: every output is bit-exactly an input value (or, for
//     tf_crop_and_resize, the extrapolation value);
//   - Resize linear without exclude_outside (a convex combination): every output lies in
//     [min X, max X] (+ rounding), or is the extrapolation value (tf_crop_and_resize);
//   - GridSample (semantics row 11): a NaN grid location gives NaN (0 for integer and bool
//     X, row 7); with zeros padding an infinite location gives 0; nearest gives an input
//     value (or 0 with zeros padding); linear gives a value in [min X, max X], widened to
//     include 0 for zeros padding.
// Outputs are allocated with their exact size (malloc(0) for none), so an overrun is an
// ASan report. Cases whose output exceeds ~1e6 elements, or whose plan or work would be
// large, are skipped BEFORE anything is allocated, so runs stay fast. (The plan's size is
// estimated from resize_geometry's output lengths: resize_plan builds tap tables for every
// axis whose output length is not 0, even when another axis makes the output empty, so
// such cases are skipped here rather than reported; tests/js/fuzz-api.test.mjs checks
// that an empty output stays cheap.)
//
// Reproducing: `OSW_FUZZ_VERBOSE=1 build-native/osw-fuzz <input file>` prints the decoded
// case as a C++ snippet (hex floats, exact) before running it; a failed check prints it too.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/types.h"
#include "core/elem.h"
#include "gridsample/gridsample.h"
#include "resize/resize.h"
#include "resize/exact.h"
#include "resize/exec.h"

using namespace osw;

namespace {

constexpr int64_t kMaxElems = int64_t(1) << 20;  // output / input / grid elements
constexpr double kMaxPlanCells = double(1 << 20);  // Resize tap-table cells (out * taps)
constexpr double kMaxWork = double(1 << 20);       // multiply-adds of one execution

bool g_verbose = false;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- decoding --------------------------------------------------------------------------

class Bytes {
 public:
  Bytes(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  uint8_t u8() { return pos_ < n_ ? d_[pos_++] : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(u8()) << (8 * i);
    return v;
  }
  uint64_t u64() { return uint64_t(u32()) | (uint64_t(u32()) << 32); }
  double raw_f64() {
    const uint64_t b = u64();
    double v;
    std::memcpy(&v, &b, 8);
    return v;
  }
  double raw_f32() {
    const uint32_t b = u32();
    float v;
    std::memcpy(&v, &b, 4);
    return v;
  }
  const uint8_t* rest() const { return d_ + std::min(pos_, n_); }
  size_t rest_size() const { return pos_ < n_ ? n_ - pos_ : 0; }

 private:
  const uint8_t* d_;
  size_t n_;
  size_t pos_ = 0;
};

// splitmix64: data generators seeded from the input.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
};

// One of the table's values, or (two extra slots) a raw float32 / float64 from the input.
template <size_t N>
double pick(Bytes& in, const double (&table)[N]) {
  const unsigned i = in.u8() % (N + 2);
  if (i < N) return table[i];
  return i == N ? in.raw_f32() : in.raw_f64();
}

const double kScales[] = {
    1, 2, 0.5, 3, 1.5, 0.25, 0.75, 4, 1.25, 0.8, 0.1,
    double(0.6f), double(1.0f / 3.0f), double(1.7f), 2.5, 8, 0.01, 1e-3, 1e-8, 1e-30, 1e-300,
    5e-324, 1e5, 1e10, 1e30, 1e300, 2147483647.0, 2147483648.0, 0.0, -0.0, -1, -0.5, kNaN,
    kInf, -kInf, 0.99999999999999989, 1.0000000000000002, double(std::nextafter(1.0f, 0.0f))};
const double kRoi[] = {0, 1, 0.5, 0.25, 0.75, -0.5, 1.5, -1, 2, 0.1, 0.9, 0.4, 0.6, 1e-10,
                       -1e10, 1e10, 1e300, -1e300, 1.7976931348623157e308, kNaN, kInf, -kInf,
                       -0.0};
const double kExtrapolation[] = {0, -0.0, 1, -1, 0.5, 10, 1e30, -1e30, 3.4028234663852886e38,
                                 1e300, kNaN, kInf, -kInf, 1e-45, 5e-324};
const double kCubicA[] = {-0.75, -0.5, 0, -1, 1, -2, 0.5, -3, 3, 1e10, -1e10, 1e300, kNaN,
                          kInf, -kInf};
const double kConstants[] = {0, 1, -1, 0.5, 3.25, -7, 100, 1e-3, 1e10, -1e10, 1e30, -1e30,
                             1e-40, -0.0, 1e-310, 3.4028234663852886e38, kNaN, kInf, -kInf};
const double kGridValues[] = {-1, 1, 0, 0.5, -0.5, 0.25, -0.75, 1.0000001, -1.0000001, 2, -2,
                              3.7, -3.7, 0.999999, -0.999999, 1e10, -1e10, 1e30, -1e30, 1e300,
                              -1e300, 5e-324, -0.0, kNaN, kInf, -kInf};

// A dimension: mostly 0..9, sometimes up to 69, rarely large or hostile.
int64_t dim(Bytes& in) {
  const uint8_t b = in.u8();
  if (b < 200) return b % 10;
  if (b < 236) return 10 + in.u8() % 60;
  if (b < 250) {
    static const int64_t big[] = {100, 255, 1000, 4096, 65536, int64_t(1) << 20};
    return big[in.u8() % 6];
  }
  static const int64_t hostile[] = {2147483647,           2147483648,
                                    int64_t(1) << 40,     std::numeric_limits<int64_t>::max(),
                                    -1,                   std::numeric_limits<int64_t>::min(),
                                    int64_t(1) << 62,     int64_t(3037000500)};
  return hostile[in.u8() % 8];
}

// A Resize "sizes" entry: mostly 0..9, sometimes up to 99, rarely large or hostile.
int64_t size_value(Bytes& in) {
  const uint8_t b = in.u8();
  if (b < 190) return b % 10;
  if (b < 236) return 10 + in.u8() % 90;
  static const int64_t odd[] = {1000,
                                65536,
                                2147483647,
                                2147483648,
                                int64_t(1) << 40,
                                -1,
                                std::numeric_limits<int64_t>::min(),
                                std::numeric_limits<int64_t>::max()};
  return odd[in.u8() % 8];
}

// An enum value: mostly valid (0..n-1), rarely one the enum does not name.
int32_t enum_value(Bytes& in, int n) {
  const uint8_t b = in.u8();
  if (b != 255) return b % n;
  static const int32_t bad[] = {-1, 3, 4, 5, 7, 127, std::numeric_limits<int32_t>::max(),
                                std::numeric_limits<int32_t>::min()};
  const int32_t v = bad[in.u8() % 8];
  return v >= 0 && v < n ? n : v;
}

// Mostly float32 / float64; often another type the core knows (integers, bool, float16,
// bfloat16); rarely a code it does not know (0, 8, 14, 99, -1), which must be a TypeError.
DType element_type(Bytes& in) {
  const uint8_t b = in.u8() % 32;
  if (b < 12) return DType::Float32;
  if (b < 20) return DType::Float64;
  static const int32_t other[] = {2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 16, 0, 8, 14, 99, -1};
  return static_cast<DType>(other[in.u8() % 16]);
}

bool is_float(DType t) { return t == DType::Float32 || t == DType::Float64; }
// Types whose values can be NaN (the others turn NaN into 0).
bool has_nan(DType t) { return is_float(t) || t == DType::Float16 || t == DType::BFloat16; }
bool known_type(DType t) { return dtype_size(t) != 0; }
size_t elem_bytes(DType t) { return std::max<size_t>(dtype_size(t), 1); }

// An element of any known type, widened to double as the kernels read it (ElemTraits::load).
double value_of(DType t, const void* p, int64_t i) {
  double v = 0;
  const Status st = dispatch_dtype(t, "value", [&](auto tag) {
    using T = decltype(tag);
    T e;
    std::memcpy(&e, static_cast<const uint8_t*>(p) + i * int64_t(sizeof(T)), sizeof(T));
    v = static_cast<double>(ElemTraits<T>::load(e));
    return Status::Ok();
  });
  return st.ok() ? v : kNaN;
}
uint64_t bits_of(DType t, const void* p, int64_t i) {
  uint64_t b = 0;
  const size_t n = elem_bytes(t);
  std::memcpy(&b, static_cast<const uint8_t*>(p) + i * int64_t(n), n);
  return b;
}
// Bits of v stored as type t the way the kernels store (ElemTraits::store of the Compute type).
uint64_t stored_bits(DType t, double v) {
  uint64_t b = 0;
  dispatch_dtype(t, "value", [&](auto tag) {
    using T = decltype(tag);
    using C = typename ElemTraits<T>::Compute;
    const T e = ElemTraits<T>::store(static_cast<C>(v));
    std::memcpy(&b, &e, sizeof(T));
    return Status::Ok();
  });
  return b;
}

// How a tensor's values are made.
enum Fill : int { kConstant = 0, kDistinct = 1, kRaw = 2, kMixed = 3, kTable = 4, kUnit = 5 };

struct DataSpec {
  int fill = kConstant;
  double constant = 0;
  uint64_t seed = 0;
  const uint8_t* raw = nullptr;  // the input's tail
  size_t raw_n = 0;
};

double mixed_value(Rng& r) {
  switch (r.next() % 16) {
    case 0: return kNaN;
    case 1: return kInf;
    case 2: return -kInf;
    case 3: return -0.0;
    case 4: return (r.next() & 1) ? 1e30 : -3.4028234663852886e38;
    case 5: return 1e-40;
    default: return r.uniform(-10, 10);
  }
}

// Fills n elements of a float32/float64 tensor (the values are computed in double and
// rounded to T), or n * elem_bytes raw bytes for any other type.
template <typename T>
void fill_typed(T* p, int64_t n, const DataSpec& s) {
  Rng r{s.seed};
  for (int64_t i = 0; i < n; ++i) {
    double v = 0;
    switch (s.fill) {
      case kConstant: v = s.constant; break;
      case kDistinct: v = double(i) * 0.25 - 3.0; break;
      case kRaw:
        if (s.raw_n >= sizeof(T)) {
          T t;
          const size_t k = (size_t(i) * sizeof(T)) % (s.raw_n - sizeof(T) + 1);
          std::memcpy(&t, s.raw + k, sizeof(T));
          p[i] = t;
          continue;
        }
        v = mixed_value(r);
        break;
      case kMixed: v = mixed_value(r); break;
      case kTable: v = kGridValues[r.next() % (sizeof kGridValues / sizeof kGridValues[0])]; break;
      case kUnit: v = r.uniform(-1.25, 1.25); break;
    }
    p[i] = static_cast<T>(v);
  }
}

void fill_data(DType t, void* p, int64_t n, const DataSpec& s) {
  if (t == DType::Float32) return fill_typed(static_cast<float*>(p), n, s);
  if (t == DType::Float64) return fill_typed(static_cast<double*>(p), n, s);
  uint8_t* b = static_cast<uint8_t*>(p);
  const int64_t bytes = n * int64_t(elem_bytes(t));
  if (s.fill == kRaw && s.raw_n > 0) {  // the fuzzer's own bytes
    for (int64_t i = 0; i < bytes; ++i) b[i] = s.raw[size_t(i) % s.raw_n];
    return;
  }
  if (s.fill == kConstant || s.fill == kDistinct) {  // values stored as the type stores them
    for (int64_t i = 0; i < n; ++i) {
      const double v = s.fill == kConstant ? s.constant : double(i) * 0.25 - 3.0;
      const uint64_t bits = stored_bits(t, v);
      std::memcpy(b + i * int64_t(elem_bytes(t)), &bits, elem_bytes(t));
    }
    return;
  }
  Rng r{s.seed};
  for (int64_t i = 0; i < bytes; ++i) b[i] = uint8_t(r.next());
}

// ---- printing a case as C++ ------------------------------------------------------------

std::string lit(double v) {
  if (std::isnan(v)) return std::signbit(v) ? "-NAN" : "NAN";
  if (std::isinf(v)) return v < 0 ? "-INFINITY" : "INFINITY";
  char b[64];
  std::snprintf(b, sizeof b, "%a", v);
  return b;
}

void print_values(const char* name, DType t, const void* p, int64_t n) {
  std::fprintf(stderr, "  // %s: %" PRId64 " elements of type %s\n", name, n, dtype_name(t));
  if (n <= 0) return;
  const int64_t shown = n <= 512 ? n : 64;
  if (!is_float(t)) {  // exact bytes, little-endian
    const int64_t bytes = shown * int64_t(elem_bytes(t));
    std::fprintf(stderr, "  std::vector<uint8_t> %s_bytes = {", name);
    for (int64_t i = 0; i < bytes; ++i)
      std::fprintf(stderr, "%s0x%02x", i ? "," : "", static_cast<const uint8_t*>(p)[i]);
    std::fprintf(stderr, "%s};\n", shown < n ? ", /* ...first 64 elements shown */" : "");
    return;
  }
  std::fprintf(stderr, "  std::vector<%s> %s_data = {", t == DType::Float32 ? "float" : "double",
               name);
  for (int64_t i = 0; i < shown; ++i) {
    const double v = t == DType::Float32 ? double(static_cast<const float*>(p)[i])
                                         : static_cast<const double*>(p)[i];
    std::fprintf(stderr, "%s%s", i ? ", " : "", lit(v).c_str());
  }
  std::fprintf(stderr, "%s};\n", shown < n ? ", /* ...first 64 shown */" : "");
}

struct ResizeCase {
  ResizeAttrs attrs;
  ResizeInputs inputs;
  int rank = 0;
  std::vector<int64_t> dims;  // exactly max(rank, 0) entries
  DType xtype = DType::Float32, ytype = DType::Float32;
  DType other_type = DType::Float32;  // a second X type the same plan runs on
  DataSpec data;
};

void print_resize(const ResizeCase& c, const void* x, int64_t xn) {
  const ResizeAttrs& a = c.attrs;
  const ResizeInputs& in = c.inputs;
  std::fprintf(stderr, "  // ---- Resize case\n  osw::ResizeAttrs attrs;\n");
  std::fprintf(stderr, "  attrs.mode = osw::ResizeMode(%d);\n", int(a.mode));
  std::fprintf(stderr, "  attrs.coord = osw::CoordMode(%d);\n", int(a.coord));
  std::fprintf(stderr, "  attrs.nearest = osw::NearestMode(%d);\n", int(a.nearest));
  std::fprintf(stderr, "  attrs.cubic_a = %s;\n", lit(a.cubic_a).c_str());
  std::fprintf(stderr, "  attrs.exclude_outside = %d;\n", int(a.exclude_outside));
  std::fprintf(stderr, "  attrs.antialias = %d;\n", int(a.antialias));
  std::fprintf(stderr, "  attrs.extrapolation_value = %s;\n", lit(a.extrapolation_value).c_str());
  std::fprintf(stderr, "  attrs.policy = osw::AspectPolicy(%d);\n", int(a.policy));
  std::fprintf(stderr, "  attrs.compat = osw::Compat(%d);\n", int(a.compat));
  std::fprintf(stderr, "  osw::ResizeInputs in;\n");
  const int n = std::max(0, std::min(in.has_axes ? in.n_axes : c.rank, kMaxRank));
  if (in.has_axes) {
    std::fprintf(stderr, "  in.has_axes = true;\n  in.n_axes = %d;\n", in.n_axes);
    for (int j = 0; j < n; ++j) std::fprintf(stderr, "  in.axes[%d] = %d;\n", j, in.axes[j]);
  }
  if (in.has_scales) {
    std::fprintf(stderr, "  in.has_scales = true;\n");
    for (int j = 0; j < n; ++j)
      std::fprintf(stderr, "  in.scales[%d] = %s;  // %.17g\n", j, lit(in.scales[j]).c_str(),
                   in.scales[j]);
  }
  if (in.has_sizes) {
    std::fprintf(stderr, "  in.has_sizes = true;\n");
    for (int j = 0; j < n; ++j)
      std::fprintf(stderr, "  in.sizes[%d] = INT64_C(%" PRId64 ");\n", j, in.sizes[j]);
  }
  if (in.has_roi) {
    std::fprintf(stderr, "  in.has_roi = true;\n");
    for (int j = 0; j < 2 * n; ++j)
      std::fprintf(stderr, "  in.roi[%d] = %s;  // %.17g\n", j, lit(in.roi[j]).c_str(), in.roi[j]);
  }
  std::fprintf(stderr, "  int rank = %d;\n  int64_t dims[] = {", c.rank);
  for (size_t i = 0; i < c.dims.size(); ++i)
    std::fprintf(stderr, "%sINT64_C(%" PRId64 ")", i ? ", " : "", c.dims[i]);
  std::fprintf(stderr, "};\n  // X type %s (%d), Y type %s (%d); the plan also runs on X of type %s (%d)\n",
               dtype_name(c.xtype), int(c.xtype), dtype_name(c.ytype), int(c.ytype),
               dtype_name(c.other_type), int(c.other_type));
  if (x) print_values("x", c.xtype, x, xn);
}

struct GridCase {
  GridSampleAttrs attrs;
  TensorView x, grid;  // dims and types (data set later)
  DType ytype = DType::Float32;
  gs::Tuning tuning;
  DataSpec xdata, gdata;
};

void print_dims(const char* name, const TensorView& t) {
  std::fprintf(stderr, "  %s.type = osw::DType(%d);  // %s\n  %s.rank = %d;\n", name,
               int(t.type), dtype_name(t.type), name, t.rank);
  for (int i = 0; i < std::min(t.rank, kMaxRank); ++i)
    std::fprintf(stderr, "  %s.dims[%d] = INT64_C(%" PRId64 ");\n", name, i, t.dims[i]);
}

void print_grid(const GridCase& c, const void* x, int64_t xn, const void* g, int64_t gn) {
  std::fprintf(stderr, "  // ---- GridSample case\n  osw::GridSampleAttrs attrs;\n");
  std::fprintf(stderr, "  attrs.mode = osw::GridMode(%d);\n", int(c.attrs.mode));
  std::fprintf(stderr, "  attrs.padding = osw::PaddingMode(%d);\n", int(c.attrs.padding));
  std::fprintf(stderr, "  attrs.align_corners = %d;\n", int(c.attrs.align_corners));
  std::fprintf(stderr, "  osw::TensorView x, grid;\n");
  print_dims("x", c.x);
  print_dims("grid", c.grid);
  std::fprintf(stderr, "  // Y type %s (%d); second run: gs::Tuning{block=%" PRId64
                       ", wide_offsets=%d}\n",
               dtype_name(c.ytype), int(c.ytype), c.tuning.block, int(c.tuning.wide_offsets));
  if (x) print_values("x", c.x.type, x, xn);
  if (g) print_values("grid", c.grid.type, g, gn);
}

// ---- checks ----------------------------------------------------------------------------

[[noreturn]] void fail_now(const char* what) {
  std::fprintf(stderr, "==osw-fuzz== CHECK FAILED: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

// A failed check: prints what and the case (through print), then aborts, which libFuzzer
// reports as a crash and saves the input.
#define FUZZ_CHECK(cond, print, ...)                                       \
  do {                                                                     \
    if (!(cond)) {                                                         \
      char osw_msg_[512];                                                  \
      std::snprintf(osw_msg_, sizeof osw_msg_, __VA_ARGS__);               \
      std::fprintf(stderr, "==osw-fuzz== %s\n", osw_msg_);                 \
      print;                                                               \
      fail_now(#cond);                                                     \
    }                                                                      \
  } while (0)

bool status_well_formed(const Status& st) {
  if (st.ok()) return true;
  return (st.kind == ErrorKind::TypeError || st.kind == ErrorKind::RangeError) &&
         !st.message.empty();
}

// Elements of dims, or -1 when a dim is negative or the product overflows int64.
int64_t count_elements(const int64_t* dims, int rank) {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i)
    if (!checked_mul(n, dims[i], &n)) return -1;
  return n;
}

// An exact-size heap block: malloc(0) for none, so that any access to it is an overrun.
struct Block {
  void* p = nullptr;
  explicit Block(size_t bytes) : p(std::malloc(bytes)) {
    if (!p && bytes == 0) p = std::malloc(1);
  }
  ~Block() { std::free(p); }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
};


struct Range {
  double lo = kInf, hi = -kInf;
  bool all_finite = true;
  bool any_nan = false;
};
Range range_of(DType t, const void* p, int64_t n) {
  Range r;
  for (int64_t i = 0; i < n; ++i) {
    const double v = value_of(t, p, i);
    if (std::isnan(v)) r.any_nan = true;
    if (!std::isfinite(v)) {
      r.all_finite = false;
      continue;
    }
    r.lo = std::min(r.lo, v);
    r.hi = std::max(r.hi, v);
  }
  return r;
}

// Rounding allowance of a convex combination of values of magnitude <= m, stored as type t:
// the compute type's rounding per pass, then the final narrowing (integers round to whole
// numbers, float16 / bfloat16 keep 11 / 8 significant bits).
double tolerance(DType t, double m, int passes) {
  const int k = std::max(passes, 1);
  switch (t) {
    case DType::Float64: return m * 1e-12 * k + 64.0 * std::numeric_limits<double>::denorm_min();
    case DType::Float32: return m * 1e-5 * k + 64.0 * double(std::numeric_limits<float>::denorm_min());
    case DType::Float16: return m * (1e-5 * k + 1e-3) + 1e-7;
    case DType::BFloat16: return m * (1e-5 * k + 8e-3) + 1e-38;
    default: return m * 1e-5 * k + 1.0;  // integers and bool: one unit of rounding
  }
}
// The largest magnitude for which a convex combination cannot overflow the type.
double range_limit(DType t) {
  switch (t) {
    case DType::Float64: return 1e300;
    case DType::Float16: return 6e4;
    default: return 1e30;
  }
}

// ---- Resize ----------------------------------------------------------------------------

// The most taps an output of an axis uses, as resize_plan.cpp's tables hold them.
double taps_of(const ResizeAttrs& a, double scale) {
  if (a.mode == ResizeMode::Nearest) return 1;
  const bool cubic = a.mode == ResizeMode::Cubic;
  if (!(a.antialias && scale < 1.0)) return cubic ? 4 : 2;
  const double start = std::floor((cubic ? -2.0 : -1.0) / scale) + 1.0;
  return 2.0 - 2.0 * start;
}

ResizeCase decode_resize(Bytes& in) {
  ResizeCase c;
  const uint8_t rb = in.u8();
  if (rb != 255) {
    c.rank = 1 + rb % 6;
  } else {
    static const int odd[] = {0, -1, 7, 12, 32, 33};
    c.rank = odd[in.u8() % 6];
  }
  c.dims.resize(size_t(std::max(c.rank, 0)));
  // Beyond rank 6, dims are mostly 1 so that the case stays small.
  for (int i = 0; i < c.rank; ++i) c.dims[i] = i < 6 ? dim(in) : 1 + in.u8() % 2;

  ResizeAttrs& a = c.attrs;
  a.mode = ResizeMode(enum_value(in, 3));
  a.coord = CoordMode(enum_value(in, 7));
  a.nearest = NearestMode(enum_value(in, 5));
  a.cubic_a = pick(in, kCubicA);
  const uint8_t flags = in.u8();
  a.exclude_outside = flags & 1;
  a.antialias = flags & 2;
  a.extrapolation_value = pick(in, kExtrapolation);
  a.policy = AspectPolicy(enum_value(in, 3));
  a.compat = Compat(enum_value(in, 3));

  ResizeInputs& ri = c.inputs;
  const int rank_c = std::max(0, std::min(c.rank, kMaxRank));
  int n = rank_c;
  if (flags & 4) {
    ri.has_axes = true;
    const uint8_t sel = in.u8();
    n = 1 + sel % std::max(rank_c, 1);
    int perm[kMaxRank];
    for (int i = 0; i < kMaxRank; ++i) perm[i] = i;
    for (int j = 0; j < n && j < rank_c; ++j) std::swap(perm[j], perm[j + in.u8() % (rank_c - j)]);
    for (int j = 0; j < n; ++j) ri.axes[j] = perm[j];
    if (sel >= 240) {  // a hostile axes input
      switch (in.u8() % 6) {
        case 0: ri.axes[in.u8() % n] = -1; break;
        case 1: ri.axes[in.u8() % n] = c.rank; break;
        case 2: ri.axes[n - 1] = ri.axes[0]; break;  // repeated (when n > 1)
        case 3: ri.axes[0] = std::numeric_limits<int32_t>::min(); break;
        case 4: n = 0; break;
        case 5: n = std::min(kMaxRank, rank_c + 1); break;
      }
    }
    ri.n_axes = n;
  }

  const uint8_t which = in.u8() % 16;
  ri.has_scales = which < 9 || (which == 15 && (flags & 8));
  ri.has_sizes = (which >= 9 && which < 15) || (which == 15 && (flags & 8));
  if (ri.has_scales) {
    const bool same = in.u8() & 1;
    for (int j = 0; j < n; ++j) ri.scales[j] = (same && j > 0) ? ri.scales[0] : pick(in, kScales);
  }
  if (ri.has_sizes)
    for (int j = 0; j < n; ++j) ri.sizes[j] = size_value(in);
  const uint8_t rsel = in.u8();
  ri.has_roi = a.coord == CoordMode::TfCropAndResize ? rsel % 8 != 0 : rsel % 4 == 0;
  if (ri.has_roi) {
    const bool plain = rsel & 0x80;
    for (int j = 0; j < n; ++j) {
      if (plain) {  // an ordinary box: start in [0, 0.5], end in [0.5, 1.25]
        ri.roi[j] = 0.125 * (in.u8() % 5);
        ri.roi[n + j] = 0.5 + 0.125 * (in.u8() % 7);
      } else {
        ri.roi[j] = pick(in, kRoi);
        ri.roi[n + j] = pick(in, kRoi);
      }
    }
  }
  c.xtype = element_type(in);
  c.ytype = (in.u8() == 255) ? element_type(in) : c.xtype;
  c.other_type = element_type(in);
  c.data.fill = in.u8() % 4;
  c.data.constant = pick(in, kConstants);
  c.data.seed = in.u64();
  c.data.raw = in.rest();
  c.data.raw_n = in.rest_size();
  return c;
}

void check_resize_output(const ResizeCase& c, const ResizePlan& plan, const void* x,
                         int64_t xn, const void* y, int64_t yn) {
  const DType t = c.xtype;
  const ResizeAttrs& a = c.attrs;
  const bool crop = a.coord == CoordMode::TfCropAndResize;
  // The extrapolation value as Y holds it: rounded as ONNX stores a value (row 7), or under
  // compat 'onnxruntime' converted as ONNX Runtime casts it (row 16: int16 keeps the low
  // bits of the saturated int32, so a huge value becomes -1). That conversion is pinned by
  // the compat tests; here it is the library's own.
  uint64_t extrap_bits = stored_bits(t, a.extrapolation_value);
  if (a.compat == Compat::OnnxRuntime) {
    dispatch_dtype(t, "value", [&](auto tag) {
      using T = decltype(tag);
      const T e = resize_exec::compat_extrapolation<T>(a);
      extrap_bits = 0;
      std::memcpy(&extrap_bits, &e, sizeof(T));
      return Status::Ok();
    });
  }
  const double extrap = value_of(t, &extrap_bits, 0);

  if (a.mode == ResizeMode::Nearest) {
    std::vector<uint64_t> seen(static_cast<size_t>(xn));
    for (int64_t i = 0; i < xn; ++i) seen[size_t(i)] = bits_of(t, x, i);
    std::sort(seen.begin(), seen.end());
    for (int64_t i = 0; i < yn; ++i) {
      const uint64_t b = bits_of(t, y, i);
      const bool ok = std::binary_search(seen.begin(), seen.end(), b) || (crop && b == extrap_bits);
      FUZZ_CHECK(ok, print_resize(c, x, xn),
                 "Resize nearest: Y[%" PRId64 "] = %s (bits %#" PRIx64 ") is not an input value",
                 i, lit(value_of(t, y, i)).c_str(), b);
    }
    return;
  }
  // The plan's attributes, not the case's: compat 'pytorch' with antialias implies
  // exclude_outside (docs/semantics.md row 9), whose all-outside outputs are NaN (0 / 0).
  if (a.mode == ResizeMode::Linear && !plan.attrs.exclude_outside) {
    Range r = range_of(t, x, xn);
    if (!r.all_finite || xn == 0 || std::max(std::fabs(r.lo), std::fabs(r.hi)) > range_limit(t)) return;
    const double tol = tolerance(t, std::max(std::fabs(r.lo), std::fabs(r.hi)), plan.n_passes);
    if (t == DType::Int8 && plan.attrs.compat == Compat::OnnxRuntime && plan.attrs.antialias) {
      // ONNX Runtime's int8 antialias runs its uint8 code: each pass clamps at 0 (semantics
      // row "integer antialias"), so a negative X gives 0 (and a same-shape resize copies X).
      r.hi = std::max(r.hi, 0.0);
    }
    for (int64_t i = 0; i < yn; ++i) {
      const double v = value_of(t, y, i);
      const bool in_range = v >= r.lo - tol && v <= r.hi + tol;
      const bool is_extrap = crop && (v == extrap || (std::isnan(v) && std::isnan(extrap)));
      FUZZ_CHECK(in_range || is_extrap, print_resize(c, x, xn),
                 "Resize linear: Y[%" PRId64 "] = %s lies outside [min X, max X] = [%s, %s]", i,
                 lit(v).c_str(), lit(r.lo).c_str(), lit(r.hi).c_str());
    }
  }
}

// Integer outputs within the float error bound of a rounding boundary (all of them when it
// reaches 1/4: 64-bit values beyond about 2^50, an extreme cubic_coeff_a) are each decided
// in big integers, over every tap of every axis (resize_exact.h, docs/semantics.md):
// skipped, as other slow inputs are, when that work is large.
bool exact_work_too_large(const ResizePlan& plan, DType t, const void* x, int64_t xn) {
  if (plan.attrs.mode == ResizeMode::Nearest || !(t == DType::Int8 || t == DType::UInt8 ||
      t == DType::Int16 || t == DType::UInt16 || t == DType::Int32 || t == DType::UInt32 ||
      t == DType::Int64 || t == DType::UInt64))
    return false;
  TensorView v;
  v.type = t;
  v.data = const_cast<void*>(x);
  v.rank = 1;
  v.dims[0] = xn;
  double eps_d = 0;
  const double eps = resize_exact_eps(plan, v, &eps_d);
  const double bound = dtype_size(t) <= 2 ? std::min(eps, eps_d) : eps;
  // 8- and 16-bit outputs within eps are first summed again in double over every tap:
  // cheaper, but 6 cubic uint8 axes (33750 outputs of 4096 taps, most within eps) took 13 s
  // under ASan.
  double taps = double(plan.out_elems);
  for (int a = 0; a < plan.rank; ++a)
    if (!plan.axis[a].identity) taps *= plan.axis[a].taps;
  if (dtype_size(t) <= 2 && taps * (eps < 0.25 ? 4 * eps : 1) > double(1 << 22)) return true;
  // The outputs within the bound of a boundary (a share of about 2 bound, taken as 4 bound;
  // all of them from 1/4 on, or with an extreme cubic_coeff_a, which also makes each big
  // integer long: its exponent in bits), each a big-integer sum over its taps: 6 cubic
  // uint32 axes, 15625 outputs of 4096 taps, took 11 s under ASan.
  const bool extreme = !(std::fabs(plan.attrs.cubic_a) < 1e6);
  const double share = extreme || !(bound < 0.25) ? 1 : 4 * bound;
  return taps * share * (extreme ? 64 : 1) > double(1 << 16);
}

void fuzz_resize(Bytes& in) {
  const ResizeCase c = decode_resize(in);
  const int64_t* dims = c.dims.empty() ? nullptr : c.dims.data();
  if (g_verbose) print_resize(c, nullptr, 0);

  // Geometry first: it is pure, and its output lengths bound the cost of the plan.
  ResizeGeometry geo;
  const Status gst = resize_geometry(c.attrs, c.inputs, c.rank, dims, &geo);
  FUZZ_CHECK(status_well_formed(gst), print_resize(c, nullptr, 0), "malformed status");
  bool hostile_dims = false;
  for (int i = 0; i < c.rank; ++i)
    hostile_dims |= c.dims[i] < 0 || c.dims[i] > int64_t(2147483647);
  if (!gst.ok()) {
    ResizePlan plan;
    const Status pst = resize_plan(c.attrs, c.inputs, c.rank, dims, &plan);
    FUZZ_CHECK(!pst.ok() && status_well_formed(pst), print_resize(c, nullptr, 0),
               "resize_plan accepted what resize_geometry rejected (%s)", gst.message.c_str());
    return;
  }
  FUZZ_CHECK(!hostile_dims && c.rank >= 1 && c.rank <= kMaxRank, print_resize(c, nullptr, 0),
             "resize_geometry accepted a negative or > 2^31-1 dimension or a bad rank");
  const ResizeAttrs& ea = c.attrs;
  const bool bad_enum = uint32_t(ea.mode) > 2u || uint32_t(ea.coord) > 6u ||
                        uint32_t(ea.nearest) > 4u || uint32_t(ea.policy) > 2u ||
                        uint32_t(ea.compat) > 2u;
  FUZZ_CHECK(!bad_enum, print_resize(c, nullptr, 0),
             "resize_geometry accepted an enum value the enum does not name");

  // Skip what would be slow: large tap tables, outputs, inputs or work.
  double cells = 0, max_taps = 1;
  for (int i = 0; i < c.rank; ++i) {
    const AxisGeometry& g = geo.axis[i];
    if (g.out == 0) continue;  // nothing to plan on this axis
    const double k = taps_of(c.attrs, g.scale());
    if (k > 1e8) break;  // resize_plan refuses this axis before allocating its tables
    cells += (double(g.out) + 1.0) * k;
    max_taps = std::max(max_taps, k);
  }
  if (cells > kMaxPlanCells) return;
  int64_t out_dims[kMaxRank];
  for (int i = 0; i < c.rank; ++i) out_dims[i] = geo.axis[i].out;
  const int64_t xn = count_elements(dims, c.rank);
  const int64_t yn = count_elements(out_dims, c.rank);
  if (xn < 0 || yn < 0 || xn > kMaxElems || yn > kMaxElems) return;
  if (double(std::max(xn, yn)) * max_taps * c.rank > kMaxWork) return;

  ResizePlan plan;
  const Status pst = resize_plan(c.attrs, c.inputs, c.rank, dims, &plan);
  FUZZ_CHECK(status_well_formed(pst), print_resize(c, nullptr, 0), "malformed status");
  if (!pst.ok()) return;
  FUZZ_CHECK(plan.rank == c.rank, print_resize(c, nullptr, 0), "plan rank %d", plan.rank);
  for (int i = 0; i < c.rank; ++i)
    FUZZ_CHECK(plan.out_dims[i] == out_dims[i] && plan.in_dims[i] == c.dims[i],
               print_resize(c, nullptr, 0), "plan dims differ from the geometry on axis %d", i);

  // Tensors of exact sizes. Two outputs, pre-filled differently: an element that is not
  // written shows up as a difference.
  Block xb(size_t(xn) * elem_bytes(c.xtype));
  fill_data(c.xtype, xb.p, xn, c.data);
  const size_t ybytes = size_t(yn) * elem_bytes(c.ytype);
  Block y1b(ybytes), y2b(ybytes);
  std::memset(y1b.p, 0xA5, ybytes);
  std::memset(y2b.p, 0x5A, ybytes);

  TensorView x, y1, y2;
  x.type = c.xtype;
  x.rank = y1.rank = c.rank;
  x.data = xb.p;
  y1.type = y2.type = c.ytype;
  y1.data = y1b.p;
  y2.data = y2b.p;
  for (int i = 0; i < c.rank; ++i) {
    x.dims[i] = c.dims[i];
    y1.dims[i] = out_dims[i];
  }
  if (exact_work_too_large(plan, c.xtype, xb.p, xn)) return;
  const Status st1 = resize_execute(plan, x, &y1);
  const Status st2 = resize(c.attrs, c.inputs, x, &y2);  // the one-step entry point
  FUZZ_CHECK(status_well_formed(st1) && status_well_formed(st2), print_resize(c, xb.p, xn),
             "malformed status");
  FUZZ_CHECK(st1.ok() == st2.ok(), print_resize(c, xb.p, xn),
             "resize_plan+resize_execute says '%s' but resize() says '%s'", st1.message.c_str(),
             st2.message.c_str());
  const bool supported = known_type(c.xtype) && c.ytype == c.xtype;
  if (!supported) {
    FUZZ_CHECK(!st1.ok() || yn == 0, print_resize(c, xb.p, xn),
               "an unsupported element type (X %s, Y %s) was accepted", dtype_name(c.xtype),
               dtype_name(c.ytype));
    return;
  }
  if (!st1.ok()) return;
  FUZZ_CHECK(y2.rank == c.rank, print_resize(c, xb.p, xn), "resize() set rank %d", y2.rank);
  for (int i = 0; i < c.rank; ++i)
    FUZZ_CHECK(y2.dims[i] == out_dims[i], print_resize(c, xb.p, xn), "resize() dims differ");
  FUZZ_CHECK(std::memcmp(y1b.p, y2b.p, ybytes) == 0, print_resize(c, xb.p, xn),
             "two runs of the same case differ (an output element is left unwritten, or the "
             "result depends on uninitialised memory)");
  check_resize_output(c, plan, xb.p, xn, y1b.p, yn);

  // The plan keeps scratch buffers and gather offsets between executions: running it again
  // (warm) must give the same bits, and so must running it on X of another element type
  // (a plan depends only on the attributes, the inputs and X's dims).
  {
    std::memset(y2b.p, 0x3C, ybytes);
    const Status st3 = resize_execute(plan, x, &y2);
    FUZZ_CHECK(st3.ok() && std::memcmp(y1b.p, y2b.p, ybytes) == 0, print_resize(c, xb.p, xn),
               "executing the same plan a second time gives another result (%s)",
               st3.message.c_str());
  }
  if (c.other_type != c.xtype && known_type(c.other_type)) {
    const size_t ob = size_t(yn) * elem_bytes(c.other_type);
    Block x2b(size_t(xn) * elem_bytes(c.other_type)), y4b(ob), y5b(ob);
    DataSpec d2 = c.data;
    d2.seed ^= 0x9E3779B97F4A7C15ull;
    fill_data(c.other_type, x2b.p, xn, d2);
    if (exact_work_too_large(plan, c.other_type, x2b.p, xn)) return;
    std::memset(y4b.p, 0xA5, ob);
    std::memset(y5b.p, 0x5A, ob);
    TensorView x2 = x, y4 = y1, y5 = y1;
    x2.type = y4.type = y5.type = c.other_type;
    x2.data = x2b.p;
    y4.data = y4b.p;
    y5.data = y5b.p;
    const Status st4 = resize_execute(plan, x2, &y4);  // the plan, warm from another type
    const Status st5 = resize(c.attrs, c.inputs, x2, &y5);
    FUZZ_CHECK(st4.ok() && st5.ok() && std::memcmp(y4b.p, y5b.p, ob) == 0,
               print_resize(c, xb.p, xn),
               "the plan run on X of type %s after type %s differs from a fresh plan (%s / %s)",
               dtype_name(c.other_type), dtype_name(c.xtype), st4.message.c_str(),
               st5.message.c_str());
  }
}

// ---- GridSample ------------------------------------------------------------------------

GridCase decode_grid(Bytes& in) {
  GridCase c;
  const uint8_t rb = in.u8();
  int rank;
  if (rb != 255) {
    rank = 3 + rb % 4;
  } else {
    static const int odd[] = {0, 1, 2, 7, 31, 32, 33, -1};
    rank = odd[in.u8() % 8];
  }
  c.x.rank = rank;
  const int rc = std::max(0, std::min(rank, kMaxRank));
  for (int i = 0; i < rc; ++i) c.x.dims[i] = i < 6 ? dim(in) : 1;
  const int r = rank - 2;
  // The grid: (N, D1_out..Dr_out, r), with rare mismatches.
  const uint8_t gsel = in.u8();
  int grank = rank;
  if (gsel >= 248) grank = 2 + in.u8() % 6;
  c.grid.rank = grank;
  const int gc = std::max(0, std::min(grank, kMaxRank));
  for (int i = 0; i < gc; ++i) {
    if (i == 0) c.grid.dims[i] = (gsel >= 240 && gsel < 244) ? dim(in) : c.x.dims[0];
    else if (i == grank - 1) c.grid.dims[i] = (gsel >= 244 && gsel < 248) ? dim(in) : r;
    else c.grid.dims[i] = i < 6 ? dim(in) : 1;
  }
  c.attrs.mode = GridMode(enum_value(in, 3));
  c.attrs.padding = PaddingMode(enum_value(in, 3));
  const uint8_t flags = in.u8();
  c.attrs.align_corners = flags & 1;
  c.x.type = element_type(in);
  c.grid.type = (flags & 2) ? DType::Float64 : DType::Float32;
  if ((flags & 0xF0) == 0xF0) c.grid.type = element_type(in);
  c.ytype = (in.u8() == 255) ? element_type(in) : c.x.type;
  c.tuning.block = 1 + in.u8() % 8;
  c.tuning.wide_offsets = flags & 4;
  c.xdata.fill = in.u8() % 4;
  c.xdata.constant = pick(in, kConstants);
  c.xdata.seed = in.u64();
  const uint8_t gf = in.u8() % 5;
  c.gdata.fill = gf == 0 ? kTable : gf == 1 ? kUnit : gf == 2 ? kRaw : gf == 3 ? kMixed : kConstant;
  c.gdata.constant = pick(in, kGridValues);
  c.gdata.seed = c.xdata.seed ^ 0x5DEECE66Dull;
  // The tail is raw data: X reads it from the start, the grid from its middle.
  c.xdata.raw = in.rest();
  c.xdata.raw_n = in.rest_size();
  c.gdata.raw = in.rest() + in.rest_size() / 2;
  c.gdata.raw_n = in.rest_size() - in.rest_size() / 2;
  return c;
}

void check_grid_output(const GridCase& c, const void* x, int64_t xn, const void* g, int64_t gn,
                       const void* y, const TensorView& yv) {
  if (count_elements(yv.dims, yv.rank) == 0) return;
  const DType t = c.x.type;
  const int r = c.x.rank - 2;
  const int64_t n_batch = yv.dims[0], channels = yv.dims[1];
  int64_t locs = 1;  // output locations per batch item
  for (int a = 0; a < r; ++a) locs *= yv.dims[a + 2];
  const GridMode mode = c.attrs.mode;
  const bool zeros = c.attrs.padding == PaddingMode::Zeros;
  const Range xr = range_of(t, x, xn);

  std::vector<uint64_t> values;  // nearest: the input values (as doubles, -0 as 0)
  if (mode == GridMode::Nearest) {
    for (int64_t i = 0; i < xn; ++i) {
      double v = value_of(t, x, i);
      if (std::isnan(v)) continue;
      if (v == 0) v = 0;
      uint64_t b;
      std::memcpy(&b, &v, 8);
      values.push_back(b);
    }
    std::sort(values.begin(), values.end());
  }
  const double m = std::max(std::fabs(xr.lo), std::fabs(xr.hi));
  const bool linear_check =
      mode == GridMode::Linear && xr.all_finite && xn > 0 && m <= range_limit(t);
  const double lo = zeros ? std::min(0.0, xr.lo) : xr.lo;
  const double hi = zeros ? std::max(0.0, xr.hi) : xr.hi;
  const double tol = tolerance(t, m, 2 * r);

  for (int64_t n = 0; n < n_batch; ++n) {
    for (int64_t j = 0; j < locs; ++j) {
      bool nan = false, inf = false;
      for (int a = 0; a < r; ++a) {
        const double gv = value_of(c.grid.type, g, (n * locs + j) * r + a);
        nan |= std::isnan(gv);
        inf |= std::isinf(gv);
      }
      for (int64_t ch = 0; ch < channels; ++ch) {
        const int64_t i = (n * channels + ch) * locs + j;
        const double v = value_of(t, y, i);
        if (nan) {  // row 11: a NaN location gives NaN (0 for types without NaN, row 7)
          FUZZ_CHECK(has_nan(t) ? std::isnan(v) : v == 0, print_grid(c, x, xn, g, gn),
                     "GridSample: Y[%" PRId64 "] = %s at a NaN grid location", i, lit(v).c_str());
          continue;
        }
        if (inf && zeros) {  // row 11: an infinite location is far out of bounds
          FUZZ_CHECK(v == 0, print_grid(c, x, xn, g, gn),
                     "GridSample zeros: Y[%" PRId64 "] = %s at an infinite grid location", i,
                     lit(v).c_str());
          continue;
        }
        if (mode == GridMode::Nearest) {
          double k = v == 0 ? 0.0 : v;
          uint64_t b;
          std::memcpy(&b, &k, 8);
          const bool ok = (std::isnan(v) && xr.any_nan) || (zeros && v == 0) ||
                          std::binary_search(values.begin(), values.end(), b);
          FUZZ_CHECK(ok, print_grid(c, x, xn, g, gn),
                     "GridSample nearest: Y[%" PRId64 "] = %s is not an input value", i,
                     lit(v).c_str());
        } else if (linear_check) {
          FUZZ_CHECK(v >= lo - tol && v <= hi + tol, print_grid(c, x, xn, g, gn),
                     "GridSample linear: Y[%" PRId64 "] = %s lies outside [%s, %s]", i,
                     lit(v).c_str(), lit(lo).c_str(), lit(hi).c_str());
        }
      }
    }
  }
}

// GridSample's integer outputs within the float error bound of a rounding boundary are
// decided again, in big integers where nothing else does (gridsample_exact.cpp): nearly
// all of them, each over its taps and for every channel, when the bound reaches 1/2, as it
// does for 64-bit values beyond about 2^50 or reflection of grid values far outside
// [-1, 1] (the coordinate's error grows with them): skipped, as other slow inputs are, when
// that work is large (int32, cubic reflection of values near 1e30, 65536 channels: 27 s
// under ASan).
bool grid_exact_work_too_large(const GridCase& c, const void* x, int64_t xn, const void* g, int64_t gn,
                               double work) {
  const DType t = c.x.type;
  if (c.attrs.mode == GridMode::Nearest || !(t == DType::Int8 || t == DType::UInt8 || t == DType::Int16 ||
      t == DType::UInt16 || t == DType::Int32 || t == DType::UInt32 || t == DType::Int64 || t == DType::UInt64))
    return false;
  double mx = 0, mg = 0, len = 1;
  for (int64_t i = 0; i < xn && dtype_size(t) == 8; ++i) {
    const double v = t == DType::Int64 ? std::fabs(double(static_cast<const int64_t*>(x)[i]))
                                       : double(static_cast<const uint64_t*>(x)[i]);
    mx = std::max(mx, v);
  }
  const bool float_grid = c.grid.type == DType::Float32 || c.grid.type == DType::Float64;  // (else refused)
  for (int64_t i = 0; i < gn && float_grid && c.attrs.padding == PaddingMode::Reflection; ++i) {
    const double v = c.grid.type == DType::Float64 ? static_cast<const double*>(g)[i]
                                                   : double(static_cast<const float*>(g)[i]);
    if (std::isfinite(v)) mg = std::max(mg, std::fabs(v));
  }
  for (int a = 2; a < c.x.rank; ++a) len = std::max(len, double(c.x.dims[a]));
  const bool heavy = mx > 0x1p40 || mg * len > 0x1p16;
  return heavy && work > double(1 << 16);
}

void fuzz_grid(Bytes& in) {
  GridCase c = decode_grid(in);
  if (g_verbose) print_grid(c, nullptr, 0, nullptr, 0);

  TensorView yshape;
  const Status sst = gridsample_output_shape(c.x, c.grid, &yshape);
  FUZZ_CHECK(status_well_formed(sst), print_grid(c, nullptr, 0, nullptr, 0), "malformed status");
  if (!sst.ok()) {
    // gridsample() must refuse the same shapes, without touching any data.
    TensorView y;
    y.type = c.ytype;
    const Status st = gridsample(c.attrs, c.x, c.grid, &y);
    FUZZ_CHECK(!st.ok() && status_well_formed(st), print_grid(c, nullptr, 0, nullptr, 0),
               "gridsample accepted shapes that gridsample_output_shape rejected (%s)",
               sst.message.c_str());
    return;
  }
  bool hostile = c.x.rank < 3 || c.x.rank > kMaxRank || c.grid.rank != c.x.rank;
  for (int i = 0; i < std::max(0, std::min(c.x.rank, kMaxRank)); ++i) hostile |= c.x.dims[i] < 0;
  for (int i = 0; i < std::max(0, std::min(c.grid.rank, kMaxRank)); ++i)
    hostile |= c.grid.dims[i] < 0;
  FUZZ_CHECK(!hostile, print_grid(c, nullptr, 0, nullptr, 0),
             "gridsample_output_shape accepted a bad rank or a negative dimension");

  const int r = c.x.rank - 2;
  const int64_t xn = count_elements(c.x.dims, c.x.rank);
  const int64_t gn = count_elements(c.grid.dims, c.grid.rank);
  const int64_t yn = count_elements(yshape.dims, yshape.rank);
  FUZZ_CHECK(yn >= 0, print_grid(c, nullptr, 0, nullptr, 0), "output element count overflows");
  if (xn < 0 || gn < 0 || xn > kMaxElems || gn > kMaxElems || yn > kMaxElems) return;
  const double mode_taps = c.attrs.mode == GridMode::Nearest ? 1 : c.attrs.mode == GridMode::Linear ? 2 : 4;
  double taps = 1;
  for (int a = 0; a < r; ++a) taps *= std::min(mode_taps, double(std::max<int64_t>(c.x.dims[a + 2], 1)));
  if ((double(yn) + double(gn)) * taps > kMaxWork) return;

  Block xb(size_t(xn) * elem_bytes(c.x.type));
  Block gb(size_t(gn) * elem_bytes(c.grid.type));
  fill_data(c.x.type, xb.p, xn, c.xdata);
  fill_data(c.grid.type, gb.p, gn, c.gdata);
  if (grid_exact_work_too_large(c, xb.p, xn, gb.p, gn, double(yn) * taps)) return;
  const size_t ybytes = size_t(yn) * elem_bytes(c.ytype);
  Block y1b(ybytes), y2b(ybytes);
  std::memset(y1b.p, 0xA5, ybytes);
  std::memset(y2b.p, 0x5A, ybytes);

  c.x.data = xb.p;
  c.grid.data = gb.p;
  TensorView y1 = yshape, y2 = yshape;
  y1.type = y2.type = c.ytype;
  y1.data = y1b.p;
  y2.data = y2b.p;
  const Status st1 = gridsample(c.attrs, c.x, c.grid, &y1);
  const Status st2 = gs::gridsample_tuned(c.attrs, c.x, c.grid, &y2, c.tuning);
  FUZZ_CHECK(status_well_formed(st1) && status_well_formed(st2),
             print_grid(c, xb.p, xn, gb.p, gn), "malformed status");
  FUZZ_CHECK(st1.ok() == st2.ok(), print_grid(c, xb.p, xn, gb.p, gn),
             "gridsample says '%s' but gridsample_tuned says '%s'", st1.message.c_str(),
             st2.message.c_str());
  const bool supported = known_type(c.x.type) && is_float(c.grid.type) && c.ytype == c.x.type &&
                         unsigned(c.attrs.mode) <= 2u && unsigned(c.attrs.padding) <= 2u;
  if (!supported) {
    FUZZ_CHECK(!st1.ok(), print_grid(c, xb.p, xn, gb.p, gn),
               "an unsupported type or attribute was accepted");
    return;
  }
  if (!st1.ok()) return;
  FUZZ_CHECK(std::memcmp(y1b.p, y2b.p, ybytes) == 0, print_grid(c, xb.p, xn, gb.p, gn),
             "gridsample and gridsample_tuned differ (an output element is left unwritten, or "
             "the result depends on the blocking)");
  check_grid_output(c, xb.p, xn, gb.p, gn, y1b.p, yshape);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* v = std::getenv("OSW_FUZZ_VERBOSE");
  g_verbose = v && *v && *v != '0';
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  if (in.u8() & 1) fuzz_grid(in);
  else fuzz_resize(in);
  return 0;
}
