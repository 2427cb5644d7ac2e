// test_workspace.cpp: a Resize plan is immutable and a run's state is its workspace's.
// A plan run as several sub-ranges of each step, each range with its own workspace (as
// threads would run it), in any order within a step, gives the bytes of one whole run; for
// every mode, several types and ranks 1..5, and every kind of step (plain passes along
// inner and innermost axes, both streamed pairs, the nearest gather, uint8's integer form,
// compat rounding).
#include <catch.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/elem.h"
#include "gridsample/gridsample.h"
#include "resize/resize.h"
#include "test_plan.h"
#include "test_rng.h"

using namespace osw;

namespace {

struct TypeCase {
  DType type;
  size_t size;
};

// Runs the plan's steps in parts: each step's units cut at random points, the parts run in
// a random order, each with one of three workspaces (fresh ones for each step when `fresh`).
Status run_in_parts(Rng& r, const ResizePlan& plan, const TensorView& x, TensorView* y,
                    int* max_parts, int* kinds_split) {
  ResizeWorkspace shared;
  OSW_RETURN_IF_ERROR(resize_prepare_shared(plan, x, &shared));
  ResizeStepInfo info;
  OSW_RETURN_IF_ERROR(resize_steps(plan, x.type, &info, &shared));
  const bool hot = x.type == DType::Float32 || x.type == DType::UInt8;
  for (int s = 0; s < info.n; ++s) {
    const int64_t units = info.units[s];
    std::vector<int64_t> cuts = {0, units};
    const int extra = int(r.range(0, 4));
    for (int i = 0; i < extra && units > 1; ++i) cuts.push_back(r.range(1, units - 1));
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<size_t> order(cuts.size() - 1);
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[size_t(r.range(0, int64_t(i) - 1))]);
    ResizeWorkspace ws[3];
    for (size_t i : order)
      OSW_RETURN_IF_ERROR(resize_execute_range(plan, s, cuts[i], cuts[i + 1], x, y, &shared,
                                               &ws[r.range(0, 2)]));
    *max_parts = std::max(*max_parts, int(order.size()));
    if (order.size() > 1) {
      // Which kind of step was split: 0..3 the schedule's kinds, 4 gather, 5 uint8 fixed,
      // 6 compat rounding.
      int kind = 0;
      if (plan.attrs.mode == ResizeMode::Nearest) kind = 4;
      else if (x.type == DType::UInt8 && plan.fixed.state == 1) kind = 5;
      else if (s >= plan.schedule[hot].n) kind = 6;
      else kind = int(plan.schedule[hot].step[s].kind);
      if (kind == 0) {  // a pass along the innermost axis counts as 7
        const ResizeStep& st = plan.schedule[hot].step[s];
        if (st.a == plan.rank - 1) kind = 7;
      }
      kinds_split[kind] += 1;
    }
  }
  return resize_finish(plan, y);
}

}  // namespace

