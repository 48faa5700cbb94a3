// Platforms that need more than the driver before CUDA starts: NVSwitch systems (HGX/DGX) need
// nvidia-fabricmanager of the driver's exact version; WSL 2 reaches the GPU through /dev/dxg and
// the Windows driver's libraries, never through a Linux driver installed inside.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "compat/compat_query.hpp"
#include "model/pci.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kWslLibDir = "/usr/lib/wsl/lib";
constexpr const char* kWslGuide = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html";
// NVIDIA's answer on what a missing /usr/lib/wsl/lib/libdxcore.so means (a Windows build
// without WSL GPU support; Windows 10 21H2, build 19044, or Windows 11 have it).
constexpr const char* kWslWindowsBuild = "https://github.com/NVIDIA/nvidia-docker/issues/1542";

/// "535" of "535.129.03": the branch NVIDIA's package names carry.
std::string branch_of(const std::string& version) { return version.substr(0, version.find('.')); }

std::string fabricmanager_install(const Snapshot& s, const std::string& driver) {
  const std::string id = s.host && s.host->os_id ? to_lower(*s.host->os_id) : "";
  const auto& fm = s.nvidia->fabricmanager;
  const bool dpkg = fm && fm->version_from == std::optional<std::string>("dpkg");
  const std::string branch = branch_of(driver);
  std::string cmd;
  if (id == "ubuntu" || id == "debian" || dpkg) {
    cmd = "sudo apt-get install nvidia-fabricmanager-" + branch + "=" + driver +
          "* && sudo apt-mark hold nvidia-fabricmanager-" + branch;
  } else {
    cmd = "install nvidia-fabricmanager " + driver +
          " from NVIDIA's CUDA repository for your distribution (the package of exactly the "
          "driver's version)";
  }
  return cmd + " && sudo systemctl enable --now nvidia-fabricmanager";
}

}  // namespace

void check_fabricmanager(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.nvidia || in.snap.nvidia->nvswitches.empty()) return;
  const NvidiaSystem& n = *in.snap.nvidia;
  const auto driver = installed_driver_version(in.snap);
  const auto& fm = n.fabricmanager;
  std::vector<std::string> evidence;
  evidence.push_back(std::to_string(n.nvswitches.size()) + " NVSwitch PCI functions (class 0680), " +
                     n.nvswitches.front().address + " first");
  if (driver) evidence.push_back("NVIDIA driver " + *driver);
  if (in.snap.cuda && in.snap.cuda->init_error && in.snap.cuda->init_error->code == 802) {
    evidence.push_back("cuInit returned 802 (CUDA_ERROR_SYSTEM_NOT_READY)");
  }
  auto emit = [&](Severity sev, std::string title, std::string fix) {
    Finding f = make_finding(self, sev, std::move(title));
    f.evidence = evidence;
    f.fix = std::move(fix);
    out.push_back(std::move(f));
  };
  const std::string needs = driver ? fabricmanager_install(in.snap, *driver)
                                   : "install nvidia-fabricmanager of exactly the driver's version "
                                     "and run sudo systemctl enable --now nvidia-fabricmanager";
  if (!fm) {
    evidence.push_back("no nv-fabricmanager binary, nvidia-fabricmanager package or service unit");
    emit(Severity::fail,
         "NVSwitch system without nvidia-fabricmanager: every CUDA program fails with error 802 "
         "\"system not yet initialized\"",
         needs);
    return;
  }
  if (fm->package) evidence.push_back("package " + *fm->package + " " + fm->version.value_or("?"));
  if (fm->binary) evidence.push_back("binary " + *fm->binary);
  if (driver && fm->version && *fm->version != *driver) {
    emit(Severity::fail,
         "nvidia-fabricmanager " + *fm->version + " does not match driver " + *driver +
             ": it refuses to start (\"fabric manager NVIDIA GPU driver interface version " +
             *fm->version + " don't match with driver version " + *driver +
             "\") and CUDA fails with error 802",
         needs);
    return;
  }
  if (fm->running == std::optional<bool>(false)) {
    emit(Severity::fail,
         "nvidia-fabricmanager is installed but not running: CUDA fails with error 802 until it "
         "has set up the NVSwitch fabric",
         "sudo systemctl enable --now nvidia-fabricmanager, then read journalctl -u "
         "nvidia-fabricmanager if it stops");
    return;
  }
  if (fm->enabled == std::optional<bool>(false)) {
    evidence.push_back(fm->service_unit.value_or("nvidia-fabricmanager.service") +
                       " is not linked from any *.target.wants");
    emit(Severity::warn,
         "nvidia-fabricmanager is not enabled: after the next reboot it does not start and CUDA "
         "fails with error 802",
         "sudo systemctl enable --now nvidia-fabricmanager");
  }
}

