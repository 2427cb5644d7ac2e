// resize/exact.h: exact rounding decisions for integer outputs of linear/cubic Resize
// (docs/semantics.md, "integer outputs decided exactly").
//
// Integer outputs are computed in float (8/16-bit) or double (32/64-bit) and rounded by the
// compat's rule. Where the exact value of the interpolation formula lies within the float
// computation's error of a decision boundary (k + 0.5 for half to even and half up, an
// integer for truncation), the float value may round the wrong way. So:
// - resize_exact_eps() bounds the float computation's error for a plan (derivation in
//   resize/exact.cpp),
// - resize_exact_fix() scans computed values that were just narrowed into Y, and each one
//   within eps of a boundary is recomputed from X in exact rational arithmetic (big
//   integers) and its integer written again.
// Compiled for size (a cold file): the scan is one compare per element, and recomputation
// happens only near boundaries.
#pragma once

#include "core/types.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

// The error bound of the float computation of plan's outputs for X (x.type an integer
// type; 32- and 64-bit types read X for its largest magnitude), and in *eps_d that of the same
// computation in double from the plan's double weights (the first recheck of 8- and
// 16-bit outputs). Both are 0 for plans the arithmetic computes exactly (dyadic weights
// of few bits on small enough values: resize/exact.cpp, exact_dyadic).
// *in_float (when given): whether the float32 computation of the plan is exact for X (as
// for 16-bit X, so also for 32-bit X of small values; the caller may then run it in float32).
// cache (when given, see below): an axis whose exact denominator is not common to its
// outputs (antialias, exclude_outside) counts as dyadic when the denominators of all its
// outputs are powers of two (linear antialias by 2x or 4x, edges included), found with its
// exact taps once per cache.
double resize_exact_eps(const ResizePlan& plan, const TensorView& x, double* eps_d,
                        bool* in_float = nullptr, ExactTaps** cache = nullptr);

// What resize_exact_fix() keeps between its calls on one plan (the exact taps and their
// denominators per axis and output index, made when first needed; they depend on the
// plan's attributes and geometry only): *cache starts as nullptr; free it with
// resize_exact_taps_free() (resize/resize.h) once done with it. resize_exact_taps_check() frees
// a cache made for another plan (compared by attributes and geometry), so that one kept
// in a workspace between runs (ResizeWorkspace::exact) serves only the plan it was made for.
void resize_exact_taps_free(ExactTaps* cache);
void resize_exact_taps_check(const ResizePlan& plan, ExactTaps** cache);

// src: n values in the compute type (float, or double: src_double),
// already narrowed into Y's elements [at, at + n); rewrites those within eps of a boundary
// with the exact decision.
void resize_exact_fix(const ResizePlan& plan, const TensorView& x, const void* src, bool src_double,
                      TensorView* y, int64_t at, int64_t n, double eps, double eps_d,
                      ExactTaps** cache, double dmax);

// resize_narrow_converted() and resize_exact_fix() in one pass, for float values into 8-
// and 16-bit Y under half to even or truncation, with SIMD: returns how many of the n
// values it did (the first ones; 0 where it does not apply), the rest left to those two.
int64_t resize_exact_narrow(const ResizePlan& plan, const TensorView& x, const float* src,
                            TensorView* y, int64_t at, int64_t n, double eps, double eps_d,
                            ExactTaps** cache, double dmax);

// When resize_exact_dmax(plan) * eps * 4 < 1, instead of resize_exact_fix() before the
// narrowing: each of the n computed values (float, or double) within eps of a boundary is
// set to that boundary (k + 1/2, or an integer for truncation: mode 1), which the
// narrowing then rounds by the compat's rule.
void resize_exact_snap(void* src, bool src_double, int64_t n, double eps, int mode);

// (resize/exact_scan.cpp's helpers in resize/exact.cpp.) A new cache (nullptr when out of
// memory); the product of the exact denominators over the axes of Y's element at
// multi-index idx, inside any crop box (inf: unknown); element i decided in big integers and
// stored (v: its computed value; cache may be nullptr).
ExactTaps* resize_exact_taps_new(const ResizePlan& plan);
// A bound of the exact denominator of every output of the plan (inf when not known): when
// it is below 1 / (4 eps), a value within eps of a boundary is that boundary (snap).
double resize_exact_dmax(const ResizePlan& plan);
double resize_exact_den(const ResizePlan& plan, const int64_t* idx, ExactTaps* cache);
void resize_exact_slow(const ResizePlan& plan, const TensorView& x, TensorView* y, int64_t i,
                       double v, ExactTaps* cache);
// Whether the plan computes every output exactly in double from its weights (the recheck's
// sums) for X of 8 or 16 bits (magnitudes up to 2^16): exact_dyadic's test with the exact
// taps of every output, however many (resize_exact_eps stops at 2^12 cubic taps an axis:
// beyond, their cost is a large part of a resize). Made once per cache, once 16 outputs were left
// undecided by the recheck in double and by their denominators: exact ties of such plans
// are common in images (an edge between two flat regions whose values differ by an odd
// number gives k + 1/2 beside it), and each took tens of microseconds in the big integers.
bool resize_exact_in_double(const ResizePlan& plan, ExactTaps* cache);
// Compat 'onnxruntime' (truncation; its exact taps are the plan's): whether X holds one value
// over every input the exact taps of the output at multi-index idx (X's strides: stride)
// can read, and in *at the offset of one of them (resize/exact_scan.cpp).
bool resize_flat_box(const ResizePlan& plan, const TensorView& x, const int64_t* idx,
                     const int64_t* stride, int64_t* at);

}  // namespace osw
