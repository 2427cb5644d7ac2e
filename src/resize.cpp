// resize.cpp: plans a Resize and runs it.
//
// Nearest mode is a pure gather of precomputed offsets (any type, bit-exact copies, with
// contiguous runs copied whole). Linear and cubic run one separable pass per resampled
// axis, in the compute type of X (float for float32, double for float64), downsampling
// axes first so that later passes touch fewer elements. Outputs outside a
// tf_crop_and_resize box are filled with extrapolation_value at the end.
#include "resize.h"

#include <algorithm>
#include <cstring>

#include "elem.h"
#include "resize_kernels.h"

namespace osw {

Status resize_plan(const ResizeAttrs& attrs, const ResizeInputs& inputs, int rank,
                   const int64_t* in_dims, ResizePlan* plan) {
  OSW_RETURN_IF_ERROR(resize_geometry(attrs, inputs, rank, in_dims, &plan->geo));
  plan->attrs = attrs;
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
        return Status::Range("X: axis " + std::to_string(a) +
                             " has length 0, so there is nothing to resample into length " +
                             std::to_string(plan->out_dims[a]));
  }
  plan->n_passes = 0;
  // A new plan starts without the previous one's cached buffers.
  plan->nearest_ready = false;
  plan->scratch[0] = Buffer<unsigned char>();
  plan->scratch[1] = Buffer<unsigned char>();
  for (int a = 0; a < rank; ++a) {
    OSW_RETURN_IF_ERROR(build_axis_plan(attrs, plan->geo.axis[a], &plan->axis[a]));
    if (!plan->axis[a].identity) plan->order[plan->n_passes++] = a;
  }
  // Downsampling axes first (smallest out/in), so each pass works on the fewest elements;
  // among equals, inner axes first.
  std::sort(plan->order, plan->order + plan->n_passes, [&](int a, int b) {
    const double ra = double(plan->out_dims[a]) * double(in_dims[b]);
    const double rb = double(plan->out_dims[b]) * double(in_dims[a]);
    return ra != rb ? ra < rb : a > b;
  });
  return Status::Ok();
}

namespace {

// Fills every output whose coordinate lies outside the crop box with value.
template <typename T>
void fill_outside(const ResizePlan& plan, T value, T* y) {
  const int rank = plan.rank;
  for (int a = 0; a < rank; ++a) {
    const AxisPlan& ap = plan.axis[a];
    if (!ap.any_outside) continue;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < a; ++i) outer *= plan.out_dims[i];
    for (int i = a + 1; i < rank; ++i) inner *= plan.out_dims[i];
    for (int64_t p = 0; p < outer; ++p)
      for (int64_t o = 0; o < ap.out; ++o)
        if (ap.outside[o]) std::fill_n(y + (p * ap.out + o) * inner, inner, value);
  }
}

// Nearest: y[o_0, ..., o_r] = x[i_0(o_0), ..., i_r(o_r)]. E is a same-sized unsigned
// integer type: values are copied as bits.
template <typename E>
Status gather_nearest(const ResizePlan& plan, const E* x, E* y) {
  const int rank = plan.rank;
  int last = -1;  // the last axis that is not an identity
  for (int a = 0; a < rank; ++a)
    if (!plan.axis[a].identity) last = a;
  int64_t block = 1;  // trailing identity axes: copied as contiguous blocks
  for (int a = last + 1; a < rank; ++a) block *= plan.in_dims[a];
  if (last < 0) {
    std::memcpy(y, x, sizeof(E) * block);
    return Status::Ok();
  }
  int64_t stride[kMaxRank];
  int64_t s = block;
  for (int a = last; a >= 0; --a) {
    stride[a] = s;
    s *= plan.in_dims[a];
  }
  // Per-axis input offsets of each output index, kept with the plan (element strides do
  // not depend on the element type).
  Buffer<int64_t>* offsets = plan.nearest_offsets;
  if (!plan.nearest_ready) {
    for (int a = 0; a <= last; ++a) {
      const AxisPlan& ap = plan.axis[a];
      if (!offsets[a].allocate(ap.out)) return out_of_memory("nearest offsets", ap.out * 8);
      for (int64_t o = 0; o < ap.out; ++o)
        offsets[a][o] = static_cast<int64_t>(ap.index[o * ap.taps]) * stride[a];
    }
    plan.nearest_ready = true;
  }
  int64_t outer = 1;
  for (int a = 0; a < last; ++a) outer *= plan.out_dims[a];
  const int64_t n_last = plan.out_dims[last];
  const int64_t* off_last = offsets[last].data();
  int64_t pos[kMaxRank] = {};
  E* yp = y;
  for (int64_t p = 0; p < outer; ++p) {
    int64_t base = 0;
    for (int a = 0; a < last; ++a) base += offsets[a][pos[a]];
    const E* xb = x + base;
    if (block == 1) {
      for (int64_t o = 0; o < n_last; ++o) yp[o] = xb[off_last[o]];
    } else {
      for (int64_t o = 0; o < n_last; ++o)
        std::memcpy(yp + o * block, xb + off_last[o], sizeof(E) * block);
    }
    yp += n_last * block;
    for (int a = last - 1; a >= 0; --a) {  // odometer over the outer axes
      if (++pos[a] < plan.out_dims[a]) break;
      pos[a] = 0;
    }
  }
  return Status::Ok();
}

