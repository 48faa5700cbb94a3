#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// The GPU code inside one shared library a framework loads (torch/lib/libtorch_cuda.so, …),
/// read from its ELF section headers and the fatbinary / offload-bundle headers they point to,
/// never the code itself: the ground truth of which GPUs the framework can run on.
struct GpuCodeLibrary {
  std::string path;                        ///< on the target machine
  std::optional<std::uint64_t> size_bytes;
  std::optional<std::string> error;        ///< why it could not be read, or where reading stopped
  std::vector<std::string> sass;           ///< CUDA cubins: "sm_80", "sm_90a", "sm_100f"
  std::vector<std::string> ptx;            ///< CUDA PTX, JIT-compiled by the driver: "compute_90"
  std::vector<std::string> lto;            ///< NVVM IR for link-time optimisation: "lto_89"
  std::vector<std::string> amdgpu;         ///< HIP code objects: "gfx1030", "gfx90a:xnack-"
  std::optional<std::uint64_t> cuda_fatbins;        ///< containers in .nv_fatbin; null: none
  std::optional<std::uint64_t> offload_bundles;     ///< bundles in .hip_fatbin; null: none
  std::optional<std::uint64_t> compressed_bundles;  ///< of those, compressed: targets not read
};
GPUDOCTOR_JSON(GpuCodeLibrary, path, size_bytes, error, sass, ptx, lto, amdgpu, cuda_fatbins,
               offload_bundles, compressed_bundles)

}  // namespace gpudoctor
