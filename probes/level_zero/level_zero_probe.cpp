#include "level_zero/level_zero_probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "api/pci/gpu_ids.hpp"
#include "backends.hpp"
#include "core/dynlib.hpp"
#include "core/library_search.hpp"
#include "core/single_job.hpp"
#include "level_zero/level_zero_api.hpp"
#include "level_zero/level_zero_matmul.hpp"
#include "platform/platform.hpp"
#include "smoke/matmul_request.hpp"
#include "smoke/smoke_verdict.hpp"
#include "text.hpp"

namespace gpudoctor::level_zero {

namespace {

// A driver's answers are believed only this far.
constexpr std::uint32_t kMaxDrivers = 64;
constexpr std::uint32_t kMaxZeDevices = 256;
constexpr std::uint32_t kMaxTiles = 64;
constexpr std::uint32_t kMaxMemories = 64;
constexpr std::uint32_t kMaxEus = 1u << 20;  // a million EUs: no GPU is within a factor of 100

/// The drivers the loader looks for by name when ZE_ENABLE_ALT_DRIVERS is unset
/// (source/loader/linux/driver_discovery_lin.cpp: libze_intel_gpu.so.1 and libze_intel_vpu.so.1
/// in v1.8.12,
/// https://github.com/oneapi-src/level-zero/blob/v1.8.12/source/loader/linux/driver_discovery_lin.cpp;
/// later loaders add libze_intel_gpu_legacy1.so.1 and libze_intel_npu.so.1).
constexpr const char* kKnownDrivers[] = {"libze_intel_gpu.so.1", "libze_intel_gpu_legacy1.so.1",
                                         "libze_intel_vpu.so.1", "libze_intel_npu.so.1"};

LevelZeroError ze_error(const char* call, ze_result_t rc) {
  return LevelZeroError{call, rc, ze_result_name(rc)};
}

std::string ze_hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string failed_text(const LevelZeroError& e) {
  return e.call + " returned " + ze_hex(e.code) + (e.name ? " (" + *e.name + ")" : "");
}

/// 32 hex digits; nullopt for all zeros, what a driver that does not know its UUID leaves there
/// (the fields are zero-initialised by the caller and the specification gives no other "unknown").
std::optional<std::string> uuid_hex(const std::uint8_t (&id)[kMaxUuid]) {
  if (std::all_of(std::begin(id), std::end(id), [](std::uint8_t b) { return b == 0; })) {
    return std::nullopt;
  }
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : id) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

std::string type_name(std::uint32_t t) {
  switch (t) {
    case kDeviceTypeGpu:
      return "gpu";
    case kDeviceTypeCpu:
      return "cpu";
    case kDeviceTypeFpga:
      return "fpga";
    case kDeviceTypeMca:
      return "mca";
    case kDeviceTypeVpu:
      return "vpu";
    default:
      return "unknown (" + std::to_string(t) + ")";
  }
}

/// A name the driver wrote into a fixed buffer: up to the first NUL, or the whole buffer with
/// `problems` told when there is none; never what lies past it.
std::string fixed_string(const char* buf, std::size_t size, const std::string& what,
                         std::vector<std::string>& problems) {
  const char* end = std::find(buf, buf + size, '\0');
  if (end == buf + size) problems.push_back(what + " is not NUL-terminated");
  return std::string(buf, end);
}

/// What could be believed of one enumeration: answers that cannot be true go in `implausible`.
struct Problems {
  std::vector<std::string> implausible;
  std::vector<std::string> failed_calls;
};

LevelZeroDevice read_device(const LevelZeroApi& api, ze_device_handle_t h, std::size_t driver,
                            const std::string& what, Problems& problems) {
  LevelZeroDevice d;
  d.driver = driver;
  DeviceProperties p;
  if (ze_result_t rc = api.device_get_properties(h, &p); rc != kSuccess) {
    problems.failed_calls.push_back(what + ": " +
                                    failed_text(ze_error("zeDeviceGetProperties", rc)));
    return d;
  }
  d.name = fixed_string(p.name, sizeof p.name, what + "'s name", problems.implausible);
  d.type = type_name(p.type);
  d.vendor_id = p.vendor_id;
  d.device_id = p.device_id;
  d.uuid = uuid_hex(p.uuid);
  if (p.flags & kDeviceFlagIntegrated) d.flags.push_back("integrated");
  if (p.flags & kDeviceFlagSubdevice) d.flags.push_back("subdevice");
  if (p.flags & kDeviceFlagEcc) d.flags.push_back("ecc");
  if (p.flags & kDeviceFlagOnDemandPaging) d.flags.push_back("ondemandpaging");
  if (p.flags & kDeviceFlagSubdevice) d.subdevice_id = p.subdevice_id;
  d.core_clock_mhz = p.core_clock_rate;
  d.max_mem_alloc_bytes = p.max_mem_alloc_size;
  d.slices = p.num_slices;
  d.subslices_per_slice = p.num_subslices_per_slice;
  d.eus_per_subslice = p.num_eus_per_subslice;
  d.threads_per_eu = p.num_threads_per_eu;
  d.eu_simd_width = p.physical_eu_simd_width;
  const std::uint64_t eus =
      std::uint64_t{p.num_slices} * p.num_subslices_per_slice * p.num_eus_per_subslice;
  if (eus > kMaxEus) {
    problems.implausible.push_back(what + " claims " + std::to_string(eus) + " EUs (" +
                                   std::to_string(p.num_slices) + " slices × " +
                                   std::to_string(p.num_subslices_per_slice) + " sub-slices × " +
                                   std::to_string(p.num_eus_per_subslice) + " EUs)");
  } else {
    d.eu_count = static_cast<std::uint32_t>(eus);
  }
  if (api.device_get_memory_properties) {
    std::uint32_t count = 0;
    if (api.device_get_memory_properties(h, &count, nullptr) == kSuccess && count > 0) {
      if (count > kMaxMemories) {
        problems.implausible.push_back(what + ": zeDeviceGetMemoryProperties claims " +
                                       std::to_string(count) + " memories");
      } else {
        std::vector<DeviceMemoryProperties> mem(count);
        if (api.device_get_memory_properties(h, &count, mem.data()) == kSuccess) {
          std::uint64_t total = 0;
          for (std::uint32_t i = 0; i < count && i < mem.size(); ++i) {
            total += mem[i].total_size;
            if (i == 0) {
              d.memory_clock_mhz = mem[i].max_clock_rate;
              d.memory_bus_width_bits = mem[i].max_bus_width;
            }
          }
          d.memory_bytes = total;
        }
      }
    }
  }
  if (api.device_pci_get_properties_ext) {
    PciExtProperties pci;
    if (api.device_pci_get_properties_ext(h, &pci) == kSuccess) {
      d.pci_bus_id = pci_address(pci.domain, pci.bus, pci.device, pci.function);
      if (!d.pci_bus_id) {
        problems.implausible.push_back(what + ": zeDevicePciGetPropertiesExt gave bus " +
                                       std::to_string(pci.bus) + ", device " +
                                       std::to_string(pci.device) + ", function " +
                                       std::to_string(pci.function));
      }
      if (pci.gen_version > 0) d.pci_gen = pci.gen_version;
      if (pci.width > 0) d.pci_width = pci.width;
    }
  }
  return d;
}

/// Handles as the API returns them: count first, then the list; a count past `cap` is a lie.
template <typename Handle, typename Fn>
std::optional<std::vector<Handle>> handles(Fn&& fn, std::uint32_t cap, const std::string& call,
                                           Problems& problems,
                                           std::optional<LevelZeroError>* error = nullptr) {
  std::uint32_t count = 0;
  ze_result_t rc = fn(&count, nullptr);
  if (rc == kSuccess && count > cap) {
    problems.implausible.push_back(call + " claims " + std::to_string(count) + " handles");
    return std::nullopt;
  }
  std::vector<Handle> out(count, nullptr);
  if (rc == kSuccess && count > 0) rc = fn(&count, out.data());
  if (rc != kSuccess) {
    if (error) *error = ze_error(call.c_str(), rc);
    problems.failed_calls.push_back(failed_text(ze_error(call.c_str(), rc)));
    return std::nullopt;
  }
  out.resize(std::min<std::size_t>(count, out.size()));
  out.erase(std::remove(out.begin(), out.end(), nullptr), out.end());
  return out;
}

std::string summary(const std::vector<std::string>& items) {
  std::string s = join(std::vector<std::string>(
                           items.begin(), items.begin() + std::min<std::size_t>(items.size(), 3)),
                       "; ");
  if (items.size() > 3) s += " (and " + std::to_string(items.size() - 3) + " more)";
  return s;
}

JobReport report(ProbeStatus status, std::string detail, const LevelZeroInfo& info) {
  return JobReport{status, std::move(detail), Json(info)};
}

/// Sysman's handles of one kind on `dev` (count first, then the list), at most 64; a failed or
/// implausible answer is said in `not_read` and gives none.
template <typename Handle, typename Fn>
std::vector<Handle> sysman_handles(Fn fn, ze_device_handle_t dev, const char* call,
                                   LevelZeroSysman& s) {
  std::uint32_t count = 0;
  ze_result_t rc = fn(dev, &count, nullptr);
  if (rc == kSuccess && count > 64) {
    s.not_read.push_back(std::string(call) + " claims " + std::to_string(count) + " handles");
    return {};
  }
  std::vector<Handle> out(count, nullptr);
  if (rc == kSuccess && count > 0) rc = fn(dev, &count, out.data());
  if (rc != kSuccess) {
    s.not_read.push_back(failed_text(ze_error(call, rc)));
    return {};
  }
  out.resize(std::min<std::size_t>(count, out.size()));
  out.erase(std::remove(out.begin(), out.end(), nullptr), out.end());
  return out;
}

/// A root device's live state through Sysman: memory, temperature, clock, engine activity.
LevelZeroSysman read_sysman(const LevelZeroSysmanApi& api, ze_device_handle_t dev) {
  LevelZeroSysman s;
  if (api.enum_memory_modules && api.memory_get_state) {
    std::uint64_t total = 0, free = 0;
    bool any = false;
    for (auto h : sysman_handles<zes_mem_handle_t>(api.enum_memory_modules, dev,
                                                   "zesDeviceEnumMemoryModules", s)) {
      ZesMemState st;
      if (ze_result_t rc = api.memory_get_state(h, &st); rc != kSuccess) {
        s.not_read.push_back(failed_text(ze_error("zesMemoryGetState", rc)));
        continue;
      }
      if (st.free > st.size) continue;  // not believed
      total += st.size;
      free += st.free;
      any = true;
    }
    if (any) {
      s.memory_total_bytes = total;
      s.memory_free_bytes = free;
    }
  } else {
    s.not_read.push_back("memory: the loader has no zesMemoryGetState");
  }
  if (api.enum_temperature_sensors && api.temperature_get_state) {
    std::optional<double> gpu, global;
    for (auto h : sysman_handles<zes_temp_handle_t>(api.enum_temperature_sensors, dev,
                                                    "zesDeviceEnumTemperatureSensors", s)) {
      ZesTempProperties p;
      if (api.temperature_get_properties && api.temperature_get_properties(h, &p) == kSuccess &&
          p.type != kZesTempSensorsGpu && p.type != kZesTempSensorsGlobal) {
        continue;  // memory, voltage regulator, … sensors
      }
      double t = 0;
      if (ze_result_t rc = api.temperature_get_state(h, &t); rc != kSuccess) {
        s.not_read.push_back(failed_text(ze_error("zesTemperatureGetState", rc)));
        continue;
      }
      if (!(t > -50 && t < 200)) continue;  // not a temperature a GPU runs at
      (p.type == kZesTempSensorsGpu ? gpu : global) = t;
    }
    if (auto t = gpu ? gpu : global) s.temperature_c = static_cast<int>(*t + 0.5);
  }
  if (api.enum_frequency_domains && api.frequency_get_state) {
    for (auto h : sysman_handles<zes_freq_handle_t>(api.enum_frequency_domains, dev,
                                                    "zesDeviceEnumFrequencyDomains", s)) {
      ZesFreqProperties p;
      const bool props =
          api.frequency_get_properties && api.frequency_get_properties(h, &p) == kSuccess;
      if (props && p.type != kZesFreqDomainGpu) continue;
      if (props && p.max > 0 && p.max < 100000) s.clock_max_mhz = static_cast<std::uint32_t>(p.max);
      ZesFreqState st;
      if (ze_result_t rc = api.frequency_get_state(h, &st); rc != kSuccess) {
        s.not_read.push_back(failed_text(ze_error("zesFrequencyGetState", rc)));
      } else if (st.actual >= 0 && st.actual < 100000) {  // negative: not known (zes_api.h)
        s.clock_mhz = static_cast<std::uint32_t>(st.actual);
      }
      break;  // the first GPU domain: a multi-tile device has one per tile
    }
  }
  if (api.enum_engine_groups && api.engine_get_activity) {
    zes_engine_handle_t pick = nullptr;
    for (auto h : sysman_handles<zes_engine_handle_t>(api.enum_engine_groups, dev,
                                                      "zesDeviceEnumEngineGroups", s)) {
      ZesEngineProperties p;
      if (!api.engine_get_properties || api.engine_get_properties(h, &p) != kSuccess) continue;
      if (p.type == kZesEngineGroupAll) {
        pick = h;
        break;
      }
      if (p.type == kZesEngineGroupComputeAll && !pick) pick = h;
    }
    ZesEngineStats a, b;
    if (pick && api.engine_get_activity(pick, &a) == kSuccess) {
      ::usleep(50000);  // the busy share over 50 ms, as two counters of microseconds give it
      if (api.engine_get_activity(pick, &b) == kSuccess && b.timestamp > a.timestamp &&
          b.active_time >= a.active_time) {
        const double share = static_cast<double>(b.active_time - a.active_time) /
                             static_cast<double>(b.timestamp - a.timestamp);
        if (share >= 0 && share <= 1.01) s.utilization_percent = std::min(100, static_cast<int>(share * 100 + 0.5));
      }
    }
  }
  return s;
}

/// The smoke matmul on every root device, in the order listed. Before each one the facts so far
/// go to the parent, so that a driver that crashes or hangs in the kernel is known to have done
/// it on that device (assemble()).
void run_smoke(const DynamicLibrary& lib, const std::vector<ze_driver_handle_t>& drivers,
               const std::vector<std::pair<ze_device_handle_t, std::size_t>>& roots,
               const std::string& library, LevelZeroInfo& info) {
  std::string missing;
  const std::optional<LevelZeroComputeApi> compute = LevelZeroComputeApi::load(lib, &missing);
  for (const auto& [dev, index] : roots) {
    report_progress(Json(info));
    const LevelZeroDevice& d = info.devices[index];
    LevelZeroMatmul runner(compute ? &*compute : nullptr, missing, drivers[d.driver], dev,
                           d.name.value_or("device " + std::to_string(index)), library);
    info.smoke.push_back(runner.run({smoke::kCheckMatmulN}));
  }
}

JobReport probe_in_child(const JobOptions& opt) {
  LevelZeroInfo info;
  // Only this driver: the child is a fork of its own, so the variable goes no further.
  if (opt.driver) ::setenv("ZE_ENABLE_ALT_DRIVERS", opt.driver->c_str(), 1);
  // Sysman through the device handles zeInit gives (the live state, read_sysman): the variable
  // must be set before zeInit. Where the caller set it already, theirs stands.
  ::setenv("ZES_ENABLE_SYSMAN", "1", 0);
  std::string loaded;
  const std::optional<DynamicLibrary> lib = open_first(opt.libraries, &loaded, &info.load_errors);
  if (!lib) {
    if (auto error = refusal(opt.libraries, info.load_errors)) {
      return report(ProbeStatus::failed, "libze_loader could not be loaded: " + *error, info);
    }
    return report(ProbeStatus::missing,
                  "libze_loader.so.1 not found: the Level Zero loader is not installed "
                  "(Debian, Ubuntu: libze1)",
                  info);
  }
  info.library = lib->path().value_or(loaded);
  std::string missing;
  const auto api = LevelZeroApi::load(*lib, &missing);
  if (!api) return report(ProbeStatus::failed, *info.library + " has no " + missing, info);

  Problems problems;
  std::vector<ze_driver_handle_t> drivers;
  if (api->init_drivers) {
    // zeInitDrivers (loader 1.18 and later) initialises and lists the GPU drivers in one call.
    info.init_call = "zeInitDrivers";
    InitDriverTypeDesc desc;
    desc.flags = 1;  // ZE_INIT_DRIVER_TYPE_FLAG_GPU
    auto got = handles<ze_driver_handle_t>(
        [&](std::uint32_t* n, ze_driver_handle_t* h) { return api->init_drivers(n, h, &desc); },
        kMaxDrivers, "zeInitDrivers", problems, &info.error);
    if (got) drivers = std::move(*got);
  } else {
    info.init_call = "zeInit";
    if (ze_result_t rc = api->init(kInitGpuOnly); rc != kSuccess) {
      info.error = ze_error("zeInit", rc);
    } else {
      auto got = handles<ze_driver_handle_t>(
          [&](std::uint32_t* n, ze_driver_handle_t* h) { return api->driver_get(n, h); },
          kMaxDrivers, "zeDriverGet", problems, &info.error);
      if (got) drivers = std::move(*got);
    }
  }
  if (info.error) {
    // The loader answers ZE_RESULT_ERROR_UNINITIALIZED when it found no driver that works.
    const bool none = info.error->code == kErrorUninitialized;
    return report(none ? ProbeStatus::missing : ProbeStatus::failed,
                  failed_text(*info.error) +
                      (none ? ": the loader found no Level Zero driver that initialises" : ""),
                  info);
  }
  if (!problems.implausible.empty()) {
    return report(ProbeStatus::failed, "answered implausibly: " + summary(problems.implausible),
                  info);
  }

  std::vector<std::pair<ze_device_handle_t, std::size_t>> roots;  // device, its index in info
  for (std::size_t di = 0; di < drivers.size(); ++di) {
    ze_driver_handle_t drv = drivers[di];
    LevelZeroDriver driver;
    if (DriverProperties p;
        api->driver_get_properties && api->driver_get_properties(drv, &p) == kSuccess) {
      driver.driver_version_raw = p.driver_version;
      driver.driver_version = std::to_string(p.driver_version >> 24) + "." +
                              std::to_string((p.driver_version >> 16) & 0xff) + "." +
                              std::to_string(p.driver_version & 0xffff);
      driver.uuid = uuid_hex(p.uuid);
    }
    if (std::uint32_t v = 0;
        api->driver_get_api_version && api->driver_get_api_version(drv, &v) == kSuccess) {
      driver.api_version = std::to_string(v >> 16) + "." + std::to_string(v & 0xffff);
    }
    info.drivers.push_back(std::move(driver));
    const std::string what = "driver " + std::to_string(di);
    auto devices = handles<ze_device_handle_t>(
        [&](std::uint32_t* n, ze_device_handle_t* h) { return api->device_get(drv, n, h); },
        kMaxZeDevices, what + ": zeDeviceGet", problems);
    if (!devices) continue;
    for (ze_device_handle_t dev : *devices) {
      const std::string dwhat = "device " + std::to_string(info.devices.size());
      LevelZeroDevice d = read_device(*api, dev, di, dwhat, problems);
      const std::size_t index = info.devices.size();
      if (api->device_get_sub_devices) {
        auto tiles = handles<ze_device_handle_t>(
            [&](std::uint32_t* n, ze_device_handle_t* h) {
              return api->device_get_sub_devices(dev, n, h);
            },
            kMaxTiles, dwhat + ": zeDeviceGetSubDevices", problems);
        if (tiles) {
          d.subdevices = tiles->size();
          for (std::size_t t = 0; t < tiles->size(); ++t) {
            LevelZeroDevice tile =
                read_device(*api, (*tiles)[t], di, dwhat + " tile " + std::to_string(t), problems);
            tile.parent = index;
            info.tiles.push_back(std::move(tile));
          }
        }
      }
      info.devices.push_back(std::move(d));
      roots.emplace_back(dev, index);
    }
  }
  if (!problems.implausible.empty()) {
    // Nothing of a driver that lies is believed: its devices would join the machine's.
    info.devices.clear();
    info.tiles.clear();
    return report(ProbeStatus::failed, "answered implausibly: " + summary(problems.implausible),
                  info);
  }
  if (const LevelZeroSysmanApi sysman = LevelZeroSysmanApi::load(*lib);
      sysman.enum_memory_modules || sysman.enum_frequency_domains) {
    for (const auto& [dev, index] : roots) info.devices[index].sysman = read_sysman(sysman, dev);
  }
  if (opt.smoke) run_smoke(*lib, drivers, roots, opt.driver.value_or(*info.library), info);
  std::string detail =
      plural(info.drivers.size(), "driver") + ", " + plural(info.devices.size(), "device");
  if (!info.tiles.empty()) detail += " (" + plural(info.tiles.size(), "tile") + ")";
  if (!problems.failed_calls.empty()) {
    detail += "; " + std::to_string(problems.failed_calls.size()) +
              " of its answers unknown: " + summary(problems.failed_calls);
  }
  detail += smoke::smoke_summary(info.smoke);
  return report(info.devices.empty() ? ProbeStatus::missing : ProbeStatus::ok, detail, info);
}

}  // namespace

void discover(const ProbeContext& ctx, LevelZeroInfo& info) {
  if (ctx.platform != kPlatformLinux) return;
  if (auto alt = ctx.env.get("ZE_ENABLE_ALT_DRIVERS")) {
    info.alt_drivers = *alt;
    return;
  }
  const LibrarySearch search(ctx.root, ctx.env);
  for (const char* name : kKnownDrivers) {
    if (auto found = search.find(name)) info.driver_libraries.push_back(*found);
  }
}

IsolatedJob make_job(JobOptions options) {
  IsolatedJob job = make_single_job(kBackendLevelZero, "libze_loader", options, probe_in_child);
  if (options.driver) {
    // The child is named after the driver it loads, so that a driver that crashes or hangs is
    // blamed, not the loader every driver shares.
    job.label = *options.driver;
    job.library = *options.driver;
  }
  return job;
}

std::vector<std::string> driver_list(const LevelZeroInfo& info) {
  if (!info.alt_drivers) return info.driver_libraries;
  // ZE_ENABLE_ALT_DRIVERS is a comma-separated list of driver libraries (loader v1.8.12,
  // source/loader/linux/driver_discovery_lin.cpp:
  // https://github.com/oneapi-src/level-zero/blob/v1.8.12/source/loader/linux/driver_discovery_lin.cpp).
  std::vector<std::string> out;
  for (const auto& part : split_words(*info.alt_drivers, ",")) {
    const std::string name(trim(part));
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
    }
  }
  return out;
}

