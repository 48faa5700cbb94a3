#include <algorithm>
#include <array>
#include <set>

#include "core/device_nodes.hpp"
#include "nvidia/nvidia_readers.hpp"
#include "parse/nvidia_kernel.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

// nvidia_peermem (the driver's own since R470) and nv_peer_mem (MLNX_OFED's before it) give
// RDMA NICs access to GPU memory (GPUDirect RDMA).
constexpr std::array<const char*, 7> kModules = {"nvidia",         "nvidia_uvm",     "nvidia_drm",
                                                 "nvidia_modeset", "nouveau",        "nvidia_peermem",
                                                 "nv_peer_mem"};
constexpr const char* kSecureBootVar =
    "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
constexpr std::array<const char*, 5> kModprobeDirs = {"/etc/modprobe.d", "/run/modprobe.d",
                                                      "/usr/local/lib/modprobe.d",
                                                      "/lib/modprobe.d", "/usr/lib/modprobe.d"};

std::vector<std::string> loaded_modules(const Root& paths) {
  std::set<std::string> listed;
  if (auto text = paths.read("/proc/modules")) {
    for (auto& name : parse_proc_modules(*text)) listed.insert(std::move(name));
  }
  std::vector<std::string> out;
  for (const char* m : kModules) {
    // /sys/module/<name> also exists for a module built into the kernel.
    if (listed.count(m) != 0 || paths.is_directory(std::string("/sys/module/") + m)) {
      out.emplace_back(m);
    }
  }
  return out;
}

std::vector<DeviceNode> device_nodes(const ProbeContext& ctx, const Root& paths) {
  const auto groups = group_names(paths);
  std::vector<DeviceNode> nodes;
  for (const auto& name : paths.list("/dev")) {
    if (!starts_with(name, "nvidia")) continue;
    const std::string path = "/dev/" + name;
    nodes.push_back(read_device_node(ctx, groups, path));
    if (paths.is_directory(path)) {  // /dev/nvidia-caps/nvidia-cap1, …
      for (const auto& child : paths.list(path)) {
        nodes.push_back(read_device_node(ctx, groups, path + "/" + child));
      }
    }
  }
  return nodes;
}

/// /var/lib/dkms/<module>/<version>/<kernel>/<arch>/ means built; a link
/// /var/lib/dkms/<module>/kernel-<kernel>-<arch> to it means installed (dkms's own test).
std::vector<std::string> dkms_status(const Root& paths) {
  static const std::set<std::string> kNotKernels = {"source", "build", "tarball", "driver_disk",
                                                    "rpm", "deb", "log"};
  std::vector<std::string> out;
  const std::string tree = "/var/lib/dkms";
  for (const auto& module : paths.list(tree)) {
    if (!starts_with(module, "nvidia")) continue;
    const std::string mdir = tree + "/" + module;
    for (const auto& version : paths.list(mdir)) {
      if (starts_with(version, "kernel-") || version == "original_module") continue;
      const std::string vdir = mdir + "/" + version;
      if (!paths.is_directory(vdir)) continue;
      bool any = false;
      for (const auto& kernel : paths.list(vdir)) {
        if (kNotKernels.count(kernel) != 0 || !paths.is_directory(vdir + "/" + kernel)) continue;
        for (const auto& arch : paths.list(vdir + "/" + kernel)) {
          const std::string built = vdir + "/" + kernel + "/" + arch;
          if (!paths.is_directory(built)) continue;
          const std::string link = mdir + "/kernel-" + kernel + "-" + arch;
          bool installed = paths.link_target(paths.resolve(mdir) + "/kernel-" + kernel +
                                                    "-" + arch) &&
                           paths.resolve(link) == paths.resolve(built);
          out.push_back(module + "/" + version + ", " + kernel + ", " + arch + ": " +
                        (installed ? "installed" : "built"));
          any = true;
        }
      }
      if (!any) out.push_back(module + "/" + version + ": added");
    }
  }
  return out;
}

std::vector<std::string> nouveau_blacklists(const Root& paths) {
  std::vector<std::string> out;
  std::set<std::string> seen_dirs;
  for (const char* dir : kModprobeDirs) {
    if (!seen_dirs.insert(paths.resolve(dir)).second) continue;  // /lib → /usr/lib
    for (const auto& name : paths.list(dir)) {
      if (!ends_with(name, ".conf")) continue;
      const std::string path = std::string(dir) + "/" + name;
      auto text = paths.read(path);
      if (text && modprobe_disables(*text, "nouveau")) out.push_back(path);
    }
  }
  if (auto text = paths.read("/etc/modprobe.conf")) {
    if (modprobe_disables(*text, "nouveau")) out.emplace_back("/etc/modprobe.conf");
  }
  return out;
}

}  // namespace

NvidiaKernel probe_nvidia_kernel(const ProbeContext& ctx, const Root& paths) {
  NvidiaKernel k;
  if (auto text = paths.read("/proc/driver/nvidia/version", 64 * 1024)) {
    auto lines = split_lines(*text);
    if (!lines.empty() && !trim(lines.front()).empty()) {
      k.proc_version = std::string(trim(lines.front()));
    }
    if (auto v = parse_nvrm_version(*text)) {
      k.module_version = v->version;
      k.module_flavor = v->flavor;
    }
  }
  if (auto v = paths.read_line("/sys/module/nvidia/version"); v && !v->empty()) {
    k.sys_module_version = *v;
    if (!k.module_version) k.module_version = *v;  // the loaded module says the same thing
  }
  // negativo17's packages build the module variant /etc/nvidia/kernel.conf names
  // (https://github.com/negativo17/nvidia-driver/issues/158): with the module loaded, that is
  // its flavour when /proc does not say it.
  if (!k.module_flavor && paths.is_directory("/sys/module/nvidia")) {
    if (auto conf = paths.read("/etc/nvidia/kernel.conf", 64 * 1024)) {
      for (const auto& line : split_lines(*conf)) {
        const std::string_view l = trim(line);
        if (l == "MODULE_VARIANT=kernel-open" || l == "MODULE_VARIANT=kernel") {
          k.module_flavor = l == "MODULE_VARIANT=kernel-open" ? "open" : "proprietary";
          k.module_flavor_from = "/etc/nvidia/kernel.conf: " + std::string(l);
        }
      }
    }
  }
  k.loaded_modules = loaded_modules(paths);
  k.modules_listed = paths.exists("/proc/modules") || paths.is_directory("/sys/module");
  k.device_nodes = device_nodes(ctx, paths);
  k.dev_listed = ctx.live || !paths.list("/dev").empty();
  if (auto bytes = paths.read(kSecureBootVar, 64)) k.secure_boot = parse_secure_boot_var(*bytes);
  k.dkms = dkms_status(paths);
  k.nouveau_blacklisted_in = nouveau_blacklists(paths);
  if (auto cmdline = paths.read("/proc/cmdline", 64 * 1024)) {
    k.nouveau_cmdline = cmdline_params_for(*cmdline, "nouveau");
    k.iommu_cmdline = cmdline_iommu_params(*cmdline);
  }
  return k;
}

}  // namespace gpudoctor
