#include "devices.hpp"

#include <algorithm>

#include "api/pci/gpu_ids.hpp"
#include "backends.hpp"
#include "parse/nvidia_supported_gpus.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::uint32_t kVkDriverIdMesaLlvmpipe = 13;
constexpr std::uint32_t kVendorNvidia = 0x10de;
constexpr std::uint32_t kVendorAmd = 0x1002;

DeviceKind kind_from_pci_class(std::uint32_t class_code) {
  switch (class_code >> 16) {
    case 0x03: return DeviceKind::gpu;
    case 0x12: return DeviceKind::accelerator;
    case 0x0b: return DeviceKind::accelerator;  // co-processor
    default: return DeviceKind::other;
  }
}

std::string lower_hex_address(std::string_view a) {
  auto n = normalize_pci_address(a);
  return n ? *n : to_lower(trim(a));
}

class Merger {
 public:
  explicit Merger(const Snapshot& snap) : snap_(snap) {}

  std::vector<MergedDevice> run() {
    if (snap_.pci) {
      for (std::size_t i = 0; i < snap_.pci->devices.size(); ++i) add_pci(i);
    }
    if (snap_.macos) {
      for (std::size_t i = 0; i < snap_.macos->gpus.size(); ++i) add_macos(i);
    }
    if (snap_.nvml) {
      for (std::size_t i = 0; i < snap_.nvml->devices.size(); ++i) add_nvidia(i, false);
    }
    if (snap_.cuda) {
      for (std::size_t i = 0; i < snap_.cuda->devices.size(); ++i) add_nvidia(i, true);
    }
    if (snap_.rocm) add_rocm(*snap_.rocm);
    if (snap_.vulkan) {
      for (std::size_t i = 0; i < snap_.vulkan->devices.size(); ++i) add_vulkan(i);
    }
    if (snap_.metal) {
      for (std::size_t i = 0; i < snap_.metal->devices.size(); ++i) add_metal(i);
    }
    if (snap_.opencl) {
      std::size_t flat = 0;
      for (std::size_t p = 0; p < snap_.opencl->platforms.size(); ++p) {
        for (std::size_t d = 0; d < snap_.opencl->platforms[p].devices.size(); ++d) {
          add_opencl(p, d, flat++);
        }
      }
    }
    for (auto& m : out_) name_from_pci_ids(m);
    return std::move(out_);
  }

 private:
  /// Every GPU gets a chip, and a name where no API named it, from the root's pci.ids or the
  /// built-in copy: KFD's "AMD GPU (gfx1031)" becomes pci.ids' "Navi 22 […]".
  void name_from_pci_ids(MergedDevice& m) const {
    if (m.kind == DeviceKind::cpu || !m.vendor_id || !m.device_id || *m.vendor_id > 0xffff ||
        *m.device_id > 0xffff) {
      return;
    }
    std::optional<std::string> name;
    if (m.pci) name = snap_.pci->devices[*m.pci].device_name;
    const bool from_root = name.has_value() && m.pci &&
                           snap_.pci->devices[*m.pci].name_source !=
                               std::optional<std::string>(std::string(kNameFromBuiltinPciIds));
    if (!name) {
      auto builtin = builtin_device_name(static_cast<std::uint16_t>(*m.vendor_id),
                                         static_cast<std::uint16_t>(*m.device_id));
      if (builtin) name = std::string(*builtin);
    }
    if (name && !m.chip) m.chip = chip_from_pci_name(*name);
    // The installed NVIDIA driver's own table names its GPUs before any pci.ids does.
    if (auto driver_name = driver_table_name(m); driver_name && m.name_source == "none") {
      m.name = *driver_name;
      m.name_source = std::string(kNameFromDriverTable);
      return;
    }
    if (!name) return;
    if (m.name_source == "none" || m.name_source == "kfd") {
      m.name = *name;
      m.name_source = std::string(from_root ? kNameFromPciIds : kNameFromBuiltinPciIds);
    }
  }