std::vector<IsolatedJob> jobs(const ProbeContext& ctx, const LevelZeroInfo& info) {
  if (!ctx.live || ctx.platform != kPlatformLinux) return {};
  std::vector<IsolatedJob> out;
  // One child per driver library, each loading the loader with only that driver
  // (ZE_ENABLE_ALT_DRIVERS), as OpenCL runs one child per ICD: a driver that crashes or hangs
  // takes only its own devices with it. With none found, one child where the loader searches.
  const std::vector<std::string> drivers = driver_list(info);
  for (const auto& driver : drivers) {
    JobOptions options;
    options.smoke = ctx.smoke;
    options.driver = driver;
    out.push_back(make_job(std::move(options)));
  }
  if (out.empty()) {
    JobOptions options;
    options.smoke = ctx.smoke;
    out.push_back(make_job(std::move(options)));
  }
  return out;
}

namespace {

/// One child's facts, with the smoke tests a crash or hang cut short recorded as lost.
void fold_child(LevelZeroInfo& child, const IsolatedResult& r) {
  const ProbeStatus s = r.outcome.status;
  if (s != ProbeStatus::crashed && s != ProbeStatus::timed_out) return;
  // The child died after a progress report: the device whose smoke test was running, and those
  // after it, did not finish.
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < child.devices.size(); ++i) {
    labels.push_back(child.devices[i].name.value_or("device " + std::to_string(i)));
  }
  if (child.smoke.size() >= labels.size()) return;
  const std::string library = r.outcome.library.value_or(child.library.value_or("libze_loader"));
  for (auto& lost : smoke::smoke_lost("level_zero", library, labels[child.smoke.size()], labels,
                                      r.outcome.detail)) {
    if (std::none_of(child.smoke.begin(), child.smoke.end(),
                     [&](const SmokeResult& x) { return x.device == lost.device; })) {
      child.smoke.push_back(std::move(lost));
    }
  }
}

