// core/types.h: what every layer of the core shares.
//
// - DType: tensor element types, numbered as ONNX TensorProto.DataType does, so that the
//   JS layer and the conformance files use the same codes.
// - Status: errors are values in the core (no exceptions in wasm). The JS layer turns a
//   TypeError/RangeError status into the matching JS exception.
// - TensorView: a non-owning view of a dense row-major tensor.
// - Buffer<T>: an owning array allocated with malloc, so that an allocation failure is a
//   Status (RangeError "out of memory") rather than an abort, even without C++ exceptions.
#pragma once

// Whether this build runs threads (threads/pool.h says what each value means): 1 in a wasm build
// with -pthread and in a native build that defines OSW_THREADS=1, 0 everywhere else.
#if (defined(OSW_THREADS) && OSW_THREADS) || defined(__EMSCRIPTEN_PTHREADS__)
#define OSW_HAVE_THREADS 1
#else
#define OSW_HAVE_THREADS 0
#endif

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace osw {

// Largest tensor rank the core accepts. Far beyond any model; it bounds stack arrays.
constexpr int kMaxRank = 32;

enum class DType : int32_t {
  Undefined = 0,
  Float32 = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  Bool = 9,
  Float16 = 10,
  Float64 = 11,
  UInt32 = 12,
  UInt64 = 13,
  BFloat16 = 16,
};

// Bytes per element, 0 for a type the core does not know.
size_t dtype_size(DType t);
const char* dtype_name(DType t);

enum class ErrorKind : int32_t {
  Ok = 0,
  TypeError = 1,   // wrong kind of argument (type, missing input)
  RangeError = 2,  // bad shape or value, limits, out of memory
};

struct Status {
  ErrorKind kind = ErrorKind::Ok;
  std::string message;

  bool ok() const { return kind == ErrorKind::Ok; }
  static Status Ok() { return Status(); }
  static Status Type(std::string m) { return Status{ErrorKind::TypeError, std::move(m)}; }
  static Status Range(std::string m) { return Status{ErrorKind::RangeError, std::move(m)}; }
};

#define OSW_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::osw::Status osw_status_ = (expr);        \
    if (!osw_status_.ok()) return osw_status_; \
  } while (0)

struct TensorView {
  DType type = DType::Undefined;
  void* data = nullptr;
  int rank = 0;
  int64_t dims[kMaxRank] = {};

  int64_t elements() const {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
};

// Checked arithmetic for sizes: returns false on overflow of int64 (or on negative input).
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) {
  if (a < 0 || b < 0) return false;
  return !__builtin_mul_overflow(a, b, out);
}
inline bool checked_add(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_add_overflow(a, b, out);
}

// The most bytes one allocation of the core may take (plans, scratch), when the caller
// gives no other: 2 GiB, the most a wasm32 heap can usefully give. The limit is not a
// global: it travels with what allocates (ResizeOptions::max_bytes, gs::Tuning::max_bytes,
// kept by the plans and used by their runs); the wasm binding's Instance holds the one set
// by createSampler({ maxBytes }).
constexpr int64_t kDefaultMaxBytes = int64_t(1) << 31;

// Owning malloc'd array of trivially copyable T. Never throws; check ok() after allocate().
template <typename T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : ptr_(o.ptr_), size_(o.size_) {
    o.ptr_ = nullptr;
    o.size_ = 0;
  }
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      std::free(ptr_);
      ptr_ = o.ptr_;
      size_ = o.size_;
      o.ptr_ = nullptr;
      o.size_ = 0;
    }
    return *this;
  }
  ~Buffer() { std::free(ptr_); }

  // Allocates n elements (uninitialised). False when n overflows, the bytes exceed `limit`
  // (then nothing is allocated) or malloc fails.
  bool allocate(int64_t n, int64_t limit) {
    std::free(ptr_);
    ptr_ = nullptr;
    size_ = 0;
    if (n < 0) return false;
    int64_t bytes;
    if (!checked_mul(n, static_cast<int64_t>(sizeof(T)), &bytes)) return false;
    if (static_cast<uint64_t>(bytes) > static_cast<uint64_t>(SIZE_MAX)) return false;
    if (bytes > limit) return false;
    ptr_ = static_cast<T*>(std::malloc(bytes > 0 ? static_cast<size_t>(bytes) : 1));
    if (!ptr_) return false;
    size_ = n;
    return true;
  }
  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  T& operator[](int64_t i) { return ptr_[i]; }
  const T& operator[](int64_t i) const { return ptr_[i]; }
  int64_t size() const { return size_; }

 private:
  T* ptr_ = nullptr;
  int64_t size_ = 0;
};

// Decimal text of an integer, for messages (std::to_string would pull printf into the
// download: libc++ formats with snprintf).
std::string int_text(int64_t v);

// A message's non-integer number: integers as int_text, anything else as a token that the
// JS layer (bindings/api.js, decodeNumbers) replaces with the number as JavaScript prints
// it ("0.3", "NaN", "-Infinity"): U+001A, the 16 hex digits of the IEEE-754 bits, U+001A.
std::string num_text(double v);

// The RangeError of a failed allocation of `bytes` for `what`: over `limit` (the one the
// allocation was given), or out of memory (defined in core/types.cpp, out of line: it is called
// from many kernels).
Status out_of_memory(const char* what, int64_t bytes, int64_t limit);

}  // namespace osw
