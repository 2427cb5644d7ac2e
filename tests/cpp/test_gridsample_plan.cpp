// test_gridsample_plan.cpp: GridSample's block plan: locations across block boundaries,
// all-outside ranges, block sizes and offset widths that must not change results.
#include "gridsample_cases.h"

TEST_CASE("gridsample: many locations cross block boundaries", "[gridsample][plan]") {
  Rng rng(6);
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      // The default blocks are whole rows. Cubic (kFastBlock, 4096 locations): 80 x 61 is
      // one block of 67 rows and one of 13; a row of 4099 is cut into 4096 + 3. Linear
      // (kFastBlockLinear, 65536): 300 x 250 is one block of 262 rows and one of 38; a row
      // of 65539 is cut into 65536 + 3.
      for (const std::vector<int64_t>& gd :
           {std::vector<int64_t>{2, 80, 61, 2}, std::vector<int64_t>{1, 2, 4099, 2},
            std::vector<int64_t>{1, 300, 250, 2}, std::vector<int64_t>{1, 1, 65539, 2}}) {
        Case c;
        c.xd = {gd[0], 3, 7, 9};
        c.gd = gd;
        c.x.resize(static_cast<size_t>(count_of(c.xd)));
        for (double& v : c.x) v = rng.uniform(-2, 2);
        c.g.resize(static_cast<size_t>(count_of(c.gd)));
        for (size_t i = 0; i < c.g.size(); ++i)
          c.g[i] = random_grid_value(rng, i % 2 ? 7 : 9, false);
        INFO(mode_name(m) << " " << pad_name(p) << " grid " << gd[1] << " x " << gd[2]);
        check_against_reference(attrs_of(m, p, false), c);
      }
    }
  }
}

TEST_CASE("gridsample: zeros padding at the edges of the all-outside ranges", "[gridsample][plan]") {
  // The 2-D fast path gives a location no taps, without planning it, when one axis's
  // coordinate x has every tap outside X (linear: x < -1 or x >= L; cubic: x < -2 or
  // x >= L + 1). Coordinates at and just around those edges, on each axis, with the other
  // axis inside or outside too, must give what the generic planner gives (a tap of tiny
  // weight at the edge included: the pixels are in [1, 2], so a lost tap is a relative
  // error of 1, far above the 1e-6 allowed for the sums' order, which differs between the
  // paths where no wasm SIMD kernel fixes it), and match the reference.
  const int64_t H = 5, W = 9;  // align_corners=1: x = (g + 1) / 2 * (L - 1), exact here
  auto coords = [](int64_t L) {
    Vals v{0.5 * static_cast<double>(L - 1) + 0.25};
    const double l = static_cast<double>(L);
    for (double b : {-2.0, -1.0, 0.0, l - 1.0, l, l + 1.0})
      for (double d : {-1.0 / 64, -std::ldexp(1.0, -20), 0.0, std::ldexp(1.0, -20), 1.0 / 64})
        v.push_back(b + d);
    return v;
  };
  const Vals cy = coords(H), cx = coords(W);
  const int64_t Ho = static_cast<int64_t>(cy.size()), Wo = static_cast<int64_t>(cx.size());
  const Dims xd{1, 2, H, W}, gd{1, Ho, Wo, 2};
  Rng rng(61);
  Vals x(static_cast<size_t>(count_of(xd)));
  for (double& v : x) v = rng.uniform(1, 2);  // no zero pixel: a lost tap shows
  Vals g;
  for (double yv : cy) {
    for (double xv : cx) {
      g.push_back(grid_for(xv, W, true));
      g.push_back(grid_for(yv, H, true));
    }
  }
  for (GridMode m : {GridMode::Linear, GridMode::Cubic}) {
    const GridSampleAttrs a = attrs_of(m, PaddingMode::Zeros, true);
    for (DType gt : kFloatTypes) {
      const Vals xx = as_type(DType::Float32, x), gg = as_type(gt, g);
      INFO(mode_name(m) << " grid " << osw::dtype_name(gt));
      const auto [fast, gen] = run_fast_and_generic(a, xd, xx, gt, gd, gg);
      const int64_t bad = first_mismatch(fast.y, gen.y, 0.0, 1e-6);
      INFO("first mismatch at " << bad << ": fast path " << (bad >= 0 ? fast.y[bad] : 0.0)
                                << ", generic " << (bad >= 0 ? gen.y[bad] : 0.0));
      CHECK(bad == -1);
      const Vals want = ref::gridsample(xd, xx, gd, gg, a.mode, a.padding, true);
      CHECK(first_mismatch(fast.y, want, 1e-5, 1e-5) == -1);
    }
  }
}

TEST_CASE("gridsample: block size and offset width do not change results", "[gridsample][plan]") {
  Rng rng(7);
  for (GridMode m : kModes) {
    for (PaddingMode p : kPads) {
      const Case c = random_case(rng, 2, 6, 9, true);
      const GridSampleAttrs a = attrs_of(m, p, true);
      for (DType xt : kFloatTypes) {
        const Result base = run_gs(a, xt, c.xd, c.x, DType::Float32, c.gd, c.g);
        REQUIRE(base.status.ok());
        for (int64_t block : {1, 3, 7, 1000}) {
          for (bool wide : {false, true}) {
            osw::gs::Tuning t;
            t.block = block;
            t.wide_offsets = wide;
            const Result r = run_gs(a, xt, c.xd, c.x, DType::Float32, c.gd, c.g, t);
            INFO(mode_name(m) << " " << pad_name(p) << " block " << block << " wide " << wide);
            REQUIRE(r.status.ok());
            CHECK(first_mismatch(r.y, base.y, 0.0, 0.0) == -1);
          }
        }
      }
      osw::gs::Tuning t;
      t.block = 5;
      t.wide_offsets = true;
      check_against_reference(a, c, t);
    }
  }
}
