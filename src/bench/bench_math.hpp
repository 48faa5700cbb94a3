#pragma once
// The arithmetic of `gpudoctor bench`: pure functions on measured numbers.
#include <optional>
#include <vector>

#include "bench/bench_model.hpp"
#include "model/smoke.hpp"
#include "smoke/matmul_request.hpp"

namespace gpudoctor::bench {

/// Powers of two up to what a CPU-only driver (PoCL, lavapipe) finishes in seconds.
inline const std::vector<int> kDefaultSizes = {64, 128, 256, 512, 1024};

/// How every point of a sweep is timed, so that one slow run cannot make the figure: at least
/// kMinRepeats runs, each timed on its own; small sizes get more, up to kMaxRepeats while their
/// total stays under kPointBudgetMs, so the median means something; a device so slow that its
/// runs pass kPointCapMs together stops there (its point says how many ran).
inline constexpr int kMinRepeats = 5;
inline constexpr int kMaxRepeats = 50;
inline constexpr double kPointBudgetMs = 300;
inline constexpr double kPointCapMs = 30000;

/// Sizes up to this are also checked against the CPU reference (O(n³) in double), so no
/// device is timed on wrong answers; larger ones would make the check outlast the bench.
inline constexpr int kVerifyUpToN = 256;

/// What a bench sweep asks a matmul runner for at size n.
smoke::MatmulRequest sweep_request(int n);

/// A runner's result and its timed runs as one point of a sweep: the best time and its GFLOPS,
/// the median and the spread, or why there is none (a wrong result has no GFLOPS).
BenchPoint point_from(const SmokeResult& result, const std::vector<double>& times_ms);

/// The median of the values (the mean of the middle two for an even count); nullopt for none.
std::optional<double> median(std::vector<double> values);

/// Sorted, without repeats.
std::vector<int> normalized_sizes(std::vector<int> sizes);

/// a / b, when both are known and b > 0.
std::optional<double> ratio(std::optional<double> a, std::optional<double> b);

/// part / whole × 100, when both are known and whole > 0.
std::optional<double> percent(std::optional<double> part, std::optional<double> whole);

/// The GFLOPS at size n in a series, if it was measured.
std::optional<double> gflops_at(const std::vector<BenchPoint>& points, int n);

/// The smallest n from which `device` beats `cpu` at every larger size both measured; nullopt
/// when it does not win at the largest common size (or they share none).
std::optional<int> wins_from(const std::vector<BenchPoint>& cpu,
                             const std::vector<BenchPoint>& device);

/// The fastest point of a series.
const BenchPoint* best_point(const std::vector<BenchPoint>& points);

/// GB/s one PCIe lane carries in each direction at this generation (transfer rate × encoding
/// efficiency: 8b/10b for Gen1–2, 128b/130b for Gen3–5, 242B/256B FLITs for Gen6); nullopt for
/// a generation it does not know.
std::optional<double> pcie_lane_gbs(int generation);

/// The link's GB/s per direction: lane rate × width.
std::optional<double> pcie_link_gbs(std::optional<int> generation, std::optional<int> width);

}  // namespace gpudoctor::bench
