// What `gpudoctor diff` compares of the ROCm and macOS sections.
#include "report/diff_facts.hpp"
#include "text.hpp"

namespace gpudoctor::diff {

namespace {

std::optional<std::string> yes_no(const std::optional<bool>& b) {
  if (!b) return std::nullopt;
  return *b ? "yes" : "no";
}

/// "loaded (live)", "built-in"; "not loaded" only where the module list could be read.
std::optional<std::string> amdgpu_state(const RocmInfo& r) {
  if (!r.modules_listed) return std::nullopt;
  if (!r.amdgpu_module) return "not loaded";
  return *r.amdgpu_module + (r.amdgpu_initstate ? " (" + *r.amdgpu_initstate + ")" : "");
}

/// "/dev/dri/renderD128, /dev/kfd (no access)"; "none" where /dev was looked at.
std::optional<std::string> device_files(const RocmInfo& r) {
  if (!r.dev_listed) return std::nullopt;
  std::set<std::string> files;
  for (const auto& n : r.device_nodes) {
    const bool denied = n.readable == false || n.writable == false;
    files.insert(n.path + (denied ? " (no access)" : ""));
  }
  return files.empty() ? "none" : join({files.begin(), files.end()}, ", ");
}

/// Whether this process has the group that owns the GPU's device files.
std::string group_state(const GroupAccess& g, bool root) {
  if (root) return "not needed (root)";
  if (g.in_process) return "yes";
  return g.listed_for_user ? "listed for the user, not active in this session" : "no";
}

void add_rocm_access(Facts& f, const RocmInfo& r) {
  f.add(kDriver, "access", "ROCm device files", device_files(r));
  const bool root = r.account.uid == 0u;
  for (const auto& g : r.account.device_groups) {
    f.add(kDriver, "access", "in group " + g.group, group_state(g, root));
  }
}

void add_rocm_installs(Facts& f, const RocmInfo& r) {
  std::set<std::string> versions;
  for (const auto& in : r.installs) versions.insert(in.version.value_or(in.path));
  f.add_set(kToolkit, "toolkit", "ROCm installs", versions);
  // With one install the versions say it all; with several, the one /opt/rocm names is used.
  if (r.installs.size() < 2) return;
  for (const auto& in : r.installs) {
    if (in.default_link) f.add(kToolkit, "toolkit", "/opt/rocm is", in.version.value_or(in.path));
  }
}

void add_hip(Facts& f, const HipInfo& hip) {
  f.add(kToolkit, "toolkit", "HIP runtime", hip.runtime_version_text);
  if (!hip.error) return;
  const HipError& e = *hip.error;
  f.add(kDriver, "driver", "HIP",
        e.call + " returned " + std::to_string(e.code) + (e.name ? " (" + *e.name + ")" : ""));
}

/// "Radeon RX 5700 XT: macOS GPUFamily2 v1"; nothing when system_profiler said nothing.
std::optional<std::string> metal_of(const MacGpu& g) {
  std::optional<std::string> metal = g.metal;
  if (!metal && g.metal_supported) metal = *g.metal_supported ? "supported" : "not supported";
  if (!metal) return std::nullopt;
  return g.name.value_or("GPU") + ": " + *metal;
}

void add_mac_gpus(Facts& f, const MacosInfo& m) {
  std::set<std::string> metal, external;
  for (const auto& g : m.gpus) {
    if (auto text = metal_of(g)) metal.insert(*text);
    if (g.external != true) continue;
    const std::string lanes = g.pcie_lane_width ? std::to_string(*g.pcie_lane_width) : "?";
    external.insert(g.name.value_or("GPU") + " (PCIe x" + lanes + ")");
  }
  f.add_set(kDevice, "macos", "Metal", metal);
  f.add_set(kDevice, "macos", "external GPUs", external);
}

}  // namespace

void add_rocm(Facts& f, const Snapshot& s) {
  if (!s.rocm) return;
  const RocmInfo& r = *s.rocm;
  f.add(kDriver, "driver", "amdgpu kernel module", amdgpu_state(r));
  f.add(kDriver, "driver", "amdgpu module version", r.amdgpu_version);
  add_rocm_access(f, r);
  add_rocm_installs(f, r);
  if (r.hip) add_hip(f, *r.hip);
  std::set<std::string> targets;
  for (const auto& n : r.nodes)
    targets.insert(n.gfx_target.value_or("node " + std::to_string(n.node)));
  f.add_set(kDevice, "devices", "AMD GPU targets (KFD)", targets);
  f.add(kVariable, "variable", "HSA_OVERRIDE_GFX_VERSION", r.hsa_override_gfx_version);
  f.add(kVariable, "variable", "ROCM_PATH", r.rocm_path);
  f.add(kVariable, "variable", "ROCR_VISIBLE_DEVICES", r.rocr_visible_devices);
  f.add(kVariable, "variable", "HIP_VISIBLE_DEVICES", r.hip_visible_devices);
}

void add_macos(Facts& f, const Snapshot& s) {
  if (!s.macos) return;
  const MacosInfo& m = *s.macos;
  if (m.product_version) {
    // On a Mac the GPU drivers and Metal ship with the OS: its version is the driver's.
    f.add(kDriver, "driver", "macOS",
          *m.product_version + (m.build_version ? " (" + *m.build_version + ")" : ""));
  }
  f.add(kPython, "macos", "runs under Rosetta", yes_no(m.translated));
  add_mac_gpus(f, m);
  f.add(kVariable, "variable", "DYLD_LIBRARY_PATH", m.dyld_library_path);
  f.add(kVariable, "variable", "SYSTEM_VERSION_COMPAT", m.system_version_compat);
  if (m.plaidml)
    f.add(kFramework, "framework", "PlaidML device", join(m.plaidml->device_ids, ", "));
  f.add(kHost, "macos", "chip", m.cpu_brand);
  f.add(kHost, "macos", "Apple silicon", yes_no(m.arm64));
  if (m.memory_bytes) f.add(kHost, "macos", "memory", human_bytes(*m.memory_bytes));
}

}  // namespace gpudoctor::diff
