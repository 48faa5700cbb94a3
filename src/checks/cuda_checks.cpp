// CUDA as a program sees it: which libcuda it gets, what cuInit says, which GPUs are visible,
// which toolkit builds it.
#include <algorithm>

#include "checks/area_status.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

namespace {

std::string parent_dir(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

/// CUDA_VISIBLE_DEVICES leaving no GPU to CUDA: CUDA reads the list up to its first entry that
/// names no GPU (an index out of range, a UUID that starts no GPU's). nullopt when it leaves one,
/// or is unset, or no NVIDIA GPU is known.
struct HiddenByVisibleDevices {
  std::optional<std::string> unknown_uuid;  ///< the GPU- entry that stopped the list
  std::size_t uuids_known = 0;              ///< NVML's UUIDs it was held against
};
std::optional<HiddenByVisibleDevices> cuda_visible_devices_hide_all(const Snapshot& snap) {
  if (!snap.nvidia || !snap.nvidia->cuda_visible_devices) return std::nullopt;
  const std::string& v = *snap.nvidia->cuda_visible_devices;
  const std::size_t gpus = nvidia_gpu_count(snap);
  if (gpus == 0) return std::nullopt;
  // NVML ignores CUDA_VISIBLE_DEVICES: its UUIDs are every GPU's. A GPU- entry that starts
  // none of them hides the rest of the list as a bad index does (a real H200 with
  // CUDA_VISIBLE_DEVICES=GPU-00000000-1111-…: cuInit 100, torch "No CUDA GPUs are available").
  std::vector<std::string> uuids;
  if (snap.nvml) {
    for (const auto& g : snap.nvml->devices) {
      if (g.uuid) uuids.push_back(to_lower(*g.uuid));
    }
  }
  HiddenByVisibleDevices out;
  out.uuids_known = uuids.size();
  std::size_t usable = 0;
  for (const auto& e : split_words(v, ",")) {
    std::string t(trim(e));
    const std::string lower = to_lower(t);
    if (starts_with(lower, "mig-")) {
      ++usable;  // MIG instances are not in NVML's list of GPUs
      continue;
    }
    if (starts_with(lower, "gpu-")) {
      const bool known = uuids.empty() ||
                         std::any_of(uuids.begin(), uuids.end(),
                                     [&](const std::string& u) { return starts_with(u, lower); });
      if (!known) {
        out.unknown_uuid = t;
        break;
      }
      ++usable;
      continue;
    }
    auto idx = parse_int(t);
    if (!idx || *idx < 0 || static_cast<std::size_t>(*idx) >= gpus) break;  // stops the list
    ++usable;
  }
  if (usable > 0) return std::nullopt;
  return out;
}

}  // namespace

void check_stub_libcuda(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  std::optional<std::string> stub_path;
  if (in.snap.nvidia && !in.snap.nvidia->libcuda.empty() && in.snap.nvidia->libcuda[0].stub) {
    stub_path = in.snap.nvidia->libcuda[0].path;
  }
  if (in.snap.cuda && in.snap.cuda->stub == std::optional<bool>(true)) {
    stub_path = in.snap.cuda->library.value_or(stub_path.value_or("libcuda.so"));
  }
  if (!stub_path) return;
  Finding f = make_finding(self, Severity::fail,
                           "The CUDA toolkit's stub libcuda comes first on the library path: "
                           "CUDA programs get CUDA_ERROR_STUB_LIBRARY (34) or "
                           "\"CUDA driver version is insufficient\" (35)");
  f.evidence.push_back("libcuda the loader picks: " + *stub_path);
  if (in.snap.cuda && in.snap.cuda->init_error) {
    f.evidence.push_back("cuInit returned " + std::to_string(in.snap.cuda->init_error->code) +
                         (in.snap.cuda->init_error->name ? " " + *in.snap.cuda->init_error->name
                                                         : std::string()));
  }
  const std::string dir = parent_dir(*stub_path);
  const auto& ldp = in.snap.nvidia ? in.snap.nvidia->ld_library_path : std::nullopt;
  if (ldp && ldp->find(dir) != std::string::npos) {
    f.evidence.push_back("LD_LIBRARY_PATH=" + *ldp);
    f.fix = "remove " + dir + " from LD_LIBRARY_PATH (the stubs are for linking only): "
            "export LD_LIBRARY_PATH=" + without_dir(*ldp, dir);
  } else {
    f.fix = "remove " + dir + " from the loader's configuration (/etc/ld.so.conf.d) and run "
            "sudo ldconfig; the stubs are for linking only";
  }
  out.push_back(std::move(f));
}

void check_libcuda_unversioned(const CheckSpec& self, const CheckInput& in,
                               std::vector<Finding>& out) {
  if (!in.snap.nvidia) return;
  const auto& libs = in.snap.nvidia->libcuda;
  const auto hidden = std::find_if(libs.begin(), libs.end(), [](const LibraryFile& l) {
    return l.name == "libcuda.so" && l.hidden_from_cache && !l.stub;
  });
  if (hidden == libs.end()) return;
  // Only where the driver itself is reachable: without libcuda.so.1 other checks name the cause.
  const auto so1 = std::find_if(libs.begin(), libs.end(), [](const LibraryFile& l) {
    return l.name == "libcuda.so.1" && l.on_search_path && !l.stub;
  });
  if (so1 == libs.end()) return;
  const std::string dir = parent_dir(hidden->path);
  // ldconfig caches a plain file under its soname only, and a link under the link's name: a
  // plain file stays out of the cache whatever ldconfig is run, a link is missing only from a
  // cache older than it.
  const bool plain_file = !hidden->real_path || hidden->real_path->substr(hidden->real_path->rfind('/') + 1) == hidden->name;
  Finding f = make_finding(
      self, Severity::info,
      "libcuda.so (the unversioned name) is not in the loader's cache, only libcuda.so.1: a "
      "program that opens \"libcuda.so\" (cuda-python 11, cuDF, cudarc/candle, "
      "ctypes.CDLL('libcuda.so')) finds no driver");
  f.evidence.push_back(hidden->path + (plain_file ? ": a plain file" : ": a link") + "; " + dir +
                       " is seen by the loader only through its cache (ld.so.conf), which "
                       "lists " + so1->path + " and no libcuda.so there");
  const auto& ldp = in.snap.nvidia->ld_library_path;
  f.evidence.push_back("LD_LIBRARY_PATH: " + (ldp ? *ldp : std::string("not set")));
  if (plain_file) {
    f.fix = "export LD_LIBRARY_PATH=" + dir + ":$LD_LIBRARY_PATH (in ~/.bashrc, or the "
            "environment of the service that runs the program): ld.so searches that directory "
            "itself; ldconfig keeps caching a plain file only as libcuda.so.1";
  } else {
    f.fix = "sudo ldconfig (the cache is older than " + hidden->path + ")";
  }
  out.push_back(std::move(f));
}

void check_cuda_init(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.cuda) return;
  const CudaInfo& c = *in.snap.cuda;
  const std::size_t gpus = nvidia_gpu_count(in.snap);
  if (!c.library && !c.init_error) {
    if (!in.snap.live) return;  // not probed under --sysroot
    // A libcuda that crashed or hung left no answer; probe.* names it, and "not found" would
    // be a second, wrong finding for the same cause.
    if (probe_went_wrong(in.snap, "cuda")) return;
    bool toolkit = in.snap.nvidia && !in.snap.nvidia->toolkits.empty();
    if (gpus == 0 && !toolkit) return;
    const bool mac = on_macos(in.snap);
    const std::string lib = mac ? "libcuda.dylib" : "libcuda.so.1";
    Finding f = make_finding(self, gpus > 0 ? Severity::fail : Severity::info,
                             gpus > 0 ? "No " + lib +
                                            ": the NVIDIA userspace driver is not installed, so "
                                            "nothing can use the GPU through CUDA"
                                      : "No NVIDIA driver here (no " + lib +
                                            "): the CUDA toolkit can build programs but not "
                                            "run them on this machine");
    f.id = "cuda.no_driver";
    f.evidence.push_back("dlopen(" + lib + ") found nothing");
    // The file is there, in a directory of ld.so.conf, but the loader's cache does not list it:
    // a driver copied in (a .run install, an image layer) without `ldconfig` after it.
    const LibraryFile* uncached = nullptr;
    if (in.snap.nvidia) {
      for (const auto& l : in.snap.nvidia->libcuda) {
        if (l.name == lib && l.hidden_from_cache && !l.stub) uncached = &l;
      }
    }
    if (uncached) {
      f.title = lib + " is installed but the loader's cache does not list it: dlopen(\"" + lib +
                "\") finds nothing, so no program can use the GPU through CUDA";
      f.evidence.push_back(uncached->path + " is there; its directory is named by ld.so.conf, "
                           "which the loader reads only through /etc/ld.so.cache");
      f.fix = "sudo ldconfig (rebuilds the cache; run it after installing a driver by hand)";
      f.source = "https://man7.org/linux/man-pages/man8/ldconfig.8.html";
      out.push_back(std::move(f));
      return;
    }
    if (gpus > 0 && mac) {
      f.fix = "install NVIDIA's CUDA driver for macOS (cudadriver_<version>_macos.dmg, from "
              "https://www.nvidia.com/object/mac-driver-archive.html) that supports both the "
              "toolkit and the NVIDIA display driver";
    } else if (gpus > 0) {
      f.fix = "install the NVIDIA driver's userspace libraries (" +
              nvidia_userspace_package(in.snap, "libcuda1", "libnvidia-compute") +
              ") of the kernel module's version";
    }
    out.push_back(std::move(f));
    return;
  }
  if (!c.init_error || c.init_error->code == 34) return;  // 34 is the stub check's
  const int code = c.init_error->code;
  // No device because CUDA_VISIBLE_DEVICES hides every GPU or this user cannot open the nodes:
  // cuda.visible_devices and nvidia.device_nodes name that cause and its fix (one cause, one
  // finding; both seen for real on an H200).
  if (code == 100 && (cuda_visible_devices_hide_all(in.snap) || !nvidia_nodes_denied(in.snap).empty())) {
    return;
  }
  Finding f = make_finding(self, Severity::fail,
                           "cuInit failed with " + std::to_string(code) +
                               (c.init_error->name ? " (" + *c.init_error->name + ")" : "") +
                               ": no CUDA program can use the GPU");
  f.evidence.push_back(c.init_error->call + " returned " + std::to_string(code) + " " +
                       c.init_error->name.value_or("") + " " + c.init_error->text.value_or(""));
  if (c.library) f.evidence.push_back("libcuda: " + *c.library);
  switch (code) {
    case 100: {
      const bool wsl = in.snap.host && in.snap.host->wsl;
      // WSL has no /dev/nvidia*: the GPU comes through /dev/dxg from the Windows driver, and a
      // Linux NVIDIA driver installed inside the distro hides it (NVIDIA's CUDA on WSL guide).
      const std::string fix =
          on_macos(in.snap)
              ? "check CUDA_VISIBLE_DEVICES, and that NVIDIA's kernel extensions are loaded: "
                "kextstat | grep -i -e nvidia -e cuda"
          : wsl ? "WSL: check CUDA_VISIBLE_DEVICES, that /dev/dxg exists (ls -l /dev/dxg), that "
                  "the Windows NVIDIA driver is installed and current (nvidia-smi.exe on Windows), "
                  "and that no Linux NVIDIA driver package is installed inside the distro "
                  "(https://docs.nvidia.com/cuda/wsl-user-guide/index.html); then wsl --update"
                : "check CUDA_VISIBLE_DEVICES and the /dev/nvidia* permissions";
      if (gpus == 0 && in.snap.origin == Origin::paste && !in.snap.pci) {
        // A paste that shows no GPU list cannot tell "no GPU" from "a GPU CUDA cannot see".
        f.severity = Severity::warn;
        f.title = "CUDA found no device (cuInit 100, \"no CUDA-capable device is detected\"): "
                  "either the machine has no NVIDIA GPU, or the GPU is hidden from CUDA";
        f.fix = fix + "; nvidia-smi shows whether the driver sees a GPU at all";
      } else if (gpus == 0) {
        f.severity = Severity::info;
        f.title = "The CUDA driver is installed but there is no NVIDIA GPU on this machine";
      } else {
        f.fix = fix;
      }
      break;
    }
    case 35:
      f.fix = "the driver is older than this libcuda's CUDA: upgrade the NVIDIA driver";
      break;
    case 999:
      f.fix = on_macos(in.snap) ? "restart the Mac"
                                : "often after suspend/resume: stop GPU users, then sudo rmmod "
                                  "nvidia_uvm && sudo modprobe nvidia_uvm (or reboot)";
      break;
    case 802:
      // On an NVSwitch system nvidia.fabricmanager names the cause and its fix.
      if (in.snap.nvidia && !in.snap.nvidia->nvswitches.empty()) return;
      f.fix = "NVSwitch system: install and start nvidia-fabricmanager of the same version as "
              "the driver (sudo systemctl enable --now nvidia-fabricmanager)";
      break;
    default:
      f.fix = "see the CUDA driver API error reference for this code";
  }
  out.push_back(std::move(f));
}

