// test_gridsample_exec.cpp: whole GridSample runs: the ONNX spec examples, batches,
// NaN/Inf and huge grids, identity and shifted grids, empty tensors, taps of weight 0,
// compat 'onnxruntime' and exact reflection.
#include "gridsample_cases.h"

// ---- spec examples ----------------------------------------------------------------------

namespace {

struct SpecCase {
  const char* name;
  GridMode mode;
  PaddingMode padding;
  bool align;
  Dims xd;
  Vals x;
  Dims gd;
  Vals g;
  Dims yd;
  Vals y;
};

const Vals kX32 = {0, 1, 2, 3, 4, 5};  // shape (1, 1, 3, 2)
const Vals kG1 = {-1, -1, -0.5, -0.5, -0.2, -0.2, 0, 0, 0, 0, -0.2, -0.2, 0.5, 0.5, 1, 1};
const Vals kG2 = {-1, -0.8, -0.6, -0.5, -0.1, -0.2, 0.7, 0, 0, 0.4, 0.2, -0.2, -0.3, 0.5, -1, 1};
const Vals kG3 = {-10, -10, -5, -5, -0.2, -0.2, 10, 10, 10, 10, -0.2, -0.2, 5, 5, 10, 10};
const Vals kXv = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // shape (1, 1, 3, 2, 2)
const Vals kGv = {-1,   -1,   -1,   -1,  -0.5, 0.3,  -0.5, -0.5, -0.5, 1,    -0.6, -1,
                  -0.2, -0.2, -0.2, 0.4, 0.2,  0.6,  0,    0,    0,    -1,   0,    0,
                  0,    0,    0,    -1,  1,    0,    -0.2, -0.2, -0.2, 1,    0.4,  -0.2,
                  0.5,  0.5,  0.5,  -1,  -0.8, 0.8,  1,    1,    1,    0.4,  0.6,  -0.3};

std::vector<SpecCase> spec_cases() {
  const Dims xd{1, 1, 3, 2}, gd{1, 2, 4, 2}, yd{1, 1, 2, 4};
  const Dims xvd{1, 1, 3, 2, 2}, gvd{1, 2, 4, 2, 3}, yvd{1, 1, 2, 4, 2};
  const GridMode N = GridMode::Nearest, L = GridMode::Linear, C = GridMode::Cubic;
  const PaddingMode Z = PaddingMode::Zeros, B = PaddingMode::Border, R = PaddingMode::Reflection;
  std::vector<SpecCase> v;
  v.push_back({"test_gridsample", L, Z, false, {1, 1, 4, 4},
               {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {1, 6, 6, 2},
               {-1,  -1,   -0.6, -1,   -0.2, -1,   0.2,  -1,   0.6,  -1,   1,    -1,
                -1,  -0.6, -0.6, -0.6, -0.2, -0.6, 0.2,  -0.6, 0.6,  -0.6, 1,    -0.6,
                -1,  -0.2, -0.6, -0.2, -0.2, -0.2, 0.2,  -0.2, 0.6,  -0.2, 1,    -0.2,
                -1,  0.2,  -0.6, 0.2,  -0.2, 0.2,  0.2,  0.2,  0.6,  0.2,  1,    0.2,
                -1,  0.6,  -0.6, 0.6,  -0.2, 0.6,  0.2,  0.6,  0.6,  0.6,  1,    0.6,
                -1,  1,    -0.6, 1,    -0.2, 1,    0.2,  1,    0.6,  1,    1,    1},
               {1, 1, 6, 6},
               {0.,  0.14999998, 0.55,       0.95,      1.35,       0.75,
                0.5999999, 1.4999998, 2.2999997, 3.1, 3.8999999, 2.1,
                2.2, 4.7, 5.5, 6.3, 7.1, 3.7,
                3.8, 7.9, 8.7, 9.5, 10.3, 5.3,
                5.4, 11.1, 11.900001, 12.7, 13.5, 6.9,
                3., 6.15, 6.55, 6.95, 7.35, 3.75}});
  v.push_back({"test_gridsample_aligncorners_true", L, Z, true, xd, kX32, gd, kG1, yd,
               {0, 1.25, 2, 2.5, 2.5, 2, 3.75, 5}});
  v.push_back({"test_gridsample_bicubic", C, Z, false, xd, kX32, gd, kG1, yd,
               {-0.140625, 0.3828125, 1.7555516, 2.96875, 2.96875, 1.7555516, 5.1445312, 1.390625}});
  v.push_back({"test_gridsample_bicubic_align_corners_0_additional_1", C, Z, false, xd, kX32, gd,
               kG2, yd, {-0.17325, 0.28426462, 1.923105, 2.568, 5.170375, 2.2844129, 4.7448435, 1.046875}});
  v.push_back({"test_gridsample_bicubic_align_corners_1_additional_1", C, Z, true, xd, kX32, gd,
               kG2, yd, {0.304, 1.12875, 2.26627, 3.1448438, 4.5315, 2.45536, 4.599819, 4.}});
  v.push_back({"test_gridsample_bilinear", L, Z, false, xd, kX32, gd, kG1, yd,
               {0, 0.5, 1.7, 2.5, 2.5, 1.7, 4.5, 1.25}});
  v.push_back({"test_gridsample_bilinear_align_corners_0_additional_1", L, Z, false, xd, kX32, gd,
               kG2, yd, {0, 0.45, 1.8, 2.4, 3.7, 2.1, 3.7, 1.}});
  v.push_back({"test_gridsample_bilinear_align_corners_1_additional_1", L, Z, true, xd, kX32, gd,
               kG2, yd, {0.39999998, 1.2, 2.05, 2.85, 3.3, 2.2, 3.35, 4.}});
  v.push_back({"test_gridsample_border_padding", L, B, false, xd, kX32, gd, kG3, yd,
               {0, 0, 1.7, 5, 5, 1.7, 5, 5}});
  v.push_back({"test_gridsample_nearest", N, Z, false, xd, kX32, gd, kG1, yd,
               {0, 0, 2, 2, 2, 2, 5, 0}});
  v.push_back({"test_gridsample_nearest_align_corners_0_additional_1", N, Z, false, xd, kX32, gd,
               kG2, yd, {0, 0, 2, 3, 4, 3, 4, 4}});
  v.push_back({"test_gridsample_nearest_align_corners_1_additional_1", N, Z, true, xd, kX32, gd,
               kG2, yd, {0, 0, 2, 3, 2, 3, 4, 4}});
  v.push_back({"test_gridsample_reflection_padding", L, R, false, xd, kX32, gd, kG3, yd,
               {2.5, 0, 1.7, 2.5, 2.5, 1.7, 5, 2.5}});
  v.push_back({"test_gridsample_volumetric_bilinear_align_corners_0", L, Z, false, xvd, kXv, gvd,
               kGv, yvd, {0.125, 3.4, 2, 0.45, 4.7, 10.900001, 6.5, 3, 6.5, 1.75, 4.7, 3.3, 11, 2.52, 1.5, 5.49}});
  v.push_back({"test_gridsample_volumetric_bilinear_align_corners_1", L, Z, true, xvd, kXv, gvd,
               kGv, yvd, {1, 6.7, 3.75, 2.4, 5.4, 9.3, 6.5, 6, 6.5, 7, 5.4, 6.6, 9.25, 8.4, 12, 6.1}});
  v.push_back({"test_gridsample_volumetric_nearest_align_corners_0", N, Z, false, xvd, kXv, gvd,
               kGv, yvd, {1, 5, 1, 0, 5, 12, 5, 5, 5, 0, 5, 0, 12, 9, 0, 8}});
  v.push_back({"test_gridsample_volumetric_nearest_align_corners_1", N, Z, true, xvd, kXv, gvd,
               kGv, yvd, {1, 5, 1, 2, 5, 12, 5, 5, 5, 7, 5, 8, 12, 9, 12, 8}});
  v.push_back({"test_gridsample_zeros_padding", L, Z, false, xd, kX32, gd, kG3, yd,
               {0, 0, 1.7, 0, 0, 1.7, 0, 0}});
  return v;
}

}  // namespace

TEST_CASE("gridsample: ONNX spec examples", "[gridsample][exec]") {
  for (const SpecCase& sc : spec_cases()) {
    REQUIRE(static_cast<int64_t>(sc.x.size()) == count_of(sc.xd));
    REQUIRE(static_cast<int64_t>(sc.g.size()) == count_of(sc.gd));
    REQUIRE(static_cast<int64_t>(sc.y.size()) == count_of(sc.yd));
    for (DType xt : kFloatTypes) {
      for (DType gt : kFloatTypes) {
        INFO(sc.name << " X " << osw::dtype_name(xt) << " grid " << osw::dtype_name(gt));
        Result r = run_gs(attrs_of(sc.mode, sc.padding, sc.align), xt, sc.xd, sc.x, gt, sc.gd, sc.g);
        REQUIRE(r.status.ok());
        CHECK(r.dims == sc.yd);
        const int64_t bad = first_mismatch(r.y, sc.y, 1e-7, 1e-3);
        INFO("first mismatch at " << bad << ": got " << (bad >= 0 ? r.y[bad] : 0.0) << " want "
                                  << (bad >= 0 ? sc.y[bad] : 0.0));
        CHECK(bad == -1);
      }
    }
  }
}

TEST_CASE("gridsample: each batch item uses its own grid", "[gridsample][exec]") {
  // X (2, 2, 1, 3): batch 0 = [[1,2,3],[4,5,6]], batch 1 = [[7,8,9],[10,11,12]].
  const Dims xd{2, 2, 1, 3}, gd{2, 1, 1, 2};
  const Vals x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const Vals g{-1, 0, 1, 0};  // batch 0 samples column 0, batch 1 column 2 (align_corners=1)
  for (GridMode m : kModes) {
    const Result r = run_gs(attrs_of(m, PaddingMode::Zeros, true), DType::Float32, xd, x,
                            DType::Float32, gd, g);
    REQUIRE(r.status.ok());
    CHECK(r.dims == Dims{2, 2, 1, 1});
    CHECK(first_mismatch(r.y, Vals{1, 4, 9, 12}, 1e-6, 0) == -1);
  }
}

// ---- special grid values ----------------------------------------------------------------

TEST_CASE("gridsample: NaN and Inf in the grid", "[gridsample][exec]") {
  const Dims xd{1, 1, 3};
  const Vals x{1, 2, 3};
  const Dims gd{1, 3, 1};
  const Vals g{INFINITY, -INFINITY, NAN};
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (DType xt : kFloatTypes) {
          for (DType gt : kFloatTypes) {
            INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " X "
                              << osw::dtype_name(xt) << " grid " << osw::dtype_name(gt));
            const Result r = run_gs(attrs_of(m, p, align != 0), xt, xd, x, gt, gd, g);
            REQUIRE(r.status.ok());
            REQUIRE(r.y.size() == 3);
            // +Inf: zeros -> 0, border and reflection -> the last pixel; -Inf: the first.
            CHECK(r.y[0] == (p == PaddingMode::Zeros ? 0.0 : 3.0));
            CHECK(r.y[1] == (p == PaddingMode::Zeros ? 0.0 : 1.0));
            CHECK(std::isnan(r.y[2]));
          }
        }
      }
    }
  }
  // 2-D and 3-D with NaN/Inf in one coordinate only, against the reference.
  Rng rng(8);
  const double specials[] = {NAN, INFINITY, -INFINITY};
  for (int r = 2; r <= 3; ++r) {
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        for (int align = 0; align < 2; ++align) {
          Case c = random_case(rng, r, 4, 4, align != 0);
          for (size_t i = 0; i < c.g.size(); ++i)
            if (rng.range(0, 3) == 0) c.g[i] = specials[rng.range(0, 2)];
          check_against_reference(attrs_of(m, p, align != 0), c);
        }
      }
    }
  }
}

