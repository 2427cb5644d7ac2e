// resize/exact.cpp: exact rounding decisions for integer Resize outputs (resize/exact.h).
//
// The exact value. Every coordinate formula (resize/plan.h) is rational in the output index
// and the axis geometry, whose doubles (scale_num, scale_den, roi) are exact rationals
// m * 2^e; compat 'onnxruntime' defines its coordinate as the double its float32 formula
// gives. From an exact coordinate x = P / Q the taps are integers over one denominator:
//  - linear: t = P - floor(x) Q, weights (Q - t, t) / Q;
//  - cubic (a = A / B exactly): tap arguments (t + Q, t, Q - t, 2Q - t) / Q, the Keys
//    polynomial's numerator over B Q^3 (cub() below);
//  - antialias on a downsampling axis (scale = sN / sD): r = P - (ceil(x) - 1) Q, arguments
//    |iQ - r| sN / (Q sD), normalised by their sum (the other denominators cancel);
//  - exclude_outside: taps outside the input set to 0 and renormalised by the sum;
// then positions are clamped to the input. The output is N / D with N = sum over tap
// tuples of the product of the axes' numerators times X, D the product of the axes'
// denominators: big integers, no rounding anywhere, so ties are ties.
//
// The error bound (resize_exact_eps, bound()). The kernels compute each pass as a dot
// product of n = taps terms in the compute type (unit roundoff u: 2^-24 float, 2^-53
// double), from the previous pass's computed values and the plan's weights in the compute
// type, in any order of the passes. With L_a = the largest sum of |weight| of an output of
// axis a (in the compute type), d_a the largest L1 distance of an output's weights from the
// exact ones (as functions of the clamped input index), M = max |X| (the type's range; for
// 32- and 64-bit integers the largest |X| of the call; the widening of 64-bit ones to
// double adds one relative u), and g_n = n u / (1 - n u) (the classic |fl(sum w x) - sum w x| <=
// g_n sum |w| |x|, FMA or not), induction over the passes (each pass: its own rounding g_n L_a
// M_{a-1}, the propagated error times L_a, the weight error d_a M_{a-1}) gives
//   |computed - exact| <= M prod_a (L_a + d_a) (sum_a (g_{n_a} + d_a) + [64-bit] u).
// d_a = (float compute: u L_a, the plan's double weights rounded to float) + c_a, where c_a
// bounds the double weights' distance from the exact ones:
//   c_a = 2^-53 K_a R_a (8 G_a X_a s_a + E_a),
// X_a a bound of the coordinate's magnitude and of every magnitude inside its formula (each
// formula is at most 6 double operations on such values: coordinate error <= 8 u X_a; for
// align_corners the division by W - 1 adds L_out L_in (W + 2) / (W - 1)^2), G_a the largest
// |derivative| of a tap's weight in the coordinate (linear 1; cubic max(3|a + 2| + 2|a + 3|,
// |a|) over both pieces of Keys' kernel), s_a the antialias scale (the argument is
// (i - ratio) scale), E_a the weights' own arithmetic (linear 4 u, cubic 64 (|a| + 3) u),
// R_a = 4 with a renormalisation (antialias, exclude_outside: |d(k/S)| <= 2 |dk| / S with
// the sums S >= 1/2 for coordinates in [-0.5, L_in - 0.5], where every mode puts them), K_a
// the taps. eps is the total (times 1 + 2^-20 for the bound's own rounding). 8- and 16-bit outputs
// near a boundary are first recomputed in double from the plan's double weights (the same sums),
// whose bound is the same formula with u = 2^-53 and d_a = c_a; only those still within it of a
// boundary (exact ties, mostly) reach the big integers.
#include "resize/exact.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "core/elem.h"
#include "core/exact_int.h"
#include "core/simd.h"
#include "resize/plan.h"
#include "resize/workspace.h"