  /// The name supported-gpus.json gives this board (its subsystem's row, else the device's).
  std::optional<std::string> driver_table_name(const MergedDevice& m) const {
    if (!snap_.nvidia || !snap_.nvidia->driver_gpu_table || m.vendor_id != 0x10deu) {
      return std::nullopt;
    }
    std::optional<std::uint16_t> sub_vendor;
    std::optional<std::uint16_t> sub_device;
    if (m.pci) {
      sub_vendor = snap_.pci->devices[*m.pci].subsystem_vendor_id;
      sub_device = snap_.pci->devices[*m.pci].subsystem_device_id;
    }
    const DriverGpuEntry* row =
        supported_gpu_row(snap_.nvidia->driver_gpu_table->gpus,
                          static_cast<std::uint16_t>(*m.device_id), sub_vendor, sub_device);
    if (row == nullptr) return std::nullopt;
    return row->name;
  }

  void add_pci(std::size_t i) {
    const PciDevice& p = snap_.pci->devices[i];
    MergedDevice m;
    m.name = "PCI device " + hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4);  // pci.ids: below
    m.kind = kind_from_pci_class(p.class_code);
    m.pci_address = lower_hex_address(p.address);
    m.vendor_id = p.vendor_id;
    m.device_id = p.device_id;
    m.pci = i;
    out_.push_back(std::move(m));
  }

  /// A GPU from system_profiler: on a Mac the only list of the hardware, so an entry of its
  /// own, joined to a PCI entry (vendor and device id) only where a snapshot has both.
  void add_macos(std::size_t i) {
    const MacGpu& g = snap_.macos->gpus[i];
    MergedDevice* m = g.vendor_id ? find(std::nullopt, std::nullopt, g.vendor_id, g.device_id)
                                  : nullptr;
    if (m == nullptr || m->saw(kBackendMacos)) {
      out_.push_back(MergedDevice{});
      m = &out_.back();
      m->name = g.name.value_or("GPU");
      if (g.name) m->name_source = "system_profiler";
      m->kind = DeviceKind::gpu;
      m->vendor_id = g.vendor_id;
      m->device_id = g.device_id;
    }
    m->seen_by[std::string(kBackendMacos)].push_back(i);
  }

  /// A Metal device joins the system_profiler GPU of the same machine: system_profiler's JSON
  /// gives no registry id, so by name ("AMD Radeon RX 5700 XT" from Metal, "Radeon RX 5700 XT"
  /// or the same from system_profiler), and only where exactly one GPU fits; else an entry of
  /// its own.
  void add_metal(std::size_t i) {
    const MetalDevice& d = snap_.metal->devices[i];
    MergedDevice* m = d.name ? find_mac_gpu(*d.name) : nullptr;
    if (m == nullptr) {
      out_.push_back(MergedDevice{});
      m = &out_.back();
      m->name = d.name.value_or("Metal device");
      if (d.name) m->name_source = "metal";
      m->kind = DeviceKind::gpu;
    }
    m->seen_by[std::string(kBackendMetal)].push_back(i);
  }

  MergedDevice* find_mac_gpu(const std::string& metal_name) {
    const std::string want = to_lower(metal_name);
    MergedDevice* hit = nullptr;
    int hits = 0;
    for (auto& m : out_) {
      if (!m.saw(kBackendMacos) || m.saw(kBackendMetal)) continue;
      const auto& name = snap_.macos->gpus[m.in(kBackendMacos).front()].name;
      if (!name || name->empty()) continue;
      const std::string have = to_lower(*name);
      // Metal prefixes the vendor system_profiler leaves out ("AMD ", "Intel(R) "…).
      const bool same = have == want || (want.size() > have.size() &&
                                         want.compare(want.size() - have.size(), have.size(),
                                                      have) == 0 &&
                                         want[want.size() - have.size() - 1] == ' ');
      if (!same) continue;
      hit = &m;
      ++hits;
    }
    return hits == 1 ? hit : nullptr;
  }

  /// A CUDA or NVML device: always a GPU, always NVIDIA, usually with a PCI address.
  void add_nvidia(std::size_t i, bool is_cuda) {
    const std::optional<std::string>& name =
        is_cuda ? snap_.cuda->devices[i].name : snap_.nvml->devices[i].name;
    const std::optional<std::string>& bus =
        is_cuda ? snap_.cuda->devices[i].pci_bus_id : snap_.nvml->devices[i].pci_bus_id;
    const std::optional<std::string>& uuid =
        is_cuda ? snap_.cuda->devices[i].uuid : snap_.nvml->devices[i].uuid;
    MergedDevice* m = find(bus, uuid, std::nullopt, std::nullopt);
    if (m == nullptr) {
      out_.push_back(MergedDevice{});
      m = &out_.back();
      m->name = name.value_or("NVIDIA GPU");
      if (name) m->name_source = is_cuda ? "cuda" : "nvml";
      m->kind = DeviceKind::gpu;
      m->vendor_id = kVendorNvidia;
      if (bus) m->pci_address = lower_hex_address(*bus);
    }
    if (!m->uuid) m->uuid = uuid;
    if (!is_cuda && !m->device_id && snap_.nvml->devices[i].pci_device_id) {
      m->device_id = *snap_.nvml->devices[i].pci_device_id >> 16;  // NVML packs device, vendor
    }
    if (name && (m->pci || m->saw(kBackendVulkan))) {
      m->name = *name;
      m->name_source = is_cuda ? "cuda" : "nvml";
    }
    m->seen_by[std::string(is_cuda ? kBackendCuda : kBackendNvml)].push_back(i);
  }

  /// KFD nodes and HIP devices: AMD GPUs, joined on their PCI address.
  void add_rocm(const RocmInfo& r) {
    for (std::size_t i = 0; i < r.nodes.size(); ++i) {
      const KfdNode& n = r.nodes[i];
      MergedDevice* m = find(n.pci_address, std::nullopt, kVendorAmd, n.device_id);
      if (m != nullptr && !n.pci_address && m->saw(kApiKfd)) m = nullptr;  // another node's GPU
      const std::string name = "AMD GPU" + (n.gfx_target ? " (" + *n.gfx_target + ")" : "");
      MergedDevice& entry = amd_entry(m, n.pci_address, n.device_id, name);
      if (!entry.pci && !entry.saw(kApiKfd) && entry.name_source == "none")
        entry.name_source = "kfd";
      entry.seen_by[std::string(kApiKfd)].push_back(i);
    }
    if (!r.hip) return;
    for (std::size_t i = 0; i < r.hip->devices.size(); ++i) {
      const HipDevice& d = r.hip->devices[i];
      MergedDevice& m = amd_entry(find(d.pci_bus_id, std::nullopt, kVendorAmd, std::nullopt),
                                  d.pci_bus_id, std::nullopt, d.name.value_or("AMD GPU"));
      if (d.name && (m.pci || m.saw(kApiKfd) || m.name_source == "none")) {
        m.name = *d.name;  // beats pci.ids and KFD
        m.name_source = "hip";
      }
      m.seen_by[std::string(kApiHip)].push_back(i);
    }
  }

  /// `found`, or a new AMD GPU entry.
  MergedDevice& amd_entry(MergedDevice* found, const std::optional<std::string>& bus,
                          const std::optional<std::uint32_t>& device_id, const std::string& name) {
    if (found != nullptr) return *found;
    MergedDevice m;
    m.name = name;
    m.kind = DeviceKind::gpu;
    m.vendor_id = kVendorAmd;
    m.device_id = device_id;
    if (bus) m.pci_address = lower_hex_address(*bus);
    out_.push_back(std::move(m));
    return out_.back();
  }

  void add_vulkan(std::size_t i) {
    const VulkanDevice& v = snap_.vulkan->devices[i];
    bool software = v.type == std::optional<std::string>("cpu") ||
                    v.driver_id == std::optional<std::uint32_t>(kVkDriverIdMesaLlvmpipe);
    MergedDevice* m = software ? &cpu_entry()
                               : find(v.pci_bus_id, v.device_uuid, v.vendor_id, v.device_id);
    if (m == nullptr) {
      out_.push_back(MergedDevice{});
      m = &out_.back();
      m->name = v.name.value_or("Vulkan device");
      if (v.name) m->name_source = "vulkan";
      m->kind = v.type == std::optional<std::string>("other") ? DeviceKind::other : DeviceKind::gpu;
      m->vendor_id = v.vendor_id;
      m->device_id = v.device_id;
      if (v.pci_bus_id) m->pci_address = lower_hex_address(*v.pci_bus_id);
    }
    if (!m->uuid && !software) m->uuid = v.device_uuid;
    // The driver's name beats a stale pci.ids entry (but CUDA/NVML names win over Vulkan's).
    if (m->pci && v.name && !m->saw(kBackendCuda) && !m->saw(kBackendNvml)) {
      m->name = *v.name;
      m->name_source = "vulkan";
    }
    m->seen_by[std::string(kBackendVulkan)].push_back(i);
  }

  void add_opencl(std::size_t p, std::size_t d, std::size_t flat) {
    const OpenClDevice& c = snap_.opencl->platforms[p].devices[d];
    bool software = c.type == std::optional<std::string>("CPU");
    MergedDevice* m =
        software ? &cpu_entry() : find(c.pci_bus_id, c.uuid, c.vendor_id, std::nullopt);
    if (m == nullptr) {
      out_.push_back(MergedDevice{});
      m = &out_.back();
      m->name = c.name.value_or("OpenCL device");
      if (c.name) m->name_source = "opencl";
      m->kind = c.type == std::optional<std::string>("GPU") ? DeviceKind::gpu
                                                             : DeviceKind::accelerator;
      m->vendor_id = c.vendor_id;
      if (c.pci_bus_id) m->pci_address = lower_hex_address(*c.pci_bus_id);
    }
    if (!m->uuid && !software) m->uuid = c.uuid;
    if (m->pci && !m->saw(kBackendVulkan) && !m->saw(kBackendCuda) && !m->saw(kBackendNvml) &&
        c.name) {
      m->name = *c.name;
      m->name_source = "opencl";
    }
    m->seen_by[std::string(kBackendOpenCl)].push_back(flat);
  }

  /// The host CPU: every software implementation runs on it.
  MergedDevice& cpu_entry() {
    for (auto& m : out_) {
      if (m.kind == DeviceKind::cpu) return m;
    }
    MergedDevice m;
    m.kind = DeviceKind::cpu;
    m.software = true;
    m.name = snap_.host && snap_.host->cpu_model ? *snap_.host->cpu_model : "Host CPU";
    if (snap_.host && snap_.host->cpu_model) m.name_source = "host";
    out_.push_back(std::move(m));
    return out_.back();
  }

  MergedDevice* find(const std::optional<std::string>& pci_address,
                     const std::optional<std::string>& uuid,
                     const std::optional<std::uint32_t>& vendor_id,
                     const std::optional<std::uint32_t>& device_id) {
    if (pci_address) {
      std::string a = lower_hex_address(*pci_address);
      for (auto& m : out_) {
        if (m.pci_address == a) return &m;
      }
    }
    if (uuid) {
      for (auto& m : out_) {
        if (m.uuid && normalize_uuid(*m.uuid) == normalize_uuid(*uuid)) return &m;
      }
    }
    if (!vendor_id) return nullptr;
    // Vendor (+device) id: only when exactly one hardware device fits.
    MergedDevice* hit = nullptr;
    int hits = 0;
    for (auto& m : out_) {
      if (m.kind == DeviceKind::cpu || m.kind == DeviceKind::other) continue;
      if (m.vendor_id != vendor_id) continue;
      if (device_id && m.device_id && m.device_id != device_id) continue;
      hit = &m;
      ++hits;
    }
    return hits == 1 ? hit : nullptr;
  }

  const Snapshot& snap_;
  std::vector<MergedDevice> out_;
};

}  // namespace