TEST_CASE("gridsample: huge finite grid values stay in bounds", "[gridsample][exec]") {
  const Dims xd{1, 2, 3, 4};
  Vals x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i + 1);
  const double huge[] = {1e30, -1e30, 3.0e38, -3.0e38, 2147483648.0, -2147483649.0, 9.3e18, 1e300};
  Vals g;
  for (double a : huge)
    for (double b : huge) {
      g.push_back(a);
      g.push_back(b);
    }
  const int64_t locs = static_cast<int64_t>(g.size() / 2);
  const Dims gd{1, 1, locs, 2};
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (DType gt : kFloatTypes) {
          INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " grid "
                            << osw::dtype_name(gt));
          const Vals gg = gt == DType::Float32 ? as_type(gt, g) : g;  // 1e300 -> inf in float32
          const Result r = run_gs(attrs_of(m, p, align != 0), DType::Float64, xd, x, gt, gd, gg);
          REQUIRE(r.status.ok());
          for (int64_t c = 0; c < 2; ++c) {
            for (int64_t j = 0; j < locs; ++j) {
              const double v = r.y[c * locs + j];
              const double gx = gg[j * 2], gy = gg[j * 2 + 1];
              if (p == PaddingMode::Zeros) {
                CHECK(v == 0.0);
              } else if (p == PaddingMode::Border) {
                // Far beyond the edges: the corner pixel.
                const int64_t col = gx > 0 ? 3 : 0, row = gy > 0 ? 2 : 0;
                CHECK(v == Approx(x[c * 12 + row * 4 + col]).margin(1e-9));
              } else {
                // Reflected somewhere inside: within the channel's range (cubic can overshoot a
                // little between pixels).
                CHECK(std::isfinite(v));
                CHECK(v >= c * 12 + 1 - 3.0);
                CHECK(v <= c * 12 + 12 + 3.0);
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("gridsample: nearest rounds exact halves to even", "[gridsample][exec]") {
  // L = 4, align_corners=0: x = 2g + 1.5. g = -0.5 -> 0.5 -> 0; g = 0 -> 1.5 -> 2;
  // g = 0.5 -> 2.5 -> 2; g = -0.75 -> 0 exactly; g = 1 -> 3.5 -> 4 (outside).
  const Dims xd{1, 1, 4}, gd{1, 5, 1};
  const Vals x{10, 11, 12, 13}, g{-0.5, 0, 0.5, -0.75, 1};
  Result r = run_gs(attrs_of(GridMode::Nearest, PaddingMode::Zeros, false), DType::Float32, xd, x,
                    DType::Float32, gd, g);
  REQUIRE(r.status.ok());
  CHECK(first_mismatch(r.y, Vals{10, 12, 12, 10, 0}, 0, 0) == -1);
  r = run_gs(attrs_of(GridMode::Nearest, PaddingMode::Border, false), DType::Float64, xd, x,
             DType::Float64, gd, g);
  REQUIRE(r.status.ok());
  CHECK(first_mismatch(r.y, Vals{10, 12, 12, 10, 13}, 0, 0) == -1);
  // Reflection pads the rounded index: 4 reflected about 3.5 is 3.
  r = run_gs(attrs_of(GridMode::Nearest, PaddingMode::Reflection, false), DType::Float64, xd, x,
             DType::Float64, gd, g);
  REQUIRE(r.status.ok());
  CHECK(first_mismatch(r.y, Vals{10, 12, 12, 10, 13}, 0, 0) == -1);
}

// ---- properties -------------------------------------------------------------------------

namespace {

// Grid (N, D1..Dr, r) that samples every pixel centre of X's spatial shape, shifted by
// `shift` pixels along each axis (shift[a] for X axis a), with align_corners=1.
Vals shifted_identity_grid(const Dims& spatial, int64_t N, const std::vector<int64_t>& shift) {
  const int r = static_cast<int>(spatial.size());
  const int64_t locs = count_of(spatial);
  Vals g;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t j = 0; j < locs; ++j) {
      int64_t rem = j;
      std::vector<int64_t> idx(r);
      for (int a = r - 1; a >= 0; --a) {
        idx[a] = rem % spatial[a];
        rem /= spatial[a];
      }
      for (int k = 0; k < r; ++k) {
        const int a = r - 1 - k;
        const int64_t L = spatial[a];
        g.push_back(L > 1 ? -1.0 + 2.0 * static_cast<double>(idx[a] + shift[a]) / static_cast<double>(L - 1) : 0.0);
      }
    }
  }
  return g;
}

}  // namespace

TEST_CASE("gridsample: identity grid with align_corners=1 reproduces X", "[gridsample][exec]") {
  Rng rng(9);
  const std::vector<Dims> spatials = {{7}, {5, 6}, {3, 1, 4}, {2, 3, 2, 3}};
  for (const Dims& sp : spatials) {
    const int r = static_cast<int>(sp.size());
    Dims xd{2, 3}, gd{2};
    for (int64_t v : sp) {
      xd.push_back(v);
      gd.push_back(v);
    }
    gd.push_back(r);
    Vals x(static_cast<size_t>(count_of(xd)));
    for (double& v : x) v = rng.uniform(-5, 5);
    const Vals g = shifted_identity_grid(sp, 2, std::vector<int64_t>(r, 0));
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        for (DType xt : kFloatTypes) {
          for (DType gt : kFloatTypes) {
            INFO(mode_name(m) << " " << pad_name(p) << " X " << dims_str(xd) << " "
                              << osw::dtype_name(xt) << " grid " << osw::dtype_name(gt));
            const Vals xx = as_type(xt, x);
            const Result res = run_gs(attrs_of(m, p, true), xt, xd, xx, gt, gd, g);
            REQUIRE(res.status.ok());
            CHECK(first_mismatch(res.y, xx, 1e-6, 0) == -1);
          }
        }
      }
    }
  }
}

