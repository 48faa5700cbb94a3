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

/// Tried in order (platform/library_names.cpp): on Linux OpenBLAS itself, then the
/// reference-BLAS name that Debian's alternatives point at OpenBLAS; on a Mac Accelerate. All
/// export cblas_sgemm.
inline const std::vector<std::string>& kBlasLibraries = library_names(host_platform()).blas;

/// Times cblas_sgemm at every size (a warm-up call, then repeats_for(n) timed calls).
/// `cpu_name` names the series ("Intel(R) Xeon(R) …"). Runs in an isolated child: OpenBLAS
/// starts its thread pool when loaded, and a forking parent must stay single threaded.
JobReport blas_sweep(const std::vector<std::string>& libraries, const std::vector<int>& sizes,
                     const std::string& cpu_name);

}  // namespace gpudoctor::bench
