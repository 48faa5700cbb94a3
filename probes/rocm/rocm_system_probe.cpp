#include "rocm/rocm_system_probe.hpp"

#include <set>

#include "core/device_nodes.hpp"
#include "parse/nvidia_kernel.hpp"
#include "rocm/rocm_readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// "loaded" when /proc/modules lists amdgpu or /sys/module/amdgpu has an initstate (only
/// loadable modules have one); "built-in" when /sys/module/amdgpu exists without it.
void probe_amdgpu_module(const Root& root, RocmInfo& info) {
  bool listed = false;
  auto text = root.read("/proc/modules");
  if (text) {
    for (const auto& name : parse_proc_modules(*text)) listed = listed || name == "amdgpu";
  }
  info.modules_listed = text.has_value() || root.is_directory("/sys/module");
  info.amdgpu_initstate = root.read_line("/sys/module/amdgpu/initstate");
  if (auto v = root.read_line("/sys/module/amdgpu/version"); v && !v->empty()) {
    info.amdgpu_version = *v;
  }
  if (listed || info.amdgpu_initstate) {
    info.amdgpu_module = "loaded";
  } else if (root.is_directory("/sys/module/amdgpu")) {
    info.amdgpu_module = "built-in";
  }
}

/// /dev/kfd and every /dev/dri/renderD*.
std::vector<DeviceNode> device_nodes(const ProbeContext& ctx) {
  const auto groups = group_names(ctx.root);
  std::vector<DeviceNode> nodes;
  std::set<std::string> paths;
  if (ctx.root.exists("/dev/kfd")) paths.insert("/dev/kfd");
  for (const auto& name : ctx.root.list("/dev/dri")) {
    if (starts_with(name, "renderD")) paths.insert("/dev/dri/" + name);
  }
  for (const auto& p : paths) nodes.push_back(read_device_node(ctx, groups, p));
  return nodes;
}

}  // namespace

RocmInfo probe_rocm_system(const ProbeContext& ctx) {
  RocmInfo info;
  probe_kfd_topology(ctx.root, info);
  probe_amdgpu_module(ctx.root, info);
  info.device_nodes = device_nodes(ctx);
  info.dev_listed = ctx.live || !ctx.root.list("/dev").empty();
  info.installs = find_rocm_installs(ctx);
  info.account = probe_account(ctx.root, info.device_nodes);
  // The process environment: under --sysroot it still describes the command being run.
  info.rocm_path = ctx.env.get("ROCM_PATH");
  info.hsa_override_gfx_version = ctx.env.get("HSA_OVERRIDE_GFX_VERSION");
  for (auto& n : info.nodes) {
    n.hsa_override_gfx_version = ctx.env.get("HSA_OVERRIDE_GFX_VERSION_" + std::to_string(n.node));
  }
  info.rocr_visible_devices = ctx.env.get("ROCR_VISIBLE_DEVICES");
  info.hip_visible_devices = ctx.env.get("HIP_VISIBLE_DEVICES");
  return info;
}

}  // namespace gpudoctor