TEST_CASE("gridsample: a whole-pixel grid shift shifts X", "[gridsample][exec]") {
  Rng rng(10);
  const Dims sp{6, 7};
  const Dims xd{1, 2, 6, 7}, gd{1, 6, 7, 2};
  Vals x(static_cast<size_t>(count_of(xd)));
  for (double& v : x) v = rng.uniform(-5, 5);
  const std::vector<std::vector<int64_t>> shifts = {{0, 1}, {0, -2}, {1, 0}, {-1, 2}, {2, -3}};
  for (const auto& s : shifts) {
    const Vals g = shifted_identity_grid(sp, 1, s);
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        INFO(mode_name(m) << " " << pad_name(p) << " shift " << s[0] << "," << s[1]);
        const Result res = run_gs(attrs_of(m, p, true), DType::Float64, xd, x, DType::Float64, gd, g);
        REQUIRE(res.status.ok());
        int checked = 0, bad = 0;
        for (int64_t c = 0; c < 2; ++c)
          for (int64_t i = 0; i < 6; ++i)
            for (int64_t j = 0; j < 7; ++j) {
              const int64_t si = i + s[0], sj = j + s[1];
              if (si < 0 || si >= 6 || sj < 0 || sj >= 7) continue;
              ++checked;
              if (!close(res.y[(c * 6 + i) * 7 + j], x[(c * 6 + si) * 7 + sj], 1e-9, 0)) ++bad;
            }
        CHECK(checked > 0);
        CHECK(bad == 0);
      }
    }
  }
}