namespace {

bool in_wsl_dir(const LibraryFile& l) {
  return starts_with(l.path, std::string(kWslLibDir) + "/");
}

/// The libcuda a program gets: the first one on the loader's path that is not a stub.
const LibraryFile* picked_libcuda(const NvidiaSystem& n) {
  for (const auto& l : n.libcuda) {
    if (l.on_search_path && !l.shadowed && !l.stub) return &l;
  }
  return nullptr;
}

}  // namespace

namespace {

/// Turing (compute capability 7.5): the first architecture the open kernel modules drive.
const Version& turing() {
  static const Version v = *parse_version("7.5");
  return v;
}

bool open_module_loaded(const Snapshot& s) {
  return s.nvidia && s.nvidia->kernel.module_flavor == std::optional<std::string>("open");
}

}  // namespace

bool open_module_leaves_out(const CheckInput& in, const std::string& pci_address) {
  if (!open_module_loaded(in.snap)) return false;
  // nvidia_capabilities lists the NVIDIA devices in device order.
  const auto caps = nvidia_capabilities(in);
  std::size_t i = 0;
  for (const auto& m : in.devices) {
    if (m.vendor_id != std::optional<std::uint32_t>(kPciVendorNvidia) || m.software) continue;
    if (i >= caps.size()) break;
    const auto& cc = caps[i++].cc;
    if (m.pci_address == std::optional<std::string>(pci_address)) {
      return cc && !cc->parts.empty() && *cc < turing();
    }
  }
  return false;
}

/// The nvidia module is loaded, its flavour unread, and a GPU older than Turing on the bus has
/// no driver bound: what the open module does with a GPU it refuses (its NVRM line says "not
/// supported by open nvidia.ko because it does not include the required GPU System Processor").
void open_module_suspected(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.nvidia || !in.snap.pci) return;
  const auto& k = in.snap.nvidia->kernel;
  const auto& mods = k.loaded_modules;
  if (k.module_flavor || std::find(mods.begin(), mods.end(), "nvidia") == mods.end()) return;
  if (kernel_log_failure(in.snap, "nvidia")) return;  // the log says why, no guess needed
  const auto caps = nvidia_capabilities(in);
  std::size_t i = 0;
  for (const auto& m : in.devices) {
    if (m.vendor_id != std::optional<std::uint32_t>(kPciVendorNvidia) || m.software) continue;
    if (i >= caps.size()) break;
    const auto& g = caps[i++];
    if (!m.pci || *m.pci >= in.snap.pci->devices.size()) continue;
    const PciDevice& p = in.snap.pci->devices[*m.pci];
    if (p.driver || !g.cc || g.cc->parts.empty() || !(*g.cc < turing())) continue;
    Finding f = make_finding(self, Severity::warn,
                             "The nvidia kernel module is loaded but did not take " + g.name +
                                 " (compute capability " + g.cc->text +
                                 ", older than Turing): the open kernel module refuses such GPUs, "
                                 "and which flavour is loaded is not readable here");
    f.evidence.push_back(p.address + ": no driver bound; nvidia in the loaded modules");
    f.fix = "modinfo nvidia | grep -i license (\"Dual MIT/GPL\" is the open module) and "
            "dmesg | grep NVRM: if it is the open module, install the proprietary flavour "
            "(Ubuntu: nvidia-driver-<branch> rather than nvidia-driver-<branch>-open), then reboot";
    out.push_back(std::move(f));
  }
}

