// Which stage of the readiness chain each finding id decides, for which GPUs' vendor and which
// frameworks. One row per id a check or a message entry gives (an id ending in '*' is a prefix);
// tests/unit/readiness_test.cpp fails on an id that has no row, so adding a check or a message
// with a new id means deciding its stage here. A row with no stage names an id that is about no
// framework's chain: a host fact, an OpenCL or Vulkan driver, a probe that went wrong, a note.
#include <algorithm>
#include <array>

#include "checks/readiness.hpp"

namespace gpudoctor {

namespace {

struct StageRow {
  std::string_view id;
  std::optional<Stage> stage;
  std::string_view vendor = "any";
  std::string_view frameworks = "";
  /// Runtimes the finding never concerns although the vendor matches: Vulkan does not read
  /// CUDA_VISIBLE_DEVICES nor load libcuda; NVIDIA's OpenCL ran its matmul on a real H200 with
  /// the toolkit's stub libcuda first on the library path.
  std::string_view except = "";
};

constexpr std::optional<Stage> kNoStage = std::nullopt;

const std::array kStageRows = {
    // Hardware: on the bus, identified, still there.
    StageRow{"gpu.none", Stage::hardware},
    StageRow{"nvidia.gpu_lost", Stage::hardware, "nvidia"},
    StageRow{"nvidia.bar_unassigned", Stage::hardware, "nvidia"},
    StageRow{"ollama.no_gpu", Stage::hardware, "any", "ollama"},
    StageRow{"nvidia.xid", Stage::hardware, "nvidia"},
    // The live state of this moment (live_checks.cpp): memory errors that stop programs or wait
    // for a reset are the hardware's; memory another process holds and clocks held down are no
    // stage of the chain (the GPU is ready, now busy or slow).
    StageRow{"live.ecc_uncorrected", Stage::hardware},
    StageRow{"live.pending_reset", Stage::hardware},
    StageRow{"live.memory_held", kNoStage},
    StageRow{"live.throttled", kNoStage},
    // A node's Slurm configuration keeps slurmd from starting: no job reaches the node at all, which
    // is the scheduler's state, not a stage of a framework's run on it.
    StageRow{"slurm.gres_device_missing", kNoStage},
    StageRow{"slurm.autodetect_plugin_missing", kNoStage},
    StageRow{"slurm.mig_without_instances", kNoStage},
    StageRow{"slurm.gres_count_lower", kNoStage},
    StageRow{"tensorflow.numa_node_unknown", kNoStage},  // harmless: TensorFlow uses node 0
    StageRow{"tensorflow.plugin_registered_twice", kNoStage},  // harmless: a log line
    StageRow{"torch.nnpack_unsupported", kNoStage},  // about the CPU, not the GPU
    // The driver's video (NVENC/NVDEC) libraries: no framework's compute chain loads them.
    StageRow{"nvidia.video_libraries", kNoStage},
    // The kernel driver.
    StageRow{"gpu.no_driver", Stage::kernel_driver},
    StageRow{"gpu.firmware_missing", Stage::kernel_driver},
    StageRow{"nvidia.nouveau_bound", Stage::kernel_driver, "nvidia"},
    StageRow{"nvidia.module_not_loaded", Stage::kernel_driver, "nvidia"},
    StageRow{"nvidia.no_devices", Stage::kernel_driver, "nvidia"},
    StageRow{"nvidia.driver_gpu_table", Stage::kernel_driver, "nvidia"},
    StageRow{"nvidia.open_module_gpu", Stage::kernel_driver, "nvidia"},
    StageRow{"nvidia.open_module_required", Stage::kernel_driver, "nvidia"},
    // DKMS could not build a kernel module (nvidia, amdgpu-dkms …): the kernel's headers lack.
    StageRow{"gpu.kernel_headers_missing", Stage::kernel_driver, "any"},
    // DKMS's make.log: the module did not build for the running (or an installed) kernel.
    StageRow{"gpu.dkms_build_failed", Stage::kernel_driver, "any"},
    StageRow{"rocm.kernel_driver", Stage::kernel_driver, "amd"},
    StageRow{"intel.kernel_too_old", Stage::kernel_driver, "intel"},
    StageRow{"rocm.amdgpu_not_loaded", Stage::kernel_driver, "amd"},
    // A hang the amdgpu driver recovered from by resetting the GPU (a ring's job timed out).
    StageRow{"amdgpu.gpu_reset", Stage::kernel_driver, "amd"},
    StageRow{"rocm.gpu_not_in_kfd", Stage::kernel_driver, "amd"},
    StageRow{"rocm.kfd*", Stage::kernel_driver, "amd"},
    StageRow{"rocm.no_kfd", Stage::kernel_driver, "amd"},
    // Access: device files, groups, containers, visibility variables.
    StageRow{"nvidia.device_nodes", Stage::access, "nvidia"},
    StageRow{"nvidia.workload_access", Stage::access, "nvidia"},
    StageRow{"nvidia.container*", Stage::access, "nvidia"},
    StageRow{"cuda.visible_devices", Stage::access, "nvidia", "", "vulkan"},
    StageRow{"gpu.foreign_visible_devices", Stage::access, "nvidia", "ollama"},
    StageRow{"rocm.device_access", Stage::access, "amd"},
    StageRow{"intel.not_in_render_group", Stage::access, "intel"},
    StageRow{"intel.group_not_active", Stage::access, "intel"},
    StageRow{"intel.workload_access", Stage::access, "intel"},
    StageRow{"intel.device_selector", Stage::access, "intel"},
    StageRow{"intel.device_filter_deprecated", Stage::access, "intel"},
    StageRow{"rocm.not_in_group", Stage::access, "amd"},
    StageRow{"rocm.kfd_permission", Stage::access, "amd"},
    StageRow{"nvidia.container_toolkit", Stage::access, "nvidia"},
    StageRow{"nvidia.cdi_spec_stale", Stage::access, "nvidia"},
    StageRow{"nvidia.slurm_job_without_gpu", Stage::access, "nvidia"},
    StageRow{"rocm.group_not_active", Stage::access, "amd"},
    StageRow{"rocm.visible_devices", Stage::access, "amd"},
    // HIP's first GPU (or the only one a list keeps) is an APU's integrated GPU.
    StageRow{"rocm.igpu_first", Stage::access, "amd"},
    // The user-space driver.
    StageRow{"nvidia.driver_library_mismatch", Stage::user_driver, "nvidia"},
    StageRow{"nvidia.fabricmanager", Stage::user_driver, "nvidia"},
    // GPUDirect RDMA: the NICs' access to GPU memory (a speed, not a start, problem).
    StageRow{"nvidia.peermem_not_loaded", kNoStage},
    // Building CUDA code against glibc 2.41's math.h: a compile-time, not a run-time, stage.
    StageRow{"cuda.glibc_math_headers", kNoStage},
    // rocminfo's own false report in an image without lsmod; the driver is fine.
    StageRow{"rocm.rocminfo_lsmod", kNoStage},
    // Kubernetes: GPUs the device plugin took out of the node's allocatable ones.
    StageRow{"k8s.gpus_unhealthy", kNoStage},
    StageRow{"nvidia.nvml*", Stage::user_driver, "nvidia"},
    StageRow{"nvidia.wsl*", Stage::user_driver, "nvidia"},
    StageRow{"cuda.stub_libcuda", Stage::user_driver, "nvidia", "", "opencl,vulkan"},
    StageRow{"cuda.no_driver", Stage::user_driver, "nvidia"},
    StageRow{"cuda.init", Stage::user_driver, "nvidia", "", "vulkan"},
    StageRow{"macos.cuda", Stage::user_driver, "nvidia"},
    StageRow{"macos.mps", Stage::user_driver, "any", "torch"},
    // torch reached MPS's memory limit: the GPU works, the workload is too big (a note).
    StageRow{"macos.mps_memory", kNoStage},
    StageRow{"cuda.out_of_memory", kNoStage},  // the workload's size, not a stage of the chain
    StageRow{"nccl.shm_too_small", kNoStage},  // the container's /dev/shm, not a stage of the chain
    StageRow{"nvidia.iommu_p2p", kNoStage},  // GPU to GPU traffic, not a stage of one pair
    StageRow{"nccl.system_error", kNoStage},  // a system call NCCL made, most often /dev/shm
    StageRow{"gpu.module_unsigned", kNoStage},  // a notice: the module was loaded
    StageRow{"cuda.library_shadowed", Stage::runtime_libraries, "nvidia"},
    StageRow{"cuda.libcuda_unversioned", Stage::user_driver, "nvidia"},
    StageRow{"rocm.hip_init", Stage::user_driver, "amd"},
    StageRow{"intel.compute_runtime_missing", Stage::user_driver, "intel"},
    StageRow{"intel.level_zero_missing", Stage::user_driver, "intel"},
    StageRow{"intel.gmmlib_mismatch", Stage::user_driver, "intel"},
    StageRow{"intel.legacy_runtime", Stage::user_driver, "intel"},
    StageRow{"gpu.level_zero_error", Stage::user_driver, "intel"},
    StageRow{"python.torch_xpu_init", Stage::user_driver, "intel", "torch"},
    // The runtime libraries as the framework loads them.
    StageRow{"cudnn.compat", Stage::runtime_libraries, "nvidia"},
    StageRow{"cudnn.cuda_mismatch", Stage::runtime_libraries, "nvidia"},
    StageRow{"cudnn.load_failed", Stage::runtime_libraries, "nvidia"},
    StageRow{"python.framework_python", Stage::runtime_libraries},
    StageRow{"python.tensorflow_cudnn*", Stage::runtime_libraries, "nvidia", "tensorflow"},
    StageRow{"python.tensorflow_cuda_libraries", Stage::runtime_libraries, "nvidia", "tensorflow"},
    StageRow{"python.torch_extension_cuda", Stage::runtime_libraries, "nvidia", "torch"},
    StageRow{"python.torchvision_cuda", Stage::runtime_libraries, "any", "torch"},
    StageRow{"python.torch_windows_dll", Stage::runtime_libraries, "any", "torch"},
    // Windows' commit limit (RAM plus paging file) ran out mapping torch's CUDA DLLs.
    StageRow{"python.windows_pagefile", Stage::runtime_libraries, "any", "torch"},
    // Numba's kernel compiler (libNVVM) belongs to the CUDA toolkit, which is not there.
    StageRow{"python.numba_nvvm", Stage::runtime_libraries, "nvidia"},
    StageRow{"python.nvidia_wheel_conflict", Stage::runtime_libraries, "nvidia"},
    StageRow{"python.jax_cuda", Stage::runtime_libraries, "nvidia", "jax"},
    StageRow{"python.vllm_torch", Stage::runtime_libraries, "any", "torch"},
    StageRow{"python.xformers_torch", Stage::runtime_libraries, "any", "torch"},
    StageRow{"python.bitsandbytes", Stage::runtime_libraries, "any", "torch"},
    StageRow{"python.unsupported_wheel", Stage::runtime_libraries},
    StageRow{"python.ipex*", Stage::runtime_libraries, "intel", "torch"},
    StageRow{"python.xpu_runtime_wheels", Stage::runtime_libraries, "intel", "torch"},
    StageRow{"intel.oneapi_shadows_wheels", Stage::runtime_libraries, "intel", "torch"},
    StageRow{"macos.rosetta*", Stage::runtime_libraries},
    StageRow{"macos.version_compat", Stage::runtime_libraries},
    // A library built for a newer macOS than the one running (dyld's own words, MLX's check).
    StageRow{"macos.built_for_newer", Stage::runtime_libraries},
    StageRow{"macos.dyld_library_path", Stage::runtime_libraries},
    StageRow{"macos.tensorflow_metal*", Stage::runtime_libraries, "any", "tensorflow"},
    StageRow{"macos.plaidml*", Stage::runtime_libraries, "any", "plaidml"},
    StageRow{"ollama.rocm_missing", Stage::runtime_libraries, "amd", "ollama"},
    // Code for the GPU (a CPU-only build carries none).
    StageRow{"cuda.arch_unsupported", Stage::gpu_code, "nvidia"},
    StageRow{"cuda.llamacpp_arch", Stage::gpu_code, "nvidia", "llama.cpp"},
    StageRow{"cudnn.gpu_unsupported", Stage::gpu_code, "nvidia"},
    StageRow{"python.torch_cpu_only", Stage::gpu_code, "any", "torch"},
    // A CUDA build on an AMD or Intel machine, a ROCm build on an NVIDIA one.
    StageRow{"python.torch_gpu_vendor", Stage::hardware, "any", "torch"},
    StageRow{"python.torch_arch", Stage::gpu_code, "nvidia", "torch"},
    StageRow{"python.torch_gfx", Stage::gpu_code, "amd", "torch"},
    StageRow{"python.tensorflow_arch", Stage::gpu_code, "nvidia", "tensorflow"},
    StageRow{"python.tensorflow_cpu_only", Stage::gpu_code, "any", "tensorflow"},
    StageRow{"python.tensorflow_windows_gpu", Stage::gpu_code, "any", "tensorflow"},
    StageRow{"python.jax_cpu_only", Stage::gpu_code, "any", "jax"},
    StageRow{"python.triton_gpu_too_old", Stage::gpu_code, "nvidia", "torch"},
    StageRow{"python.triton_no_driver", Stage::user_driver, "any", "torch"},
    StageRow{"rocm.gfx*", Stage::gpu_code, "amd"},
    StageRow{"rocm.torch_gfx*", Stage::gpu_code, "amd", "torch"},
    StageRow{"python.jax_arch", Stage::gpu_code, "nvidia", "jax"},
    StageRow{"python.torch_no_xpu", Stage::gpu_code, "intel", "torch"},
    StageRow{"ggml.cpu_only_build", Stage::gpu_code, "any", "llama.cpp"},
    StageRow{"python.cupy_arch", Stage::gpu_code, "nvidia", "cupy"},
    // Two CuPy wheels in one environment: which CUDA build imports is an accident.
    StageRow{"python.cupy_packages", Stage::runtime_libraries, "any", "cupy"},
    // onnxruntime-gpu's CUDA provider links a CUDA major this environment does not reach.
    StageRow{"python.onnxruntime_cuda", Stage::runtime_libraries, "nvidia", "onnxruntime"},
    StageRow{"python.vllm_dtype", Stage::gpu_code, "nvidia", "vllm"},
    StageRow{"ollama.gfx_unsupported", Stage::gpu_code, "amd", "ollama"},
    StageRow{"ollama.gpu_too_old", Stage::gpu_code, "any", "ollama"},
    StageRow{"ollama.macos_cpu_only", Stage::gpu_code, "any", "ollama"},
    // The driver new enough for the runtime the framework carries.
    StageRow{"cuda.driver_too_old", Stage::driver_version, "nvidia"},
    StageRow{"cudnn.driver_too_old", Stage::driver_version, "nvidia"},
    StageRow{"python.torch_cuda_driver", Stage::driver_version, "nvidia", "torch"},
    StageRow{"python.tensorflow_cuda_driver", Stage::driver_version, "nvidia", "tensorflow"},
    // The smoke matmul.
    StageRow{"smoke.failed", Stage::smoke},
    // About no framework's chain.
    StageRow{"probe*", kNoStage},
    StageRow{"host*", kNoStage},
    StageRow{"opencl*", kNoStage},
    StageRow{"vulkan*", kNoStage},
    StageRow{"compat.newer_than_tables", kNoStage},
    StageRow{"cuda.error_code", kNoStage},
    StageRow{"vulkan.error_code", kNoStage},
    StageRow{"opencl.error_code", kNoStage},
    StageRow{"paste.conflicting_values", kNoStage},
    StageRow{"cuda.toolkit_mismatch", kNoStage},
    StageRow{"symptom*", kNoStage},
    StageRow{"macos.version", kNoStage},
    StageRow{"metal.tensorflow_device", kNoStage},  // a GPU reached: a fact, no stage
};

const StageRow* find_row(std::string_view id) {
  const StageRow* best = nullptr;
  for (const StageRow& r : kStageRows) {
    const bool prefix = !r.id.empty() && r.id.back() == '*';
    const std::string_view key = prefix ? r.id.substr(0, r.id.size() - 1) : r.id;
    if (prefix ? id.substr(0, key.size()) == key : id == key) {
      if (!best || key.size() > best->id.size() - (best->id.back() == '*' ? 1 : 0)) best = &r;
    }
  }
  return best;
}

}  // namespace

std::optional<StageOfFinding> stage_of_finding(std::string_view id) {
  const StageRow* r = find_row(id);
  if (!r || !r->stage) return std::nullopt;
  return StageOfFinding{*r->stage, r->vendor, r->frameworks, r->except};
}

bool stage_table_knows(std::string_view id) { return find_row(id) != nullptr; }

const char* to_string(Stage s) {
  switch (s) {
    case Stage::hardware: return "hardware";
    case Stage::kernel_driver: return "kernel driver";
    case Stage::access: return "access";
    case Stage::user_driver: return "user-space driver";
    case Stage::runtime_libraries: return "runtime libraries";
    case Stage::gpu_code: return "code for the GPU";
    case Stage::driver_version: return "driver new enough";
    case Stage::smoke: return "smoke matmul";
  }
  return "?";
}

const char* to_string(StageState s) {
  switch (s) {
    case StageState::ok: return "ok";
    case StageState::fails: return "fails";
    case StageState::at_risk: return "at risk";
    case StageState::not_examined: return "not examined";
    case StageState::not_judged: return "not judged";
  }
  return "?";
}

}  // namespace gpudoctor
