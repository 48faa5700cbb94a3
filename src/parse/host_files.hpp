#pragma once
// Parsers for the files the host probe reads: os-release, /proc/cpuinfo, /proc/meminfo,
// /proc/1/cgroup, /proc/self/mountinfo, the kernel's release string and DMI names.
// Each takes the file's text; none touches the system.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudoctor {

/// os-release(5): KEY=VALUE lines, values unquoted, "double quoted" (with \" \\ \$ \` escapes)
/// or 'single quoted'; comments and malformed lines are skipped.
std::map<std::string, std::string> parse_os_release(std::string_view text);

struct CpuInfo {
  std::optional<std::string> model;  ///< "model name" (x86); absent on most ARM kernels
  std::optional<int> cores;          ///< unique (physical id, core id) pairs, when listed
  std::optional<int> threads;        ///< "processor" entries
  bool hypervisor = false;           ///< the x86 "hypervisor" CPUID flag
};
CpuInfo parse_cpuinfo(std::string_view text);

/// Physical cores from (package id, core id) pairs, as in sysfs cpu*/topology.
int count_cores(const std::vector<std::pair<std::string, std::string>>& package_core);

struct MemInfo {
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> available_bytes;
};
MemInfo parse_meminfo(std::string_view text);

/// Container runtime named by a cgroup path in /proc/1/cgroup (v1 or v2): "docker",
/// "podman", "kubernetes", "lxc", "containerd"; nullopt when nothing names one.
std::optional<std::string> container_from_cgroup(std::string_view cgroup);
/// Container runtime named by the mount table (overlay upper dirs, kubelet or lxcfs mounts).
std::optional<std::string> container_from_mountinfo(std::string_view mountinfo);

struct WslKernel {
  bool wsl = false;
  std::optional<std::string>
      version;  ///< "2" for "-microsoft-standard(-WSL2)", "1" for "-Microsoft"
};
/// From /proc/sys/kernel/osrelease (or the /proc/version line).
WslKernel wsl_from_kernel(std::string_view kernel_text);

/// Hypervisor named by DMI sys_vendor / product_name: "kvm", "qemu", "vmware", "hyperv",
/// "xen", "virtualbox", "amazon", "google", "parallels", "bhyve"; nullopt for bare metal or
/// names it does not know.
std::optional<std::string> virtualization_from_dmi(std::string_view sys_vendor,
                                                   std::string_view product_name);

/// A DMI string as shown to people: trimmed, and nullopt for the firmware placeholders
/// ("To Be Filled By O.E.M.", "System Product Name", "Default string", …).
std::optional<std::string> dmi_value(std::string_view raw);

}  // namespace gpudoctor