namespace osw {

namespace exact {

void trim(Big& a) {
  while (a.n > 0 && a.m[a.n - 1] == 0) --a.n;
  if (a.n == 0) a.neg = false;
}

Big from_u64(uint64_t v, bool neg) {
  Big b;
  b.m[0] = uint32_t(v);
  b.m[1] = uint32_t(v >> 32);
  b.n = 2;
  b.neg = neg;
  trim(b);
  return b;
}

Big from_i64(int64_t v) { return from_u64(v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v), v < 0); }

int cmp_mag(const Big& a, const Big& b) {
  if (a.n != b.n) return a.n < b.n ? -1 : 1;
  for (int i = a.n; i-- > 0;)
    if (a.m[i] != b.m[i]) return a.m[i] < b.m[i] ? -1 : 1;
  return 0;
}

Big add(const Big& a, const Big& b) {
  Big r;
  r.ovf = a.ovf || b.ovf;
  if (a.neg == b.neg) {
    const int n = a.n > b.n ? a.n : b.n;
    if (n + 1 > kLimbs) {
      r.ovf = true;
      return r;
    }
    uint64_t c = 0;
    for (int i = 0; i < n; ++i) {
      c += uint64_t(i < a.n ? a.m[i] : 0) + (i < b.n ? b.m[i] : 0);
      r.m[i] = uint32_t(c);
      c >>= 32;
    }
    r.m[n] = uint32_t(c);
    r.n = n + 1;
    r.neg = a.neg;
  } else {
    const bool a_big = cmp_mag(a, b) >= 0;
    const Big& x = a_big ? a : b;
    const Big& y = a_big ? b : a;
    int64_t c = 0;
    for (int i = 0; i < x.n; ++i) {
      c += int64_t(x.m[i]) - (i < y.n ? y.m[i] : 0);
      r.m[i] = uint32_t(c);
      c = c < 0 ? -1 : 0;
    }
    r.n = x.n;
    r.neg = x.neg;
  }
  trim(r);
  return r;
}

Big negate(Big a) {
  a.neg = !a.neg;
  trim(a);
  return a;
}

Big sub(const Big& a, const Big& b) { return add(a, negate(b)); }

Big mul(const Big& a, const Big& b) {
  Big r;
  r.ovf = a.ovf || b.ovf;
  if (a.n == 0 || b.n == 0) return r;
  if (a.n + b.n > kLimbs) {
    r.ovf = true;
    return r;
  }
  r.n = a.n + b.n;
  for (int i = 0; i < r.n; ++i) r.m[i] = 0;
  for (int i = 0; i < a.n; ++i) {
    uint64_t c = 0;
    for (int j = 0; j < b.n; ++j) {
      c += uint64_t(a.m[i]) * b.m[j] + r.m[i + j];
      r.m[i + j] = uint32_t(c);
      c >>= 32;
    }
    r.m[i + b.n] = uint32_t(c);
  }
  r.neg = a.neg != b.neg;
  trim(r);
  return r;
}

Big muli(const Big& a, int64_t v) { return mul(a, from_i64(v)); }

int sign(const Big& a) { return a.n == 0 ? 0 : (a.neg ? -1 : 1); }

Rat rat(int64_t v) { return {from_i64(v), from_i64(1)}; }

// A finite double is m * 2^e exactly. Not finite (a NaN cubic_a, say): overflowed, so that
// no decision is taken from it.
Rat rat(double v) {
  if (!std::isfinite(v)) {
    Rat r;
    r.n.ovf = r.d.ovf = true;
    return r;
  }
  int e = 0;
  const double f = std::frexp(v, &e);  // v = f * 2^e, 0.5 <= |f| < 1
  int64_t mant = static_cast<int64_t>(std::ldexp(f, 53));
  e -= 53;
  if (mant == 0) return rat(int64_t(0));
  while ((mant & 1) == 0) {  // the smallest numerator: the rationals stay short
    mant /= 2;
    ++e;
  }
  Big one = from_i64(1), p2 = from_i64(1);
  const Big two32 = from_u64(uint64_t(1) << 32);
  int s = e < 0 ? -e : e;
  for (; s >= 32; s -= 32) p2 = mul(p2, two32);
  p2 = mul(p2, from_u64(uint64_t(1) << s));
  if (e >= 0) return {mul(from_i64(mant), p2), one};
  return {from_i64(mant), p2};
}

Rat radd(const Rat& a, const Rat& b) { return {add(mul(a.n, b.d), mul(b.n, a.d)), mul(a.d, b.d)}; }
Rat rsub(const Rat& a, const Rat& b) { return {sub(mul(a.n, b.d), mul(b.n, a.d)), mul(a.d, b.d)}; }
Rat rmul(const Rat& a, const Rat& b) { return {mul(a.n, b.n), mul(a.d, b.d)}; }
Rat rdiv(const Rat& a, const Rat& b) {
  Rat r{mul(a.n, b.d), mul(a.d, b.n)};
  if (r.d.neg) {
    r.n = negate(r.n);
    r.d = negate(r.d);
  }
  return r;
}

// Keys' cubic kernel at u / q (u >= 0) times b q^3 (a = A / B): an integer.
Big cub(const Big& u, const Big& q, const Big& A, const Big& B) {
  const Big q2 = mul(q, q), q3 = mul(q2, q), u2 = mul(u, u), u3 = mul(u2, u);
  if (cmp_mag(u, q) <= 0)
    return add(sub(mul(add(A, muli(B, 2)), u3), mul(mul(add(A, muli(B, 3)), u2), q)), mul(B, q3));
  if (cmp_mag(u, muli(q, 2)) < 0)
    return mul(A, sub(add(sub(u3, muli(mul(u2, q), 5)), muli(mul(u, q2), 8)), muli(q3, 4)));
  return Big();
}

// floor(p / q) from a guess g (the plan's coordinate, within a few units): the f with
// 0 <= p - f q < q, and that remainder.
bool floor_near(const Big& p, const Big& q, double g, int64_t* f, Big* t) {
  if (!(std::fabs(g) < 4e15)) return false;
  *f = static_cast<int64_t>(std::floor(g));
  *t = sub(p, muli(q, *f));
  for (int i = 0; i < 64; ++i) {
    if (t->neg) {
      --*f;
      *t = add(*t, q);
      continue;
    }
    if (cmp_mag(*t, q) >= 0) {
      ++*f;
      *t = sub(*t, q);
      continue;
    }
    return true;
  }
  return false;
}

// X's element i as a big integer.
Big x_value(const TensorView& x, int64_t i) {
  switch (x.type) {
    case DType::UInt8: return from_i64(static_cast<const uint8_t*>(x.data)[i]);
    case DType::Int8: return from_i64(static_cast<const int8_t*>(x.data)[i]);
    case DType::UInt16: return from_i64(static_cast<const uint16_t*>(x.data)[i]);
    case DType::Int16: return from_i64(static_cast<const int16_t*>(x.data)[i]);
    case DType::Int32: return from_i64(static_cast<const int32_t*>(x.data)[i]);
    case DType::UInt32: return from_i64(static_cast<const uint32_t*>(x.data)[i]);
    case DType::Int64: return from_i64(static_cast<const int64_t*>(x.data)[i]);
    case DType::UInt64: return from_u64(static_cast<const uint64_t*>(x.data)[i]);
    default: return Big();
  }
}

// t / d (d > 0) roughly, in double, for the floor's correction steps.
double ratio(const Big& t, const Big& d) {
  auto top = [](const Big& b, int* e) {
    const int n = b.n;
    double v = 0;
    const int lo = n > 3 ? n - 3 : 0;
    for (int i = n; i-- > lo;) v = v * 0x1p32 + b.m[i];
    *e = 32 * int(lo);
    return b.neg ? -v : v;
  };
  int et, ed;
  const double vt = top(t, &et), vd = top(d, &ed);
  return std::ldexp(vt / vd, et - ed);
}

// num / den (den > 0) rounded by rule (0 half to even, 1 toward zero, 2 half up) into *out
// (not saturated). guess: the value in float, where the floor's search starts.
bool round_rational(const Big& num, const Big& den, double guess, int rule, Big* out) {
  // f = floor(num / den) with remainder t in [0, den): from the float value, corrected in
  // steps estimated in double (one or two unless the float value is far off).
  Big f = rat(std::floor(std::fabs(guess) < 0x1p64 ? guess : 0.0)).n;
  Big t = sub(num, mul(f, den));
  for (int it = 0;; ++it) {
    if (it == 200 || t.ovf) return false;
    if (!t.neg && cmp_mag(t, den) < 0) break;
    double q = std::floor(ratio(t, den));
    if (q == 0) q = t.neg ? -1 : 1;
    q = std::fmax(-0x1p62, std::fmin(0x1p62, q));
    const Big step = from_i64(static_cast<int64_t>(q));
    f = add(f, step);
    t = sub(t, mul(step, den));
  }
  const int c = sign(sub(muli(t, 2), den));  // the fraction against 1/2
  const bool odd = f.n > 0 && (f.m[0] & 1);
  bool up;
  switch (rule) {
    case 1: up = f.neg && sign(t) != 0; break;      // truncation toward 0
    case 2: up = c >= 0; break;                     // half up
    default: up = c > 0 || (c == 0 && odd); break;  // half to even
  }
  *out = up ? add(f, from_i64(1)) : f;
  return true;
}

// r saturated to integer type t and stored at p (t's bytes, little-endian two's complement).
void store_saturated(Big r, DType t, void* p) {
  const int64_t es = dtype_size(t);
  const bool is_signed =
      t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64;
  const uint64_t span = es == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * es)) - 1;
  const Big blo = is_signed ? from_u64(span / 2 + 1, true) : Big();
  const Big bhi = from_u64(is_signed ? span / 2 : span);
  if (sign(sub(r, blo)) < 0) r = blo;
  if (sign(sub(r, bhi)) > 0) r = bhi;
  uint64_t bits = 0;  // two's complement, little-endian: the type's low bytes
  for (int k = r.n; k-- > 0;) bits = (bits << 32) | r.m[k];
  if (r.neg) bits = uint64_t(0) - bits;
  std::memcpy(p, &bits, size_t(es));
}

