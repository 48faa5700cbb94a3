#pragma once
#include <optional>
#include <string>

#include "json.hpp"

namespace gpudoctor {

/// Result of the smoke matmul (C = A·B, fp32, n×n) on one device of one API, verified against
/// the CPU reference (src/smoke/matmul_reference).
struct SmokeResult {
  std::string api;                     ///< "cuda", "opencl", "vulkan"
  std::string device;                  ///< name or ordinal
  std::string status;                  ///< "pass", "fail", "skip"
  std::optional<std::string> reason;   ///< why it failed or was skipped
  std::optional<std::string> library;  ///< the driver that ran it: ICD library, manifest
  std::optional<int> n;                ///< matrix size n×n×n
  std::optional<std::string> kernel;   ///< what ran: "ptx sm_50 (JIT)", "OpenCL C 64×64 tiles"
  std::optional<double> max_abs_error;
  std::optional<double> max_rel_error;
  std::optional<int> worst_row;  ///< where the largest error is
  std::optional<int> worst_col;
  std::optional<long long> wrong_entries;  ///< entries beyond the tolerance
  std::optional<double> tolerance;
  std::optional<double> kernel_ms;  ///< best (or mean) kernel time, no compile, no copies
  std::optional<double> gflops;
};
GPUDOCTOR_JSON(SmokeResult, api, device, status, reason, library, n, kernel, max_abs_error,
               max_rel_error, worst_row, worst_col, wrong_entries, tolerance, kernel_ms, gflops)

}  // namespace gpudoctor
