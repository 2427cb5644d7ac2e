// test_gridsample_ranges.cpp: a GridSample run split into ranges, each with its own
// workspace, gives the whole run's bytes; ranges outside the plan are refused.
#include "gridsample_cases.h"

// ---- plan, workspace and ranges -----------------------------------------------------------

namespace {

const DType kAllTypes[] = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
                           DType::Int8,    DType::UInt8,   DType::Int16,   DType::UInt16,
                           DType::Int32,   DType::UInt32,  DType::Int64,   DType::UInt64,
                           DType::Bool};

// X of any type as bytes: float32 and float64 values in [-2, 2], random bytes otherwise
// (any bytes are a value of an integer type; float16 and bfloat16 get NaNs and Infs too;
// bool, any non-zero byte reads as 1).
std::vector<unsigned char> random_x(Rng& rng, DType t, int64_t n) {
  const size_t es = osw::dtype_size(t);
  std::vector<unsigned char> b(static_cast<size_t>(n) * es);
  if (t == DType::Float32 || t == DType::Float64) {
    Vals v(static_cast<size_t>(n));
    for (double& e : v) e = rng.uniform(-2, 2);
    return encode(t, v);
  }
  for (unsigned char& c : b) c = static_cast<unsigned char>(rng.next());
  return b;
}

// [0, S) cut into 1 to 4 random parts: the boundaries, 0 first and S last.
std::vector<int64_t> random_cuts(Rng& rng, int64_t S) {
  std::vector<int64_t> c{0, S};
  const int64_t parts = std::min<int64_t>(S, rng.range(1, 4));
  while (static_cast<int64_t>(c.size()) < parts + 1) {
    const int64_t v = rng.range(1, std::max<int64_t>(1, S - 1));
    if (std::find(c.begin(), c.end(), v) == c.end() && v < S) c.push_back(v);
  }
  std::sort(c.begin(), c.end());
  return c;
}

// Whether output location j of a batch item lies in block k of the plan (GridSamplePlan's
// description of its blocks).
bool in_block(const osw::GridSamplePlan& plan, int64_t k, int64_t j) {
  if (plan.path != osw::GridSamplePlan::Path::Fast2d) return j / plan.block == k;
  const int64_t r = j / plan.geo.out_w, c = j % plan.geo.out_w;
  return r / plan.th == k / plan.blocks_w && c / plan.tw == k % plan.blocks_w;
}

struct RangeCase {
  GridSampleAttrs attrs;
  DType xt, gt;
  Dims xd, gd;
  std::vector<unsigned char> x, g;
  osw::gs::Tuning tuning;
};

// The case's X and grid (copies a run reads) with their views, and Y's view (no data yet).
struct CaseTensors {
  std::vector<unsigned char> xb, gb;
  osw::TensorView X, G, Y;
};
CaseTensors tensors_of(const RangeCase& c) {
  CaseTensors t{c.x, c.g, {}, {}, {}};
  t.X = view_of(c.xt, c.xd, t.xb.empty() ? nullptr : t.xb.data());
  t.G = view_of(c.gt, c.gd, t.gb.empty() ? nullptr : t.gb.data());
  REQUIRE(osw::gridsample_output_shape(t.X, t.G, &t.Y).ok());
  t.Y.type = c.xt;
  return t;
}

// Y of the case, poisoned (0xA5 bytes), then the part `range` of it run with ws.
osw::Status run_part(const RangeCase& c, const osw::GridSamplePlan& plan,
                     const osw::GridSampleRange& range, osw::GridSampleWorkspace* ws,
                     std::vector<unsigned char>* yb) {
  CaseTensors t = tensors_of(c);
  t.Y.data = yb->empty() ? nullptr : yb->data();
  return osw::gridsample_run(plan, range, t.X, t.G, &t.Y, ws);
}

