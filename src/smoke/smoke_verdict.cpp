#include "smoke/smoke_verdict.hpp"

#include <algorithm>
#include <cstdio>

namespace gpudoctor::smoke {

namespace {

std::string wrong_text(const MatmulCheck& check, std::size_t total, int n) {
  char buf[200];
  const std::size_t worst = check.worst.value_or(0);
  std::snprintf(buf, sizeof buf,
                "%zu of %zu entries wrong: max abs error %.3g (relative %.3g) at row %zu, col "
                "%zu > tolerance %.3g",
                check.wrong, total, check.max_abs_error, check.max_rel_error,
                worst / static_cast<std::size_t>(n), worst % static_cast<std::size_t>(n),
                check.tolerance);
  return buf;
}

}  // namespace

void record_verdict(SmokeResult& r, const MatmulInputs& in, const std::vector<float>& c) {
  const MatmulCheck check = check_matmul(matmul_reference(in), c);
  r.n = in.n;
  r.max_abs_error = check.max_abs_error;
  r.max_rel_error = check.max_rel_error;
  r.tolerance = check.tolerance;
  r.wrong_entries = static_cast<long long>(check.wrong);
  if (check.worst && in.n > 0 && c.size() == in.a.size()) {
    r.worst_row = static_cast<int>(*check.worst / static_cast<std::size_t>(in.n));
    r.worst_col = static_cast<int>(*check.worst % static_cast<std::size_t>(in.n));
  }
  if (check.pass) {
    r.status = "pass";
    r.reason.reset();
  } else if (c.size() != in.a.size()) {
    record_failure(r, "the device returned " + std::to_string(c.size()) + " entries, not " +
                          std::to_string(in.a.size()));
  } else {
    record_failure(r, wrong_text(check, c.size(), in.n));
  }
}

void record_timing(SmokeResult& r, double best_ms) {
  if (!(best_ms > 0) || !r.n) return;
  r.kernel_ms = best_ms;
  r.gflops = matmul_gflops(*r.n, best_ms);
}

SmokeResult start_run(const SmokeResult& base, int n) {
  SmokeResult r = base;
  r.n = n;
  if (n <= 0 && r.status != "fail") record_skip(r, "n must be positive");
  return r;
}

void record_failure(SmokeResult& r, std::string reason) {
  r.status = "fail";
  r.reason = std::move(reason);
}

void record_skip(SmokeResult& r, std::string reason) {
  r.status = "skip";
  r.reason = std::move(reason);
}

std::vector<SmokeResult> smoke_lost(const std::string& api, const std::string& library,
                                    const std::string& running,
                                    const std::vector<std::string>& devices,
                                    const std::string& how) {
  auto result = [&](const std::string& device) {
    SmokeResult r;
    r.api = api;
    r.device = device;
    r.library = library;
    return r;
  };
  std::vector<SmokeResult> out{result(running)};
  record_failure(out.front(), how + " (during the smoke matmul)");
  auto next = std::find(devices.begin(), devices.end(), running);
  if (next == devices.end()) return out;
  for (++next; next != devices.end(); ++next) {
    out.push_back(result(*next));
    record_skip(out.back(), "not run: the driver's process died testing " + running);
  }
  return out;
}

std::string smoke_summary(const std::vector<SmokeResult>& results) {
  std::string out;
  std::size_t passed = 0;
  for (const auto& r : results) {
    if (r.status == "pass") {
      ++passed;
    } else {
      out += "; smoke matmul " + std::string(r.status == "fail" ? "failed" : "skipped") + " on " +
             r.device + ": " + r.reason.value_or("no reason given");
    }
  }
  if (passed > 0) {
    out = "; smoke matmul passed on " + std::to_string(passed) +
          (passed == 1 ? " device" : " devices") + out;
  }
  return out;
}

void record_output(SmokeResult& r, const MatmulRequest& req, const MatmulInputs& in,
                   const std::vector<float>& c, int ld, const TimedRuns& timed) {
  if (req.verify) {
    record_verdict(r, in, unpad_matrix(c, req.n, ld));
  } else {
    r.status = "unverified";
  }
  if (auto best = best_ms(timed.ms)) record_timing(r, *best);
}

}  // namespace gpudoctor::smoke
