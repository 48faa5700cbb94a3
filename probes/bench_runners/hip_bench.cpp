#include "bench_runners/hip_bench.hpp"

#include "bench/bench_model.hpp"
#include "bench_runners/blas_point.hpp"
#include "core/dynlib.hpp"
#include "rocm/hip_api.hpp"
#include "rocm/rocblas_api.hpp"

namespace gpudoctor::bench {

namespace {

using hip::hipError_t;

std::string hip_failed(const char* call, hipError_t rc) {
  return std::string(call) + " returned " + std::to_string(rc);
}

/// The handle of one series, destroyed whichever way it ends.
struct RocblasState {
  hip::RocblasDestroyFn* destroy = nullptr;
  hip::RocblasHandle handle = nullptr;

  ~RocblasState() {
    if (handle != nullptr && destroy != nullptr) destroy(handle);
  }
};

DeviceTraits traits_of(const HipDevice& d) {
  DeviceTraits t;
  t.vendor_id = 0x1002;
  t.type = d.integrated.value_or(false) ? "integrated gpu" : "gpu";
  if (d.multiprocessors) t.compute_units = static_cast<std::uint32_t>(*d.multiprocessors);
  if (d.clock_khz) t.clock_mhz = static_cast<std::uint32_t>(*d.clock_khz / 1000);
  t.pci_bus_id = d.pci_bus_id;
  return t;
}

BenchSeries rocblas_series(const hip::HipApi& api, const DynamicLibrary& lib,
                           const std::string& path, const HipDevice& d, BenchSeries s,
                           const std::vector<int>& sizes) {
  auto* create = lib.symbol<hip::RocblasCreateFn>("rocblas_create_handle");
  auto* sgemm = lib.symbol<hip::RocblasSgemmFn>("rocblas_sgemm");
  RocblasState st{lib.symbol<hip::RocblasDestroyFn>("rocblas_destroy_handle")};
  if (create == nullptr || sgemm == nullptr || st.destroy == nullptr || !api.bench_ready()) {
    s.error = path +
              " lacks rocblas_create_handle, rocblas_sgemm or rocblas_destroy_handle, or "
              "libamdhip64 the calls the bench needs";
    return s;
  }
  if (hipError_t rc = api.set_device(d.ordinal); rc != hip::kSuccess) {
    s.error = hip_failed("hipSetDevice", rc);
    return s;
  }
  if (int status = create(&st.handle); status != hip::kRocblasSuccess) {
    st.handle = nullptr;
    s.error = "rocblas_create_handle returned " + hip::rocblas_status_text(status);
    return s;
  }
  const auto called = [](const char* call, hipError_t rc) -> std::optional<std::string> {
    if (rc == hip::kSuccess) return std::nullopt;
    return hip_failed(call, rc);
  };
  DeviceBlas<void*> blas;
  blas.alloc = [&](void*& p, std::size_t bytes) {
    return called("hipMalloc", api.mem_alloc(&p, bytes));
  };
  blas.free = [&](void* p) { api.mem_free(p); };
  blas.to_device = [&](void* dst, const float* src, std::size_t bytes) {
    return called("hipMemcpy", api.mem_copy(dst, src, bytes, hip::kMemcpyHostToDevice));
  };
  blas.to_host = [&](float* dst, void* src, std::size_t bytes) {
    return called("hipMemcpy", api.mem_copy(dst, src, bytes, hip::kMemcpyDeviceToHost));
  };
  blas.gemm = [&](int n, void* a, void* b, void* c) -> std::optional<std::string> {
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the same buffers, B first.
    const float one = 1.0f, zero = 0.0f;
    const int status = sgemm(st.handle, hip::kRocblasOperationNone, hip::kRocblasOperationNone, n,
                             n, n, &one, static_cast<const float*>(b), n,
                             static_cast<const float*>(a), n, &zero, static_cast<float*>(c), n);
    if (status != hip::kRocblasSuccess) {
      return "rocblas_sgemm returned " + hip::rocblas_status_text(status);
    }
    return called("hipDeviceSynchronize", api.device_synchronize());
  };
  s.points = device_blas_points(sizes, blas);
  return s;
}

}  // namespace

JobReport hip_bench(const std::vector<int>& sizes,
                    const std::vector<std::string>& rocblas_candidates,
                    const std::vector<std::string>& libhip) {
  hip::JobOptions options;
  options.libraries = libhip;
  JobReport rep = hip::make_job(options).body();
  BenchJobReport out;
  HipInfo info;
  try {
    info = rep.data.get<HipInfo>();
  } catch (const std::exception& e) {
    rep.status = ProbeStatus::failed;
    rep.detail = std::string("the HIP probe's facts do not fit the model: ") + e.what();
  }
  std::string err, missing, loaded;
  auto lib = info.library ? DynamicLibrary::open(*info.library, &err) : std::nullopt;
  auto api = lib ? hip::HipApi::load(*lib, &missing) : std::nullopt;
  std::vector<std::string> errors;
  auto rocblas = api && !info.devices.empty() ? open_first(rocblas_candidates, &loaded, &errors)
                                              : std::nullopt;
  if (rep.status == ProbeStatus::ok && api && rocblas) {
    const std::string path = rocblas->path().value_or(loaded);
    std::string kernel = "rocblas_sgemm, ";
    char version[128] = {};
    if (auto* get = rocblas->symbol<hip::RocblasVersionFn>("rocblas_get_version_string");
        get != nullptr && get(version, sizeof version - 1) == hip::kRocblasSuccess) {
      kernel += "rocBLAS " + std::string(version) + ", ";
    }
    kernel += path;
    for (const auto& d : info.devices) {
      BenchSeries base;
      base.api = "hip";
      base.device = d.name.value_or("HIP device " + std::to_string(d.ordinal));
      base.library = info.library;
      base.traits = traits_of(d);
      out.series.push_back(rocblas_series(
          *api, *rocblas, path, d, library_series(base, "rocBLAS", kernel),
          sizes));
    }
  }
  rep.data = out;
  return rep;
}

}  // namespace gpudoctor::bench