// The largest magnitude of X's integer type; for 32- and 64-bit types, of X's first n
// elements (the type's range would make the bound large for 32-bit types: 0.18 for int32
// cubic 2x upsampling, a third of the outputs then decided in big integers, where the
// values are far below the type's range).
double magnitude(const TensorView& x, int64_t n) {
  switch (x.type) {
    case DType::UInt8: return 255;
    case DType::Int8: return 128;
    case DType::UInt16: return 65535;
    case DType::Int16: return 32768;
    default: break;
  }
  if (x.type == DType::Int32 || x.type == DType::UInt32) {
    int64_t M = 0, i = 0;
#if OSW_HAVE_SIMD
    // (four at a time: |v| of int32 as uint32, so |-2^31| is 2^31; in V8 the scalar loop took
    // 7% of int32 1x3x512² -> 1024² cubic)
    const bool sig = x.type == DType::Int32;
    const uint32_t* u = static_cast<const uint32_t*>(x.data);
    v128_t m = wasm_i32x4_splat(0);
    for (; i + 4 <= n; i += 4) {
      const v128_t v = wasm_v128_load(u + i);
      m = wasm_u32x4_max(m, sig ? wasm_i32x4_abs(v) : v);
    }
    uint32_t lane[4];
    wasm_v128_store(lane, m);
    for (const uint32_t l : lane) M = std::max<int64_t>(M, l);
#endif
    if (x.type == DType::Int32) {
      const int32_t* v = static_cast<const int32_t*>(x.data);
      for (; i < n; ++i) {
        const int64_t a = v[i] < 0 ? -int64_t(v[i]) : int64_t(v[i]);
        M = a > M ? a : M;
      }
    } else {
      const uint32_t* v = static_cast<const uint32_t*>(x.data);
      for (; i < n; ++i) M = int64_t(v[i]) > M ? int64_t(v[i]) : M;
    }
    return double(M);
  }
  double M = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = x.type == DType::Int64
                         ? std::fabs(double(static_cast<const int64_t*>(x.data)[i]))
                         : double(static_cast<const uint64_t*>(x.data)[i]);
    M = v > M ? v : M;
  }
  return M;
}