TEST_CASE("gridsample: empty tensors", "[gridsample][exec]") {
  for (PaddingMode p : kPads) {
    const GridSampleAttrs a = attrs_of(GridMode::Linear, p, false);
    INFO(pad_name(p));
    // No batch items, no channels, no output locations: nothing to compute.
    Result r = run_gs(a, DType::Float32, {0, 2, 3, 3}, {}, DType::Float32, {0, 4, 4, 2}, {});
    CHECK(r.status.ok());
    CHECK(r.dims == Dims{0, 2, 4, 4});
    r = run_gs(a, DType::Float32, {1, 0, 0, 3}, {}, DType::Float32, {1, 2, 2, 2}, Vals(8, 0.0));
    CHECK(r.status.ok());
    CHECK(r.dims == Dims{1, 0, 2, 2});
    r = run_gs(a, DType::Float64, {1, 2, 3, 3}, Vals(18, 1.0), DType::Float32, {1, 0, 4, 2}, {});
    CHECK(r.status.ok());
    CHECK(r.dims == Dims{1, 2, 0, 4});
    // X without pixels but with outputs to fill.
    r = run_gs(a, DType::Float32, {1, 2, 0, 3}, {}, DType::Float64, {1, 1, 3, 2},
               {0, 0, NAN, 0.5, 7, -7});
    if (p == PaddingMode::Zeros) {
      REQUIRE(r.status.ok());
      CHECK(r.dims == Dims{1, 2, 1, 3});
      REQUIRE(r.y.size() == 6);
      for (int c = 0; c < 2; ++c) {
        CHECK(r.y[c * 3 + 0] == 0.0);
        CHECK(std::isnan(r.y[c * 3 + 1]));
        CHECK(r.y[c * 3 + 2] == 0.0);
      }
    } else {
      CHECK(r.status.kind == osw::ErrorKind::RangeError);
      CHECK(r.status.message.rfind("X: spatial dimension 2 has length 0", 0) == 0);
    }
  }
}