/// Appends a child's drivers, devices, tiles and smoke results to the section, renumbering the
/// indices that point into its lists.
void append_child(LevelZeroInfo& info, LevelZeroInfo&& child) {
  const std::size_t drivers = info.drivers.size();
  const std::size_t devices = info.devices.size();
  if (!info.library) info.library = child.library;
  if (!info.init_call) info.init_call = child.init_call;
  if (!info.error) info.error = child.error;
  for (auto& e : child.load_errors) {
    if (std::find(info.load_errors.begin(), info.load_errors.end(), e) == info.load_errors.end()) {
      info.load_errors.push_back(std::move(e));
    }
  }
  for (auto& d : child.drivers) info.drivers.push_back(std::move(d));
  for (auto& d : child.devices) {
    d.driver += drivers;
    info.devices.push_back(std::move(d));
  }
  for (auto& t : child.tiles) {
    t.driver += drivers;
    if (t.parent) *t.parent += devices;
    info.tiles.push_back(std::move(t));
  }
  for (auto& r : child.smoke) info.smoke.push_back(std::move(r));
}

bool lz_failure(ProbeStatus s) {
  return s == ProbeStatus::crashed || s == ProbeStatus::timed_out || s == ProbeStatus::failed;
}

}  // namespace

ProbeOutcome assemble(LevelZeroInfo& info, const std::vector<IsolatedResult>& results, bool live) {
  ProbeOutcome out{std::string(kBackendLevelZero), std::string(kBackendLevelZero), std::nullopt,
                   ProbeStatus::skipped};
  if (!live) {
    out.detail = "libze_loader is not loaded under --sysroot";
    return out;
  }
  if (results.empty()) {
    out.detail = "the Level Zero probe did not run";
    return out;
  }
  std::size_t ok = 0;
  double seconds = 0;
  std::vector<std::string> failures;
  std::vector<std::string> missing;
  for (const IsolatedResult& r : results) {
    seconds = std::max(seconds, r.outcome.seconds.value_or(0));
    if (r.outcome.status == ProbeStatus::ok) ++ok;
    const std::string who = r.outcome.library.value_or(r.outcome.label);
    if (lz_failure(r.outcome.status)) failures.push_back(who + ": " + r.outcome.detail);
    if (r.outcome.status == ProbeStatus::missing) missing.push_back(r.outcome.detail);
    if (!r.data) continue;
    LevelZeroInfo child;
    try {
      child = r.data->get<LevelZeroInfo>();
    } catch (const std::exception& e) {
      failures.push_back(who +
                         ": the Level Zero probe sent back facts that do not fit the "
                         "model: " +
                         e.what());
      continue;
    }
    fold_child(child, r);
    append_child(info, std::move(child));
  }
  out.library = info.library;
  out.seconds = seconds;
  std::string detail =
      plural(info.drivers.size(), "driver") + ", " + plural(info.devices.size(), "device");
  if (!info.tiles.empty()) detail += " (" + plural(info.tiles.size(), "tile") + ")";
  if (ok > 0) {
    out.status = ProbeStatus::ok;
    out.detail = detail + smoke::smoke_summary(info.smoke);
    if (!failures.empty()) out.detail += "; " + join(failures, "; ");
  } else if (failures.empty()) {
    out.status = ProbeStatus::missing;
    out.detail = missing.empty() ? "no Level Zero driver answered" : join(missing, "; ");
  } else {
    // The drivers failed, each named by its own outcome; the loader is not one of them.
    out.status = ProbeStatus::failed;
    out.library.reset();
    out.detail = "no Level Zero driver works: " + join(failures, "; ");
  }
  return out;
}

}  // namespace gpudoctor::level_zero
