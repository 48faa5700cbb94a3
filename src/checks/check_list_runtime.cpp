// The checks' specs, second half: the smoke matmuls, the Mac, ROCm and the runtime symptoms,
// in the order they run after machine_checks() (check_list.cpp). make_check_list joins them.
#include "checks/check_list.hpp"
#include "checks/rocm_runtime.hpp"
#include "checks/live_checks.hpp"
#include "checks/macos_checks.hpp"
#include "checks/rocm_checks.hpp"

namespace gpudoctor {

std::vector<CheckSpec> runtime_checks() {
  return {
      {"smoke.failed", "cuda",
       "The smoke matmul's result on each device of every API (CUDA, OpenCL, Vulkan, Metal) "
       "against the CPU reference, and whether its driver survived running it; a test that "
       "could not run is a note saying why.",
       "A device that enumerates but computes wrong numbers is worse than one that is missing.",
       "", check_smoke_results},
      {"macos.rosetta_python", "macos",
       "On Apple silicon (hw.optional.arm64): each Python's Mach-O architectures, and whether "
       "this shell runs translated (sysctl.proc_translated).",
       "An x86_64 Python runs translated by Rosetta: pip gives it x86_64 wheels, and none of "
       "the releases published for arm64 only (tensorflow-metal after 1.0.0).",
       "https://developer.apple.com/documentation/apple-silicon/"
       "about-the-rosetta-translation-environment",
       check_macos_rosetta_python, "macos.rosetta_shell", kOnlyMacos},
      {"macos.version_compat", "macos",
       "macOS 11 or later, SYSTEM_VERSION_COMPAT, and the macOS SDK each Python was built with "
       "(its Mach-O load commands).",
       "A program built with an SDK older than 11 (or any, with SYSTEM_VERSION_COMPAT=1) is told "
       "macOS 10.16; pip then rejects macosx_11_0+ wheels such as tensorflow-macos.",
       "https://github.com/actions/setup-python/issues/469", check_macos_version_compat,
       "", kOnlyMacos},
      {"macos.dyld_library_path", "macos",
       "DYLD_LIBRARY_PATH as this process sees it, the CUDA toolkits whose lib/ only it leads "
       "to, and Pythons under SIP-protected paths.",
       "System Integrity Protection purges DYLD_* variables when it launches a protected "
       "program, so /usr/bin/python3, /bin/sh and what they start never see them.",
       "https://developer.apple.com/library/archive/documentation/Security/Conceptual/"
       "System_Integrity_Protection_Guide/RuntimeProtections/RuntimeProtections.html",
       check_macos_dyld_library_path, "", kOnlyMacos},
      {"macos.cuda", "macos",
       "NVIDIA GPUs in system_profiler and CUDA toolkits on a Mac.",
       "NVIDIA stopped shipping CUDA for macOS; its last release there (data/compat/"
       "cuda_platforms.json) is the newest a Mac can run.",
       "https://docs.nvidia.com/cuda/archive/10.2/cuda-toolkit-release-notes/index.html",
       check_macos_cuda, "", kOnlyMacos},
      {"macos.mps", "macos",
       "Each torch's version against the macOS floor of its MPS backend (PyTorch's matrix), on a "
       "Mac with an arm64 Python.",
       "torch.backends.mps.is_available() is False below the floor or before torch 1.12, and "
       "torch then silently runs on the CPU.",
       "https://pytorch.org/docs/2.1/_sources/notes/mps.rst.txt", check_macos_mps, "", kOnlyMacos},
      {"macos.tensorflow_metal", "macos",
       "Each tensorflow-metal against the TensorFlow it is built for and its macOS minimum "
       "(the table on its PyPI page), and the tensorflow-macos / tensorflow installed beside it.",
       "The plugin's ABI is tied to one TensorFlow minor: a mismatch fails to load or crashes "
       "the kernel (NSInvalidArgumentException).",
       "https://pypi.org/project/tensorflow-metal/", check_macos_tensorflow_metal,
       "macos.tensorflow_metal_macos, macos.tensorflow_metal_missing", kOnlyMacos},
      {"macos.plaidml", "macos",
       "plaidml-keras installs, the Keras backend (KERAS_BACKEND, keras.json) and ~/.plaidml.",
       "PlaidML only runs Keras when Keras is switched to its backend and plaidml-setup chose "
       "a device; the project is no longer developed.",
       "https://github.com/plaidml/plaidml", check_macos_plaidml,
       "macos.plaidml_backend, macos.plaidml_setup, macos.plaidml_unmaintained", kOnlyMacos,
       OwnId::name_only},
      {"rocm.gfx_unsupported", "rocm",
       "Each AMD GPU's gfx target (KFD gfx_target_version) against the targets the installed "
       "ROCm release and each torch +rocmX.Y build support (ROCm's compatibility matrix), and "
       "HSA_OVERRIDE_GFX_VERSION.",
       "ROCm's libraries ship code only for the targets they support; on any other GPU rocBLAS "
       "aborts (\"Cannot read TensileLibrary.dat\") unless the runtime is told to treat it as "
       "a supported sibling.",
       "https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html",
       check_rocm_gfx_support,
       "rocm.torch_gfx_unsupported, rocm.gfx_override, rocm.gfx_override_wrong", kOnlyLinux},
      {"rocm.device_access", "rocm",
       "/dev/kfd and /dev/dri/renderD*: their group and mode, whether this process can open "
       "them, its groups (/proc/self/status) against /etc/group.",
       "ROCm opens /dev/kfd and a render node; without the render (or video) group it fails "
       "with \"Unable to open /dev/kfd read-write: Permission denied\", and a group added "
       "after login counts only in a new session.",
       "https://github.com/ROCm/ROCT-Thunk-Interface", check_rocm_device_access,
       "rocm.not_in_group, rocm.group_not_active, rocm.kfd_permission", kOnlyLinux},
      {"rocm.visible_devices", "rocm",
       "ROCR_VISIBLE_DEVICES against the AMD GPUs (KFD nodes, else PCI), and HIP_VISIBLE_DEVICES "
       "(or CUDA_VISIBLE_DEVICES, which HIP also reads) against the GPUs ROCR_VISIBLE_DEVICES "
       "leaves.",
       "ROCr applies its list first and numbers the GPUs it keeps from 0; HIP's list then counts "
       "those. Two lists written with the machine's numbering leave HIP no GPU.",
       "https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html",
       check_rocm_visible_devices, "", kOnlyLinux},
      {"rocm.igpu_first", "rocm",
       "The KFD GPU nodes in HIP's order, each integrated (an APU's gfx target in LLVM's "
       "processor table, data/compat/rocm.json) or discrete, after ROCR_VISIBLE_DEVICES and "
       "HIP_VISIBLE_DEVICES (or CUDA_VISIBLE_DEVICES) pick among them.",
       "HIP numbers GPUs in the KFD topology's order, where an APU's integrated GPU often comes "
       "first: programs that take GPU 0 run on it instead of the discrete card.",
       "https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html",
       check_rocm_igpu_first, "", kOnlyLinux},
      {"rocm.kernel_driver", "rocm",
       "A ROCm installation against the amdgpu module (/proc/modules, /sys/module/amdgpu), "
       "/dev/kfd and the KFD topology.",
       "ROCm's userland needs the amdgpu kernel driver with KFD (the compute interface); "
       "without it rocminfo says \"ROCk module is NOT loaded\".",
       "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/"
       "user-kernel-space-compat-matrix.html",
       check_rocm_kernel_driver, "rocm.amdgpu_not_loaded, rocm.no_kfd", kOnlyLinux,
       OwnId::name_only},
      {"rocm.rocminfo_lsmod", "rocm",
       "Inside a container: the ROCm release, whether lsmod is installed, and the amdgpu "
       "module's state (/sys/module/amdgpu).",
       "rocminfo before ROCm 5.5 asks `lsmod | grep amdgpu` whether the driver is loaded; in an "
       "image without kmod it says \"ROCk module is NOT loaded\" on a working GPU.",
       "https://github.com/ROCm/rocminfo/commit/94b4b3f0a66eb70912177ca7076b4267f8b5449b",
       check_rocminfo_lsmod, "", kOnlyLinux},
      {"rocm.gpu_not_in_kfd", "rocm",
       "Each AMD GPU on PCI that amdgpu drives against the GPU nodes of the KFD topology "
       "(/sys/class/kfd/kfd/topology/nodes), and what the kernel's KFD does with its ASIC.",
       "KFD is the kernel interface ROCm computes through; it leaves out ASICs it does not "
       "drive (GCN 1, Bonaire, Kabini…) and gfx8 GPUs whose PCIe path rejects atomics, and "
       "rocminfo then lists no GPU agent for them.",
       "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdkfd/kfd_device.c",
       check_rocm_gpu_in_kfd, "", kOnlyLinux},
      {"rocm.hip_init", "rocm",
       "What hipGetDeviceCount returns through libamdhip64, by error name.",
       "hipGetDeviceCount is the first HIP call every program makes; its error says which layer "
       "is broken.",
       "https://github.com/ROCm/HIP/blob/develop/include/hip/hip_runtime_api.h",
       check_hip_init, "", kOnlyLinux},
      {"python.tensorflow_windows_gpu", "python",
       "TensorFlow's release against the host: native Windows (not WSL2) with an NVIDIA GPU.",
       "TensorFlow 2.10 was the last release that supported the GPU on native Windows; later ones "
       "install and run on the CPU only.",
       "https://www.tensorflow.org/install/pip#windows-native", check_tensorflow_windows},
      {"cuda.llamacpp_arch", "cuda",
       "The CUDA architectures a llama.cpp / ggml build carries (system_info's \"CUDA : ARCHS\", "
       "nvcc's __CUDA_ARCH_LIST__) against each GPU's compute capability.",
       "Kernels compiled for a virtual architecture run on it and newer GPUs only: a GPU below "
       "the lowest gets \"no kernel image is available\".",
       "https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#virtual-architecture-macros",
       check_ggml_arch},
      {"ollama.gfx_unsupported", "rocm",
       "ollama's install (lib/ollama/rocm/rocblas/library): the gfx targets its bundled rocBLAS "
       "carries, against each AMD GPU's target (KFD) and the HSA_OVERRIDE_GFX_VERSION its "
       "service's unit sets (or, with no unit, the environment); where the install holds no "
       "libraries to read, the targets every ollama release carries by its build files.",
       "ollama takes the GPUs it supports from the same files; a target not there, and no "
       "override onto one that is, leaves the GPU unused and models run on the CPU.",
       "https://github.com/ollama/ollama/blob/main/docs/gpu.md", check_ollama_bundled_gfx, "",
       "linux"},
      {"ollama.macos_cpu_only", "macos",
       "ollama's install on a Mac (the app's binary, /usr/local/bin/ollama) against the CPU "
       "(hw.optional.arm64).",
       "ollama's macOS build uses the GPU (Metal) on Apple silicon only; on an Intel Mac every "
       "model runs on the CPU whatever its GPU.",
       "https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/docs/macos.mdx",
       check_ollama_intel_mac, "", kOnlyMacos},
      // Last: it reads what the checks above reported, so a message whose cause the installed
      // facts already showed adds nothing.
      {"symptom.runtime", "python",
       "Messages programs printed, read from a pasted dump or log, or from the machine's "
       "kernel log: torch's \"driver too old\" "
       "and \"sm_XX is not compatible\", JAX's fallback to the CPU, TensorFlow's dlopen "
       "failures, nvidia-smi's and rocminfo's errors, ollama's GPU discovery.",
       "The program's own words name the cause, even where the installed facts are not in the "
       "paste.",
       "", check_runtime_symptoms,
       "python.torch_cuda_driver, python.torch_arch, python.torch_cpu_only, cuda.no_driver, "
       "macos.mps, python.jax_cpu_only, python.jax_cuda, python.tensorflow_cudnn, "
       "nvidia.module_not_loaded, nvidia.nvml_unknown_error, nvidia.no_devices, nvidia.gpu_lost, "
       "rocm.not_in_group, rocm.amdgpu_not_loaded, rocm.device_access, rocm.kfd_open_failed, "
       "rocm.gfx_unsupported, "
       "ollama.gfx_unsupported, ollama.gpu_too_old, ollama.rocm_missing, ollama.no_gpu, "
       "opencl.no_icd, opencl.no_device, vulkan.no_driver, vulkan.software_only, python.vllm_dtype, "
       "python.xformers_torch, python.vllm_torch, nvidia.nouveau_bound, cuda.driver_too_old, "
       "python.tensorflow_arch, python.cupy_arch, python.unsupported_wheel, "
       "python.triton_gpu_too_old, nvidia.container_toolkit, python.torchvision_cuda, "
       "gpu.firmware_missing, python.ipex_torch, python.ipex_runtime, cudnn.load_failed, "
       "python.torch_windows_dll, cuda.error_code, vulkan.error_code, opencl.error_code, gpu.level_zero_error, ggml.cpu_only_build, "
       "nvidia.xid, python.bitsandbytes, "
       "intel.level_zero_missing, python.torch_xpu_init, python.torch_no_xpu, amdgpu.gpu_reset, "
       "macos.mps_memory, metal.tensorflow_device, cuda.out_of_memory, cuda.library_shadowed, "
       "cuda.libcuda_unversioned, slurm.gres_device_missing, slurm.autodetect_plugin_missing, "
       "tensorflow.numa_node_unknown, intel.gmmlib_mismatch, nvidia.bar_unassigned, "
       "nccl.shm_too_small, nvidia.open_module_required, python.triton_no_driver, "
       "macos.built_for_newer, "
       "nvidia.video_libraries, tensorflow.plugin_registered_twice, torch.nnpack_unsupported, "
       "nvidia.fabricmanager, nccl.system_error, gpu.kernel_headers_missing, gpu.module_unsigned, "
       "slurm.mig_without_instances, slurm.gres_count_lower, "
       "python.windows_pagefile, python.numba_nvvm, cuda.glibc_math_headers, k8s.gpus_unhealthy",
       "any",
       OwnId::name_only},
      // After every other: a stated symptom that no failure above explains.
      {"symptom.unexplained", "python",
       "Messages that say a framework cannot use the GPU (torch's \"Is CUDA available: False\", "
       "JAX's CPU fallback, ollama's \"no compatible GPUs\") when no failure above explains them.",
       "A person who pasted the symptom must not read green marks over it: what was and was not "
       "read is said, with what would decide.",
       "", check_stated_symptoms},
      // After symptom.unexplained, whose silence a warning here must not buy.
      {"paste.conflicting_values", "python",
       "Values a pasted text states twice with different numbers: two NVIDIA driver versions, "
       "two torch versions, two nvcc releases.",
       "Which one is the machine's is not known; choosing one silently could judge the wrong "
       "machine.",
       "", check_stated_conflicts},
  };
}

std::vector<CheckSpec> make_check_list() {
  std::vector<CheckSpec> list = machine_checks();
  for (auto& spec : runtime_checks()) list.push_back(std::move(spec));
  for (auto& spec : live_checks()) list.push_back(std::move(spec));
  return list;
}

}  // namespace gpudoctor