// The linear (2) or cubic (4, a = ca) taps of the exact coordinate x = P / Q (guess: x in
// double): the first tap's index floor(x) (linear) or floor(x) - 1 (cubic), and the
// numerators k over den: with t = P - floor(x) Q, (Q - t, t) over Q, or Keys' kernel at
// (t + Q, t, Q - t, 2Q - t) / Q over B Q^3. False when the floor cannot be found.
bool point_taps(const Rat& x, double guess, bool cubic, const Rat& ca, int64_t* first, Big* k,
                int* n, Big* den) {
  Big t;
  if (x.n.ovf || x.d.ovf || !floor_near(x.n, x.d, guess, first, &t)) return false;
  const Big& q = x.d;
  if (!cubic) {
    k[0] = sub(q, t);
    k[1] = t;
    *n = 2;
    *den = q;
    return true;
  }
  --*first;
  const Big args[4] = {add(t, q), t, sub(q, t), sub(muli(q, 2), t)};
  for (int i = 0; i < 4; ++i) k[i] = cub(args[i], q, ca.n, ca.d);
  *n = 4;
  *den = mul(ca.d, mul(q, mul(q, q)));
  return true;
}

// sum over the taps of axes a.. of their numerators times X (offset: X's element so far).
Big tap_sum(const TensorView& x, const Taps* taps, const int64_t* stride, int a, int rank,
            int64_t offset) {
  const Taps& t = taps[a];
  Big s;
  for (int j = 0; j < t.n; ++j) {
    if (sign(t.k[j]) == 0) continue;
    const int64_t off = offset + t.pos[j] * stride[a];
    s = add(s, mul(t.k[j],
                   a + 1 == rank ? x_value(x, off) : tap_sum(x, taps, stride, a + 1, rank, off)));
  }
  return s;
}

}  // namespace exact

namespace {

using namespace exact;

uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) {
    const uint64_t m = a % b;
    a = b;
    b = m;
  }
  return a;
}

// |b| for a big integer of at most two limbs.
uint64_t u64(const Big& b) {
  return b.n == 0 ? 0 : b.n == 1 ? uint64_t(b.m[0]) : uint64_t(b.m[1]) << 32 | b.m[0];
}

// r in lowest terms when its numerator and denominator fit in 64 bits (else r as it is).
// The rationals are otherwise never reduced, and their sizes compound: the cubic antialias
// taps of 1080 -> 540 had the denominator 4 (2160 * 1080)^3, past 64 bits, so output_den()
// knew none and every exact tie took the big integers (seconds for a ramp image); reduced,
// x = (4o + 1) / 2 and s = 1/2 give 4 * 4^3.
Rat reduced(Rat r) {
  if (r.n.ovf || r.d.ovf || r.n.n > 2 || r.d.n > 2 || r.d.n == 0) return r;
  const uint64_t n = u64(r.n), d = u64(r.d), g = gcd64(n, d);
  if (g > 1) {
    r.n = from_u64(n / g, r.n.neg);
    r.d = from_u64(d / g);
  }
  return r;
}

// The exact input coordinate of output index o (resize/plan.h's formulas, in rationals).
Rat exact_coord_of(const ResizeAttrs& at, const AxisGeometry& g, int64_t o) {
  if (at.compat == Compat::OnnxRuntime)
    return rat(coord::onnxruntime(at.coord, static_cast<double>(o), g));
  const Rat x = rat(o), half = {from_i64(1), from_i64(2)};
  const Rat s = reduced(rdiv(rat(g.scale_num), rat(g.scale_den)));
  const Rat xh = rdiv(radd(x, half), s);  // (x + 0.5) / s
  switch (at.coord) {
    case CoordMode::HalfPixel: return rsub(xh, half);
    case CoordMode::PytorchHalfPixel: return g.out > 1 ? rsub(xh, half) : rat(int64_t(0));
    case CoordMode::HalfPixelSymmetric:
      // (L_in - 1) / 2 + (2x + 1 - L_out) / (2s)
      return radd(rdiv(rat(g.in - 1), rat(int64_t(2))),
                  rdiv(rat(2 * o + 1 - g.out), rmul(rat(int64_t(2)), s)));
    case CoordMode::AlignCorners: {
      const Rat w1 = rsub(rmul(rat(g.in), s), rat(int64_t(1)));  // W - 1
      if (sign(w1.n) == 0) return rat(int64_t(0));
      return rdiv(rmul(x, rat(g.in - 1)), w1);
    }
    case CoordMode::Asymmetric: return rdiv(x, s);
    case CoordMode::TfHalfPixelForNN: return xh;
    case CoordMode::TfCropAndResize: {
      const Rat a = rat(g.roi_start), b = rat(g.roi_end), span = rat(g.in - 1);
      if (g.out > 1) {
        const Rat last = rat(g.out - 1);
        return rmul(rdiv(radd(rmul(rsub(last, x), a), rmul(x, b)), last), span);
      }
      return rmul(rmul(radd(a, b), half), span);
    }
  }
  return x;
}
__attribute__((noinline)) Rat exact_coord(const ResizeAttrs& at, const AxisGeometry& g, int64_t o) {
  return reduced(exact_coord_of(at, g, o));
}

