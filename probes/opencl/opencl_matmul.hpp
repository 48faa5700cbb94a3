#pragma once
// The OpenCL matmul (C = A·B, fp32, n×n) on one device: `gpudoctor check`'s smoke test and
// `gpudoctor bench`'s OpenCL runner.
//
// How to use it (only inside an isolated child whose loader sees one ICD, see
// opencl_enumerate.cpp; it loads and runs vendor code):
//
//   OpenClMatmul runner(api, platform, device, "label shown in results");
//   for (int n : {256, 512, 1024}) {
//     SmokeResult r = runner.run({n, /*repeats=*/5, /*verify=*/n <= 512});
//     // r.status "pass"/"fail"/"skip", r.kernel_ms (best of the timed runs, smoke/timed_runs.hpp), r.gflops
//   }
//
// The program is built once, by the constructor; each run() allocates its buffers, runs the
// kernel once untimed (warm-up) and `repeats` times timed, reads C back and, when asked,
// verifies it. A runner whose setup failed returns that failure (or skip) from every run().
// opencl_matmul() is the one-shot form.
#include <memory>
#include <string>

#include "model/smoke.hpp"
#include "opencl/opencl_api.hpp"
#include "smoke/matmul_request.hpp"

namespace gpudoctor::opencl {

/// `tuned`: the bench's kernel (matmul_cl.hpp, tiles by local-memory type); `smoke`: the check's
/// plain kernel, quick to compile.
enum class MatmulKernel { tuned, smoke };

class OpenClMatmul {
 public:
  OpenClMatmul(const OpenClApi& api, cl_platform_id platform, cl_device_id device,
               std::string label, MatmulKernel kernel = MatmulKernel::tuned);
  ~OpenClMatmul();
  OpenClMatmul(const OpenClMatmul&) = delete;
  OpenClMatmul& operator=(const OpenClMatmul&) = delete;

  SmokeResult run(const smoke::MatmulRequest& req);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

SmokeResult opencl_matmul(const OpenClApi& api, cl_platform_id platform, cl_device_id device,
                          const smoke::MatmulRequest& req);

}  // namespace gpudoctor::opencl
