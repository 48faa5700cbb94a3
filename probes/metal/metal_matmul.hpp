#pragma once
// The Metal matmul (C = A·B, fp32, n×n) on one device, through MetalCalls: `gpudoctor check`'s
// smoke test and `gpudoctor bench`'s Metal series, with gpudoctor's own kernel (matmul_msl.hpp)
// or MetalPerformanceShaders' MPSMatrixMultiplication (the vendor-BLAS series). Set up once
// (queue, compiled pipeline); each run() makes its buffers, runs once untimed and then timed
// (smoke/timed_runs.hpp), reads C back and verifies it against the CPU reference.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "metal/metal_calls.hpp"
#include "model/smoke.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/matmul_request.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::metal {

enum class MatmulEngine { kernel, mps };

class MetalMatmul {
 public:
  /// `max_buffer_bytes`: the device's maxBufferLength, where known.
  MetalMatmul(MetalCalls& calls, Object device, std::string label, MatmulEngine engine,
              std::optional<std::uint64_t> max_buffer_bytes = std::nullopt);
  MetalMatmul(const MetalMatmul&) = delete;
  MetalMatmul& operator=(const MetalMatmul&) = delete;
  ~MetalMatmul();

  SmokeResult run(const smoke::MatmulRequest& req);

 private:
  void setup();
  smoke::TimedRuns time_kernel(const smoke::MatmulRequest& req,
                               const smoke::PaddedLayout& layout, const std::vector<Object>& abc);
  smoke::TimedRuns time_mps(const smoke::MatmulRequest& req, const smoke::PaddedLayout& layout,
                            const std::vector<Object>& abc);

  MetalCalls& calls_;
  Object device_;
  MatmulEngine engine_;
  std::optional<std::uint64_t> max_buffer_bytes_;
  SmokeResult base_;
  Object queue_ = nullptr;
  Object pipeline_ = nullptr;
  bool ready_ = false;
};

/// What the kernel and MPS series are called in results.
inline constexpr const char* kKernelDescription =
    "Metal Shading Language, 16x16 threadgroup tiles (compiled at run time)";
inline constexpr const char* kMpsDescription = "MPSMatrixMultiplication";

}  // namespace gpudoctor::metal
