// core/exact_int.h: signed big integers and exact rationals, for the exact rounding decisions of
// integer outputs (resize/exact.cpp, gridsample/exact.cpp; docs/semantics.md "integer
// outputs decided exactly"). Defined in resize/exact.cpp. Cold code: only outputs within
// float error of a rounding boundary reach it.
#pragma once

#include "core/types.h"

namespace osw {
namespace exact {

// Signed big integers of at most kLimbs 32-bit limbs (1536 bits: the products of three
// axes' cubic denominators of float32 values fit; a result that does not sets ovf, and the
// output keeps its float rounding). No allocation: the download stays small.
constexpr int kLimbs = 48;
struct Big {
  int n = 0;  // limbs in use (little-endian, no leading zeros)
  bool neg = false;
  bool ovf = false;
  uint32_t m[kLimbs];
};

void trim(Big& a);
Big from_u64(uint64_t v, bool neg = false);
Big from_i64(int64_t v);
int cmp_mag(const Big& a, const Big& b);  // of the magnitudes
Big add(const Big& a, const Big& b);
Big negate(Big a);
Big sub(const Big& a, const Big& b);
Big mul(const Big& a, const Big& b);
Big muli(const Big& a, int64_t v);
int sign(const Big& a);

// Exact rationals n / d, d > 0, not reduced by their operations (the formulas are short;
// resize/exact.cpp reduces the coordinates and scales they start from).
struct Rat {
  Big n, d;
};
Rat rat(int64_t v);
// A finite double is m * 2^e exactly. Not finite: overflowed, so that no decision is taken
// from it.
Rat rat(double v);
Rat radd(const Rat& a, const Rat& b);
Rat rsub(const Rat& a, const Rat& b);
Rat rmul(const Rat& a, const Rat& b);
Rat rdiv(const Rat& a, const Rat& b);

// The exact taps of one output of an axis: positions (padded) and integer numerators k over
// den (n of them; o, ok: what a cache of them keeps).
struct Taps {
  Buffer<int64_t> pos;
  Buffer<Big> k;
  int n = 0;
  int64_t o = -1;
  bool ok = false;
  Big den;
};
// The sum over the tap tuples of axes a.. (of rank) of their numerators times X's element
// (offset: X's element so far; stride: X's, per axis).
Big tap_sum(const TensorView& x, const Taps* taps, const int64_t* stride, int a, int rank,
            int64_t offset);

// Keys' cubic kernel at u / q (u >= 0) times B q^3 (a = A / B): an integer.
Big cub(const Big& u, const Big& q, const Big& A, const Big& B);
// floor(p / q) (q > 0) from a guess g within a few units: the f with 0 <= p - f q < q, and
// that remainder. False when g is not finite and below 4e15, or too far off.
bool floor_near(const Big& p, const Big& q, double g, int64_t* f, Big* t);
// The linear (2) or cubic (4, a = ca) taps of the exact coordinate x = P / Q (guess: x in
// double): the first tap's index floor(x) (linear) or floor(x) - 1 (cubic), and the
// numerators k over den: with t = P - floor(x) Q, (Q - t, t) over Q, or Keys' kernel at
// (t + Q, t, Q - t, 2Q - t) / Q over B Q^3. False when the floor cannot be found.
bool point_taps(const Rat& x, double guess, bool cubic, const Rat& ca, int64_t* first, Big* k,
                int* n, Big* den);
// X's element i (an integer type) as a big integer.
Big x_value(const TensorView& x, int64_t i);
// t / d (d > 0) roughly, in double.
double ratio(const Big& t, const Big& d);
// num / den (den > 0) rounded by rule (0 half to even, 1 toward zero, 2 half up) into *out
// (not saturated). guess: the value in float, where the floor's search starts.
bool round_rational(const Big& num, const Big& den, double guess, int rule, Big* out);
// The largest magnitude of X's integer type; for 32- and 64-bit types, of X's first n elements.
double magnitude(const TensorView& x, int64_t n);
// The index of the first of v[0, n) within about eps of a rounding boundary (k + 1/2, or an
// integer when trunc), or n: a filter that may also return values a little farther
// (resize/exact_scan.cpp, with SIMD).
int64_t next_near(const float* v, int64_t n, double eps, bool trunc);
// r saturated to integer type t and stored at p (t's bytes, little-endian two's complement).
void store_saturated(Big r, DType t, void* p);

}  // namespace exact
}  // namespace osw
