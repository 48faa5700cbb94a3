#include "bench_runners/blas_sweep.hpp"

#include <chrono>

#include "bench/bench_math.hpp"
#include "core/dynlib.hpp"
#include "smoke/matmul_reference.hpp"
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

BenchPoint time_sgemm(SgemmFn* sgemm, int n) {
  BenchPoint p;
  p.n = n;
  const smoke::MatmulInputs in = smoke::matmul_inputs(n);
  std::vector<float> c(in.a.size());
  auto call = [&] {
    sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, n, n, n, 1.0f, in.a.data(), n, in.b.data(),
          n, 0.0f, c.data(), n);
  };
  call();  // warm-up: first-touch of C, OpenBLAS's buffers and threads
  const int repeats = repeats_for(n);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeats; ++i) call();
  const std::chrono::duration<double, std::milli> spent = std::chrono::steady_clock::now() - start;
  p.repeats = repeats;
  p.ms = spent.count() / repeats;
  p.gflops = smoke::matmul_gflops(n, *p.ms);
  return p;
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