namespace {

/// AMD's GPU selection (ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES) set where the bus has NVIDIA
/// GPUs and no AMD one: Slurm sets ROCR_VISIBLE_DEVICES in every GPU job unless gres.conf says
/// which vendor's variable to set, and a runtime that reads both vendors' variables (ollama)
/// then loads no GPU.
void foreign_visible_devices(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  const std::size_t nvidia_gpus = nvidia_gpu_count(s);
  if (!s.rocm || nvidia_gpus == 0 || !pci_shows_no_gpu_of(s, kPciVendorAmd)) return;
  std::vector<std::string> set;
  if (s.rocm->rocr_visible_devices) set.push_back("ROCR_VISIBLE_DEVICES=" + *s.rocm->rocr_visible_devices);
  if (s.rocm->hip_visible_devices) set.push_back("HIP_VISIBLE_DEVICES=" + *s.rocm->hip_visible_devices);
  if (set.empty()) return;
  const bool ollama = s.runtimes && !s.runtimes->ollama.empty();
  Finding f = make_finding(
      self, ollama ? Severity::warn : Severity::info,
      join(set, " and ") + " set on a machine with NVIDIA GPUs and no AMD GPU" +
          (ollama ? ": ollama reads AMD's selection beside CUDA's and then loads no GPU"
                  : ": it selects nothing here"));
  f.id = "gpu.foreign_visible_devices";
  for (const auto& v : set) f.evidence.push_back(v);
  f.evidence.push_back("NVIDIA GPUs here: " + std::to_string(nvidia_gpus) + "; no AMD GPU on PCI");
  if (ollama) {
    for (const auto& o : s.runtimes->ollama) f.evidence.push_back("ollama: " + o.binary);
  }
  f.fix = "unset ROCR_VISIBLE_DEVICES (and HIP_VISIBLE_DEVICES) before starting the workload (an "
          "empty value is not the same as unset); on a Slurm node with only NVIDIA GPUs add "
          "Flags=nvidia_gpu_env to its gres.conf line, so jobs get CUDA_VISIBLE_DEVICES only";
  f.source = "https://slurm.schedmd.com/gres.conf.html";
  out.push_back(std::move(f));
}

}  // namespace

