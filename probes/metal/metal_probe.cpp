#include "metal/metal_probe.hpp"

#include "backends.hpp"
#include "core/single_job.hpp"
#include "platform/platform.hpp"
#include "smoke/smoke_verdict.hpp"

namespace gpudoctor::metal {

namespace {

JobReport probe_in_child(const JobOptions& opt) {
  MetalInfo info;
  std::string error;
  bool missing = false;
  auto calls = open_objc_metal(opt.libraries, &info.load_errors, &error, &missing);
  if (!calls) info.error = error;
  if (!calls) return {missing ? ProbeStatus::missing : ProbeStatus::failed, error, Json(info)};
  info.library = opt.libraries.metal;
  return enumerate(*calls, opt.enumerate, info);
}

}  // namespace

IsolatedJob make_job(JobOptions options) {
  IsolatedJob job;
  job.backend = std::string(kBackendMetal);
  job.label = "Metal.framework";
  job.library = options.libraries.metal;
  job.body = [opt = std::move(options)] { return probe_in_child(opt); };
  return job;
}

std::vector<IsolatedJob> jobs(const ProbeContext& ctx) {
  JobOptions options;
  if (!ctx.live || options.libraries.metal.empty()) return {};
  options.enumerate.smoke = ctx.smoke;
  return {make_job(std::move(options))};
}

ProbeOutcome assemble(MetalInfo& info, const std::vector<IsolatedResult>& results, bool live) {
  ProbeOutcome out =
      assemble_single_job(kBackendMetal, "Metal", "Metal.framework", info, results, live);
  if (results.empty() || !results.front().data || !results.front().data->is_object()) return out;
  const Json& data = *results.front().data;
  auto running = data.find(kSmokeRunningKey);
  if (running == data.end() || !running->is_string()) return out;
  std::vector<std::string> devices;
  for (const auto& d : info.devices) devices.push_back(device_label(d));
  for (auto& r : smoke::smoke_lost("metal", info.library.value_or("Metal.framework"),
                                   running->get<std::string>(), devices,
                                   results.front().outcome.detail)) {
    info.smoke.push_back(std::move(r));
  }
  return out;
}

}  // namespace gpudoctor::metal
