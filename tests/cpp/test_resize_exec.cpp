// test_resize_exec.cpp: whole Resize runs: against the slow reference on random cases,
// NaN/Inf, empty tensors, tf_crop_and_resize, streamed against whole passes, exact 2x
// downscaling, uint8 against the float32 run rounded.
#include "resize_cases.h"

TEST_CASE("resize op: float32 matches the slow reference on random cases", "[resize][exec]") {
  check_against_reference<float>(1, 400);
}

TEST_CASE("resize op: float64 matches the slow reference on random cases", "[resize][exec]") {
  check_against_reference<double>(2, 400);
}

TEST_CASE("resize op: NaN and Inf stay local; -0.0 survives", "[resize][exec]") {
  // Asymmetric 2x linear: even outputs sit exactly on an input (one tap of weight 1).
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.coord = CoordMode::Asymmetric;
  ResizeInputs in = with_scales({2});
  float x[4] = {1, NAN, 3, -0.0f};
  float y[8];
  TensorView xv, yv;
  xv.type = yv.type = DType::Float32;
  xv.rank = 1;
  xv.dims[0] = 4;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, in, xv, &yv).ok());
  CHECK(y[0] == 1.0f);
  CHECK(std::isnan(y[1]));
  CHECK(std::isnan(y[2]));
  CHECK(std::isnan(y[3]));
  CHECK(y[4] == 3.0f);
  CHECK(y[5] == 1.5f);
  CHECK(y[6] == 0.0f);
  CHECK(std::signbit(y[6]));
  x[1] = INFINITY;
  REQUIRE(resize(at, in, xv, &yv).ok());
  CHECK(y[2] == INFINITY);
  CHECK(y[0] == 1.0f);
  CHECK(y[4] == 3.0f);
}

TEST_CASE("resize op: a filter too wide to stream runs as whole passes, in either pass order", "[resize][exec]") {
  // Antialias downsampling by 600 on one axis: over 512 taps, more than the streamed pairs
  // hold, on an axis that runs before (W first) or after (H first) the other one.
  for (int flip = 0; flip < 2; ++flip) {
    const int64_t dims[3] = {1, flip ? 8 : 1200, flip ? 1200 : 8};
    const int64_t outs[3] = {1, flip ? 4 : 2, flip ? 2 : 4};
    ResizeAttrs at;
    at.mode = ResizeMode::Linear;
    at.antialias = true;
    ResizeInputs in = with_sizes({outs[0], outs[1], outs[2]});
    ResizePlan plan;
    REQUIRE(resize_plan(at, in, 3, dims, &plan).ok());
    CHECK(plan.axis[flip ? 2 : 1].taps > 512);
    std::vector<float> x(static_cast<size_t>(dims[1] * dims[2]));
    std::vector<double> xd(x.size());
    for (size_t i = 0; i < x.size(); ++i) xd[i] = x[i] = float(std::sin(double(i) * 0.37));
    std::vector<float> y(static_cast<size_t>(outs[1] * outs[2]));
    TensorView xv, yv;
    xv.type = yv.type = DType::Float32;
    xv.rank = yv.rank = 3;
    for (int i = 0; i < 3; ++i) {
      xv.dims[i] = dims[i];
      yv.dims[i] = outs[i];
    }
    xv.data = x.data();
    yv.data = y.data();
    INFO("flip " << flip);
    REQUIRE(resize_execute(plan, xv, &yv).ok());
    std::vector<ref::Axis> axes;
    for (int i = 0; i < 3; ++i) {
      const AxisGeometry& g = plan.geo.axis[i];
      axes.push_back({g.in, g.out, g.scale_num, g.scale_den, g.roi_start, g.roi_end});
    }
    const std::vector<double> expect = ref::resize(at, axes, xd);
    for (size_t i = 0; i < y.size(); ++i) CHECK(std::fabs(double(y[i]) - expect[i]) <= 1e-5);
  }
}

