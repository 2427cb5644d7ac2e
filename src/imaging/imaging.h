// imaging/imaging.h: resizing that reproduces other libraries bit for bit.
//
// These kernels are not ONNX Resize: each reproduces one Python library's resize exactly,
// so that a model trained on images prepared by that library sees the same pixels in the
// browser. They live in their own WebAssembly module (osw-compat.wasm), fetched only by
// programs that ask for a compat mode, so the default download does not grow.
//
// Images: `count` images, each in_h x in_w pixels of `channels` interleaved values (HWC,
// rows contiguous, no padding), resized to out_h x out_w. Channels are independent unless
// a premultiplied alpha is asked for. NCHW data is `count = N * C`, `channels = 1`.
//
// Every function is reentrant (no global state), allocates its scratch with std::malloc and
// returns kOk, kNoMemory (nothing written to y is meaningful) or kBadArgs.
#pragma once

#include <cstdint>

namespace osw {
namespace compat {

enum Result : int { kOk = 0, kNoMemory = 1, kBadArgs = 2 };

struct ImageBatch {
  int64_t count, in_h, in_w, channels, out_h, out_w;
};

// PIL.Image.resize(size, resample) (Pillow 9.4, reducing_gap=None, no box).
enum class PillowFilter : int {
  Nearest = 0,
  Box = 1,
  Bilinear = 2,
  Hamming = 3,
  Bicubic = 4,
  Lanczos = 5
};

// uint8: modes L (channels 1), LA (2), RGB (3), RGBA (4). premultiply: the last channel is
// alpha and the others are premultiplied in 8 bits before resampling and unpremultiplied
// after, as Image.resize does for LA and RGBA with every filter but NEAREST (channels 2 or 4).
int pillow_resize_u8(const uint8_t* x, uint8_t* y, const ImageBatch& g, PillowFilter filter,
                     bool premultiply);
// Mode "F" (float32), every channel resampled alone.
int pillow_resize_f32(const float* x, float* y, const ImageBatch& g, PillowFilter filter);

// cv2.resize(x, dsize, fx, fy, interpolation) (OpenCV 4.6). inv_scale_x/y are OpenCV's:
// out_w / in_w when dsize is given, fx / fy when they are (then out_w = round(in_w * fx)).
// Values are the cv2.INTER_* constants.
enum class CvInterp : int { Nearest = 0, Linear = 1, Cubic = 2, Area = 3, NearestExact = 6 };

int opencv_resize_u8(const uint8_t* x, uint8_t* y, const ImageBatch& g, double inv_scale_x,
                     double inv_scale_y, CvInterp interp);
int opencv_resize_f32(const float* x, float* y, const ImageBatch& g, double inv_scale_x,
                      double inv_scale_y, CvInterp interp);

}  // namespace compat
}  // namespace osw
