#pragma once
// Turning a device's matmul output and timings into a SmokeResult: the one verdict every API's
// runner (probes/*/…_matmul, cuda_smoke) shares.
#include <string>
#include <vector>

#include "model/smoke.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/matmul_request.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::smoke {

/// Compares `c` with the CPU reference for `in` and records pass or fail, the largest absolute
/// and relative error, where it is (row, col), how many entries are wrong and the tolerance.
void record_verdict(SmokeResult& r, const MatmulInputs& in, const std::vector<float>& c);

/// Records the kernel time (ms, the best of the timed runs) and the GFLOP/s it means.
void record_timing(SmokeResult& r, double best_ms);

/// The end of every runner: the device's output `c` (rows padded to `ld`) judged against the
/// reference when the request verifies ("unverified" otherwise), and the best timed run.
void record_output(SmokeResult& r, const MatmulRequest& req, const MatmulInputs& in,
                   const std::vector<float>& c, int ld, const TimedRuns& timed);

/// A runner's result for one run of size n, started from `base` (its api, device and kernel, and
/// the failure or skip its setup ended in, if any); n ≤ 0 is a skip.
SmokeResult start_run(const SmokeResult& base, int n);

/// Marks the result failed (or skipped) with why.
void record_failure(SmokeResult& r, std::string reason);
void record_skip(SmokeResult& r, std::string reason);

/// What became of the smoke tests of a driver whose process died (crashed, hung, exited) while
/// testing `running`: that device failed with `how` ("libX crashed: SIGSEGV …"), and the
/// devices after it in `devices` (all the driver's devices, in test order) were never tested.
std::vector<SmokeResult> smoke_lost(const std::string& api, const std::string& library,
                                    const std::string& running,
                                    const std::vector<std::string>& devices,
                                    const std::string& how);

/// "; smoke matmul passed on 2 devices", then what failed or was skipped, where; "" for none.
std::string smoke_summary(const std::vector<SmokeResult>& results);

}  // namespace gpudoctor::smoke
