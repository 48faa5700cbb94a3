#include "bench_runners/metal_bench.hpp"

#include "bench_runners/sweep.hpp"
#include "metal/metal_device.hpp"
#include "metal/metal_enumerate.hpp"
#include "metal/metal_matmul.hpp"

namespace gpudoctor::bench {

std::vector<BenchSeries> metal_series(metal::MetalCalls& calls, const std::string& library,
                                      const std::vector<int>& sizes, bool mps) {
  std::vector<BenchSeries> out;
  std::vector<metal::Held> devices;
  for (metal::Object o : calls.all_devices()) devices.emplace_back(calls, o);
  for (std::size_t i = 0; i < devices.size() && i < metal::kMaxDevices; ++i) {
    const MetalDevice d = metal::read_device(calls, devices[i].get(), static_cast<int>(i));
    BenchSeries s;
    s.api = "metal";
    s.device = metal::device_label(d);
    s.library = library;
    s.traits.type = "gpu";
    for (bool vendor : {false, true}) {
      if (vendor && !mps) break;
      BenchSeries series = s;
      if (vendor) series.blas = "MPS";
      metal::MetalMatmul runner(calls, devices[i].get(), s.device,
                                vendor ? metal::MatmulEngine::mps : metal::MatmulEngine::kernel,
                                d.max_buffer_length_bytes);
      sweep(series, sizes, [&](const smoke::MatmulRequest& req) { return runner.run(req); });
      out.push_back(std::move(series));
    }
  }
  return out;
}

JobReport metal_bench(const metal::MetalLibraries& libraries, const std::vector<int>& sizes,
                      bool mps) {
  BenchJobReport report;
  std::vector<std::string> load_errors;
  std::string error;
  bool missing = false;
  auto calls = metal::open_objc_metal(libraries, &load_errors, &error, &missing);
  if (!calls) return {missing ? ProbeStatus::missing : ProbeStatus::failed, error, Json(report)};
  report.series = metal_series(*calls, libraries.metal, sizes, mps);
  if (report.series.empty()) {
    return {ProbeStatus::missing, "MTLCopyAllDevices listed no GPU", Json(report)};
  }
  return {ProbeStatus::ok, std::to_string(report.series.size()) + " Metal series", Json(report)};
}

}  // namespace gpudoctor::bench
