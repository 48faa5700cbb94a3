#include "cuda/cuda_smoke.hpp"

#include <vector>

#include "cuda/matmul_ptx.hpp"
#include "api/cuda/cuda_codes.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/smoke_verdict.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::cuda {

namespace {

/// Frees what the run allocated, in reverse order, whichever way it ends.
struct Resources {
  const CudaApi& api;
  CUcontext ctx = nullptr;
  CUmodule module = nullptr;
  CUdeviceptr buffers[3] = {0, 0, 0};

  ~Resources() {
    if (ctx == nullptr) return;
    for (CUdeviceptr p : buffers) {
      if (p != 0) api.mem_free(p);
    }
    if (module != nullptr && api.module_unload != nullptr) api.module_unload(module);
    api.ctx_destroy(ctx);
  }
};

}  // namespace

SmokeResult run_matmul_smoke(const CudaApi& api, CUdevice device, const std::string& label,
                             const smoke::MatmulRequest& req) {
  const int n = req.n;
  SmokeResult r;
  r.api = "cuda";
  r.device = label;
  r.n = n;
  r.kernel = std::string(kMatmulPtxTarget) + " (JIT)";
  if (auto missing = api.smoke_missing()) {
    r.status = "skip";
    r.reason = "this libcuda has no " + *missing;
    return r;
  }
  auto failed = [&](const char* call, CUresult rc) {
    r.status = "fail";
    r.reason = cuda_call_failed(call, rc);
    return r;
  };

  Resources res{api};
  if (CUresult rc = api.ctx_create(&res.ctx, 0, device); rc != kSuccess) {
    res.ctx = nullptr;
    return failed("cuCtxCreate", rc);
  }
  if (CUresult rc = api.module_load_data(&res.module, kMatmulPtx); rc != kSuccess) {
    res.module = nullptr;
    return failed("cuModuleLoadData", rc);
  }
  CUfunction fn = nullptr;
  if (CUresult rc = api.module_get_function(&fn, res.module, kMatmulKernelName); rc != kSuccess) {
    return failed("cuModuleGetFunction", rc);
  }

  const smoke::MatmulInputs in = smoke::matmul_inputs(n);
  const std::size_t bytes = in.a.size() * sizeof(float);
  for (CUdeviceptr& p : res.buffers) {
    if (CUresult rc = api.mem_alloc(&p, bytes); rc != kSuccess) {
      p = 0;
      return failed("cuMemAlloc", rc);
    }
  }
  if (CUresult rc = api.memcpy_htod(res.buffers[0], in.a.data(), bytes); rc != kSuccess) {
    return failed("cuMemcpyHtoD", rc);
  }
  if (CUresult rc = api.memcpy_htod(res.buffers[1], in.b.data(), bytes); rc != kSuccess) {
    return failed("cuMemcpyHtoD", rc);
  }

  int n_arg = n;
  void* params[] = {&res.buffers[0], &res.buffers[1], &res.buffers[2], &n_arg};
  const unsigned grid = (static_cast<unsigned>(n) + kMatmulTile - 1) / kMatmulTile;
  auto launch = [&] {
    return api.launch_kernel(fn, grid, grid, 1, kMatmulTile, kMatmulTile, 1, 0, nullptr, params,
                             nullptr);
  };
  // The first launch of a module pays for lazy loading: time_runs never times it.
  const smoke::TimedRuns timed = smoke::time_runs(req, [&]() -> std::optional<std::string> {
    if (CUresult rc = launch(); rc != kSuccess) return cuda_call_failed("cuLaunchKernel", rc);
    if (CUresult rc = api.ctx_synchronize(); rc != kSuccess) {
      return cuda_call_failed("cuCtxSynchronize", rc);
    }
    return std::nullopt;
  });
  if (timed.error) {
    r.status = "fail";
    r.reason = *timed.error;
    return r;
  }
  if (auto best = smoke::best_ms(timed.ms)) smoke::record_timing(r, *best);

  std::vector<float> c(in.a.size(), 0.0f);
  if (CUresult rc = api.memcpy_dtoh(c.data(), res.buffers[2], bytes); rc != kSuccess) {
    return failed("cuMemcpyDtoH", rc);
  }
  if (req.verify) {
    smoke::record_verdict(r, in, c);
  } else {
    r.status = "unverified";
  }
  return r;
}

}  // namespace gpudoctor::cuda
