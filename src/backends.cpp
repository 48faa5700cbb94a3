#include "backends.hpp"

#include <algorithm>

#include "device_lists.hpp"
#include "facts/facts.hpp"
#include "text.hpp"

namespace gpudoctor {

// Each backend's facts walk, one file each in src/facts/.
namespace facts {
/// The backend's own sections and the facts diff compares.
void host_facts(const Snapshot& snap, Sink& out);
void opencl_facts(const Snapshot& snap, Sink& out);
void vulkan_facts(const Snapshot& snap, Sink& out);
void nvidia_facts(const Snapshot& snap, Sink& out);
void cuda_facts(const Snapshot& snap, Sink& out);
void nvml_facts(const Snapshot& snap, Sink& out);
void rocm_facts(const Snapshot& snap, Sink& out);
void macos_facts(const Snapshot& snap, Sink& out);
void python_facts(const Snapshot& snap, Sink& out);
void metal_facts(const Snapshot& snap, Sink& out);
void level_zero_facts(const Snapshot& snap, Sink& out);

/// The backend's view of one merged device, as rows.
void pci_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void opencl_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void vulkan_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void cuda_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void nvml_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void rocm_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void macos_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void metal_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void level_zero_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
/// Its identity projection (src/facts/level_zero_facts.cpp).
std::vector<DeviceList> level_zero_device_lists();
}  // namespace facts

namespace {

/// How many devices a section lists (OpenCL: across its platforms).
template <typename Section>
std::size_t listed_devices(const Section& section) {
  return section.devices.size();
}
std::size_t listed_devices(const OpenClInfo& section) { return opencl_device_count(section); }

/// A section's smoke results and device count; no results when the section is absent.
template <auto Section>
SmokeOf smoke_of(const Snapshot& snap) {
  const auto& section = snap.*Section;
  if (!section) return {};
  return {&section->smoke, listed_devices(*section)};
}

}  // namespace

const std::vector<Backend>& all_backends() {
  using namespace facts;
  static const std::vector<Backend> backends = {
      {"host", "host", "OS, kernel, CPU, memory, container, VM or WSL (files)",
       {"PATH", "WSL_DISTRO_NAME"}, false, host_facts, nullptr},
      {"pci", "PCI",
       "display, 3D and accelerator PCI functions, their drivers and links (libpci, sysfs)", {},
       false, nullptr, pci_device_view, nullptr, device_lists::pci()},
      {"opencl", "OpenCL", "OpenCL ICDs, one isolated child per ICD",
       {"OCL_ICD_*", "OPENCL_VENDOR_PATH", "POCL_*", "RUSTICL_ENABLE"}, true, opencl_facts, opencl_device_view,
       smoke_of<&Snapshot::opencl>, device_lists::opencl()},
      {"vulkan", "Vulkan",
       "Vulkan drivers through the loader, one isolated child per driver manifest",
       {"VK_*", "MESA_*", "DRI_PRIME", "LIBGL_*", "XDG_SESSION_TYPE", "DISPLAY",
        "WAYLAND_DISPLAY", "__NV_PRIME_RENDER_OFFLOAD", "__GLX_VENDOR_LIBRARY_NAME"},
       true, vulkan_facts, vulkan_device_view, smoke_of<&Snapshot::vulkan>,
       device_lists::vulkan()},
      {"nvidia", "NVIDIA",
       "NVIDIA kernel module, /dev nodes, Secure Boot, dkms, the libcuda and libnvidia-ml the "
       "loader would pick, CUDA toolkits, cuDNN, NCCL (files)",
       {"LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_*", "CUDNN_*", "NCCL_*", "NVIDIA_*"}, false,
       nvidia_facts, nullptr},
      {"cuda", "CUDA", "libcuda.so.1, deviceQuery-grade", {"CUDA_*"}, true, cuda_facts,
       cuda_device_view, smoke_of<&Snapshot::cuda>, device_lists::cuda()},
      {"nvml", "NVML", "libnvidia-ml.so.1", {"CUDA_VISIBLE_DEVICES"}, true, nvml_facts,
       nvml_device_view, nullptr, device_lists::nvml()},
      {"python", "Python",
       "Python environments and their GPU packages, read from files, never imported",
       {"VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PYTHONPATH", "PYTHONHOME",
        "KERAS_BACKEND", "KERAS_HOME", "XLA_FLAGS", "TORCH_CUDA_ARCH_LIST", "JAX_*",
        "XLA_PYTHON_*", "PYTORCH_*", "TF_CPP_*", "TF_GPU_*", "TF_CUDNN_*", "TF_XLA_*",
        "TF_FORCE_GPU_ALLOW_GROWTH", "TF_ENABLE_ONEDNN_OPTS", "ONEAPI_DEVICE_SELECTOR",
        "ZE_*", "SYCL_*"},
       false, python_facts, nullptr},
      {"macos", "macOS",
       "sw_vers, sysctl and system_profiler SPDisplaysDataType (on a Mac, or recorded under "
       "--sysroot)",
       {"DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "SYSTEM_VERSION_COMPAT"},
       false, macos_facts, macos_device_view, nullptr, device_lists::macos()},
      {"metal", "Metal",
       "Metal's devices through the Objective-C runtime and Metal.framework, in an isolated "
       "child (macOS only)",
       {"MTL_*", "METAL_*"}, true, metal_facts, metal_device_view, smoke_of<&Snapshot::metal>,
       device_lists::metal()},
      {"rocm", "ROCm",
       "the KFD topology, the amdgpu module, /dev/kfd and render nodes, ROCm installs, then "
       "libamdhip64 in an isolated child",
       {"ROCM_PATH", "HSA_*", "ROCR_*", "HIP_*", "HCC_*", "GPU_DEVICE_ORDINAL"}, true, rocm_facts,
       rocm_device_view, nullptr, device_lists::rocm()},
      {"level_zero", "Level Zero",
       "Intel's Level Zero: libze_loader.so.1 and its drivers (libze_intel_gpu), in an "
       "isolated child",
       {"ZE_*", "ZEL_*"}, true, level_zero_facts, level_zero_device_view,
       smoke_of<&Snapshot::level_zero>, level_zero_device_lists()},
  };
  return backends;
}

const Backend* find_backend(std::string_view name) {
  for (const auto& b : all_backends()) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

std::string backend_names(std::string_view separator) {
  std::vector<std::string> names;
  for (const auto& b : all_backends()) names.emplace_back(b.name);
  return join(names, separator);
}

std::vector<const SmokeResult*> smoke_results(const Snapshot& snap) {
  std::vector<const SmokeResult*> out;
  for (const auto& b : all_backends()) {
    if (!b.smoke) continue;
    if (const auto* results = b.smoke(snap).results) {
      for (const auto& r : *results) out.push_back(&r);
    }
  }
  return out;
}

bool backend_variable(std::string_view name) {
  for (const auto& b : all_backends()) {
    for (std::string_view v : b.variables) {
      if (!v.empty() && v.back() == '*' ? starts_with(name, v.substr(0, v.size() - 1))
                                         : name == v) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace gpudoctor