TEST_CASE("resize op: empty tensors (row 12)", "[resize][exec]") {
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  float x[1] = {0}, y[1] = {0};
  TensorView xv, yv;
  xv.type = yv.type = DType::Float32;
  xv.rank = 2;
  xv.dims[0] = 0;
  xv.dims[1] = 3;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, with_sizes({0, 6}), xv, &yv).ok());
  CHECK(yv.dims[0] == 0);
  CHECK(yv.dims[1] == 6);
  // No source to fill a non-empty output from.
  Status st = resize(at, with_sizes({2, 6}), xv, &yv);
  CHECK(st.kind == ErrorKind::RangeError);
  CHECK(st.message.find("X") != std::string::npos);
}

TEST_CASE("resize op: tf_crop_and_resize fills outside the box on every axis (row 15)", "[resize][exec]") {
  // 1x1x3x3 input, roi that extends past the input on axis 0 (N) too.
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  at.coord = CoordMode::TfCropAndResize;
  at.extrapolation_value = 10.0;
  ResizeInputs in = with_sizes({3, 3});
  in.has_roi = true;
  in.roi[0] = -1.0;  // axis 0: from -1 to 1 over 3 outputs -> coords -1, 0, 1 (in=2)
  in.roi[1] = 0.0;
  in.roi[2] = 1.0;
  in.roi[3] = 1.0;
  float x[6] = {1, 2, 3, 4, 5, 6};  // 2x3
  float y[9];
  TensorView xv, yv;
  xv.type = yv.type = DType::Float32;
  xv.rank = 2;
  xv.dims[0] = 2;
  xv.dims[1] = 3;
  xv.data = x;
  yv.data = y;
  REQUIRE(resize(at, in, xv, &yv).ok());
  // Row 0 is outside (coordinate -1): all 10. Rows 1 and 2 are inputs rows 0 and 1.
  for (int j = 0; j < 3; ++j) CHECK(y[j] == 10.0f);
  CHECK(y[3] == 1.0f);
  CHECK(y[5] == 3.0f);
  CHECK(y[8] == 6.0f);
}

// The streamed-pass tests' random case: linear or cubic attributes, a rank of 2 to 4 and
// small dims.
static ResizeAttrs random_stream_case(Rng& r, int* rank, int64_t dims[kMaxRank]) {
  ResizeAttrs at;
  at.mode = r.pick({ResizeMode::Linear, ResizeMode::Cubic});
  at.coord = r.pick({CoordMode::HalfPixel, CoordMode::AlignCorners, CoordMode::Asymmetric,
                     CoordMode::PytorchHalfPixel});
  at.antialias = r.coin();
  *rank = int(r.range(2, 4));
  for (int a = 0; a < *rank; ++a) dims[a] = r.pick<int64_t>({1, 3, 4, 7, 12, 19, 33});
  return at;
}

// X through the plan's passes one after the other as whole scalar passes: float
// intermediates, the last pass narrowed to Tout (X itself when there is no pass).
template <typename Tout, typename Tin>
std::vector<Tout> whole_scalar_passes(const ResizePlan& plan, const int64_t* dims,
                                      const std::vector<Tin>& x) {
  if (plan.n_passes == 0) return std::vector<Tout>(x.begin(), x.end());
  std::vector<float> cur(x.begin(), x.end());
  int64_t d[kMaxRank];
  for (int a = 0; a < plan.rank; ++a) d[a] = dims[a];
  std::vector<Tout> want;
  for (int i = 0; i < plan.n_passes; ++i) {
    const int a = plan.order[i];
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < a; ++j) outer *= d[j];
    for (int j = a + 1; j < plan.rank; ++j) inner *= d[j];
    const AxisPlan& ap = plan.axis[a];
    if (i + 1 < plan.n_passes) {
      std::vector<float> next(size_t(outer * ap.out * inner));
      resize_pass_scalar<float, float, float>(cur.data(), next.data(), outer, inner, ap, ap.weight_f.data());
      cur.swap(next);
    } else {
      want.resize(size_t(outer * ap.out * inner));
      resize_pass_scalar<float, Tout, float>(cur.data(), want.data(), outer, inner, ap, ap.weight_f.data());
    }
    d[a] = ap.out;
  }
  return want;
}

