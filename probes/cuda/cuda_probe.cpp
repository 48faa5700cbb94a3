#include "cuda/cuda_probe.hpp"

#include <exception>

#include "backends.hpp"
#include "core/dynlib.hpp"
#include "core/single_job.hpp"
#include "cuda/cuda_api.hpp"
#include "cuda/cuda_smoke.hpp"
#include "api/cuda/cuda_codes.hpp"
#include "api/cuda/cuda_cores.hpp"
#include "api/pci/gpu_ids.hpp"
#include "smoke/smoke_verdict.hpp"

namespace gpudoctor::cuda {

namespace {

constexpr int kMaxDevices = 256;  // more than any machine has: a larger count is garbage

std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

CudaError error_fact(const CudaApi& api, const char* call, CUresult rc) {
  CudaError e;
  e.call = call;
  e.code = rc;
  if (auto name = cuda_error_name(rc)) {
    e.name = std::string(*name);
  } else if (const char* s = nullptr; api.get_error_name && api.get_error_name(rc, &s) == 0 && s) {
    e.name = s;
  }
  if (const char* s = nullptr;
      api.get_error_string && api.get_error_string(rc, &s) == kSuccess && s != nullptr) {
    e.text = s;
  }
  return e;
}

/// Everything deviceQuery prints about one device; a call that fails leaves its fact null.
CudaDevice read_device(const CudaApi& api, int ordinal) {
  CudaDevice d;
  d.ordinal = ordinal;
  CUdevice dev = 0;
  if (api.device_get(&dev, ordinal) != kSuccess) return d;

  if (char name[256] = {};
      api.device_get_name && api.device_get_name(name, sizeof name - 1, dev) == kSuccess) {
    d.name = std::string(name);
  }
  if (CUuuid u{}; api.device_get_uuid && api.device_get_uuid(&u, dev) == kSuccess) {
    std::uint8_t bytes[16];
    for (int i = 0; i < 16; ++i) bytes[i] = u.bytes[i];
    d.uuid = nvidia_gpu_uuid(bytes);
  }
  if (std::size_t bytes = 0;
      api.device_total_mem && api.device_total_mem(&bytes, dev) == kSuccess) {
    d.total_memory_bytes = bytes;
  }
  auto attr = [&](int a) -> std::optional<int> {
    int v = 0;
    if (api.device_get_attribute && api.device_get_attribute(&v, a, dev) == kSuccess) return v;
    return std::nullopt;
  };
  auto flag = [&](int a) -> std::optional<bool> {
    if (auto v = attr(a)) return *v != 0;
    return std::nullopt;
  };
  auto all = [&](std::initializer_list<int> attrs) {
    std::vector<int> out;
    for (int a : attrs) {
      auto v = attr(a);
      if (!v) return std::vector<int>{};
      out.push_back(*v);
    }
    return out;
  };

  d.cc_major = attr(kComputeCapabilityMajor);
  d.cc_minor = attr(kComputeCapabilityMinor);
  d.multiprocessors = attr(kMultiprocessorCount);
  if (d.cc_major && d.cc_minor) {
    d.cores_per_multiprocessor = cuda_cores_per_multiprocessor(*d.cc_major, *d.cc_minor);
  }
  d.clock_khz = attr(kClockRate);
  d.memory_clock_khz = attr(kMemoryClockRate);
  d.memory_bus_width_bits = attr(kGlobalMemoryBusWidth);
  d.l2_cache_bytes = attr(kL2CacheSize);
  d.max_texture_1d = attr(kMaximumTexture1dWidth);
  d.max_texture_2d = all({kMaximumTexture2dWidth, kMaximumTexture2dHeight});
  d.max_texture_3d = all({kMaximumTexture3dWidth, kMaximumTexture3dHeight, kMaximumTexture3dDepth});
  d.max_layered_texture_1d = all({kMaximumTexture1dLayeredWidth, kMaximumTexture1dLayeredLayers});
  d.max_layered_texture_2d = all({kMaximumTexture2dLayeredWidth, kMaximumTexture2dLayeredHeight,
                                  kMaximumTexture2dLayeredLayers});
  d.total_constant_memory_bytes = attr(kTotalConstantMemory);
  d.shared_memory_per_block_bytes = attr(kMaxSharedMemoryPerBlock);
  d.shared_memory_per_block_optin_bytes = attr(kMaxSharedMemoryPerBlockOptin);
  d.shared_memory_per_multiprocessor_bytes = attr(kMaxSharedMemoryPerMultiprocessor);
  d.registers_per_block = attr(kMaxRegistersPerBlock);
  d.registers_per_multiprocessor = attr(kMaxRegistersPerMultiprocessor);
  d.warp_size = attr(kWarpSize);
  d.max_threads_per_multiprocessor = attr(kMaxThreadsPerMultiprocessor);
  d.max_threads_per_block = attr(kMaxThreadsPerBlock);
  d.max_block_dim = all({kMaxBlockDimX, kMaxBlockDimY, kMaxBlockDimZ});
  d.max_grid_dim = all({kMaxGridDimX, kMaxGridDimY, kMaxGridDimZ});
  d.max_pitch_bytes = attr(kMaxPitch);
  d.texture_alignment_bytes = attr(kTextureAlignment);
  d.surface_alignment_bytes = attr(kSurfaceAlignment);
  d.gpu_overlap = flag(kGpuOverlap);
  d.async_engine_count = attr(kAsyncEngineCount);
  d.concurrent_kernels = flag(kConcurrentKernels);
  d.kernel_exec_timeout = flag(kKernelExecTimeout);
  d.integrated = flag(kIntegrated);
  d.can_map_host_memory = flag(kCanMapHostMemory);
  d.ecc_enabled = flag(kEccEnabled);
  d.unified_addressing = flag(kUnifiedAddressing);
  d.managed_memory = flag(kManagedMemory);
  d.compute_preemption = flag(kComputePreemptionSupported);
  d.cooperative_launch = flag(kCooperativeLaunch);
  d.cooperative_multi_device_launch = flag(kCooperativeMultiDeviceLaunch);
  d.tcc_driver = flag(kTccDriver);
  if (auto mode = attr(kComputeMode)) d.compute_mode = nvidia_compute_mode_name(*mode);
  d.pci_domain = attr(kPciDomainId);
  d.pci_bus = attr(kPciBusId);
  d.pci_device = attr(kPciDeviceId);
  if (d.pci_domain && d.pci_bus && d.pci_device && *d.pci_domain >= 0 && *d.pci_bus >= 0 &&
      *d.pci_device >= 0) {
    d.pci_bus_id = pci_address(static_cast<std::uint32_t>(*d.pci_domain),
                               static_cast<std::uint32_t>(*d.pci_bus),
                               static_cast<std::uint32_t>(*d.pci_device));
  }
  return d;
}

JobReport report(ProbeStatus status, std::string detail, const CudaInfo& info) {
  return JobReport{status, std::move(detail), Json(info)};
}

JobReport probe_in_child(const JobOptions& opt) {
  CudaInfo info;
  std::string loaded;
  const std::optional<DynamicLibrary> lib = open_first(opt.libraries, &loaded, &info.load_errors);
  if (lib) info.library = lib->path().value_or(loaded);
  if (!lib) {
    const std::string first = opt.libraries.empty() ? "libcuda" : opt.libraries.front();
    if (auto error = refusal(opt.libraries, info.load_errors)) {
      return report(ProbeStatus::failed, first + " could not be loaded: " + *error, info);
    }
    return report(ProbeStatus::missing,
                  first + " not found: the NVIDIA driver's CUDA library is not installed" +
                      (info.load_errors.empty() ? "" : " (" + info.load_errors.front() + ")"),
                  info);
  }
  info.stub = info.library->find("/stubs/") != std::string::npos;

  std::string missing;
  const auto api = CudaApi::load(*lib, &missing);
  if (!api) {
    return report(ProbeStatus::failed, *info.library + " has no " + missing, info);
  }
  // cuDriverGetVersion works before cuInit, so a failed cuInit still says which driver it is.
  if (int v = 0; api->driver_get_version(&v) == kSuccess) info.driver_version = v;

  if (CUresult rc = api->init(0); rc != kSuccess) {
    info.init_error = error_fact(*api, "cuInit", rc);
    if (rc == kErrorStubLibrary) info.stub = true;
    std::string detail = cuda_call_failed("cuInit", rc);
    if (info.stub.value_or(false)) {
      detail += ": " + *info.library + " is the CUDA toolkit's stub, not the driver's libcuda";
    }
    return report(rc == kErrorNoDevice ? ProbeStatus::missing : ProbeStatus::failed, detail, info);
  }

  int count = 0;
  if (CUresult rc = api->device_get_count(&count); rc != kSuccess) {
    return report(ProbeStatus::failed, cuda_call_failed("cuDeviceGetCount", rc), info);
  }
  if (count < 0 || count > kMaxDevices) {
    return report(ProbeStatus::failed,
                  "cuDeviceGetCount reported " + std::to_string(count) + " devices", info);
  }
  for (int i = 0; i < count; ++i) info.devices.push_back(read_device(*api, i));

  if (opt.smoke) {
    for (const auto& d : info.devices) {
      CUdevice dev = 0;
      const std::string label = d.name.value_or("device " + std::to_string(d.ordinal));
      if (api->device_get(&dev, d.ordinal) != kSuccess) continue;
      info.smoke.push_back(run_matmul_smoke(*api, dev, label, smoke::MatmulRequest{opt.smoke_n}));
    }
  }

  std::string detail = info.driver_version ? "driver CUDA " + version_text(*info.driver_version)
                                           : std::string("driver version unknown");
  detail += ", " + std::to_string(count) + (count == 1 ? " device" : " devices");
  detail += smoke::smoke_summary(info.smoke);
  return report(count == 0 ? ProbeStatus::missing : ProbeStatus::ok, detail, info);
}

}  // namespace

IsolatedJob make_job(JobOptions options) {
  return make_single_job(kBackendCuda, "libcuda", std::move(options), probe_in_child);
}

std::vector<IsolatedJob> jobs(const ProbeContext& ctx) {
  if (!ctx.live) return {};
  JobOptions options;
  options.smoke = ctx.smoke;
  return {make_job(std::move(options))};
}

ProbeOutcome assemble(CudaInfo& info, const std::vector<IsolatedResult>& results, bool live) {
  return assemble_single_job(kBackendCuda, "CUDA", "libcuda", info, results, live);
}

}  // namespace gpudoctor::cuda
