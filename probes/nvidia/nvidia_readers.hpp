#pragma once
// The pieces of the nvidia probe, one file each; nvidia_system_probe.cpp puts them together.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/nvidia_system.hpp"
#include "parse/elf_dynamic.hpp"
#include "core/paths.hpp"
#include "core/root.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// /proc/driver/nvidia, /sys/module, /proc/modules, /dev/nvidia*, Secure Boot, dkms, modprobe.d.
NvidiaKernel probe_nvidia_kernel(const ProbeContext& ctx, const Root& paths);

/// Every file named stem or stem.* in the loader's directories, in its order.
std::vector<LibraryFile> find_loader_libraries(const ProbeContext& ctx, const Root& paths,
                                               const std::string& stem);

/// The first executable named `name` in the PATH directories, looked up under the root.
std::optional<std::string> find_on_path(const ProbeContext& ctx, const Root& paths,
                                        const std::string& name);

/// CUDA toolkits: /usr/local/cuda*, /opt/cuda, CUDA_HOME, CUDA_PATH, nvcc on PATH, conda
/// environments and pip nvidia-* wheels, de-duplicated by real path.
std::vector<CudaToolkit> find_cuda_toolkits(const ProbeContext& ctx, const Root& paths);

/// NVIDIA's wheels recorded in a directory of *.dist-info folders: base name ("nvidia_cudnn",
/// wheel_base_name's form) → version (METADATA's, else the folder name's).
std::map<std::string, std::string> nvidia_wheel_versions(const Root& paths, const std::string& dir);
/// The packages a conda prefix records in conda-meta: name → version.
std::map<std::string, std::string> conda_package_versions(const Root& paths,
                                                          const std::string& prefix);

/// Where one install found by find_cuda_toolkits keeps its libraries and headers.
struct InstallDirs {
  std::vector<std::string> lib_dirs;
  std::vector<std::string> include_dirs;
};
InstallDirs toolkit_dirs(const Root& paths, const CudaToolkit& toolkit);

/// Every file of the CUDA runtime libraries (libcudart, libcublas, libcudnn, libnccl, …) in the
/// loader's directories, the toolkits, conda environments and pip nvidia-* wheels, with the one
/// the loader would pick for each name.
std::vector<CudaLibrary> find_cuda_libraries(const ProbeContext& ctx, const Root& paths,
                                             const std::vector<CudaToolkit>& toolkits);

/// The installed driver's supported-gpus.json and its rows for the NVIDIA GPUs on the PCI bus;
/// nullopt when no copy is installed. module_version picks among several drivers' copies.
std::optional<DriverGpuTable> probe_driver_gpu_table(
    const Root& paths, const std::optional<std::string>& module_version);

/// NVSwitch PCI functions, nvidia-fabricmanager's files, and /dev/dxg, into `s`.
void probe_nvidia_fabric(const ProbeContext& ctx, const Root& paths, NvidiaSystem& s);

/// The dynamic section of an ELF file under the root (a few small reads); nullopt if not one.
std::optional<ElfDynamic> read_elf_dynamic(const Root& paths, const std::string& path);

/// Runs `nvcc --version` (this machine only, with a deadline) and returns its output.
std::optional<std::string> run_nvcc_version(const std::string& nvcc);

/// 32 or 64 from the first bytes of an ELF file; nullopt when it is not one.
std::optional<int> elf_bits(const Root& paths, const std::string& path);

}  // namespace gpudoctor
