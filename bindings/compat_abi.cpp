// compat_abi.cpp: the boundary of osw-compat.wasm, the module of the compat kernels
// (src/imaging/imaging.h: Pillow's and OpenCV's resize, bit for bit).
//
// A side module (no Emscripten glue, no Embind; CMakeLists.txt): bindings/compat.js
// instantiates it into the memory of a sampler's osw.wasm instance, whose malloc and free it
// imports, and calls osw_compat_resize on images where they are in that memory. Numbers cross
// as f64 (exact for every size wasm32 memory can hold) and pointers as u32, so no BigInt is
// involved.
#include <cstdint>

#include "imaging/imaging.h"

#define OSW_EXPORT(name) extern "C" __attribute__((used, export_name(#name)))

// lib: 0 Pillow, 1 OpenCV; dtype: 0 uint8, 1 float32; method: the PillowFilter or CvInterp
// value; flags: bit 0 premultiply (Pillow, uint8). Returns a compat::Result.
OSW_EXPORT(osw_compat_resize)
int osw_compat_resize(int lib, int dtype, int method, const void* x, void* y, double count,
                      double in_h, double in_w, double channels, double out_h, double out_w,
                      double inv_scale_x, double inv_scale_y, int flags) {
  using namespace osw::compat;
  const ImageBatch g{int64_t(count),    int64_t(in_h),  int64_t(in_w),
                     int64_t(channels), int64_t(out_h), int64_t(out_w)};
  if (g.count < 0 || g.in_h < 1 || g.in_w < 1 || g.channels < 1 || g.out_h < 1 || g.out_w < 1)
    return kBadArgs;
  if (lib == 0 && method >= 0 && method <= int(PillowFilter::Lanczos)) {
    const PillowFilter f = PillowFilter(method);
    if (dtype == 0)
      return pillow_resize_u8(static_cast<const uint8_t*>(x), static_cast<uint8_t*>(y), g, f,
                              flags & 1);
    if (dtype == 1)
      return pillow_resize_f32(static_cast<const float*>(x), static_cast<float*>(y), g, f);
  }
  if (lib == 1 && (method == int(CvInterp::Nearest) || method == int(CvInterp::Linear) ||
                   method == int(CvInterp::Cubic) || method == int(CvInterp::Area) ||
                   method == int(CvInterp::NearestExact))) {
    const CvInterp m = CvInterp(method);
    if (dtype == 0)
      return opencv_resize_u8(static_cast<const uint8_t*>(x), static_cast<uint8_t*>(y), g,
                              inv_scale_x, inv_scale_y, m);
    if (dtype == 1)
      return opencv_resize_f32(static_cast<const float*>(x), static_cast<float*>(y), g, inv_scale_x,
                               inv_scale_y, m);
  }
  return kBadArgs;
}
