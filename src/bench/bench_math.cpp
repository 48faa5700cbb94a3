#include "bench/bench_math.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace gpudoctor::bench {

smoke::MatmulRequest sweep_request(int n) {
  smoke::MatmulRequest req;
  req.n = n;
  req.repeats = kMinRepeats;
  req.max_repeats = kMaxRepeats;
  req.budget_ms = kPointBudgetMs;
  req.cap_ms = kPointCapMs;
  req.verify = n <= kVerifyUpToN;
  return req;
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

BenchPoint point_from(const SmokeResult& result, const std::vector<double>& times_ms) {
  BenchPoint p;
  p.n = result.n.value_or(0);
  p.repeats = static_cast<int>(times_ms.size());
  // "unverified": the runner timed it and was not asked to check the product (n > kVerifyUpToN).
  if (result.status != "pass" && result.status != "unverified") {
    p.error = result.status + ": " + result.reason.value_or("no reason given");
    return p;
  }
  p.ms = result.kernel_ms;
  p.gflops = result.gflops;
  if (!p.ms) {
    p.error = "the runner reported no time";
    return p;
  }
  p.median_ms = median(times_ms);
  if (!times_ms.empty()) {
    const double slowest = *std::max_element(times_ms.begin(), times_ms.end());
    p.spread_percent = percent(slowest - *p.ms, p.ms);
  }
  return p;
}

std::vector<int> normalized_sizes(std::vector<int> sizes) {
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::optional<double> ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || !(*b > 0)) return std::nullopt;
  return *a / *b;
}

std::optional<double> percent(std::optional<double> part, std::optional<double> whole) {
  auto r = ratio(part, whole);
  if (!r) return std::nullopt;
  return *r * 100.0;
}

std::optional<double> gflops_at(const std::vector<BenchPoint>& points, int n) {
  for (const auto& p : points) {
    if (p.n == n) return p.gflops;
  }
  return std::nullopt;
}

std::optional<int> wins_from(const std::vector<BenchPoint>& cpu,
                             const std::vector<BenchPoint>& device) {
  std::optional<int> from;
  for (auto it = device.rbegin(); it != device.rend(); ++it) {
    auto speedup = ratio(it->gflops, gflops_at(cpu, it->n));
    if (!speedup) continue;
    if (*speedup <= 1.0) break;
    from = it->n;
  }
  return from;
}

const BenchPoint* best_point(const std::vector<BenchPoint>& points) {
  const BenchPoint* best = nullptr;
  for (const auto& p : points) {
    if (p.gflops && (best == nullptr || *p.gflops > *best->gflops)) best = &p;
  }
  return best;
}

std::optional<double> pcie_lane_gbs(int generation) {
  // PCI Express Base Specification transfer rates with their encodings, as tabulated in
  // https://en.wikipedia.org/wiki/PCI_Express#Comparison_table
  switch (generation) {
    case 1:
      return 2.5 * 8 / 10 / 8;
    case 2:
      return 5.0 * 8 / 10 / 8;
    case 3:
      return 8.0 * 128 / 130 / 8;
    case 4:
      return 16.0 * 128 / 130 / 8;
    case 5:
      return 32.0 * 128 / 130 / 8;
    case 6:
      return 64.0 * 242 / 256 / 8;
    default:
      return std::nullopt;
  }
}

std::optional<double> pcie_link_gbs(std::optional<int> generation, std::optional<int> width) {
  if (!generation || !width || *width <= 0) return std::nullopt;
  auto lane = pcie_lane_gbs(*generation);
  if (!lane) return std::nullopt;
  return *lane * *width;
}

}  // namespace gpudoctor::bench