TEST_CASE("resize workspace: a plan run as sub-ranges with their own workspaces equals one whole run", "[resize][workspace]") {
  Rng r(0x5B1F);
  const TypeCase types[] = {{DType::Float32, 4}, {DType::UInt8, 1}, {DType::Int16, 2},
                            {DType::Float64, 8}, {DType::Int32, 4}, {DType::Float16, 2}};
  int kinds_split[8] = {};
  int checked = 0, max_parts = 0;
  for (int c = 0; c < 640; ++c) {
    // The last 40: uint8 RGBA images 2x up or down (the integer form's steps).
    const bool image = c >= 600;
    ResizeAttrs at;
    at.mode = r.pick({ResizeMode::Nearest, ResizeMode::Linear, ResizeMode::Linear, ResizeMode::Cubic});
    at.antialias = at.mode != ResizeMode::Nearest && r.range(0, 3) == 0;
    at.coord = r.pick({CoordMode::HalfPixel, CoordMode::AlignCorners, CoordMode::Asymmetric,
                       CoordMode::PytorchHalfPixel, CoordMode::TfCropAndResize});
    at.compat = r.pick({Compat::Onnx, Compat::Onnx, Compat::OnnxRuntime, Compat::PyTorch});
    at.extrapolation_value = 7;
    if (image) {
      at.mode = ResizeMode::Linear;
      at.antialias = false;
      at.coord = CoordMode::HalfPixel;
      at.compat = Compat::Onnx;
    }
    const TypeCase t = image ? types[1] : types[r.range(0, 5)];
    const int rank = image ? 4 : int(r.range(1, 5));
    int64_t dims[kMaxRank];
    ResizeInputs in;
    in.has_sizes = true;
    in.has_roi = at.coord == CoordMode::TfCropAndResize;
    for (int a = 0; a < rank; ++a) {
      dims[a] = r.range(1, rank <= 2 ? 40 : 9);
      in.sizes[a] = r.coin() ? dims[a] : r.pick<int64_t>({1, 2, dims[a] / 2 + 1, dims[a] * 2, dims[a] * 2 + 3, dims[a] * 4});
      in.roi[a] = r.real(-0.1, 0.3);
      in.roi[rank + a] = r.real(0.7, 1.1);
    }
    // uint8 RGBA-like images often, so that the integer form appears.
    if (t.type == DType::UInt8 && rank == 4) {
      if (r.coin()) at.compat = Compat::Onnx;
      const bool up = r.range(0, 3) > 0;
      dims[3] = 4;
      in.sizes[3] = 4;
      in.sizes[1] = up ? dims[1] * 2 : dims[1] / 2 + 1;
      in.sizes[2] = up ? dims[2] * 2 : dims[2] / 2 + 1;
    }
    ResizeOptions opts;
    if (r.coin()) opts.type = t.type;  // the plan for this type alone, or for every type
    ResizePlan plan;
    if (!resize_plan(at, in, rank, dims, &plan, opts).ok()) continue;
    int64_t n = 1, m = 1;
    for (int a = 0; a < rank; ++a) {
      n *= dims[a];
      m *= plan.out_dims[a];
    }
    if (m == 0 || m > 300000) continue;
    std::vector<uint8_t> x(size_t(n) * t.size);
    for (uint8_t& b : x) b = uint8_t(r.range(0, 255));
    if (t.type == DType::Float32 || t.type == DType::Float64 || t.type == DType::Float16) {
      // finite values of a sane range (random bytes would be NaN-heavy for float16)
      for (int64_t i = 0; i < n; ++i) {
        const double v = r.real(-300, 300);
        if (t.type == DType::Float32) {
          const float f = float(v);
          std::memcpy(&x[size_t(i) * 4], &f, 4);
        } else if (t.type == DType::Float64) {
          std::memcpy(&x[size_t(i) * 8], &v, 8);
        } else {
          const uint16_t h = half_from_float(float(v));
          std::memcpy(&x[size_t(i) * 2], &h, 2);
        }
      }
    }
    std::vector<uint8_t> want(size_t(m) * t.size, 0x5A), got(want.size(), 0xA5);
    REQUIRE(run_plan(plan, t.type, x.data(), want.data()).ok());
    TensorView xv, yv;
    xv.type = yv.type = t.type;
    xv.rank = yv.rank = rank;
    for (int a = 0; a < rank; ++a) {
      xv.dims[a] = dims[a];
      yv.dims[a] = plan.out_dims[a];
    }
    xv.data = x.data();
    yv.data = got.data();
    INFO("case " << c << " mode " << int(at.mode) << " type " << int(t.type) << " rank " << rank
                 << " compat " << int(at.compat) << " antialias " << at.antialias);
    REQUIRE(run_in_parts(r, plan, xv, &yv, &max_parts, kinds_split).ok());
    REQUIRE(got == want);
    ++checked;
  }
  CHECK(checked > 400);
  CHECK(max_parts >= 4);
  const char* names[8] = {"pass (inner axis)", "streamed last two", "streamed group", "copy",
                          "nearest gather", "uint8 fixed", "compat rounding", "pass (innermost axis)"};
  for (int k : {0, 1, 2, 4, 5, 6, 7}) {
    INFO("steps of kind " << names[k] << " split: " << kinds_split[k]);
    CHECK(kinds_split[k] > 3);
  }
}

TEST_CASE("resize workspace: a plan built for one type refuses another; ranges are checked", "[resize][workspace]") {
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  ResizeInputs in;
  in.has_sizes = true;
  const int64_t dims[2] = {6, 8};
  in.sizes[0] = 12;
  in.sizes[1] = 4;
  ResizeOptions opts;
  opts.type = DType::UInt8;
  ResizePlan plan;
  REQUIRE(resize_plan(at, in, 2, dims, &plan, opts).ok());
  std::vector<float> x(48), y(48);
  const Status st = run_plan(plan, DType::Float32, x.data(), y.data());
  REQUIRE(st.kind == ErrorKind::TypeError);
  std::vector<uint8_t> xb(48), yb(48);
  REQUIRE(run_plan(plan, DType::UInt8, xb.data(), yb.data()).ok());
  TensorView xv, yv;
  xv.type = yv.type = DType::UInt8;
  xv.rank = yv.rank = 2;
  xv.dims[0] = 6;
  xv.dims[1] = 8;
  yv.dims[0] = 12;
  yv.dims[1] = 4;
  xv.data = xb.data();
  yv.data = yb.data();
  ResizeWorkspace ws;
  REQUIRE(resize_prepare_shared(plan, xv, &ws).ok());
  ResizeStepInfo info;
  REQUIRE(resize_steps(plan, DType::UInt8, &info, &ws).ok());
  REQUIRE(info.n >= 1);
  CHECK(!resize_execute_range(plan, 0, 0, info.units[0] + 1, xv, &yv, &ws, &ws).ok());
  CHECK(!resize_execute_range(plan, info.n, 0, 1, xv, &yv, &ws, &ws).ok());
  CHECK(resize_execute_range(plan, 0, 0, info.units[0], xv, &yv, &ws, &ws).ok());
}

