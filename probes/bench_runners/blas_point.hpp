#pragma once
// One point of a library's SGEMM series (a CPU BLAS, CLBlast, cuBLAS), timed, checked and
// reported the way gpudoctor's own kernels are (sweep.hpp): the same inputs, the same
// time_runs, the same verdict at the same sizes.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::bench {

/// What a library run needs: put A and B (n×n, row-major) where the library reads them; one
/// C = A·B that returns once it is done; C back as n×n row-major. Each returns the failed
/// call's text, or nullopt.
struct LibraryMatmul {
  std::function<std::optional<std::string>(const smoke::MatmulInputs&)> upload;
  smoke::RunOnce once;
  std::function<std::optional<std::string>(std::vector<float>&)> download;
};

BenchPoint library_point(int n, const LibraryMatmul& run);

/// The device's series of gpudoctor's kernel (`base`: api, device, library, traits) as the
/// start of a library's series on the same device: named `blas`, `kernel` what ran, no points,
/// no copy rates, no peak.
BenchSeries library_series(BenchSeries base, const std::string& blas, const std::string& kernel);

}  // namespace gpudoctor::bench
