#include "bench_runners/clblast_series.hpp"

#include "api/opencl/opencl_codes.hpp"
#include "bench/vendor_blas.hpp"
#include "bench_runners/blas_point.hpp"
#include "core/dynlib.hpp"
#include "opencl/clblast_api.hpp"

namespace gpudoctor::bench {

namespace {

/// The context, queue and buffers of one series, released whichever way it ends.
struct ClState {
  const opencl::OpenClApi& api;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem buffers[3] = {nullptr, nullptr, nullptr};

  void release_buffers() {
    for (cl_mem& b : buffers) {
      if (b != nullptr) api.release_mem_object(b);
      b = nullptr;
    }
  }
  ~ClState() {
    release_buffers();
    if (queue != nullptr) api.release_command_queue(queue);
    if (context != nullptr) api.release_context(context);
  }
};

}  // namespace

std::optional<BenchSeries> clblast_series(const opencl::OpenClApi& api, cl_platform_id platform,
                                          cl_device_id device, BenchSeries s,
                                          const std::vector<int>& sizes) {
  std::string loaded;
  std::vector<std::string> errors;
  auto lib = open_first(kClblastLibraries, &loaded, &errors);
  if (!lib) return std::nullopt;
  s.blas = "CLBlast";
  s.kernel = "CLBlastSgemm, " + lib->path().value_or(loaded);
  s.points.clear();
  s.bandwidth.reset();
  s.measured_peak.reset();
  auto* sgemm = lib->symbol<opencl::ClblastSgemmFn>("CLBlastSgemm");
  if (sgemm == nullptr) {
    s.error = loaded + " has no CLBlastSgemm";
    return s;
  }
  if (auto missing = api.compute_missing()) {
    s.error = "the OpenCL loader has no " + *missing;
    return s;
  }
  ClState cl{api};
  cl_int rc = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(platform), 0};
  cl.context = api.create_context(props, 1, &device, nullptr, nullptr, &rc);
  if (cl.context == nullptr) {
    s.error = cl_call_failed("clCreateContext", rc);
    return s;
  }
  cl.queue = api.create_command_queue(cl.context, device, 0, &rc);
  if (cl.queue == nullptr) {
    s.error = cl_call_failed("clCreateCommandQueue", rc);
    return s;
  }
  for (int n : sizes) {
    const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    const std::size_t bytes = count * sizeof(float);
    LibraryMatmul run;
    run.upload = [&](const smoke::MatmulInputs& in) -> std::optional<std::string> {
      cl.release_buffers();
      for (cl_mem& b : cl.buffers) {
        b = api.create_buffer(cl.context, CL_MEM_READ_WRITE, bytes, nullptr, &rc);
        if (b == nullptr) return cl_call_failed("clCreateBuffer", rc);
      }
      for (int i = 0; i < 2; ++i) {
        rc = api.enqueue_write_buffer(cl.queue, cl.buffers[i], CL_TRUE, 0, bytes,
                                      (i == 0 ? in.a : in.b).data(), 0, nullptr, nullptr);
        if (rc != CL_SUCCESS) return cl_call_failed("clEnqueueWriteBuffer", rc);
      }
      return std::nullopt;
    };
    run.once = [&]() -> std::optional<std::string> {
      const auto un = static_cast<std::size_t>(n);
      const int status = sgemm(opencl::kClblastLayoutRowMajor, opencl::kClblastTransposeNo,
                               opencl::kClblastTransposeNo, un, un, un, 1.0f, cl.buffers[0], 0,
                               un, cl.buffers[1], 0, un, 0.0f, cl.buffers[2], 0, un, &cl.queue,
                               nullptr);
      if (status != opencl::kClblastSuccess) {
        return "CLBlastSgemm returned " + std::to_string(status);
      }
      if (cl_int e = api.finish(cl.queue); e != CL_SUCCESS) return cl_call_failed("clFinish", e);
      return std::nullopt;
    };
    run.download = [&](std::vector<float>& c) -> std::optional<std::string> {
      c.assign(count, 0.0f);
      rc = api.enqueue_read_buffer(cl.queue, cl.buffers[2], CL_TRUE, 0, bytes, c.data(), 0,
                                   nullptr, nullptr);
      if (rc != CL_SUCCESS) return cl_call_failed("clEnqueueReadBuffer", rc);
      return std::nullopt;
    };
    s.points.push_back(library_point(n, run));
  }
  return s;
}

}  // namespace gpudoctor::bench
