// test_nearest.cpp: Resize mode=nearest (src/resize/kernels_nearest.cpp), a bit copy for every element
// size. Random cases of rank 1..5 against two slow gathers written here: one from the
// plan's own index tables, one from the slow reference (reference_resize.h) run on the
// element positions. Each case runs with the SIMD blocks and row reuse, and with the plain
// paths forced (NearestOptions), and every result must equal the expected bytes exactly.
#include <catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "reference_resize.h"
#include "resize/resize.h"
#include "resize/kernels_nearest.h"
#include "core/simd.h"
#include "test_plan.h"
#include "test_rng.h"

using namespace osw;

namespace {

// Restores the default options when a test ends (even by a failed REQUIRE).

// Element positions of x, row-major.
void strides_of(int rank, const int64_t* dims, int64_t* stride) {
  int64_t s = 1;
  for (int a = rank - 1; a >= 0; --a) {
    stride[a] = s;
    s *= dims[a];
  }
}

// The gather from the plan's tables, one output at a time; outside the crop box, zero bits
// (extrapolation_value 0 in these tests).
std::vector<uint8_t> gather_by_tables(const ResizePlan& p, size_t es, const std::vector<uint8_t>& x) {
  int64_t stride[kMaxRank];
  strides_of(p.rank, p.in_dims, stride);
  int64_t m = 1;
  for (int a = 0; a < p.rank; ++a) m *= p.out_dims[a];
  std::vector<uint8_t> y(size_t(m) * es);
  for (int64_t i = 0; i < m; ++i) {
    int64_t rem = i, src = 0;
    bool outside = false;
    for (int a = p.rank - 1; a >= 0; --a) {
      const int64_t o = rem % p.out_dims[a];
      rem /= p.out_dims[a];
      const AxisPlan& ap = p.axis[a];
      src += int64_t(ap.index[o * ap.taps]) * stride[a];
      outside = outside || ap.outside[o] != 0;
    }
    if (outside) std::memset(&y[size_t(i) * es], 0, es);
    else std::memcpy(&y[size_t(i) * es], &x[size_t(src) * es], es);
  }
  return y;
}

// The gather from the slow reference: resize the element positions themselves (exact in
// double), then copy the elements they name. -1 marks an output outside the crop box.
std::vector<uint8_t> gather_by_reference(const ResizeAttrs& at, const ResizePlan& p, size_t es,
                                         const std::vector<uint8_t>& x) {
  int64_t n = 1;
  for (int a = 0; a < p.rank; ++a) n *= p.in_dims[a];
  std::vector<double> pos(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) pos[size_t(i)] = double(i);
  std::vector<ref::Axis> axes;
  for (int a = 0; a < p.rank; ++a) {
    const AxisGeometry& g = p.geo.axis[a];
    axes.push_back({g.in, g.out, g.scale_num, g.scale_den, g.roi_start, g.roi_end});
  }
  ResizeAttrs m = at;
  m.extrapolation_value = -1;
  const std::vector<double> src = ref::resize(m, axes, pos);
  std::vector<uint8_t> y(src.size() * es);
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i] < 0) std::memset(&y[i * es], 0, es);
    else std::memcpy(&y[i * es], &x[size_t(src[i]) * es], es);
  }
  return y;
}

struct TypeCase {
  DType type;
  size_t size;
};

const TypeCase kTypes[] = {
    {DType::UInt8, 1},   {DType::Int8, 1},    {DType::Float16, 2}, {DType::BFloat16, 2},
    {DType::UInt16, 2},  {DType::Float32, 4}, {DType::Int32, 4},   {DType::UInt32, 4},
    {DType::Float64, 8}, {DType::Int64, 8},   {DType::UInt64, 8},
};

