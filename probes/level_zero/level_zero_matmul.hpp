#pragma once
// The Level Zero matmul (C = A·B, fp32, n×n) on one device: `gpudoctor check`'s smoke test and
// `gpudoctor bench`'s Level Zero series. Only inside an isolated child (it runs driver code).
//
//   LevelZeroMatmul runner(api, compute, driver, device, "label shown in results");
//   SmokeResult r = runner.run({256, /*repeats=*/1, /*verify=*/true});
//
// The constructor creates a context, builds the embedded SPIR-V module (matmul_spirv.hpp) and
// its kernel, a command queue and a command list; each run() allocates device memory, copies A
// and B in, launches the kernel once untimed and `repeats` times timed (smoke/timed_runs.hpp),
// copies C back and, when asked, verifies it against the CPU reference. A runner whose setup
// failed returns that failure (or skip) from every run().
#include <memory>
#include <string>
#include <vector>

#include "level_zero/level_zero_api.hpp"
#include "level_zero/matmul_spirv.hpp"
#include "model/smoke.hpp"
#include "smoke/matmul_request.hpp"

namespace gpudoctor::level_zero {

/// What a build without a SPIR-V compiler says of every Level Zero smoke test.
inline constexpr const char* kNoSpirvKernel = "not examined: built without a SPIR-V kernel";

class LevelZeroMatmul {
 public:
  /// `compute` is nullptr where the loader lacks the entry points (`missing` names the first);
  /// `spirv` is the module to build, empty in a build without a SPIR-V compiler.
  LevelZeroMatmul(const LevelZeroComputeApi* compute, const std::string& missing,
                  ze_driver_handle_t driver, ze_device_handle_t device, std::string label,
                  std::string library, std::vector<std::uint32_t> spirv = matmul_spirv());
  ~LevelZeroMatmul();
  LevelZeroMatmul(const LevelZeroMatmul&) = delete;
  LevelZeroMatmul& operator=(const LevelZeroMatmul&) = delete;

  SmokeResult run(const smoke::MatmulRequest& req);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// "zeModuleCreate returned 0x70000004 (ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)".
std::string ze_call_failed(const char* call, ze_result_t rc);

}  // namespace gpudoctor::level_zero
