// resize/resize.cpp: plans a Resize and runs it.
//
// Nearest mode is a pure gather of precomputed offsets (any type, bit-exact copies; see
// resize/kernels_nearest.cpp). Linear and cubic run one separable pass per resampled
// axis, in the compute type of X (float for float32, double for float64), downsampling
// axes first so that later passes touch fewer elements; the plan writes the passes down
// as a schedule of steps (build_schedule). Outputs outside a tf_crop_and_resize box are
// filled with extrapolation_value at the end. This file plans and dispatches; the typed
// execution is in resize/exec.h (float32 and uint8 built for speed in
// resize/exec_hot.cpp, the other types for size in resize/exec_cold.cpp).
#include "resize/resize.h"

#include <algorithm>
#include <cstring>

#include "core/elem.h"
#include "core/optimize.h"
#include "resize/exact.h"
#include "resize/exec.h"
#include "resize/kernels.h"
#include "resize/kernels_fixed.h"
#include "resize/kernels_nearest.h"

namespace osw {

// Planning, and the bookkeeping of a run in parts, are not hot loops: compiled for size
// (the download), as resize/kernels_fixed.cpp's table builders are. The per-call path
// (resize_execute) keeps the file's speed. OSW_MINSIZE: core/optimize.h.

// A rough cost of running the passes in this order: per pass, the elements it writes times
// its taps, with contiguous rows (SIMD over the inner elements) and the innermost axis's
// shuffle form cheaper than a scalar innermost pass. The last pass writes Y, whatever the
// order; the others write intermediates (and, when the last two are streamed, one less).
OSW_MINSIZE static double pass_order_cost(const ResizePlan& plan, const int* order) {
  int64_t d[kMaxRank];
  for (int a = 0; a < plan.rank; ++a) d[a] = plan.in_dims[a];
  double cost = 0;
  for (int i = 0; i < plan.n_passes; ++i) {
    const int a = order[i];
    const AxisPlan& ap = plan.axis[a];
    d[a] = plan.out_dims[a];
    double n = 1;
    for (int j = 0; j < plan.rank; ++j) n *= double(d[j]);
    int64_t inner = 1;
    for (int j = a + 1; j < plan.rank; ++j) inner *= d[j];
    // (A pass whose rows are single pixels of 4 channels runs the channels kernel, one
    // vector per output and a load per tap, dearer per tap than a row blend: with 4 or more
    // taps, the outer axis first is faster even where it writes as many elements; 2-tap
    // plans keep the inner axis first, where 2x downscaling has its own pass over two rows.)
    const double per_tap = inner > 4 || (inner == 4 && ap.taps < 4) ? 0.3
                           : inner == 4                             ? 0.4
                                                                    : (ap.blocks > 0 ? 0.4 : 1.0);
    cost += n * ap.taps * per_tap;
  }
  return cost;
}

// The linear/cubic passes as steps. The last two passes are streamed, so the tensor
// between them never exists: an inner axis then an outer one (the usual W-then-H of
// images) as StreamLast, an outer axis then an inner one as StreamGroup (hot: float32 and
// uint8 only; the other types keep the two whole passes, and less code) when a group of
// rows fits a small buffer. The other passes write whole intermediates, alternating TmpA
// and TmpB.
OSW_MINSIZE
static void build_schedule(const ResizePlan& plan, bool hot, ResizeSchedule* sc) {
  const int rank = plan.rank, np = plan.n_passes;
  *sc = ResizeSchedule{};
  int64_t cur[kMaxRank];
  for (int a = 0; a < rank; ++a) cur[a] = plan.in_dims[a];
  if (np == 0) {
    ResizeStep& st = sc->step[sc->n++];
    st.kind = ResizeStep::Copy;
    st.src = ResizeBuf::X;
    st.dst = ResizeBuf::Y;
    st.units = plan.out_elems;
    for (int a = 0; a < rank; ++a) st.dims[a] = cur[a];
    return;
  }
  // compat 'onnxruntime' antialias: every pass writes a whole intermediate (integer types
  // round it before the next pass, RunLayout::round_passes).
  const bool ort_passes = plan.attrs.compat == Compat::OnnxRuntime && plan.attrs.antialias;
  const bool fuse_a = !ort_passes && np >= 2 && plan.order[np - 1] < plan.order[np - 2] &&
                      plan.axis[plan.order[np - 1]].taps <= kMaxStreamTaps;
  bool fuse_b = false;
  if (hot && !fuse_a && !ort_passes && np >= 2 && plan.order[np - 2] < plan.order[np - 1] &&
      plan.axis[plan.order[np - 2]].taps <= kMaxStreamTaps) {
    int64_t d[kMaxRank];
    for (int a = 0; a < rank; ++a) d[a] = cur[a];
    for (int i = 0; i < np - 2; ++i) d[plan.order[i]] = plan.out_dims[plan.order[i]];
    int64_t pair_block = 1;  // elements after the pair's outer axis, before its inner pass
    bool fits = true;
    for (int a = plan.order[np - 2] + 1; a < rank && fits; ++a)
      fits = checked_mul(pair_block, d[a], &pair_block);
    fuse_b = fits && pair_block <= (int64_t(1) << 20);  // a group: 4 rows of <= 2^20 elements
  }
  const bool fuse = fuse_a || fuse_b;
  const int plain = fuse ? np - 2 : np;  // passes run on whole tensors
  {
    // The intermediates: the plain passes' results (but the last one's when not fusing).
    int64_t d[kMaxRank];
    for (int a = 0; a < rank; ++a) d[a] = cur[a];
    const int kept = fuse ? plain : np - 1;
    for (int i = 0; i < kept; ++i) {
      d[plan.order[i]] = plan.out_dims[plan.order[i]];
      int64_t n = 1;
      for (int a = 0; a < rank; ++a)
        if (!checked_mul(n, d[a], &n)) sc->too_large = true;
      if (!sc->too_large) sc->tmp_elems = std::max(sc->tmp_elems, n);
    }
    sc->n_tmp = std::min(kept, 2);
  }
  auto tmp = [](int i) { return i % 2 == 0 ? ResizeBuf::TmpA : ResizeBuf::TmpB; };
  for (int i = 0; i < plain; ++i) {
    const int a = plan.order[i];
    ResizeStep& st = sc->step[sc->n++];
    st.kind = ResizeStep::Pass;
    st.a = a;
    st.src = i == 0 ? ResizeBuf::X : tmp(i - 1);
    st.dst = !fuse && i + 1 == np ? ResizeBuf::Y : tmp(i);
    for (int j = 0; j < rank; ++j) st.dims[j] = cur[j];
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < a; ++j) outer *= cur[j];
    for (int j = a + 1; j < rank; ++j) inner *= cur[j];
    st.units = inner == 1 ? outer : outer * plan.out_dims[a];
    cur[a] = plan.out_dims[a];
  }
  if (!fuse) return;
  ResizeStep& st = sc->step[sc->n++];
  st.kind = fuse_b ? ResizeStep::StreamGroup : ResizeStep::StreamLast;
  st.v = fuse_b ? plan.order[np - 2] : plan.order[np - 1];
  st.h = fuse_b ? plan.order[np - 1] : plan.order[np - 2];
  st.src = plain == 0 ? ResizeBuf::X : tmp(plain - 1);
  st.dst = ResizeBuf::Y;
  for (int j = 0; j < rank; ++j) st.dims[j] = cur[j];
  int64_t outer_v = 1;
  for (int j = 0; j < st.v; ++j) outer_v *= cur[j];
  st.units = outer_v * plan.out_dims[st.v];
}