// Random bytes, with NaN payloads and integers above 2^53 planted among them.
std::vector<uint8_t> random_x(Rng& r, int64_t n, size_t es) {
  std::vector<uint8_t> x(size_t(n) * es);
  for (uint8_t& b : x) b = uint8_t(r.range(0, 255));
  for (int64_t i = 0; i < n; i += 3) {
    uint8_t* p = &x[size_t(i) * es];
    if (es == 2) {
      const uint16_t v = r.pick<uint16_t>({0x7C01, 0xFE37, 0x7FC1, 0x8000});
      std::memcpy(p, &v, 2);
    } else if (es == 4) {
      const uint32_t v = r.pick<uint32_t>({0x7FC00001u, 0xFF800123u, 0x7F800001u, 0x80000000u});
      std::memcpy(p, &v, 4);
    } else if (es == 8) {
      const uint64_t v = r.pick<uint64_t>({(uint64_t(1) << 53) + 1, 0x7FF0000000000001ull,
                                           0xFFF8DEADBEEF0001ull, 0x7FFFFFFFFFFFFFFFull});
      std::memcpy(p, &v, 8);
    }
  }
  return x;
}

// Runs plan on x, or with the options set, the same Resize planned with them (the plain
// paths, to compare them with the fast ones); returns Y's bytes.
std::vector<uint8_t> run(const ResizeAttrs& at, const ResizeInputs& in, int rank, const int64_t* dims,
                         const ResizePlan& given, DType type, size_t es, std::vector<uint8_t>& x,
                         bool scalar, bool no_reuse) {
  ResizeOptions opts;
  opts.nearest_scalar = scalar;
  opts.nearest_no_reuse = no_reuse;
  ResizePlan replanned;
  if (scalar || no_reuse) REQUIRE(resize_plan(at, in, rank, dims, &replanned, opts).ok());
  const ResizePlan& plan = scalar || no_reuse ? replanned : given;
  int64_t m = 1;
  for (int a = 0; a < plan.rank; ++a) m *= plan.out_dims[a];
  std::vector<uint8_t> y(size_t(m) * es + 1, 0xA5);
  REQUIRE(run_plan(plan, type, x.data(), y.data()).ok());
  REQUIRE(y.back() == 0xA5);  // nothing written past Y
  y.pop_back();
  return y;
}

// A random nearest Resize: rank 1..5, a random subset of axes resized (sizes or scales;
// up, down, equal, length 1), trailing axes left alone (identity blocks of 1..6 elements),
// every coordinate and nearest mode, flipped crop boxes.
struct Case {
  ResizeAttrs at;
  ResizeInputs in;
  int rank = 0;
  int64_t dims[kMaxRank] = {};
};

Case random_case(Rng& r) {
  Case c;
  c.rank = int(r.range(1, 5));
  c.at.mode = ResizeMode::Nearest;
  c.at.coord = r.pick({CoordMode::HalfPixel, CoordMode::HalfPixelSymmetric, CoordMode::PytorchHalfPixel,
                       CoordMode::AlignCorners, CoordMode::Asymmetric, CoordMode::TfHalfPixelForNN,
                       CoordMode::TfCropAndResize});
  c.at.nearest = r.pick({NearestMode::RoundPreferFloor, NearestMode::RoundPreferCeil, NearestMode::Floor,
                         NearestMode::Ceil, NearestMode::Opset10});
  c.at.compat = r.range(0, 5) == 0 ? r.pick({Compat::OnnxRuntime, Compat::PyTorch}) : Compat::Onnx;
  // Trailing axes that stay as they are: a block of 1..6 elements.
  int trailing = c.rank > 1 ? int(r.range(0, std::min(2, c.rank - 1))) : 0;
  int64_t block = 1;
  for (int a = c.rank - trailing; a < c.rank; ++a) {
    c.dims[a] = r.range(1, 6 / block);
    block *= c.dims[a];
  }
  // The innermost resized axis is long (SIMD blocks), the outer ones short.
  const int inner = c.rank - trailing - 1;
  for (int a = 0; a <= inner; ++a)
    c.dims[a] = a == inner ? r.pick<int64_t>({1, 2, 3, 5, 8, 13, 17, 31, 40, 64})
                           : r.range(1, c.rank <= 3 ? 7 : 4);
  // Resize a random non-empty subset of axes 0..inner (sometimes the trailing ones too).
  c.in.has_axes = true;
  for (int a = 0; a < c.rank; ++a) {
    const bool listed = a == inner || (a < inner ? r.coin() : r.range(0, 5) == 0);
    if (listed) c.in.axes[c.in.n_axes++] = a;
  }
  const bool sizes = r.range(0, 3) != 0;
  c.in.has_sizes = sizes;
  c.in.has_scales = !sizes;
  for (int j = 0; j < c.in.n_axes; ++j) {
    const int64_t L = c.dims[c.in.axes[j]];
    if (sizes) {
      c.in.sizes[j] = r.pick<int64_t>({L, 1, 2 * L, 3 * L, L + 1, std::max<int64_t>(1, L / 2),
                                       std::max<int64_t>(1, L / 3), r.range(1, 3 * L + 2)});
    } else {
      c.in.scales[j] = double(float(r.pick({1.0, 2.0, 3.0, 0.5, 1.5, 0.75, 2.5, 0.3})));
    }
  }
  if (c.at.coord == CoordMode::TfCropAndResize) {
    c.in.has_roi = true;
    for (int j = 0; j < c.in.n_axes; ++j) {
      double s = r.real(-0.3, 0.6), e = r.real(0.4, 1.3);
      if (r.range(0, 2) == 0) std::swap(s, e);  // start > end: the axis runs backwards
      if (r.range(0, 4) == 0) { s = 0; e = 1; }
      c.in.roi[j] = s;
      c.in.roi[c.in.n_axes + j] = e;
    }
  }
  return c;
}

}  // namespace

