#pragma once
// One matmul sweep on one device, whatever the API: a runner (opencl_matmul.hpp,
// vulkan_matmul.hpp, the CUDA PTX matmul) called once per size.
#include <vector>

#include "bench/bench_math.hpp"
#include "bench/bench_model.hpp"

namespace gpudoctor::bench {

/// Appends a point per size to `series`. A runner that skips (it could not set up) ends the
/// sweep with the reason as the series' error.
template <typename Run>
void sweep(BenchSeries& series, const std::vector<int>& sizes, Run&& run) {
  for (int n : sizes) {
    std::vector<double> times;
    smoke::MatmulRequest req = sweep_request(n);
    req.times_ms = &times;
    const SmokeResult r = run(req);
    if (r.kernel) series.kernel = r.kernel;
    if (r.status == "skip") {
      series.error = r.reason.value_or("the matmul could not run");
      return;
    }
    series.points.push_back(point_from(r, times));
  }
}

}  // namespace gpudoctor::bench
