// Each backend's identity projection: its devices as the merge sees them (src/devices.hpp
// DeviceList), and each device as JSON for `query --json`. The registry rows in backends.cpp
// name these; the merge itself knows no backend.
#include "device_lists.hpp"

#include "backends.hpp"
#include "text.hpp"

namespace gpudoctor::device_lists {

namespace {

constexpr std::uint32_t kListsVendorNvidia = 0x10de;
constexpr std::uint32_t kListsVendorAmd = 0x1002;
constexpr std::uint32_t kVkDriverIdMesaLlvmpipe = 13;

DeviceKind kind_from_pci_class(std::uint32_t class_code) {
  switch (class_code >> 16) {
    case 0x03: return DeviceKind::gpu;
    case 0x12: return DeviceKind::accelerator;
    case 0x0b: return DeviceKind::accelerator;  // co-processor
    default: return DeviceKind::other;
  }
}

void pci_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.pci) return;
  for (std::size_t i = 0; i < snap.pci->devices.size(); ++i) {
    const PciDevice& p = snap.pci->devices[i];
    DeviceIdentity id;
    id.position = i;
    id.pci_address = p.address;
    id.vendor_id = p.vendor_id;
    id.device_id = p.device_id;
    id.fallback_name = "PCI device " + hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4);
    id.kind = kind_from_pci_class(p.class_code);
    out.push_back(std::move(id));
  }
}

/// A GPU from system_profiler: on a Mac the only list of the hardware, joined to a PCI entry
/// (vendor and device id) only where a snapshot has both.
void macos_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.macos) return;
  for (std::size_t i = 0; i < snap.macos->gpus.size(); ++i) {
    const MacGpu& g = snap.macos->gpus[i];
    DeviceIdentity id;
    id.position = i;
    id.vendor_id = g.vendor_id;
    id.device_id = g.device_id;
    id.name = g.name;
    id.fallback_name = "GPU";
    out.push_back(std::move(id));
  }
}

/// A CUDA or NVML device: always a GPU, always NVIDIA, usually with a PCI address.
template <typename Device>
DeviceIdentity nvidia_identity(std::size_t i, const Device& d) {
  DeviceIdentity id;
  id.position = i;
  id.pci_address = d.pci_bus_id;
  id.uuid = d.uuid;
  id.vendor_id = kListsVendorNvidia;
  id.name = d.name;
  id.fallback_name = "NVIDIA GPU";
  return id;
}

void nvml_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.nvml) return;
  for (std::size_t i = 0; i < snap.nvml->devices.size(); ++i) {
    const NvmlDevice& d = snap.nvml->devices[i];
    DeviceIdentity id = nvidia_identity(i, d);
    if (d.pci_device_id) id.device_id = *d.pci_device_id >> 16;  // NVML packs device, vendor
    out.push_back(std::move(id));
  }
}

void cuda_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.cuda) return;
  for (std::size_t i = 0; i < snap.cuda->devices.size(); ++i) {
    out.push_back(nvidia_identity(i, snap.cuda->devices[i]));
  }
}

/// KFD nodes: AMD GPUs named by their gfx target until pci.ids or HIP names them.
void kfd_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.rocm) return;
  for (std::size_t i = 0; i < snap.rocm->nodes.size(); ++i) {
    const KfdNode& n = snap.rocm->nodes[i];
    DeviceIdentity id;
    id.position = i;
    id.pci_address = n.pci_address;
    id.vendor_id = kListsVendorAmd;
    id.device_id = n.device_id;
    id.name = "AMD GPU" + (n.gfx_target ? " (" + *n.gfx_target + ")" : "");
    out.push_back(std::move(id));
  }
}

void hip_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.rocm || !snap.rocm->hip) return;
  for (std::size_t i = 0; i < snap.rocm->hip->devices.size(); ++i) {
    const HipDevice& d = snap.rocm->hip->devices[i];
    DeviceIdentity id;
    id.position = i;
    id.pci_address = d.pci_bus_id;
    id.vendor_id = kListsVendorAmd;
    id.name = d.name;
    id.fallback_name = "AMD GPU";
    out.push_back(std::move(id));
  }
}

void vulkan_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.vulkan) return;
  for (std::size_t i = 0; i < snap.vulkan->devices.size(); ++i) {
    const VulkanDevice& v = snap.vulkan->devices[i];
    DeviceIdentity id;
    id.position = i;
    id.software = v.type == std::optional<std::string>("cpu") ||
                  v.driver_id == std::optional<std::uint32_t>(kVkDriverIdMesaLlvmpipe);
    id.pci_address = v.pci_bus_id;
    id.uuid = v.device_uuid;
    id.vendor_id = v.vendor_id;
    id.device_id = v.device_id;
    id.name = v.name;
    id.fallback_name = "Vulkan device";
    id.kind = v.type == std::optional<std::string>("other") ? DeviceKind::other : DeviceKind::gpu;
    out.push_back(std::move(id));
  }
}

