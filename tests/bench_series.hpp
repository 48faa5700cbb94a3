#pragma once
// Bench series made up in the tests (a device, its sizes and GFLOPS), for the bench's unit
// tests; recorded bench outputs are in tests/fixtures/bench/.
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_model.hpp"

namespace gpudoctor::bench::test {

inline BenchSeries series(const std::string& api, const std::string& device,
                          std::vector<std::pair<int, double>> n_gflops) {
  BenchSeries s;
  s.api = api;
  s.device = device;
  for (auto [n, g] : n_gflops) {
    BenchPoint p;
    p.n = n;
    p.gflops = g;
    p.ms = 2.0 * n * n * n / (g * 1e9) * 1e3;
    s.points.push_back(p);
  }
  return s;
}

/// A GTX 1060-like CUDA device: 10 SMs × 128 cores × 2 × 1708 MHz = 4372 GFLOPS expected.
inline BenchSeries gpu(std::vector<std::pair<int, double>> n_gflops) {
  BenchSeries s = series("cuda", "NVIDIA GeForce GTX 1060 6GB", std::move(n_gflops));
  s.traits.vendor_id = 0x10de;
  s.traits.type = "gpu";
  s.traits.compute_units = 10;
  s.traits.clock_mhz = 1708;
  s.traits.cc_major = 6;
  s.traits.cc_minor = 1;
  s.traits.pci_bus_id = "0000:01:00.0";
  return s;
}

inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The line of the text that names both `kernel` and `device`; empty when none does.
inline std::string row_with(const std::string& text, const std::string& kernel,
                            const std::string& device) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line =
        text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.find(device) != std::string::npos && line.find(kernel) != std::string::npos) {
      return line;
    }
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return "";
}

}  // namespace gpudoctor::bench::test
