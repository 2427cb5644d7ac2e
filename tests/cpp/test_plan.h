// test_plan.h: running a Resize plan on buffers the test owns (a step many tests share).
#pragma once

#include "resize/resize.h"

// Runs plan on x into y, shaped as the plan says (plan.in_dims, plan.out_dims), elements
// of type t.
inline osw::Status run_plan(const osw::ResizePlan& plan, osw::DType t, const void* x, void* y) {
  osw::TensorView xv, yv;
  xv.type = yv.type = t;
  xv.rank = yv.rank = plan.rank;
  for (int a = 0; a < plan.rank; ++a) {
    xv.dims[a] = plan.in_dims[a];
    yv.dims[a] = plan.out_dims[a];
  }
  xv.data = const_cast<void*>(x);
  yv.data = y;
  return osw::resize_execute(plan, xv, &yv);
}

namespace osw_test {

// A view of data with the given type and dims (the test owns the buffer).
inline osw::TensorView view(osw::DType t, int rank, const int64_t* dims, void* data) {
  osw::TensorView v;
  v.type = t;
  v.rank = rank;
  for (int a = 0; a < rank; ++a) v.dims[a] = dims[a];
  v.data = data;
  return v;
}

}  // namespace osw_test
