// embind.cpp: the boundary between the JS API (bindings/api/sampler-core.js) and the C++ core.
//
// A call crosses it in two steps, both cheap: the JS layer writes the operator's
// already-validated parameters into a parameter block (an array of doubles in wasm memory,
// described once in param_block.h, whose table osw_param_table() / osw_param_slots() give
// to JS), then calls the plain wasm exports
//   _osw_plan_*()  -> validates against the core's rules, builds or reuses the plan, and
//                     writes the output rank and dims back into the block;
//   _osw_exec_*()  -> runs the plan on tensors whose data the JS layer placed in wasm memory.
// Both return 0 on success, or 1 (TypeError) / 2 (RangeError) with lastError() (Embind)
// holding a message that names the input or attribute. Passing numbers, not objects, keeps
// the per-call cost to a few hundred nanoseconds.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <malloc.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

#include "affinegrid/affinegrid.h"
#include "affinegrid/parallel.h"
#include "gridsample/gridsample.h"
#include "gridsample/parallel.h"
#include "param_block.h"
#include "resize/parallel.h"
#include "resize/resize.h"
#include "threads/pool.h"

using namespace osw;

namespace {

// Slots of the parameter block (param_block.h): each row's first slot, in order; a row of
// `count` slots is followed by the next at +count.
#define OSW_SLOT_ENUM(slot, name, count) slot, slot##Last_ = slot + (count)-1,
#define OSW_ATTR_ENUM(slot, ...) slot,
enum Slot : int { OSW_PARAM_BLOCK(OSW_SLOT_ENUM, OSW_ATTR_ENUM) kBlockSize };
#undef OSW_SLOT_ENUM
#undef OSW_ATTR_ENUM

// A slot's double as the type of the ResizeAttrs member it fills.
template <typename T>
void read_slot(double v, T* out) {
  *out = static_cast<T>(static_cast<int>(v));
}  // enums
void read_slot(double v, bool* out) { *out = v != 0.0; }
void read_slot(double v, double* out) { *out = v; }

// The table JS reads when a module loads (static data, no code): one line of text per row
// of param_block.h, fields separated by tabs (kind s: slots, r: a Resize attribute; name;
// for an attribute its ONNX name, option name, default and check), and the first slot of
// each row, in the same order. The last row is blockSize, the block's length.
#define OSW_SLOT_TEXT(slot, name, count) "s\t" #name "\n"
#define OSW_ATTR_TEXT(slot, name, member, onnx, option, dflt, check) \
  "r\t" #name "\t" onnx "\t" option "\t" dflt "\t" check "\n"
constexpr char kParamTable[] = OSW_PARAM_BLOCK(OSW_SLOT_TEXT, OSW_ATTR_TEXT) "s\tblockSize\n";
#undef OSW_SLOT_TEXT
#undef OSW_ATTR_TEXT
#define OSW_SLOT_FIRST(slot, ...) slot,
constexpr int32_t kParamSlots[] = {OSW_PARAM_BLOCK(OSW_SLOT_FIRST, OSW_SLOT_FIRST) kBlockSize};
#undef OSW_SLOT_FIRST

// Everything a call leaves behind for the next one, with one owner: the parameter block,
// the last message, the allocation limit, the Resize plan cache, the GridSample call's
// views, and the thread pool with one workspace per thread. One per wasm instance (created
// with it); release() returns the heap to what the module itself holds (but the threads).
struct Instance {
  double block[kBlockSize] = {};
  std::string error;
  // createSampler({ maxBytes }): the most bytes one allocation of the core may take. Given
  // to every plan (ResizeOptions, gs::Tuning), whose runs allocate under it.
  int64_t max_bytes = kDefaultMaxBytes;

  // setThreads(n): the threads this instance's calls may use (threads/pool.h). A build without
  // threads (the default osw.wasm) has a stub pool that always reports 1.
  ThreadPool pool;

  // The most recent Resize plans, each reused while its parameters come again (X's type
  // is one of them: a plan is built for it), so that a program alternating between a few
  // shapes or modes (a model's Resize nodes, an image resized to two sizes) plans each of
  // them once; the least recently used one is planned over. cur: the plan of the last
  // successful plan_resize() (-1: none). What runs write: resize_ws[t] is thread t's
  // workspace (resize_ws[0] also holds a run's whole intermediates); its buffers grow to
  // what the plans need, and an exact-taps cache in it belongs to one plan at a time (it is
  // keyed by the plan's content, resize_exact_taps_check).
  struct CachedPlan {
    ResizePlan* plan = nullptr;
    double key[kKeyEnd] = {};
    bool valid = false;
    uint64_t used = 0;  // the call count when it was last chosen
  };
  static constexpr int kPlans = 4;
  CachedPlan plans[kPlans];
  int cur = -1;
  uint64_t calls = 0;
  ResizeWorkspace resize_ws[kMaxThreads];

