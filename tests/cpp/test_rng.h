// test_rng.h: the seeded random source of the Resize and nearest tests (cases are drawn
// from it, so a seed names a case list).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <random>

struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  int64_t range(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(g); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); }
  bool coin() { return range(0, 1) == 1; }
  template <typename T>
  T pick(std::initializer_list<T> l) { return *(l.begin() + range(0, int64_t(l.size()) - 1)); }
};
