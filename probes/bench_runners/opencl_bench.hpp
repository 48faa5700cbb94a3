#pragma once
#include <string>
#include <vector>

#include "core/isolate.hpp"

namespace gpudoctor::bench {

/// The body of one OpenCL bench job: the loader restricted to this one ICD, every device of
/// every platform gets the matmul sweep (opencl/opencl_matmul.hpp) and its copy rates, then,
/// when `clblast`, CLBlast's SGEMM where it is installed (clblast_series.hpp).
/// Isolated child only.
JobReport opencl_bench(const std::string& icd_library, const std::vector<int>& sizes,
                       bool clblast = true);

}  // namespace gpudoctor::bench