// What the kernels need besides the axis tables, for the types the plan will run.
OSW_MINSIZE
static Status build_kernel_tables(ResizePlan* plan) {
  if (plan->out_elems == 0) return Status::Ok();
  const DType type = plan->opts.type;
  const bool any = type == DType::Undefined;
  if (plan->attrs.mode == ResizeMode::Nearest) {
    for (size_t es : {size_t(1), size_t(2), size_t(4), size_t(8)}) {
      if (!any && dtype_size(type) != es) continue;
      const int i = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3;
      OSW_RETURN_IF_ERROR(build_nearest_tables(*plan, es, &plan->nearest[i]));
    }
    return Status::Ok();
  }
  build_schedule(*plan, false, &plan->schedule[0]);
  build_schedule(*plan, true, &plan->schedule[1]);
  // uint8 in integers where exact (resize/kernels_fixed.h); compat rounding keeps the float path.
  if ((any || type == DType::UInt8) && plan->attrs.compat == Compat::Onnx &&
      !plan->opts.fixed_disable)
    build_fixed_tables(*plan, plan->opts.fixed_force, &plan->fixed);
  return Status::Ok();
}

OSW_MINSIZE
Status resize_plan(const ResizeAttrs& attrs, const ResizeInputs& inputs, int rank,
                   const int64_t* in_dims, ResizePlan* plan, const ResizeOptions& opts) {
  OSW_RETURN_IF_ERROR(resize_geometry(attrs, inputs, rank, in_dims, &plan->geo));
  plan->rank = rank;
  int64_t out_elems = 1;
  for (int a = 0; a < rank; ++a) {
    plan->in_dims[a] = in_dims[a];
    plan->out_dims[a] = plan->geo.axis[a].out;
    if (!checked_mul(out_elems, plan->out_dims[a], &out_elems))
      return Status::Range("Y: the output has too many elements");
  }
  if (out_elems > 0) {
    for (int a = 0; a < rank; ++a)
      if (in_dims[a] == 0)
        return Status::Range("X: axis " + int_text(a) +
                             " has length 0, so there is nothing to resample into length " +
                             int_text(plan->out_dims[a]));
  }
  plan->n_passes = 0;
  plan->out_elems = out_elems;
  plan->opts = opts;
  // A plan object that is planned again keeps nothing of the previous plan.
  for (NearestTables& t : plan->nearest) t = NearestTables();
  plan->fixed = FixedTables();
  plan->schedule[0] = plan->schedule[1] = ResizeSchedule{};
  // compat 'pytorch' (row 9): PyTorch's antialias filters are ONNX's with exclude_outside
  // and, for cubic, a = -0.5.
  ResizeAttrs eff = attrs;
  if (attrs.compat == Compat::PyTorch && attrs.antialias) {
    eff.exclude_outside = true;
    if (attrs.mode == ResizeMode::Cubic) eff.cubic_a = -0.5;
  }
  plan->attrs = eff;
  // compat 'onnxruntime' (rows 13, 15): an output shaped like the input is a copy of it; an
  // axis of scale exactly 1 (or, with antialias, of unchanged length) is copied as is,
  // its roi ignored.
  bool same_shape = true;
  for (int a = 0; a < rank; ++a) same_shape = same_shape && plan->out_dims[a] == in_dims[a];
  if (out_elems == 0) {
    // An empty output (row 12) needs no tables, however long the other axes are.
    for (int a = 0; a < rank; ++a) {
      AxisPlan& ap = plan->axis[a];
      ap.in = in_dims[a];
      ap.out = plan->out_dims[a];
      ap.taps = 1;
      ap.identity = true;
      ap.any_outside = false;
      ap.blocks = 0;
    }
    return Status::Ok();
  }
  for (int a = 0; a < rank; ++a) {
    OSW_RETURN_IF_ERROR(build_axis_plan(eff, plan->geo.axis[a], &plan->axis[a], opts.max_bytes));
    AxisPlan& ap = plan->axis[a];
    if (attrs.compat == Compat::OnnxRuntime && ap.out == ap.in &&
        (same_shape || static_cast<float>(plan->geo.axis[a].scale()) == 1.0f || attrs.antialias)) {
      // ONNX Runtime copies such an axis whatever its coordinates say: make the tables an
      // exact identity.
      for (int64_t o = 0; o < ap.out; ++o) {
        ap.count[o] = 1;
        ap.index[o * ap.taps] = static_cast<int32_t>(o);
        ap.weight[o * ap.taps] = 1.0;
        ap.weight_f[o * ap.taps] = 1.0f;
        ap.outside[o] = 0;
      }
      ap.identity = true;
      ap.any_outside = false;
      ap.blocks = 0;
    }
    if (!ap.identity) plan->order[plan->n_passes++] = a;
  }
  // compat 'onnxruntime' antialias: ONNX Runtime's order, innermost axis first (the axes
  // were added outermost first).
  if (attrs.compat == Compat::OnnxRuntime && attrs.antialias) {
    std::reverse(plan->order, plan->order + plan->n_passes);
    return build_kernel_tables(plan);
  }
  // Downsampling axes first (smallest out/in), so each pass works on the fewest elements;
  // among equals, inner axes first. With up to 5 passes, every order is then costed and
  // the cheapest kept (ties keep this one).
  // (An insertion sort: at most kMaxRank axes, and std::sort's instantiation is large in
  // osw.wasm. The order is total, so any sort gives the same result.)
  const auto before = [&](int a, int b) {
    const double ra = double(plan->out_dims[a]) * double(in_dims[b]);
    const double rb = double(plan->out_dims[b]) * double(in_dims[a]);
    return ra != rb ? ra < rb : a > b;
  };
  for (int i = 1; i < plan->n_passes; ++i)
    for (int j = i; j > 0 && before(plan->order[j], plan->order[j - 1]); --j)
      std::swap(plan->order[j], plan->order[j - 1]);
  if (plan->n_passes >= 2 && plan->n_passes <= 5) {
    int perm[kMaxRank], best[kMaxRank];
    const int np = plan->n_passes;
    for (int i = 0; i < np; ++i) best[i] = perm[i] = plan->order[i];
    double best_cost = pass_order_cost(*plan, best);
    for (int i = 1; i < np; ++i)
      for (int j = i; j > 0 && perm[j] < perm[j - 1]; --j) std::swap(perm[j], perm[j - 1]);
    do {
      const double c = pass_order_cost(*plan, perm);
      if (c < best_cost * 0.999) {
        best_cost = c;
        std::copy(perm, perm + np, best);
      }
    } while (std::next_permutation(perm, perm + np));
    std::copy(best, best + np, plan->order);
  }
  return build_kernel_tables(plan);
}

