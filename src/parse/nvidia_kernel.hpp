#pragma once
// Parsers for the kernel-side NVIDIA files: /proc/driver/nvidia/version, /proc/modules,
// the SecureBoot EFI variable, modprobe.d files, /proc/cmdline and /etc/group.
// Each takes the file's text (or bytes); none touches the system.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// The first line of /proc/driver/nvidia/version, taken apart.
struct NvrmVersion {
  std::string version;                ///< "535.104.05"
  std::string flavor;                 ///< "open" or "proprietary"
  std::optional<std::string> arch;    ///< "x86_64", "aarch64"
};

/// Both formats: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  <date>" and
/// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.124.06  Release Build  (…)".
std::optional<NvrmVersion> parse_nvrm_version(std::string_view text);

/// Names of the modules listed in /proc/modules, in file order.
std::vector<std::string> parse_proc_modules(std::string_view text);

/// efivarfs SecureBoot-8be4df61-…: 4 attribute bytes, then one data byte (1 = enabled).
std::optional<bool> parse_secure_boot_var(std::string_view bytes);

/// A modprobe.d file stops `module` from loading: "blacklist module", or
/// "install module /bin/false" (or /bin/true, /usr/bin/…). Dashes and underscores are equal.
bool modprobe_disables(std::string_view text, std::string_view module);

/// The kernel command line parameters that concern `module`: module.param=…, and
/// modprobe.blacklist= / rd.driver.blacklist= / module_blacklist= lists that name it.
std::vector<std::string> cmdline_params_for(std::string_view cmdline, std::string_view module);

/// The kernel command line parameters that set the IOMMU: intel_iommu=…, amd_iommu=…,
/// iommu=…, iommu.passthrough=… (the kernel's parameters documentation).
std::vector<std::string> cmdline_iommu_params(std::string_view cmdline);

/// /etc/group: gid → group name.
std::map<std::uint32_t, std::string> parse_group_file(std::string_view text);

/// "crw-rw-rw-" for an st_mode value, as ls -l writes it.
std::string mode_string(std::uint32_t st_mode);

}  // namespace gpudoctor