TEST_CASE("gridsample: a tap of weight 0 is not read; huge dims beside a 0 do not overflow", "[gridsample][exec]") {
  // X = [1, Inf] along W; a grid point exactly on pixel 0 weighs pixel 1 by 0.
  float x[2] = {1.0f, INFINITY};
  float g[2] = {-1.0f, 0.0f};
  float y[1] = {0};
  osw::TensorView X, G, Y;
  X.type = Y.type = osw::DType::Float32;
  X.rank = 4;
  X.dims[0] = X.dims[1] = X.dims[2] = 1;
  X.dims[3] = 2;
  X.data = x;
  G.type = osw::DType::Float32;
  G.rank = 4;
  G.dims[0] = G.dims[1] = G.dims[2] = 1;
  G.dims[3] = 2;
  G.data = g;
  REQUIRE(osw::gridsample_output_shape(X, G, &Y).ok());
  Y.data = y;
  osw::GridSampleAttrs a;
  a.align_corners = true;
  REQUIRE(osw::gridsample(a, X, G, &Y).ok());
  CHECK(y[0] == 1.0f);
  // (1, 1, 0, 2^40, 2^40): no element, but the strides would overflow int64.
  osw::TensorView H = X;
  H.rank = 5;
  H.dims[2] = 0;
  H.dims[3] = int64_t(1) << 40;
  H.dims[4] = int64_t(1) << 40;
  osw::TensorView G3 = G;
  G3.rank = 5;
  G3.dims[3] = 1;
  G3.dims[4] = 3;
  osw::TensorView Y3;
  const osw::Status st = osw::gridsample_output_shape(H, G3, &Y3);
  CHECK(st.kind == osw::ErrorKind::RangeError);
}

