// resize_exact.h: exact rounding decisions for integer outputs of linear/cubic Resize
// (issue 18 (a); docs/semantics.md, "integer outputs decided exactly").
//
// Integer outputs are computed in float (8/16-bit) or double (32/64-bit) and rounded by the
// compat's rule. Where the exact value of the interpolation formula lies within the float
// computation's error of a decision boundary (k + 0.5 for half to even and half up, an
// integer for truncation), the float value may round the wrong way. So:
// - resize_exact_eps() bounds the float computation's error for a plan (derivation in
//   resize_exact.cpp),
// - resize_exact_fix() scans computed values that were just narrowed into Y, and each one
//   within eps of a boundary is recomputed from X in exact rational arithmetic (big
//   integers) and its integer written again.
// Compiled for size (a cold file): the scan is one compare per element, and recomputation
// happens only near boundaries.
#pragma once

#include "common.h"

namespace osw {

struct ResizePlan;

// The error bound of the float computation of plan's outputs for X (x.type an integer
// type; 64-bit types read X for its largest magnitude), and in *eps_d that of the same
// computation in double from the plan's double weights (the first recheck of 8- and
// 16-bit outputs).
double resize_exact_eps(const ResizePlan& plan, const TensorView& x, double* eps_d);

// src: n values in the compute type (float, or double: src_double),
// already narrowed into Y's elements [at, at + n); rewrites those within eps of a boundary
// with the exact decision.
void resize_exact_fix(const ResizePlan& plan, const TensorView& x, const void* src, bool src_double,
                      TensorView* y, int64_t at, int64_t n, double eps, double eps_d);

}  // namespace osw