  void forget_plans() {
    for (CachedPlan& c : plans) c.valid = false;
    cur = -1;
  }

  // GridSample: the attributes and tensors of the last plan_grid_sample(), whose data
  // pointers exec_grid_sample() sets, and the workspaces of its run (one per thread).
  GridSampleAttrs gs_attrs;
  TensorView gs_x, gs_grid, gs_y;
  GridSampleWorkspace gs_ws[kMaxThreads];

  // AffineGrid: the attributes, theta, size and grid of the last plan_affine_grid(), whose
  // data pointers exec_affine_grid() sets.
  AffineGridAttrs ag_attrs;
  TensorView ag_theta, ag_grid;
  int64_t ag_size[5] = {};
  int ag_n_size = 0;

  // Frees the workspaces of threads [from, kMaxThreads).
  void reset_workspaces(int from) {
    for (int t = from; t < kMaxThreads; ++t) {
      resize_ws[t].reset();
      gs_ws[t].reset();
    }
  }

  void release() {
    for (CachedPlan& c : plans) {
      delete c.plan;
      c = CachedPlan();
    }
    cur = -1;
    reset_workspaces(0);
    std::string().swap(error);
  }
};

Instance g_inst;

int fail(const Status& st) {
  g_inst.error = st.message;
  return static_cast<int>(st.kind);
}

void write_out_dims(int rank, const int64_t* dims) {
  g_inst.block[kOutRank] = rank;
  for (int i = 0; i < rank; ++i) g_inst.block[kOutDims + i] = static_cast<double>(dims[i]);
}

uintptr_t param_block() { return reinterpret_cast<uintptr_t>(g_inst.block); }

// A plan's key against the parameter block's, 8 bytes at a time, as bits (memcmp in wasm
// walks bytes, and this check runs on every call).
bool same_plan_key(const double* key) {
  for (int i = 0; i < kKeyEnd; ++i) {
    uint64_t a, b;
    std::memcpy(&a, &key[i], 8);
    std::memcpy(&b, &g_inst.block[i], 8);
    if (a != b) return false;
  }
  return true;
}

int plan_resize() {
  ++g_inst.calls;
  // The current plan first (the common case: the same call again), then the others.
  for (int k = 0; k < Instance::kPlans; ++k) {
    const int i = g_inst.cur >= 0 ? (g_inst.cur + k) % Instance::kPlans : k;
    Instance::CachedPlan& c = g_inst.plans[i];
    if (c.valid && same_plan_key(c.key)) {
      g_inst.cur = i;
      c.used = g_inst.calls;
      write_out_dims(c.plan->rank, c.plan->out_dims);
      return 0;
    }
  }
  // A new plan, in a place without a valid plan, else the least recently used one.
  g_inst.cur = -1;
  auto age = [](const Instance::CachedPlan& p) { return p.valid ? p.used : 0; };
  int lru = 0;
  for (int i = 1; i < Instance::kPlans; ++i)
    if (age(g_inst.plans[i]) < age(g_inst.plans[lru])) lru = i;
  Instance::CachedPlan& c = g_inst.plans[lru];
  c.valid = false;
  // A fresh plan object: one planned over could keep tables of its earlier plan that the
  // new one does not build, and what the kept plans hold would then depend on which calls
  // came before (the heap tests compare it between identical rounds of calls).
  delete c.plan;
  c.plan = new (std::nothrow) ResizePlan();
  if (!c.plan) return fail(out_of_memory("a resize plan", sizeof(ResizePlan), g_inst.max_bytes));
  const double* b = g_inst.block;
  const int rank = static_cast<int>(b[kRank]);
  if (rank < 1 || rank > kMaxRank)
    return fail(Status::Range("X: rank must be in [1, " + int_text(kMaxRank) + "]"));
  ResizeAttrs at;
#define OSW_NO_READ(...)
#define OSW_READ_ATTR(slot, name, member, ...) read_slot(b[slot], &at.member);
  OSW_PARAM_BLOCK(OSW_NO_READ, OSW_READ_ATTR)
#undef OSW_NO_READ
#undef OSW_READ_ATTR
  ResizeInputs in;
  in.has_axes = b[kHasAxes] != 0.0;
  in.n_axes = in.has_axes ? static_cast<int>(b[kNAxes]) : rank;
  if (in.n_axes < 0 || in.n_axes > kMaxRank) return fail(Status::Range("axes: too many axes"));
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
  ResizeOptions opts;
  opts.type = static_cast<DType>(static_cast<int>(b[kXType]));
  opts.max_bytes = g_inst.max_bytes;
  Status st = resize_plan(at, in, rank, dims, c.plan, opts);
  if (!st.ok()) return fail(st);
  // a new plan starts without the buffers of the runs before it
  for (int t = 0; t < g_inst.pool.threads(); ++t) g_inst.resize_ws[t].reset();
  std::memcpy(c.key, g_inst.block, sizeof c.key);
  c.valid = true;
  c.used = g_inst.calls;
  g_inst.cur = lru;
  write_out_dims(c.plan->rank, c.plan->out_dims);
  return 0;
}

int exec_resize(uintptr_t x_ptr, uintptr_t y_ptr) {
  if (g_inst.cur < 0) return fail(Status::Range("no valid resize plan"));
  const ResizePlan& plan = *g_inst.plans[g_inst.cur].plan;
  TensorView x, y;
  x.type = y.type = static_cast<DType>(static_cast<int>(g_inst.block[kXType]));
  x.rank = y.rank = plan.rank;
  for (int i = 0; i < plan.rank; ++i) {
    x.dims[i] = plan.in_dims[i];
    y.dims[i] = plan.out_dims[i];
  }
  x.data = reinterpret_cast<void*>(x_ptr);
  y.data = reinterpret_cast<void*>(y_ptr);
  Status st = resize_execute_parallel(plan, x, &y, &g_inst.pool, g_inst.resize_ws);
  return st.ok() ? 0 : fail(st);
}

int plan_grid_sample() {
  const double* b = g_inst.block;
  const int rank = static_cast<int>(b[kRank]);
  const int grank = static_cast<int>(b[kGridRank]);
  if (rank < 3 || rank > kMaxRank)
    return fail(
        Status::Range("X: rank must be in [3, " + int_text(kMaxRank) + "], got " + int_text(rank)));
  if (grank < 3 || grank > kMaxRank)
    return fail(Status::Range("grid: rank must be in [3, " + int_text(kMaxRank) + "], got " +
                              int_text(grank)));
  g_inst.gs_attrs.mode = static_cast<GridMode>(static_cast<int>(b[kMode]));
  g_inst.gs_attrs.padding = static_cast<PaddingMode>(static_cast<int>(b[kPadding]));
  g_inst.gs_attrs.align_corners = b[kAlignCorners] != 0.0;
  g_inst.gs_attrs.integer_rounding = static_cast<int32_t>(b[kCompat]);  // compat 0/1/2, row 7
  g_inst.gs_attrs.ort = b[kCompat] == 1;  // compat 'onnxruntime': its coordinate arithmetic
  g_inst.gs_x = TensorView();
  g_inst.gs_grid = TensorView();
  g_inst.gs_x.type = static_cast<DType>(static_cast<int>(b[kXType]));
  g_inst.gs_x.rank = rank;
  for (int i = 0; i < rank; ++i) g_inst.gs_x.dims[i] = static_cast<int64_t>(b[kInDims + i]);
  g_inst.gs_grid.type = static_cast<DType>(static_cast<int>(b[kGridType]));
  g_inst.gs_grid.rank = grank;
  for (int i = 0; i < grank; ++i) g_inst.gs_grid.dims[i] = static_cast<int64_t>(b[kGridDims + i]);
  g_inst.gs_y = TensorView();
  g_inst.gs_y.type = g_inst.gs_x.type;
  Status st = gridsample_output_shape(g_inst.gs_x, g_inst.gs_grid, &g_inst.gs_y);
  if (!st.ok()) return fail(st);
  write_out_dims(g_inst.gs_y.rank, g_inst.gs_y.dims);
  return 0;
}

int exec_grid_sample(uintptr_t x_ptr, uintptr_t grid_ptr, uintptr_t y_ptr) {
  g_inst.gs_x.data = reinterpret_cast<void*>(x_ptr);
  g_inst.gs_grid.data = reinterpret_cast<void*>(grid_ptr);
  g_inst.gs_y.data = reinterpret_cast<void*>(y_ptr);
  GridSamplePlan plan;
  gs::Tuning tuning;
  tuning.max_bytes = g_inst.max_bytes;
  Status st =
      gridsample_plan(g_inst.gs_attrs, g_inst.gs_x, g_inst.gs_grid, g_inst.gs_y, tuning, &plan);
  // On several threads, a grid of too few blocks to share is planned again in smaller ones.
  if (st.ok() && gridsample_parallel_blocks(plan, g_inst.pool.threads(), &tuning))
    st = gridsample_plan(g_inst.gs_attrs, g_inst.gs_x, g_inst.gs_grid, g_inst.gs_y, tuning, &plan);
  if (st.ok())
    st = gridsample_run_parallel(plan, g_inst.gs_x, g_inst.gs_grid, &g_inst.gs_y, &g_inst.pool,
                                 g_inst.gs_ws);
  // The tables go back to the heap after each call, as they always did: a 256 x 256 linear
  // grid is one block of 65536 locations, about 5 MB of tables, more than a sampler should
  // hold between calls (per thread).
  for (int t = 0; t < g_inst.pool.threads(); ++t) g_inst.gs_ws[t].reset();
  return st.ok() ? 0 : fail(st);
}

std::string last_error() { return g_inst.error; }

// malloc that never aborts (-sABORTING_MALLOC=0): 0 means out of memory.
uintptr_t mem_alloc(double bytes) {
  if (!(bytes >= 0) || bytes > 4294967295.0) return 0;
  return reinterpret_cast<uintptr_t>(std::malloc(bytes > 0 ? static_cast<size_t>(bytes) : 1));
}
void mem_free(uintptr_t p) { std::free(reinterpret_cast<void*>(p)); }

// The cached Resize plans were built under the previous limit: the next calls plan again.
void set_allocation_limit(double bytes) {
  if (bytes >= 0 && bytes <= 9007199254740992.0) {
    g_inst.max_bytes = static_cast<int64_t>(bytes);
    g_inst.forget_plans();
  }
}

// Frees the cached plans (and the last message): after it, the heap holds nothing of ours
// but the module's statics, which the leak tests compare exactly.
void release_caches() { g_inst.release(); }

// setThreads(n): this instance's calls may use n threads from now on (n < 1 counts as 1);
// stops the pool's workers and starts n - 1 (in a threaded wasm build each takes a Web
// Worker of the preloaded pool: n - 1 must not pass PTHREAD_POOL_SIZE, since a thread whose
// Worker is still loading cannot start before the caller returns to the event loop, and
// the next setThreads would wait for it forever). Returns the number in use: always 1 in a
// build without threads, fewer than n if a thread could not start. The workspaces of
// threads no longer used are freed. Each thread's stack (256 KiB) comes from the heap.
int set_threads(int n) {
  const int used = g_inst.pool.set_threads(n < 1 ? 1 : n);
  g_inst.reset_workspaces(used);
  return used;
}
int threads_in_use() { return g_inst.pool.threads(); }

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
EMSCRIPTEN_KEEPALIVE const char* osw_param_table() { return kParamTable; }
EMSCRIPTEN_KEEPALIVE const int32_t* osw_param_slots() { return kParamSlots; }
}

