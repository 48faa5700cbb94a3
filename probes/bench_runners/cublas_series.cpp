#include "bench_runners/cublas_series.hpp"

#include "api/cuda/cuda_codes.hpp"
#include "bench_runners/blas_point.hpp"
#include "core/dynlib.hpp"
#include "cuda/cublas_api.hpp"

namespace gpudoctor::bench {

namespace {

using cuda::CUdeviceptr;
using cuda::CUresult;
using cuda::kSuccess;

/// The context and the handle of one series, freed whichever way it ends.
struct CublasState {
  const cuda::CudaApi& api;
  cuda::CublasDestroyFn* destroy = nullptr;
  cuda::CUcontext ctx = nullptr;
  cuda::CublasHandle handle = nullptr;

  ~CublasState() {
    if (ctx == nullptr) return;
    if (handle != nullptr) destroy(handle);
    api.ctx_destroy(ctx);
  }
};

const float* device_floats(CUdeviceptr p) { return reinterpret_cast<const float*>(p); }

}  // namespace

std::optional<BenchSeries> cublas_series(const cuda::CudaApi& api, cuda::CUdevice device,
                                         const BenchSeries& base,
                                         const std::vector<std::string>& candidates,
                                         const std::vector<int>& sizes) {
  std::string loaded;
  std::vector<std::string> errors;
  auto lib = open_first(candidates, &loaded, &errors);
  if (!lib) return std::nullopt;
  BenchSeries s = library_series(base, "cuBLAS", "cublasSgemm_v2, " + lib->path().value_or(loaded));
  auto* create = lib->symbol<cuda::CublasCreateFn>("cublasCreate_v2");
  auto* sgemm = lib->symbol<cuda::CublasSgemmFn>("cublasSgemm_v2");
  CublasState st{api, lib->symbol<cuda::CublasDestroyFn>("cublasDestroy_v2")};
  if (create == nullptr || sgemm == nullptr || st.destroy == nullptr || api.smoke_missing()) {
    s.error = loaded +
              " lacks cublasCreate_v2, cublasSgemm_v2 or cublasDestroy_v2, or libcuda "
              "the calls the bench needs";
    return s;
  }
  if (CUresult rc = api.ctx_create(&st.ctx, 0, device); rc != kSuccess) {
    st.ctx = nullptr;
    s.error = cuda_call_failed("cuCtxCreate", rc);
    return s;
  }
  if (int status = create(&st.handle); status != cuda::kCublasSuccess) {
    st.handle = nullptr;
    s.error = "cublasCreate_v2 returned " + cuda::cublas_status_text(status);
    return s;
  }
  DeviceBlas<CUdeviceptr> blas;
  blas.alloc = [&](CUdeviceptr& p, std::size_t bytes) -> std::optional<std::string> {
    if (CUresult rc = api.mem_alloc(&p, bytes); rc != kSuccess) {
      return cuda_call_failed("cuMemAlloc", rc);
    }
    return std::nullopt;
  };
  blas.free = [&](CUdeviceptr p) { api.mem_free(p); };
  blas.to_device = [&](CUdeviceptr dst, const float* src,
                       std::size_t bytes) -> std::optional<std::string> {
    if (CUresult rc = api.memcpy_htod(dst, src, bytes); rc != kSuccess) {
      return cuda_call_failed("cuMemcpyHtoD", rc);
    }
    return std::nullopt;
  };
  blas.to_host = [&](float* dst, CUdeviceptr src, std::size_t bytes) -> std::optional<std::string> {
    if (CUresult rc = api.memcpy_dtoh(dst, src, bytes); rc != kSuccess) {
      return cuda_call_failed("cuMemcpyDtoH", rc);
    }
    return std::nullopt;
  };
  blas.gemm = [&](int n, CUdeviceptr a, CUdeviceptr b,
                  CUdeviceptr c) -> std::optional<std::string> {
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the same buffers, B first.
    const float one = 1.0f, zero = 0.0f;
    const int status = sgemm(st.handle, cuda::kCublasOpN, cuda::kCublasOpN, n, n, n, &one,
                             device_floats(b), n, device_floats(a), n, &zero,
                             reinterpret_cast<float*>(c), n);
    if (status != cuda::kCublasSuccess) {
      return "cublasSgemm_v2 returned " + cuda::cublas_status_text(status);
    }
    if (CUresult rc = api.ctx_synchronize(); rc != kSuccess) {
      return cuda_call_failed("cuCtxSynchronize", rc);
    }
    return std::nullopt;
  };
  s.points = device_blas_points(sizes, blas);
  return s;
}

}  // namespace gpudoctor::bench
