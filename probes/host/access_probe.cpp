// The GPU's device files, /dev/dri/by-path, container device mounts and runtime files.
#include "host/access_probe.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/device_nodes.hpp"
#include "parse/accounts.hpp"
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

/// Owner and mode of device files from /.gpudoctor/dev-nodes.txt (`ls -l` lines), for a
/// recorded tree whose nodes are plain files: a tree cannot carry a character device's owner.
/// Nodes the live machine reads from the file itself are never replaced.
std::optional<std::string> apply_recorded_nodes(const Root& root,
                                                const std::map<std::uint32_t, std::string>& groups,
                                                std::vector<DeviceNode>& nodes) {
  if (root.is_host()) return std::nullopt;
  const char* record = "/.gpudoctor/dev-nodes.txt";
  const auto text = root.read(record);
  if (!text) return std::nullopt;
  std::vector<PasswdEntry> users;
  if (auto p = root.read("/etc/passwd")) users = parse_passwd(*p);
  bool any = false;
  for (std::string_view line : split_lines(*text)) {
    auto l = parse_ls_device_line(line);
    if (!l || !is_gpu_device_path(l->path)) continue;
    auto it = std::find_if(nodes.begin(), nodes.end(),
                           [&](const DeviceNode& d) { return d.path == l->path; });
    if (it == nodes.end()) {
      nodes.push_back(DeviceNode{l->path, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                 std::nullopt, std::nullopt});
      it = nodes.end() - 1;
    }
    if (it->mode) continue;
    it->mode = l->mode;
    if (auto n = parse_uint(l->owner)) {
      it->uid = static_cast<std::uint32_t>(*n);
    } else if (l->owner == "root") {
      it->uid = 0;
    } else {
      for (const auto& u : users) {
        if (u.name == l->owner) it->uid = u.uid;
      }
    }
    if (auto n = parse_uint(l->group)) {
      it->gid = static_cast<std::uint32_t>(*n);
      if (groups.count(*it->gid) != 0) it->group = groups.at(*it->gid);
    } else {
      it->group = l->group;
      for (const auto& [gid, name] : groups) {
        if (name == l->group) it->gid = gid;
      }
      if (!it->gid && l->group == "root") it->gid = 0;
    }
    any = true;
  }
  std::sort(nodes.begin(), nodes.end(),
            [](const DeviceNode& a, const DeviceNode& b) { return a.path < b.path; });
  return any ? std::optional<std::string>(record) : std::nullopt;
}

/// A TOML value as written after '=': its quotes (basic or literal) taken off.
std::string toml_value(std::string_view raw) {
  std::string value(trim(raw));
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
      value.back() == value.front()) {
    value = value.substr(1, value.size() - 2);
  }
  return value;
}

/// The [nvidia-container-cli] root of the toolkit's config.toml: the driver root the toolkit
/// mounts the driver from (config.toml as nvidia-ctk writes it; comments start with '#').
void read_toolkit_driver_root(const Root& root, ContainerEngines& e) {
  for (const char* path : {"/etc/nvidia-container-runtime/config.toml",
                           "/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml"}) {
    auto text = root.read(path, 256 * 1024);
    if (!text) continue;
    e.toolkit_config = path;
    std::string section;
    for (const auto& raw : split_lines(*text)) {
      const std::string line(trim(raw));
      if (line.empty() || line[0] == '#') continue;
      if (line[0] == '[') {
        section = std::string(trim(line.substr(1, line.find(']') == std::string::npos
                                                       ? std::string::npos
                                                       : line.find(']') - 1)));
        continue;
      }
      if (section != "nvidia-container-cli") continue;
      const auto eq = line.find('=');
      if (eq == std::string::npos || trim(line.substr(0, eq)) != "root") continue;
      const std::string value = toml_value(line.substr(eq + 1));
      if (!value.empty()) e.toolkit_driver_root = value;
    }
    break;
  }
  if (!e.toolkit_driver_root || *e.toolkit_driver_root == "/" ||
      e.toolkit_driver_root->front() != '/') {
    return;
  }
  bool found = false;
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib",
                          "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu", "/lib64"}) {
    found = found || root.exists(*e.toolkit_driver_root + dir + "/libnvidia-ml.so.1");
  }
  e.toolkit_driver_root_has_driver = found;
}