TEST_CASE("nearest: every element size, bit-exact against slow gathers on random cases", "[resize][kernels][nearest]") {
  Rng r(20240601);
  int checked = 0, simd_rows = 0;
  for (int k = 0; k < 1500; ++k) {
    const Case c = random_case(r);
    ResizePlan plan;
    const Status st = resize_plan(c.at, c.in, c.rank, c.dims, &plan);
    if (!st.ok()) continue;  // e.g. a scale that overflows nothing here; skip quietly
    int64_t n = 1, m = 1;
    for (int a = 0; a < c.rank; ++a) {
      n *= plan.in_dims[a];
      m *= plan.out_dims[a];
    }
    if (m == 0) continue;
    const TypeCase t = kTypes[r.range(0, int64_t(sizeof(kTypes) / sizeof(kTypes[0])) - 1)];
    std::vector<uint8_t> x = random_x(r, n, t.size);
    INFO("case " << k << " rank " << c.rank << " type " << int(t.type) << " coord " << int(c.at.coord)
                 << " nearest " << int(c.at.nearest) << " compat " << int(c.at.compat));
    const std::vector<uint8_t> want = gather_by_tables(plan, t.size, x);
    // The slow reference evaluates coordinates in long double (x87 natively): with a real
    // roi, a coordinate within an ulp of a tie or of the crop box may round the other way
    // than the plan's double, so tf_crop_and_resize is checked against the tables only.
    if (c.at.compat == Compat::Onnx && c.at.coord != CoordMode::TfCropAndResize)
      REQUIRE(gather_by_reference(c.at, plan, t.size, x) == want);
    REQUIRE(run(c.at, c.in, c.rank, c.dims, plan, t.type, t.size, x, false, false) == want);
    const NearestTables& tables = *nearest_tables(plan, t.size);
    simd_rows += tables.n_segs > 1 || (tables.n_segs == 1 && tables.segs[0].simd);
    REQUIRE(run(c.at, c.in, c.rank, c.dims, plan, t.type, t.size, x, true, true) == want);
    REQUIRE(run(c.at, c.in, c.rank, c.dims, plan, t.type, t.size, x, true, false) == want);
    REQUIRE(run(c.at, c.in, c.rank, c.dims, plan, t.type, t.size, x, false, true) == want);
    ++checked;
  }
  CHECK(checked > 1000);
#if OSW_HAVE_SIMD
  CHECK(simd_rows > 100);  // the SIMD blocks were exercised
#else
  CHECK(simd_rows == 0);   // the scalar build has no SIMD blocks
#endif
}

