#include "rocm/hip_probe.hpp"

#include "backends.hpp"
#include "core/dynlib.hpp"
#include "core/paths.hpp"
#include "core/single_job.hpp"
#include "api/pci/gpu_ids.hpp"
#include "rocm/hip_api.hpp"

namespace gpudoctor::hip {

namespace {

constexpr int kMaxDevices = 256;  // more than any machine has: a larger count is garbage

/// HIP_VERSION = major * 10000000 + minor * 100000 + patch (hip_version.h).
std::string version_text(int v) {
  return std::to_string(v / 10000000) + "." + std::to_string(v / 100000 % 100) + "." +
         std::to_string(v % 100000);
}

HipError error_fact(const HipApi& api, const char* call, hipError_t rc) {
  HipError e;
  e.call = call;
  e.code = rc;
  if (const char* s = api.get_error_name ? api.get_error_name(rc) : nullptr; s && *s) e.name = s;
  if (const char* s = api.get_error_string ? api.get_error_string(rc) : nullptr; s && *s) {
    e.text = s;
  }
  return e;
}

std::string call_failed(const HipError& e) {
  return e.call + " returned " + std::to_string(e.code) + (e.name ? " (" + *e.name + ")" : "");
}

/// A string a HIP call writes into a buffer; null when the call fails.
template <typename Fn>
std::optional<std::string> text(Fn* fn, int device) {
  if (fn == nullptr) return std::nullopt;
  char buf[257] = {};
  if (fn(buf, 256, device) != kSuccess) return std::nullopt;
  return std::string(buf);
}

HipDevice read_device(const HipApi& api, int ordinal) {
  HipDevice d;
  d.ordinal = ordinal;
  auto attr = [&](int a) -> std::optional<int> {
    int v = 0;
    if (api.device_get_attribute(&v, a, ordinal) == kSuccess) return v;
    return std::nullopt;
  };
  auto flag = [&](int a) -> std::optional<bool> {
    if (auto v = attr(a)) return *v != 0;
    return std::nullopt;
  };
  d.name = text(api.device_get_name, ordinal);
  if (std::size_t bytes = 0; api.device_total_mem && api.device_total_mem(&bytes, ordinal) == 0) {
    d.total_memory_bytes = bytes;
  }
  d.arch_major = attr(kComputeCapabilityMajor);
  d.arch_minor = attr(kComputeCapabilityMinor);
  d.multiprocessors = attr(kMultiprocessorCount);
  d.physical_multiprocessors = attr(kPhysicalMultiProcessorCount);
  d.clock_khz = attr(kClockRate);
  d.memory_clock_khz = attr(kMemoryClockRate);
  d.memory_bus_width_bits = attr(kMemoryBusWidth);
  d.l2_cache_bytes = attr(kL2CacheSize);
  d.warp_size = attr(kWarpSize);
  d.max_threads_per_block = attr(kMaxThreadsPerBlock);
  d.shared_memory_per_block_bytes = attr(kMaxSharedMemoryPerBlock);
  d.integrated = flag(kIntegrated);
  d.large_bar = flag(kIsLargeBar);
  d.asic_revision = attr(kAsicRevision);
  auto domain = attr(kPciDomainId);
  auto bus = attr(kPciBusId);
  auto device = attr(kPciDeviceId);
  if (domain && bus && device && *domain >= 0 && *bus >= 0 && *device >= 0) {
    d.pci_bus_id =
        pci_address(static_cast<std::uint32_t>(*domain), static_cast<std::uint32_t>(*bus),
                    static_cast<std::uint32_t>(*device));
  }
  return d;
}

JobReport report(ProbeStatus status, std::string detail, const HipInfo& info) {
  return JobReport{status, std::move(detail), Json(info)};
}

JobReport probe_in_child(const JobOptions& opt) {
  HipInfo info;
  std::string loaded;
  const std::optional<DynamicLibrary> lib = open_first(opt.libraries, &loaded, &info.load_errors);
  if (!lib) {
    if (auto error = refusal(opt.libraries, info.load_errors)) {
      return report(ProbeStatus::failed, "libamdhip64 could not be loaded: " + *error, info);
    }
    return report(ProbeStatus::missing, "libamdhip64 not found: the HIP runtime is not installed",
                  info);
  }
  info.library = lib->path().value_or(loaded);
  std::string missing;
  const auto api = HipApi::load(*lib, &missing);
  if (!api) return report(ProbeStatus::failed, *info.library + " has no " + missing, info);

  // Both version calls work without a device, so a failed enumeration still names the runtime.
  if (int v = 0; api->runtime_get_version && api->runtime_get_version(&v) == kSuccess) {
    info.runtime_version = v;
    info.runtime_version_text = version_text(v);
  }
  if (int v = 0; api->driver_get_version && api->driver_get_version(&v) == kSuccess) {
    info.driver_version = v;
  }
  int count = 0;
  if (hipError_t rc = api->get_device_count(&count); rc != kSuccess) {
    info.error = error_fact(*api, "hipGetDeviceCount", rc);
    return report(rc == kErrorNoDevice ? ProbeStatus::missing : ProbeStatus::failed,
                  call_failed(*info.error), info);
  }
  if (count < 0 || count > kMaxDevices) {
    return report(ProbeStatus::failed,
                  "hipGetDeviceCount reported " + std::to_string(count) + " devices", info);
  }
  for (int i = 0; i < count; ++i) info.devices.push_back(read_device(*api, i));
  std::string detail = info.runtime_version_text ? "HIP " + *info.runtime_version_text
                                                 : std::string("HIP version unknown");
  detail += ", " + std::to_string(count) + (count == 1 ? " device" : " devices");
  return report(count == 0 ? ProbeStatus::missing : ProbeStatus::ok, detail, info);
}

}  // namespace

IsolatedJob make_job(JobOptions options) {
  return make_single_job(kBackendRocm, "libamdhip64", std::move(options), probe_in_child);
}

std::vector<IsolatedJob> jobs(const ProbeContext& ctx) {
  JobOptions options;
  if (!ctx.live || options.libraries.empty()) return {};
  if (auto rocm = ctx.env.get_nonempty("ROCM_PATH")) {
    options.libraries.insert(options.libraries.begin(),
                             join_path(join_path(*rocm, "lib"), "libamdhip64.so"));
  }
  return {make_job(std::move(options))};
}

ProbeOutcome assemble(RocmInfo& info, const std::vector<IsolatedResult>& results, bool live) {
  HipInfo hip;
  ProbeOutcome out = assemble_single_job(kBackendRocm, "HIP", "libamdhip64", hip, results, live);
  out.label = "hip";
  if (!results.empty() && results.front().data) info.hip = std::move(hip);
  return out;
}

}  // namespace gpudoctor::hip
