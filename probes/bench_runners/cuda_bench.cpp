#include "bench_runners/cuda_bench.hpp"

#include "bench/bench_model.hpp"
#include "bench_runners/copy_timer.hpp"
#include "bench_runners/cublas_series.hpp"
#include "bench_runners/sweep.hpp"
#include "cuda/cuda_probe.hpp"
#include "cuda/cuda_smoke.hpp"
#include "api/cuda/cuda_codes.hpp"

namespace gpudoctor::bench {

namespace {

using cuda::CUcontext;
using cuda::CUdevice;
using cuda::CUdeviceptr;
using cuda::CUresult;
using cuda::kSuccess;

using MemAllocHostFn = CUresult(void** ptr, std::size_t bytes);
using MemFreeHostFn = CUresult(void* ptr);
using MemcpyDtoDFn = CUresult(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes);

/// What the copy test allocated, freed in reverse order whichever way it ends.
struct CopyResources {
  const cuda::CudaApi& api;
  MemFreeHostFn* free_host = nullptr;
  CUcontext ctx = nullptr;
  void* host = nullptr;
  CUdeviceptr buffers[2] = {0, 0};

  ~CopyResources() {
    if (ctx == nullptr) return;
    for (CUdeviceptr p : buffers) {
      if (p != 0) api.mem_free(p);
    }
    if (host != nullptr) free_host(host);
    api.ctx_destroy(ctx);
  }
};

Bandwidth cuda_bandwidth(const DynamicLibrary& lib, const cuda::CudaApi& api, CUdevice dev) {
  Bandwidth bw;
  const std::size_t bytes = kCopyBytes;
  bw.bytes = bytes;
  auto* alloc_host = lib.symbol<MemAllocHostFn>("cuMemAllocHost_v2");
  auto* dtod = lib.symbol<MemcpyDtoDFn>("cuMemcpyDtoD_v2");
  CopyResources res{api, lib.symbol<MemFreeHostFn>("cuMemFreeHost")};
  if (alloc_host == nullptr || res.free_host == nullptr || dtod == nullptr || api.smoke_missing()) {
    bw.error = "this libcuda lacks an entry point the copy test needs";
    return bw;
  }
  if (CUresult rc = api.ctx_create(&res.ctx, 0, dev); rc != kSuccess) {
    res.ctx = nullptr;
    bw.error = cuda_call_failed("cuCtxCreate", rc);
    return bw;
  }
  if (CUresult rc = alloc_host(&res.host, bytes); rc != kSuccess) {
    res.host = nullptr;
    bw.error = cuda_call_failed("cuMemAllocHost", rc);
    return bw;
  }
  for (CUdeviceptr& p : res.buffers) {
    if (CUresult rc = api.mem_alloc(&p, bytes); rc != kSuccess) {
      p = 0;
      bw.error = cuda_call_failed("cuMemAlloc", rc);
      return bw;
    }
  }
  bw.host_to_device_gbs =
      copy_gbs(bytes, [&] { return api.memcpy_htod(res.buffers[0], res.host, bytes) == kSuccess; });
  bw.device_to_host_gbs =
      copy_gbs(bytes, [&] { return api.memcpy_dtoh(res.host, res.buffers[0], bytes) == kSuccess; });
  bw.device_to_device_gbs = copy_gbs(bytes, [&] {
    return dtod(res.buffers[1], res.buffers[0], bytes) == kSuccess &&
           api.ctx_synchronize() == kSuccess;
  });
  return bw;
}

DeviceTraits traits_of(const CudaDevice& d) {
  DeviceTraits t;
  t.vendor_id = 0x10de;
  t.type = d.integrated.value_or(false) ? "integrated gpu" : "gpu";
  if (d.multiprocessors) t.compute_units = static_cast<std::uint32_t>(*d.multiprocessors);
  if (d.clock_khz) t.clock_mhz = static_cast<std::uint32_t>(*d.clock_khz / 1000);
  t.cc_major = d.cc_major;
  t.cc_minor = d.cc_minor;
  t.pci_bus_id = d.pci_bus_id;
  return t;
}

}  // namespace

JobReport cuda_bench(const std::vector<int>& sizes,
                     const std::vector<std::string>& cublas_candidates,
                     const std::vector<std::string>& libcuda) {
  // The CUDA probe's body, run here in this child, finds and describes every device.
  cuda::JobOptions options;
  options.libraries = libcuda;
  JobReport rep = cuda::make_job(options).body();
  BenchJobReport out;
  CudaInfo info;
  try {
    info = rep.data.get<CudaInfo>();
  } catch (const std::exception& e) {
    rep.status = ProbeStatus::failed;
    rep.detail = std::string("the CUDA probe's facts do not fit the model: ") + e.what();
  }
  std::string err, missing;
  auto lib = info.library ? DynamicLibrary::open(*info.library, &err) : std::nullopt;
  auto api = lib ? cuda::CudaApi::load(*lib, &missing) : std::nullopt;
  if (rep.status == ProbeStatus::ok && api) {
    for (const auto& d : info.devices) {
      BenchSeries s;
      s.api = "cuda";
      s.device = d.name.value_or("CUDA device " + std::to_string(d.ordinal));
      s.library = info.library;
      s.traits = traits_of(d);
      CUdevice dev = 0;
      if (CUresult rc = api->device_get(&dev, d.ordinal); rc != kSuccess) {
        s.error = cuda_call_failed("cuDeviceGet", rc);
      } else {
        sweep(s, sizes, [&](const smoke::MatmulRequest& req) {
          return cuda::run_matmul_smoke(*api, dev, s.device, req);
        });
        s.bandwidth = cuda_bandwidth(*lib, *api, dev);
      }
      out.series.push_back(s);
      // What the frameworks get on the same device, where a cuBLAS is installed.
      if (!s.error) {
        if (auto blas = cublas_series(*api, dev, s, cublas_candidates, sizes)) {
          out.series.push_back(std::move(*blas));
        }
      }
    }
  }
  rep.data = out;
  return rep;
}

}  // namespace gpudoctor::bench
