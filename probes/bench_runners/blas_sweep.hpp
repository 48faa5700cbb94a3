#pragma once
// The CPU baseline the way frameworks get theirs: SGEMM from OpenBLAS through its CBLAS entry
// point, opened at run time (no link-time dependency for the other commands).
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "core/isolate.hpp"

namespace gpudoctor::bench {

/// Sonames tried in order: OpenBLAS itself, then the reference-BLAS name that Debian's
/// alternatives point at OpenBLAS (both export cblas_sgemm).
inline const std::vector<std::string> kBlasLibraries = {"libopenblas.so.0", "libblas.so.3"};

/// Times cblas_sgemm at every size as every series is timed (sweep_request, time_runs).
/// `cpu_name` names the series ("Intel(R) Xeon(R) …"). Runs in an isolated child: OpenBLAS
/// starts its thread pool when loaded, and a forking parent must stay single threaded.
JobReport blas_sweep(const std::vector<std::string>& libraries, const std::vector<int>& sizes,
                     const std::string& cpu_name);

}  // namespace gpudoctor::bench