/// containerd's config.toml (versions 1 to 3 of its format): whether a runtime runs
/// nvidia-container-runtime, whether the CRI plugin's default is it, and whether CDI is on
/// (https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html,
/// "Configuring containerd (for Kubernetes)").
void read_containerd_config(const std::string& text, ContainerEngines& e) {
  std::string section;
  std::string default_name;
  for (const auto& raw : split_lines(text)) {
    std::string line(trim(raw));
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      section = line;
      if (section.find("runtimes.nvidia") != std::string::npos ||
          section.find("runtimes.\"nvidia\"") != std::string::npos ||
          section.find("runtimes.'nvidia'") != std::string::npos) {
        e.containerd_nvidia_runtime = true;
      }
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key(trim(line.substr(0, eq)));
    const std::string value = toml_value(line.substr(eq + 1));
    const bool nvidia_binary = value.find("nvidia-container-runtime") != std::string::npos;
    if (nvidia_binary) e.containerd_nvidia_runtime = true;
    if (key == "default_runtime_name") default_name = value;
    // v1 (containerd 1.2): [plugins.cri.containerd.default_runtime] runtime_engine = "…"
    if (section.find("default_runtime]") != std::string::npos && key == "runtime_engine" &&
        nvidia_binary) {
      e.containerd_nvidia_default = true;
    }
    if (key == "enable_cdi" && value == "true") e.containerd_cdi = true;
  }
  if (default_name == "nvidia") e.containerd_nvidia_default = true;
}

/// Docker, Podman and the NVIDIA Container Toolkit's files, in the directories their packages
/// install to (the toolkit's packages: nvidia-container-toolkit, -base, libnvidia-container-tools).
std::optional<ContainerEngines> probe_container_engines(const Root& root) {
  ContainerEngines e;
  // /usr/local/nvidia/toolkit: where NVIDIA's GPU Operator installs the toolkit on a node
  // (its config.toml names path = "/usr/local/nvidia/toolkit/nvidia-container-cli",
  // NVIDIA/nvidia-container-toolkit#154).
  // /var/lib/rancher/rke2/bin: RKE2's own kubelet and containerd.
  const char* bins[] = {"/usr/bin", "/usr/local/bin", "/usr/sbin", "/snap/bin",
                        "/usr/local/nvidia/toolkit", "/var/lib/rancher/rke2/bin"};
  for (const char* dir : bins) {
    for (const char* name : {"docker", "dockerd"}) {
      const std::string path = std::string(dir) + "/" + name;
      if (root.exists(path)) e.docker.push_back(path);
    }
    const std::string podman = std::string(dir) + "/podman";
    if (root.exists(podman)) e.podman.push_back(podman);
    if (root.exists(std::string(dir) + "/kubelet")) e.kubelet.push_back(std::string(dir) + "/kubelet");
    if (root.exists(std::string(dir) + "/containerd")) {
      e.containerd.push_back(std::string(dir) + "/containerd");
    }
    for (const char* name : {"nvidia-container-toolkit", "nvidia-container-runtime",
                             "nvidia-container-runtime-hook", "nvidia-ctk",
                             "nvidia-container-cli"}) {
      const std::string path = std::string(dir) + "/" + name;
      if (root.exists(path)) e.nvidia_toolkit.push_back(path);
    }
  }
  if (root.exists("/etc/nvidia-container-runtime/config.toml")) {
    e.nvidia_toolkit.push_back("/etc/nvidia-container-runtime/config.toml");
  }
  read_toolkit_driver_root(root, e);
  if (auto text = root.read("/etc/docker/daemon.json")) {
    e.daemon_json = true;
    parse_docker_daemon_json(*text, e);
  }
  // containerd's own file, else the one RKE2 or k3s generate for their embedded containerd
  // (https://docs.k3s.io/advanced#configuring-containerd).
  for (const char* config : {"/etc/containerd/config.toml",
                             "/var/lib/rancher/rke2/agent/etc/containerd/config.toml",
                             "/var/lib/rancher/k3s/agent/etc/containerd/config.toml"}) {
    if (auto text = root.read(config, 1024 * 1024)) {
      e.containerd_config = config;
      read_containerd_config(*text, e);
      break;
    }
  }
  // k3s embeds the kubelet and containerd in its one binary.
  for (const char* k3s : {"/usr/local/bin/k3s", "/usr/bin/k3s"}) {
    if (root.exists(k3s) && e.kubelet.empty()) e.kubelet.push_back(k3s);
  }
  if (e.docker.empty() && e.podman.empty() && !e.daemon_json && e.containerd.empty() &&
      e.kubelet.empty()) {
    return std::nullopt;
  }
  return e;
}

}  // namespace

