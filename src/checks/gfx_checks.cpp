// Whether a ROCm build of torch carries code objects for each AMD GPU, from the offload bundles
// read in its libraries (libtorch_hip.so). Where they could not be read, rocm.gfx_unsupported
// judges the build by ROCm's compatibility matrix instead.
#include <algorithm>

#include "backends.hpp"
#include "checks/arch_facts.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/code_targets.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_query.hpp"
#include "parse/kfd_topology.hpp"

namespace gpudoctor {

namespace {

/// "AMD Radeon RX 6700 XT (gfx1031)": the merged device's name for KFD node i.
std::string gpu_label(const CheckInput& in, std::size_t i) {
  const KfdNode& n = in.snap.rocm->nodes[i];
  std::string name = "KFD node " + std::to_string(n.node);
  for (const auto& m : in.devices) {
    const auto& kfd = m.in(kApiKfd);
    if (std::find(kfd.begin(), kfd.end(), i) != kfd.end()) name = m.name;
  }
  return name + " (" + *n.gfx_target + ")";
}

std::string fix_for(const CheckInput& in, const std::string& gfx, const AmdgpuCode& code) {
  auto ov = rocm_override(in.compat, gfx);
  if (ov && amdgpu_match(ov->runs_as, code.targets)) {
    return "export HSA_OVERRIDE_GFX_VERSION=" + ov->value + " before starting Python: the " +
           "runtime then treats the GPU as " + ov->runs_as + ", which this build carries (AMD " +
           "does not support this; see " + ov->from.url + ")";
  }
  return "install a torch ROCm build whose kernels include " + gfx +
         " (https://pytorch.org/get-started/locally/), or build it with PYTORCH_ROCM_ARCH=" + gfx;
}

}  // namespace

void check_framework_gfx(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.rocm || !in.snap.python) return;
  const auto& env_value = in.snap.rocm->hsa_override_gfx_version;
  const auto runs_as = env_value ? gfx_override_target(*env_value) : std::nullopt;
  for (const auto& env : in.snap.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name != "torch" || !p.torch || !p.torch->hip) continue;
      auto code = files_amdgpu(p);
      if (!code) continue;  // rocm.gfx_unsupported judges it from the matrix
      const std::string label =
          "torch " + p.torch->version.value_or(p.version.value_or("?")) + " in " + env_label(env);
      for (std::size_t i = 0; i < in.snap.rocm->nodes.size(); ++i) {
        const auto& gfx = in.snap.rocm->nodes[i].gfx_target;
        if (!gfx) continue;
        const std::string effective = runs_as.value_or(*gfx);
        if (amdgpu_match(effective, code->targets)) continue;
        Finding f = make_finding(self, Severity::fail,
                                 gpu_label(in, i) + " has no code objects in " + label +
                                     ": \"HIP error: invalid device function\"");
        f.evidence = code->evidence;
        f.evidence.push_back("GPU target (KFD gfx_target_version): " + *gfx);
        if (env_value) {
          f.evidence.push_back("HSA_OVERRIDE_GFX_VERSION=" + *env_value + " (runs as " +
                               runs_as.value_or("no valid target") + ")");
        }
        f.fix = fix_for(in, *gfx, *code);
        out.push_back(std::move(f));
      }
    }
  }
}

}  // namespace gpudoctor