static bool is_integer(DType t) {
  switch (t) {
    case DType::UInt8:
    case DType::Int8:
    case DType::UInt16:
    case DType::Int16:
    case DType::Int32:
    case DType::UInt32:
    case DType::Int64:
    case DType::UInt64: return true;
    default: return false;
  }
}

// Bytes of the compute type of a storage type (core/elem.h: double for float64 and for
// integers of 4 or 8 bytes, else float).
static int64_t compute_size(DType t) {
  return t == DType::Float64 || (is_integer(t) && dtype_size(t) >= 4) ? 8 : 4;
}

static bool is_hot(DType t) { return t == DType::Float32 || t == DType::UInt8; }

static int64_t product(const int64_t* dims, int rank) {
  int64_t n = 1;
  for (int a = 0; a < rank; ++a) n *= dims[a];
  return n;
}

OSW_MINSIZE
static Status run_layout(const ResizePlan& plan, DType type, const ResizeWorkspace* shared,
                         RunLayout* lay) {
  *lay = RunLayout();
  if (dtype_size(type) == 0)
    return Status::Type(std::string("X: element type ") + dtype_name(type) + " is not supported");
  if (plan.opts.type != DType::Undefined && type != plan.opts.type)
    return Status::Type(std::string("X: the plan was built for ") + dtype_name(plan.opts.type) +
                        ", not " + dtype_name(type));
  if (plan.attrs.mode == ResizeMode::Nearest) {
    lay->kind = RunLayout::Gather;
    lay->nearest = nearest_tables(plan, dtype_size(type));
    lay->n_steps = 1;
    if (!lay->nearest) return Status::Type("X: no nearest tables for this element size");
    return Status::Ok();
  }
  if (type == DType::UInt8 && plan.fixed.state == 1) {
    lay->kind = RunLayout::Fixed;
    lay->n_steps = 1;
    return Status::Ok();
  }
  lay->kind = RunLayout::Interp;
  if (is_integer(type) && plan.attrs.compat == Compat::OnnxRuntime && plan.attrs.antialias)
    lay->round_passes = type;
  if (!is_hot(type) && type != DType::Float64) {
    // Computed in float (in double for 32- and 64-bit integers) and stored once (core/elem.h):
    // the float32 (float64) run between two conversions.
    lay->convert = true;
    lay->convert_to = compute_size(type) == 8 ? DType::Float64 : DType::Float32;
    // 32-bit integers whose run the float32 arithmetic computes exactly (decided from X's
    // values by resize_prepare_shared: 2x linear of values up to 2^19) run the float32
    // steps, as 16-bit ones do.
    if (shared && shared->int_compute == DType::Float32 && lay->convert_to == DType::Float64)
      lay->convert_to = DType::Float32;
    if (lay->convert_to == DType::Float32 && dtype_size(type) <= 2 && is_integer(type) &&
        lay->round_passes == DType::Undefined) {
      // 8- and 16-bit integers whose float32 error bound is large (16-bit cubic; many
      // axes; not plans computed exactly, whose bound is 0: 16-bit 2x linear) run in
      // double: most outputs would be near a boundary, each rechecked by a
      // sum over every tap of every axis (6 cubic axes: 4096 products per output).
      TensorView t;
      t.type = type;
      double eps_d;
      if (resize_exact_eps(plan, t, &eps_d) > 1e-3) lay->convert_to = DType::Float64;
    }
    lay->sched = &plan.schedule[lay->convert_to == DType::Float32 ? 1 : 0];
    lay->n_steps = lay->sched->n + 1;
  } else if (type == DType::UInt8) {
    // uint8 on the float path: the last step's float output narrowed part by part with the
    // compat's rounding and exact decisions (resize/exact.h), as the converted types'.
    lay->sched = &plan.schedule[1];
    lay->parts = true;
    lay->n_steps = lay->sched->n;
  } else {
    lay->sched = &plan.schedule[type == DType::Float32 ? 1 : 0];
    lay->n_steps = lay->sched->n;
  }
  return Status::Ok();
}

