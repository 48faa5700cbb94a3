#include "nvml/nvml_probe.hpp"

#include "core/single_job.hpp"

#include <exception>

#include "backends.hpp"
#include "core/dynlib.hpp"
#include "api/cuda/cuda_codes.hpp"
#include "devices.hpp"
#include "api/pci/gpu_ids.hpp"
#include "nvml/nvml_api.hpp"
#include "api/nvml/nvml_codes.hpp"

namespace gpudoctor::nvml {

namespace {

constexpr unsigned kMaxDevices = 256;
constexpr unsigned kMaxProcesses = 4096;

/// A string an NVML call writes into a buffer of `size` bytes; null when the call fails.
template <typename Fn>
std::optional<std::string> text(Fn&& call, unsigned size) {
  std::string buf(size + 1, '\0');
  if (call(buf.data(), size) != kSuccess) return std::nullopt;
  buf.resize(buf.find('\0'));
  return buf;
}

template <typename T, typename Fn>
std::optional<T> value(Fn&& call) {
  T v{};
  if (call(&v) != kSuccess) return std::nullopt;
  return v;
}

/// Running processes through the _v3/_v2 query (with MIG ids) or the original one.
template <typename Info, typename Fn>
bool processes(Fn* fn, nvmlDevice_t dev, const char* kind, std::vector<NvmlProcess>* out) {
  if (fn == nullptr) return false;
  unsigned count = 0;
  std::vector<Info> infos;
  nvmlReturn_t rc = fn(dev, &count, nullptr);  // asks for the count
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (rc == kSuccess && infos.empty()) return true;  // none running
    if (rc != kSuccess && rc != kErrorInsufficientSize) return false;
    if (count > kMaxProcesses) return false;
    infos.resize(count + 8);  // room for a process that starts meanwhile
    count = static_cast<unsigned>(infos.size());
    rc = fn(dev, &count, infos.data());
    if (rc == kSuccess) break;
  }
  if (rc != kSuccess) return false;
  for (unsigned i = 0; i < count && i < infos.size(); ++i) {
    NvmlProcess p;
    p.pid = infos[i].pid;
    if (infos[i].usedGpuMemory != kValueNotAvailable) p.used_memory_bytes = infos[i].usedGpuMemory;
    p.kind = kind;
    out->push_back(p);
  }
  return true;
}

NvmlDevice read_device(const NvmlApi& a, unsigned index, nvmlDevice_t dev) {
  NvmlDevice d;
  d.index = static_cast<int>(index);
  auto str = [&](auto fn, unsigned size) -> std::optional<std::string> {
    if (fn == nullptr) return std::nullopt;
    return text([&](char* b, unsigned n) { return fn(dev, b, n); }, size);
  };
  auto uint = [&](auto fn) -> std::optional<unsigned> {
    if (fn == nullptr) return std::nullopt;
    return value<unsigned>([&](unsigned* v) { return fn(dev, v); });
  };
  auto clock = [&](auto fn, unsigned type) -> std::optional<std::uint32_t> {
    if (fn == nullptr) return std::nullopt;
    return value<unsigned>([&](unsigned* v) { return fn(dev, type, v); });
  };
  auto ecc = [&](unsigned error_type, unsigned counter) -> std::optional<std::uint64_t> {
    if (a.device_get_total_ecc_errors == nullptr) return std::nullopt;
    return value<unsigned long long>([&](unsigned long long* v) {
      return a.device_get_total_ecc_errors(dev, error_type, counter, v);
    });
  };

  d.name = str(a.device_get_name, kDeviceNameBuffer);
  d.uuid = str(a.device_get_uuid, kDeviceUuidBuffer);
  d.serial = str(a.device_get_serial, kDeviceSerialBuffer);
  d.vbios_version = str(a.device_get_vbios_version, kDeviceVbiosBuffer);
  if (nvmlPciInfo_t pci{}; a.device_get_pci_info && a.device_get_pci_info(dev, &pci) == kSuccess) {
    pci.busId[sizeof pci.busId - 1] = '\0';
    d.pci_bus_id = normalize_pci_address(pci.busId);
    if (!d.pci_bus_id) d.pci_bus_id = pci_address(pci.domain, pci.bus, pci.device);
    d.pci_device_id = pci.pciDeviceId;
    d.pci_subsystem_id = pci.pciSubSystemId;
  }
  if (auto arch = uint(a.device_get_architecture)) d.architecture = nvml_architecture_name(*arch);
  if (int major = 0, minor = 0;
      a.device_get_cuda_compute_capability &&
      a.device_get_cuda_compute_capability(dev, &major, &minor) == kSuccess) {
    d.cc_major = major;
    d.cc_minor = minor;
  }
  nvmlMemory_v2_t m2{};
  m2.version = kMemoryV2Version;
  if (a.device_get_memory_info_v2 && a.device_get_memory_info_v2(dev, &m2) == kSuccess) {
    d.memory_total_bytes = m2.total;
    d.memory_reserved_bytes = m2.reserved;
    d.memory_used_bytes = m2.used;
    d.memory_free_bytes = m2.free;
  } else if (nvmlMemory_t m{};
             a.device_get_memory_info && a.device_get_memory_info(dev, &m) == kSuccess) {
    d.memory_total_bytes = m.total;
    d.memory_used_bytes = m.used;  // includes what the driver reserves
    d.memory_free_bytes = m.free;
  }
  if (a.device_get_temperature) {
    if (auto t = value<unsigned>(
            [&](unsigned* v) { return a.device_get_temperature(dev, kTemperatureGpu, v); })) {
      d.temperature_c = static_cast<int>(*t);
    }
  }
  auto threshold = [&](unsigned type) -> std::optional<int> {
    if (a.device_get_temperature_threshold == nullptr) return std::nullopt;
    if (auto t = value<unsigned>([&](unsigned* v) {
          return a.device_get_temperature_threshold(dev, type, v);
        })) {
      return static_cast<int>(*t);
    }
    return std::nullopt;
  };
  d.temperature_slowdown_c = threshold(kTemperatureThresholdSlowdown);
  d.temperature_shutdown_c = threshold(kTemperatureThresholdShutdown);
  if (nvmlUtilization_t u{}; a.device_get_utilization_rates &&
                             a.device_get_utilization_rates(dev, &u) == kSuccess) {
    d.utilization_gpu_percent = static_cast<int>(u.gpu);
    d.utilization_memory_percent = static_cast<int>(u.memory);
  }
  d.power_draw_mw = uint(a.device_get_power_usage);
  d.power_limit_mw = uint(a.device_get_power_limit);
  d.clock_graphics_mhz = clock(a.device_get_clock_info, kClockGraphics);
  d.clock_sm_mhz = clock(a.device_get_clock_info, kClockSm);
  d.clock_memory_mhz = clock(a.device_get_clock_info, kClockMem);
  d.clock_graphics_max_mhz = clock(a.device_get_max_clock_info, kClockGraphics);
  d.clock_sm_max_mhz = clock(a.device_get_max_clock_info, kClockSm);
  d.clock_memory_max_mhz = clock(a.device_get_max_clock_info, kClockMem);
  auto as_int = [](std::optional<unsigned> v) -> std::optional<int> {
    if (v) return static_cast<int>(*v);
    return std::nullopt;
  };
  d.pcie_gen_current = as_int(uint(a.device_get_curr_pcie_link_generation));
  d.pcie_gen_max = as_int(uint(a.device_get_max_pcie_link_generation));
  d.pcie_width_current = as_int(uint(a.device_get_curr_pcie_link_width));
  d.pcie_width_max = as_int(uint(a.device_get_max_pcie_link_width));
  if (unsigned cur = 0, pend = 0;
      a.device_get_ecc_mode && a.device_get_ecc_mode(dev, &cur, &pend) == kSuccess) {
    d.ecc_enabled = cur != 0;
    d.ecc_pending = pend != 0;
  }
  d.ecc_corrected_volatile = ecc(kMemoryErrorCorrected, kVolatileEcc);
  d.ecc_uncorrected_volatile = ecc(kMemoryErrorUncorrected, kVolatileEcc);
  d.ecc_corrected_aggregate = ecc(kMemoryErrorCorrected, kAggregateEcc);
  d.ecc_uncorrected_aggregate = ecc(kMemoryErrorUncorrected, kAggregateEcc);
  if (auto p = uint(a.device_get_persistence_mode)) d.persistence_mode = *p != 0;
  if (unsigned cur = 0, pend = 0;
      a.device_get_mig_mode && a.device_get_mig_mode(dev, &cur, &pend) == kSuccess) {
    d.mig_enabled = cur != 0;
    d.mig_pending = pend != 0;
  }
  if (auto mode = uint(a.device_get_compute_mode)) {
    d.compute_mode = nvidia_compute_mode_name(static_cast<int>(*mode));
  }
  if (a.device_get_clock_event_reasons) {
    if (auto bits = value<unsigned long long>(
            [&](unsigned long long* v) { return a.device_get_clock_event_reasons(dev, v); })) {
      d.throttle_reasons = nvml_clock_event_reason_names(*bits);
      d.clock_event_reasons = *bits;
    }
  }
  // Retired pages: a pageCount of 0 with no buffer asks for the count alone (nvml.h); NVML
  // answers SUCCESS for none and INSUFFICIENT_SIZE with the count otherwise.
  auto retired = [&](unsigned cause) -> std::optional<std::uint32_t> {
    if (a.device_get_retired_pages == nullptr) return std::nullopt;
    unsigned count = 0;
    const nvmlReturn_t rc = a.device_get_retired_pages(dev, cause, &count, nullptr);
    if (rc != kSuccess && rc != kErrorInsufficientSize) return std::nullopt;
    return count;
  };
  d.retired_pages_single_bit = retired(kRetiredMultipleSingleBit);
  d.retired_pages_double_bit = retired(kRetiredDoubleBit);
  if (auto pending = uint(a.device_get_retired_pages_pending)) {
    d.retired_pages_pending = *pending != 0;
  }
  if (unsigned corr = 0, unc = 0, pend = 0, fail = 0;
      a.device_get_remapped_rows &&
      a.device_get_remapped_rows(dev, &corr, &unc, &pend, &fail) == kSuccess) {
    d.remapped_rows_correctable = corr;
    d.remapped_rows_uncorrectable = unc;
    d.remapped_rows_pending = pend != 0;
    d.remapped_rows_failure = fail != 0;
  }
  const bool compute =
      processes<nvmlProcessInfo_v2_t>(a.compute_processes_v2, dev, "compute", &d.processes) ||
      processes<nvmlProcessInfo_v1_t>(a.compute_processes_v1, dev, "compute", &d.processes);
  const bool graphics =
      processes<nvmlProcessInfo_v2_t>(a.graphics_processes_v2, dev, "graphics", &d.processes) ||
      processes<nvmlProcessInfo_v1_t>(a.graphics_processes_v1, dev, "graphics", &d.processes);
  d.processes_read = compute || graphics;
  if (a.system_get_process_name) {
    for (auto& p : d.processes) {
      p.name = text([&](char* b, unsigned n) { return a.system_get_process_name(p.pid, b, n); },
                    kProcessNameBuffer);
      if (p.name && p.name->empty()) p.name.reset();
    }
  }
  return d;
}

JobReport report(ProbeStatus status, std::string detail, const NvmlInfo& info) {
  return JobReport{status, std::move(detail), Json(info)};
}

JobReport probe_in_child(const JobOptions& opt) {
  NvmlInfo info;
  std::string loaded;
  const std::optional<DynamicLibrary> lib = open_first(opt.libraries, &loaded, &info.load_errors);
  if (lib) info.library = lib->path().value_or(loaded);
  if (!lib) {
    const std::string first = opt.libraries.empty() ? "libnvidia-ml" : opt.libraries.front();
    if (auto error = refusal(opt.libraries, info.load_errors)) {
      return report(ProbeStatus::failed, first + " could not be loaded: " + *error, info);
    }
    return report(ProbeStatus::missing,
                  first + " not found: the NVIDIA driver's NVML is not installed" +
                      (info.load_errors.empty() ? "" : " (" + info.load_errors.front() + ")"),
                  info);
  }
  std::string missing;
  const auto api = NvmlApi::load(*lib, &missing);
  if (!api) return report(ProbeStatus::failed, *info.library + " has no " + missing, info);

  if (nvmlReturn_t rc = api->init(); rc != kSuccess) {
    info.init_code = rc;
    info.init_error = nvml_call_failed("nvmlInit_v2", rc);
    if (api->error_string) {
      if (const char* s = api->error_string(rc); s != nullptr) info.init_error_text = s;
    }
    std::string detail = *info.init_error;
    if (info.init_error_text) detail += ": " + *info.init_error_text;
    return report(ProbeStatus::failed, detail, info);
  }

  info.driver_version = api->system_get_driver_version
                            ? text(api->system_get_driver_version, kSystemVersionBuffer)
                            : std::nullopt;
  info.nvml_version = api->system_get_nvml_version
                          ? text(api->system_get_nvml_version, kSystemVersionBuffer)
                          : std::nullopt;
  if (api->system_get_cuda_driver_version) {
    info.cuda_driver_version = value<int>(api->system_get_cuda_driver_version);
  }
  unsigned count = 0;
  if (api->device_get_count == nullptr || api->device_get_handle_by_index == nullptr) {
    return report(ProbeStatus::failed, *info.library + " has no nvmlDeviceGetCount_v2", info);
  }
  if (nvmlReturn_t rc = api->device_get_count(&count); rc != kSuccess) {
    return report(ProbeStatus::failed, nvml_call_failed("nvmlDeviceGetCount_v2", rc), info);
  }
  if (count > kMaxDevices) {
    return report(ProbeStatus::failed,
                  "nvmlDeviceGetCount_v2 reported " + std::to_string(count) + " devices", info);
  }
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    if (api->device_get_handle_by_index(i, &dev) != kSuccess) {
      NvmlDevice d;
      d.index = static_cast<int>(i);
      info.devices.push_back(d);
      continue;
    }
    info.devices.push_back(read_device(*api, i, dev));
  }
  if (api->shutdown) api->shutdown();
  std::string detail = "driver " + info.driver_version.value_or("version unknown") + ", " +
                       std::to_string(count) + (count == 1 ? " device" : " devices");
  return report(count == 0 ? ProbeStatus::missing : ProbeStatus::ok, detail, info);
}

}  // namespace

IsolatedJob make_job(JobOptions options) {
  return make_single_job(kBackendNvml, "libnvidia-ml", std::move(options), probe_in_child);
}

std::vector<IsolatedJob> jobs(const ProbeContext& ctx) {
  JobOptions options;
  if (!ctx.live || options.libraries.empty()) return {};
  return {make_job(std::move(options))};
}

ProbeOutcome assemble(NvmlInfo& info, const std::vector<IsolatedResult>& results, bool live) {
  return assemble_single_job(kBackendNvml, "NVML", "libnvidia-ml", info, results, live);
}

}  // namespace gpudoctor::nvml