// Only numbers and std::string cross here: scripts/build.mjs empties the glue's registrations
// of std::wstring, emscripten::val and typed_memory_view (code in the download), so a
// binding that used one of those types would fail its first call (UnboundTypeError).
EMSCRIPTEN_BINDINGS(onnx_sampling_wasm) {
  using namespace emscripten;
  function("paramBlock", &param_block);
  function("lastError", &last_error);
  function("heapUsed", &heap_used);
  function("releaseCaches", &release_caches);
  function("setThreads", &set_threads);
  function("threads", &threads_in_use);
  constant("MAX_RANK", static_cast<int>(kMaxRank));
}

// ---------------------------------------------------------------- AffineGrid-20
// Kept in one block at the end of the file, apart from the other operators' code; its
// state is in the Instance. It reuses slots of the parameter block:
//   kXType theta's type, kRank and kInDims theta's rank and dims, kNAxes the number of
//   size values and kSizes the values, kAlignCorners the attribute;
// plan writes the grid's rank and dims to kOutRank/kOutDims as the other operators do.
namespace {

int plan_affine_grid() {
  const double* b = g_inst.block;
  const int rank = static_cast<int>(b[kRank]);
  if (rank < 0 || rank > kMaxRank)
    return fail(Status::Range("theta: rank must be in [0, " + int_text(kMaxRank) + "], got " +
                              int_text(rank)));
  const int n_size = static_cast<int>(b[kNAxes]);
  if (n_size != 4 && n_size != 5)
    return fail(Status::Range(
        "size: expected 4 values [N, C, H, W] (2-D) or 5 values [N, C, D, H, W] (3-D), got " +
        int_text(n_size)));
  g_inst.ag_attrs.align_corners = b[kAlignCorners] != 0.0;
  g_inst.ag_theta = TensorView();
  g_inst.ag_theta.type = static_cast<DType>(static_cast<int>(b[kXType]));
  g_inst.ag_theta.rank = rank;
  for (int i = 0; i < rank; ++i) g_inst.ag_theta.dims[i] = static_cast<int64_t>(b[kInDims + i]);
  g_inst.ag_n_size = n_size;
  for (int i = 0; i < n_size; ++i) g_inst.ag_size[i] = static_cast<int64_t>(b[kSizes + i]);
  g_inst.ag_grid = TensorView();
  Status st =
      affinegrid_output_shape(g_inst.ag_theta, g_inst.ag_size, g_inst.ag_n_size, &g_inst.ag_grid);
  if (!st.ok()) return fail(st);
  write_out_dims(g_inst.ag_grid.rank, g_inst.ag_grid.dims);
  return 0;
}

int exec_affine_grid(uintptr_t theta_ptr, uintptr_t grid_ptr) {
  g_inst.ag_theta.data = reinterpret_cast<void*>(theta_ptr);
  g_inst.ag_grid.data = reinterpret_cast<void*>(grid_ptr);
  Status st = affinegrid_parallel(g_inst.ag_attrs, g_inst.ag_theta, g_inst.ag_size,
                                  g_inst.ag_n_size, &g_inst.ag_grid, &g_inst.pool);
  return st.ok() ? 0 : fail(st);
}

}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE int osw_plan_affine_grid() { return plan_affine_grid(); }
EMSCRIPTEN_KEEPALIVE int osw_exec_affine_grid(uintptr_t theta, uintptr_t grid) {
  return exec_affine_grid(theta, grid);
}
}

