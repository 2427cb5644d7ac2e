// resize/workspace.h: what a Resize run writes besides Y (ResizeWorkspace: whole
// intermediates, row caches, strips, the exact decisions' cache), one owner per workspace.
// The plan it runs is resize/plan.h's; the kernels that use the buffers are below
// resize/exec.h.
#pragma once

#include "core/types.h"

namespace osw {

// The exact taps and denominators of integer outputs (resize/exact.h): made when first
// needed, kept between the runs of one plan (made again for another), freed with the
// workspace.
struct ExactTaps;
void resize_exact_taps_free(ExactTaps* cache);
struct ExactCache {
  ExactTaps* p = nullptr;
  ExactCache() = default;
  ExactCache(const ExactCache&) = delete;
  ExactCache& operator=(ExactCache&& o) noexcept {
    ExactTaps* t = p;
    p = o.p;
    o.p = t;  // (freed with the moved-from one)
    return *this;
  }
  ~ExactCache() { resize_exact_taps_free(p); }
};

// Everything a run writes besides Y. One owner (a caller, a thread); reset() frees it all.
// Buffers grow as runs need them and are kept, so repeated runs do not allocate.
struct ResizeWorkspace {
  Buffer<unsigned char> tmp[2];  // TmpA, TmpB: whole intermediates
  Buffer<unsigned char> rows;    // a streamed pair's row cache or row group; uint8's sums
  Buffer<float> strip;           // the transposed strip of the 4-row kernel
  Buffer<unsigned char>
      wide;  // a run in parts (converted types, uint8): a part of Y in the compute type
  Buffer<unsigned char> xf;  // a converted run: X widened to float32 or float64 (resize/exec.h)
  // What resize_prepare_shared() decides once per run from X's values (the shared
  // workspace's; every range reads them): for 32-bit integer X, Float32 where the plan
  // computes this X exactly in float32 (resize/exact.h), else Undefined (float64, their
  // compute type); the error bounds of integer outputs (resize_exact_eps).
  DType int_compute = DType::Undefined;
  double eps = 0, eps_d = 0;
  ExactCache exact;
  void reset() { *this = ResizeWorkspace(); }
};

}  // namespace osw
