#include "live/live_probe.hpp"

#include <algorithm>

#include "text.hpp"

namespace gpudoctor::live {

namespace {

/// A sysfs attribute as an unsigned number; absent when missing, unreadable or not a number
/// (gpu_busy_percent answers EOPNOTSUPP on some GPUs, and then reads as nothing).
std::optional<std::uint64_t> amdgpu_sysfs_number(const Root& root, const std::string& path) {
  const auto line = root.read_line(path);
  if (!line) return std::nullopt;
  return parse_uint(trim(*line));
}

std::optional<int> amdgpu_percent(const Root& root, const std::string& path) {
  const auto v = amdgpu_sysfs_number(root, path);
  if (!v || *v > 100) return std::nullopt;
  return static_cast<int>(*v);
}

/// millidegrees Celsius (hwmon's unit) as whole degrees.
std::optional<int> amdgpu_millidegrees(const Root& root, const std::string& path) {
  const auto line = root.read_line(path);
  if (!line) return std::nullopt;
  const auto v = parse_int(trim(*line));
  if (!v || *v < -273000 || *v > 1000000) return std::nullopt;
  return static_cast<int>(*v / 1000);
}

/// microwatts (hwmon's unit) as milliwatts (NVML's).
std::optional<std::uint32_t> amdgpu_microwatts(const Root& root, const std::string& path) {
  const auto v = amdgpu_sysfs_number(root, path);
  if (!v || *v / 1000 > 0xffffffffull) return std::nullopt;
  return static_cast<std::uint32_t>(*v / 1000);
}

/// The uevent's KEY=value.
std::optional<std::string> amdgpu_uevent_value(const std::string& uevent, std::string_view key) {
  for (auto line : split_lines(uevent)) {
    line = trim(line);
    if (line.size() > key.size() && starts_with(line, key) && line[key.size()] == '=') {
      return std::string(line.substr(key.size() + 1));
    }
  }
  return std::nullopt;
}

bool is_card_name(std::string_view name) {
  if (!starts_with(name, "card") || name.size() == 4) return false;
  return std::all_of(name.begin() + 4, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

DpmLevels parse_pp_dpm(std::string_view text) {
  DpmLevels out;
  for (auto line : split_lines(text)) {
    line = trim(line);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view rest = trim(line.substr(colon + 1));
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits == 0 || digits > 6) continue;
    const auto mhz = parse_uint(rest.substr(0, digits));
    const std::string unit = to_lower(rest.substr(digits, 3));
    if (!mhz || unit != "mhz") continue;
    const auto v = static_cast<std::uint32_t>(*mhz);
    if (!out.max_mhz || v > *out.max_mhz) out.max_mhz = v;
    if (ends_with(rest, "*")) out.current_mhz = v;
  }
  return out;
}

std::vector<LiveGpu> read_amdgpu(const Root& root) {
  std::vector<LiveGpu> out;
  for (const auto& card : root.list("/sys/class/drm")) {
    if (!is_card_name(card)) continue;
    const std::string dev = "/sys/class/drm/" + card + "/device";
    const auto uevent = root.read(dev + "/uevent", 64 * 1024);
    if (!uevent || amdgpu_uevent_value(*uevent, "DRIVER") != "amdgpu") continue;
    LiveGpu g;
    g.vendor = "amd";
    g.source = "amdgpu-sysfs";
    g.index = static_cast<int>(parse_uint(std::string_view(card).substr(4)).value_or(0));
    if (auto slot = amdgpu_uevent_value(*uevent, "PCI_SLOT_NAME")) g.pci_bus_id = to_lower(*slot);
    if (auto name = root.read_line(dev + "/product_name"); name && !trim(*name).empty()) {
      g.name = std::string(trim(*name));
    }
    g.memory_total_bytes = amdgpu_sysfs_number(root, dev + "/mem_info_vram_total");
    g.memory_used_bytes = amdgpu_sysfs_number(root, dev + "/mem_info_vram_used");
    if (g.memory_total_bytes && g.memory_used_bytes &&
        *g.memory_used_bytes <= *g.memory_total_bytes) {
      g.memory_free_bytes = *g.memory_total_bytes - *g.memory_used_bytes;
    }
    g.utilization_gpu_percent = amdgpu_percent(root, dev + "/gpu_busy_percent");
    g.utilization_memory_percent = amdgpu_percent(root, dev + "/mem_busy_percent");
    if (auto sclk = root.read(dev + "/pp_dpm_sclk", 64 * 1024)) {
      const DpmLevels l = parse_pp_dpm(*sclk);
      g.clock_graphics_mhz = l.current_mhz;
      g.clock_graphics_max_mhz = l.max_mhz;
    }
    if (auto mclk = root.read(dev + "/pp_dpm_mclk", 64 * 1024)) {
      const DpmLevels l = parse_pp_dpm(*mclk);
      g.clock_memory_mhz = l.current_mhz;
      g.clock_memory_max_mhz = l.max_mhz;
    }
    // The hwmon directory amdgpu registers for the device (one per GPU).
    for (const auto& h : root.list(dev + "/hwmon")) {
      if (!starts_with(h, "hwmon")) continue;
      const std::string hw = dev + "/hwmon/" + h;
      g.temperature_c = amdgpu_millidegrees(root, hw + "/temp1_input");
      g.temperature_slowdown_c = amdgpu_millidegrees(root, hw + "/temp1_crit");
      g.temperature_shutdown_c = amdgpu_millidegrees(root, hw + "/temp1_emergency");
      g.power_draw_mw = amdgpu_microwatts(root, hw + "/power1_average");
      if (!g.power_draw_mw) g.power_draw_mw = amdgpu_microwatts(root, hw + "/power1_input");
      g.power_limit_mw = amdgpu_microwatts(root, hw + "/power1_cap");
      break;
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<LiveGpu> from_nvml(const NvmlInfo& nvml) {
  std::vector<LiveGpu> out;
  for (const auto& d : nvml.devices) {
    LiveGpu g;
    g.vendor = "nvidia";
    g.source = "nvml";
    g.index = d.index;
    g.name = d.name;
    g.pci_bus_id = d.pci_bus_id;
    g.memory_total_bytes = d.memory_total_bytes;
    g.memory_used_bytes = d.memory_used_bytes;
    g.memory_free_bytes = d.memory_free_bytes;
    g.utilization_gpu_percent = d.utilization_gpu_percent;
    g.utilization_memory_percent = d.utilization_memory_percent;
    g.temperature_c = d.temperature_c;
    g.temperature_slowdown_c = d.temperature_slowdown_c;
    g.temperature_shutdown_c = d.temperature_shutdown_c;
    g.power_draw_mw = d.power_draw_mw;
    g.power_limit_mw = d.power_limit_mw;
    g.clock_graphics_mhz = d.clock_graphics_mhz;
    g.clock_graphics_max_mhz = d.clock_graphics_max_mhz;
    g.clock_memory_mhz = d.clock_memory_mhz;
    g.clock_memory_max_mhz = d.clock_memory_max_mhz;
    if (d.clock_event_reasons) g.throttle_reasons = d.throttle_reasons;
    g.ecc_enabled = d.ecc_enabled;
    g.ecc_corrected_volatile = d.ecc_corrected_volatile;
    g.ecc_uncorrected_volatile = d.ecc_uncorrected_volatile;
    g.ecc_uncorrected_aggregate = d.ecc_uncorrected_aggregate;
    g.retired_pages_single_bit = d.retired_pages_single_bit;
    g.retired_pages_double_bit = d.retired_pages_double_bit;
    g.retired_pages_pending = d.retired_pages_pending;
    g.remapped_rows_correctable = d.remapped_rows_correctable;
    g.remapped_rows_uncorrectable = d.remapped_rows_uncorrectable;
    g.remapped_rows_pending = d.remapped_rows_pending;
    g.remapped_rows_failure = d.remapped_rows_failure;
    if (d.processes_read) {
      std::vector<LiveProcess> ps;
      for (const auto& p : d.processes) {
        ps.push_back(LiveProcess{p.pid, p.name, p.used_memory_bytes, p.kind});
      }
      g.processes = std::move(ps);
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<LiveGpu> from_level_zero(const LevelZeroInfo& lz) {
  std::vector<LiveGpu> out;
  for (std::size_t i = 0; i < lz.devices.size(); ++i) {
    const LevelZeroDevice& d = lz.devices[i];
    if (!d.sysman) continue;
    const LevelZeroSysman& s = *d.sysman;
    LiveGpu g;
    g.vendor = "intel";
    g.source = "level-zero-sysman";
    g.index = static_cast<int>(i);
    g.name = d.name;
    g.pci_bus_id = d.pci_bus_id;
    g.memory_total_bytes = s.memory_total_bytes;
    g.memory_free_bytes = s.memory_free_bytes;
    if (s.memory_total_bytes && s.memory_free_bytes) {
      g.memory_used_bytes = *s.memory_total_bytes - *s.memory_free_bytes;
    }
    g.utilization_gpu_percent = s.utilization_percent;
    g.temperature_c = s.temperature_c;
    g.clock_graphics_mhz = s.clock_mhz;
    g.clock_graphics_max_mhz = s.clock_max_mhz;
    out.push_back(std::move(g));
  }
  return out;
}

LiveState assemble(const ProbeContext& ctx, const Snapshot& snap, bool amd) {
  LiveState s;
  s.live = ctx.live;
  // NVML's gap is said where an NVIDIA GPU is on the bus (a machine without one has no NVML
  // to miss); display, 3D and accelerator functions only, so an NVSwitch does not count.
  const bool nvidia_gpu = snap.pci && std::any_of(snap.pci->devices.begin(),
                                                  snap.pci->devices.end(), [](const auto& p) {
                                                    const auto cls = p.class_code >> 16;
                                                    return p.vendor_id == 0x10de &&
                                                           (cls == 0x03 || cls == 0x12);
                                                  });
  if (snap.nvml) {
    const NvmlInfo& nvml = *snap.nvml;
    if (!ctx.live) {
      if (nvidia_gpu) {
        s.not_examined.push_back("NVML: vendor libraries are not loaded under --sysroot");
      }
    } else if (nvml.init_error) {
      s.not_examined.push_back("NVML: " + *nvml.init_error);
    } else if (!nvml.library && nvidia_gpu) {
      s.not_examined.push_back("NVML: libnvidia-ml was not loaded");
    }
    for (auto& g : from_nvml(nvml)) s.gpus.push_back(std::move(g));
  }
  if (amd) {
    for (auto& g : read_amdgpu(ctx.root)) s.gpus.push_back(std::move(g));
  }
  if (snap.level_zero && ctx.live) {
    const LevelZeroInfo& lz = *snap.level_zero;
    for (auto& g : from_level_zero(lz)) s.gpus.push_back(std::move(g));
    const bool any = std::any_of(lz.devices.begin(), lz.devices.end(),
                                 [](const LevelZeroDevice& d) { return d.sysman.has_value(); });
    if (!lz.devices.empty() && !any) {
      s.not_examined.push_back("Level Zero Sysman: the loader has no zes* entry points");
    }
  }
  return s;
}

}  // namespace gpudoctor::live