// ---- compat 'onnxruntime' and exact reflection ---------------------------------------------

namespace {

GridSampleAttrs ort_attrs(GridMode m, PaddingMode p, bool align) {
  GridSampleAttrs a = attrs_of(m, p, align);
  a.ort = true;
  a.integer_rounding = 1;
  return a;
}

// Reflection of the integer i about -0.5 / L - 0.5 (align 0) or 0 / L - 1 (align 1), in
// exact integer arithmetic (|i| < 2^62).
int64_t reflect_index_exact(int64_t i, int64_t L, bool align) {
  if (align && L == 1) return 0;
  const int64_t p = align ? 2 * (L - 1) : 2 * L;
  int64_t m = i % p;
  if (m < 0) m += p;
  const int64_t hi = align ? L - 1 : L;  // first index past the border's half
  if (align) return m <= hi ? m : p - m;
  return m < hi ? m : p - 1 - m;
}

}  // namespace

TEST_CASE("gridsample: reflection beyond 2^52 is exact", "[gridsample][exec]") {
  using osw::gs::reflect;
  Rng rng(18);
  for (int align = 0; align < 2; ++align) {
    for (int64_t L : {1, 2, 3, 5, 7, 100, 1000003}) {
      double lo, hi;
      osw::gs::reflection_bounds(L, align != 0, &lo, &hi);
      for (int i = 0; i < 400; ++i) {
        // integers of 53 to 62 bits, both signs, every one a double
        const int bits = static_cast<int>(rng.range(53, 62));
        const int64_t step = int64_t(1) << (bits - 52);
        int64_t v = (int64_t(1) << (bits - 1)) + static_cast<int64_t>(rng.range(0, 1 << 20)) * step;
        if (rng.range(0, 1)) v = -v;
        const int64_t want = reflect_index_exact(v, L, align != 0);
        INFO("L " << L << " align " << align << " x " << v);
        CHECK(reflect(static_cast<double>(v), lo, hi) == static_cast<double>(want));
        // and through GridSample's taps (nearest, linear and cubic take that one pixel)
        for (GridMode m : kModes) {
          osw::gs::AxisTaps t;
          osw::gs::axis_taps(m, PaddingMode::Reflection, align != 0, L, static_cast<double>(v), &t);
          REQUIRE(t.count == 1);
          CHECK(t.index[0] == want);
          CHECK(t.weight[0] == 1.0);
        }
      }
    }
  }
  // Below 2^52 nothing changed: the literal bounce loop still agrees.
  CHECK(reflect(4503599627370495.0, -0.5, 2.5) == static_cast<double>(reflect_index_exact(4503599627370495, 3, false)));
}