// uint8 on the float path (the fixed-point path off), any pass order: the streamed pairs
// (rows of X blended in groups, stream_outer_then_inner; or cached rows, stream_last_two)
// must give exactly what the plan's passes give one after the other as whole scalar passes.
TEST_CASE("resize op: uint8 streamed passes equal whole scalar passes in the plan's order", "[resize][exec]") {
  ResizeOptions float_path;
  float_path.fixed_disable = true;
  Rng r(0xB17E5);
  int pairs = 0, outer_first = 0;
  for (int c = 0; c < 300; ++c) {
    int rank = 0;
    int64_t dims[kMaxRank];
    const ResizeAttrs at = random_stream_case(r, &rank, dims);
    ResizeInputs in;
    in.has_sizes = true;
    for (int a = 0; a < rank; ++a)
      in.sizes[a] = r.coin() ? dims[a] : r.pick<int64_t>({1, 2, dims[a] / 2 + 1, dims[a] * 2 / 3 + 1, dims[a] + 3, dims[a] * 2});
    ResizePlan plan;
    if (!resize_plan(at, in, rank, dims, &plan, float_path).ok()) continue;
    int64_t n = 1, m = 1;
    for (int a = 0; a < rank; ++a) {
      n *= dims[a];
      m *= plan.out_dims[a];
    }
    if (m == 0) continue;
    std::vector<uint8_t> x(static_cast<size_t>(n)), y(static_cast<size_t>(m));
    for (uint8_t& v : x) v = uint8_t(r.range(0, 255));
    REQUIRE(run_plan(plan, DType::UInt8, x.data(), y.data()).ok());
    // The passes one by one: float intermediates, the last one narrowed to uint8, then the
    // values near a rounding boundary decided exactly, as the run does (resize_exact.h).
    const std::vector<float> wide = whole_scalar_passes<float>(plan, dims, x);
    std::vector<uint8_t> want(wide.size());
    for (size_t i = 0; i < wide.size(); ++i) want[i] = narrow<uint8_t>(wide[i]);
    TensorView xv = osw_test::view(DType::UInt8, rank, dims, x.data());
    TensorView wv = osw_test::view(DType::UInt8, rank, plan.out_dims, want.data());
    double eps_d = 0;
    const double eps = resize_exact_eps(plan, xv, &eps_d);
    ExactTaps* cache = nullptr;
    resize_exact_fix(plan, xv, wide.data(), false, &wv, 0, int64_t(wide.size()), eps, eps_d, &cache, resize_exact_dmax(plan));
    resize_exact_taps_free(cache);
    pairs += plan.n_passes >= 2;
    outer_first += plan.n_passes == 2 && plan.order[0] < plan.order[1];
    INFO("case " << c << " rank " << rank << " passes " << plan.n_passes);
    REQUIRE(want == y);
  }
  INFO("pairs " << pairs << ", outer axis first " << outer_first);
  REQUIRE(pairs > 100);
  REQUIRE(outer_first > 30);
}

