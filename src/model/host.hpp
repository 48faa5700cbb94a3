#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "json.hpp"
#include "model/access.hpp"

namespace gpudoctor {

/// The kernel's log as read for the running boot: where from, how many of its lines were the
/// GPU drivers', or why it could not be read (then every source tried is named).
struct KernelLogRead {
  std::optional<std::string> source;  ///< "/dev/kmsg", "/var/log/kern.log"; none when unread
  std::size_t gpu_lines = 0;          ///< lines of the running boot the GPU knowledge read
  std::optional<std::string> error;   ///< why no source could be read
};
GPUDOCTOR_JSON(KernelLogRead, source, gpu_lines, error)

/// A DKMS build of a GPU kernel module, as its make.log tells it
/// (/var/lib/dkms/<module>/<version>/build/make.log).
struct DkmsBuild {
  std::string module;                        ///< DKMS's name: "nvidia", "amdgpu"
  std::string version;                       ///< "470.239.06"
  std::string log;                           ///< the make.log read
  std::optional<std::string> kernel;         ///< the kernel it was built for
  std::optional<bool> built;                 ///< a module came out for that kernel
  std::optional<bool> kernel_installed;      ///< /lib/modules/<kernel> exists
  std::optional<bool> module_loaded;         ///< the kernel module of that name is loaded
  bool failed = false;                       ///< make's errors, or no module for that kernel
  std::vector<std::string> errors;           ///< the first lines that say why
  std::optional<std::string> kernel_compiler;  ///< NVIDIA's compiler check: the kernel's gcc
  std::optional<std::string> compiler_here;    ///< … and the one DKMS ran
};
GPUDOCTOR_JSON(DkmsBuild, module, version, log, kernel, built, kernel_installed, module_loaded,
               failed, errors, kernel_compiler, compiler_here)

struct HostInfo {
  std::optional<std::string> hostname;
  std::optional<std::string> os_id;          ///< os-release ID: "debian"
  std::optional<std::string> os_name;        ///< os-release NAME
  std::optional<std::string> os_version;     ///< os-release VERSION_ID
  std::optional<std::string> os_pretty_name; ///< os-release PRETTY_NAME
  std::optional<std::string> kernel_release; ///< "6.1.0-18-amd64"
  std::optional<std::string> kernel_version; ///< /proc/version, whole line
  std::optional<std::string> architecture;   ///< "x86_64" (uname; unknown under --sysroot)
  std::optional<std::string> cpu_model;
  std::optional<int> cpu_cores;              ///< physical cores
  std::optional<int> cpu_threads;            ///< logical processors
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<std::uint64_t> memory_available_bytes;
  std::optional<std::string> glibc_version;
  std::optional<std::string> container;      ///< "docker", "podman", "kubernetes", "lxc", …
  bool wsl = false;
  std::optional<std::string> wsl_version;    ///< "2" when the kernel says WSL2
  bool vm = false;                           ///< runs under a hypervisor (CPU flag or DMI)
  std::optional<std::string> virtualization; ///< which one, when named: "kvm", "vmware", …
  std::optional<std::string> machine_vendor; ///< DMI sys_vendor
  std::optional<std::string> machine_model;  ///< DMI product_name
  /// Device files, accounts, container mounts; null in a report written before they moved here
  /// from the rocm section (read back from there: json_model_reader.hpp).
  std::optional<HostAccess> access;
  /// The kernel log (Linux); its messages are in the snapshot's symptoms.
  std::optional<KernelLogRead> kernel_log;
  /// The daemons' logs read (Slurm's slurmd.log, slurmctld.log); their messages are in the
  /// snapshot's symptoms too.
  std::vector<std::string> service_logs;
  /// DKMS's builds of GPU kernel modules that left a make.log (Linux).
  std::vector<DkmsBuild> dkms_builds;
  /// RDMA devices (InfiniBand / RoCE NICs): /sys/class/infiniband/<name>, else the verbs files
  /// /dev/infiniband/uverbs<N> (Linux).
  std::vector<std::string> rdma_devices;
  /// glibc's bits/mathcalls.h declares C23's cospi/sinpi (glibc 2.41 and later); null when no
  /// mathcalls.h was found.
  std::optional<bool> glibc_cospi;
};
GPUDOCTOR_JSON(HostInfo, hostname, os_id, os_name, os_version, os_pretty_name, kernel_release,
               kernel_version, architecture, cpu_model, cpu_cores, cpu_threads,
               memory_total_bytes, memory_available_bytes, glibc_version, container, wsl,
               wsl_version, vm, virtualization, machine_vendor, machine_model, access, kernel_log,
               service_logs, dkms_builds, rdma_devices, glibc_cospi)

}  // namespace gpudoctor