TEST_CASE("gridsample: compat onnxruntime replaces NaN, Inf and |x| > 2^62 by the lower border", "[gridsample][exec]") {
  // X 1x1x2x3 = 1..6; each special value on x (y = 0.2) and on y (x = 0.3); ONNX Runtime
  // 1.30 gives for each exactly what the grid value -1 gives (measured).
  const Dims xd{1, 1, 2, 3};
  const Vals x{1, 2, 3, 4, 5, 6};
  const double specials[] = {NAN, INFINITY, -INFINITY, 1e20, -1e20, 3e38};
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      for (int align = 0; align < 2; ++align) {
        for (DType gt : kFloatTypes) {
          for (DType xt : kFloatTypes) {
            INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " grid "
                              << osw::dtype_name(gt) << " X " << osw::dtype_name(xt));
            const GridSampleAttrs a = ort_attrs(m, p, align != 0);
            const Result ref = run_gs(a, xt, xd, x, gt, {1, 1, 2, 2}, {-1, 0.2, 0.3, -1});
            REQUIRE(ref.status.ok());
            for (double s : specials) {
              if (gt == DType::Float32 && s == 3e38) continue;  // (x is finite in double only)
              const Result r = run_gs(a, xt, xd, x, gt, {1, 1, 2, 2}, {s, 0.2, 0.3, s});
              REQUIRE(r.status.ok());
              CHECK(r.y == ref.y);
            }
          }
        }
      }
    }
  }
  // 2^62 itself is kept (border: the last pixel), the next float32 above it is replaced.
  const Dims xd2{1, 1, 1, 2};
  const Vals x2{1, 2};
  const double g62 = std::ldexp(1.0, 62) - 0.5;                 // x = g + 0.5 = 2^62
  const double g62n = static_cast<double>(std::nextafter(std::ldexp(1.0f, 62), INFINITY));
  Result r = run_gs(ort_attrs(GridMode::Nearest, PaddingMode::Border, false), DType::Float32, xd2,
                    x2, DType::Float64, {1, 1, 2, 2}, {g62, 0, g62n, 0});
  REQUIRE(r.status.ok());
  CHECK(r.y == Vals{2, 1});
  // Without the compat: NaN -> NaN, +Inf -> the last pixel (docs/semantics.md row 11).
  r = run_gs(attrs_of(GridMode::Linear, PaddingMode::Border, false), DType::Float32, xd, x,
             DType::Float32, {1, 1, 2, 2}, {NAN, 0.2, INFINITY, 0.2});
  REQUIRE(r.status.ok());
  CHECK(std::isnan(r.y[0]));
  CHECK(r.y[1] == Approx(5.1).margin(1e-6));  // the last column: 3 * 0.3 + 6 * 0.7
}