// Runs the case whole (gridsample_tuned) and as random parts, each with its own workspace
// and in reverse order, and once more as the same parts through one workspace that earlier
// (other) runs left dirty; all three must give the same bytes. Then one random part alone
// must write exactly its own elements. Returns the plan's path.
osw::GridSamplePlan::Path check_ranges(Rng& rng, const RangeCase& c, osw::GridSampleWorkspace* dirty) {
  CaseTensors t = tensors_of(c);
  const osw::TensorView &X = t.X, &G = t.G;
  osw::TensorView& Y = t.Y;
  const size_t es = osw::dtype_size(c.xt);
  const size_t y_bytes = static_cast<size_t>(Y.elements()) * es;
  std::vector<unsigned char> whole(y_bytes, 0xA5);
  Y.data = whole.empty() ? nullptr : whole.data();
  REQUIRE(osw::gs::gridsample_tuned(c.attrs, X, G, &Y, c.tuning).ok());

  osw::GridSamplePlan plan;
  REQUIRE(osw::gridsample_plan(c.attrs, X, G, Y, c.tuning, &plan).ok());
  const osw::GridSampleRange all = osw::gridsample_whole(plan);
  CHECK(all.n_end == plan.geo.n);
  CHECK(all.c_end == plan.geo.c);
  CHECK(all.block_end == plan.blocks);
  const std::vector<int64_t> nc = random_cuts(rng, plan.geo.n), bc = random_cuts(rng, plan.blocks),
                             cc = random_cuts(rng, plan.geo.c);
  std::vector<osw::GridSampleRange> parts;
  for (size_t i = 0; i + 1 < nc.size(); ++i)
    for (size_t k = 0; k + 1 < bc.size(); ++k)
      for (size_t h = 0; h + 1 < cc.size(); ++h)
        parts.push_back(osw::GridSampleRange{nc[i], nc[i + 1], bc[k], bc[k + 1], cc[h], cc[h + 1]});
  INFO("X " << osw::dtype_name(c.xt) << dims_str(c.xd) << " grid " << osw::dtype_name(c.gt)
            << dims_str(c.gd) << " " << mode_name(c.attrs.mode) << " " << pad_name(c.attrs.padding)
            << " align " << c.attrs.align_corners << " rounding " << c.attrs.integer_rounding
            << " tuning block " << c.tuning.block << " path " << static_cast<int>(plan.path)
            << ", " << plan.blocks << " blocks, " << parts.size() << " parts");

  std::vector<unsigned char> split(y_bytes, 0xA5), shared(y_bytes, 0xA5);
  std::vector<osw::GridSampleWorkspace> own(parts.size());
  for (size_t i = parts.size(); i-- > 0;) REQUIRE(run_part(c, plan, parts[i], &own[i], &split).ok());
  CHECK(split == whole);
  for (const osw::GridSampleRange& r : parts) REQUIRE(run_part(c, plan, r, dirty, &shared).ok());
  CHECK(shared == whole);

  // One part alone: its elements as in the whole run, every other byte still poison.
  const osw::GridSampleRange one = parts[static_cast<size_t>(rng.range(0, static_cast<int64_t>(parts.size()) - 1))];
  std::vector<unsigned char> alone(y_bytes, 0xA5);
  osw::GridSampleWorkspace ws;
  REQUIRE(run_part(c, plan, one, &ws, &alone).ok());
  const int64_t out_size = plan.geo.out_size;
  int64_t bad = -1;
  for (int64_t e = 0; e < static_cast<int64_t>(y_bytes / es) && bad < 0; ++e) {
    const int64_t j = e % out_size, ch = (e / out_size) % plan.geo.c, n = e / out_size / plan.geo.c;
    bool inside = n >= one.n_begin && n < one.n_end && ch >= one.c_begin && ch < one.c_end;
    bool in_some_block = false;
    for (int64_t k = one.block_begin; inside && k < one.block_end && !in_some_block; ++k)
      in_some_block = in_block(plan, k, j);
    inside = inside && in_some_block;
    const size_t at = static_cast<size_t>(e) * es;
    for (size_t i = 0; i < es; ++i) {
      if (alone[at + i] != (inside ? whole[at + i] : 0xA5)) bad = e;
    }
  }
  INFO("one part: n [" << one.n_begin << ", " << one.n_end << ") blocks [" << one.block_begin
                       << ", " << one.block_end << ") channels [" << one.c_begin << ", "
                       << one.c_end << "): first wrong element " << bad);
  CHECK(bad == -1);
  return plan.path;
}

}  // namespace