void check_cuda_visible_devices(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  foreign_visible_devices(self, in, out);
  const auto hidden = cuda_visible_devices_hide_all(in.snap);
  if (!hidden) return;
  const std::string& v = *in.snap.nvidia->cuda_visible_devices;
  const std::size_t gpus = nvidia_gpu_count(in.snap);
  Finding f = make_finding(self, Severity::fail,
                           "CUDA_VISIBLE_DEVICES hides every GPU: CUDA programs see no device "
                           "(\"no CUDA-capable device is detected\")");
  f.evidence.push_back("CUDA_VISIBLE_DEVICES=\"" + v + "\"");
  f.evidence.push_back("NVIDIA GPUs here: " + std::to_string(gpus) + " (indices 0.." +
                       std::to_string(gpus - 1) + ")");
  f.fix = "unset CUDA_VISIBLE_DEVICES, or set it to indices below " + std::to_string(gpus) +
          " (e.g. export CUDA_VISIBLE_DEVICES=0)";
  if (hidden->unknown_uuid) {
    f.evidence.push_back(*hidden->unknown_uuid + " is the UUID of no GPU here (NVML lists " +
                         std::to_string(hidden->uuids_known) + ")");
    f.fix = "use a UUID that nvidia-smi -L lists, or an index below " + std::to_string(gpus) +
            "; or unset CUDA_VISIBLE_DEVICES";
  }
  out.push_back(std::move(f));
}

