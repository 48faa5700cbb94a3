#pragma once
// The one way every matmul series is timed, whatever runs it (gpudoctor's OpenCL, Vulkan and
// PTX kernels, a CPU BLAS, a vendor BLAS): an untimed warm-up, then runs each timed on its own
// by the wall clock around launch and completion, as many as the request asks. A device clock
// (OpenCL profiling, Vulkan timestamps, CUDA events) would leave out the launch a framework pays
// for, and a CPU BLAS has none; one clock for all keeps the series comparable.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "smoke/matmul_request.hpp"

namespace gpudoctor::smoke {

/// One run: launch the work and wait until it is done. The failed call's text, or nullopt.
using RunOnce = std::function<std::optional<std::string>()>;

struct TimedRuns {
  std::vector<double> ms;            ///< each timed run, in order
  std::optional<std::string> error;  ///< the run that failed, if one did
};

/// Warm-up, then timed runs: at least req.repeats (fewer only past req.cap_ms), then more while
/// their total stays under req.budget_ms, up to req.max_repeats. Copies the times to
/// req.times_ms when set.
TimedRuns time_runs(const MatmulRequest& req, const RunOnce& once);

/// The shortest time, if any.
std::optional<double> best_ms(const std::vector<double>& ms);

/// Whether another timed run is due after `done` runs that took `spent_ms` together.
bool wants_another_run(const MatmulRequest& req, int done, double spent_ms);

}  // namespace gpudoctor::smoke
