#include "bench_runners/blas_sweep.hpp"


#include "bench/bench_math.hpp"
#include "core/dynlib.hpp"
#include "smoke/matmul_reference.hpp"
#include "bench_runners/blas_point.hpp"
#include "core/paths.hpp"
#include "text.hpp"

#include <tuple>

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
  const float* a = nullptr;
  const float* b = nullptr;
  std::vector<float> c(static_cast<std::size_t>(n) * n);
  return library_point(
      n, {[&](const smoke::MatmulInputs& in) -> std::optional<std::string> {
            a = in.a.data();
            b = in.b.data();
            return std::nullopt;
          },
          [&]() -> std::optional<std::string> {
            sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f,
                  c.data(), n);
            return std::nullopt;
          },
          [&](std::vector<float>& out) -> std::optional<std::string> {
            out = c;
            return std::nullopt;
          }});
}

using MklVersionFn = void(char* buffer, int length);  // MKL_Get_Version_String

/// What ran, and the library's name for the series: "OpenBLAS", "MKL", or the file's.
std::pair<std::string, std::string> describe(const DynamicLibrary& lib, const std::string& file) {
  std::string k = "cblas_sgemm";
  std::string name = file;
  if (auto* config = lib.symbol<ConfigFn>("openblas_get_config")) {
    k += ", " + std::string(trim(config()));
    name = "OpenBLAS";
  }
  if (auto* threads = lib.symbol<ThreadsFn>("openblas_get_num_threads")) {
    const int t = threads();
    k += ", " + std::to_string(t) + (t == 1 ? " thread" : " threads");
  }
  if (auto* version = lib.symbol<MklVersionFn>("MKL_Get_Version_String")) {
    char buf[256] = {};
    version(buf, sizeof buf - 1);
    k += ", " + std::string(trim(buf));
    name = "MKL";
  }
  return {k, name};
}

}  // namespace

JobReport blas_sweep(const std::vector<std::string>& libraries, const std::vector<int>& sizes,
                     const std::string& cpu_name, const std::string& install_hint) {
  BenchSeries s;
  s.api = "blas";
  s.device = cpu_name;
  s.traits.type = "cpu";
  JobReport rep;
  std::string loaded;
  std::vector<std::string> errors;
  auto lib = open_first(libraries, &loaded, &errors);
  auto* sgemm = lib ? lib->symbol<SgemmFn>("cblas_sgemm") : nullptr;
  if (!lib) {
    rep.status = ProbeStatus::missing;
    rep.detail = "none of " + join(libraries, ", ") + " could be opened; " + install_hint;
    rep.data = BenchJobReport{};
    return rep;
  }
  s.library = lib->path().value_or(loaded);
  if (sgemm == nullptr) {
    s.error = loaded + " has no cblas_sgemm";
    rep.status = ProbeStatus::failed;
    rep.detail = *s.error;
  } else {
    std::tie(s.kernel, s.blas) = describe(*lib, file_name(*s.library));
    for (int n : sizes) s.points.push_back(time_sgemm(sgemm, n));
    rep.detail = *s.library;
  }
  rep.data = BenchJobReport{{s}};
  return rep;
}

}  // namespace gpudoctor::bench
