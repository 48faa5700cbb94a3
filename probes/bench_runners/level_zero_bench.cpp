#include "bench_runners/level_zero_bench.hpp"

#include <algorithm>
#include <cstdlib>

#include "bench/bench_model.hpp"
#include "bench_runners/sweep.hpp"
#include "level_zero/level_zero_api.hpp"
#include "level_zero/level_zero_matmul.hpp"

namespace gpudoctor::bench {

namespace {

constexpr std::uint32_t kBenchMaxZeHandles = 256;

/// zeDriverGet or zeDeviceGet's two calls, believed up to kBenchMaxZeHandles.
template <typename Handle, typename Fn>
std::vector<Handle> ze_list(Fn&& fn) {
  std::uint32_t count = 0;
  if (fn(&count, nullptr) != level_zero::kSuccess) return {};
  std::vector<Handle> out(std::min(count, kBenchMaxZeHandles), nullptr);
  count = static_cast<std::uint32_t>(out.size());
  if (out.empty() || fn(&count, out.data()) != level_zero::kSuccess) return {};
  out.resize(std::min<std::size_t>(count, out.size()));
  out.erase(std::remove(out.begin(), out.end(), nullptr), out.end());
  return out;
}

}  // namespace

JobReport level_zero_bench(const std::optional<std::string>& driver,
                           const std::vector<int>& sizes) {
  if (driver) ::setenv("ZE_ENABLE_ALT_DRIVERS", driver->c_str(), 1);
  const std::string who = driver.value_or("libze_loader.so.1");
  JobReport rep;
  BenchJobReport out;
  auto done = [&](ProbeStatus status, const std::string& detail) {
    rep.status = status;
    rep.detail = who + ": " + detail;
    rep.data = out;
    return rep;
  };
  std::string err;
  auto loader = DynamicLibrary::open("libze_loader.so.1", &err);
  if (!loader) return done(ProbeStatus::missing, "libze_loader.so.1 cannot be opened: " + err);
  std::string missing;
  const auto api = level_zero::LevelZeroApi::load(*loader, &missing);
  if (!api) return done(ProbeStatus::failed, "libze_loader.so.1 has no " + missing);
  if (level_zero::ze_result_t rc = api->init(level_zero::kInitGpuOnly);
      rc != level_zero::kSuccess) {
    return done(rc == level_zero::kErrorUninitialized ? ProbeStatus::missing : ProbeStatus::failed,
                level_zero::ze_call_failed("zeInit", rc));
  }
  const auto compute = level_zero::LevelZeroComputeApi::load(*loader, &missing);
  const auto drivers = ze_list<level_zero::ze_driver_handle_t>(
      [&](std::uint32_t* n, level_zero::ze_driver_handle_t* h) { return api->driver_get(n, h); });
  for (auto drv : drivers) {
    const auto devices = ze_list<level_zero::ze_device_handle_t>(
        [&](std::uint32_t* n, level_zero::ze_device_handle_t* h) {
          return api->device_get(drv, n, h);
        });
    for (auto dev : devices) {
      level_zero::DeviceProperties p;
      if (api->device_get_properties(dev, &p) != level_zero::kSuccess) continue;
      BenchSeries s;
      s.api = "level_zero";
      s.device = std::string(p.name, std::find(p.name, p.name + sizeof p.name, '\0'));
      if (s.device.empty()) s.device = "Level Zero device";
      s.library = who;
      s.traits.vendor_id = p.vendor_id;
      if (p.type == level_zero::kDeviceTypeGpu) s.traits.type = "gpu";
      if (p.core_clock_rate > 0) s.traits.clock_mhz = p.core_clock_rate;
      level_zero::LevelZeroMatmul runner(compute ? &*compute : nullptr, missing, drv, dev, s.device,
                                         who);
      sweep(s, sizes, [&](const smoke::MatmulRequest& req) { return runner.run(req); });
      out.series.push_back(std::move(s));
    }
  }
  if (out.series.empty()) return done(ProbeStatus::missing, "no Level Zero device");
  return done(ProbeStatus::ok, std::to_string(out.series.size()) + " device(s) benchmarked");
}

}  // namespace gpudoctor::bench