/// Metal's devices carry no PCI address or registry id system_profiler shows: they join its
/// GPU by name (DeviceList::joins_by_name_in).
void metal_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.metal) return;
  for (std::size_t i = 0; i < snap.metal->devices.size(); ++i) {
    DeviceIdentity id;
    id.position = i;
    id.name = snap.metal->devices[i].name;
    id.fallback_name = "Metal device";
    out.push_back(std::move(id));
  }
}

/// OpenCL's devices, numbered across platforms (opencl_position).
void opencl_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.opencl) return;
  std::size_t flat = 0;
  for (const auto& platform : snap.opencl->platforms) {
    for (const OpenClDevice& c : platform.devices) {
      DeviceIdentity id;
      id.position = flat++;
      id.software = c.type == std::optional<std::string>("CPU");
      id.pci_address = c.pci_bus_id;
      id.uuid = c.uuid;
      id.vendor_id = c.vendor_id;
      id.name = c.name;
      id.fallback_name = "OpenCL device";
      id.kind = c.type == std::optional<std::string>("GPU") ? DeviceKind::gpu
                                                             : DeviceKind::accelerator;
      out.push_back(std::move(id));
    }
  }
}

Json opencl_json(const Snapshot& snap, std::size_t i) {
  const auto [p, d] = *opencl_position(*snap.opencl, i);
  const auto& plat = snap.opencl->platforms[p];
  Json v = plat.devices[d];
  v["platform"] = plat.name;
  v["library"] = plat.library;
  return v;
}

/// A device list's JSON: the device at that position of a section's list.
template <auto Section, auto List>
Json listed_json(const Snapshot& snap, std::size_t i) {
  return Json(((*(snap.*Section)).*List)[i]);
}

Json hip_json(const Snapshot& snap, std::size_t i) { return Json(snap.rocm->hip->devices[i]); }

DeviceList list_of(std::string_view api, int order, NameRank rank,
                   void (*identities)(const Snapshot&, std::vector<DeviceIdentity>&),
                   Json (*json)(const Snapshot&, std::size_t)) {
  DeviceList l;
  l.api = api;
  l.order = order;
  l.rank = rank;
  l.identities = identities;
  l.json = json;
  return l;
}

}  // namespace

std::vector<DeviceList> pci() {
  DeviceList l = list_of(kBackendPci, kJoinHardware, NameRank::kPlaceholder, pci_identities, nullptr);
  l.pci_list = true;
  return {l};
}

std::vector<DeviceList> macos() {
  DeviceList l = list_of(kBackendMacos, kJoinHardware + 10, NameRank::kKept, macos_identities,
                         listed_json<&Snapshot::macos, &MacosInfo::gpus>);
  l.name_source = "system_profiler";
  l.json_first_only = true;
  l.one_per_device = true;
  return {l};
}

std::vector<DeviceList> nvml() {
  DeviceList l = list_of(kBackendNvml, kJoinDriver, NameRank::kNvml, nvml_identities,
                         listed_json<&Snapshot::nvml, &NvmlInfo::devices>);
  l.joins_on_ids = false;
  l.fills_device_id = true;
  return {l};
}

std::vector<DeviceList> cuda() {
  DeviceList l = list_of(kBackendCuda, kJoinDriver + 10, NameRank::kCuda, cuda_identities,
                         listed_json<&Snapshot::cuda, &CudaInfo::devices>);
  l.joins_on_ids = false;
  return {l};
}

std::vector<DeviceList> rocm() {
  DeviceList kfd = list_of(kApiKfd, kJoinDriver + 20, NameRank::kPlaceholder, kfd_identities,
                           listed_json<&Snapshot::rocm, &RocmInfo::nodes>);
  kfd.one_per_device = true;
  return {kfd, list_of(kApiHip, kJoinDriver + 30, NameRank::kHip, hip_identities, hip_json)};
}

std::vector<DeviceList> vulkan() {
  return {list_of(kBackendVulkan, kJoinApi, NameRank::kVulkan, vulkan_identities,
                  listed_json<&Snapshot::vulkan, &VulkanInfo::devices>)};
}

std::vector<DeviceList> metal() {
  DeviceList l = list_of(kBackendMetal, kJoinApi + 10, NameRank::kKept, metal_identities,
                         listed_json<&Snapshot::metal, &MetalInfo::devices>);
  l.joins_by_name_in = kBackendMacos;
  return {l};
}

std::vector<DeviceList> opencl() {
  return {list_of(kBackendOpenCl, kJoinApi + 20, NameRank::kOpenCl, opencl_identities, opencl_json)};
}

}  // namespace gpudoctor::device_lists
