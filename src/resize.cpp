// resize.cpp: plans a Resize and runs it.
//
// Nearest mode is a pure gather of precomputed offsets (any type, bit-exact copies; see
// resize_nearest.cpp). Linear and cubic run one separable pass per resampled
// axis, in the compute type of X (float for float32, double for float64), downsampling
// axes first so that later passes touch fewer elements. Outputs outside a
// tf_crop_and_resize box are filled with extrapolation_value at the end. This file plans
// and dispatches; the typed execution is in resize_exec.h (float32 and uint8 built for
// speed in resize_exec_hot.cpp, the other types for size in resize_exec_cold.cpp).
#include "resize.h"

#include <algorithm>
#include <cstring>

#include "elem.h"
#include "resize_exec.h"
#include "resize_kernels.h"

namespace osw {

// A rough cost of running the passes in this order: per pass, the elements it writes times
// its taps, with contiguous rows (SIMD over the inner elements) and the innermost axis's
// shuffle form cheaper than a scalar innermost pass. The last pass writes Y, whatever the
// order; the others write intermediates (and, when the last two are streamed, one less).
static double pass_order_cost(const ResizePlan& plan, const int* order) {
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
    const double per_tap = inner >= 4 ? 0.3 : (ap.blocks > 0 ? 0.4 : 1.0);
    cost += n * ap.taps * per_tap;
  }
  return cost;
}

Status resize_plan(const ResizeAttrs& attrs, const ResizeInputs& inputs, int rank,
                   const int64_t* in_dims, ResizePlan* plan) {
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
  // A new plan starts without the previous one's cached buffers.
  plan->nearest_ready = false;
  plan->fixed = FixedCache();
  plan->scratch[0] = Buffer<unsigned char>();
  plan->scratch[1] = Buffer<unsigned char>();
  plan->extra_scratch = Buffer<unsigned char>();
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
    OSW_RETURN_IF_ERROR(build_axis_plan(eff, plan->geo.axis[a], &plan->axis[a]));
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
  // Downsampling axes first (smallest out/in), so each pass works on the fewest elements;
  // among equals, inner axes first. With up to 5 passes, every order is then costed and
  // the cheapest kept (ties keep this one).
  std::sort(plan->order, plan->order + plan->n_passes, [&](int a, int b) {
    const double ra = double(plan->out_dims[a]) * double(in_dims[b]);
    const double rb = double(plan->out_dims[b]) * double(in_dims[a]);
    return ra != rb ? ra < rb : a > b;
  });
  if (plan->n_passes >= 2 && plan->n_passes <= 5) {
    int perm[kMaxRank], best[kMaxRank];
    const int np = plan->n_passes;
    for (int i = 0; i < np; ++i) best[i] = perm[i] = plan->order[i];
    double best_cost = pass_order_cost(*plan, best);
    std::sort(perm, perm + np);
    do {
      const double c = pass_order_cost(*plan, perm);
      if (c < best_cost * 0.999) {
        best_cost = c;
        std::copy(perm, perm + np, best);
      }
    } while (std::next_permutation(perm, perm + np));
    std::copy(best, best + np, plan->order);
  }
  return Status::Ok();
}

Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y) {
  if (x.rank != plan.rank || y->rank != plan.rank)
    return Status::Range("X: rank does not match the plan");
  for (int a = 0; a < plan.rank; ++a) {
    if (x.dims[a] != plan.in_dims[a]) return Status::Range("X: dims do not match the plan");
    if (y->dims[a] != plan.out_dims[a]) return Status::Range("Y: dims do not match the plan");
  }
  if (y->type != x.type) return Status::Type("Y: type must equal X's type");
  if (y->elements() == 0) return Status::Ok();
  if (x.type == DType::Float32 || x.type == DType::UInt8) return resize_execute_hot(plan, x, y);
  return resize_execute_cold(plan, x, y);
}

Status resize(const ResizeAttrs& attrs, const ResizeInputs& inputs, const TensorView& x,
              TensorView* y) {
  ResizePlan plan;
  OSW_RETURN_IF_ERROR(resize_plan(attrs, inputs, x.rank, x.dims, &plan));
  y->rank = plan.rank;
  for (int a = 0; a < plan.rank; ++a) y->dims[a] = plan.out_dims[a];
  return resize_execute(plan, x, y);
}

}  // namespace osw