void check_toolkit_symlink_vs_nvcc(const CheckSpec& self, const CheckInput& in,
                                   std::vector<Finding>& out) {
  if (!in.snap.nvidia) return;
  const NvidiaSystem& n = *in.snap.nvidia;
  const CudaToolkit* linked = nullptr;
  const CudaToolkit* on_path = nullptr;
  for (const auto& t : n.toolkits) {
    if (t.default_symlink) linked = &t;
    if (n.nvcc_on_path && t.nvcc && *t.nvcc == *n.nvcc_on_path) on_path = &t;
    if (n.nvcc_on_path && starts_with(*n.nvcc_on_path, t.path + "/")) on_path = &t;
  }
  if (!linked || !on_path || linked == on_path) return;
  if (linked->version && on_path->version && *linked->version == *on_path->version) return;
  Finding f = make_finding(self, Severity::warn,
                           "nvcc on PATH is CUDA " + on_path->version.value_or("?") + " from " +
                               on_path->path + ", but /usr/local/cuda points to CUDA " +
                               linked->version.value_or("?") + " (" + linked->path + ")");
  f.evidence.push_back("nvcc on PATH: " + *n.nvcc_on_path);
  f.evidence.push_back("/usr/local/cuda → " + n.usr_local_cuda.value_or(linked->path));
  f.fix = "build with one toolkit: export PATH=/usr/local/cuda/bin:$PATH (and "
          "CUDA_HOME=/usr/local/cuda), or point /usr/local/cuda at " + on_path->path;
  out.push_back(std::move(f));
}

