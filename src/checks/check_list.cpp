#include "checks/check_list.hpp"
#include "checks/intel_checks.hpp"
#include "checks/macos_checks.hpp"
#include "checks/rocm_checks.hpp"

namespace gpudoctor {

namespace {
constexpr const char* kCudaInstallGuide =
    "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html";
constexpr const char* kCudaDriverApiTypes =
    "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html";
constexpr const char* kOpenModuleGuide =
    "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html";
constexpr const char* kOpenClIcdLoader = "https://github.com/KhronosGroup/OpenCL-ICD-Loader";
constexpr const char* kVulkanLoaderDrivers =
    "https://github.com/KhronosGroup/Vulkan-Loader/blob/main/docs/LoaderDriverInterface.md";
}  // namespace

std::vector<CheckSpec> machine_checks() {
  return {
      {"probe.failed", "host",
       "How every probe that loaded a vendor library ended: crashed (signal), hung past "
       "--timeout, or sent back something malformed.",
       "A driver that crashes or hangs gpudoctor's isolated child will do the same to clinfo, "
       "vulkaninfo, nvidia-smi and every framework that loads it.",
       "", check_probe_failures, "probe.crashed, probe.timed_out, probe.not_examined"},
      {"gpu.no_driver", "gpu",
       "Every display, 3D and accelerator PCI function, and the driver link under "
       "/sys/bus/pci/devices/<address>/driver.",
       "A GPU that no kernel driver has claimed cannot be used by any API.",
       "https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-bus-pci", check_gpu_without_driver, "", kOnlyLinux},
      {"gpu.dkms_build_failed", "gpu",
       "DKMS's build logs of GPU kernel modules (/var/lib/dkms/<module>/<version>/build/make.log): "
       "the kernel each was for, whether a module came out, that kernel running or installed, and "
       "whether a module of that name is loaded.",
       "A driver that DKMS cannot build for the running kernel is not there to load; for another "
       "installed kernel, booting it leaves the GPU without a driver. The log says why: a compiler "
       "other than the kernel's, or a driver older than the kernel.",
       "https://github.com/dell/dkms", check_dkms_builds, "", kOnlyLinux},
      {"gpu.none", "gpu",
       "Every GPU any source saw: PCI display, 3D and accelerator functions, system_profiler, "
       "CUDA, NVML, KFD, and the OpenCL and Vulkan devices that are not the CPU.",
       "A machine with no GPU can run no GPU code; in a VM or a container it is usually one that "
       "was not passed in.",
       "https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-bus-pci", check_no_gpu},
      {"intel.kernel_driver", "gpu", "Each Intel GPU's platform (data/compat/intel.json: device id, else its pci.ids name), the driver bound, and the running kernel against the first kernel whose i915/xe drives that platform.", "A GPU newer than the kernel's driver gets no driver (Battlemage before 6.11), or one that cannot run compute (Alchemist before 6.2).", "https://dgpu-docs.intel.com/devices/hardware-table.html", check_intel_kernel_driver, "intel.kernel_too_old", kOnlyLinux, OwnId::name_only},
      {"intel.render_access", "gpu", "The render nodes of the Intel GPUs (/dev/dri/renderD*), their group, and whether this account and each GPU service's account is in it.", "Level Zero, OpenCL and SYCL open the render node; without its group sycl-ls lists no GPU and frameworks fall back to the CPU.", "https://github.com/intel/compute-runtime/issues/701", check_intel_render_access, "intel.not_in_render_group, intel.group_not_active, intel.workload_access", kOnlyLinux, OwnId::name_only},
      {"intel.compute_runtime", "gpu", "On an Intel GPU bound to i915/xe: the two halves of Intel's compute runtime, its OpenCL ICD (libigdrcl.so) and its Level Zero GPU driver (libze_intel_gpu.so.1 on the library path, as the Level Zero section found it), against the XPU frameworks installed (torch +xpu, IPEX +xpu, intel-extension-for-tensorflow).", "XPU frameworks and SYCL run on the Level Zero driver; with only the OpenCL half installed sycl-ls lists the GPU through OpenCL only and they find no GPU.", "https://dgpu-docs.intel.com/driver/client/overview.html", check_intel_compute_runtime, "intel.compute_runtime_missing, intel.level_zero_missing", kOnlyLinux, OwnId::name_only},
      {"python.ipex", "python", "Each intel-extension-for-pytorch against the torch beside it (major.minor must match), its build (+xpu or CPU), and the end of its releases.", "IPEX refuses to import with another torch; its CPU build never uses the GPU; Intel ended it after 2.8.", "https://github.com/intel/intel-extension-for-pytorch/issues/867", check_intel_frameworks, "python.ipex_torch, python.ipex_cpu_only, python.ipex_ended", "any", OwnId::name_only},
      {"intel.device_selection", "gpu", "The variables that choose the Intel GPUs SYCL and Level Zero programs see (ONEAPI_DEVICE_SELECTOR, SYCL_DEVICE_FILTER, ZE_AFFINITY_MASK, ZE_FLAT_DEVICE_HIERARCHY), as the probes' environment has them: their syntax, the devices they name against the machine's Intel GPUs, and SYCL_DEVICE_FILTER (deprecated) beside ONEAPI_DEVICE_SELECTOR.", "A malformed selector, an index past the last GPU or both filters at once leave torch XPU, IPEX and llama.cpp's SYCL build with no GPU.", "https://github.com/intel/llvm/blob/sycl/sycl/doc/EnvironmentVariables.md#oneapi_device_selector", check_intel_device_selection, "intel.device_selector, intel.device_filter_deprecated", kOnlyLinux, OwnId::name_only},
      {"intel.oneapi_runtime", "python", "For torch +xpu in each environment: the oneAPI runtime wheels its METADATA pins (Requires-Dist name==version) against the installed ones, and a oneAPI toolkit on LD_LIBRARY_PATH (a sourced setvars.sh) ahead of them.", "torch's XPU wheels carry their SYCL runtime; another release of it, installed over them or loaded first from /opt/intel/oneapi, fails the import (LIBUR_LOADER version not found) or crashes.", "https://github.com/intel/intel-extension-for-pytorch/issues/850", check_intel_oneapi_runtime, "intel.oneapi_shadows_wheels, python.xpu_runtime_wheels", kOnlyLinux, OwnId::name_only},
      {"intel.legacy_runtime", "gpu", "Each Gen8/Gen9/Gen11 Intel GPU (data/compat/intel.json: runtime legacy1) against the Intel OpenCL ICDs installed: a legacy1 ICD, or the regular runtime's release where its path gives it.", "From compute-runtime 24.35.30872.22 the regular packages support Gen12 and later only; older GPUs need the legacy1 packages.", "https://github.com/intel/compute-runtime/blob/master/LEGACY_PLATFORMS.md", check_intel_legacy_runtime, "intel.legacy_runtime", kOnlyLinux, OwnId::name_only},
      {"nvidia.nouveau_bound", "nvidia",
       "NVIDIA GPUs whose bound driver is nouveau; modprobe.d files that blacklist nouveau.",
       "nouveau and the NVIDIA driver cannot both own a GPU; CUDA needs NVIDIA's.",
       kCudaInstallGuide, check_nouveau_bound, "", kOnlyLinux},
      {"nvidia.open_module_gpu", "nvidia",
       "Which flavour of the nvidia module is loaded (/proc/driver/nvidia/version: \"Open Kernel "
       "Module\") against each NVIDIA GPU's architecture.",
       "NVIDIA's open kernel modules drive Turing and newer GPUs only; Maxwell, Pascal and Volta "
       "GPUs need the proprietary flavour, and under the open one they stay without a driver. "
       "Blackwell and later GPUs are driven by the open flavour only.",
       kOpenModuleGuide, check_nvidia_open_module, "nvidia.open_module_required", kOnlyLinux},
      {"nvidia.module_not_loaded", "nvidia",
       "An NVIDIA GPU on PCI with no /proc/driver/nvidia/version; Secure Boot state; dkms builds "
       "for the running kernel.",
       "Without the kernel module there is no NVML, CUDA or NVIDIA OpenCL/Vulkan. Secure Boot "
       "rejecting an unsigned DKMS module is the most common reason after an install.",
       kCudaInstallGuide, check_nvidia_module_not_loaded, "", kOnlyLinux},
      {"nvidia.device_nodes", "nvidia",
       "/dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia<N>: present, and readable and writable by "
       "this process; in a container, whether any NVIDIA driver was passed in.",
       "CUDA opens these nodes; a missing nvidia-uvm breaks CUDA while nvidia-smi still works, "
       "and a container started without --gpus has none.",
       kCudaInstallGuide, check_nvidia_device_nodes, "nvidia.container_without_gpu", kOnlyLinux},
      {"nvidia.container_toolkit", "nvidia",
       "On a Docker host with the NVIDIA driver: the NVIDIA Container Toolkit's files "
       "(nvidia-ctk, nvidia-container-runtime(-hook), nvidia-container-cli, "
       "/etc/nvidia-container-runtime/config.toml), /etc/docker/daemon.json's runtimes and CDI "
       "specs for nvidia.com/gpu.",
       "docker run --gpus needs the toolkit to hand the GPU to the container; without it Docker "
       "answers \"could not select device driver \"\" with capabilities: [[gpu]]\".",
       "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/"
       "install-guide.html",
       check_nvidia_container_toolkit, "", kOnlyLinux},
      {"nvidia.cdi_spec_stale", "nvidia",
       "Each CDI spec of kind nvidia.com/* in /etc/cdi and /var/run/cdi: the device nodes it "
       "names (deviceNodes path/hostPath under /dev) against this host's /dev.",
       "A container engine injects every node the spec names and refuses to start the container "
       "when one is missing (\"failed to stat CDI host device\"); the spec is a snapshot, so "
       "renumbered /dev/dri nodes or a changed GPU make it stale.",
       "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html",
       check_nvidia_cdi_spec_stale, "", kOnlyLinux},
      {"nvidia.slurm_job_without_gpu", "nvidia",
       "In a Slurm job (SLURM_JOB_ID): SLURM_JOB_GPUS, SLURM_STEP_GPUS, SLURM_GPUS_ON_NODE and "
       "CUDA_VISIBLE_DEVICES, against the node's GPUs (gres.conf, the PCI bus) and cgroup.conf's "
       "ConstrainDevices.",
       "A job that did not request GPUs gets none: with ConstrainDevices=yes its cgroup denies "
       "/dev/nvidia*, and nvidia-smi says it cannot communicate with the driver.",
       "https://slurm.schedmd.com/gres.html",
       check_nvidia_slurm_job_without_gpu, "", kOnlyLinux},
      {"slurm.gres_device_missing", "host",
       "On a Slurm compute node (slurmd installed): the GPU device files gres.conf's Name=gpu "
       "lines give this node (File=, NodeName= matched to its host name), against /dev.",
       "slurmd stats every File= at start: one that does not exist is fatal and the node stays "
       "down (a GPU-less node under a cluster-wide line, a driver not loaded).",
       "https://slurm.schedmd.com/gres.conf.html", check_slurm_gres_devices, "", kOnlyLinux},
      {"slurm.autodetect_plugin_missing", "host",
       "On a Slurm compute node: gres.conf's AutoDetect= for this node, against the gpu_<name>.so "
       "plugin in Slurm's plugin directory (PluginDir, or where packages put it).",
       "Slurm builds gpu_nvml.so only where its configure found NVML: AutoDetect=nvml with a "
       "Slurm built without it stops slurmd or drains the node.",
       "https://slurm.schedmd.com/gres.conf.html", check_slurm_autodetect_plugin, "", kOnlyLinux},
      {"nvidia.workload_access", "nvidia",
       "The account a GPU service's unit runs as (User=) against the owner, group and mode of "
       "/dev/nvidiactl and /dev/nvidia<N> (or the driver's DeviceFile parameters).",
       "A service whose account cannot open the device files runs on the CPU or fails.",
       "https://download.nvidia.com/XFree86/Linux-x86_64/535.154.05/README/faq.html",
       check_nvidia_workload_access, "", kOnlyLinux},
      {"nvidia.driver_library_mismatch", "nvidia",
       "The loaded kernel module's version (/proc/driver/nvidia/version) against the version in "
       "the userspace libraries' file names (libnvidia-ml.so.<version>, libcuda.so.<version>), "
       "and NVML's own return code 18.",
       "Upgrading the driver packages without a reboot leaves the old module loaded: NVML and "
       "CUDA refuse to talk to it.",
       "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html",
       check_nvidia_version_mismatch, "", kOnlyLinux},
      {"nvidia.peermem_not_loaded", "nvidia",
       "The RDMA devices (/sys/class/infiniband, /dev/infiniband) beside NVIDIA GPUs, and "
       "whether the driver's peer-memory module (nvidia_peermem, or MLNX_OFED's nv_peer_mem) is "
       "loaded.",
       "Without it an RDMA NIC cannot read or write GPU memory: GPUDirect RDMA is off and "
       "multi-node NCCL and MPI copy every GPU buffer through host memory.",
       "https://docs.nvidia.com/cuda/gpudirect-rdma/index.html#nvidia-peermem", check_peermem, "",
       kOnlyLinux},
      {"nvidia.iommu_p2p", "nvidia",
       "The kernel command line's IOMMU parameters (intel_iommu=, iommu=) on a machine with "
       "several NVIDIA GPUs, outside a virtual machine.",
       "With the IOMMU translating DMA, the GPUs' peer-to-peer writes are redirected to the "
       "CPU's root complex: NCCL's collectives lose most of their speed or hang.",
       "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html",
       check_iommu_translation, "", kOnlyLinux},
      {"nvidia.fabricmanager", "nvidia",
       "NVSwitch PCI functions (vendor 10de, class 0680) against nvidia-fabricmanager's files: "
       "its binary, its dpkg record and version, its systemd unit and whether it is enabled.",
       "On HGX/DGX boards CUDA waits for Fabric Manager to set up the NVSwitch fabric; without "
       "it, or with one of another version than the driver (it refuses to start), every CUDA "
       "program fails with error 802 \"system not yet initialized\".",
       "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html",
       check_fabricmanager, "", kOnlyLinux},
      {"nvidia.wsl_gpu", "nvidia",
       "Under WSL: the WSL version (the kernel), /dev/dxg, the Windows driver's libraries in "
       "/usr/lib/wsl/lib, and which libcuda the loader picks.",
       "WSL 2 passes the GPU through /dev/dxg and the Windows driver's libcuda; WSL 1 has no GPU, "
       "and a Linux NVIDIA driver installed inside WSL shadows the real libcuda.",
       "https://docs.nvidia.com/cuda/wsl-user-guide/index.html", check_wsl_gpu,
       "nvidia.wsl_linux_driver", kOnlyLinux},
      {"cuda.stub_libcuda", "cuda",
       "The first libcuda.so* in the dynamic loader's order (LD_LIBRARY_PATH, ld.so.conf, "
       "defaults) and what cuInit returned through it.",
       "The toolkit's lib64/stubs/libcuda.so exists for linking; loaded at run time it makes "
       "every CUDA call fail with CUDA_ERROR_STUB_LIBRARY.",
       kCudaDriverApiTypes, check_stub_libcuda, "", kOnlyLinux},
      {"cuda.libcuda_unversioned", "cuda",
       "Whether the unversioned libcuda.so can be opened by that name: ld.so sees the "
       "directories of ld.so.conf only through its cache (/etc/ld.so.cache), which lists a "
       "plain file under its soname, libcuda.so.1.",
       "Programs that dlopen(\"libcuda.so\") (cuda-python 11, cuDF, cudarc and candle, "
       "ctypes.CDLL('libcuda.so')) find no driver where only libcuda.so.1 is reachable, as on "
       "WSL 2; those that open libcuda.so.1 (torch, TensorFlow, JAX) are unaffected.",
       "https://github.com/NVIDIA/cuda-python/issues/17", check_libcuda_unversioned, "",
       kOnlyLinux},
      {"cuda.init", "cuda",
       "Whether libcuda.so.1 loads and what cuInit returns, by error name.",
       "cuInit is the first thing every CUDA program and framework calls; its error code says "
       "which layer is broken.",
       kCudaDriverApiTypes, check_cuda_init, "cuda.no_driver"},
      {"cuda.visible_devices", "cuda",
       "CUDA_VISIBLE_DEVICES against the number of NVIDIA GPUs (NVML, or PCI); AMD's "
       "ROCR_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES where only NVIDIA GPUs are.",
       "An empty value, or a list whose first entry is not a valid index, hides every GPU; "
       "Slurm sets ROCR_VISIBLE_DEVICES in GPU jobs on NVIDIA nodes too, and ollama then loads "
       "no GPU (https://github.com/ollama/ollama/issues/11220).",
       "https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/"
       "environment-variables.html",
       check_cuda_visible_devices, "gpu.foreign_visible_devices"},
      {"cuda.toolkit_mismatch", "cuda",
       "The CUDA toolkits installed, which one /usr/local/cuda points to, and which nvcc is "
       "first on PATH.",
       "Building with one toolkit's nvcc and another's headers or libraries gives link errors "
       "and version confusion.",
       kCudaInstallGuide, check_toolkit_symlink_vs_nvcc},
      {"cuda.glibc_math_headers", "cuda",
       "Each CUDA toolkit's crt/math_functions.h (its declaration of cospi) against glibc's "
       "bits/mathcalls.h.",
       "glibc 2.41 declares C23's cospi, sinpi, cospif and sinpif; a CUDA header that declares "
       "them without glibc's exception specification makes nvcc reject every file that includes "
       "math.h, whatever the host compiler.",
       "https://github.com/NVIDIA/cuda-samples/issues/378", check_glibc_math_headers, "",
       kOnlyLinux},
      {"cuda.driver_too_old", "cuda",
       "The NVIDIA driver's version (kernel module, else NVML) against each installed toolkit's "
       "minimum driver, full and under minor version compatibility.",
       "A CUDA program needs a driver at least as new as its runtime; within a major version "
       "an older driver runs it with reduced features.",
       "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
       check_driver_for_toolkit, "", kOnlyLinux},
      {"cuda.arch_unsupported", "cuda",
       "Each NVIDIA GPU's compute capability (CUDA, NVML, or its PCI id in the matrix) against "
       "the oldest sm_XX each installed toolkit's nvcc can build for.",
       "Toolkits drop old architectures (CUDA 13 dropped Maxwell, Pascal and Volta); code built "
       "for newer ones fails with \"no kernel image is available\".",
       "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html",
       check_arch_for_toolkit},
      {"cudnn.compat", "cuda",
       "Each toolkit's cuDNN (cudnn_version.h) against the cuDNN support matrix: the CUDA it is "
       "built for and the driver it needs.",
       "cuDNN ships one build per CUDA major version and sets its own driver minimum.",
       "https://docs.nvidia.com/deeplearning/cudnn/backend/v9.5.1/reference/support-matrix.html",
       check_cudnn_for_toolkit,
       "cudnn.cuda_mismatch, cudnn.driver_too_old, cudnn.gpu_unsupported", kOnlyLinux,
       OwnId::name_only},
      {"python.onnxruntime_cuda", "python",
       "Each onnxruntime-gpu against the CUDA libraries its PyPI release's CUDA provider links "
       "(DT_NEEDED, read in the wheels: data/compat/framework_cuda_libs.json) and the copies "
       "its environment reaches (the loader's path, its nvidia-* wheels, its conda prefix).",
       "onnxruntime-gpu's CUDA provider is built for one CUDA major (11 before 1.19, 12 from "
       "1.19, 13 from 1.27 on PyPI); without that major's cuBLAS and cuDNN it does not load and "
       "sessions fall back to the CPU.",
       "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements",
       check_onnxruntime_cuda_libraries, "", kOnlyLinux},
      {"python.cupy_packages", "python",
       "The CuPy distributions (cupy, cupy-cuda*, cupy-rocm-*) of each Python environment.",
       "They all install the same cupy package: with two, the files of the last one installed "
       "win, and a build for another CUDA can be the one that imports.",
       "https://github.com/cupy/cupy/blob/main/cupy/_environment.py", check_cupy_packages, ""},
      {"python.torch_gpu_vendor", "python",
       "torch/version.py (cuda, hip) of every torch found against the vendors of the machine's "
       "PCI GPUs.",
       "A CUDA build reaches NVIDIA GPUs only and a ROCm build AMD GPUs only: on a machine whose "
       "GPU is another vendor's, torch sees no GPU and runs on the CPU.",
       "https://pytorch.org/get-started/locally/", check_torch_gpu_vendor, "", kOnlyLinux},
      {"python.torch_cpu_only", "python",
       "torch/version.py (cuda, hip) of every torch installed in the Python environments found, "
       "on a machine with a usable NVIDIA GPU.",
       "pip on Linux aarch64, Windows and many mirrors installs the CPU build; it never uses the "
       "GPU and says only that torch.cuda.is_available() is False.",
       "https://pytorch.org/get-started/locally/", check_torch_cpu_only, "", kOnlyLinux},
      {"python.torch_cuda_driver", "python",
       "The CUDA runtime bundled in each torch build (torch.version.cuda) against the installed "
       "driver and the minor-version-compatibility minimums.",
       "A framework's bundled CUDA needs a driver of that CUDA major family; the toolkit on PATH "
       "does not matter for this.",
       "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
       check_torch_cuda_vs_driver, "", kOnlyLinux},
      {"python.torch_arch", "python",
       "The SASS (sm_XX) and PTX (compute_XX) targets in the fatbinaries of the CUDA libraries "
       "each framework loads (torch/lib/libtorch_cuda*.so, TensorFlow's libtensorflow_*.so.2, "
       "jaxlib and the JAX plugins, CuPy), read from the files; else TensorFlow's build_info.py "
       "or PyTorch's build table; else what the framework's CUDA can target at all. Against "
       "every NVIDIA GPU's compute capability.",
       "A cubin runs on its own major at an equal or higher minor, PTX is JIT-compiled for newer "
       "GPUs at the first start; with neither the first kernel fails with \"no kernel image is "
       "available for execution on the device\".",
       "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility",
       check_framework_arch, "python.tensorflow_arch, python.jax_arch, python.cupy_arch", kOnlyLinux},
      {"python.torch_gfx", "python",
       "The gfx targets in the clang offload bundles of a ROCm torch's libtorch_hip.so, read "
       "from the file, against each AMD GPU's target (KFD) and HSA_OVERRIDE_GFX_VERSION.",
       "HIP code objects run only on the exact processor they were built for; torch then fails "
       "with \"HIP error: invalid device function\".",
       "https://llvm.org/docs/AMDGPUUsage.html#processors", check_framework_gfx, "", kOnlyLinux},
      {"python.framework_python", "python",
       "Each environment's Python version against the range the installed torch release "
       "supports and the Python versions TensorFlow's tested build configuration lists.",
       "Outside the released range pip picks an old or source build, or nothing.",
       "https://github.com/pytorch/pytorch/blob/main/RELEASE.md", check_framework_python},
      {"python.tensorflow_cuda_driver", "python",
       "The CUDA version each TensorFlow GPU build was built with (build_info.py) against the "
       "installed driver and the minor-version-compatibility minimums.",
       "TensorFlow's CUDA libraries need a driver of their CUDA major family; with an older one "
       "tf.config.list_physical_devices('GPU') is empty.",
       "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
       check_tensorflow_cuda_driver, "", kOnlyLinux},
      {"python.tensorflow_cudnn", "python",
       "The nvidia-cudnn wheel each TensorFlow release pins for its and-cuda extra (its "
       "METADATA) against the one installed beside it, and any cuDNN in a CUDA toolkit.",
       "Since the and-cuda extra a plain `pip install tensorflow` brings no CUDA libraries: "
       "TensorFlow says \"Cannot dlopen some GPU libraries\" and uses the CPU.",
       "https://www.tensorflow.org/install/pip", check_tensorflow_cudnn, "", kOnlyLinux},
      {"python.tensorflow_cuda_libraries", "python",
       "The libcudart.so.N and libcudnn.so.N each TensorFlow GPU build asks for (build_info.py), "
       "where its libtensorflow_framework.so.2 lets the loader look (DT_RPATH / DT_RUNPATH of "
       "that release), and the copies installed: loader directories, LD_LIBRARY_PATH, toolkits, "
       "conda environments, pip nvidia-* wheels, with their versions.",
       "Before the and-cuda extra TensorFlow uses whatever CUDA and cuDNN the loader finds: a "
       "conda environment's lib/ is not searched by 2.7 and later, and an older cuDNN than the "
       "one it was built with fails every convolution.",
       "https://github.com/tensorflow/tensorflow/blob/v2.7.0/third_party/gpus/cuda_configure.bzl",
       check_tensorflow_cuda_libraries, "python.tensorflow_cudnn_loaded", kOnlyLinux},
      {"python.torch_extension_cuda", "python",
       "The CUDA of the toolkit torch.utils.cpp_extension builds with (CUDA_HOME, CUDA_PATH, nvcc "
       "on PATH, /usr/local/cuda) against each torch's torch.version.cuda.",
       "torch refuses to build C++/CUDA extensions (pip installs of flash-attn, apex, …) with an "
       "nvcc of another CUDA major than its own; a minor difference only warns.",
       "https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py",
       check_torch_extension_cuda, "", kOnlyLinux},
      {"cuda.library_shadowed", "cuda",
       "Each CUDA library of a pip nvidia-* wheel (cuBLAS, cuDNN, cuSPARSE, nvJitLink, NCCL, …) "
       "against a copy of the same name in an LD_LIBRARY_PATH directory, by version.",
       "ld.so searches LD_LIBRARY_PATH before the wheels' RUNPATH: an older toolkit's copy there "
       "is what torch's CUDA libraries load (undefined symbol __nvJitLinkCreate_12_8).",
       "https://man7.org/linux/man-pages/man8/ld.so.8.html", check_wheel_library_shadowed, "",
       kOnlyLinux},
      {"python.nvidia_wheel_conflict", "python",
       "The nvidia-cudnn-cu* requirement in the METADATA of every framework of an environment "
       "(torch, tensorflow[and-cuda], jax-cuda*-plugin, …) against the wheel installed.",
       "One environment holds one cuDNN wheel; a framework built against a newer cuDNN than the "
       "one another framework pinned fails when it loads it.",
       "https://github.com/tensorflow/tensorflow/blob/v2.7.0/tensorflow/stream_executor/cuda/"
       "cuda_dnn.cc",
       check_nvidia_wheel_conflict, "", kOnlyLinux},
      {"python.tensorflow_cpu_only", "python",
       "build_info.py is_cuda_build of every TensorFlow, on a machine with a usable NVIDIA GPU.",
       "tensorflow-cpu and CPU-only builds never use the GPU.",
       "https://www.tensorflow.org/install/pip", check_tensorflow_cpu_only, "", kOnlyLinux},
      {"python.jax_cuda", "python",
       "Each jax-cuda*-plugin against jaxlib's version, the driver minimum, the compute "
       "capability minimum and the cuDNN wheel range of the JAX installation page.",
       "jaxlib silently drops a plugin of another version; an old driver or GPU makes JAX fall "
       "back to the CPU.",
       "https://docs.jax.dev/en/latest/installation.html", check_jax_cuda, "", kOnlyLinux},
      {"python.jax_cpu_only", "python",
       "Environments with jaxlib but no CUDA or ROCm plugin, on a machine with a usable NVIDIA "
       "GPU.",
       "`pip install jax` is CPU-only; the GPU needs the jax[cuda12] / jax[cuda13] extra.",
       "https://docs.jax.dev/en/latest/installation.html", check_jax_cpu_only, "", kOnlyLinux},
      {"compat.newer_than_tables", "python",
       "Each installed torch, tensorflow and tensorflow-metal against the newest release in "
       "gpudoctor's tables (data/compat).",
       "A release newer than the tables cannot be judged by the checks that need its row; "
       "saying so beats falling silent, and names what was checked instead.",
       "https://github.com/pytorch/pytorch/blob/main/RELEASE.md", check_newer_than_tables},
      {"opencl.icds", "opencl",
       "The .icd files (OCL_ICD_VENDORS, /etc/OpenCL/vendors, OCL_ICD_FILENAMES), whether each "
       "names a library the loader finds and that loads.",
       "The ICD loader skips ICDs it cannot load, silently; with none left clinfo shows 0 "
       "platforms and programs get -1001.",
       kOpenClIcdLoader, check_opencl_icds,
       "opencl.no_icd, opencl.icd_broken, opencl.no_device", kOnlyLinux, OwnId::name_only},
      {"opencl.cpu_only", "opencl",
       "OpenCL devices (on a recorded machine: the .icd files) against the GPUs on PCI that have "
       "a driver bound.",
       "When only a CPU device answers, OpenCL programs run on the CPU without saying so.",
       kOpenClIcdLoader, check_opencl_cpu_only, "", kOnlyLinux},
      {"vulkan.manifests", "vulkan",
       "The Vulkan driver manifests (VK_DRIVER_FILES, VK_ADD_DRIVER_FILES, icd.d directories) "
       "and whether each names a library that exists.",
       "The loader skips manifests it cannot use; with none, vkCreateInstance fails.",
       kVulkanLoaderDrivers, check_vulkan_manifests,
       "vulkan.no_driver, vulkan.manifest_broken", kOnlyLinux, OwnId::name_only},
      {"vulkan.software_only", "vulkan",
       "Vulkan physical devices (on a recorded machine: the driver manifests) against the GPUs "
       "on PCI that have a driver bound, and the kernel driver each GPU driver needs.",
       "When only llvmpipe/lavapipe answers, Vulkan compute runs on the CPU, many times slower.",
       kVulkanLoaderDrivers, check_vulkan_software_only, "vulkan.radeon_kernel_driver", kOnlyLinux},
      {"vulkan.layer_broken", "vulkan",
       "The implicit layer manifests in the loader's order (VK_IMPLICIT_LAYER_PATH, "
       "VK_ADD_IMPLICIT_LAYER_PATH, implicit_layer.d under $XDG_CONFIG_HOME, $XDG_CONFIG_DIRS, "
       "/etc, $XDG_DATA_HOME, $XDG_DATA_DIRS), their libraries, their enable and disable "
       "variables and VK_LOADER_LAYERS_DISABLE; the layers known to hide devices.",
       "The loader puts every active implicit layer into every Vulkan program: one whose library "
       "is gone makes it print an error each time, and some layers hide GPUs (AMDVLK's "
       "switchable-graphics layer hides RADV).",
       "https://github.com/KhronosGroup/Vulkan-Loader/blob/main/docs/LoaderLayerInterface.md",
       check_vulkan_layers, "vulkan.layer_hides_devices", kOnlyLinux},
  };
}

}  // namespace gpudoctor