static int64_t step_units(const ResizePlan& plan, const RunLayout& lay, int s) {
  switch (lay.kind) {
    case RunLayout::Gather: return lay.nearest->rows;
    case RunLayout::Fixed: return fixed_units(plan);
    case RunLayout::Interp: break;
  }
  if (lay.convert) {
    if (s == 0) return product(plan.in_dims, plan.rank);
    s -= 1;
  }
  return s < lay.sched->n ? lay.sched->step[s].units : plan.out_elems;  // (the compat rounding)
}

static Status check_tensors(const ResizePlan& plan, const TensorView& x, const TensorView& y) {
  if (x.rank != plan.rank || y.rank != plan.rank)
    return Status::Range("X: rank does not match the plan");
  for (int a = 0; a < plan.rank; ++a) {
    if (x.dims[a] != plan.in_dims[a]) return Status::Range("X: dims do not match the plan");
    if (y.dims[a] != plan.out_dims[a]) return Status::Range("Y: dims do not match the plan");
  }
  if (y.type != x.type) return Status::Type("Y: type must equal X's type");
  return Status::Ok();
}

// What a run decides once from X's values, into the shared workspace (ResizeWorkspace): the
// error bounds of integer outputs, and whether 32-bit integers run in float32. Reading X
// for its largest magnitude (32/64-bit) once per run, not once per range: 12 ranges on
// 2 threads read it 12 times.
OSW_MINSIZE
static void decide(const ResizePlan& plan, const TensorView& x, ResizeWorkspace* shared) {
  shared->int_compute = DType::Undefined;
  shared->eps = shared->eps_d = 0;
  if (plan.attrs.mode == ResizeMode::Nearest || !is_integer(x.type) || plan.out_elems == 0) return;
  if (x.type == DType::UInt8 && plan.fixed.state == 1) return;  // (the integer form)
  if (plan.attrs.compat == Compat::OnnxRuntime && plan.attrs.antialias) return;  // (round_passes)
  bool in_float = false;
  resize_exact_taps_check(plan, &shared->exact.p);
  shared->eps = resize_exact_eps(plan, x, &shared->eps_d, &in_float, &shared->exact.p);
  if ((x.type == DType::Int32 || x.type == DType::UInt32) && in_float)
    shared->int_compute = DType::Float32;
}