TEST_CASE("gridsample: a run split into ranges, each with its own workspace, gives the whole run's bytes", "[gridsample][exec]") {
  Rng rng(23);
  osw::GridSampleWorkspace dirty;  // shared by every case: left dirty by the one before
  int64_t paths[4] = {0, 0, 0, 0};
  for (int r = 1; r <= 4; ++r) {
    for (GridMode m : kModes) {
      for (PaddingMode p : kPads) {
        const int reps = r == 2 ? 6 : 2;
        for (int rep = 0; rep < reps; ++rep) {
          RangeCase c;
          c.attrs = attrs_of(m, p, rng.range(0, 1) != 0);
          // 2-D: float32 X half the time (the fast path), else any type.
          c.xt = r == 2 && rep % 2 == 0 ? DType::Float32 : kAllTypes[rng.range(0, 12)];
          c.gt = rng.range(0, 1) ? DType::Float32 : DType::Float64;
          if (c.xt != DType::Float32 && c.xt != DType::Float64)
            c.attrs.integer_rounding = static_cast<int32_t>(rng.range(0, 2));
          const int64_t max_in = r <= 2 ? 7 : 3, max_out = r == 1 ? 40 : r == 2 ? 13 : 4;
          c.xd = {rng.range(1, 3), rng.range(1, 4)};
          c.gd = {c.xd[0]};
          for (int a = 0; a < r; ++a) c.xd.push_back(rng.range(1, max_in));
          for (int a = 0; a < r; ++a) c.gd.push_back(rng.range(1, max_out));
          c.gd.push_back(r);
          // Sometimes X with a spatial length 0 (zeros padding only).
          if (p == PaddingMode::Zeros && rep == 1) c.xd[2] = 0;
          c.x = random_x(rng, c.xt, count_of(c.xd));
          Vals g(static_cast<size_t>(count_of(c.gd)));
          for (size_t i = 0; i < g.size(); ++i) {
            const int64_t L = std::max<int64_t>(1, c.xd[2 + (r - 1 - static_cast<int>(i % r))]);
            g[i] = r == 2 ? fast_grid_value(rng, L, c.attrs.align_corners)
                          : random_grid_value(rng, L, c.attrs.align_corners);
          }
          c.g = encode(c.gt, as_type(c.gt, g));
          // Blocks of a few locations, so that there are many (and default blocks too).
          const int64_t blocks[] = {0, 1, 2, 3, 5, 7, 16};
          c.tuning.block = blocks[rng.range(0, 6)];
          c.tuning.wide_offsets = rng.range(0, 3) == 0;
          ++paths[static_cast<int>(check_ranges(rng, c, &dirty))];
        }
      }
    }
  }
  CHECK(paths[static_cast<int>(osw::GridSamplePlan::Path::EmptyInput)] > 0);
  CHECK(paths[static_cast<int>(osw::GridSamplePlan::Path::Generic)] > 20);
  CHECK(paths[static_cast<int>(osw::GridSamplePlan::Path::Fast2d)] > 10);
  CHECK(dirty.bytes() > 0);
  dirty.reset();
  CHECK(dirty.bytes() == 0);
}

TEST_CASE("gridsample: a range outside the plan is refused; an empty one writes nothing", "[gridsample][exec]") {
  const Dims xd{2, 3, 4, 5}, gd{2, 3, 3, 2};
  Vals x(static_cast<size_t>(count_of(xd)), 1.0), g(static_cast<size_t>(count_of(gd)), 0.25);
  std::vector<unsigned char> xb = encode(DType::Float32, x), gb = encode(DType::Float32, g);
  osw::TensorView X = view_of(DType::Float32, xd, xb.data()), G = view_of(DType::Float32, gd, gb.data());
  osw::TensorView Y;
  REQUIRE(osw::gridsample_output_shape(X, G, &Y).ok());
  Y.type = DType::Float32;
  std::vector<unsigned char> yb(static_cast<size_t>(Y.elements()) * 4, 0xA5);
  Y.data = yb.data();
  osw::GridSamplePlan plan;
  REQUIRE(osw::gridsample_plan(attrs_of(GridMode::Linear, PaddingMode::Zeros, false), X, G, Y,
                               osw::gs::Tuning(), &plan).ok());
  osw::GridSampleWorkspace ws;
  const osw::GridSampleRange all = osw::gridsample_whole(plan);
  for (int field = 0; field < 6; ++field) {
    for (int64_t delta : {-1, 1}) {
      osw::GridSampleRange r = all;
      int64_t* f[] = {&r.n_begin, &r.n_end, &r.block_begin, &r.block_end, &r.c_begin, &r.c_end};
      // begin - 1 or end + 1: outside; begin + 1 past end, or end - 1 below begin where
      // the part is one long: a negative length.
      *f[field] += (field % 2 == 0) ? (delta < 0 ? -1 : all.n_end + all.block_end + all.c_end)
                                    : (delta > 0 ? 1 : -(all.n_end + all.block_end + all.c_end));
      const osw::Status st = osw::gridsample_run(plan, r, X, G, &Y, &ws);
      INFO("field " << field << " delta " << delta);
      CHECK(st.kind == osw::ErrorKind::RangeError);
    }
  }
  osw::GridSampleRange empty = all;
  empty.c_end = empty.c_begin;
  REQUIRE(osw::gridsample_run(plan, empty, X, G, &Y, &ws).ok());
  CHECK(std::all_of(yb.begin(), yb.end(), [](unsigned char b) { return b == 0xA5; }));
  CHECK(ws.bytes() == 0);
}
