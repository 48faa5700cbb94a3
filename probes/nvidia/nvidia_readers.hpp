#pragma once
// The pieces of the nvidia probe, one file each; nvidia_system_probe.cpp puts them together.
#include <optional>
#include <string>
#include <vector>

#include "model/nvidia_system.hpp"
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

/// Runs `nvcc --version` (this machine only, with a deadline) and returns its output.
std::optional<std::string> run_nvcc_version(const std::string& nvcc);

/// 32 or 64 from the first bytes of an ELF file; nullopt when it is not one.
std::optional<int> elf_bits(const Root& paths, const std::string& path);

}  // namespace gpudoctor