OSW_MINSIZE
static Status prepare_shared(const ResizePlan& plan, const RunLayout& lay, DType type,
                             ResizeWorkspace* shared) {
  if (lay.kind != RunLayout::Interp) return Status::Ok();
  const int64_t fsize = lay.convert ? dtype_size(lay.convert_to) : compute_size(type);
  const int64_t limit = plan.opts.max_bytes;
  if (lay.convert) {
    const int64_t es = dtype_size(lay.convert_to);  // (in_elems * 8 < 2^63: checked shapes)
    const int64_t in_bytes = product(plan.in_dims, plan.rank) * es;
    if (shared->xf.size() < in_bytes && !shared->xf.allocate(in_bytes, limit))
      return out_of_memory("X as float", in_bytes, limit);
  }
  const ResizeSchedule& sc = *lay.sched;
  if (sc.too_large) return Status::Range("Y: intermediate too large");
  const int64_t bytes = sc.tmp_elems * fsize;
  for (int i = 0; i < sc.n_tmp; ++i) {
    Buffer<unsigned char>& b = shared->tmp[i];
    if (b.size() < bytes && !b.allocate(bytes, limit))
      return out_of_memory("resize scratch", bytes, limit);
  }
  return Status::Ok();
}

// Bookkeeping per part, not a hot loop: compiled for size (and kept out of run_range).
OSW_MINSIZE __attribute__((noinline)) static Status run_converted(
    const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin, int64_t end,
    const TensorView& x, TensorView* y, ResizeWorkspace* shared, ResizeWorkspace* ws) {
  // A step of the float32 (float64) run, from the shared widened X. The steps before the
  // last write the shared intermediates; the last one writes Y in the compute type in
  // parts of about kConvertPart elements into this thread's own buffer, each narrowed into
  // Y while it is in cache (the whole of Y in float32 would be written to memory and read
  // back, noticeably slower). Each unit of a step is a run of
  // e = out_elems / units contiguous elements of Y (resize/resize.h, ResizeStep), so the part
  // [b, b2) of the units writes elements [b * e, b2 * e), here shifted to the buffer's start.
  // uint8 (lay.parts) has no widening step: its steps read X itself and write float.
  // 2^17 elements (512 KiB of float, 1 MiB of double): a streamed step computes again the
  // rows its first outputs share with the part before, so smaller parts (2^15: 32 rows of
  // 1024) cost 3 more inner-pass rows per 16 in cubic 2x upsampling; 2^17 is faster than
  // 2^15 for the integer and half types and than 2^16 for int32 and uint16; 2^18 is no
  // faster (docs/performance.md, "Resize kernels").
  constexpr int64_t kConvertPart = int64_t(1) << 17;
  const int s0 = lay.convert ? 1 : 0;
  RunLayout f = lay;
  f.convert = false;
  f.n_steps = lay.n_steps - s0;
  TensorView xv = x, yv = *y;
  yv.type = lay.convert_to;
  if (lay.convert) {
    xv.type = lay.convert_to;
    xv.data = shared->xf.data();
  }
  auto step = [&](int64_t b, int64_t e) {
    if (lay.convert_to == DType::Float32)
      return resize_range_hot(plan, f, s - s0, b, e, xv, &yv, shared, ws);
    return resize_range_cold(plan, f, s - s0, b, e, xv, &yv, shared, ws);
  };
  if (s + 1 < lay.n_steps) {
    yv.data = nullptr;  // not written: the step's output is an intermediate
    OSW_RETURN_IF_ERROR(step(begin, end));
    return resize_round_pass(plan, lay, s - s0, xv.data, nullptr, shared, begin, end);
  }
  const int64_t units = step_units(plan, lay, s), per_unit = plan.out_elems / units;
  const int64_t es = dtype_size(lay.convert_to);
  // (At least 16 units where they are rows of up to 2^17 elements: a streamed step starts
  // its row cache again for every part, and 4-row parts of a 1080p RGBA cubic upsampling
  // compute two and a half times the inner pass's rows.)
  int64_t part = std::max<int64_t>(kConvertPart / per_unit,
                                   std::min<int64_t>(16, (kConvertPart << 4) / per_unit));
  // Under a small maxBytes (createSampler({ maxBytes })), smaller parts down to one unit
  // rather than a failed call. Sized by the step, not by the range: the same for every
  // split (under a small maxBytes a run fails or succeeds alike on any thread count).
  part = std::max<int64_t>(1, std::min<int64_t>(part, plan.opts.max_bytes / (per_unit * es)));
  const int64_t bytes = std::min(part, units) * per_unit * es;
  if (ws->wide.size() < bytes && !ws->wide.allocate(bytes, plan.opts.max_bytes))
    return out_of_memory("Y part as float", bytes, plan.opts.max_bytes);
  // Integer outputs: the float values within eps of a rounding boundary are decided again
  // exactly (resize/exact.h).
  // (Not under compat 'onnxruntime' integer antialias: its passes round as ONNX Runtime's
  // integer arithmetic does, lay.round_passes, which the exact value does not model.)
  const bool exact = is_integer(y->type) && lay.round_passes == DType::Undefined;
  double eps_d = shared->eps_d;  // (resize_prepare_shared: once per run, not per range)
  double eps = exact ? shared->eps : 0.0;
  if (lay.convert_to == DType::Float64 && dtype_size(y->type) <= 2) {  // run in double: its
    eps = eps_d;                                                       // bound, no recheck
    eps_d = 1;
  }
  const double dmax = exact ? resize_exact_dmax(plan) : INFINITY;
  const bool snap = eps == 0 || dmax * eps * 4 < 1;
  // (the exact taps found so far for this plan: kept in the workspace between runs)
  ExactTaps** cache = &ws->exact.p;
  if (exact) resize_exact_taps_check(plan, cache);
  for (int64_t b = begin; b < end;) {
    const int64_t e = std::min(end, b + part);
    yv.data = ws->wide.data() - b * per_unit * es;
    OSW_RETURN_IF_ERROR(step(b, e));
    OSW_RETURN_IF_ERROR(resize_round_pass(plan, lay, s - s0, xv.data, yv.data, shared, b, e));
    const bool dbl = lay.convert_to == DType::Float64;
    const int64_t at = b * per_unit, n = (e - b) * per_unit;
    unsigned char* w = ws->wide.data();
    const int64_t done = exact && !dbl
                             ? resize_exact_narrow(plan, x, reinterpret_cast<const float*>(w), y,
                                                   at, n, eps, eps_d, cache, dmax)
                             : 0;
    if (snap && eps > 0)
      resize_exact_snap(w + done * es, dbl, n - done, eps, int(plan.attrs.compat));
    resize_narrow_converted(plan, w + done * es, dbl, y, at + done, n - done);
    if (exact && !snap)
      resize_exact_fix(plan, x, w + done * es, dbl, y, at + done, n - done, eps, eps_d, cache,
                       dmax);
    b = e;
  }
  return Status::Ok();
}

