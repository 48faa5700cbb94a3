#include "host/host_probe.hpp"

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#include <sys/utsname.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "host/access_probe.hpp"
#include "parse/c_headers.hpp"
#include "parse/host_files.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

std::optional<std::string> non_empty(std::optional<std::string> s) {
  if (s && s->empty()) return std::nullopt;
  return s;
}

void read_os_release(const Root& root, HostInfo& h) {
  auto text = root.read("/etc/os-release");
  if (!text) text = root.read("/usr/lib/os-release");
  if (!text) return;
  auto kv = parse_os_release(*text);
  auto get = [&](const char* key) -> std::optional<std::string> {
    auto it = kv.find(key);
    if (it == kv.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
  h.os_id = get("ID");
  h.os_name = get("NAME");
  h.os_version = get("VERSION_ID");
  h.os_pretty_name = get("PRETTY_NAME");
}

/// Falls back to sysfs topology when /proc/cpuinfo lists no core ids (most ARM kernels).
std::optional<int> cores_from_topology(const Root& root) {
  std::vector<std::pair<std::string, std::string>> ids;
  for (const auto& name : root.list("/sys/devices/system/cpu")) {
    if (!starts_with(name, "cpu") || !parse_uint(std::string_view(name).substr(3))) continue;
    const std::string dir = "/sys/devices/system/cpu/" + name + "/topology/";
    auto package = root.read_line(dir + "physical_package_id");
    auto core = root.read_line(dir + "core_id");
    if (!package || !core) return std::nullopt;
    ids.emplace_back(*package, *core);
  }
  if (ids.empty()) return std::nullopt;
  return count_cores(ids);
}

void read_cpu_and_memory(const Root& root, HostInfo& h, bool& hypervisor_flag) {
  if (auto text = root.read("/proc/cpuinfo", 8 << 20)) {
    CpuInfo cpu = parse_cpuinfo(*text);
    h.cpu_model = cpu.model;
    h.cpu_cores = cpu.cores;
    h.cpu_threads = cpu.threads;
    hypervisor_flag = cpu.hypervisor;
  }
  if (!h.cpu_cores) h.cpu_cores = cores_from_topology(root);
  if (auto text = root.read("/proc/meminfo")) {
    MemInfo mem = parse_meminfo(*text);
    h.memory_total_bytes = mem.total_bytes;
    h.memory_available_bytes = mem.available_bytes;
  }
}

std::optional<std::string> detect_container(const ProbeContext& ctx) {
  const Root& root = ctx.root;
  // The process environment describes this process, so it only counts for the host root.
  if (root.is_host() && ctx.env.get_nonempty("KUBERNETES_SERVICE_HOST")) return "kubernetes";
  if (root.exists("/.dockerenv")) return "docker";
  if (root.exists("/run/.containerenv")) return "podman";
  // Every Apptainer/Singularity image carries /.singularity.d (its environment scripts and
  // runscript: https://apptainer.org/docs/user/main/environment_and_metadata.html).
  if (root.is_directory("/.singularity.d")) return "apptainer";
  if (auto cgroup = root.read("/proc/1/cgroup")) {
    if (auto c = container_from_cgroup(*cgroup)) return c;
  }
  if (auto mounts = root.read("/proc/self/mountinfo")) {
    if (auto c = container_from_mountinfo(*mounts)) return c;
  }
  return std::nullopt;
}

void detect_wsl(const Root& root, HostInfo& h) {
  WslKernel w;
  if (h.kernel_release) w = wsl_from_kernel(*h.kernel_release);
  if (!w.wsl && h.kernel_version) w = wsl_from_kernel(*h.kernel_version);
  if (!w.wsl && root.exists("/proc/sys/fs/binfmt_misc/WSLInterop")) w.wsl = true;
  h.wsl = w.wsl;
  h.wsl_version = w.version;
}

/// The RDMA devices the verbs stack registered: their names in /sys/class/infiniband, else the
/// verbs device files (a container or a recorded tree may have only those).
std::vector<std::string> rdma_devices(const Root& root) {
  std::vector<std::string> out;
  for (const auto& name : root.list("/sys/class/infiniband")) out.push_back(name);
  if (out.empty()) {
    for (const auto& name : root.list("/dev/infiniband")) {
      if (name.rfind("uverbs", 0) == 0) out.push_back("/dev/infiniband/" + name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void detect_vm(const Root& root, HostInfo& h, bool hypervisor_flag) {
  auto vendor = root.read_line("/sys/class/dmi/id/sys_vendor");
  auto product = root.read_line("/sys/class/dmi/id/product_name");
  h.machine_vendor = vendor ? dmi_value(*vendor) : std::nullopt;
  h.machine_model = product ? dmi_value(*product) : std::nullopt;
  h.virtualization = virtualization_from_dmi(vendor.value_or(""), product.value_or(""));
  // WSL 2 runs in a Hyper-V VM that exposes no DMI tables.
  if (!h.virtualization && h.wsl_version == std::optional<std::string>("2")) {
    h.virtualization = "hyperv";
  }
  h.vm = hypervisor_flag || h.virtualization.has_value();
}

}  // namespace

HostInfo probe_host(const ProbeContext& ctx) {
  const Root& root = ctx.root;
  HostInfo h;
  h.hostname = non_empty(root.read_line("/proc/sys/kernel/hostname"));
  read_os_release(root, h);
  h.kernel_release = non_empty(root.read_line("/proc/sys/kernel/osrelease"));
  h.kernel_version = non_empty(root.read_line("/proc/version"));
  if (root.is_host()) {
    utsname u{};
    if (::uname(&u) == 0) h.architecture = std::string(u.machine);
#ifdef __GLIBC__
    h.glibc_version = std::string(gnu_get_libc_version());
#endif
  }
  bool hypervisor_flag = false;
  read_cpu_and_memory(root, h, hypervisor_flag);
  h.container = detect_container(ctx);
  detect_wsl(root, h);
  detect_vm(root, h, hypervisor_flag);
  h.rdma_devices = rdma_devices(root);
  for (const char* f : {"/usr/include/bits/mathcalls.h",
                        "/usr/include/x86_64-linux-gnu/bits/mathcalls.h",
                        "/usr/include/aarch64-linux-gnu/bits/mathcalls.h"}) {
    if (auto text = root.read(f)) {
      h.glibc_cospi = glibc_declares_cospi(*text);
      break;
    }
  }
  h.access = probe_access(ctx);
  return h;
}

}  // namespace gpudoctor
