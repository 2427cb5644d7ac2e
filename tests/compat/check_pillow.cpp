// check_pillow.cpp: the compat Pillow kernels against the oracle's cases (development tool).
//
//   /usr/bin/python3 tests/compat/oracle_pillow.py --seed 1 --cases 2000 > /tmp/cases.ndjson
//   g++ -O2 -std=c++17 -Isrc -DOSW_USE_SIMDE tests/compat/check_pillow.cpp
//       src/imaging/pillow.cpp -o /tmp/check_pillow   (one command line)
//   /tmp/check_pillow < /tmp/cases.ndjson
//   (-DOSW_SCALAR=1 instead of -DOSW_USE_SIMDE checks the scalar kernels.)
//
// Reads the NDJSON lines of tests/compat/oracle_pillow.py from stdin, runs each case through
// pillow_resize_u8 / pillow_resize_f32 and counts, per filter and dtype, the cases and the
// values that differ: uint8 must be equal, float32 within --rel (default 1e-6) relative.
// Prints the first few mismatches with their positions; exits 1 if any.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "imaging/imaging.h"

using osw::compat::ImageBatch;
using osw::compat::PillowFilter;

namespace {

// The text after "key": up to the next top-level delimiter (strings without quotes).
std::string field(const std::string& line, const std::string& key) {
  std::string k = "\"" + key + "\":";
  size_t p = line.find(k);
  if (p == std::string::npos) return "";
  p += k.size();
  while (p < line.size() && line[p] == ' ') ++p;
  if (line[p] == '"') {
    size_t e = line.find('"', p + 1);
    return line.substr(p + 1, e - p - 1);
  }
  if (line[p] == '[') {
    size_t e = line.find(']', p);
    return line.substr(p + 1, e - p - 1);
  }
  size_t e = line.find_first_of(",}", p);
  return line.substr(p, e - p);
}

std::vector<long> ints(const std::string& s) {
  std::vector<long> v;
  const char* p = s.c_str();
  char* end;
  while (*p) {
    long x = std::strtol(p, &end, 10);
    if (end == p) {
      ++p;
      continue;
    }
    v.push_back(x);
    p = end;
  }
  return v;
}

std::vector<uint8_t> base64(const std::string& s) {
  auto val = [](char ch) -> int {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
  };
  std::vector<uint8_t> out;
  unsigned acc = 0;
  int bits = 0;
  for (char ch : s) {
    int v = val(ch);
    if (v < 0) continue;  // '=' padding
    acc = (acc << 6) | unsigned(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(uint8_t(acc >> bits));
    }
  }
  return out;
}

PillowFilter filter_of(const std::string& s) {
  if (s == "nearest") return PillowFilter::Nearest;
  if (s == "box") return PillowFilter::Box;
  if (s == "bilinear") return PillowFilter::Bilinear;
  if (s == "hamming") return PillowFilter::Hamming;
  if (s == "bicubic") return PillowFilter::Bicubic;
  return PillowFilter::Lanczos;
}

struct Tally {
  long cases = 0, bad_cases = 0, values = 0, bad_values = 0;
  double worst_rel = 0;
};

}  // namespace

int main(int argc, char** argv) {
  double rel = 1e-6;
  int show = 5;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--rel")) rel = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--show")) show = std::atoi(argv[++i]);
  }
  std::map<std::string, Tally> tally;
  std::string line;
  long lineno = 0, shown = 0, errors = 0;
  while (std::getline(std::cin, line)) {
    ++lineno;
    if (line.empty()) continue;
    std::string filter = field(line, "filter"), dtype = field(line, "dtype");
    std::vector<long> in = ints(field(line, "in")), out = ints(field(line, "out"));
    bool premul = field(line, "premultiply") == "true";
    std::vector<uint8_t> x = base64(field(line, "x")), want = base64(field(line, "y"));
    if (in.size() != 3 || out.size() != 2) {
      std::fprintf(stderr, "line %ld: bad shape\n", lineno);
      ++errors;
      continue;
    }
    ImageBatch g{1, in[0], in[1], in[2], out[0], out[1]};
    size_t elem = dtype == "float32" ? 4 : 1;
    size_t n_in = size_t(in[0] * in[1] * in[2]), n_out = size_t(out[0] * out[1] * in[2]);
    if (x.size() != n_in * elem || want.size() != n_out * elem) {
      std::fprintf(stderr, "line %ld: byte counts do not match the shape\n", lineno);
      ++errors;
      continue;
    }
    std::vector<uint8_t> got(n_out * elem, 0xAB);
    int rc;
    if (elem == 1)
      rc = osw::compat::pillow_resize_u8(x.data(), got.data(), g, filter_of(filter), premul);
    else
      rc = osw::compat::pillow_resize_f32(reinterpret_cast<const float*>(x.data()),
                                          reinterpret_cast<float*>(got.data()), g,
                                          filter_of(filter));
    Tally& t = tally[filter + "/" + dtype];
    ++t.cases;
    t.values += long(n_out);
    if (rc != 0) {
      std::fprintf(stderr, "line %ld: rc %d\n", lineno, rc);
      ++t.bad_cases;
      ++errors;
      continue;
    }
    long bad = 0;
    for (size_t i = 0; i < n_out; ++i) {
      bool ok;
      double a, b;
      if (elem == 1) {
        a = got[i];
        b = want[i];
        ok = got[i] == want[i];
      } else {
        float fa, fb;
        std::memcpy(&fa, &got[i * 4], 4);
        std::memcpy(&fb, &want[i * 4], 4);
        a = fa;
        b = fb;
        double d = std::fabs(a - b), m = std::fmax(std::fabs(a), std::fabs(b));
        double r = m > 0 ? d / m : 0;
        if (r > t.worst_rel) t.worst_rel = r;
        ok = d <= rel * m || (std::isnan(a) && std::isnan(b));
      }
      if (!ok) {
        ++bad;
        if (shown < show) {
          ++shown;
          long c = in[2], px = long(i) / c;
          std::printf("line %ld %s %s in %ldx%ldx%ld -> %ldx%ld premul %d: y[%ld][%ld][%ld] "
                      "got %.9g want %.9g\n",
                      lineno, filter.c_str(), dtype.c_str(), in[0], in[1], c, out[0], out[1],
                      int(premul), px / out[1], px % out[1], long(i) % c, a, b);
        }
      }
    }
    if (bad) {
      ++t.bad_cases;
      t.bad_values += bad;
    }
  }
  long total_bad = 0, total = 0;
  for (auto& kv : tally) {
    std::printf("%-18s cases %6ld  mismatching cases %4ld  values %9ld  mismatching %6ld",
                kv.first.c_str(), kv.second.cases, kv.second.bad_cases, kv.second.values,
                kv.second.bad_values);
    if (kv.first.find("float32") != std::string::npos)
      std::printf("  worst rel %.3g", kv.second.worst_rel);
    std::printf("\n");
    total_bad += kv.second.bad_cases;
    total += kv.second.cases;
  }
  std::printf("total: %ld cases, %ld mismatching, %ld errors\n", total, total_bad, errors);
  return (total_bad || errors) ? 1 : 0;
}