static Status run_range(const ResizePlan& plan, const RunLayout& lay, int s, int64_t begin,
                        int64_t end, const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                        ResizeWorkspace* ws) {
  if (lay.parts) return run_converted(plan, lay, s, begin, end, x, y, shared, ws);
  if (is_hot(x.type)) return resize_range_hot(plan, lay, s, begin, end, x, y, shared, ws);
  if (!lay.convert || s == 0) return resize_range_cold(plan, lay, s, begin, end, x, y, shared, ws);
  return run_converted(plan, lay, s, begin, end, x, y, shared, ws);
}

Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y,
                      ResizeWorkspace* ws) {
  OSW_RETURN_IF_ERROR(check_tensors(plan, x, *y));
  if (y->elements() == 0) return Status::Ok();
  decide(plan, x, ws);
  RunLayout lay;
  OSW_RETURN_IF_ERROR(run_layout(plan, x.type, ws, &lay));
  OSW_RETURN_IF_ERROR(prepare_shared(plan, lay, x.type, ws));
  for (int s = 0; s < lay.n_steps; ++s)
    OSW_RETURN_IF_ERROR(run_range(plan, lay, s, 0, step_units(plan, lay, s), x, y, ws, ws));
  return resize_finish(plan, y);
}

Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y) {
  ResizeWorkspace ws;
  return resize_execute(plan, x, y, &ws);
}