TEST_CASE("nearest: one plan (built for every type) runs on several element sizes, with tables for each", "[resize][kernels][nearest]") {
  Rng r(7);
  ResizeAttrs at;
  at.mode = ResizeMode::Nearest;
  ResizeInputs in;
  in.has_axes = true;
  in.n_axes = 2;
  in.axes[0] = 1;
  in.axes[1] = 2;
  in.has_sizes = true;
  in.sizes[0] = 9;
  in.sizes[1] = 37;
  const int64_t dims[4] = {1, 5, 17, 4};
  ResizePlan plan;
  REQUIRE(resize_plan(at, in, 4, dims, &plan).ok());
  for (const TypeCase& t : {TypeCase{DType::UInt8, 1}, TypeCase{DType::Float32, 4},
                            TypeCase{DType::UInt8, 1}, TypeCase{DType::Int64, 8},
                            TypeCase{DType::Float16, 2}}) {
    std::vector<uint8_t> x = random_x(r, 5 * 17 * 4, t.size);
    const std::vector<uint8_t> want = gather_by_tables(plan, t.size, x);
    REQUIRE(run(at, in, 4, dims, plan, t.type, t.size, x, false, false) == want);
    REQUIRE(nearest_tables(plan, t.size)->elem_size == t.size);
  }
}

TEST_CASE("nearest: images, float32 NCHW x2 and uint8 RGBA up and down", "[resize][kernels][nearest]") {
  Rng r(11);
  struct Img {
    DType type;
    size_t es;
    int rank;
    int64_t in[4];
    int n_axes;
    int32_t axes[4];
    int64_t sizes[4];
  };
  const Img imgs[] = {
      {DType::Float32, 4, 4, {1, 3, 32, 32}, 4, {0, 1, 2, 3}, {1, 3, 64, 64}},
      {DType::Float32, 4, 4, {1, 3, 31, 29}, 4, {0, 1, 2, 3}, {1, 3, 64, 61}},
      {DType::UInt8, 1, 4, {1, 27, 45, 4}, 2, {1, 2}, {54, 90}},
      {DType::UInt8, 1, 4, {1, 64, 96, 4}, 2, {1, 2}, {16, 24}},
      {DType::UInt8, 1, 4, {1, 64, 96, 4}, 2, {1, 2}, {37, 71}},
      {DType::UInt8, 1, 4, {1, 20, 30, 3}, 2, {1, 2}, {41, 77}},
      {DType::UInt8, 1, 3, {20, 30, 1}, 2, {0, 1}, {41, 77}},
      {DType::Float16, 2, 4, {2, 3, 9, 40}, 2, {2, 3}, {18, 80}},
  };
  for (const Img& im : imgs) {
    for (CoordMode cm : {CoordMode::HalfPixel, CoordMode::AlignCorners, CoordMode::Asymmetric}) {
      ResizeAttrs at;
      at.mode = ResizeMode::Nearest;
      at.coord = cm;
      ResizeInputs in;
      in.has_axes = true;
      in.n_axes = im.n_axes;
      in.has_sizes = true;
      for (int j = 0; j < im.n_axes; ++j) {
        in.axes[j] = im.axes[j];
        in.sizes[j] = im.sizes[j];
      }
      ResizePlan plan;
      REQUIRE(resize_plan(at, in, im.rank, im.in, &plan).ok());
      int64_t n = 1;
      for (int a = 0; a < im.rank; ++a) n *= im.in[a];
      std::vector<uint8_t> x = random_x(r, n, im.es);
      const std::vector<uint8_t> want = gather_by_reference(at, plan, im.es, x);
      REQUIRE(gather_by_tables(plan, im.es, x) == want);
      REQUIRE(run(at, in, im.rank, im.in, plan, im.type, im.es, x, false, false) == want);
      REQUIRE(run(at, in, im.rank, im.in, plan, im.type, im.es, x, true, true) == want);
    }
  }
}
