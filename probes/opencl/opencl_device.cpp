#include "opencl/opencl_device.hpp"

#include <algorithm>

#include "api/pci/gpu_ids.hpp"
#include "api/opencl/opencl_codes.hpp"
#include "text.hpp"

namespace gpudoctor::opencl {

namespace {

constexpr cl_uint kMaxWorkItemDimensions = 64;

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::optional<std::string> pci_bus_id(InfoReader& r, const std::vector<std::string>& ext) {
  if (has(ext, "cl_khr_pci_bus_info")) {
    cl_device_pci_bus_info_khr info{};
    if (r.bytes(CL_DEVICE_PCI_BUS_INFO_KHR, "CL_DEVICE_PCI_BUS_INFO_KHR", &info, sizeof info)) {
      auto id = pci_address(info.pci_domain, info.pci_bus, info.pci_device, info.pci_function);
      if (!id) r.implausible("CL_DEVICE_PCI_BUS_INFO_KHR", "not a PCI address");
      return id;
    }
  }
  if (has(ext, "cl_nv_device_attribute_query")) {
    auto bus = r.value<cl_uint>(kDevicePciBusIdNv, "CL_DEVICE_PCI_BUS_ID_NV");
    auto slot = r.value<cl_uint>(kDevicePciSlotIdNv, "CL_DEVICE_PCI_SLOT_ID_NV");
    if (bus && slot) {
      // Older drivers lack the domain query; they predate multi-domain NVIDIA systems.
      cl_uint domain = 0;
      if (auto d = r.value<cl_uint>(kDevicePciDomainIdNv, "CL_DEVICE_PCI_DOMAIN_ID_NV"))
        domain = *d;
      // The slot packs device and function as in a devfn byte.
      return pci_address(domain, *bus & 0xff, (*slot >> 3) & 0x1f, *slot & 0x7);
    }
  }
  if (has(ext, "cl_amd_device_attribute_query")) {
    cl_device_topology_amd topo{};
    if (r.bytes(CL_DEVICE_TOPOLOGY_AMD, "CL_DEVICE_TOPOLOGY_AMD", &topo, sizeof topo) &&
        topo.raw.type == CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD) {
      // The AMD topology has no domain field.
      return pci_address(0, static_cast<std::uint8_t>(topo.pcie.bus),
                             static_cast<std::uint8_t>(topo.pcie.device),
                             static_cast<std::uint8_t>(topo.pcie.function));
    }
  }
  return std::nullopt;
}

}  // namespace

OpenClDevice read_device(const OpenClApi& api, cl_device_id id, const std::string& what,
                         QueryProblems& problems) {
  InfoReader r([&](cl_uint p, std::size_t n, void* v,
                   std::size_t* ret) { return api.get_device_info(id, p, n, v, ret); },
               "clGetDeviceInfo", what, problems);
  OpenClDevice d;
  d.name = r.string(CL_DEVICE_NAME, "CL_DEVICE_NAME");
  d.vendor = r.string(CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR");
  d.vendor_id = r.value<cl_uint>(CL_DEVICE_VENDOR_ID, "CL_DEVICE_VENDOR_ID");
  if (auto t = r.value<cl_device_type>(CL_DEVICE_TYPE, "CL_DEVICE_TYPE")) {
    d.type = cl_device_type_name(*t);
    if (!d.type) r.implausible("CL_DEVICE_TYPE", "no known type bit in 0x" + hex(*t, 1));
  }
  d.version = r.string(CL_DEVICE_VERSION, "CL_DEVICE_VERSION");
  d.driver_version = r.string(CL_DRIVER_VERSION, "CL_DRIVER_VERSION");
  d.opencl_c_version = r.string(CL_DEVICE_OPENCL_C_VERSION, "CL_DEVICE_OPENCL_C_VERSION");
  d.profile = r.string(CL_DEVICE_PROFILE, "CL_DEVICE_PROFILE");
  d.available = r.boolean(CL_DEVICE_AVAILABLE, "CL_DEVICE_AVAILABLE");
  d.compiler_available = r.boolean(CL_DEVICE_COMPILER_AVAILABLE, "CL_DEVICE_COMPILER_AVAILABLE");
  d.compute_units = r.value<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS");
  d.max_clock_mhz =
      r.value<cl_uint>(CL_DEVICE_MAX_CLOCK_FREQUENCY, "CL_DEVICE_MAX_CLOCK_FREQUENCY");
  d.global_mem_bytes = r.value<cl_ulong>(CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");
  d.global_mem_cache_bytes =
      r.value<cl_ulong>(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
  d.local_mem_bytes = r.value<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
  if (auto t =
          r.value<cl_device_local_mem_type>(CL_DEVICE_LOCAL_MEM_TYPE, "CL_DEVICE_LOCAL_MEM_TYPE")) {
    switch (*t) {
      case CL_LOCAL:
        d.local_mem_type = "local";
        break;
      case CL_GLOBAL:
        d.local_mem_type = "global";
        break;
      case CL_NONE:
        d.local_mem_type = "none";
        break;
      default:
        r.implausible("CL_DEVICE_LOCAL_MEM_TYPE", "unknown value " + std::to_string(*t));
    }
  }
  d.constant_mem_bytes =
      r.value<cl_ulong>(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE");
  d.max_alloc_bytes =
      r.value<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  if (auto wg =
          r.value<std::size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE")) {
    d.max_work_group_size = *wg;
  }
  if (auto dims = r.value<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                                   "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS")) {
    if (*dims > kMaxWorkItemDimensions) {
      r.implausible("CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS", std::to_string(*dims) + " dimensions");
    } else if (auto s =
                   r.sizes(CL_DEVICE_MAX_WORK_ITEM_SIZES, "CL_DEVICE_MAX_WORK_ITEM_SIZES", *dims)) {
      d.max_work_item_sizes = std::move(*s);
    }
  }
  d.preferred_vector_width_float = r.value<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                                                    "CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT");
  d.unified_memory = r.boolean(CL_DEVICE_HOST_UNIFIED_MEMORY, "CL_DEVICE_HOST_UNIFIED_MEMORY");
  auto extensions = r.string(CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS");
  if (extensions) d.extensions = split_extensions(*extensions);
  auto double_config =
      r.value<cl_device_fp_config>(CL_DEVICE_DOUBLE_FP_CONFIG, "CL_DEVICE_DOUBLE_FP_CONFIG");
  if (extensions || double_config) {
    d.fp64 = has(d.extensions, "cl_khr_fp64") || double_config.value_or(0) != 0;
    d.fp16 = has(d.extensions, "cl_khr_fp16");
  }
  d.pci_bus_id = pci_bus_id(r, d.extensions);
  if (has(d.extensions, "cl_khr_device_uuid")) {
    std::uint8_t uuid[CL_UUID_SIZE_KHR] = {};
    if (r.bytes(CL_DEVICE_UUID_KHR, "CL_DEVICE_UUID_KHR", uuid, sizeof uuid))
      d.uuid = uuid_hex(uuid);
  }
  return d;
}

}  // namespace gpudoctor::opencl