// The exact taps of output o of axis a (core/exact_int.h's Taps). False when the
// renormalisation is 0/0 (the output is NaN, 0 for integers) or the floor could not be
// found from the plan's coordinate.
__attribute__((noinline)) bool exact_taps(const ResizePlan& plan, int a, int64_t o, Taps* tp) {
  const ResizeAttrs& at = plan.attrs;
  const AxisGeometry& g = plan.geo.axis[a];
  const AxisPlan& ap = plan.axis[a];
  tp->n = 0;
  if (tp->k.size() < ap.taps &&
      !(tp->k.allocate(ap.taps, kDefaultMaxBytes) && tp->pos.allocate(ap.taps, kDefaultMaxBytes)))
    return false;
  if (ap.identity) {
    tp->pos[0] = o;
    tp->k[0] = from_i64(1);
    tp->den = from_i64(1);
    tp->n = 1;
    return true;
  }
  const double guess = at.compat == Compat::OnnxRuntime
                           ? coord::onnxruntime(at.coord, static_cast<double>(o), g)
                           : coord::select(at.coord)(static_cast<double>(o), g);
  const Rat x = exact_coord(at, g, o);
  const bool cubic = at.mode == ResizeMode::Cubic;
  const Rat ca = rat(at.cubic_a);
  const double scale = g.scale();
  int64_t first = 0;
  Big natural;
  if (!(at.antialias && scale < 1.0)) {
    if (!point_taps(x, guess, cubic, ca, &first, &tp->k[0], &tp->n, &natural)) return false;
  } else {
    // ceil(x) - 1 = floor(x') with the remainder in (0, q]: floor of x - tiny.
    int64_t f;
    Big t;
    if (!floor_near(x.n, x.d, guess, &f, &t)) return false;
    if (sign(t) == 0) {
      --f;
      t = x.d;
    }
    const Rat s = reduced(rdiv(rat(g.scale_num), rat(g.scale_den)));
    int64_t start, end;
    antialias_window(cubic, scale, &start, &end);
    if (end - start > ap.taps) return false;
    first = f + start;
    const Big R = mul(x.d, s.d);
    natural = cubic ? mul(ca.d, mul(R, mul(R, R))) : R;
    for (int64_t i = start; i < end; ++i) {
      Big u = mul(sub(muli(x.d, i), t), s.n);
      u.neg = false;
      if (cubic) {
        tp->k[tp->n++] = cub(u, R, ca.n, ca.d);
      } else {
        const Big w = sub(R, u);
        tp->k[tp->n++] = w.neg ? Big() : w;
      }
    }
    Big sum;
    for (int i = 0; i < tp->n; ++i) sum = add(sum, tp->k[i]);
    if (sign(sum) != 0) natural = sum;
    if (natural.neg) {
      natural = negate(natural);
      for (int i = 0; i < tp->n; ++i) tp->k[i] = negate(tp->k[i]);
    }
  }
  tp->den = natural;
  const int n = tp->n;
  const int64_t last = ap.in - 1;
  if (at.exclude_outside) {
    Big sum;
    for (int i = 0; i < n; ++i) {
      const int64_t p = first + i;
      if (p < 0 || p > last) tp->k[i] = Big();
      sum = add(sum, tp->k[i]);
    }
    if (sign(sum) == 0) return false;
    if (sum.neg) {
      sum = negate(sum);
      for (int i = 0; i < n; ++i) tp->k[i] = negate(tp->k[i]);
    }
    tp->den = sum;
  }
  for (int i = 0; i < n; ++i) {
    const int64_t p = first + i;
    tp->pos[i] = p < 0 ? 0 : (p > last ? last : p);
  }
  return true;
}

// The exact output of Y's element at multi-index idx (X's strides: stride, resize_exact_slow
// has checked the crop box), rounded by the plan's compat rule, into *out (not yet
// saturated); false when it cannot be decided here (a 0/0 renormalisation: NaN, 0 for
// integers).
bool exact_output(const ResizePlan& plan, const TensorView& x, const int64_t* idx,
                  const int64_t* stride, double guess, Taps* taps, Big* out) {
  const int rank = plan.rank;
  Big den = from_i64(1);
  for (int a = 0; a < rank; ++a) {
    if (taps[a].o != idx[a]) {
      taps[a].ok = exact_taps(plan, a, idx[a], &taps[a]);
      taps[a].o = idx[a];
    }
    if (!taps[a].ok) return false;
    den = mul(den, taps[a].den);
  }
  const Big num = tap_sum(x, taps, stride, 0, rank, 0);
  if (num.ovf || den.ovf) return false;
  return round_rational(num, den, guess, static_cast<int>(plan.attrs.compat), out);
}

}  // namespace

namespace {

// c_a of the header's derivation: a bound of the distance of axis ax's double weights from
// the exact ones.
double weight_err(const ResizePlan& plan, int ax) {
  const double a = plan.attrs.cubic_a;
  const AxisGeometry& g = plan.geo.axis[ax];
  const int K = plan.axis[ax].taps;
  // X_a: a bound of the coordinate's magnitude and of the magnitudes inside its formula.
  double Xa = double(g.in) + 4 + (double(g.out) + 1) * std::fabs(g.scale_den / g.scale_num);
  if (plan.attrs.coord == CoordMode::TfCropAndResize)
    Xa += (std::fabs(g.roi_start) + std::fabs(g.roi_end) + 1) * double(g.in);
  if (plan.attrs.coord == CoordMode::AlignCorners) {
    const double w1 = std::fabs(g.out_width() - 1);
    Xa += double(g.out) * double(g.in) * (g.out_width() + 2) / (w1 * w1);
  }
  const bool cubic = plan.attrs.mode == ResizeMode::Cubic;
  const double G = cubic ? std::fmax(3 * std::fabs(a + 2) + 2 * std::fabs(a + 3), std::fabs(a)) : 1;
  const double sa = plan.attrs.antialias && g.scale() < 1 ? g.scale() : 1;
  const double tap = G * 8 * Xa * sa + (cubic ? 64 * (std::fabs(a) + 3) : 4);
  return 0x1p-53 * K * tap * (plan.attrs.antialias || plan.attrs.exclude_outside ? 4 : 1);
}

// The bound of the header's derivation for largest magnitude M, computed in double (dbl: the
// plan's double weights) or in float (its float weights).
double bound(const ResizePlan& plan, double M, bool dbl, bool wide_x) {
  const double u = dbl ? 0x1p-53 : 0x1p-24;
  double prod = 1, sum = wide_x ? u : 0;
  for (int p = 0; p < plan.n_passes; ++p) {
    const int ax = plan.order[p];
    const AxisPlan& ap = plan.axis[ax];
    const int K = ap.taps;
    double L = 0;
    for (int64_t o = 0; o < ap.out; ++o) {
      double s = 0;
      for (int k = 0; k < ap.count[o]; ++k)
        s += dbl ? std::fabs(ap.weight[o * K + k]) : std::fabs(double(ap.weight_f[o * K + k]));
      L = s > L ? s : L;  // (NaN weights: outputs that are NaN, never rounded near a boundary)
    }
    L *= 1 + 0x1p-40;
    const double c = weight_err(plan, ax);
    const double d = (dbl ? 0 : u * L) + c;
    const double gn = K * u / (1 - K * u);
    prod *= L + d;
    sum += gn + d;
  }
  return M * prod * sum * (1 + 0x1p-20);
}

}  // namespace