// The allocation limit is not a global: each plan is given its own (ResizeOptions::max_bytes,
// gs::Tuning::max_bytes), its tables are allocated under it and so are its runs' buffers.
// Plans with different limits, built and run in turn in one process, each keep theirs.
TEST_CASE("allocation limit: each plan carries its own, and its runs allocate under it", "[resize][workspace]") {
  const auto over = [](const Status& st, const std::string& what, int64_t limit) {
    INFO(st.message);
    CHECK(st.kind == ErrorKind::RangeError);
    const std::string tail = " bytes, more than the limit of " + int_text(limit) + " bytes";
    CHECK(st.message.rfind(what + " needs ", 0) == 0);
    CHECK(st.message.size() > tail.size());
    CHECK(st.message.compare(st.message.size() - tail.size(), tail.size(), tail) == 0);
  };
  // Resize: float32 40^3 -> 80^3, linear: small tables, large intermediates.
  ResizeAttrs at;
  at.mode = ResizeMode::Linear;
  ResizeInputs in;
  in.has_sizes = true;
  int64_t dims[3] = {40, 40, 40};
  for (int a = 0; a < 3; ++a) in.sizes[a] = 80;
  ResizeOptions big, small, tiny;
  big.type = small.type = tiny.type = DType::Float32;
  small.max_bytes = 65536;  // the tables fit (a few KB), a whole intermediate does not
  tiny.max_bytes = 100;     // not even an axis's tables
  ResizePlan pb, ps, pt;
  REQUIRE(resize_plan(at, in, 3, dims, &ps, small).ok());
  over(resize_plan(at, in, 3, dims, &pt, tiny), "a resize plan", 100);
  REQUIRE(resize_plan(at, in, 3, dims, &pb, big).ok());
  Rng r(0x11A7);
  std::vector<float> xs(40 * 40 * 40), ys(80 * 80 * 80), yb(ys.size());
  for (float& v : xs) v = float(r.real(-10, 10));
  TensorView x, y;
  x.type = y.type = DType::Float32;
  x.rank = y.rank = 3;
  for (int a = 0; a < 3; ++a) {
    x.dims[a] = 40;
    y.dims[a] = 80;
  }
  x.data = xs.data();
  for (int round = 0; round < 2; ++round) {
    ResizeWorkspace ws_small, ws_big;
    y.data = ys.data();
    const Status st = resize_execute(ps, x, &y, &ws_small);  // TmpA: 40 x 40 x 80 floats
    over(st, "resize scratch", 65536);
    CHECK(ws_small.tmp[0].size() <= 65536);
    y.data = yb.data();
    CHECK(resize_execute(pb, x, &y, &ws_big).ok());
    CHECK(ws_big.tmp[0].size() > 65536);
  }
  // GridSample: the same plan under a small limit takes smaller blocks and gives the same
  // bytes; a run allocates no more than its plan's limit per array.
  GridSampleAttrs ga;
  ga.mode = GridMode::Linear;
  std::vector<float> gx(64 * 64), gg(64 * 64 * 2), gy_small(64 * 64), gy_big(64 * 64);
  for (float& v : gx) v = float(r.real(-10, 10));
  for (float& v : gg) v = float(r.real(-1.1, 1.1));
  TensorView X, G, Ys, Yb;
  X.type = G.type = Ys.type = Yb.type = DType::Float32;
  X.rank = G.rank = Ys.rank = Yb.rank = 4;
  const int64_t xd[4] = {1, 1, 64, 64}, gd[4] = {1, 64, 64, 2};
  for (int a = 0; a < 4; ++a) {
    X.dims[a] = Ys.dims[a] = Yb.dims[a] = xd[a];
    G.dims[a] = gd[a];
  }
  X.data = gx.data();
  G.data = gg.data();
  Ys.data = gy_small.data();
  Yb.data = gy_big.data();
  gs::Tuning t_small, t_big;
  t_small.max_bytes = 20000;
  GridSamplePlan gp_small, gp_big;
  REQUIRE(gridsample_plan(ga, X, G, Ys, t_small, &gp_small).ok());
  REQUIRE(gridsample_plan(ga, X, G, Yb, t_big, &gp_big).ok());
  CHECK(gp_small.max_bytes == 20000);
  CHECK(gp_big.max_bytes == kDefaultMaxBytes);
  CHECK(gp_big.block == 64 * 64);
  CHECK(gp_small.block < gp_big.block);
  GridSampleWorkspace ws_small, ws_big;
  REQUIRE(gridsample_run(gp_small, gridsample_whole(gp_small), X, G, &Ys, &ws_small).ok());
  REQUIRE(gridsample_run(gp_big, gridsample_whole(gp_big), X, G, &Yb, &ws_big).ok());
  CHECK(std::memcmp(gy_small.data(), gy_big.data(), gy_big.size() * 4) == 0);
  for (const auto& tb : ws_small.tables)
    for (const Buffer<unsigned char>* b : {&tb.fast_pos, &tb.fast_off, &tb.fast_w, &tb.gen_pos,
                                           &tb.gen_off, &tb.gen_w, &tb.gen_count, &tb.zero_runs})
      CHECK(b->size() <= 20000);
  CHECK(ws_big.tables[0].fast_w.size() > 20000);
}
