// embind.cpp: the boundary between the JS API (bindings/api.js) and the C++ core.
//
// A call crosses it in two steps, both cheap: the JS layer writes the operator's
// already-validated parameters into a parameter block (an array of doubles in wasm memory
// whose slot numbers are exported below as constants), then calls the plain wasm exports
//   _osw_plan_*()  -> validates against the core's rules, builds or reuses the plan, and
//                     writes the output rank and dims back into the block;
//   _osw_exec_*()  -> runs the plan on tensors whose data the JS layer placed in wasm memory.
// Both return 0 on success, or 1 (TypeError) / 2 (RangeError) with lastError() (Embind)
// holding a message that names the input or attribute. Passing numbers, not objects, keeps
// the per-call cost to a few hundred nanoseconds.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <malloc.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "gridsample.h"
#include "resize_kernels.h"
#include "resize.h"

using namespace osw;

namespace {

// Slots of the parameter block. Dims-like arrays have kMaxRank slots each.
enum Slot : int {
  kOp = 0,
  kXType,
  kRank,
  kMode,
  kCoord,
  kNearest,
  kCubicA,
  kExclude,
  kAntialias,
  kExtrapolation,
  kPolicy,
  kCompat,
  kHasAxes,
  kNAxes,
  kHasScales,
  kHasSizes,
  kHasRoi,
  kPadding,
  kAlignCorners,
  kGridType,
  kGridRank,
  kInDims = 32,
  kAxes = kInDims + kMaxRank,
  kScales = kAxes + kMaxRank,
  kSizes = kScales + kMaxRank,
  kRoi = kSizes + kMaxRank,         // 2 * kMaxRank
  kKeyEnd = kRoi + 2 * kMaxRank,    // slots before this one identify a Resize plan
  kGridDims = kKeyEnd,
  kOutRank = kGridDims + kMaxRank,  // written by plan*(), so kept out of the plan key
  kOutDims = kOutRank + 1,
  kBlockSize = kOutDims + kMaxRank,
};

double g_block[kBlockSize];
std::string g_error;

// The most recent Resize plan, reused while the parameters stay the same.
ResizePlan* g_plan = nullptr;
double g_plan_key[kKeyEnd];
bool g_plan_valid = false;

GridSampleAttrs g_gs_attrs;
TensorView g_gs_x, g_gs_grid, g_gs_y;

int fail(const Status& st) {
  g_error = st.message;
  return static_cast<int>(st.kind);
}

void write_out_dims(int rank, const int64_t* dims) {
  g_block[kOutRank] = rank;
  for (int i = 0; i < rank; ++i) g_block[kOutDims + i] = static_cast<double>(dims[i]);
}

uintptr_t param_block() { return reinterpret_cast<uintptr_t>(g_block); }

// The plan key compared 8 bytes at a time, as bits (memcmp in wasm walks bytes, and
// this check runs on every call).
bool same_plan_key() {
  for (int i = 0; i < kKeyEnd; ++i) {
    uint64_t a, b;
    std::memcpy(&a, &g_plan_key[i], 8);
    std::memcpy(&b, &g_block[i], 8);
    if (a != b) return false;
  }
  return true;
}

int plan_resize() {
  if (g_plan_valid && same_plan_key()) {
    write_out_dims(g_plan->rank, g_plan->out_dims);
    return 0;
  }
  g_plan_valid = false;
  if (!g_plan) {
    g_plan = new (std::nothrow) ResizePlan();
    if (!g_plan) return fail(out_of_memory("a resize plan", sizeof(ResizePlan)));
  }
  const double* b = g_block;
  const int rank = static_cast<int>(b[kRank]);
  if (rank < 1 || rank > kMaxRank)
    return fail(Status::Range("X: rank must be in [1, " + int_text(kMaxRank) + "]"));
  ResizeAttrs at;
  at.mode = static_cast<ResizeMode>(static_cast<int>(b[kMode]));
  at.coord = static_cast<CoordMode>(static_cast<int>(b[kCoord]));
  at.nearest = static_cast<NearestMode>(static_cast<int>(b[kNearest]));
  at.cubic_a = b[kCubicA];
  at.exclude_outside = b[kExclude] != 0.0;
  at.antialias = b[kAntialias] != 0.0;
  at.extrapolation_value = b[kExtrapolation];
  at.policy = static_cast<AspectPolicy>(static_cast<int>(b[kPolicy]));
  at.compat = static_cast<Compat>(static_cast<int>(b[kCompat]));
  ResizeInputs in;
  in.has_axes = b[kHasAxes] != 0.0;
  in.n_axes = in.has_axes ? static_cast<int>(b[kNAxes]) : rank;
  if (in.n_axes < 0 || in.n_axes > kMaxRank)
    return fail(Status::Range("axes: too many axes"));
  in.has_scales = b[kHasScales] != 0.0;
  in.has_sizes = b[kHasSizes] != 0.0;
  in.has_roi = b[kHasRoi] != 0.0;
  int64_t dims[kMaxRank];
  for (int i = 0; i < rank; ++i) dims[i] = static_cast<int64_t>(b[kInDims + i]);
  for (int i = 0; i < in.n_axes; ++i) {
    in.axes[i] = static_cast<int32_t>(b[kAxes + i]);
    in.scales[i] = b[kScales + i];
    in.sizes[i] = static_cast<int64_t>(b[kSizes + i]);
    in.roi[i] = b[kRoi + i];
    in.roi[in.n_axes + i] = b[kRoi + in.n_axes + i];
  }
  Status st = resize_plan(at, in, rank, dims, g_plan);
  if (!st.ok()) return fail(st);
  std::memcpy(g_plan_key, g_block, sizeof g_plan_key);
  g_plan_valid = true;
  write_out_dims(g_plan->rank, g_plan->out_dims);
  return 0;
}

int exec_resize(uintptr_t x_ptr, uintptr_t y_ptr) {
  if (!g_plan_valid) return fail(Status::Range("no valid resize plan"));
  TensorView x, y;
  x.type = y.type = static_cast<DType>(static_cast<int>(g_block[kXType]));
  x.rank = y.rank = g_plan->rank;
  for (int i = 0; i < g_plan->rank; ++i) {
    x.dims[i] = g_plan->in_dims[i];
    y.dims[i] = g_plan->out_dims[i];
  }
  x.data = reinterpret_cast<void*>(x_ptr);
  y.data = reinterpret_cast<void*>(y_ptr);
  Status st = resize_execute(*g_plan, x, &y);
  return st.ok() ? 0 : fail(st);
}

int plan_grid_sample() {
  const double* b = g_block;
  const int rank = static_cast<int>(b[kRank]);
  const int grank = static_cast<int>(b[kGridRank]);
  if (rank < 3 || rank > kMaxRank)
    return fail(Status::Range("X: rank must be in [3, " + int_text(kMaxRank) + "], got " +
                              int_text(rank)));
  if (grank < 3 || grank > kMaxRank)
    return fail(Status::Range("grid: rank must be in [3, " + int_text(kMaxRank) +
                              "], got " + int_text(grank)));
  g_gs_attrs.mode = static_cast<GridMode>(static_cast<int>(b[kMode]));
  g_gs_attrs.padding = static_cast<PaddingMode>(static_cast<int>(b[kPadding]));
  g_gs_attrs.align_corners = b[kAlignCorners] != 0.0;
  g_gs_attrs.integer_rounding = static_cast<int32_t>(b[kCompat]);  // compat 0/1/2, row 7
  g_gs_x = TensorView();
  g_gs_grid = TensorView();
  g_gs_x.type = static_cast<DType>(static_cast<int>(b[kXType]));
  g_gs_x.rank = rank;
  for (int i = 0; i < rank; ++i) g_gs_x.dims[i] = static_cast<int64_t>(b[kInDims + i]);
  g_gs_grid.type = static_cast<DType>(static_cast<int>(b[kGridType]));
  g_gs_grid.rank = grank;
  for (int i = 0; i < grank; ++i) g_gs_grid.dims[i] = static_cast<int64_t>(b[kGridDims + i]);
  g_gs_y = TensorView();
  g_gs_y.type = g_gs_x.type;
  Status st = gridsample_output_shape(g_gs_x, g_gs_grid, &g_gs_y);
  if (!st.ok()) return fail(st);
  write_out_dims(g_gs_y.rank, g_gs_y.dims);
  return 0;
}

int exec_grid_sample(uintptr_t x_ptr, uintptr_t grid_ptr, uintptr_t y_ptr) {
  g_gs_x.data = reinterpret_cast<void*>(x_ptr);
  g_gs_grid.data = reinterpret_cast<void*>(grid_ptr);
  g_gs_y.data = reinterpret_cast<void*>(y_ptr);
  Status st = gridsample(g_gs_attrs, g_gs_x, g_gs_grid, &g_gs_y);
  return st.ok() ? 0 : fail(st);
}

std::string last_error() { return g_error; }

// malloc that never aborts (-sABORTING_MALLOC=0): 0 means out of memory.
uintptr_t mem_alloc(double bytes) {
  if (!(bytes >= 0) || bytes > 4294967295.0) return 0;
  return reinterpret_cast<uintptr_t>(std::malloc(bytes > 0 ? static_cast<size_t>(bytes) : 1));
}
void mem_free(uintptr_t p) { std::free(reinterpret_cast<void*>(p)); }

void set_allocation_limit(double bytes) {
  if (bytes >= 0 && bytes <= 9007199254740992.0) allocation_limit() = static_cast<int64_t>(bytes);
}

// Frees the cached plan (and the last message): after it, the heap holds nothing of ours
// but the module's statics, which the leak tests compare exactly.
void release_caches() {
  delete g_plan;
  g_plan = nullptr;
  release_kernel_scratch();
  g_plan_valid = false;
  std::string().swap(g_error);
}

// Bytes currently allocated with malloc: the leak tests check that calls return to it.
double heap_used() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

// The calls made on every operation are plain wasm exports (Module._osw_*), not Embind
// functions: a direct call into wasm costs tens of nanoseconds where Embind's checked
// invoker costs hundreds, and they only pass numbers.
extern "C" {
EMSCRIPTEN_KEEPALIVE int osw_plan_resize() { return plan_resize(); }
EMSCRIPTEN_KEEPALIVE int osw_exec_resize(uintptr_t x, uintptr_t y) { return exec_resize(x, y); }
EMSCRIPTEN_KEEPALIVE int osw_plan_grid_sample() { return plan_grid_sample(); }
EMSCRIPTEN_KEEPALIVE int osw_exec_grid_sample(uintptr_t x, uintptr_t g, uintptr_t y) {
  return exec_grid_sample(x, g, y);
}
EMSCRIPTEN_KEEPALIVE uintptr_t osw_alloc(double bytes) { return mem_alloc(bytes); }
EMSCRIPTEN_KEEPALIVE void osw_free(uintptr_t p) { mem_free(p); }
EMSCRIPTEN_KEEPALIVE void osw_set_allocation_limit(double bytes) { set_allocation_limit(bytes); }
}

EMSCRIPTEN_BINDINGS(onnx_sampling_wasm) {
  using namespace emscripten;
  function("paramBlock", &param_block);
  function("lastError", &last_error);
  function("heapUsed", &heap_used);
  function("releaseCaches", &release_caches);
  constant("MAX_RANK", static_cast<int>(kMaxRank));
  constant("SLOT_OP", static_cast<int>(kOp));
  constant("SLOT_X_TYPE", static_cast<int>(kXType));
  constant("SLOT_RANK", static_cast<int>(kRank));
  constant("SLOT_MODE", static_cast<int>(kMode));
  constant("SLOT_COORD", static_cast<int>(kCoord));
  constant("SLOT_NEAREST", static_cast<int>(kNearest));
  constant("SLOT_CUBIC_A", static_cast<int>(kCubicA));
  constant("SLOT_EXCLUDE", static_cast<int>(kExclude));
  constant("SLOT_ANTIALIAS", static_cast<int>(kAntialias));
  constant("SLOT_EXTRAPOLATION", static_cast<int>(kExtrapolation));
  constant("SLOT_POLICY", static_cast<int>(kPolicy));
  constant("SLOT_COMPAT", static_cast<int>(kCompat));
  constant("SLOT_HAS_AXES", static_cast<int>(kHasAxes));
  constant("SLOT_N_AXES", static_cast<int>(kNAxes));
  constant("SLOT_HAS_SCALES", static_cast<int>(kHasScales));
  constant("SLOT_HAS_SIZES", static_cast<int>(kHasSizes));
  constant("SLOT_HAS_ROI", static_cast<int>(kHasRoi));
  constant("SLOT_PADDING", static_cast<int>(kPadding));
  constant("SLOT_ALIGN_CORNERS", static_cast<int>(kAlignCorners));
  constant("SLOT_GRID_TYPE", static_cast<int>(kGridType));
  constant("SLOT_GRID_RANK", static_cast<int>(kGridRank));
  constant("SLOT_OUT_RANK", static_cast<int>(kOutRank));
  constant("SLOT_IN_DIMS", static_cast<int>(kInDims));
  constant("SLOT_AXES", static_cast<int>(kAxes));
  constant("SLOT_SCALES", static_cast<int>(kScales));
  constant("SLOT_SIZES", static_cast<int>(kSizes));
  constant("SLOT_ROI", static_cast<int>(kRoi));
  constant("SLOT_GRID_DIMS", static_cast<int>(kGridDims));
  constant("SLOT_OUT_DIMS", static_cast<int>(kOutDims));
  constant("BLOCK_SIZE", static_cast<int>(kBlockSize));
}

// ---------------------------------------------------------------- AffineGrid-20
// Kept in one block at the end of the file (its include too), apart from the other
// operators' code. It reuses slots of the parameter block:
//   kXType theta's type, kRank and kInDims theta's rank and dims, kNAxes the number of
//   size values and kSizes the values, kAlignCorners the attribute;
// plan writes the grid's rank and dims to kOutRank/kOutDims as the other operators do.
#include "affinegrid.h"

namespace {

AffineGridAttrs g_ag_attrs;
TensorView g_ag_theta, g_ag_grid;
int64_t g_ag_size[5];
int g_ag_n_size = 0;

int plan_affine_grid() {
  const double* b = g_block;
  const int rank = static_cast<int>(b[kRank]);
  if (rank < 0 || rank > kMaxRank)
    return fail(Status::Range("theta: rank must be in [0, " + int_text(kMaxRank) + "], got " + int_text(rank)));
  const int n_size = static_cast<int>(b[kNAxes]);
  if (n_size != 4 && n_size != 5)
    return fail(Status::Range("size: expected 4 values [N, C, H, W] (2-D) or 5 values [N, C, D, H, W] (3-D), got " +
                              int_text(n_size)));
  g_ag_attrs.align_corners = b[kAlignCorners] != 0.0;
  g_ag_theta = TensorView();
  g_ag_theta.type = static_cast<DType>(static_cast<int>(b[kXType]));
  g_ag_theta.rank = rank;
  for (int i = 0; i < rank; ++i) g_ag_theta.dims[i] = static_cast<int64_t>(b[kInDims + i]);
  g_ag_n_size = n_size;
  for (int i = 0; i < n_size; ++i) g_ag_size[i] = static_cast<int64_t>(b[kSizes + i]);
  g_ag_grid = TensorView();
  Status st = affinegrid_output_shape(g_ag_theta, g_ag_size, g_ag_n_size, &g_ag_grid);
  if (!st.ok()) return fail(st);
  write_out_dims(g_ag_grid.rank, g_ag_grid.dims);
  return 0;
}

int exec_affine_grid(uintptr_t theta_ptr, uintptr_t grid_ptr) {
  g_ag_theta.data = reinterpret_cast<void*>(theta_ptr);
  g_ag_grid.data = reinterpret_cast<void*>(grid_ptr);
  Status st = affinegrid(g_ag_attrs, g_ag_theta, g_ag_size, g_ag_n_size, &g_ag_grid);
  return st.ok() ? 0 : fail(st);
}

}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE int osw_plan_affine_grid() { return plan_affine_grid(); }
EMSCRIPTEN_KEEPALIVE int osw_exec_affine_grid(uintptr_t theta, uintptr_t grid) {
  return exec_affine_grid(theta, grid);
}
}