// Output i of Y (computed value v, near a boundary, not decided in double) decided
// exactly and stored: flat regions under truncation, else big integers.
// The exact taps of one output per axis, kept between the outputs of one resize_exact_fix()
// call: consecutive outputs share the taps of their outer axes (a constant input under an
// extreme cubic_coeff_a sends every output here; recomputing the taps of every axis for
// each is far too slow).
struct ExactTaps {
  Taps t[kMaxRank];
  // per axis and output index: the denominator of its exact taps (-1: not known yet; inf:
  // none, or too large for a double)
  Buffer<double> den[kMaxRank];
  // what they were made from: the plan's attributes and geometry, as bytes (a copy
  // compares equal to the plan's only when every field is the same)
  unsigned char key[sizeof(ResizeAttrs) + sizeof(ResizeGeometry)];
  // resize_exact_in_double: the outputs it was asked about so far, and whether the plan
  // computes exactly in double for 8- and 16-bit X (0: not known yet, 1 yes, -1 no)
  int undecided = 0;
  int dyadic = 0;
  // per axis: the period q of its outputs' exact denominators (output_period; 0: not known
  // yet, -1: none used)
  int64_t period[kMaxRank] = {};
};

namespace {
void plan_key(const ResizePlan& plan, unsigned char* key) {
  std::memcpy(key, &plan.attrs, sizeof(ResizeAttrs));
  std::memcpy(key + sizeof(ResizeAttrs), &plan.geo, sizeof(ResizeGeometry));
}
}  // namespace

ExactTaps* resize_exact_taps_new(const ResizePlan& plan) {
  ExactTaps* c = new (std::nothrow) ExactTaps;
  if (c) plan_key(plan, c->key);
  return c;
}
void resize_exact_taps_free(ExactTaps* p) { delete p; }
void resize_exact_taps_check(const ResizePlan& plan, ExactTaps** cache) {
  unsigned char key[sizeof(ExactTaps::key)];
  plan_key(plan, key);
  if (*cache && std::memcmp(key, (*cache)->key, sizeof key) != 0) {
    delete *cache;
    *cache = nullptr;
  }
}

namespace {

// The denominator of r in lowest terms (0: more than 64 bits, or not finite).
uint64_t reduced_den(const Rat& r) {
  if (r.n.ovf || r.d.ovf || r.n.n > 2 || r.d.n > 2 || r.d.n == 0) return 0;
  const uint64_t d = u64(r.d);
  return d / gcd64(u64(r.n), d);
}

}  // namespace