HostAccess probe_access(const ProbeContext& ctx) {
  const Root& root = ctx.root;
  HostAccess a;
  const auto groups = group_names(root);
  for (const auto& p : device_paths(root)) a.device_nodes.push_back(read_device_node(ctx, groups, p));
  a.device_nodes_record = apply_recorded_nodes(root, groups, a.device_nodes);
  a.dev_listed = ctx.live || !root.list("/dev").empty();
  a.dri_by_path = dri_by_path(root);
  a.account = probe_account(root, a.device_nodes);
  a.workloads = probe_workloads(ctx);
  if (auto text = root.read("/proc/self/mountinfo")) a.device_mounts = parse_device_mounts(*text);
  // The spec directories of the CDI specification
  // (https://github.com/cncf-tags/container-device-interface/blob/main/SPEC.md); the OCI hook
  // directories of Podman and CRI-O (oci-hooks(5), https://github.com/containers/common).
  a.cdi_specs = runtime_files(root, {"/etc/cdi", "/var/run/cdi"}, {".yaml", ".yml", ".json"}, true);
  // The device nodes each spec hands in, against this host's /dev (a spec written before the
  // GPUs' nodes were renumbered names nodes that are gone).
  // The major numbers it gives them, against the ones the running kernel gave their drivers (a
  // spec written with a fixed or an older boot's number: NVIDIA/nvidia-container-toolkit#1934).
  const auto proc_devices = root.read("/proc/devices");
  const auto majors = proc_devices ? character_device_majors(*proc_devices)
                                   : std::map<std::string, int>{};
  for (auto& spec : a.cdi_specs) {
    const auto text = root.read(spec.path, 4 << 20);
    if (!text) continue;
    if (a.dev_listed) {
      for (const auto& node : cdi_spec_device_paths(*text)) {
        if (!root.exists(node)) spec.missing_device_nodes.push_back(node);
      }
    }
    for (const auto& [node, major] : cdi_spec_device_majors(*text)) {
      const std::string driver = character_device_driver(node);
      const auto it = majors.find(driver);
      if (it == majors.end() || it->second == major) continue;
      spec.wrong_majors.push_back(node + ": major " + std::to_string(major) + " in the spec, " +
                                  std::to_string(it->second) + " for " + driver +
                                  " in /proc/devices");
    }
  }
  a.oci_hooks = runtime_files(
      root, {"/usr/share/containers/oci/hooks.d", "/etc/containers/oci/hooks.d"}, {".json"}, false);
  if (auto text = root.read("/proc/driver/nvidia/params")) {
    a.nvidia_device_files = parse_nvidia_device_file_params(*text);
    auto& p = a.nvidia_device_files;
    if (p && p->gid && groups.count(*p->gid) != 0) p->group = groups.at(*p->gid);
  }
  a.container_engines = probe_container_engines(root);
  return a;
}

}  // namespace gpudoctor
