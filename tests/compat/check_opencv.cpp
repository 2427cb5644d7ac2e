// check_opencv.cpp: compares src/imaging/opencv.cpp with cv2.resize on the cases of
// tests/compat/oracle_opencv.py (newline-delimited JSON on stdin). Development tool:
//
//   g++ -O2 -std=c++17 -Isrc -DOSW_USE_SIMDE tests/compat/check_opencv.cpp
//       src/imaging/opencv.cpp -o /tmp/check_opencv    (or -DOSW_SCALAR=1)
//   /usr/bin/python3 tests/compat/oracle_opencv.py --seed 1 --cases 2000 | /tmp/check_opencv
//
// uint8 must match byte for byte; float32 within 1e-5 relative (|d| <= 1e-5 * max(1, |ref|)),
// and exact matches are counted too. Prints one line per mismatching case (-v: every
// mismatching value) and a summary per interpolation and type; exits 1 on any mismatch.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "imaging/imaging.h"

namespace {

std::string field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\":";
  size_t p = line.find(k);
  if (p == std::string::npos) return "";
  p += k.size();
  while (p < line.size() && line[p] == ' ') ++p;
  size_t e = p;
  if (line[p] == '"') {
    e = line.find('"', p + 1);
    return line.substr(p + 1, e - p - 1);
  }
  if (line[p] == '[') {
    e = line.find(']', p);
    return line.substr(p + 1, e - p - 1);
  }
  while (e < line.size() && line[e] != ',' && line[e] != '}') ++e;
  return line.substr(p, e - p);
}

std::vector<uint8_t> b64(const std::string& s) {
  static int8_t t[256];
  static bool init = false;
  if (!init) {
    std::memset(t, -1, sizeof t);
    const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[uint8_t(a[i])] = int8_t(i);
    init = true;
  }
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    if (t[uint8_t(c)] < 0) continue;
    acc = (acc << 6) | uint32_t(t[uint8_t(c)]);
    bits += 6;
    if (bits >= 8) bits -= 8, out.push_back(uint8_t(acc >> bits));
  }
  return out;
}

std::vector<int64_t> ints(const std::string& s) {
  std::vector<int64_t> v;
  const char* p = s.c_str();
  while (*p) {
    char* e;
    const long long x = std::strtoll(p, &e, 10);
    if (e == p) { ++p; continue; }
    v.push_back(x);
    p = e;
  }
  return v;
}

struct Tally {
  int cases = 0, bad = 0, exact = 0;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace osw::compat;
  const bool verbose = argc > 1 && std::strcmp(argv[1], "-v") == 0;
  const std::map<std::string, CvInterp> interps = {{"nearest", CvInterp::Nearest},
                                                   {"nearest_exact", CvInterp::NearestExact},
                                                   {"linear", CvInterp::Linear},
                                                   {"cubic", CvInterp::Cubic},
                                                   {"area", CvInterp::Area}};
  std::map<std::string, Tally> tally;
  std::string line;
  int lineno = 0, total_bad = 0;
  double worst_rel = 0;
  while (std::getline(std::cin, line)) {
    ++lineno;
    if (line.empty()) continue;
    const std::string interp = field(line, "interp"), dtype = field(line, "dtype");
    const auto in = ints(field(line, "in")), out = ints(field(line, "out"));
    const std::string fxs = field(line, "fx"), fys = field(line, "fy");
    const auto x = b64(field(line, "x")), yref = b64(field(line, "y"));
    ImageBatch g{1, in[0], in[1], in[2], out[0], out[1]};
    const bool dsize = fxs == "null";
    const double isx = dsize ? double(out[1]) / double(in[1]) : std::strtod(fxs.c_str(), nullptr);
    const double isy = dsize ? double(out[0]) / double(in[0]) : std::strtod(fys.c_str(), nullptr);
    Tally& t = tally[interp + " " + dtype];
    ++t.cases;
    std::vector<uint8_t> y(yref.size());
    int rc;
    if (dtype == "uint8")
      rc = opencv_resize_u8(x.data(), y.data(), g, isx, isy, interps.at(interp));
    else
      rc = opencv_resize_f32(reinterpret_cast<const float*>(x.data()),
                             reinterpret_cast<float*>(y.data()), g, isx, isy, interps.at(interp));
    int nbad = 0;
    bool exact = rc == kOk && y == yref;
    if (rc != kOk) {
      nbad = 1;
    } else if (dtype == "uint8") {
      for (size_t i = 0; i < y.size(); ++i)
        if (y[i] != yref[i]) {
          if (verbose)
            std::printf("  line %d: [%zu] (y %lld x %lld c %lld) got %d want %d\n", lineno, i,
                        (long long)(i / (out[1] * in[2])), (long long)(i / in[2] % out[1]),
                        (long long)(i % in[2]), y[i], yref[i]);
          ++nbad;
        }
    } else {
      const float* a = reinterpret_cast<const float*>(y.data());
      const float* b = reinterpret_cast<const float*>(yref.data());
      for (size_t i = 0; i < y.size() / 4; ++i) {
        const double d = std::fabs(double(a[i]) - double(b[i]));
        const double rel = d / std::max(1.0, std::fabs(double(b[i])));
        worst_rel = std::max(worst_rel, rel);
        if (!(rel <= 1e-5)) {
          if (verbose) std::printf("  line %d: [%zu] got %.9g want %.9g\n", lineno, i, a[i], b[i]);
          ++nbad;
        }
      }
    }
    t.exact += exact;
    if (nbad) {
      ++t.bad, ++total_bad;
      std::printf("MISMATCH line %d: %s %s in %lldx%lldx%lld out %lldx%lld %s%s%s%s rc %d: %d values\n",
                  lineno, interp.c_str(), dtype.c_str(), (long long)in[0], (long long)in[1],
                  (long long)in[2], (long long)out[0], (long long)out[1], dsize ? "dsize" : "fx ",
                  dsize ? "" : fxs.c_str(), dsize ? "" : " fy ", dsize ? "" : fys.c_str(), rc, nbad);
    }
  }
  for (const auto& kv : tally)
    std::printf("%-22s %5d cases, %5d mismatching, %5d bit-exact\n", kv.first.c_str(),
                kv.second.cases, kv.second.bad, kv.second.exact);
  std::printf("float32 worst relative difference: %.3g\n", worst_rel);
  return total_bad ? 1 : 0;
}
