#pragma once
#include <vector>

#include "checks/checks.hpp"
#include "checks/code_targets.hpp"

namespace gpudoctor {

// Each check, by area. Their specs (id, what they look at, why, source) are in check_list.cpp.
void check_probe_failures(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_gpu_without_driver(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_dkms_builds(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_no_gpu(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nouveau_bound(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_open_module(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
/// The open kernel module is loaded and the NVIDIA GPU at this PCI address is older than Turing,
/// which the open module does not drive: nvidia.open_module_gpu's cause, not gpu.no_driver's.
bool open_module_leaves_out(const CheckInput& in, const std::string& pci_address);
void check_nvidia_module_not_loaded(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_device_nodes(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_container_toolkit(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_cdi_spec_stale(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_slurm_job_without_gpu(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_workload_access(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_version_mismatch(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_stub_libcuda(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_libcuda_unversioned(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_ollama_intel_mac(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_wheel_library_shadowed(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_slurm_gres_devices(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_slurm_autodetect_plugin(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_cuda_init(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_cuda_visible_devices(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_toolkit_symlink_vs_nvcc(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_opencl_icds(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_opencl_cpu_only(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_vulkan_manifests(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_vulkan_software_only(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_newer_than_tables(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_vulkan_layers(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_driver_for_toolkit(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_arch_for_toolkit(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_cudnn_for_toolkit(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_torch_cpu_only(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_cupy_packages(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_peermem(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_glibc_math_headers(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_rocminfo_lsmod(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_torch_gpu_vendor(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_onnxruntime_cuda_libraries(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_torch_cuda_vs_driver(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_framework_arch(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_framework_gfx(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_framework_python(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_tensorflow_python(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_tensorflow_cuda_driver(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_tensorflow_cudnn(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_tensorflow_cpu_only(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_jax_cuda(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_jax_cpu_only(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_smoke_results(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_fabricmanager(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_iommu_translation(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_wsl_gpu(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_tensorflow_cuda_libraries(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_torch_extension_cuda(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_nvidia_wheel_conflict(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_tensorflow_windows(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_runtime_symptoms(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_stated_symptoms(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_stated_conflicts(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_ggml_arch(const CheckSpec&, const CheckInput&, std::vector<Finding>&);

/// A GPU's compute capability, from CUDA, NVML, or its PCI id in the matrix.
struct GpuCapability {
  std::string name;
  std::optional<Version> cc;
  std::optional<std::string> cc_source;  ///< where a table gave it: "its chip GA102, <URL>"
  bool cc_inferred = false;  ///< from the device-id range its unknown id falls in, not a table row
};
std::vector<GpuCapability> nvidia_capabilities(const CheckInput& in);
/// How the CUDA code a framework package carries runs on a GPU of compute capability `cc`, as
/// python.*_arch judges it (its libraries as read, its build record, PyTorch's build table), and
/// what decided it ("sm_86 for sm_89 (read from torch/lib/libtorch_cuda.so)"); nullopt when the
/// package is no CUDA framework or no code list is known for it.
struct FrameworkCodeFit {
  CudaFit fit;
  std::string fact;
};
std::optional<FrameworkCodeFit> framework_code_fit(const CheckInput& in, const PythonPackage& pkg,
                                                   const Version& cc);
/// The NVIDIA driver's version: the loaded kernel module, else NVML's answer.
std::optional<std::string> installed_driver_version(const Snapshot& s);
/// The package of one part of the NVIDIA driver's userspace as this distribution names it:
/// Debian's name (libcuda1), Ubuntu's per-branch name with the installed driver's branch
/// (libnvidia-compute-550), both where the distribution is not known.
std::string nvidia_userspace_package(const Snapshot& s, const std::string& debian,
                                     const std::string& ubuntu_stem);

/// Checks of what only one platform has: sysfs, kernel modules, ICD files, Vulkan manifests
/// and CUDA/ROCm builds are Linux's; Rosetta, SIP and Metal are the Mac's.
inline constexpr std::string_view kOnlyLinux = "linux";
inline constexpr std::string_view kOnlyMacos = "macos";

/// The one list, in the order checks run and findings are shown.
std::vector<CheckSpec> make_check_list();
/// Its two halves, in order: what the machine has (check_list.cpp), then the smoke matmuls, the
/// Mac, ROCm and what programs said (check_list_runtime.cpp).
std::vector<CheckSpec> machine_checks();
std::vector<CheckSpec> runtime_checks();

}  // namespace gpudoctor
