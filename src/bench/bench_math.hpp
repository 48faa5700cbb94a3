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

/// Timed runs for size n: many for tiny matrices, whose single run is too short to time, one for
/// the large ones (about 2³⁰ FLOP of work per size, at least 1, at most 20).
int repeats_for(int n);

/// Sizes up to this are also checked against the CPU reference (O(n³) in double), so no
/// device is timed on wrong answers; larger ones would make the check outlast the bench.
inline constexpr int kVerifyUpToN = 256;

/// What a bench sweep asks a matmul runner for at size n.
smoke::MatmulRequest sweep_request(int n);

/// A runner's result as one point of a sweep: its time, or why there is none (a wrong result
/// has no GFLOPS).
BenchPoint point_from(const SmokeResult& result, const smoke::MatmulRequest& request);

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