// ---------------------------------------------------------------- Embind's builtin types
// Embind's start-up function (emscripten/system/lib/embind/bind.cpp) registers every builtin
// type whether the bindings use it or not: wide and unsigned-char strings, 64-bit integers,
// emscripten::val and 17 typed memory views, whose type_info objects, names and
// registration calls are a sizeable part of osw.wasm. The bindings above pass void,
// int, unsigned long (uintptr_t), double and std::string only, so this file defines the two
// functions of that object file with just those types; the linker then takes these and
// never needs libembind's object (CMakeLists.txt links Embind's JS libraries without
// --bind, which would link that object whole). Without it, the build can also do without
// RTTI (-fno-rtti, EMSCRIPTEN_HAS_UNBOUND_TYPE_NAMES=0: types known by address), which
// takes libc++abi's class-hierarchy search out of osw.wasm too. A binding given
// another type fails its first call with Embind's UnboundTypeError (tests/js call every
// binding).
extern "C" {
// Called by the module's constructors (a threaded build's workers never call a binding).
EMSCRIPTEN_KEEPALIVE __attribute__((constructor)) void
__embind_register_native_and_builtin_types() {
  using namespace emscripten::internal;
  _embind_register_void(TypeID<void>::get(), "void");
  _embind_register_integer(TypeID<int>::get(), "int", sizeof(int), INT_MIN, INT_MAX);
  _embind_register_integer(TypeID<unsigned long>::get(), "unsigned long", sizeof(unsigned long), 0,
                           ULONG_MAX);
  _embind_register_float(TypeID<double>::get(), "double", sizeof(double));
  _embind_register_std_string(TypeID<std::string>::get(), "std::string");
}

// The name Embind's messages give a type it has no registration for. Built without RTTI
// (CMakeLists.txt), Embind knows a type by an address only, and has no name to give.
EMSCRIPTEN_KEEPALIVE const char* __getTypeName(const void*) {
  return strdup("(a type without registration)");
}
}
