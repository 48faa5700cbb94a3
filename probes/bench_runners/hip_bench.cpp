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

/// The handle and the buffers of one series, freed whichever way it ends.
struct RocblasState {
  const hip::HipApi& api;
  hip::RocblasDestroyFn* destroy = nullptr;
  hip::RocblasHandle handle = nullptr;
  void* buffers[3] = {nullptr, nullptr, nullptr};

  void free_buffers() {
    for (void*& p : buffers) {
      if (p != nullptr) api.mem_free(p);
      p = nullptr;
    }
  }
  ~RocblasState() {
    free_buffers();
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
  RocblasState st{api, lib.symbol<hip::RocblasDestroyFn>("rocblas_destroy_handle")};
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
  for (int n : sizes) {
    const std::size_t bytes =
        static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * sizeof(float);
    LibraryMatmul run;
    run.upload = [&](const smoke::MatmulInputs& in) -> std::optional<std::string> {
      st.free_buffers();
      for (void*& p : st.buffers) {
        if (hipError_t rc = api.mem_alloc(&p, bytes); rc != hip::kSuccess) {
          p = nullptr;
          return hip_failed("hipMalloc", rc);
        }
      }
      for (int i = 0; i < 2; ++i) {
        if (hipError_t rc = api.mem_copy(st.buffers[i], (i == 0 ? in.a : in.b).data(), bytes,
                                         hip::kMemcpyHostToDevice);
            rc != hip::kSuccess) {
          return hip_failed("hipMemcpy", rc);
        }
      }
      return std::nullopt;
    };
    run.once = [&]() -> std::optional<std::string> {
      // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the same buffers, B first.
      const float one = 1.0f, zero = 0.0f;
      const int status =
          sgemm(st.handle, hip::kRocblasOperationNone, hip::kRocblasOperationNone, n, n, n, &one,
                static_cast<const float*>(st.buffers[1]), n,
                static_cast<const float*>(st.buffers[0]), n, &zero,
                static_cast<float*>(st.buffers[2]), n);
      if (status != hip::kRocblasSuccess) {
        return "rocblas_sgemm returned " + hip::rocblas_status_text(status);
      }
      if (hipError_t rc = api.device_synchronize(); rc != hip::kSuccess) {
        return hip_failed("hipDeviceSynchronize", rc);
      }
      return std::nullopt;
    };
    run.download = [&](std::vector<float>& c) -> std::optional<std::string> {
      c.assign(bytes / sizeof(float), 0.0f);
      if (hipError_t rc = api.mem_copy(c.data(), st.buffers[2], bytes, hip::kMemcpyDeviceToHost);
          rc != hip::kSuccess) {
        return hip_failed("hipMemcpy", rc);
      }
      return std::nullopt;
    };
    s.points.push_back(library_point(n, run));
  }
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