const char* to_string(DeviceKind k) {
  switch (k) {
    case DeviceKind::gpu: return "gpu";
    case DeviceKind::accelerator: return "accelerator";
    case DeviceKind::cpu: return "cpu";
    case DeviceKind::other: return "other";
  }
  return "other";
}

std::optional<std::string> normalize_pci_address(std::string_view address) {
  // domain:bus:device.function, domain of any width (NVML uses 8 hex digits)
  std::string a = to_lower(trim(address));
  auto c1 = a.find(':');
  auto c2 = a.find(':', c1 == std::string::npos ? 0 : c1 + 1);
  auto dot = a.find('.', c2 == std::string::npos ? 0 : c2 + 1);
  if (c1 == std::string::npos || c2 == std::string::npos || dot == std::string::npos) {
    return std::nullopt;
  }
  auto dom = parse_uint("0x" + a.substr(0, c1));
  auto bus = parse_uint("0x" + a.substr(c1 + 1, c2 - c1 - 1));
  auto dev = parse_uint("0x" + a.substr(c2 + 1, dot - c2 - 1));
  auto fn = parse_uint("0x" + a.substr(dot + 1));
  if (!dom || !bus || !dev || !fn || *dom > 0xffff || *bus > 0xff || *dev > 0x1f || *fn > 7) {
    return std::nullopt;
  }
  return hex(*dom, 4) + ":" + hex(*bus, 2) + ":" + hex(*dev, 2) + "." + hex(*fn, 1);
}