namespace {

// The period of axis a's exact output denominators: output o's exact weights depend on the
// fractional part of its exact coordinate x(o) alone (exact_taps: the remainder t of the
// floor, the same window of taps; positions clamped at the edges keep their weights), and
// x(o) = x(0) + o (x(1) - x(0)) in every coordinate mode, so outputs q apart, q the reduced
// denominator of x(1) - x(0), have the same weights up to a common factor and the same
// reduced denominator. Not where exclude_outside drops the taps outside the input (edge
// outputs differ), under compat 'onnxruntime' (its coordinates are doubles), or with
// outputs outside a crop box. -1: none (every output on its own).
int64_t output_period(const ResizePlan& plan, int a, ExactTaps* c) {
  if (c->period[a] == 0) {
    const AxisGeometry& g = plan.geo.axis[a];
    const AxisPlan& ap = plan.axis[a];
    c->period[a] = -1;
    if (!plan.attrs.exclude_outside && plan.attrs.compat != Compat::OnnxRuntime &&
        !ap.any_outside && ap.out > 1) {
      const Rat x0 = exact_coord(plan.attrs, g, 0);
      const uint64_t q = reduced_den(rsub(exact_coord(plan.attrs, g, 1), x0));
      if (q > 0 && q < uint64_t(ap.out)) c->period[a] = int64_t(q);
    }
  }
  return c->period[a];
}

// The denominator of output o's exact taps on axis a (not an identity axis), reduced (the
// gcd of the denominator and every numerator divided out: the 1.5x half_pixel tie, weights
// 1/2 and 1/2, has 12 for its denominator), with the bounds' margin; inf when not known.
// Kept in the cache, once per period of the axis (output_period).
double output_den(const ResizePlan& plan, int a, int64_t o, ExactTaps* c) {
  const int64_t q = output_period(plan, a, c);
  if (q > 0) o %= q;
  Buffer<double>& den = c->den[a];
  if (den.size() < plan.out_dims[a]) {
    if (!den.allocate(plan.out_dims[a], kDefaultMaxBytes)) return INFINITY;
    for (int64_t k = 0; k < plan.out_dims[a]; ++k) den[k] = -1;
  }
  if (den[o] < 0) {
    Taps& t = c->t[a];
    if (t.o != o) {
      t.ok = exact_taps(plan, a, o, &t);
      t.o = o;
    }
    den[o] = INFINITY;
    if (t.ok && !t.den.ovf && t.den.n <= 2) {
      uint64_t g = u64(t.den);
      for (int k = 0; k < t.n && g > 1; ++k)
        g = gcd64(g, t.k[k].n <= 2 && !t.k[k].ovf ? u64(t.k[k]) : 1);
      den[o] = double(u64(t.den) / g) * (1 + 0x1p-40);
    }
  }
  return den[o];
}

// An axis without a common exact denominator because its outputs are renormalised one by
// one (axis_den(): antialias downscaling, exclude_outside) whose outputs' own ones are all
// powers of two: the largest (the axis's 2^s_a for exact_dyadic), else inf. Computed over
// one period of the outputs where the axis has one (output_period: one output for 2x,
// two for 1.5x), else over all of them; tried only for at most 2^17 taps over those, 2^12
// for cubic (the exact taps are made once per plan in big integers: without the limits a
// fuzzed 1 -> 100000 axis takes seconds, and a 1080p -> 540p cubic axis a third of the
// resize's time on the plan's first call) and when every
// double weight of the axis is a multiple of 2^-24 (a necessary condition, cheap:
// non-dyadic plans make no exact taps here). all: without the limit (resize_exact_in_double).
double outputs_den(const ResizePlan& plan, int a, ExactTaps** cache, bool all) {
  const AxisPlan& ap = plan.axis[a];
  const bool renormalised =
      plan.attrs.exclude_outside || (plan.attrs.antialias && plan.geo.axis[a].scale() < 1.0);
  if (!renormalised) return INFINITY;
  const int K = ap.taps;
  for (int64_t o = 0; o < ap.out; ++o)
    for (int k = 0; k < ap.count[o]; ++k) {
      const double t = ap.weight[o * K + k] * 0x1p24;  // (exact; ldexp is a call in wasm)
      if (t != std::floor(t)) return INFINITY;
    }
  if (!*cache) *cache = resize_exact_taps_new(plan);
  if (!*cache) return INFINITY;
  // (one period of the outputs: all of them share its denominators, output_period)
  const int64_t q = output_period(plan, a, *cache), n = q > 0 ? q : ap.out;
  const int cap = plan.attrs.mode == ResizeMode::Cubic ? 12 : 17;
  if (!all && n * int64_t(K) > (int64_t(1) << cap)) return INFINITY;
  double D = 1;
  for (int64_t o = 0; o < n; ++o) {
    if (ap.outside.size() > o && ap.outside[o]) continue;
    const double d = std::nearbyint(output_den(plan, a, o, *cache) / (1 + 0x1p-40));
    int e;
    if (!(d < 0x1p24) || std::frexp(d, &e) != 0.5) return INFINITY;
    D = d > D ? d : D;
  }
  return D;
}

}  // namespace