TEST_CASE("gridsample: compat onnxruntime computes coordinates in the grid's float32", "[gridsample][exec]") {
  // W = 5, align 0, g = float32(-0.2): ((g + 1) * 5 - 1) / 2 is 1.5 exactly in float32 (ONNX
  // Runtime: a tie, to even -> 2), 1.4999999925 in double (ours by default -> 1). g =
  // float32(0.2): 2.5 in float32 (-> 2), 2.5000000075 in double (-> 3). Measured in ORT 1.30.
  const Dims xd{1, 1, 1, 5};
  const Vals x{10, 11, 12, 13, 14};
  const Vals g{static_cast<float>(-0.2), 0, static_cast<float>(0.2), 0};
  for (PaddingMode p : kPads) {
    Result ort = run_gs(ort_attrs(GridMode::Nearest, p, false), DType::Float32, xd, x,
                        DType::Float32, {1, 1, 2, 2}, g);
    Result dflt = run_gs(attrs_of(GridMode::Nearest, p, false), DType::Float32, xd, x,
                         DType::Float32, {1, 1, 2, 2}, g);
    REQUIRE(ort.status.ok());
    REQUIRE(dflt.status.ok());
    CHECK(ort.y == Vals{12, 12});
    CHECK(dflt.y == Vals{11, 13});
  }
  // Linear far out (x = 4.5e9 > 2^24): ONNX Runtime's float32 weights (x2 - x, x - x1) are
  // both 0 -> 0 in every padding (measured); ours by default: the edge pixel.
  for (PaddingMode p : kPads) {
    Result ort = run_gs(ort_attrs(GridMode::Linear, p, false), DType::Float32, {1, 1, 1, 3},
                        {1, 2, 3}, DType::Float32, {1, 1, 1, 2}, {3e9, 0});
    REQUIRE(ort.status.ok());
    CHECK(ort.y == Vals{0});
  }
  // Random grids: the ORT path equals the default one wherever float32 and double agree on
  // the taps (a tolerance for the weights' float32 rounding).
  Rng rng(1818);
  for (int i = 0; i < 300; ++i) {
    const GridMode m = kModes[rng.range(0, 2)];
    const PaddingMode p = kPads[rng.range(0, 2)];
    const bool align = rng.range(0, 1) != 0;
    Case c = random_case(rng, 2, 5, 5, align);
    for (double& v : c.g) v = static_cast<float>(v);
    const Result a = run_gs(ort_attrs(m, p, align), DType::Float64, c.xd, c.x, DType::Float64, c.gd, c.g);
    const Result b = run_gs(attrs_of(m, p, align), DType::Float64, c.xd, c.x, DType::Float64, c.gd, c.g);
    REQUIRE(a.status.ok());
    REQUIRE(b.y.size() == a.y.size());
    for (size_t k = 0; k < a.y.size(); ++k) {
      INFO(mode_name(m) << " " << pad_name(p) << " align " << align << " k " << k);
      CHECK(a.y[k] == Approx(b.y[k]).margin(1e-9));
    }
  }
}

TEST_CASE("gridsample: compat onnxruntime rejects an X with an empty spatial axis", "[gridsample][exec]") {
  for (PaddingMode p : kPads) {
    INFO(pad_name(p));
    // with outputs to fill, and with none (ONNX Runtime checks X first)
    for (const Dims& gd : {Dims{1, 1, 3, 2}, Dims{1, 0, 3, 2}}) {
      const Result r = run_gs(ort_attrs(GridMode::Linear, p, false), DType::Float32, {1, 2, 0, 3},
                              {}, DType::Float32, gd, Vals(gd[1] * 6, 0.0));
      CHECK(r.status.kind == osw::ErrorKind::RangeError);
      CHECK(r.status.message.rfind("X: spatial dimension 2 has length 0; compat 'onnxruntime' rejects it", 0) == 0);
    }
  }
  // X with pixels and no channels or batch items: an empty Y, as in ONNX Runtime.
  const Result r = run_gs(ort_attrs(GridMode::Linear, PaddingMode::Zeros, false), DType::Float32,
                          {1, 0, 2, 3}, {}, DType::Float32, {1, 1, 1, 2}, {0, 0});
  CHECK(r.status.ok());
}