std::string normalize_uuid(std::string_view uuid) {
  std::string s = to_lower(trim(uuid));
  if (starts_with(s, "gpu-")) s = s.substr(4);
  if (starts_with(s, "mig-")) s = s.substr(4);
  s.erase(std::remove(s.begin(), s.end(), '-'), s.end());
  return s;
}

std::vector<MergedDevice> merge_devices(const Snapshot& snap) { return Merger(snap).run(); }

const std::vector<std::size_t>& MergedDevice::in(std::string_view api) const {
  static const std::vector<std::size_t> none;
  const auto it = seen_by.find(api);
  return it == seen_by.end() ? none : it->second;
}

bool MergedDevice::saw(std::string_view api) const { return !in(api).empty(); }

std::optional<std::pair<std::size_t, std::size_t>> opencl_position(const OpenClInfo& info,
                                                                   std::size_t i) {
  for (std::size_t p = 0; p < info.platforms.size(); ++p) {
    const std::size_t n = info.platforms[p].devices.size();
    if (i < n) return std::make_pair(p, i);
    i -= n;
  }
  return std::nullopt;
}

std::size_t opencl_device_count(const OpenClInfo& info) {
  std::size_t n = 0;
  for (const auto& p : info.platforms) n += p.devices.size();
  return n;
}

