#pragma once
// One point of a library's SGEMM series (a CPU BLAS, CLBlast, cuBLAS), timed, checked and
// reported the way gpudoctor's own kernels are (sweep.hpp): the same inputs, the same
// time_runs, the same verdict at the same sizes.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::bench {

/// What a library run needs: put A and B (n×n, row-major) where the library reads them; one
/// C = A·B that returns once it is done; C back as n×n row-major. Each returns the failed
/// call's text, or nullopt.
struct LibraryMatmul {
  std::function<std::optional<std::string>(const smoke::MatmulInputs&)> upload;
  smoke::RunOnce once;
  std::function<std::optional<std::string>(std::vector<float>&)> download;
};

BenchPoint library_point(int n, const LibraryMatmul& run);

/// A library whose SGEMM reads and writes device memory (cuBLAS, rocBLAS), through its API's
/// calls; `Ptr` is the API's device pointer. Each returns the failed call's text, or nullopt.
template <typename Ptr>
struct DeviceBlas {
  std::function<std::optional<std::string>(Ptr& p, std::size_t bytes)> alloc;
  std::function<void(Ptr p)> free;
  std::function<std::optional<std::string>(Ptr dst, const float* src, std::size_t bytes)> to_device;
  std::function<std::optional<std::string>(float* dst, Ptr src, std::size_t bytes)> to_host;
  /// C = A·B, n×n row-major, on device buffers a, b, c; returns once it is done.
  std::function<std::optional<std::string>(int n, Ptr a, Ptr b, Ptr c)> gemm;
};

/// library_point at each size for a DeviceBlas: three buffers of n×n floats, allocated for each
/// size and all freed before this returns (before the library's handle and context go).
template <typename Ptr>
std::vector<BenchPoint> device_blas_points(const std::vector<int>& sizes,
                                           const DeviceBlas<Ptr>& lib) {
  Ptr buffers[3] = {};
  const auto release = [&] {
    for (Ptr& p : buffers) {
      if (p != Ptr{}) lib.free(p);
      p = Ptr{};
    }
  };
  std::vector<BenchPoint> points;
  for (int n : sizes) {
    const std::size_t bytes =
        static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * sizeof(float);
    LibraryMatmul run;
    run.upload = [&](const smoke::MatmulInputs& in) -> std::optional<std::string> {
      release();
      for (Ptr& p : buffers) {
        if (auto why = lib.alloc(p, bytes)) {
          p = Ptr{};
          return why;
        }
      }
      if (auto why = lib.to_device(buffers[0], in.a.data(), bytes)) return why;
      return lib.to_device(buffers[1], in.b.data(), bytes);
    };
    run.once = [&] { return lib.gemm(n, buffers[0], buffers[1], buffers[2]); };
    run.download = [&](std::vector<float>& c) {
      c.assign(bytes / sizeof(float), 0.0f);
      return lib.to_host(c.data(), buffers[2], bytes);
    };
    points.push_back(library_point(n, run));
  }
  release();
  return points;
}

/// The device's series of gpudoctor's kernel (`base`: api, device, library, traits) as the
/// start of a library's series on the same device: named `blas`, `kernel` what ran, no points,
/// no copy rates, no peak.
BenchSeries library_series(BenchSeries base, const std::string& blas, const std::string& kernel);

}  // namespace gpudoctor::bench
