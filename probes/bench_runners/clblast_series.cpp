#include "bench_runners/clblast_series.hpp"

#include "api/opencl/opencl_codes.hpp"
#include "bench/vendor_blas.hpp"
#include "bench_runners/blas_point.hpp"
#include "bench_runners/cl_queue.hpp"
#include "core/dynlib.hpp"
#include "opencl/clblast_api.hpp"

namespace gpudoctor::bench {

std::optional<BenchSeries> clblast_series(const opencl::OpenClApi& api, cl_platform_id platform,
                                          cl_device_id device, const BenchSeries& base,
                                          const std::vector<int>& sizes) {
  std::string loaded;
  std::vector<std::string> errors;
  auto lib = open_first(kClblastLibraries, &loaded, &errors);
  if (!lib) return std::nullopt;
  BenchSeries s = library_series(base, "CLBlast", "CLBlastSgemm, " + lib->path().value_or(loaded));
  auto* sgemm = lib->symbol<opencl::ClblastSgemmFn>("CLBlastSgemm");
  if (sgemm == nullptr) {
    s.error = loaded + " has no CLBlastSgemm";
    return s;
  }
  if (auto missing = api.compute_missing()) {
    s.error = "the OpenCL loader has no " + *missing;
    return s;
  }
  ClQueue cl{api};
  if (auto e = cl.open(platform, device)) {
    s.error = *e;
    return s;
  }
  for (int n : sizes) {
    const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    const std::size_t bytes = count * sizeof(float);
    LibraryMatmul run;
    run.upload = [&](const smoke::MatmulInputs& in) -> std::optional<std::string> {
      if (auto e = cl.make_buffers(3, bytes)) return e;
      for (int i = 0; i < 2; ++i) {
        const cl_int rc =
            api.enqueue_write_buffer(cl.queue(), cl.buffer(i), CL_TRUE, 0, bytes,
                                     (i == 0 ? in.a : in.b).data(), 0, nullptr, nullptr);
        if (rc != CL_SUCCESS) return cl_call_failed("clEnqueueWriteBuffer", rc);
      }
      return std::nullopt;
    };
    run.once = [&]() -> std::optional<std::string> {
      const auto un = static_cast<std::size_t>(n);
      const int status =
          sgemm(opencl::kClblastLayoutRowMajor, opencl::kClblastTransposeNo,
                opencl::kClblastTransposeNo, un, un, un, 1.0f, cl.buffer(0), 0, un, cl.buffer(1), 0,
                un, 0.0f, cl.buffer(2), 0, un, &cl.queue(), nullptr);
      if (status != opencl::kClblastSuccess) {
        return "CLBlastSgemm returned " + std::to_string(status);
      }
      if (cl_int e = api.finish(cl.queue()); e != CL_SUCCESS) return cl_call_failed("clFinish", e);
      return std::nullopt;
    };
    run.download = [&](std::vector<float>& c) -> std::optional<std::string> {
      c.assign(count, 0.0f);
      const cl_int rc = api.enqueue_read_buffer(cl.queue(), cl.buffer(2), CL_TRUE, 0, bytes,
                                                c.data(), 0, nullptr, nullptr);
      if (rc != CL_SUCCESS) return cl_call_failed("clEnqueueReadBuffer", rc);
      return std::nullopt;
    };
    s.points.push_back(library_point(n, run));
  }
  return s;
}

}  // namespace gpudoctor::bench
