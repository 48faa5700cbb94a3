#pragma once
// HSA_OVERRIDE_GFX_VERSION against the GPU it applies to: a value libhsakmt refuses, one that
// makes the runtime load another generation's code, or one other than the value known to work
// for that target.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checks/checks.hpp"
#include "checks/rocm_util.hpp"

namespace gpudoctor {

/// The override that applies to KFD node `n` as (variable, value): HSA_OVERRIDE_GFX_VERSION_<n>
/// first, as newer libhsakmt reads it, else HSA_OVERRIDE_GFX_VERSION; nullopt when neither is set.
std::optional<std::pair<std::string, std::string>> node_override(const RocmInfo& r,
                                                                 const KfdNode& n);

/// Reports the override of KFD node `i` as rocm.gfx_override_wrong when it cannot work; true when
/// it did, and then that finding alone speaks for the node's target. `builds` are the ROCm
/// releases in use (installed, or a torch +rocm build).
bool report_wrong_override(const CheckSpec& self, const CheckInput& in, std::size_t i,
                           const std::vector<RocmBuild>& builds, std::vector<Finding>& out);

}  // namespace gpudoctor
