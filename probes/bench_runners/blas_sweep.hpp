#pragma once
// The CPU baseline the way frameworks get theirs: SGEMM from OpenBLAS through its CBLAS entry
// point, opened at run time (no link-time dependency for the other commands).
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "core/host_platform.hpp"
#include "core/isolate.hpp"
#include "platform/library_names.hpp"

namespace gpudoctor::bench {

/// Times cblas_sgemm at every size as every series is timed (sweep_request, time_runs).
/// `libraries` are tried in order (bench/vendor_blas.hpp: OpenBLAS, MKL); the first that opens
/// is the series, named by what it says it is. `cpu_name` names the device ("Intel(R) Xeon(R)
/// …"); `install_hint` ends the job's text when none opens. Runs in an isolated child: a BLAS
/// starts its thread pool when loaded, and a forking parent must stay single threaded.
JobReport blas_sweep(const std::vector<std::string>& libraries, const std::vector<int>& sizes,
                     const std::string& cpu_name, const std::string& install_hint);

}  // namespace gpudoctor::bench
