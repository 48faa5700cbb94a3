#pragma once
#include "model/rocm.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// AMD ROCm as files and the environment show it: the KFD topology, the amdgpu module,
/// /dev/kfd and the render nodes against this process's groups, ROCm installs. Loads nothing;
/// the section's `hip` stays empty (the HIP child fills it).
RocmInfo probe_rocm_system(const ProbeContext& ctx);

}  // namespace gpudoctor
