// The GPU's device files, /dev/dri/by-path, container device mounts and runtime files.
#include "host/access_probe.hpp"

#include <set>

#include "core/device_nodes.hpp"
#include "parse/device_access.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// The paths of every GPU device file under /dev, sorted.
std::set<std::string> device_paths(const Root& root) {
  std::set<std::string> paths;
  for (const char* p : {"/dev/kfd", "/dev/dxg"}) {
    if (root.exists(p)) paths.insert(p);
  }
  for (const auto& name : root.list("/dev")) {
    if (!starts_with(name, "nvidia")) continue;
    const std::string path = "/dev/" + name;
    if (!root.is_directory(path)) {
      paths.insert(path);
      continue;
    }
    for (const auto& cap : root.list(path)) paths.insert(path + "/" + cap);  // nvidia-caps
  }
  for (const auto& name : root.list("/dev/dri")) {
    const std::string path = "/dev/dri/" + name;
    if (is_gpu_device_path(path)) paths.insert(path);
  }
  return paths;
}

/// pci-0000:03:00.0-render → ../renderD128. A recorded tree without the links has none.
std::vector<DriPciLink> dri_by_path(const Root& root) {
  std::vector<DriPciLink> out;
  for (const auto& name : root.list("/dev/dri/by-path")) {
    const auto pci = pci_address_of_by_path(name);
    const auto target = root.link_target("/dev/dri/by-path/" + name);
    if (!pci || !target || target->empty()) continue;
    std::string node = *target;
    if (starts_with(node, "../")) node = "/dev/dri/" + node.substr(3);
    if (is_gpu_device_path(node)) out.push_back({node, *pci});
  }
  return out;
}

/// Files of `dirs` whose names end in one of `suffixes`, with a CDI spec's kind when `kinds`.
std::vector<RuntimeFile> runtime_files(const Root& root, std::initializer_list<const char*> dirs,
                                       std::initializer_list<const char*> suffixes, bool kinds) {
  std::vector<RuntimeFile> out;
  std::set<std::string> seen;  // /var/run is /run on most systems
  for (const char* dir : dirs) {
    for (const auto& name : root.list(dir)) {
      bool wanted = false;
      for (const char* s : suffixes) wanted = wanted || ends_with(name, s);
      const std::string path = std::string(dir) + "/" + name;
      if (!wanted || !seen.insert(root.resolve(path)).second) continue;
      RuntimeFile f{path, std::nullopt};
      if (kinds) {
        if (auto text = root.read(path, 4 << 20)) f.kind = cdi_spec_kind(*text);
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace

HostAccess probe_access(const ProbeContext& ctx) {
  const Root& root = ctx.root;
  HostAccess a;
  const auto groups = group_names(root);
  for (const auto& p : device_paths(root)) a.device_nodes.push_back(read_device_node(ctx, groups, p));
  a.dev_listed = ctx.live || !root.list("/dev").empty();
  a.dri_by_path = dri_by_path(root);
  a.account = probe_account(root, a.device_nodes);
  a.workloads = probe_workloads(ctx);
  if (auto text = root.read("/proc/self/mountinfo")) a.device_mounts = parse_device_mounts(*text);
  // The spec directories of the CDI specification
  // (https://github.com/cncf-tags/container-device-interface/blob/main/SPEC.md); the OCI hook
  // directories of Podman and CRI-O (oci-hooks(5), https://github.com/containers/common).
  a.cdi_specs = runtime_files(root, {"/etc/cdi", "/var/run/cdi"}, {".yaml", ".yml", ".json"}, true);
  a.oci_hooks = runtime_files(
      root, {"/usr/share/containers/oci/hooks.d", "/etc/containers/oci/hooks.d"}, {".json"}, false);
  if (auto text = root.read("/proc/driver/nvidia/params")) {
    a.nvidia_device_files = parse_nvidia_device_file_params(*text);
    auto& p = a.nvidia_device_files;
    if (p && p->gid && groups.count(*p->gid) != 0) p->group = groups.at(*p->gid);
  }
  return a;
}

}  // namespace gpudoctor
