#pragma once
// Whether a GPU can run the code a framework carries, by NVIDIA's and AMD's compatibility rules.
#include <optional>
#include <string>
#include <vector>

#include "compat/compat_data.hpp"

namespace gpudoctor {

/// How a GPU runs a set of CUDA targets: from a cubin of its own major (SASS is binary compatible
/// from X.y to X.z with z ≥ y; an "a" cubin runs only on its exact X.y), else by the driver
/// JIT-compiling PTX of an equal or lower arch (an "a" PTX only on X.y, an "f" PTX within its
/// major), else not at all: "no kernel image is available for execution on the device".
/// https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility
enum class CudaFit { native, ptx_jit, none };
struct CudaFitResult {
  CudaFit fit = CudaFit::none;
  std::optional<std::string> via;  ///< the target used: "sm_86", "compute_80"
};
CudaFitResult cuda_fit(const ComputeCapability& gpu, const std::vector<std::string>& sass,
                       const std::vector<std::string>& ptx);

/// Whether a list of AMD target IDs ("gfx90a:xnack-", "gfx1030") has code for processor `gfx`:
/// code objects need an exact processor match.
std::optional<std::string> amdgpu_match(const std::string& gfx,
                                        const std::vector<std::string>& targets);

/// "7.5" → "sm_75"; "12.0" → "sm_120".
std::string sm_name(const Version& cc, const char* prefix = "sm_");

}  // namespace gpudoctor
