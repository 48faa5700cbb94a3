#include "metal/metal_enumerate.hpp"

#include "metal/metal_device.hpp"
#include "metal/metal_matmul.hpp"
#include "smoke/smoke_verdict.hpp"

namespace gpudoctor::metal {

std::string device_label(const MetalDevice& d) {
  return d.name.value_or("Metal device " + std::to_string(d.index));
}

JobReport enumerate(MetalCalls& calls, const EnumerateOptions& options, MetalInfo& info) {
  std::vector<Held> devices;
  for (Object o : calls.all_devices()) devices.emplace_back(calls, o);
  const std::size_t total = devices.size();
  if (devices.size() > kMaxDevices) {
    devices.erase(devices.begin() + static_cast<std::ptrdiff_t>(kMaxDevices), devices.end());
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    info.devices.push_back(read_device(calls, devices[i].get(), static_cast<int>(i)));
  }
  if (options.smoke) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const MetalDevice& d = info.devices[i];
      Json progress(info);
      progress[kSmokeRunningKey] = device_label(d);
      report_progress(progress);
      MetalMatmul runner(calls, devices[i].get(), device_label(d), MatmulEngine::kernel,
                         d.max_buffer_length_bytes);
      smoke::MatmulRequest req;
      req.n = options.smoke_n;
      SmokeResult r = runner.run(req);
      r.library = info.library;
      info.smoke.push_back(std::move(r));
    }
  }
  if (total == 0) {
    return {ProbeStatus::missing, "MTLCopyAllDevices listed no GPU", Json(info)};
  }
  std::string detail = std::to_string(total) + (total == 1 ? " device" : " devices");
  if (total > devices.size()) detail += " (the first " + std::to_string(kMaxDevices) + " read)";
  detail += smoke::smoke_summary(info.smoke);
  return {ProbeStatus::ok, detail, Json(info)};
}

}  // namespace gpudoctor::metal