Json devices_json(const Snapshot& snap, const std::vector<MergedDevice>& devices) {
  Json arr = Json::array();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const MergedDevice& m = devices[i];
    Json j = {{"index", i},
              {"name", m.name},
              {"name_source", m.name_source},
              {"chip", m.chip},
              {"kind", to_string(m.kind)},
              {"software", m.software},
              {"pci_address", m.pci_address},
              {"vendor_id", m.vendor_id},
              {"device_id", m.device_id},
              {"uuid", m.uuid}};
    j["pci"] = m.pci ? Json(snap.pci->devices[*m.pci]) : Json(nullptr);
    auto listed = [&](std::string_view api, auto&& entry) {
      Json list = Json::array();
      for (auto i : m.in(api)) list.push_back(entry(i));
      j[std::string(api)] = std::move(list);
    };
    listed(kBackendOpenCl, [&](std::size_t i) {
      const auto [p, d] = *opencl_position(*snap.opencl, i);
      const auto& plat = snap.opencl->platforms[p];
      Json v = plat.devices[d];
      v["platform"] = plat.name;
      v["library"] = plat.library;
      return v;
    });
    listed(kBackendVulkan, [&](std::size_t i) { return Json(snap.vulkan->devices[i]); });
    listed(kBackendCuda, [&](std::size_t i) { return Json(snap.cuda->devices[i]); });
    listed(kBackendNvml, [&](std::size_t i) { return Json(snap.nvml->devices[i]); });
    j["macos"] =
        m.saw(kBackendMacos) ? Json(snap.macos->gpus[m.in(kBackendMacos).front()]) : Json(nullptr);
    listed(kApiKfd, [&](std::size_t i) { return Json(snap.rocm->nodes[i]); });
    listed(kApiHip, [&](std::size_t i) { return Json(snap.rocm->hip->devices[i]); });
    listed(kBackendMetal, [&](std::size_t i) { return Json(snap.metal->devices[i]); });
    arr.push_back(std::move(j));
  }
  return arr;
}

}  // namespace gpudoctor
