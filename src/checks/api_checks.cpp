// OpenCL and Vulkan: are drivers registered, do they load, and do they reach the GPU or only
// fall back to the CPU.
#include <algorithm>

#include "checks/area_status.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

namespace {

/// Which package brings this vendor's driver for the API, on Debian/Ubuntu.
std::string driver_package(std::uint16_t vendor, bool vulkan) {
  switch (vendor) {
    case kPciVendorNvidia:
      return vulkan ? "the NVIDIA driver's Vulkan ICD (Debian: nvidia-vulkan-icd; Ubuntu: "
                      "libnvidia-gl-<version>)"
                    : "the NVIDIA driver's OpenCL ICD (Debian: nvidia-opencl-icd; Ubuntu: "
                      "libnvidia-compute-<version>)";
    case kPciVendorAmd:
      return vulkan ? "mesa-vulkan-drivers (RADV)" : "mesa-opencl-icd (rusticl) or ROCm's OpenCL";
    case kPciVendorIntel:
      return vulkan ? "mesa-vulkan-drivers (ANV)" : "intel-opencl-icd";
    default:
      return "the GPU vendor's driver";
  }
}

bool has_hardware_device(const CheckInput& in, bool vulkan) {
  return std::any_of(in.devices.begin(), in.devices.end(), [&](const MergedDevice& m) {
    return !m.software && (vulkan ? !m.vulkan.empty() : !m.opencl.empty());
  });
}

std::size_t software_devices(const CheckInput& in, bool vulkan) {
  std::size_t n = 0;
  for (const auto& m : in.devices) {
    if (m.software) n += vulkan ? m.vulkan.size() : m.opencl.size();
  }
  return n;
}

/// Whether the GPU is usable at all (a driver is bound), so an API fallback is the API's fault.
std::vector<const PciDevice*> bound_gpus(const Snapshot& s) {
  std::vector<const PciDevice*> out;
  for (const PciDevice* p : pci_gpus(s)) {
    if (p->driver && *p->driver != "vfio-pci" && *p->driver != "pci-stub") out.push_back(p);
  }
  return out;
}

void software_only(const CheckSpec& self, const CheckInput& in, bool vulkan,
                   std::vector<Finding>& out) {
  auto gpus = bound_gpus(in.snap);
  if (gpus.empty() || has_hardware_device(in, vulkan)) return;
  // A driver that crashed or hung is the cause probe.* names; it may be the GPU's own.
  if (probe_went_wrong(in.snap, vulkan ? "vulkan" : "opencl")) return;
  const char* api = vulkan ? "Vulkan" : "OpenCL";
  std::size_t sw = software_devices(in, vulkan);
  Finding f = make_finding(self, Severity::warn,
                           std::string(api) + (sw > 0 ? " runs only on the CPU (" +
                                                            std::string(vulkan ? "llvmpipe/lavapipe"
                                                                               : "a CPU driver") +
                                                            ") although a GPU is present"
                                                      : " sees no device although a GPU is "
                                                        "present"));
  for (const PciDevice* p : gpus) {
    f.evidence.push_back("GPU " + pci_label(*p) + " (driver " + p->driver.value_or("?") + ")");
  }
  f.fix = "install " + driver_package(gpus.front()->vendor_id, vulkan) +
          "; if it is installed, check that this user can open /dev/dri/renderD* (group render)";
  out.push_back(std::move(f));
}

/// A platform whose driver loaded but offered no device: PoCL does so when it has no writable
/// cache directory (HOME unwritable or absent, as for a service account).
void opencl_platforms_without_devices(const CheckSpec& self, const CheckInput& in,
                                      std::vector<Finding>& out) {
  if (!in.snap.live) return;
  for (const auto& plat : in.snap.opencl->platforms) {
    if (!plat.devices.empty()) continue;
    const std::string name = plat.name.value_or("an OpenCL platform");
    Finding f = make_finding(self, Severity::warn,
                             "OpenCL platform " + name + " (" + plat.library +
                                 ") loads but offers no device: programs see it and cannot run");
    f.id = "opencl.no_device";
    f.evidence.push_back("clGetDeviceIDs(" + name + ", CL_DEVICE_TYPE_ALL): 0 devices");
    const bool pocl = name.find("Portable Computing Language") != std::string::npos ||
                      plat.library.find("pocl") != std::string::npos;
    if (pocl) {
      f.fix = "PoCL compiles kernels into a cache directory ($POCL_CACHE_DIR, else "
              "$XDG_CACHE_HOME/pocl or $HOME/.cache/pocl) and offers no device when it cannot "
              "write one: export POCL_CACHE_DIR=<a writable directory>, or give this user a "
              "writable HOME";
      f.source = "https://portablecl.org/docs/html/using.html";
    } else {
      f.fix = "run clinfo as this user to see the driver's own error; reinstall the package "
              "that owns " + plat.library + " (dpkg -S " + plat.library + ")";
    }
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_opencl_icds(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.opencl) return;
  const OpenClInfo& cl = *in.snap.opencl;
  if (cl.icds.empty()) {
    // Without the ICD loader nothing uses OpenCL here: that is a fact, not a fault.
    auto gpus = bound_gpus(in.snap);
    const bool loader = cl.loader.has_value();
    Finding f = make_finding(self, gpus.empty() || !loader ? Severity::info : Severity::warn,
                             loader ? "No OpenCL driver is registered: clinfo shows 0 platforms "
                                      "and programs get CL_PLATFORM_NOT_FOUND_KHR (-1001)"
                                    : "OpenCL is not installed (no ICD loader, no driver)");
    f.id = "opencl.no_icd";
    f.evidence.push_back("no .icd files in " +
                         (cl.vendors_dir.empty() ? std::string("/etc/OpenCL/vendors")
                                                 : cl.vendors_dir));
    f.fix = "install " + (gpus.empty() ? std::string("pocl-opencl-icd (OpenCL on the CPU)")
                                       : driver_package(gpus.front()->vendor_id, false));
    out.push_back(std::move(f));
    return;
  }
  opencl_platforms_without_devices(self, in, out);
  for (const auto& icd : cl.icds) {
    if (!icd.error && icd.loads != std::optional<bool>(false)) continue;
    Finding f = make_finding(self, Severity::warn,
                             "OpenCL ICD " + icd.file.value_or(icd.source) + " is unusable: " +
                                 icd.error.value_or("its library does not load"));
    f.id = "opencl.icd_broken";
    f.evidence.push_back("library: " + icd.library);
    f.fix = "reinstall the package that owns " + icd.file.value_or(icd.library) +
            " (dpkg -S " + icd.file.value_or(icd.library) + "), or remove the stale .icd file";
    out.push_back(std::move(f));
  }
}

void check_opencl_cpu_only(const CheckSpec& self, const CheckInput& in,
                           std::vector<Finding>& out) {
  if (!in.snap.opencl || in.snap.opencl->icds.empty() || !in.snap.live) return;
  software_only(self, in, false, out);
}

void check_vulkan_manifests(const CheckSpec& self, const CheckInput& in,
                            std::vector<Finding>& out) {
  if (!in.snap.vulkan) return;
  const VulkanInfo& vk = *in.snap.vulkan;
  if (vk.manifests.empty()) {
    auto gpus = bound_gpus(in.snap);
    const bool loader = vk.loader.has_value();
    Finding f = make_finding(self, gpus.empty() || !loader ? Severity::info : Severity::warn,
                             loader ? "No Vulkan driver manifest is installed: vkCreateInstance "
                                      "fails with VK_ERROR_INCOMPATIBLE_DRIVER"
                                    : "Vulkan is not installed (no loader, no driver)");
    f.id = "vulkan.no_driver";
    f.fix = "install " + (gpus.empty() ? std::string("mesa-vulkan-drivers (lavapipe, on the CPU)")
                                       : driver_package(gpus.front()->vendor_id, true));
    out.push_back(std::move(f));
    return;
  }
  for (const auto& m : vk.manifests) {
    if (!m.error) continue;
    Finding f = make_finding(self, Severity::warn,
                             "Vulkan driver manifest " + m.file + " is unusable: " + *m.error);
    f.id = "vulkan.manifest_broken";
    if (m.library_path) f.evidence.push_back("library_path: " + *m.library_path);
    f.fix = "reinstall the package that owns it (dpkg -S " + m.file +
            "), or remove the stale manifest";
    out.push_back(std::move(f));
  }
}

void check_vulkan_software_only(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  if (!in.snap.vulkan || !in.snap.live) return;
  software_only(self, in, true, out);
}

}  // namespace gpudoctor
