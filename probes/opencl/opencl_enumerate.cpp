#include "opencl/opencl_enumerate.hpp"

#include <cstdlib>

#include <algorithm>

#include "core/dynlib.hpp"
#include "opencl/opencl_api.hpp"
#include "opencl/opencl_info_reader.hpp"
#include "opencl_codes.hpp"
#include "text.hpp"

namespace gpudoctor::opencl {

namespace {

constexpr cl_uint kMaxWorkItemDimensions = 64;
constexpr std::size_t kProblemsShown = 3;

/// Makes the loader in this child see one ICD and nothing else.
/// ocl-icd (Debian, Ubuntu, Fedora): OCL_ICD_VENDORS that is neither a directory nor an .icd
/// file is dlopen'ed as the only ICD; it ignores OCL_ICD_FILENAMES before late 2025.
/// Khronos loader: OCL_ICD_VENDORS is only ever a directory, so a file there hides
/// /etc/OpenCL/vendors, and OCL_ICD_FILENAMES adds the one library. Layers are left out: this
/// probes drivers.
void restrict_loader_to(const std::string& library) {
  ::setenv("OCL_ICD_VENDORS", library.c_str(), 1);
  ::setenv("OCL_ICD_FILENAMES", library.c_str(), 1);
  ::setenv("OPENCL_LAYER_PATH", library.c_str(), 1);
  ::unsetenv("OPENCL_LAYERS");
}

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::optional<std::string> pci_bus_id(InfoReader& r, const std::vector<std::string>& ext) {
  if (has(ext, "cl_khr_pci_bus_info")) {
    cl_device_pci_bus_info_khr info{};
    if (r.bytes(CL_DEVICE_PCI_BUS_INFO_KHR, "CL_DEVICE_PCI_BUS_INFO_KHR", &info, sizeof info)) {
      auto id = pci_bus_id_text(info.pci_domain, info.pci_bus, info.pci_device, info.pci_function);
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
      if (auto d = r.value<cl_uint>(kDevicePciDomainIdNv, "CL_DEVICE_PCI_DOMAIN_ID_NV")) domain = *d;
      // The slot packs device and function as in a devfn byte.
      return pci_bus_id_text(domain, *bus & 0xff, (*slot >> 3) & 0x1f, *slot & 0x7);
    }
  }
  if (has(ext, "cl_amd_device_attribute_query")) {
    cl_device_topology_amd topo{};
    if (r.bytes(CL_DEVICE_TOPOLOGY_AMD, "CL_DEVICE_TOPOLOGY_AMD", &topo, sizeof topo) &&
        topo.raw.type == CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD) {
      // The AMD topology has no domain field.
      return pci_bus_id_text(0, static_cast<std::uint8_t>(topo.pcie.bus),
                             static_cast<std::uint8_t>(topo.pcie.device),
                             static_cast<std::uint8_t>(topo.pcie.function));
    }
  }
  return std::nullopt;
}

OpenClDevice read_device(const OpenClApi& api, cl_device_id id, const std::string& what,
                         QueryProblems& problems) {
  InfoReader r(
      [&](cl_uint p, std::size_t n, void* v, std::size_t* ret) {
        return api.get_device_info(id, p, n, v, ret);
      },
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
  d.max_clock_mhz = r.value<cl_uint>(CL_DEVICE_MAX_CLOCK_FREQUENCY, "CL_DEVICE_MAX_CLOCK_FREQUENCY");
  d.global_mem_bytes = r.value<cl_ulong>(CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");
  d.global_mem_cache_bytes =
      r.value<cl_ulong>(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
  d.local_mem_bytes = r.value<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
  if (auto t = r.value<cl_device_local_mem_type>(CL_DEVICE_LOCAL_MEM_TYPE,
                                                 "CL_DEVICE_LOCAL_MEM_TYPE")) {
    switch (*t) {
      case CL_LOCAL: d.local_mem_type = "local"; break;
      case CL_GLOBAL: d.local_mem_type = "global"; break;
      case CL_NONE: d.local_mem_type = "none"; break;
      default: r.implausible("CL_DEVICE_LOCAL_MEM_TYPE", "unknown value " + std::to_string(*t));
    }
  }
  d.constant_mem_bytes =
      r.value<cl_ulong>(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE");
  d.max_alloc_bytes = r.value<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  if (auto wg = r.value<std::size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE")) {
    d.max_work_group_size = *wg;
  }
  if (auto dims = r.value<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                                   "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS")) {
    if (*dims > kMaxWorkItemDimensions) {
      r.implausible("CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS", std::to_string(*dims) + " dimensions");
    } else if (auto s = r.sizes(CL_DEVICE_MAX_WORK_ITEM_SIZES, "CL_DEVICE_MAX_WORK_ITEM_SIZES",
                                *dims)) {
      d.max_work_item_sizes = std::move(*s);
    }
  }
  d.preferred_vector_width_float = r.value<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                                                    "CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT");
  d.unified_memory = r.boolean(CL_DEVICE_HOST_UNIFIED_MEMORY, "CL_DEVICE_HOST_UNIFIED_MEMORY");
  auto extensions = r.string(CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS");
  if (extensions) d.extensions = split_extensions(*extensions);
  auto double_config = r.value<cl_device_fp_config>(CL_DEVICE_DOUBLE_FP_CONFIG,
                                                    "CL_DEVICE_DOUBLE_FP_CONFIG");
  if (extensions || double_config) {
    d.fp64 = has(d.extensions, "cl_khr_fp64") || double_config.value_or(0) != 0;
    d.fp16 = has(d.extensions, "cl_khr_fp16");
  }
  d.pci_bus_id = pci_bus_id(r, d.extensions);
  if (has(d.extensions, "cl_khr_device_uuid")) {
    std::uint8_t uuid[CL_UUID_SIZE_KHR] = {};
    if (r.bytes(CL_DEVICE_UUID_KHR, "CL_DEVICE_UUID_KHR", uuid, sizeof uuid)) d.uuid = uuid_hex(uuid);
  }
  return d;
}

/// Handles as the driver gave them, without nulls and repeats (a lying count leaves gaps).
template <typename Handle>
std::vector<Handle> usable(std::vector<Handle> ids, const std::string& what,
                           QueryProblems& problems) {
  std::vector<Handle> out;
  bool nulls = false;
  for (Handle h : ids) {
    if (h == nullptr) {
      nulls = true;
    } else if (std::find(out.begin(), out.end(), h) == out.end()) {
      out.push_back(h);
    }
  }
  if (nulls) problems.implausible.push_back(what + " returned null handles");
  return out;
}

OpenClPlatform read_platform(const OpenClApi& api, cl_platform_id id, std::size_t index,
                             QueryProblems& problems) {
  const std::string what = "platform " + std::to_string(index);
  InfoReader r(
      [&](cl_uint p, std::size_t n, void* v, std::size_t* ret) {
        return api.get_platform_info(id, p, n, v, ret);
      },
      "clGetPlatformInfo", what, problems);
  OpenClPlatform p;
  p.name = r.string(CL_PLATFORM_NAME, "CL_PLATFORM_NAME");
  p.vendor = r.string(CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR");
  p.version = r.string(CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION");
  p.profile = r.string(CL_PLATFORM_PROFILE, "CL_PLATFORM_PROFILE");
  p.icd_suffix = r.string(CL_PLATFORM_ICD_SUFFIX_KHR, "CL_PLATFORM_ICD_SUFFIX_KHR");
  if (auto e = r.string(CL_PLATFORM_EXTENSIONS, "CL_PLATFORM_EXTENSIONS")) {
    p.extensions = split_extensions(*e);
  }

  cl_uint count = 0;
  cl_int rc = api.get_device_ids(id, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (rc == CL_DEVICE_NOT_FOUND) return p;
  if (rc != CL_SUCCESS) {
    problems.failed_calls.push_back(what + ": " + cl_call_failed("clGetDeviceIDs", rc));
    return p;
  }
  if (count > kMaxDevices) {
    problems.implausible.push_back(what + ": clGetDeviceIDs claims " + std::to_string(count) +
                                   " devices; read the first " + std::to_string(kMaxDevices));
    count = kMaxDevices;
  }
  std::vector<cl_device_id> ids(count, nullptr);
  rc = api.get_device_ids(id, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr);
  if (rc != CL_SUCCESS) {
    problems.failed_calls.push_back(what + ": " + cl_call_failed("clGetDeviceIDs", rc));
    return p;
  }
  ids = usable(std::move(ids), what + ": clGetDeviceIDs", problems);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    p.devices.push_back(read_device(api, ids[i], what + " device " + std::to_string(i), problems));
  }
  return p;
}

std::optional<std::string> loader_string(const OpenClApi& api, cl_uint param, const char* name) {
  auto* fn = reinterpret_cast<GetIcdLoaderInfoFn>(
      api.get_extension_function_address("clGetICDLoaderInfoOCLICD"));
  if (fn == nullptr) return std::nullopt;
  QueryProblems ignored;
  InfoReader r(fn, "clGetICDLoaderInfoOCLICD", "loader", ignored);
  return r.string(param, name);
}

std::string summary(const std::vector<std::string>& items) {
  std::vector<std::string> shown(items.begin(),
                                 items.begin() + std::min(items.size(), kProblemsShown));
  std::string s = join(shown, "; ");
  if (items.size() > shown.size()) s += " (and " + std::to_string(items.size() - shown.size()) + " more)";
  return s;
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

JobReport probe_icd(const std::string& library) {
  IcdReport rep;
  auto report = [&](ProbeStatus status, const std::string& detail) {
    if (status != ProbeStatus::ok && !rep.error) rep.error = detail;
    JobReport j;
    j.status = status;
    j.detail = library + ": " + detail;
    j.data = rep;
    return j;
  };
  restrict_loader_to(library);

  std::string err;
  auto icd = DynamicLibrary::open(library, &err);
  if (!icd) {
    rep.loads = false;
    return report(ProbeStatus::failed, "dlopen failed: " + err);
  }
  using GetAddressFn = void*(const char*);
  auto* get_address = icd->symbol<GetAddressFn>("clGetExtensionFunctionAddress");
  if (get_address == nullptr) {
    rep.loads = false;
    return report(ProbeStatus::failed,
                  "does not export clGetExtensionFunctionAddress, so no OpenCL loader takes it "
                  "as an ICD");
  }
  auto* get_icd_platforms =
      reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(get_address("clIcdGetPlatformIDsKHR"));
  if (get_icd_platforms == nullptr) {
    get_icd_platforms = reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(
        icd->symbol<void()>("clIcdGetPlatformIDsKHR"));
  }
  if (get_icd_platforms == nullptr) {
    rep.loads = false;
    return report(ProbeStatus::failed, "has no clIcdGetPlatformIDsKHR: not an OpenCL ICD");
  }
  cl_uint count = 0;
  cl_int rc = get_icd_platforms(0, nullptr, &count);
  if (rc != CL_SUCCESS) {
    rep.loads = false;
    return report(ProbeStatus::failed, cl_call_failed("clIcdGetPlatformIDsKHR", rc));
  }
  rep.loads = true;
  if (count > kMaxPlatforms) {
    // The loader would believe it and allocate that many; do not hand the ICD over.
    return report(ProbeStatus::failed, "clIcdGetPlatformIDsKHR claims " + std::to_string(count) +
                                           " platforms");
  }
  if (count == 0) return report(ProbeStatus::missing, "loads but reports no platforms");

  auto loader = DynamicLibrary::open("libOpenCL.so.1", &err);
  if (!loader) {
    return report(ProbeStatus::failed, "the ICD loader libOpenCL.so.1 cannot be opened: " + err);
  }
  std::string missing;
  auto api = OpenClApi::load(*loader, &missing);
  if (!api) return report(ProbeStatus::failed, "libOpenCL.so.1 has no " + missing);

  rc = api->get_platform_ids(0, nullptr, &count);
  if (rc != CL_SUCCESS) {
    return report(ProbeStatus::failed,
                  cl_call_failed("clGetPlatformIDs", rc) +
                      ": the loader did not take this ICD (ocl-icd skips one whose platforms do "
                      "not list cl_khr_icd or answer CL_PLATFORM_ICD_SUFFIX_KHR)");
  }
  QueryProblems problems;
  if (count > kMaxPlatforms) {
    problems.implausible.push_back("clGetPlatformIDs claims " + std::to_string(count) +
                                   " platforms; read the first " + std::to_string(kMaxPlatforms));
    count = kMaxPlatforms;
  }
  std::vector<cl_platform_id> ids(count, nullptr);
  rc = api->get_platform_ids(count, ids.data(), nullptr);
  if (rc != CL_SUCCESS) return report(ProbeStatus::failed, cl_call_failed("clGetPlatformIDs", rc));
  ids = usable(std::move(ids), "clGetPlatformIDs", problems);

  std::size_t devices = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    rep.platforms.push_back(read_platform(*api, ids[i], i, problems));
    devices += rep.platforms.back().devices.size();
  }
  rep.loader_name = loader_string(*api, kIcdLoaderName, "CL_ICDL_NAME");
  rep.loader_version = loader_string(*api, kIcdLoaderVersion, "CL_ICDL_VERSION");

  if (!problems.implausible.empty()) {
    return report(ProbeStatus::failed,
                  "answered implausibly: " + summary(problems.implausible));
  }
  std::string detail = plural(rep.platforms.size(), "platform") + ", " + plural(devices, "device");
  if (!problems.failed_calls.empty()) {
    detail += "; " + std::to_string(problems.failed_calls.size()) + " of its answers unknown: " +
              summary(problems.failed_calls);
  }
  return report(ProbeStatus::ok, detail);
}

}  // namespace gpudoctor::opencl