namespace {

/// What says which flavour of the module is loaded and which architecture the GPU is.
std::vector<std::string> flavour_evidence(const NvidiaKernel& k, const GpuCapability& g) {
  std::vector<std::string> out;
  if (k.proc_version) out.push_back("/proc/driver/nvidia/version: " + *k.proc_version);
  if (k.module_flavor_from) out.push_back(*k.module_flavor_from);
  out.push_back(g.name + ": compute capability " + (g.cc ? g.cc->text : std::string("?")) +
                (g.cc_source ? " per " + *g.cc_source : "") +
                (g.cc_inferred ? " (inferred from its device-id range)" : ""));
  return out;
}

/// Blackwell and later (compute capability 10.0 and up) are driven by the open kernel modules
/// only: under the proprietary flavour the module refuses them ("requires use of the NVIDIA open
/// kernel modules") and nvidia-smi finds no device.
void proprietary_module_on_blackwell(const CheckSpec& self, const CheckInput& in,
                                     std::vector<Finding>& out) {
  if (!in.snap.nvidia ||
      in.snap.nvidia->kernel.module_flavor != std::optional<std::string>("proprietary")) {
    return;
  }
  static const Version blackwell = *parse_version("10.0");
  const auto& k = in.snap.nvidia->kernel;
  for (const auto& g : nvidia_capabilities(in)) {
    if (!g.cc || g.cc->parts.empty() || *g.cc < blackwell) continue;
    Finding f = make_finding(self, Severity::fail,
                             "The proprietary NVIDIA kernel module is loaded, and " + g.name +
                                 " (compute capability " + g.cc->text +
                                 ") is a Blackwell or later GPU, which only the open kernel module "
                                 "drives: nvidia-smi and CUDA find no GPU");
    f.id = "nvidia.open_module_required";
    f.evidence = flavour_evidence(k, g);
    f.fix = "install the open flavour of the same driver release (Ubuntu: "
            "nvidia-driver-<branch>-open; Debian: nvidia-open-kernel-dkms; NVIDIA's .run "
            "installer: -M=open), then reboot";
    // "Blackwell and later are only supported by the open kernel modules."
    f.source = "https://download.nvidia.com/XFree86/Linux-x86_64/560.35.03/README/kernel_open.html";
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_nvidia_open_module(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  open_module_suspected(self, in, out);
  proprietary_module_on_blackwell(self, in, out);
  if (!open_module_loaded(in.snap)) return;
  for (const auto& g : nvidia_capabilities(in)) {
    if (!g.cc || g.cc->parts.empty() || !(*g.cc < turing())) continue;
    const auto& k = in.snap.nvidia->kernel;
    Finding f = make_finding(self, Severity::fail,
                             "The open NVIDIA kernel module is loaded, and " + g.name +
                                 " (compute capability " + g.cc->text +
                                 ") is older than Turing: the open module does not drive it, so "
                                 "CUDA and nvidia-smi find no GPU");
    f.evidence = flavour_evidence(k, g);
    f.fix = "install the proprietary kernel module flavour of the driver instead of the open one "
            "(Ubuntu: nvidia-driver-<branch> rather than nvidia-driver-<branch>-open; NVIDIA's "
            ".run installer: choose the proprietary flavour), then reboot";
    out.push_back(std::move(f));
  }
}

/// The IOMMU translating DMA (intel_iommu=on without iommu=pt) on a machine with several NVIDIA
/// GPUs: their peer-to-peer writes are sent to the CPU's root complex, and NCCL's collectives
/// slow down or hang (NCCL's troubleshooting guide; NVIDIA/nccl#257, fixed by intel_iommu=off).
/// Inside a VM the IOMMU is the hypervisor's business. A warning: P2P may still work.
void check_iommu_translation(const CheckSpec& self, const CheckInput& in,
                             std::vector<Finding>& out) {
  if (!in.snap.nvidia || (in.snap.host && in.snap.host->vm)) return;
  const auto& params = in.snap.nvidia->kernel.iommu_cmdline;
  const auto has = [&](std::string_view p) {
    return std::find(params.begin(), params.end(), p) != params.end();
  };
  if (!has("intel_iommu=on") || has("iommu=pt") || has("iommu.passthrough=1")) return;
  const std::size_t gpus = pci_gpus(in.snap, kPciVendorNvidia).size();
  if (gpus < 2) return;
  Finding f = make_finding(
      self, Severity::warn,
      "The kernel runs the IOMMU in translation mode (intel_iommu=on, no iommu=pt) on a machine "
      "with " + std::to_string(gpus) + " NVIDIA GPUs: their peer-to-peer traffic goes through "
      "the CPU's root complex, and NCCL's collectives can slow down or hang");
  f.evidence.push_back("/proc/cmdline: " + join(params, " "));
  f.evidence.push_back(std::to_string(gpus) + " NVIDIA GPUs on the PCI bus");
  f.fix = "add iommu=pt to the kernel command line (passthrough for the host's own devices; "
          "VFIO still works) or boot with intel_iommu=off where no VM needs it, then reboot; "
          "until then NCCL_P2P_DISABLE=1 avoids peer-to-peer at a cost in speed";
  out.push_back(std::move(f));
}

/// RDMA NICs beside NVIDIA GPUs with the driver loaded but not its peer-memory module: the NICs
/// cannot read or write GPU memory, so NCCL and MPI move GPU buffers through host memory
/// (GPUDirect RDMA off). Inside a container the host's modules decide, and /sys/module is the
/// host's too, so the judgement holds there.
void check_peermem(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.nvidia || !in.snap.host || in.snap.host->rdma_devices.empty()) return;
  const auto& mods = in.snap.nvidia->kernel.loaded_modules;
  const auto loaded = [&](std::string_view m) {
    return std::find(mods.begin(), mods.end(), m) != mods.end();
  };
  if (!loaded("nvidia") || loaded("nvidia_peermem") || loaded("nv_peer_mem")) return;
  const std::size_t gpus = pci_gpus(in.snap, kPciVendorNvidia).size();
  if (gpus == 0) return;
  Finding f = make_finding(
      self, Severity::warn,
      "GPUDirect RDMA is off: the NVIDIA driver is loaded beside " +
          plural(in.snap.host->rdma_devices.size(), "RDMA device") +
          " but its peer-memory module (nvidia_peermem) is not, so the NICs cannot reach GPU "
          "memory and NCCL or MPI stage GPU buffers through host memory");
  f.evidence.push_back("RDMA devices: " + join(in.snap.host->rdma_devices, ", "));
  f.evidence.push_back(std::to_string(gpus) + " NVIDIA GPUs on the PCI bus");
  f.evidence.push_back("loaded: " + join(mods, ", ") + " (no nvidia_peermem, no nv_peer_mem)");
  f.fix = "sudo modprobe nvidia_peermem (part of the driver since R470), and load it at boot: echo "
          "nvidia_peermem | sudo tee /etc/modules-load.d/nvidia-peermem.conf; it needs the "
          "InfiniBand stack (MLNX_OFED or the kernel's) loaded first";
  f.source = "https://docs.nvidia.com/cuda/gpudirect-rdma/index.html#nvidia-peermem";
  out.push_back(std::move(f));
}

void check_wsl_gpu(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.host || !in.snap.host->wsl || !in.snap.nvidia) return;
  // A paste says it is WSL but shows neither /dev/dxg nor the driver files: unknown, not absent.
  if (in.snap.origin == Origin::paste) return;
  const HostInfo& h = *in.snap.host;
  const NvidiaSystem& n = *in.snap.nvidia;
  const std::string kernel = h.kernel_release.value_or("?");
  // WSL 1 is said by its kernel ("4.4.0-19041-Microsoft"). With no kernel release read, /dev/dxg
  // (WSL 2's GPU paravirtualization device, which WSL 1 does not have) settles it; with neither,
  // the version is unknown and nothing is said about it.
  std::optional<std::string> version = h.wsl_version;
  if (!version && n.dev_dxg == std::optional<bool>(true)) version = "2";
  if (!version) return;
  if (*version != "2") {
    Finding f = make_finding(self, Severity::fail,
                             "WSL 1 has no GPU: CUDA, NVML and every framework see no device");
    f.evidence.push_back("kernel " + kernel + " (a WSL 1 kernel)");
    f.fix = "in Windows: wsl --set-version <distribution> 2 (or wsl --set-default-version 2 and "
            "reinstall the distribution)";
    f.source = kWslGuide;
    out.push_back(std::move(f));
    return;
  }
  const bool wsl_libcuda = std::any_of(n.libcuda.begin(), n.libcuda.end(), in_wsl_dir);
  if (n.dev_dxg == std::optional<bool>(false) || (!wsl_libcuda && n.dev_dxg != std::optional<bool>(true))) {
    Finding f = make_finding(self, Severity::fail,
                             "WSL 2 without GPU paravirtualization: no /dev/dxg or no " +
                                 std::string(kWslLibDir) + "/libcuda.so*, so no GPU reaches Linux");
    f.evidence.push_back("kernel " + kernel);
    if (n.dev_dxg) f.evidence.push_back(std::string("/dev/dxg: ") + (*n.dev_dxg ? "present" : "missing"));
    f.evidence.push_back(std::string(kWslLibDir) + "/libcuda.so*: " + (wsl_libcuda ? "present" : "missing"));
    f.fix = "in Windows: update to Windows 11 or Windows 10 21H2 (build 19044) or later, run "
            "wsl --update, install the current NVIDIA Windows driver, then wsl --shutdown";
    f.source = kWslWindowsBuild;
    out.push_back(std::move(f));
    return;
  }
  if (n.dev_dxg == std::optional<bool>(true) && !wsl_libcuda) {
    // /dev/dxg carries every vendor's GPU to WSL (AMD's and Intel's through their own Windows
    // drivers); with ROCm installed and no CUDA toolkit, the GPU behind it is not NVIDIA's to
    // judge (ROCm/legacy-rocm-build#3561: an RX 7900 XTX under WSL 2).
    if (in.snap.rocm && !in.snap.rocm->installs.empty() && n.toolkits.empty()) return;
    Finding f = make_finding(self, Severity::fail,
                             "/dev/dxg is here but " + std::string(kWslLibDir) +
                                 " holds no libcuda: the Windows NVIDIA driver is missing or too "
                                 "old for CUDA on WSL");
    f.evidence.push_back("kernel " + kernel);
    f.fix = "install the current NVIDIA driver for your GPU in Windows (not in Linux), then "
            "wsl --shutdown";
    f.source = kWslGuide;
    out.push_back(std::move(f));
    return;
  }
  if (n.wsl_dxcore == std::optional<bool>(false)) {
    Finding f = make_finding(self, Severity::fail,
                             std::string(kWslLibDir) + " holds libcuda but no libdxcore.so, "
                             "through which it reaches the GPU (/dev/dxg): CUDA finds no usable "
                             "device (\"all CUDA-capable devices are busy or unavailable\")");
    f.evidence.push_back("kernel " + kernel);
    f.evidence.push_back(std::string(kWslLibDir) + "/libdxcore.so: missing");
    f.fix = "the folder is Windows' (C:\\Windows\\System32\\lxss\\lib): update Windows "
            "and run wsl --update, reinstall the NVIDIA Windows driver, then wsl --shutdown";
    f.source = "https://github.com/microsoft/WSL/issues/6014";
    out.push_back(std::move(f));
    return;
  }
  const LibraryFile* picked = picked_libcuda(n);
  if (!picked) {
    Finding f = make_finding(self, Severity::fail,
                             std::string(kWslLibDir) + " holds libcuda but the loader does not "
                             "search it: CUDA programs find no driver");
    f.evidence.push_back(std::string(kWslLibDir) + " is in no /etc/ld.so.conf.d file nor "
                         "LD_LIBRARY_PATH");
    f.fix = "echo " + std::string(kWslLibDir) + " | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && "
            "sudo ldconfig (WSL writes this file itself; an image or script removed it)";
    f.source = kWslGuide;
    out.push_back(std::move(f));
    return;
  }
  const bool linux_module = std::find(n.kernel.loaded_modules.begin(), n.kernel.loaded_modules.end(),
                                      "nvidia") != n.kernel.loaded_modules.end() ||
                            !n.kernel.dkms.empty();
  std::vector<const LibraryFile*> linux_libs;
  for (const auto& l : n.libcuda) {
    if (l.on_search_path && !l.stub && !in_wsl_dir(l)) linux_libs.push_back(&l);
  }
  if (!linux_libs.empty() || linux_module) {
    // Whichever copy the loader's cache hands out, the Linux driver's tools and libraries look
    // for /dev/nvidia*, which WSL never has; NVIDIA's guide says never to install it here.
    Finding f = make_finding(self, Severity::fail,
                             "A Linux NVIDIA driver is installed inside WSL: its libcuda and "
                             "nvidia-smi look for /dev/nvidia*, which WSL does not have, and "
                             "shadow the Windows driver's");
    f.id = "nvidia.wsl_linux_driver";
    for (const auto* l : linux_libs) {
      f.evidence.push_back("Linux driver library: " + l->path +
                           (l->real_path && *l->real_path != l->path ? " → " + *l->real_path : ""));
    }
    f.evidence.push_back("libcuda the loader's directory order picks: " +
                         picked->real_path.value_or(picked->path));
    for (const auto& d : n.kernel.dkms) f.evidence.push_back("dkms: " + d);
    f.fix = "remove the Linux driver from the distribution (sudo apt-get remove --purge "
            "'nvidia-driver-*' 'libnvidia-compute-*' 'nvidia-dkms-*' cuda-drivers, or run the "
            ".run installer with --uninstall); install only cuda-toolkit-<version> from NVIDIA's "
            "WSL-Ubuntu repository, which carries no driver";
    f.source = kWslGuide;
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
