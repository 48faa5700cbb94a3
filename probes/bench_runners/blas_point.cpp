#include "bench_runners/blas_point.hpp"

#include "bench/bench_math.hpp"
#include "smoke/smoke_verdict.hpp"

namespace gpudoctor::bench {

BenchPoint library_point(int n, const LibraryMatmul& run) {
  std::vector<double> times;
  smoke::MatmulRequest req = sweep_request(n);
  req.times_ms = &times;
  SmokeResult r;
  r.n = n;
  const smoke::MatmulInputs in = smoke::matmul_inputs(n);
  auto error = run.upload(in);
  std::optional<smoke::TimedRuns> timed;
  if (!error) {
    timed = smoke::time_runs(req, run.once);
    error = timed->error;
  }
  std::vector<float> c;
  if (!error) error = run.download(c);
  if (error) {
    smoke::record_failure(r, *error);
    return point_from(r, times);
  }
  if (req.verify) {
    smoke::record_verdict(r, in, c);
  } else {
    r.status = "unverified";
  }
  if (auto best = smoke::best_ms(timed->ms)) smoke::record_timing(r, *best);
  return point_from(r, times);
}

BenchSeries library_series(BenchSeries base, const std::string& blas, const std::string& kernel) {
  base.blas = blas;
  base.kernel = kernel;
  base.error.reset();
  base.points.clear();
  base.bandwidth.reset();
  base.measured_peak.reset();
  return base;
}

}  // namespace gpudoctor::bench