// Linear / cubic: separable passes. T is the storage type, F the compute type.
template <typename T>
Status interpolate(const ResizePlan& plan, const T* x, T* y) {
  using F = typename ElemTraits<T>::Compute;
  const int rank = plan.rank;
  int64_t cur[kMaxRank];
  for (int a = 0; a < rank; ++a) cur[a] = plan.in_dims[a];
  if (plan.n_passes == 0) {
    int64_t n = 1;
    for (int a = 0; a < rank; ++a) n *= cur[a];
    std::memcpy(y, x, sizeof(T) * n);
    return Status::Ok();
  }
  // Intermediate results between passes, in F.
  int64_t scratch = 0;
  {
    int64_t d[kMaxRank];
    for (int a = 0; a < rank; ++a) d[a] = cur[a];
    for (int i = 0; i + 1 < plan.n_passes; ++i) {
      d[plan.order[i]] = plan.out_dims[plan.order[i]];
      int64_t n = 1;
      for (int a = 0; a < rank; ++a)
        if (!checked_mul(n, d[a], &n)) return Status::Range("Y: intermediate too large");
      scratch = std::max(scratch, n);
    }
  }
  // Kept with the plan; grown when a wider compute type needs more.
  const int64_t bytes = scratch * int64_t(sizeof(F));
  for (int i = 0; i < 2 && i + 1 < plan.n_passes; ++i) {
    if (plan.scratch[i].size() < bytes && !plan.scratch[i].allocate(bytes))
      return out_of_memory("resize scratch", bytes);
  }
  F* buf[2] = {reinterpret_cast<F*>(plan.scratch[0].data()),
               reinterpret_cast<F*>(plan.scratch[1].data())};

  for (int i = 0; i < plan.n_passes; ++i) {
    const int a = plan.order[i];
    const AxisPlan& ap = plan.axis[a];
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < a; ++j) outer *= cur[j];
    for (int j = a + 1; j < rank; ++j) inner *= cur[j];
    const F* w = nullptr;
    if constexpr (std::is_same<F, float>::value) w = ap.weight_f.data();
    else w = ap.weight.data();
    const bool first = i == 0, final = i + 1 == plan.n_passes;
    F* dst = final ? nullptr : buf[i % 2];
    const F* src = first ? nullptr : buf[(i + 1) % 2];
    if (first && final) resize_pass<T, T, F>(x, y, outer, inner, ap, w);
    else if (first) resize_pass<T, F, F>(x, dst, outer, inner, ap, w);
    else if (final) resize_pass<F, T, F>(src, y, outer, inner, ap, w);
    else resize_pass<F, F, F>(src, dst, outer, inner, ap, w);
    cur[a] = plan.out_dims[a];
  }
  return Status::Ok();
}

template <typename T>
Status execute_typed(const ResizePlan& plan, const TensorView& x, TensorView* y) {
  const T* xs = static_cast<const T*>(x.data);
  T* ys = static_cast<T*>(y->data);
  if (plan.attrs.mode == ResizeMode::Nearest) {
    Status st;
    switch (sizeof(T)) {
      case 1: st = gather_nearest(plan, reinterpret_cast<const uint8_t*>(xs), reinterpret_cast<uint8_t*>(ys)); break;
      case 2: st = gather_nearest(plan, reinterpret_cast<const uint16_t*>(xs), reinterpret_cast<uint16_t*>(ys)); break;
      case 4: st = gather_nearest(plan, reinterpret_cast<const uint32_t*>(xs), reinterpret_cast<uint32_t*>(ys)); break;
      default: st = gather_nearest(plan, reinterpret_cast<const uint64_t*>(xs), reinterpret_cast<uint64_t*>(ys)); break;
    }
    OSW_RETURN_IF_ERROR(st);
  } else {
    OSW_RETURN_IF_ERROR(interpolate<T>(plan, xs, ys));
  }
  fill_outside<T>(plan, narrow<T>(plan.attrs.extrapolation_value), ys);
  return Status::Ok();
}

}  // namespace

Status resize_execute(const ResizePlan& plan, const TensorView& x, TensorView* y) {
  if (x.rank != plan.rank || y->rank != plan.rank)
    return Status::Range("X: rank does not match the plan");
  for (int a = 0; a < plan.rank; ++a) {
    if (x.dims[a] != plan.in_dims[a]) return Status::Range("X: dims do not match the plan");
    if (y->dims[a] != plan.out_dims[a]) return Status::Range("Y: dims do not match the plan");
  }
  if (y->type != x.type) return Status::Type("Y: type must equal X's type");
  if (y->elements() == 0) return Status::Ok();
  return dispatch_dtype(x.type, "X", [&](auto tag) {
    return execute_typed<decltype(tag)>(plan, x, y);
  });
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
