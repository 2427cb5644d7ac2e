// core/types.cpp: the out-of-line parts of core/types.h.
#include "core/types.h"

#include <cmath>
#include <cstring>

namespace osw {

std::string int_text(int64_t v) {
  char buf[24];
  char* p = buf + sizeof buf;
  uint64_t u = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) *--p = '-';
  return std::string(p, buf + sizeof buf);
}

std::string num_text(double v) {
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 9.2e18 &&
      !(v == 0 && std::signbit(v)))
    return int_text(static_cast<int64_t>(v));
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  std::string s(18, '\x1a');
  for (int i = 0; i < 16; ++i) s[size_t(16 - i)] = "0123456789abcdef"[(bits >> (4 * i)) & 15];
  return s;
}

Status out_of_memory(const char* what, int64_t bytes, int64_t limit) {
  if (bytes > limit)
    return Status::Range(std::string(what) + " needs " + int_text(bytes) +
                         " bytes, more than the limit of " + int_text(limit) + " bytes");
  return Status::Range(std::string("out of memory: cannot allocate ") + int_text(bytes) +
                       " bytes for " + what);
}

}  // namespace osw
