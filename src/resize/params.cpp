// resize/params.cpp: output shape and per-axis geometry of Resize / Upsample.
#include "resize/params.h"

#include <cmath>
#include <string>

namespace osw {

namespace {

// Largest output length of one axis: indices are int32 in the plans.
constexpr int64_t kMaxAxisLength = (int64_t(1) << 31) - 1;

}  // namespace

Status resize_geometry(const ResizeAttrs& attrs, const ResizeInputs& in, int rank,
                       const int64_t* in_dims, ResizeGeometry* geo) {
  if (rank < 1 || rank > kMaxRank)
    return Status::Range("X: rank must be in [1, " + int_text(kMaxRank) + "], got " +
                         int_text(rank));
  // Enum values the C++ API may be given as any int32 (the JS layer maps names): one the
  // enum does not name is an error, never a silent fallback.
  const struct {
    int32_t v, n;
    const char* what;
  } enums[] = {{int32_t(attrs.mode), 3, "mode"},
               {int32_t(attrs.coord), 7, "coordinate_transformation_mode"},
               {int32_t(attrs.nearest), 5, "nearest_mode"},
               {int32_t(attrs.policy), 3, "keep_aspect_ratio_policy"},
               {int32_t(attrs.compat), 3, "compat"}};
  for (const auto& e : enums)
    if (static_cast<uint32_t>(e.v) >= static_cast<uint32_t>(e.n))
      return Status::Range(std::string(e.what) + ": unknown value " + int_text(e.v));
  geo->rank = rank;
  for (int i = 0; i < rank; ++i) {
    if (in_dims[i] < 0) return Status::Range("X: dimension " + int_text(i) + " is negative");
    if (in_dims[i] > kMaxAxisLength)
      return Status::Range("X: dimension " + int_text(i) + " exceeds 2^31-1");
    AxisGeometry& g = geo->axis[i];
    g = AxisGeometry();
    g.in = in_dims[i];
    g.out = in_dims[i];
  }

  // Which axes the optional inputs list.
  int n = rank;
  int32_t axes[kMaxRank];
  if (in.has_axes) {
    n = in.n_axes;
    if (n < 1 || n > rank)
      return Status::Range("axes: must list between 1 and " + int_text(rank) + " axes, got " +
                           int_text(n));
    bool seen[kMaxRank] = {};
    for (int j = 0; j < n; ++j) {
      int32_t a = in.axes[j];
      if (a < 0 || a >= rank)
        return Status::Range("axes: axis " + int_text(a) + " is out of range for rank " +
                             int_text(rank));
      if (seen[a]) return Status::Range("axes: axis " + int_text(a) + " is repeated");
      seen[a] = true;
      axes[j] = a;
    }
  } else {
    for (int j = 0; j < rank; ++j) axes[j] = j;
  }

  if (in.has_scales == in.has_sizes)
    return Status::Range(in.has_scales ? "scales and sizes: give exactly one, not both"
                                       : "scales and sizes: one of them is required");

  if (in.has_roi) {
    for (int j = 0; j < n; ++j) {
      double s = in.roi[j], e = in.roi[n + j];
      if (!std::isfinite(s) || !std::isfinite(e))
        return Status::Range("roi: values must be finite, got [" + num_text(s) + ", " +
                             num_text(e) + "] for axis " + int_text(axes[j]));
      geo->axis[axes[j]].roi_start = s;
      geo->axis[axes[j]].roi_end = e;
    }
  }

  if (in.has_scales) {
    for (int j = 0; j < n; ++j) {
      double s = in.scales[j];
      if (!(s > 0.0) || !std::isfinite(s))
        return Status::Range("scales: every scale must be finite and greater than 0, got " +
                             num_text(s) + " for axis " + int_text(axes[j]));
      AxisGeometry& g = geo->axis[axes[j]];
      g.scale_num = s;
      g.scale_den = 1.0;
      // Row 6 (and row 5 for tf_crop_and_resize): floor(in * scale) in double. ONNX
      // Runtime multiplies in float32 (compat), which can round 8.99999997 up to 9.
      double o =
          attrs.compat == Compat::OnnxRuntime
              ? std::floor(static_cast<double>(static_cast<float>(s) * static_cast<float>(g.in)))
              : std::floor(static_cast<double>(g.in) * s);
      if (!(o <= static_cast<double>(kMaxAxisLength)))  // NaN too (compat: inf * 0)
        return Status::Range("scales: output length " + num_text(o) + " of axis " +
                             int_text(axes[j]) + " exceeds 2^31-1");
      g.out = static_cast<int64_t>(o);
    }
    return Status::Ok();
  }

  // sizes
  for (int j = 0; j < n; ++j) {
    if (in.sizes[j] < 0)
      return Status::Range("sizes: must be non-negative, got " + int_text(in.sizes[j]) +
                           " for axis " + int_text(axes[j]));
    if (in.sizes[j] > kMaxAxisLength)
      return Status::Range("sizes: " + int_text(in.sizes[j]) + " for axis " + int_text(axes[j]) +
                           " exceeds 2^31-1");
  }
  if (attrs.compat == Compat::OnnxRuntime) {
    // ONNX Runtime: float32 ratios f32(out) / f32(in); with a policy, their min or max, and
    // lengths rounded half away from zero from the float32 product.
    float chosen = 0.0f;
    bool have = false;
    for (int j = 0; j < n; ++j) {
      const AxisGeometry& g = geo->axis[axes[j]];
      if (g.in == 0) continue;
      const float r = static_cast<float>(in.sizes[j]) / static_cast<float>(g.in);
      if (!have || (attrs.policy == AspectPolicy::NotLarger ? r < chosen : r > chosen)) chosen = r;
      have = true;
    }
    for (int j = 0; j < n; ++j) {
      AxisGeometry& g = geo->axis[axes[j]];
      if (attrs.policy == AspectPolicy::Stretch) {
        g.out = in.sizes[j];
        if (g.in > 0) g.scale_num = static_cast<float>(g.out) / static_cast<float>(g.in);
      } else {
        g.scale_num = have ? chosen : 1.0f;
        const double o = std::round(static_cast<float>(g.scale_num) * static_cast<float>(g.in));
        if (!(o <= static_cast<double>(kMaxAxisLength)))
          return Status::Range("sizes: output length of axis " + int_text(axes[j]) +
                               " exceeds 2^31-1");
        g.out = static_cast<int64_t>(o);
      }
      g.scale_den = 1.0;
    }
    return Status::Ok();
  }
  if (attrs.policy == AspectPolicy::Stretch) {
    for (int j = 0; j < n; ++j) {
      AxisGeometry& g = geo->axis[axes[j]];
      g.out = in.sizes[j];
      if (g.in > 0) {
        g.scale_num = static_cast<double>(g.out);
        g.scale_den = static_cast<double>(g.in);
      }
    }
    return Status::Ok();
  }
  // keep_aspect_ratio_policy: one scale for all listed axes, the smallest (not_larger) or
  // largest (not_smaller) of sizes/in; output lengths round half up. Axes of length 0 have
  // no ratio and take no part in the choice.
  int best = -1;
  for (int j = 0; j < n; ++j) {
    const AxisGeometry& g = geo->axis[axes[j]];
    if (g.in == 0) continue;
    if (best < 0) {
      best = j;
      continue;
    }
    const AxisGeometry& b = geo->axis[axes[best]];
    // Compare sizes[j]/in_j with sizes[best]/in_best exactly: cross-multiplied in double
    // is exact for lengths below 2^26; beyond that the error is far below one output pixel.
    double lhs = static_cast<double>(in.sizes[j]) * static_cast<double>(b.in);
    double rhs = static_cast<double>(in.sizes[best]) * static_cast<double>(g.in);
    if (attrs.policy == AspectPolicy::NotLarger ? lhs < rhs : lhs > rhs) best = j;
  }
  double snum = 1.0, sden = 1.0;
  if (best >= 0) {
    snum = static_cast<double>(in.sizes[best]);
    sden = static_cast<double>(geo->axis[axes[best]].in);
  }
  const double scale = snum / sden;
  for (int j = 0; j < n; ++j) {
    AxisGeometry& g = geo->axis[axes[j]];
    g.scale_num = snum;
    g.scale_den = sden;
    double o = std::floor(scale * static_cast<double>(g.in) + 0.5);
    if (!(o <= static_cast<double>(kMaxAxisLength)))
      return Status::Range("sizes: output length of axis " + int_text(axes[j]) + " exceeds 2^31-1");
    g.out = static_cast<int64_t>(o);
  }
  return Status::Ok();
}

}  // namespace osw
