// OpenCL and Vulkan: are drivers registered, do they load, and do they reach the GPU or only
// fall back to the CPU.
#include <algorithm>

#include "backends.hpp"
#include "checks/area_status.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "api/vulkan/vulkan_search.hpp"
#include "compat/compat_query.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// Which package brings this vendor's driver for the API, on this distribution.
std::string driver_package(const Snapshot& s, std::uint16_t vendor, bool vulkan) {
  switch (vendor) {
    case kPciVendorNvidia:
      return vulkan ? "the NVIDIA driver's Vulkan ICD (" +
                          nvidia_userspace_package(s, "nvidia-vulkan-icd", "libnvidia-gl") + ")"
                    : "the NVIDIA driver's OpenCL ICD (" +
                          nvidia_userspace_package(s, "nvidia-opencl-icd", "libnvidia-compute") +
                          ")";
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
    return !m.software && m.saw(vulkan ? kBackendVulkan : kBackendOpenCl);
  });
}

std::size_t software_devices(const CheckInput& in, bool vulkan) {
  std::size_t n = 0;
  for (const auto& m : in.devices) {
    if (m.software) n += m.in(vulkan ? kBackendVulkan : kBackendOpenCl).size();
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

/// The vendor of this machine's GPU as any backend saw it: a bound PCI GPU first, else a
/// hardware device some API showed (NVML, CUDA, HIP, system_profiler), else a loaded nvidia or
/// nouveau kernel module. A tree without the PCI list still has a GPU whose driver to name.
std::optional<std::uint16_t> gpu_vendor(const CheckInput& in) {
  auto gpus = bound_gpus(in.snap);
  if (!gpus.empty()) return gpus.front()->vendor_id;
  for (const auto& m : in.devices) {
    if (!m.software && m.vendor_id) return static_cast<std::uint16_t>(*m.vendor_id);
  }
  if (in.snap.nvidia) {
    const NvidiaKernel& k = in.snap.nvidia->kernel;
    // nvidia or nouveau loaded: both drive only NVIDIA GPUs.
    const bool nvidia_module =
        k.module_version || std::any_of(k.loaded_modules.begin(), k.loaded_modules.end(),
                                        [](const std::string& m) {
                                          return m == "nvidia" || m == "nouveau";
                                        });
    if (nvidia_module) return kPciVendorNvidia;
  }
  return std::nullopt;
}

/// What to install when an API has no driver at all: the GPU's own, else a CPU one.
std::string missing_driver_package(const CheckInput& in, bool vulkan) {
  if (auto vendor = gpu_vendor(in)) return driver_package(in.snap, *vendor, vulkan);
  return vulkan ? "mesa-vulkan-drivers (lavapipe, on the CPU)" : "pocl-opencl-icd (OpenCL on the CPU)";
}

void software_only(const CheckSpec& self, const CheckInput& in, bool vulkan,
                   std::vector<Finding>& out) {
  auto gpus = bound_gpus(in.snap);
  if (gpus.empty() || has_hardware_device(in, vulkan)) return;
  // A driver that crashed or hung is the cause probe.* names; it may be the GPU's own.
  if (probe_went_wrong(in.snap, vulkan ? "vulkan" : "opencl")) return;
  const char* api = vulkan ? "Vulkan" : "OpenCL";
  if (vulkan && !in.snap.vulkan->loader && !in.snap.vulkan->manifests.empty()) {
    // Seen on a real H200 in a CUDA container: the driver's manifest is mounted, the loader
    // that reads it is not installed, so no program gets a Vulkan device.
    Finding f = make_finding(self, Severity::warn,
                             "Vulkan cannot run: the Vulkan loader (libvulkan.so.1) is not "
                             "installed, though a driver manifest is");
    for (const auto& m : in.snap.vulkan->manifests) {
      f.evidence.push_back("driver manifest " + m.file + " → " +
                           m.library_path.value_or("?"));
    }
    for (const PciDevice* p : gpus) {
      f.evidence.push_back("GPU " + pci_label(*p) + " (driver " + p->driver.value_or("?") + ")");
    }
    f.fix = "install the Vulkan loader: libvulkan1 (Debian, Ubuntu), vulkan-loader (Fedora), "
            "vulkan-icd-loader (Arch)";
    out.push_back(std::move(f));
    return;
  }
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
  f.fix = "install " + driver_package(in.snap, gpus.front()->vendor_id, vulkan) +
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
    const bool rusticl = name == "rusticl" || plat.library.find("Rusticl") != std::string::npos;
    if (rusticl) {
      f.evidence.push_back("RUSTICL_ENABLE: " + in.snap.opencl->rusticl_enable.value_or("unset"));
      f.fix = "Mesa's rusticl offers devices only for the Gallium drivers RUSTICL_ENABLE names: "
              "export RUSTICL_ENABLE=radeonsi (AMD), iris (Intel) or nouveau, and keep it in "
              "~/.config/environment.d/ or /etc/environment";
      f.source = "https://docs.mesa3d.org/rusticl.html";
    } else if (pocl) {
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

/// Drivers that run only on the CPU, by their library's file name: Mesa's lavapipe
/// (src/gallium/targets/lavapipe builds libvulkan_lvp.so, its manifest lvp_icd.*.json),
/// SwiftShader (vk_swiftshader_icd.json names ./libvk_swiftshader.so,
/// https://github.com/google/swiftshader) and PoCL (pocl.icd names libpocl.so.2,
/// https://github.com/pocl/pocl).
struct CpuDriver {
  std::string_view library;  ///< a prefix of the file name
  std::string_view name;
};
constexpr CpuDriver kCpuVulkanDrivers[] = {{"libvulkan_lvp.so", "lavapipe"},
                                           {"libvk_swiftshader.so", "SwiftShader"}};
constexpr CpuDriver kCpuOpenClDrivers[] = {{"libpocl.so", "PoCL"}};

/// "libRusticlOpenCL.so.1" of "/usr/lib64/libRusticlOpenCL.so.1": a driver library's file name.
std::string library_file(const std::string& library) {
  return library.substr(library.rfind('/') + 1);
}

std::optional<std::string_view> cpu_driver(const std::string& library, bool vulkan) {
  const std::string file = library_file(library);
  for (const CpuDriver& d : kCpuVulkanDrivers) {
    if (vulkan && starts_with(file, d.library)) return d.name;
  }
  for (const CpuDriver& d : kCpuOpenClDrivers) {
    if (!vulkan && starts_with(file, d.library)) return d.name;
  }
  return std::nullopt;
}


/// Whether a GPU driver library can reach one of these GPUs; unknown libraries may.
bool reaches_a_gpu(const std::string& library, const std::vector<const PciDevice*>& gpus) {
  const std::string file = library.substr(library.rfind('/') + 1);
  for (const auto& d : mesa_gpu_drivers()) {
    if (!starts_with(file, d.library)) continue;
    return std::any_of(gpus.begin(), gpus.end(), [&](const PciDevice* p) {
      return p->vendor_id == d.vendor && p->driver &&
             (*p->driver == d.kernel[0] || (!d.kernel[1].empty() && *p->driver == d.kernel[1]));
    });
  }
  return true;
}

/// The fix for an AMD GPU that the radeon kernel driver holds: no Vulkan driver reaches it.
std::optional<std::string> radeon_fix(const CheckInput& in,
                                      const std::vector<const PciDevice*>& gpus) {
  for (const PciDevice* p : gpus) {
    if (p->vendor_id != kPciVendorAmd) continue;
    if (p->driver != std::optional<std::string>("radeon")) continue;
    auto chip = amdgpu_kfd_chip(in.compat, p->device_id);
    const std::string label = pci_label(*p);
    if (chip && starts_with(chip->family, "Southern Islands")) {
      return label + " is held by the radeon kernel driver, which RADV cannot use: boot with "
                     "radeon.si_support=0 amdgpu.si_support=1 on the kernel command line";
    }
    if (chip && starts_with(chip->family, "Sea Islands")) {
      return label + " is held by the radeon kernel driver, which RADV cannot use: boot with "
                     "radeon.cik_support=0 amdgpu.cik_support=1 on the kernel command line";
    }
    return label + " is held by the radeon kernel driver: no Vulkan driver supports it (RADV "
                   "needs amdgpu, which drives GCN GPUs and newer)";
  }
  return std::nullopt;
}

/// A manifest or .icd file of a recorded machine, where no driver was loaded.
struct DriverFile {
  std::string file;
  std::string library;
  bool unusable = false;  ///< broken, or a GPU driver with no device of its vendor here
};

/// Judged from the files alone: every usable one names a CPU driver (a GPU driver that can find
/// no device here does not count), so programs get the CPU only.
void software_only_from_files(const CheckSpec& self, const CheckInput& in, bool vulkan,
                              const std::vector<DriverFile>& drivers, std::vector<Finding>& out) {
  auto gpus = bound_gpus(in.snap);
  if (gpus.empty() || drivers.empty()) return;
  std::vector<std::string> cpu;
  std::vector<std::string> stranded;
  for (const auto& d : drivers) {
    if (d.unusable) continue;
    if (auto name = cpu_driver(d.library, vulkan)) {
      cpu.push_back(d.file + " (" + std::string(*name) + ", " + d.library + ")");
    } else if (vulkan && !reaches_a_gpu(d.library, gpus)) {
      stranded.push_back(d.file + " (" + d.library + ")");
    } else {
      return;  // a driver that may reach a GPU
    }
  }
  if (cpu.empty()) return;  // nothing usable: the manifest checks say why
  const char* api = vulkan ? "Vulkan" : "OpenCL";
  Finding f = make_finding(self, Severity::warn,
                           std::string("Only CPU ") + api + " drivers are installed although a " +
                               "GPU is present: " + api + " programs run on the CPU");
  for (const auto& c : cpu) f.evidence.push_back("CPU driver: " + c);
  for (const auto& d : stranded) f.evidence.push_back("no GPU of its kernel driver here: " + d);
  for (const PciDevice* p : gpus) {
    f.evidence.push_back("GPU " + pci_label(*p) + " (driver " + p->driver.value_or("?") + ")");
  }
  auto radeon = vulkan ? radeon_fix(in, gpus) : std::nullopt;
  f.fix = radeon ? *radeon : "install " + driver_package(in.snap, gpus.front()->vendor_id, vulkan);
  out.push_back(std::move(f));
}

/// The Gallium driver Mesa's rusticl runs on for a GPU bound to this kernel driver.
std::optional<std::string_view> gallium_driver(const std::string& kernel_driver) {
  if (kernel_driver == "amdgpu") return "radeonsi";
  if (kernel_driver == "i915" || kernel_driver == "xe") return "iris";
  if (kernel_driver == "nouveau") return "nouveau";
  if (kernel_driver == "radeon") return "r600";
  return std::nullopt;
}

/// Read from files (a --sysroot tree, a report): Mesa's rusticl advertises no device for a
/// driver RUSTICL_ENABLE does not name, unless its build enabled that driver by default
/// (https://docs.mesa3d.org/rusticl.html). A GPU whose only OpenCL driver is rusticl is then at
/// risk. Live, the platform's own device list says it (opencl_platforms_without_devices).
void rusticl_not_enabled(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const OpenClInfo& cl = *in.snap.opencl;
  if (in.snap.live) return;
  const OpenClIcd* rusticl = nullptr;
  bool other_driver = false;
  for (const auto& icd : cl.icds) {
    const std::string file = library_file(icd.library);
    if (starts_with(file, "libRusticlOpenCL")) {
      rusticl = &icd;
    } else if (!starts_with(file, "libpocl")) {
      other_driver = true;  // a vendor's own driver may serve the GPU
    }
  }
  if (rusticl == nullptr || other_driver || rusticl->error) return;
  const auto enabled = split_words(cl.rusticl_enable.value_or(""), ",");
  for (const PciDevice* p : bound_gpus(in.snap)) {
    const auto gallium = gallium_driver(*p->driver);
    if (!gallium || std::find(enabled.begin(), enabled.end(), *gallium) != enabled.end()) continue;
    Finding f = make_finding(self, Severity::warn,
                             "Mesa's rusticl is the only OpenCL driver for " + pci_label(*p) +
                                 ", and it advertises no device for it unless RUSTICL_ENABLE "
                                 "names " + std::string(*gallium));
    f.id = "opencl.no_device";
    f.evidence.push_back("ICD " + rusticl->file.value_or(rusticl->source) + " → " + rusticl->library);
    f.evidence.push_back("RUSTICL_ENABLE: " + cl.rusticl_enable.value_or("unset"));
    f.evidence.push_back("GPU " + pci_label(*p) + " (driver " + *p->driver + ")");
    f.fix = "export RUSTICL_ENABLE=" + std::string(*gallium) +
            " and keep it in ~/.config/environment.d/ or /etc/environment (a distribution may "
            "have enabled the driver when building rusticl: clinfo -l shows it)";
    f.source = "https://docs.mesa3d.org/rusticl.html";
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
    f.fix = "install " + missing_driver_package(in, false);
    // The drivers are registered, but a variable sent the loader to a place without them: it
    // reads the variable's directory instead of /etc/OpenCL/vendors (ocl-icd and the Khronos
    // loader alike), so every program finds no platform (pocl/pocl#645: OCL_ICD_VENDORS=/usr/lib).
    if (cl.vendors_env && !cl.hidden_icds.empty()) {
      f = make_finding(self, Severity::fail,
                       *cl.vendors_env + "=" + cl.vendors_dir + " holds no .icd file, and the "
                       "loader reads it instead of /etc/OpenCL/vendors, so OpenCL finds no "
                       "platform: " +
                       plural(cl.hidden_icds.size(), "driver") + " registered there (" +
                       join(cl.hidden_icds, ", ") + ") not seen");
      f.id = "opencl.icd_broken";
      f.evidence.push_back(*cl.vendors_env + "=" + cl.vendors_dir + ": no .icd files");
      for (const auto& icd : cl.hidden_icds) f.evidence.push_back(icd + ": not read");
      f.fix = "unset " + *cl.vendors_env + " (or set it to the directory that holds the .icd "
              "files, /etc/OpenCL/vendors): it names the directory of the .icd files, not of "
              "the drivers' libraries";
      f.source = "https://github.com/KhronosGroup/OpenCL-ICD-Loader/blob/main/README.md";
    }
    out.push_back(std::move(f));
    return;
  }
  opencl_platforms_without_devices(self, in, out);
  rusticl_not_enabled(self, in, out);
  for (const auto& icd : cl.icds) {
    if (!icd.error && icd.loads != std::optional<bool>(false)) continue;
    // A pasted loader message names the library, not the .icd file.
    const std::string what = icd.file ? *icd.file
                             : icd.source == kOpenClPastedClinfo ? "naming " + icd.library
                                                               : icd.source;
    if (icd.error && nvidia_opencl_hidden_like_cuda(in.snap, icd.library, *icd.error)) {
      Finding f = make_finding(self, Severity::fail,
                               "NVIDIA's OpenCL driver finds no GPU, for the reason CUDA finds "
                               "none (" + *icd.error + ")");
      f.id = "opencl.icd_broken";
      f.evidence.push_back("library: " + icd.library);
      f.evidence.push_back("cuInit returned 100 CUDA_ERROR_NO_DEVICE");
      f.fix = "fix what the cuda checks name (CUDA_VISIBLE_DEVICES, access to /dev/nvidia*): "
              "NVIDIA's OpenCL honours CUDA_VISIBLE_DEVICES and opens the same device nodes";
      out.push_back(std::move(f));
      continue;
    }
    // A registered driver whose library does not load fails every program that picks it: a
    // certain failure of OpenCL through that driver (docs/severity.md).
    Finding f = make_finding(self, Severity::fail,
                             "OpenCL ICD " + what + " is unusable: " +
                                 icd.error.value_or("its library does not load"));
    f.id = "opencl.icd_broken";
    f.evidence.push_back("library: " + icd.library);
    const std::string owner = icd.file.value_or(icd.library);
    f.fix = "reinstall the package that owns " + owner + " (dpkg -S " + owner +
            "), or remove the stale .icd file";
    // A bare name is looked up like any library: installed where the loader does not look, it
    // is found once its directory is (ROCm/legacy-rocm-build#1131).
    if (!icd.library.empty() && icd.library.find('/') == std::string::npos && !icd.resolved) {
      f.fix = "if " + icd.library + " is installed, add its directory to a file in "
              "/etc/ld.so.conf.d/ and run sudo ldconfig (or write its absolute path into " +
              icd.file.value_or(std::string("the .icd file")) + "); else " + *f.fix;
    }
    // OCL_ICD_VENDORS is one directory or one .icd file, never a list: "a:b" is read as one
    // name (ocl-icd then loads it as a library and fails; the Khronos loader finds no directory).
    if (icd.source == "OCL_ICD_VENDORS" && icd.library.find(':') != std::string::npos) {
      f.fix = "OCL_ICD_VENDORS takes one directory (or one .icd file), not a list: set it to the "
              "one directory that holds the .icd files (e.g. OCL_ICD_VENDORS=" +
              icd.library.substr(icd.library.rfind(':') + 1) +
              "), or unset it; to name several drivers, OCL_ICD_FILENAMES lists their libraries "
              "separated by ':'";
      f.source = "https://github.com/KhronosGroup/OpenCL-ICD-Loader/blob/main/README.md";
    }
    out.push_back(std::move(f));
  }
}

void check_opencl_cpu_only(const CheckSpec& self, const CheckInput& in,
                           std::vector<Finding>& out) {
  if (!in.snap.opencl || in.snap.opencl->icds.empty()) return;
  if (in.snap.live) return software_only(self, in, false, out);
  std::vector<DriverFile> files;
  for (const auto& icd : in.snap.opencl->icds) {
    files.push_back({icd.file.value_or(icd.source), icd.library, icd.error.has_value()});
  }
  software_only_from_files(self, in, false, files, out);
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
    f.fix = "install " + missing_driver_package(in, true);
    out.push_back(std::move(f));
    return;
  }
  for (const auto& m : vk.manifests) {
    if (!m.error) continue;
    if (m.file.empty() && m.library_path) {
      // A pasted loader message names the library, not the manifest that names it.
      Finding f = make_finding(self, Severity::fail,
                               "The Vulkan driver manifest naming " + *m.library_path +
                                   " is unusable: " + *m.error +
                                   "; the loader skips that driver");
      f.id = "vulkan.manifest_broken";
      f.evidence.push_back("library_path: " + *m.library_path);
      f.fix = "put " + *m.library_path + " where the manifest says (install its package; in a "
              "container, have the runtime mount it), or remove the manifest that names it "
              "(grep -rl " + *m.library_path + " /usr/share/vulkan/icd.d /etc/vulkan/icd.d)";
      out.push_back(std::move(f));
      continue;
    }
    Finding f = make_finding(self, Severity::fail,
                             "Vulkan driver manifest " + m.file + " is unusable: " + *m.error);
    f.id = "vulkan.manifest_broken";
    if (m.library_path) f.evidence.push_back("library_path: " + *m.library_path);
    f.fix = "reinstall the package that owns it (dpkg -S " + m.file +
            "), or remove the stale manifest";
    out.push_back(std::move(f));
  }
}

/// A GCN AMD GPU (Southern or Sea Islands) that the radeon kernel driver holds: RADV needs
/// amdgpu, so Vulkan sees it only after the switch. Judged from PCI alone.
bool radeon_held_gcn(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  bool found = false;
  for (const PciDevice* p : pci_gpus(in.snap, kPciVendorAmd)) {
    if (p->driver != std::optional<std::string>("radeon")) continue;
    auto chip = amdgpu_kfd_chip(in.compat, p->device_id);
    if (!chip || (!starts_with(chip->family, "Southern Islands") &&
                  !starts_with(chip->family, "Sea Islands"))) {
      continue;  // TeraScale and older: no Vulkan driver under any kernel driver
    }
    Finding f = make_finding(self, Severity::warn,
                             pci_label(*p) + " is driven by radeon: RADV, Mesa's Vulkan driver, "
                                             "needs amdgpu, so Vulkan programs fall back to the "
                                             "CPU (llvmpipe) or find no device");
    f.id = "vulkan.radeon_kernel_driver";
    f.source = "https://docs.mesa3d.org/drivers/radv.html";
    f.evidence.push_back("PCI " + p->address + " 1002:" + hex(p->device_id, 4) + ", driver radeon");
    f.evidence.push_back("CHIP_" + chip->chip + ", " + chip->family);
    f.fix = *radeon_fix(in, {p});
    out.push_back(std::move(f));
    found = true;
  }
  return found;
}

void check_vulkan_software_only(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  // One cause, one finding: the radeon-held GPU explains a CPU-only Vulkan.
  if (radeon_held_gcn(self, in, out) || !in.snap.vulkan) return;
  if (in.snap.live) return software_only(self, in, true, out);
  std::vector<DriverFile> files;
  for (const auto& m : in.snap.vulkan->manifests) {
    files.push_back({m.file, m.resolved.value_or(m.library_path.value_or("")),
                     m.error.has_value() || m.not_loaded.has_value()});
  }
  software_only_from_files(self, in, true, files, out);
}

}  // namespace gpudoctor
