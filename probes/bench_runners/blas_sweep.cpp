#include "bench_runners/blas_sweep.hpp"


#include "bench/bench_math.hpp"
#include "core/dynlib.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/smoke_verdict.hpp"
#include "smoke/timed_runs.hpp"
#include "text.hpp"

namespace gpudoctor::bench {

namespace {

// CBLAS as netlib's cblas.h declares it; the enum values are part of its ABI.
constexpr int kCblasRowMajor = 101;
constexpr int kCblasNoTrans = 111;
using SgemmFn = void(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
                     const float* a, int lda, const float* b, int ldb, float beta, float* c,
                     int ldc);
using ConfigFn = char*();  // openblas_get_config: "OpenBLAS 0.3.21 DYNAMIC_ARCH … Haswell …"
using ThreadsFn = int();   // openblas_get_num_threads

/// The same point every device gets: the same inputs, timed the same way (sweep.hpp), the
/// product checked against the reference at the sizes the devices are checked at.
BenchPoint time_sgemm(SgemmFn* sgemm, int n) {
  const smoke::MatmulInputs in = smoke::matmul_inputs(n);
  std::vector<float> c(in.a.size());
  std::vector<double> times;
  smoke::MatmulRequest req = sweep_request(n);
  req.times_ms = &times;
  SmokeResult r;
  r.n = n;
  const smoke::TimedRuns timed = smoke::time_runs(req, [&]() -> std::optional<std::string> {
    sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, n, n, n, 1.0f, in.a.data(), n,
          in.b.data(), n, 0.0f, c.data(), n);
    return std::nullopt;
  });
  if (req.verify) {
    smoke::record_verdict(r, in, c);
  } else {
    r.status = "unverified";
  }
  if (auto best = smoke::best_ms(timed.ms)) smoke::record_timing(r, *best);
  return point_from(r, times);
}

std::string kernel_text(const DynamicLibrary& lib) {
  std::string k = "cblas_sgemm";
  if (auto* config = lib.symbol<ConfigFn>("openblas_get_config")) {
    k += ", " + std::string(trim(config()));
  }
  if (auto* threads = lib.symbol<ThreadsFn>("openblas_get_num_threads")) {
    const int t = threads();
    k += ", " + std::to_string(t) + (t == 1 ? " thread" : " threads");
  }
  return k;
}

}  // namespace

JobReport blas_sweep(const std::vector<std::string>& libraries, const std::vector<int>& sizes,
                     const std::string& cpu_name) {
  BenchSeries s;
  s.api = "blas";
  s.device = cpu_name;
  s.traits.type = "cpu";
  JobReport rep;
  std::string loaded;
  std::vector<std::string> errors;
  auto lib = open_first(libraries, &loaded, &errors);
  auto* sgemm = lib ? lib->symbol<SgemmFn>("cblas_sgemm") : nullptr;
  if (!lib || sgemm == nullptr) {
    s.error =
        lib ? loaded + " has no cblas_sgemm"
            : "no CBLAS library could be opened (" + join(errors, "; ") + "); install libopenblas0";
    rep.status = ProbeStatus::missing;
    rep.detail = *s.error;
  } else {
    s.library = lib->path().value_or(loaded);
    s.kernel = kernel_text(*lib);
    for (int n : sizes) s.points.push_back(time_sgemm(sgemm, n));
    rep.detail = *s.library;
  }
  rep.data = BenchJobReport{{s}};
  return rep;
}

}  // namespace gpudoctor::bench