// float32, any pass order: the streamed pairs must give exactly what the plan's passes give
// one after the other as whole scalar passes. Covers the overlapped form of
// stream_outer_then_inner (the last two axes, the inner one on the 4-row kernel: the next
// group's v blend cut into parts between parts of this group's h pass), with rows long
// enough to be cut (>= 512) and group counts that leave 0 to 3 rows over.
TEST_CASE("resize op: float32 streamed passes equal whole scalar passes in the plan's order", "[resize][exec]") {
  Rng r(0xF10A7);
  int pairs = 0, overlapped = 0, overlapped_split = 0;
  for (int c = 0; c < 300; ++c) {
    int rank = 0;
    int64_t dims[kMaxRank];
    const ResizeAttrs at = random_stream_case(r, &rank, dims);
    dims[rank - 1] = r.pick<int64_t>({7, 33, 300, 600, 1100});
    ResizeInputs in;
    in.has_sizes = true;
    for (int a = 0; a < rank; ++a)
      in.sizes[a] = r.coin() ? dims[a] : r.pick<int64_t>({1, 2, dims[a] / 2 + 1, dims[a] * 2 / 3 + 1, dims[a] / 4 + 1, dims[a] + 3, dims[a] * 2});
    if (r.coin()) {  // downsampling the last two axes: the outer one first, group counts
      dims[rank - 2] = r.pick<int64_t>({33, 40, 64});
      in.sizes[rank - 2] = r.pick<int64_t>({8, 9, 10, 11, 17, 30});
      in.sizes[rank - 1] = r.pick<int64_t>({dims[rank - 1] / 2 + 1, dims[rank - 1] / 4 + 1, dims[rank - 1] * 2 / 3 + 1});
    }
    ResizePlan plan;
    if (!resize_plan(at, in, rank, dims, &plan).ok()) continue;
    int64_t n = 1, m = 1;
    for (int a = 0; a < rank; ++a) {
      n *= dims[a];
      m *= plan.out_dims[a];
    }
    if (m == 0 || n > (int64_t(1) << 21) || m > (int64_t(1) << 21)) continue;
    std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(m));
    for (float& v : x) v = float(r.real(-100, 100));
    REQUIRE(run_plan(plan, DType::Float32, x.data(), y.data()).ok());
    const std::vector<float> want = whole_scalar_passes<float>(plan, dims, x);
    pairs += plan.n_passes >= 2;
    if (plan.n_passes >= 2 && plan.order[plan.n_passes - 2] == rank - 2 &&
        plan.order[plan.n_passes - 1] == rank - 1) {
      const AxisPlan& pv = plan.axis[rank - 2];
      const AxisPlan& ph = plan.axis[rank - 1];
      const bool dense = ph.blocks > 0 && ph.blocks_dense * 4 >= ph.blocks * 3;
      if (!dense && pv.out >= 8 && plan.n_passes == 2) {
        ++overlapped;
        overlapped_split += ph.in >= 512;
      }
    }
    INFO("case " << c << " rank " << rank << " passes " << plan.n_passes);
    REQUIRE(want.size() == y.size());
    REQUIRE(std::memcmp(want.data(), y.data(), y.size() * sizeof(float)) == 0);
  }
  INFO("pairs " << pairs << ", overlapped " << overlapped << " (split " << overlapped_split << ")");
  REQUIRE(pairs > 100);
  REQUIRE(overlapped > 20);
  REQUIRE(overlapped_split > 5);
}