OSW_MINSIZE
Status resize_steps(const ResizePlan& plan, DType type, ResizeStepInfo* info,
                    const ResizeWorkspace* shared) {
  *info = ResizeStepInfo();
  if (plan.out_elems == 0) return Status::Ok();
  RunLayout lay;
  OSW_RETURN_IF_ERROR(run_layout(plan, type, shared, &lay));
  info->n = lay.n_steps;
  for (int s = 0; s < lay.n_steps; ++s) info->units[s] = step_units(plan, lay, s);
  return Status::Ok();
}

OSW_MINSIZE
Status resize_prepare_shared(const ResizePlan& plan, const TensorView& x, ResizeWorkspace* shared) {
  if (plan.out_elems == 0) return Status::Ok();
  decide(plan, x, shared);
  RunLayout lay;
  OSW_RETURN_IF_ERROR(run_layout(plan, x.type, shared, &lay));
  return prepare_shared(plan, lay, x.type, shared);
}

OSW_MINSIZE
Status resize_execute_range(const ResizePlan& plan, int s, int64_t begin, int64_t end,
                            const TensorView& x, TensorView* y, ResizeWorkspace* shared,
                            ResizeWorkspace* ws) {
  OSW_RETURN_IF_ERROR(check_tensors(plan, x, *y));
  if (y->elements() == 0) return Status::Ok();
  RunLayout lay;
  OSW_RETURN_IF_ERROR(run_layout(plan, x.type, shared, &lay));
  if (s < 0 || s >= lay.n_steps) return Status::Range("resize: no such step");
  const int64_t units = step_units(plan, lay, s);
  if (begin < 0 || end > units || begin > end)
    return Status::Range("resize: range outside the step");
  return run_range(plan, lay, s, begin, end, x, y, shared, ws);
}

OSW_MINSIZE
Status resize_check_tensors(const ResizePlan& plan, const TensorView& x, const TensorView& y) {
  return check_tensors(plan, x, y);
}

OSW_MINSIZE
Status resize_finish(const ResizePlan& plan, TensorView* y) {
  if (y->elements() == 0) return Status::Ok();
  bool any_outside = false;
  for (int a = 0; a < plan.rank; ++a) any_outside = any_outside || plan.axis[a].any_outside;
  if (!any_outside) return Status::Ok();
  if (is_hot(y->type))
    resize_finish_hot(plan, y);
  else
    resize_finish_cold(plan, y);
  return Status::Ok();
}

OSW_MINSIZE
Status resize(const ResizeAttrs& attrs, const ResizeInputs& inputs, const TensorView& x,
              TensorView* y) {
  ResizePlan plan;
  ResizeOptions opts;
  opts.type = x.type;
  OSW_RETURN_IF_ERROR(resize_plan(attrs, inputs, x.rank, x.dims, &plan, opts));
  y->rank = plan.rank;
  for (int a = 0; a < plan.rank; ++a) y->dims[a] = plan.out_dims[a];
  return resize_execute(plan, x, y);
}

}  // namespace osw