namespace {

// The denominator every output of axis a shares (inf when not known): coordinates x = P / Q
// with Q the same for every output (exact_coord: the output index enters as an integer),
// weights over Q (linear) or B Q^3 (cubic, a = A / B), no renormalisation. Compat
// 'onnxruntime': each coordinate is a double (its float32 formula's), m 2^-b: Q = 2^b of the
// largest b over the axis's outputs is a common denominator.
double axis_den(const ResizePlan& plan, int a) {
  const ResizeAttrs& at = plan.attrs;
  const AxisPlan& ap = plan.axis[a];
  if (at.exclude_outside) return INFINITY;
  if (at.antialias && plan.geo.axis[a].scale() < 1.0) return INFINITY;
  double qd = 1;
  if (at.compat == Compat::OnnxRuntime) {
    for (int64_t o = 0; o < ap.out; ++o) {
      if (ap.outside.size() > o && ap.outside[o]) continue;
      const double x = coord::onnxruntime(at.coord, static_cast<double>(o), plan.geo.axis[a]);
      if (!(std::fabs(x) < 0x1p52)) return INFINITY;
      // x 2^b an integer (doubling is exact; x - floor(x) would round for x just below 0)
      double q = 1, f = x;
      while (f != std::floor(f)) f *= 2, q *= 2;
      qd = q > qd ? q : qd;
    }
  } else {
    // x(o) = x(0) + o (x(1) - x(0)) in every mode: the lcm of those two reduced
    // denominators (x(1) - x(0) is not reduced by rsub)
    const AxisGeometry& g = plan.geo.axis[a];
    const Rat x0 = exact_coord(at, g, 0);
    const uint64_t q0 = reduced_den(x0);
    const uint64_t q1 = ap.out > 1 ? reduced_den(rsub(exact_coord(at, g, 1), x0)) : 1;
    if (q0 == 0 || q1 == 0) return INFINITY;
    qd = double(q0 / gcd64(q0, q1)) * double(q1);
  }
  if (at.mode == ResizeMode::Cubic) {
    const Rat ca = rat(at.cubic_a);
    if (ca.d.ovf || ca.d.n > 2) return INFINITY;
    return std::fabs(ratio(ca.d, from_i64(1)) * qd * qd * qd);
  }
  return qd;
}

// Whether the plan computes every output exactly, in double (dbl) or in float, for inputs of
// magnitude at most M: every weight of every pass is a multiple of 2^-s_a, its axis's exact
// denominator is 2^s_a (so the exact weights are such multiples too, and the double weights,
// within weight_err() < 2^-s_a of them, equal them), the float weights equal the double
// ones, and M prod_a max(L_a, 1) 2^(sum_a s_a), times 2 (a margin), fits the significand:
// then every product and partial sum the kernels form (they form no differences) is a
// multiple of 2^-(s of the passes so far) small enough to be held exactly, in any order of
// the passes. 2x, 4x and
// 8x linear upsampling under half_pixel (s_a = 2, 3, 4) of 16-bit values are such plans in
// float; they are most of the 16-bit (and small 32-bit) plans users run.
bool exact_dyadic(const ResizePlan& plan, double M, bool dbl, ExactTaps** cache, bool all = false) {
  const double top = dbl ? 0x1p53 : 0x1p24;
  double mag = M * 2;  // (X itself must be exact in the compute type: 64-bit values)
  if (!(mag <= top)) return false;
  int bits = 0;
  for (int p = 0; p < plan.n_passes; ++p) {
    const int ax = plan.order[p];
    const AxisPlan& ap = plan.axis[ax];
    double D = axis_den(plan, ax);
    if (!(D < 0x1p24) && cache) D = outputs_den(plan, ax, cache, all);
    int e;
    if (!(D < 0x1p24) || std::frexp(D, &e) != 0.5) return false;
    const int s = e - 1;  // D = 2^s
    if (!(std::ldexp(weight_err(plan, ax), s) < 0.5)) return false;
    const int K = ap.taps;
    const double p2 = std::ldexp(1.0, s);
    double L = 1;
    for (int64_t o = 0; o < ap.out; ++o) {
      if (ap.outside.size() > o && ap.outside[o]) continue;
      double sum = 0;
      for (int k = 0; k < ap.count[o]; ++k) {
        const double w = ap.weight[o * K + k], t = w * p2;  // (exact: a power of two)
        if (t != std::floor(t) || (!dbl && double(ap.weight_f[o * K + k]) != w)) return false;
        sum += std::fabs(w);
      }
      L = sum > L ? sum : L;
    }
    bits += s;
    mag *= L;
    if (!(std::ldexp(mag, bits) <= top)) return false;
  }
  return true;
}

}  // namespace

double resize_exact_eps(const ResizePlan& plan, const TensorView& x, double* eps_d, bool* in_float,
                        ExactTaps** cache) {
  const int64_t es = dtype_size(x.type);
  const double M = magnitude(x, x.elements());
  // Plans computed exactly have no error at all: no value is decided again (exact ties are
  // ties, which the narrowing's rounding decides).
  const bool exact_d = exact_dyadic(plan, M, true, cache);
  const bool exact_f = exact_d && exact_dyadic(plan, M, false, cache);
  if (in_float) *in_float = exact_f;
  *eps_d = es < 4 && !exact_d ? bound(plan, M, true, false) : 0;
  if (es < 4 ? exact_f : exact_d) return 0;
  return bound(plan, M, es >= 4, es == 8);
}

double resize_exact_dmax(const ResizePlan& plan) {
  double D = 1;
  for (int a = 0; a < plan.rank; ++a) {
    const AxisPlan& ap = plan.axis[a];
    if (ap.identity || ap.out == 0) continue;
    D *= axis_den(plan, a);
  }
  return D * (1 + 0x1p-40);
}

double resize_exact_den(const ResizePlan& plan, const int64_t* idx, ExactTaps* c) {
  double D = 1;
  for (int a = 0; a < plan.rank; ++a)
    if (!plan.axis[a].identity) D *= output_den(plan, a, idx[a], c);
  return D;
}

bool resize_exact_in_double(const ResizePlan& plan, ExactTaps* c) {
  if (c->dyadic == 0 && ++c->undecided > 16)
    c->dyadic = exact_dyadic(plan, 0x1p16, true, &c, true) ? 1 : -1;
  return c->dyadic > 0;
}

void resize_exact_slow(const ResizePlan& plan, const TensorView& x, TensorView* y, int64_t i,
                       double v, ExactTaps* cache) {
  Taps local[kMaxRank];
  Taps* taps = cache ? cache->t : local;
  Big r;
  int64_t idx[kMaxRank], stride[kMaxRank], rest = i, st = 1, at = 0;
  for (int a = plan.rank - 1; a >= 0; --a) {
    const AxisPlan& ap = plan.axis[a];
    idx[a] = rest % plan.out_dims[a];
    rest /= plan.out_dims[a];
    stride[a] = st;
    st *= plan.in_dims[a];
    if (ap.outside.size() > idx[a] && ap.outside[idx[a]]) return;
  }
  // Under truncation, every input the exact taps can read equal to c: the value is c (the
  // exact weights sum to 1; a cubic antialias sum is not known to be non-zero). Flat
  // regions (an integer is never near a half, but always near an integer).
  if (plan.attrs.compat == Compat::OnnxRuntime &&
      !(plan.attrs.antialias && plan.attrs.mode == ResizeMode::Cubic) &&
      resize_flat_box(plan, x, idx, stride, &at))
    r = x_value(x, at);
  else if (!exact_output(plan, x, idx, stride, v, taps, &r))
    return;
  store_saturated(r, y->type, static_cast<unsigned char*>(y->data) + i * dtype_size(y->type));
}

}  // namespace osw