// Exact 2x downscaling of the last two axes (every output 0.5 * x[2o] + 0.5 * x[2o + 1])
// runs in one pass (resize/kernels.h, down2x2_row) where SIMD exists. Its bytes must be the
// streamed pair's: outer axis first, then inner, each a product and a sum in that order,
// which differs from (a + b) * 0.5 only near the float range's ends: so the inputs mix
// values near FLT_MAX (whose sums overflow), subnormals (whose halves round), -0.0,
// infinities and NaN with ordinary values; widths give every tail length; and each run is
// also made in parts (a threaded run's ranges). Bits must be equal, except that a NaN only
// has to be a NaN: which NaN an operation on two NaNs (or on Inf - Inf) gives depends on
// the operand order inside an instruction, which wasm leaves open and x86 fixes.
namespace {
bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("resize op: exact 2x float32 downscaling equals whole scalar passes, extremes included", "[resize][exec]") {
  Rng r(0x2D0);
  const float specials[] = {3.0e38f, -3.0e38f, 3.4e38f, 1e-45f, 3e-45f, -1e-45f, 1.2e-38f, -0.0f,
                            0.0f, INFINITY, -INFINITY, NAN};
  int cases = 0;
  for (int c = 0; c < 160; ++c) {
    // The last two axes resized, or (c >= 120) the two before a last axis of 1, 3 or 4
    // channels (channels-last images; 3 and 4 take the RGB and RGBA form).
    const bool nhwc = c >= 120;
    const int rank = nhwc ? 4 : 2 + c % 3;
    const int v = nhwc ? 1 : rank - 2, hh = v + 1;
    int64_t dims[kMaxRank];
    for (int a = 0; a < rank; ++a) dims[a] = 1 + r.range(0, 2);
    if (nhwc) dims[3] = r.pick<int64_t>({1, 3, 4, 4});
    const int64_t out_h = 1 + r.range(0, 8), out_w = r.pick<int64_t>({1, 2, 3, 4, 5, 7, 8, 9, 17, 33, 64});
    dims[v] = 2 * out_h;
    dims[hh] = 2 * out_w;
    ResizeAttrs at;
    at.mode = ResizeMode::Linear;
    at.coord = r.coin() ? CoordMode::HalfPixel : CoordMode::PytorchHalfPixel;
    ResizeInputs in;
    in.has_sizes = true;
    for (int a = 0; a < rank; ++a) in.sizes[a] = dims[a];
    in.sizes[v] = out_h;
    in.sizes[hh] = out_w;
    ResizePlan plan;
    REQUIRE(resize_plan(at, in, rank, dims, &plan).ok());
    int64_t n = 1;
    for (int a = 0; a < rank; ++a) n *= dims[a];
    std::vector<float> x(static_cast<size_t>(n));
    for (float& v : x) v = r.range(0, 2) == 0 ? specials[r.range(0, 11)] : float(r.real(-100, 100));
    std::vector<float> y(static_cast<size_t>(plan.out_elems));
    REQUIRE(run_plan(plan, DType::Float32, x.data(), y.data()).ok());
    const std::vector<float> want = whole_scalar_passes<float>(plan, dims, x);
    INFO("case " << c << " rank " << rank << " out " << out_h << " x " << out_w << " last " << dims[rank - 1]);
    REQUIRE(same_floats(want, y));
    // The same in parts: every step cut into three ranges.
    TensorView xv = osw_test::view(DType::Float32, rank, plan.in_dims, x.data());
    ResizeWorkspace shared, ws;
    REQUIRE(resize_prepare_shared(plan, xv, &shared).ok());
    ResizeStepInfo info;
    REQUIRE(resize_steps(plan, DType::Float32, &info, &shared).ok());
    std::vector<float> yp(y.size(), 7.0f);
    TensorView yv = osw_test::view(DType::Float32, rank, plan.out_dims, yp.data());
    for (int s = 0; s < info.n; ++s) {
      const int64_t u = info.units[s], cut1 = u / 3, cut2 = 2 * u / 3;
      REQUIRE(resize_execute_range(plan, s, 0, cut1, xv, &yv, &shared, &ws).ok());
      REQUIRE(resize_execute_range(plan, s, cut1, cut2, xv, &yv, &shared, &ws).ok());
      REQUIRE(resize_execute_range(plan, s, cut2, u, xv, &yv, &shared, &ws).ok());
    }
    REQUIRE(same_floats(want, yp));
    ++cases;
  }
  REQUIRE(cases == 160);
}

namespace {

// uint8 X on a plain pass (a step that reads X whole: one resized axis, the first of three)
// has no pass of its own: rows of the innermost axis are widened a batch at a time, an
// outer axis blends its rows (resize/exec.h, pass_range). Its outputs, whole and run in
// three uneven ranges per step (as threads split them), must be the float32 run's on the
// same values rounded half to even wherever that value is not within 2^-10 of a tie (the
// float sum's error is far smaller; the exact decisions settle the others).
void check_u8_plain(const std::vector<int64_t>& in, const std::vector<int64_t>& out, ResizeMode mode,
                    bool aa, int64_t* compared, int64_t max_bytes = 0) {
  const int rank = int(in.size());
  ResizeAttrs at;
  at.mode = mode;
  at.antialias = aa;
  ResizeInputs inputs;
  inputs.has_sizes = true;
  inputs.n_axes = rank;
  int64_t n = 1, m = 1;
  for (int a = 0; a < rank; ++a) {
    inputs.sizes[a] = out[size_t(a)];
    n *= in[size_t(a)];
    m *= out[size_t(a)];
  }
  std::vector<uint8_t> x(static_cast<size_t>(n));
  std::vector<float> xf(static_cast<size_t>(n));
  std::mt19937 g(uint32_t(n + m));
  for (int64_t i = 0; i < n; ++i) xf[size_t(i)] = x[size_t(i)] = uint8_t(g() >> 13);
  ResizePlan pf, pu;
  ResizeOptions ou;
  ou.type = DType::UInt8;
  if (max_bytes > 0) ou.max_bytes = max_bytes;  // (batches of fewer rows)
  REQUIRE(resize_plan(at, inputs, rank, in.data(), &pf).ok());
  REQUIRE(resize_plan(at, inputs, rank, in.data(), &pu, ou).ok());
  REQUIRE(pu.schedule[1].step[0].kind == ResizeStep::Pass);  // a plain pass reads X
  std::vector<float> yf(static_cast<size_t>(m));
  REQUIRE(run_plan(pf, DType::Float32, xf.data(), yf.data()).ok());
  std::vector<uint8_t> whole(static_cast<size_t>(m)), split(static_cast<size_t>(m), 7);
  REQUIRE(run_plan(pu, DType::UInt8, x.data(), whole.data()).ok());
  TensorView xv = osw_test::view(DType::UInt8, rank, in.data(), x.data());
  TensorView yv = osw_test::view(DType::UInt8, rank, out.data(), split.data());
  ResizeWorkspace shared, ws;
  REQUIRE(resize_prepare_shared(pu, xv, &shared).ok());
  ResizeStepInfo info;
  REQUIRE(resize_steps(pu, DType::UInt8, &info, &shared).ok());
  for (int s = 0; s < info.n; ++s) {
    const int64_t u = info.units[s], c1 = u / 3 + 1, c2 = std::max(c1, u - u / 5);
    for (const auto& r : {std::make_pair(int64_t(0), std::min(c1, u)), std::make_pair(std::min(c1, u), std::min(c2, u)),
                          std::make_pair(std::min(c2, u), u)})
      REQUIRE(resize_execute_range(pu, s, r.first, r.second, xv, &yv, &shared, &ws).ok());
  }
  REQUIRE(resize_finish(pu, &yv).ok());
  CHECK(std::memcmp(whole.data(), split.data(), size_t(m)) == 0);
  int64_t bad = 0;
  for (int64_t i = 0; i < m; ++i) {
    const float v = yf[size_t(i)];
    if (std::fabs(v - std::floor(v) - 0.5f) < 0x1p-10f) continue;
    const uint8_t want = uint8_t(std::min(255.0f, std::max(0.0f, std::nearbyint(v))));
    if (whole[size_t(i)] != want && bad++ < 3)
      UNSCOPED_INFO("output " << i << ": " << int(whole[size_t(i)]) << ", float32 " << v);
    ++*compared;
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("resize: uint8 plain passes equal the float32 run rounded", "[resize][exec]") {
  int64_t compared = 0;
  for (const ResizeMode mode : {ResizeMode::Linear, ResizeMode::Cubic}) {
    INFO("mode " << int(mode));
    // innermost axis only: 555 rows of 301, in batches of 54 rows
    check_u8_plain({3, 5, 37, 301}, {3, 5, 37, 517}, mode, false, &compared);
    check_u8_plain({3, 5, 37, 301}, {3, 5, 37, 97}, mode, true, &compared);
    // an outer axis only (rows of 29 blended)
    check_u8_plain({2, 3, 41, 29}, {2, 3, 67, 29}, mode, false, &compared);
    // three axes: the first pass reads X
    check_u8_plain({5, 7, 9}, {9, 4, 13}, mode, false, &compared);
    check_u8_plain({6, 11, 10}, {3, 17, 4}, mode, true, &compared);
  }
  // under a maxBytes of 20,000 (the plan's tables fit): batches of 16 rows, not 54
  check_u8_plain({3, 5, 37, 301}, {3, 5, 37, 517}, ResizeMode::Cubic, false, &compared, 20000);
  // antialias windows of more than 512 taps along an outer axis (1400 -> 2: 1400 taps)
  check_u8_plain({2, 1400, 3}, {2, 2, 3}, ResizeMode::Linear, true, &compared);
  check_u8_plain({1400, 5}, {3, 5}, ResizeMode::Cubic, true, &compared);
  CHECK(compared > 400000);
}
