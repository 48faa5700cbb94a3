// The GPU as the kernel sees it: bound driver, NVIDIA module state, device nodes, versions.
#include <algorithm>

#include "backends.hpp"
#include "checks/area_status.hpp"
#include "checks/check_list.hpp"
#include "checks/intel_checks.hpp"
#include "checks/check_util.hpp"
#include "checks/rocm_util.hpp"
#include "model/access_view.hpp"
#include "compat/version.hpp"
#include "parse/dkms_log.hpp"

namespace gpudoctor {

namespace {

std::string os_id(const Snapshot& s) {
  return s.host && s.host->os_id ? to_lower(*s.host->os_id) : "";
}

/// How this distribution installs the NVIDIA driver: one whole instruction, to follow a "; ".
std::string nvidia_driver_install(const Snapshot& s) {
  const std::string id = os_id(s);
  if (id == "ubuntu" || id == "pop" || id == "linuxmint") return "sudo ubuntu-drivers install";
  if (id == "debian") {
    return "enable the non-free component, then: sudo apt install nvidia-driver "
           "firmware-misc-nonfree";
  }
  if (id == "fedora") return "enable RPM Fusion, then: sudo dnf install akmod-nvidia";
  if (id == "arch" || id == "manjaro") return "sudo pacman -S nvidia (or nvidia-open)";
  return "install the NVIDIA driver packaged for your distribution (or NVIDIA's .run installer)";
}

bool module_loaded(const NvidiaSystem& n, const std::string& name) {
  const auto& m = n.kernel.loaded_modules;
  return std::find(m.begin(), m.end(), name) != m.end();
}

bool nvidia_kernel_up(const Snapshot& s) {
  return s.nvidia && (s.nvidia->kernel.module_version || module_loaded(*s.nvidia, "nvidia"));
}

/// A container with no NVIDIA driver inside whose host has an NVIDIA GPU, or whose image
/// expects one (NVIDIA_VISIBLE_DEVICES): nvidia.container_without_gpu's case.
bool container_without_nvidia_gpu(const Snapshot& s, bool* gpu_on_host) {
  if (!s.nvidia || !s.host || !s.host->container || !s.nvidia->kernel.dev_listed) return false;
  const auto& nodes = s.nvidia->kernel.device_nodes;
  // Under WSL 2 GPUs arrive through /dev/dxg, never as /dev/nvidia* nodes.
  const bool gpu_node =
      s.host->wsl ? s.nvidia->dev_dxg == std::optional<bool>(true)
                  : std::any_of(nodes.begin(), nodes.end(),
                                [](const DeviceNode& d) { return d.path == "/dev/nvidiactl"; });
  if (nvidia_kernel_up(s) || gpu_node) return false;
  *gpu_on_host = !pci_gpus(s, kPciVendorNvidia).empty();
  const auto& nvd = s.nvidia->nvidia_visible_devices;
  const bool image_expects = nvd && *nvd != "void" && *nvd != "none" && !nvd->empty();
  return *gpu_on_host || image_expects;
}

/// An NVIDIA GPU no driver claimed, on a machine whose NVIDIA kernel state was read:
/// nvidia.module_not_loaded says it, with what it knows of the module.
bool left_to_module_check(const Snapshot& s, const PciDevice& p) {
  if (p.vendor_id == kPciVendorNvidia) return !p.driver && s.nvidia && !nvidia_kernel_up(s);
  return p.vendor_id == kPciVendorAmd && !p.driver && amdgpu_not_loaded(s);  // rocm.amdgpu_not_loaded
}

const DkmsBuild* failed_dkms_build_for_running_kernel(const Snapshot& snap,
                                                      std::string_view module) {
  if (!snap.host || !snap.host->kernel_release) return nullptr;
  for (const DkmsBuild& b : snap.host->dkms_builds) {
    if (b.failed && b.kernel == snap.host->kernel_release &&
        dkms_kernel_module(b.module) == module) {
      return &b;
    }
  }
  return nullptr;
}

}  // namespace

void check_no_gpu(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  const bool hardware = std::any_of(in.devices.begin(), in.devices.end(), [](const MergedDevice& m) {
    return !m.software && (m.kind == DeviceKind::gpu || m.kind == DeviceKind::accelerator);
  });
  if (hardware) return;
  const bool mac_read = macos_gpus_read(s);
  if (!pci_was_read(s) && !mac_read) return;  // nothing that lists GPUs was examined
  if (s.host && s.host->wsl) return;          // WSL's GPUs come through /dev/dxg, not PCI
  bool on_host = false;
  if (container_without_nvidia_gpu(s, &on_host)) return;  // that finding names the cause
  Finding f = make_finding(self, Severity::warn,
                           "No GPU found on this machine: there is nothing for CUDA, ROCm, "
                           "OpenCL or Vulkan to run on but the CPU");
  if (pci_was_read(s)) {
    f.evidence.push_back("PCI: " + std::to_string(s.pci->devices_scanned) +
                         " functions scanned, none a display, 3D or processing-accelerator "
                         "function");
  }
  if (mac_read) f.evidence.push_back("system_profiler SPDisplaysDataType: no GPU");
  std::vector<std::string> cpu_only;
  for (const auto& m : in.devices) {
    if (!m.software) continue;
    if (const auto& cl = m.in(kBackendOpenCl); !cl.empty()) {
      cpu_only.push_back("OpenCL (" + std::to_string(cl.size()) + ")");
    }
    if (const auto& vk = m.in(kBackendVulkan); !vk.empty()) {
      cpu_only.push_back("Vulkan (" + std::to_string(vk.size()) + ")");
    }
  }
  if (!cpu_only.empty()) {
    f.evidence.push_back("only CPU implementations answer: " + join(cpu_only, ", "));
  }
  if (s.host && s.host->virtualization) {
    f.evidence.push_back("virtual machine: " + *s.host->virtualization);
    f.fix = "give this VM a GPU: PCI passthrough (VFIO) of the card, or the cloud's GPU "
            "instance type; then install its driver inside the VM";
  } else if (s.host && s.host->container) {
    f.evidence.push_back("container: " + *s.host->container);
    f.fix = "start the container with the host's GPU: docker run --gpus all … (NVIDIA, with "
            "nvidia-container-toolkit) or --device /dev/kfd --device /dev/dri (AMD)";
  } else {
    f.fix = "if this machine has a GPU: check that it is seated, powered and enabled in the "
            "firmware settings; `lspci -nn | grep -Ei 'vga|3d|display'` must list it";
  }
  out.push_back(std::move(f));
}

void check_gpu_without_driver(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  for (const PciDevice* p : pci_gpus(in.snap)) {
    if (p->driver) {
      if (*p->driver == "vfio-pci" || *p->driver == "pci-stub") {
        Finding f = make_finding(self, Severity::info,
                                 pci_label(*p) + " is reserved for a virtual machine (" +
                                     *p->driver + "), not usable here");
        f.evidence.push_back("driver: " + *p->driver);
        out.push_back(std::move(f));
      }
      continue;
    }
    if (left_to_module_check(in.snap, *p)) continue;  // one cause, one finding
    if (p->vendor_id == kPciVendorNvidia && open_module_leaves_out(in, p->address)) {
      continue;  // nvidia.open_module_gpu names why
    }
    if (p->vendor_id == kPciVendorNvidia && kernel_log_failure(in.snap, "nvidia")) {
      continue;  // the kernel log's NVRM line says why (symptom.runtime)
    }
    if (intel_kernel_explains(in.snap, *p)) continue;  // intel.kernel_too_old says why
    Finding f = make_finding(self, Severity::fail, pci_label(*p) + " has no kernel driver bound");
    f.evidence.push_back("PCI " + p->address + ": no kernel driver in use");
    if (!p->modules.empty()) f.evidence.push_back("modules that match it: " + join(p->modules, ", "));
    const bool nvidia_loaded = in.snap.nvidia && module_loaded(*in.snap.nvidia, "nvidia");
    if (p->vendor_id == kPciVendorNvidia && nvidia_loaded) {
      f.evidence.push_back("the nvidia module is loaded, and did not take this GPU");
      f.fix = "sudo dmesg | grep NVRM says why the loaded nvidia module refused it (the open "
              "module and a GPU older than Turing, a driver branch that no longer supports it); "
              "install the driver flavour and branch that support this GPU, then reboot";
    } else if (p->vendor_id == kPciVendorNvidia) {
      f.fix = nvidia_driver_install(in.snap) + ", then reboot";
    } else if (p->vendor_id == kPciVendorAmd) {
      f.fix = "amdgpu is part of the kernel: install the firmware (Debian: sudo apt install "
              "firmware-amd-graphics) and check `sudo dmesg | grep amdgpu` for why it did not bind";
    } else if (p->vendor_id == kPciVendorIntel) {
      f.fix = "i915/xe are part of the kernel: check `sudo dmesg | grep -e i915 -e xe` and that "
              "the kernel is new enough for this GPU";
    } else {
      f.fix = "install the vendor's kernel driver for " + hex(p->vendor_id, 4) + ":" +
              hex(p->device_id, 4);
    }
    out.push_back(std::move(f));
  }
}

void check_nouveau_bound(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (pci_gpus(in.snap, kPciVendorNvidia).empty() && in.snap.nvidia &&
      module_loaded(*in.snap.nvidia, "nouveau") &&
      !nvidia_kernel_up(in.snap)) {
    // No PCI view (a partial capture): the modules alone say nouveau holds the NVIDIA GPU.
    Finding f = make_finding(self, Severity::fail,
                             "nouveau is loaded and the nvidia module is not: CUDA and NVML "
                             "cannot reach the GPU");
    f.evidence.push_back("loaded: " + join(in.snap.nvidia->kernel.loaded_modules, ", "));
    if (!in.snap.nvidia->kernel.nouveau_cmdline.empty()) {
      f.evidence.push_back("kernel command line: " +
                           join(in.snap.nvidia->kernel.nouveau_cmdline, " "));
    }
    f.fix = "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee "
            "/etc/modprobe.d/blacklist-nouveau.conf && sudo update-initramfs -u (dracut --force "
            "on Fedora), or add modprobe.blacklist=nouveau to the kernel command line; " +
            nvidia_driver_install(in.snap) + "; reboot";
    out.push_back(std::move(f));
    return;
  }
  for (const PciDevice* p : pci_gpus(in.snap, kPciVendorNvidia)) {
    if (p->driver != std::optional<std::string>("nouveau")) continue;
    Finding f = make_finding(self, Severity::fail,
                             pci_label(*p) + " is driven by nouveau, so CUDA, NVML and NVIDIA's "
                                             "OpenCL/Vulkan drivers cannot use it");
    f.evidence.push_back("PCI " + p->address + " driver: nouveau");
    std::string fix =
        "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee "
        "/etc/modprobe.d/blacklist-nouveau.conf && sudo update-initramfs -u";
    if (in.snap.nvidia && !in.snap.nvidia->kernel.nouveau_blacklisted_in.empty()) {
      f.evidence.push_back("nouveau is already blacklisted in " +
                           join(in.snap.nvidia->kernel.nouveau_blacklisted_in, ", "));
      fix = "the blacklist is written but nouveau still loads from the initramfs: "
            "sudo update-initramfs -u (dracut --force on Fedora)";
    }
    // The install step is a whole instruction of its own: not wrapped in another's brackets.
    f.fix = fix + "; " + nvidia_driver_install(in.snap) + "; reboot";
    out.push_back(std::move(f));
  }
}

void check_nvidia_module_not_loaded(const CheckSpec& self, const CheckInput& in,
                                    std::vector<Finding>& out) {
  auto gpus = pci_gpus(in.snap, kPciVendorNvidia);
  if (gpus.empty() || !in.snap.nvidia || nvidia_kernel_up(in.snap)) return;
  // A GPU bound to nvidia proves the module is loaded; nouveau and vfio have findings of
  // their own. What is left is a GPU no driver claimed.
  std::vector<const PciDevice*> unbound;
  for (const PciDevice* p : gpus) {
    if (!p->driver) unbound.push_back(p);
  }
  if (unbound.empty()) return;
  // The machine's kernel log says why the module did not take them (a GPU it ignores, the
  // flavour it needs, a key it refused): that finding is the cause, said once.
  if (kernel_log_failure(in.snap, "nvidia")) return;
  // DKMS's log says the module did not build for this kernel: gpu.dkms_build_failed says why.
  if (failed_dkms_build_for_running_kernel(in.snap, "nvidia")) return;
  const NvidiaKernel& k = in.snap.nvidia->kernel;
  const NvidiaSystem& n = *in.snap.nvidia;
  Finding f = make_finding(self, Severity::fail,
                           pci_label(*unbound.front()) +
                               (unbound.size() > 1 ? " and " + std::to_string(unbound.size() - 1) +
                                                         " more NVIDIA GPUs have"
                                                   : " has") +
                               " no driver: the nvidia kernel module is not loaded");
  // "Nothing installed" needs evidence: modules.alias read (every NVIDIA GPU matches nouveau's
  // alias at least) without nvidia in it, no dkms build and no userspace library.
  bool module_installed = !k.dkms.empty();
  bool aliases_read = false;
  for (const PciDevice* p : unbound) {
    f.evidence.push_back("PCI " + p->address + ": no kernel driver in use");
    if (!p->modules.empty()) f.evidence.push_back("modules that match it: " + join(p->modules, ", "));
    aliases_read = aliases_read || !p->modules.empty();
    module_installed = module_installed ||
                       std::find(p->modules.begin(), p->modules.end(), "nvidia") != p->modules.end();
  }
  f.evidence.push_back(k.modules_listed ? "no /proc/driver/nvidia/version; nvidia not in /proc/modules"
                                        : "no /proc/driver/nvidia/version");
  const bool userspace = std::any_of(n.libcuda.begin(), n.libcuda.end(),
                                     [](const LibraryFile& l) { return !l.stub; }) ||
                         !n.libnvidia_ml.empty();
  if (aliases_read && !module_installed && !userspace) {
    // Nothing of the driver is here: no module for this kernel, no dkms, no libcuda.
    f.evidence.push_back("no NVIDIA driver installed: no nvidia module for this kernel, no dkms "
                         "build, no libcuda or libnvidia-ml");
    f.fix = nvidia_driver_install(in.snap) + ", then reboot";
    if (k.secure_boot == std::optional<bool>(true)) {
      f.evidence.push_back("Secure Boot is on");
      *f.fix += " (Secure Boot is on: enrol the signing key the installer creates, or the module "
                "will not load)";
    }
    out.push_back(std::move(f));
    return;
  }
  std::string fix = "sudo modprobe nvidia, and read the error it prints";
  if (k.secure_boot == std::optional<bool>(true)) {
    f.evidence.push_back("Secure Boot is on");
    fix = std::string("Secure Boot is on and rejects unsigned modules (\"Key was rejected by "
                      "service\"): ") + kEnrolDkmsKey + "; then sudo modprobe nvidia";
  }
  if (!k.dkms.empty()) {
    f.evidence.push_back("dkms: " + join(k.dkms, "; "));
  } else if (in.snap.host && in.snap.host->kernel_release) {
    f.evidence.push_back("no dkms build of nvidia found for " + *in.snap.host->kernel_release);
    fix += "; if modprobe says the module is not found, build it for this kernel: sudo apt "
           "install linux-headers-" + *in.snap.host->kernel_release + " && sudo dkms autoinstall";
  }
  f.fix = fix;
  out.push_back(std::move(f));
}

void check_nvidia_device_nodes(const CheckSpec& self, const CheckInput& in,
                               std::vector<Finding>& out) {
  if (!in.snap.nvidia) return;
  const NvidiaSystem& n = *in.snap.nvidia;
  const auto& nodes = n.kernel.device_nodes;
  auto has = [&](std::string_view path) {
    return std::any_of(nodes.begin(), nodes.end(), [&](const DeviceNode& d) { return d.path == path; });
  };
  const bool wsl = in.snap.host && in.snap.host->wsl;
  // No driver inside. A container still sees the host's PCI devices in sysfs, so an NVIDIA
  // GPU there means the host has one that was not passed in; an image that sets
  // NVIDIA_VISIBLE_DEVICES expects GPUs even where none are visible.
  bool gpu_on_host = false;
  if (container_without_nvidia_gpu(in.snap, &gpu_on_host)) {
    const auto& nvd = n.nvidia_visible_devices;
    Finding f = make_finding(self, gpu_on_host ? Severity::fail : Severity::warn,
                             "This " + *in.snap.host->container +
                                 " container was started without GPUs: no " +
                                 (wsl ? std::string("/dev/dxg") : std::string("/dev/nvidia*")) +
                                 " and no NVIDIA driver inside");
    f.id = "nvidia.container_without_gpu";
    f.evidence.push_back("container: " + *in.snap.host->container);
    for (const PciDevice* p : pci_gpus(in.snap, kPciVendorNvidia)) {
      f.evidence.push_back("host GPU visible on PCI: " + pci_label(*p));
    }
    f.evidence.push_back("NVIDIA_VISIBLE_DEVICES: " + nvd.value_or("(not set)"));
    f.fix = "start it with GPUs: docker run --gpus all … (or --device nvidia.com/gpu=all with "
            "CDI); on the host: install nvidia-container-toolkit and run "
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker";
    out.push_back(std::move(f));
    return;
  }
  if (!nvidia_kernel_up(in.snap) || !n.kernel.dev_listed) return;
  if (!has("/dev/nvidiactl")) {
    Finding f = make_finding(self, Severity::fail,
                             "The nvidia module is loaded but /dev/nvidiactl and /dev/nvidia0… "
                             "are missing");
    f.fix = "sudo nvidia-modprobe -c 0 -u (creates the nodes), or reboot";
    out.push_back(std::move(f));
  } else if (!has("/dev/nvidia-uvm")) {
    Finding f = make_finding(self, Severity::fail,
                             "/dev/nvidia-uvm is missing: CUDA programs fail (cuInit returns 999) "
                             "while nvidia-smi still works");
    f.evidence.push_back(std::string("nvidia_uvm loaded: ") +
                         (module_loaded(n, "nvidia_uvm") ? "yes" : "no"));
    f.fix = "sudo modprobe nvidia_uvm && sudo nvidia-modprobe -c 0 -u";
    out.push_back(std::move(f));
  }
  const std::vector<const DeviceNode*> denied = nvidia_nodes_denied(in.snap);
  if (denied.empty()) return;
  std::vector<std::string> paths;
  for (const DeviceNode* d : denied) paths.push_back(d->path);
  Finding f = make_finding(self, Severity::fail,
                           join(paths, ", ") + (denied.size() > 1 ? " are" : " is") +
                               " not accessible to this user: CUDA programs find no device");
  for (const DeviceNode* d : denied) {
    f.evidence.push_back(d->path + " " + d->mode.value_or("?") + " group " +
                         d->group.value_or(d->gid ? std::to_string(*d->gid) : "?"));
  }
  // Joining the node's group helps only where the group may read and write it, and never
  // when that group is root.
  const DeviceNode& d = *denied.front();
  const bool group_rw = d.mode && d.mode->size() >= 7 && (*d.mode)[4] == 'r' && (*d.mode)[5] == 'w';
  const bool root_group = d.gid == std::optional<std::uint32_t>(0) ||
                          d.group == std::optional<std::string>("root");
  if (d.group && group_rw && !root_group) {
    f.fix = "sudo usermod -aG " + *d.group + " $USER, then log out and in again";
  } else {
    f.fix = "the nvidia module creates these nodes with the owner and mode of its "
            "NVreg_DeviceFileUID, NVreg_DeviceFileGID and NVreg_DeviceFileMode options "
            "(cat /proc/driver/nvidia/params; the default 0666 lets every user in): set them in "
            "/etc/modprobe.d (e.g. options nvidia NVreg_DeviceFileGID=<a group of this user> "
            "NVreg_DeviceFileMode=0660) or fix the udev rule or container runtime that changed "
            "them";
  }
  out.push_back(std::move(f));
}

void check_nvidia_version_mismatch(const CheckSpec& self, const CheckInput& in,
                                   std::vector<Finding>& out) {
  if (!in.snap.nvidia) return;
  const NvidiaSystem& n = *in.snap.nvidia;
  const auto& kmod = n.kernel.module_version;
  // The libcuda.so.1 programs load is CUDA's forward-compatibility copy (the cuda-compat
  // package's /usr/local/cuda-X.Y/compat, put first by an image's LD_LIBRARY_PATH or
  // ld.so.conf.d). Newer than the kernel driver it is the package's intended use; older, it is
  // not the driver's own library and CUDA does not start: a reboot changes nothing.
  const LibraryFile* compat = nullptr;
  for (const auto& l : n.libcuda) {
    if (l.name == "libcuda.so.1" && !l.stub && !l.shadowed && l.version &&
        l.real_path.value_or(l.path).find("/compat/") != std::string::npos) {
      compat = &l;
    }
  }
  if (compat && kmod) {
    const auto compat_v = parse_version(*compat->version);
    const auto driver = parse_version(*kmod);
    // A version is a driver's release ("550.54.15"), not a soname's major ("1").
    if (compat_v && driver && compat_v->parts.size() >= 2 && *compat_v < *driver) {
      const std::string where = compat->real_path.value_or(compat->path);
      Finding f = make_finding(
          self, Severity::fail,
          "The libcuda programs load is CUDA's forward-compatibility copy (" + *compat->version +
              ", " + where + "), older than the loaded driver (" + *kmod +
              "): it is made for older kernel drivers, and CUDA does not start on this one");
      f.evidence.push_back("kernel module: " + *kmod);
      f.evidence.push_back("libcuda.so.1 the loader finds first: " + compat->path + " -> " + where);
      f.evidence.push_back("LD_LIBRARY_PATH=" + n.ld_library_path.value_or("(not set)"));
      for (const auto& l : n.libcuda) {
        if (l.version && *l.version == *kmod) {
          f.evidence.push_back("the driver's own: " + l.real_path.value_or(l.path));
          break;
        }
      }
      f.fix = "take the compat directory out of the library path where the driver is newer than "
              "it: remove it from LD_LIBRARY_PATH and /etc/ld.so.conf.d (then ldconfig), or put "
              "the driver's own library directory first; keep cuda-compat only for kernel drivers "
              "older than the CUDA the program needs";
      f.source = "https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html";
      out.push_back(std::move(f));
      return;
    }
  }
  bool nvml_says = in.snap.nvml && in.snap.nvml->init_code == std::optional<int>(18);
  std::optional<std::string> lib_version;
  std::string lib_path;
  for (const auto* list : {&n.libnvidia_ml, &n.libcuda}) {
    for (const auto& l : *list) {
      if (l.stub || l.shadowed || !l.version) continue;
      // cuda-compat newer than the driver: its intended use, judged above.
      if (l.real_path.value_or(l.path).find("/compat/") != std::string::npos) continue;
      if (!lib_version) {
        lib_version = l.version;
        lib_path = l.real_path.value_or(l.path);
      }
    }
  }
  bool files_say = kmod && lib_version && *kmod != *lib_version;
  if (!files_say && !nvml_says) return;
  // The title says what was read: the two versions, and nvidia-smi's words only where NVML said
  // them (a kernel log or the files alone say nothing of nvidia-smi).
  std::string title = "Driver/library version mismatch: the loaded kernel module";
  if (kmod) title += " (" + *kmod + ")";
  title += " and the userspace driver";
  if (lib_version && files_say) title += " (" + *lib_version + ")";
  title += " differ";
  if (nvml_says) title += " (nvidia-smi: \"Failed to initialize NVML: Driver/library version mismatch\")";
  Finding f = make_finding(self, Severity::fail, title);
  if (kmod) f.evidence.push_back("kernel module: " + *kmod);
  if (lib_version) f.evidence.push_back("userspace: " + lib_path + " (" + *lib_version + ")");
  if (nvml_says) f.evidence.push_back("nvmlInit_v2 returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH)");
  f.fix = "reboot to load the " + lib_version.value_or("new") +
          " module (the libraries were upgraded under a running " + kmod.value_or("old") +
          " module, often by unattended-upgrades); without a reboot: stop GPU users, then "
          "sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia";
  out.push_back(std::move(f));
}

namespace {

/// A Kubernetes node whose containerd would run pods without the NVIDIA runtime: the device
/// plugin's pod sees no GPU and the node advertises nvidia.com/gpu: 0
/// (NVIDIA/k8s-device-plugin#107; the toolkit's guide, "Configuring containerd (for Kubernetes)").
void containerd_runtime_finding(const CheckSpec& self, const ContainerEngines& e, bool cdi_spec,
                                std::vector<Finding>& out) {
  if (e.containerd_nvidia_default || (e.containerd_cdi && cdi_spec)) return;
  const std::string config = e.containerd_config.value_or("/etc/containerd/config.toml");
  Finding f = make_finding(
      self, e.containerd_nvidia_runtime ? Severity::warn : Severity::fail,
      e.containerd_nvidia_runtime
          ? "containerd's default runtime is not the NVIDIA one: a pod gets the GPU only with "
            "runtimeClassName: nvidia, the device plugin's pod too (else the node advertises "
            "nvidia.com/gpu: 0)"
          : "Kubernetes runs pods through containerd, whose configuration has no NVIDIA runtime: "
            "pods get no GPU and the device plugin advertises nvidia.com/gpu: 0");
  f.id = "nvidia.container_toolkit";
  f.evidence.push_back("kubelet: " + join(e.kubelet, ", "));
  f.evidence.push_back(
      e.containerd_config
          ? config + ": " +
                (e.containerd_nvidia_runtime ? "an nvidia runtime, not the CRI default"
                                             : "no runtime runs nvidia-container-runtime") +
                (e.containerd_cdi ? "; CDI on, but no CDI spec for nvidia.com/gpu" : "")
          : "no " + config + ": containerd's built-in default (runc)");
  f.fix = std::string(e.containerd_nvidia_runtime
                          ? "deploy the device plugin (and GPU pods) with runtimeClassName: nvidia, "
                            "or make it the default: "
                          : "") +
          "sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default && sudo "
          "systemctl restart containerd (nvidia-ctk comes with nvidia-container-toolkit)";
  // RKE2 and k3s generate their containerd's config.toml at every start from config.toml.tmpl
  // beside it: an edit of config.toml (the toolkit's, told to edit that file) is lost.
  if (config.find("/var/lib/rancher/") != std::string::npos) {
    const std::string tmpl = config + ".tmpl";
    f.evidence.push_back(config + " is generated by RKE2/k3s at each start from " + tmpl);
    f.fix = "put the nvidia runtime, as containerd's default (default_runtime_name = \"nvidia\"), "
            "in " + tmpl + ", not in " + config + ", which RKE2/k3s rewrite at every start; with the "
            "GPU Operator, set the toolkit's CONTAINERD_CONFIG to " + tmpl +
            " and CONTAINERD_SOCKET to /run/k3s/containerd/containerd.sock";
    f.source = "https://docs.k3s.io/advanced#configuring-containerd";
  }
  out.push_back(std::move(f));
}

}  // namespace

void check_nvidia_container_toolkit(const CheckSpec& self, const CheckInput& in,
                                    std::vector<Finding>& out) {
  const HostAccess& a = host_access(in.snap);
  if (!a.container_engines) return;
  // Inside a container the engine's configuration is the host's: nvidia.container_without_gpu.
  if (in.snap.host && (in.snap.host->container || in.snap.host->wsl)) return;
  const ContainerEngines& e = *a.container_engines;
  const bool driver = nvidia_kernel_up(in.snap) ||
                      std::any_of(a.device_nodes.begin(), a.device_nodes.end(),
                                  [](const DeviceNode& d) { return d.path == "/dev/nvidiactl"; });
  if (e.docker.empty() && e.kubelet.empty()) return;
  const std::string driver_evidence =
      std::string("NVIDIA driver: ") +
      (nvidia_kernel_up(in.snap) ? "kernel module loaded" : "/dev/nvidiactl present");
  if (driver && e.toolkit_driver_root_has_driver == std::optional<bool>(false)) {
    // The GPU Operator's setting (a containerised driver under /run/nvidia/driver) on a host
    // whose driver is its own: nvidia-container-cli finds no driver to mount
    // (NVIDIA/nvidia-container-toolkit#154).
    Finding f = make_finding(
        self, Severity::fail,
        "The NVIDIA Container Toolkit looks for the driver under " + *e.toolkit_driver_root +
            ", where there is none; the driver is installed on this host: GPU containers fail "
            "with \"load library failed: libnvidia-ml.so.1\"");
    f.id = "nvidia.container_toolkit";
    f.evidence.push_back(e.toolkit_config.value_or("config.toml") + ": [nvidia-container-cli] root = \"" +
                         *e.toolkit_driver_root + "\"");
    f.evidence.push_back("no libnvidia-ml.so.1 under " + *e.toolkit_driver_root);
    f.evidence.push_back(driver_evidence);
    f.fix = "set root = \"/\" under [nvidia-container-cli] in " +
            e.toolkit_config.value_or("config.toml") +
            " (a containerised driver's setting, e.g. the GPU Operator's with driver.enabled; with "
            "the driver on the host the toolkit must look at /), then restart the container "
            "runtime";
    out.push_back(std::move(f));
    return;
  }
  const bool cdi = std::any_of(a.cdi_specs.begin(), a.cdi_specs.end(), [](const RuntimeFile& f) {
    return f.kind && starts_with(*f.kind, "nvidia.com/");
  });
  if (driver && !e.kubelet.empty() && (!e.containerd.empty() || e.containerd_config)) {
    containerd_runtime_finding(self, e, cdi, out);
  }
  if (e.docker.empty() || !driver || !e.nvidia_toolkit.empty()) return;
  if (cdi) return;
  const bool named = std::find(e.docker_runtimes.begin(), e.docker_runtimes.end(), "nvidia") !=
                         e.docker_runtimes.end() ||
                     e.default_runtime == std::optional<std::string>("nvidia");
  // A daemon.json that names the nvidia runtime asks for GPU containers: certain to fail.
  // Without it, a Docker host whose GPU containers would fail, if any are run.
  Finding f = make_finding(
      self, named ? Severity::fail : Severity::warn,
      named ? "Docker is set to use the nvidia runtime, but the NVIDIA Container Toolkit is not "
              "installed: every GPU container fails to start"
            : "Docker is installed beside a working NVIDIA driver, but the NVIDIA Container "
              "Toolkit is not: docker run --gpus fails with \"could not select device driver "
              "\"\" with capabilities: [[gpu]]\"");
  f.id = "nvidia.container_toolkit";
  f.evidence.push_back("Docker: " + join(e.docker, ", "));
  f.evidence.push_back(driver_evidence);
  f.evidence.push_back(
      "/etc/docker/daemon.json: " +
      (!e.daemon_json ? std::string("none")
                      : e.daemon_json_error ? "unreadable (" + *e.daemon_json_error + ")"
                      : "runtimes " + (e.docker_runtimes.empty() ? std::string("(none)")
                                                                 : join(e.docker_runtimes, " ")) +
                            (e.default_runtime ? ", default-runtime " + *e.default_runtime : "")));
  f.evidence.push_back(
      "not found: nvidia-ctk, nvidia-container-runtime, nvidia-container-runtime-hook, "
      "nvidia-container-cli (/usr/bin, /usr/local/bin), "
      "/etc/nvidia-container-runtime/config.toml, a CDI spec for nvidia.com/gpu");
  f.fix = "install nvidia-container-toolkit from NVIDIA's repository, then: sudo nvidia-ctk "
          "runtime configure --runtime=docker && sudo systemctl restart docker";
  out.push_back(std::move(f));
}

/// DKMS's make.log says a GPU module did not build for a kernel that is running or installed:
/// running, its GPU has no driver (or keeps another build of it); installed, booting it will
/// leave the GPU without one. The log's own lines say why (a compiler other than the kernel's,
/// a driver branch older than the kernel's interfaces).
void check_dkms_builds(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.host) return;
  const HostInfo& h = *in.snap.host;
  for (const DkmsBuild& b : h.dkms_builds) {
    if (!b.failed || !b.kernel) continue;
    const bool running = h.kernel_release == b.kernel;
    // A log for a kernel no longer installed says nothing about this machine.
    if (!running && b.kernel_installed != std::optional<bool>(true)) continue;
    const std::string module = dkms_kernel_module(b.module);
    const std::string what = b.module + " " + b.version;
    // Loaded or not: as /sys/module or /proc/modules said, else as the PCI bus says (a GPU of
    // the module's vendor bound to it, or every one of them without a driver).
    std::optional<bool> loaded = b.module_loaded;
    const std::uint16_t vendor = module == "nvidia" ? kPciVendorNvidia
                                 : module == "amdgpu" ? kPciVendorAmd : 0;
    if (!loaded && vendor != 0 && in.snap.pci) {
      const auto gpus = pci_gpus(in.snap, vendor);
      if (!gpus.empty()) {
        loaded = std::any_of(gpus.begin(), gpus.end(), [&](const PciDevice* p) {
          return p->driver == std::optional<std::string>(module);
        });
      }
    }
    const std::string why = b.kernel_compiler && b.compiler_here
                                ? " (a compiler other than the kernel's)"
                                : "";
    Severity severity = Severity::warn;
    std::string title;
    if (running && loaded == std::optional<bool>(false)) {
      severity = Severity::fail;
      title = "DKMS could not build " + what + " for the running kernel " + *b.kernel + why +
              ": there is no " + module + " module to load, and its GPUs have no driver";
    } else if (running && loaded == std::optional<bool>(true)) {
      title = "DKMS could not build " + what + " for the running kernel " + *b.kernel +
              ": the " + module + " module loaded is another build (the kernel's own, or an "
              "older package's), not this package's";
    } else if (running) {
      title = "DKMS could not build " + what + " for the running kernel " + *b.kernel + why;
    } else {
      title = "DKMS could not build " + what + " for the installed kernel " + *b.kernel + why +
              ": booting that kernel leaves its GPUs without the driver";
    }
    Finding f = make_finding(self, severity, title);
    f.evidence.push_back(b.log + (b.built == std::optional<bool>(false)
                                      ? ": no module was built for " + *b.kernel
                                      : ""));
    for (const auto& e : b.errors) f.evidence.push_back(e);
    if (h.kernel_release && !running) f.evidence.push_back("running kernel: " + *h.kernel_release);
    if (b.kernel_compiler && b.compiler_here) {
      f.evidence.push_back("the kernel was built with: " + *b.kernel_compiler);
      f.evidence.push_back("DKMS compiled with: " + *b.compiler_here);
      f.fix = "build the module with the compiler the kernel was built with (install that gcc "
              "and run sudo dkms install " + b.module + "/" + b.version + " -k " + *b.kernel +
              " with CC pointing at it), or update to a kernel built with the current compiler";
    } else if (module == "amdgpu") {
      f.fix = "AMD's amdgpu-dkms builds only for the kernels its ROCm release supports: install "
              "a ROCm release whose compatibility matrix lists this distribution and kernel, or "
              "remove amdgpu-dkms and use the kernel's own amdgpu";
      f.source = "https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html";
    } else {
      f.fix = "read " + b.log + ": a driver release older than the kernel fails to compile "
              "against it (install a driver release that supports kernel " + *b.kernel +
              (running ? ""
                       : ", or keep booting " + h.kernel_release.value_or("the running kernel")) +
              "); missing kernel headers show as a missing Makefile or autoconf.h (install the "
              "headers package for " + *b.kernel + ", then sudo dkms autoinstall)";
    }
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
