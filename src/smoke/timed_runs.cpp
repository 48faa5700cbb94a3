#include "smoke/timed_runs.hpp"

#include <algorithm>
#include <chrono>

namespace gpudoctor::smoke {

bool wants_another_run(const MatmulRequest& req, int done, double spent_ms) {
  if (req.cap_ms > 0 && done > 0 && spent_ms >= req.cap_ms) return false;
  if (done < std::max(req.repeats, 1)) return true;
  return done < req.max_repeats && spent_ms < req.budget_ms;
}

TimedRuns time_runs(const MatmulRequest& req, const RunOnce& once) {
  TimedRuns out;
  // Drivers finish compiling, allocate and page in at the first launch: never timed.
  out.error = once();
  double spent = 0;
  while (!out.error && wants_another_run(req, static_cast<int>(out.ms.size()), spent)) {
    const auto start = std::chrono::steady_clock::now();
    out.error = once();
    const std::chrono::duration<double, std::milli> took =
        std::chrono::steady_clock::now() - start;
    if (out.error) break;
    out.ms.push_back(took.count());
    spent += took.count();
  }
  if (req.times_ms != nullptr) *req.times_ms = out.ms;
  return out;
}

std::optional<double> best_ms(const std::vector<double>& ms) {
  if (ms.empty()) return std::nullopt;
  return *std::min_element(ms.begin(), ms.end());
}

}  // namespace gpudoctor::smoke
