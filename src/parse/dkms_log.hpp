#pragma once
// DKMS's build log (make.log): which module it built, for which kernel, and how the build
// ended. DKMS writes it under /var/lib/dkms/<module>/<version>/build/ and points there when a
// build fails ("Consult /var/lib/dkms/nvidia/470.239.06/build/make.log for more information").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct DkmsMakeLog {
  std::optional<std::string> module;   ///< "nvidia", from the first line
  std::optional<std::string> version;  ///< "440.82"
  /// The kernel it was built for: the first line's "for kernel 6.17.0-6-generic (x86_64)", or
  /// the kernel build tree make entered ("/usr/lib/modules/5.4.40/build",
  /// "/usr/src/kernel-headers-6.12.7_1", "/usr/src/linux-headers-6.8.0-45-generic").
  std::optional<std::string> kernel;
  bool failed = false;                 ///< make or the driver's own checks said so
  std::vector<std::string> errors;     ///< the first lines that say why (at most 4)
  /// The module's compiler check (NVIDIA's conftest): the compiler the kernel was built with
  /// and the one used here, when they differ.
  std::optional<std::string> kernel_compiler;
  std::optional<std::string> compiler_here;
};

DkmsMakeLog parse_dkms_make_log(std::string_view text);

/// The kernel module a DKMS package builds, as /sys/module names it: "nvidia-open" and
/// "nvidia-srv" build nvidia, amdgpu-dkms amdgpu, Intel's backports (intel-i915-dkms,
/// intel-xe-dkms) i915 and xe; any other name is its own.
std::string dkms_kernel_module(const std::string& package);

}  // namespace gpudoctor
