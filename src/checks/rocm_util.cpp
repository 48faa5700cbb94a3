// What the ROCm checks share.
#include "checks/rocm_util.hpp"

#include <algorithm>

#include "backends.hpp"
#include "checks/arch_facts.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

const RocmInstall* active_install(const RocmInfo& r) {
  for (const auto& in : r.installs) {
    if (in.default_link && in.version) return &in;
  }
  const RocmInstall* found = nullptr;
  for (const auto& in : r.installs) {
    if (!in.version) continue;
    if (found != nullptr) return nullptr;  // several, none the default: which one is used?
    found = &in;
  }
  return found;
}

std::vector<RocmBuild> rocm_builds(const Snapshot& s) {
  std::vector<RocmBuild> out;
  if (const RocmInstall* in = active_install(*s.rocm)) {
    if (auto v = parse_version(*in->version)) {
      out.push_back({"rocm.gfx_unsupported", "ROCm " + *in->version + " (" + in->path + ")", *v});
    }
  }
  if (!s.python) return out;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name != "torch" || !p.torch || !p.torch->local_version) continue;
      if (auto v = rocm_version_from_tag(*p.torch->local_version)) {
        out.push_back(
            {"rocm.torch_gfx_unsupported",
             "torch " + p.torch->version.value_or(p.version.value_or("?")) + " in " + env.prefix,
             *v, files_amdgpu(p).has_value()});
      }
    }
  }
  return out;
}

std::string node_label(const CheckInput& in, std::size_t i) {
  const KfdNode& n = in.snap.rocm->nodes[i];
  std::string name = "KFD node " + std::to_string(n.node);
  for (const auto& m : in.devices) {
    const auto& kfd = m.in(kApiKfd);
    if (std::find(kfd.begin(), kfd.end(), i) != kfd.end()) name = m.name;
  }
  std::vector<std::string> extra;
  for (const auto& part : {n.gfx_target, n.pci_address}) {
    if (part && name.find(*part) == std::string::npos) extra.push_back(*part);
  }
  return extra.empty() ? name : name + " (" + join(extra, ", ") + ")";
}

bool amdgpu_not_loaded(const Snapshot& s) {
  if (!s.rocm) return false;
  const RocmInfo& r = *s.rocm;
  const bool userland = !r.installs.empty() || (r.hip && r.hip->library);
  if (!userland || r.amdgpu_module) return false;
  if (r.modules_listed) return !(r.nodes.empty() && pci_shows_no_gpu_of(s, kPciVendorAmd));
  const auto amd = pci_gpus(s, kPciVendorAmd);
  return !amd.empty() && r.nodes.empty() &&
         std::all_of(amd.begin(), amd.end(), [](const PciDevice* p) { return !p->driver; });
}

bool lists(const RocmRelease& row, const std::string& gfx) {
  return std::find(row.gfx.begin(), row.gfx.end(), gfx) != row.gfx.end();
}

}  // namespace gpudoctor