void check_glibc_math_headers(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  if (!in.snap.nvidia || !in.snap.host || in.snap.host->glibc_cospi != std::optional<bool>(true)) {
    return;
  }
  for (const auto& t : in.snap.nvidia->toolkits) {
    if (!t.nvcc || t.cospi_exception_spec != std::optional<bool>(false)) continue;
    const std::string name = "CUDA " + t.version.value_or("?") + " (" + t.path + ")";
    Finding f = make_finding(
        self, Severity::warn,
        "nvcc of " + name + " cannot compile code that includes math.h or <cmath> against this "
        "system's glibc: its crt/math_functions.h declares cospi, cospif, sinpi and sinpif with "
        "no exception specification, glibc's with one (\"exception specification is incompatible "
        "with that of previous function \"cospi\"\")");
    f.evidence.push_back(t.path + "/…/crt/math_functions.h: cospi(double x) declared without an "
                         "exception specification");
    f.evidence.push_back("glibc's bits/mathcalls.h declares cospi (glibc 2.41 and later)");
    f.fix = "build with a CUDA toolkit whose crt/math_functions.h gives them an exception "
            "specification (CUDA 13.0's does), or inside a container with an older glibc; the "
            "patch people apply instead adds noexcept (true) to those four declarations in "
            "the toolkit's math_functions.h";
    f.source = "https://github.com/NVIDIA/cuda-samples/issues/378";
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
