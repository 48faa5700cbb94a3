#include "rocm/rocm_system_probe.hpp"

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

}  // namespace

RocmInfo probe_rocm_system(const ProbeContext& ctx) {
  RocmInfo info;
  probe_kfd_topology(ctx.root, info);
  probe_amdgpu_module(ctx.root, info);
  info.installs = find_rocm_installs(ctx);
  info.lsmod = false;
  for (const char* f : {"/sbin/lsmod", "/usr/sbin/lsmod", "/bin/lsmod", "/usr/bin/lsmod"}) {
    if (ctx.root.exists(f)) info.lsmod = true;
  }
  // The process environment: under --sysroot it still describes the command being run.
  info.rocm_path = ctx.env.get("ROCM_PATH");
  info.hsa_override_gfx_version = ctx.env.get("HSA_OVERRIDE_GFX_VERSION");
  for (auto& n : info.nodes) {
    n.hsa_override_gfx_version = ctx.env.get("HSA_OVERRIDE_GFX_VERSION_" + std::to_string(n.node));
  }
  info.rocr_visible_devices = ctx.env.get("ROCR_VISIBLE_DEVICES");
  info.hip_visible_devices = ctx.env.get("HIP_VISIBLE_DEVICES");
  info.cuda_visible_devices = ctx.env.get("CUDA_VISIBLE_DEVICES");
  return info;
}

}  // namespace gpudoctor
