// Intel's chain, stage by stage (docs/intel.md). Knowledge is data/compat/intel.json.
#include "checks/intel_checks.hpp"

#include <algorithm>

#include "checks/check_util.hpp"
#include "checks/intel_identity.hpp"
#include "checks/python_facts.hpp"
#include "compat/version.hpp"
#include "model/access_view.hpp"

namespace gpudoctor {

namespace {

bool intel_passthrough(const PciDevice& p) {
  return p.driver && (*p.driver == "vfio-pci" || *p.driver == "pci-stub");
}

/// The kernel this snapshot ran, as a version ("6.8.0"), when said.
std::optional<Version> intel_running_kernel(const Snapshot& s) {
  if (!s.host) return std::nullopt;
  auto v = intel_kernel_version(s.host->kernel_release);
  return v ? parse_version(*v) : std::nullopt;
}

struct IntelKernelVerdict {
  bool certain = true;  ///< no driver at all; a bound driver on an old kernel is a risk
  std::string title;
  std::string fix;
  std::vector<std::string> evidence;
};

/// What the running kernel means for this GPU: set when it is older than its platform needs.
std::optional<IntelKernelVerdict> intel_kernel_verdict(const Snapshot& s, const PciDevice& p) {
  if (p.vendor_id != kPciVendorIntel || intel_passthrough(p)) return std::nullopt;
  const IntelIdentity id = identify_intel(p);
  if (!id.platform || !id.platform->min_kernel || id.platform->drivers.empty()) return std::nullopt;
  const auto kernel = intel_running_kernel(s);
  const auto min = parse_version(*id.platform->min_kernel);
  if (!kernel || !min) return std::nullopt;
  const IntelPlatform& pl = *id.platform;
  const std::string drivers = join(pl.drivers, " or ");
  IntelKernelVerdict v;
  v.evidence.push_back(pci_label(p) + ": " + pl.platform + " (" + pl.generation + "), from " +
                       id.how);
  v.evidence.push_back("kernel: " + *s.host->kernel_release);
  v.evidence.push_back(p.driver ? "driver bound: " + *p.driver : "no kernel driver bound");
  if (compare_to_bound(*kernel, *min) < 0) {
    v.title = pl.platform + " GPU " + p.address + " needs Linux " + *pl.min_kernel +
              " or newer (" + drivers + "); this kernel is " + *s.host->kernel_release +
              (p.driver ? ": compute on it fails unless this " + *p.driver +
                              " is a backport that supports it (Intel's intel-i915-dkms)"
                        : ": no driver binds the GPU");
    v.certain = !p.driver;
    v.fix = "install a kernel of " + *pl.min_kernel + " or newer (your distribution's HWE or "
            "mainline kernel, e.g. Ubuntu: sudo apt install linux-generic-hwe-24.04), reboot, and "
            "check that `lspci -k -s " + p.address + "` says \"Kernel driver in use: " +
            pl.drivers.front() + "\"";
    return v;
  }
  if (!p.driver && pl.force_probe_kernel &&
      compare_to_bound(*kernel, *parse_version(*pl.force_probe_kernel)) <= 0) {
    v.title = pl.platform + " GPU " + p.address + " is only bound by " + pl.drivers.front() +
              " on Linux " + *pl.force_probe_kernel + " with " + pl.drivers.front() +
              ".force_probe: no driver binds it";
    v.fix = "boot with " + pl.drivers.front() + ".force_probe=" + hex(p.device_id, 4) +
            " on the kernel command line, or install a newer kernel";
    return v;
  }
  return std::nullopt;
}

bool intel_kernel_driver_bound(const PciDevice& p) {
  return p.vendor_id == kPciVendorIntel && p.driver && (*p.driver == "i915" || *p.driver == "xe");
}

std::vector<const PciDevice*> intel_bound_gpus(const Snapshot& s) {
  std::vector<const PciDevice*> out;
  for (const PciDevice* p : pci_gpus(s, kPciVendorIntel)) {
    if (intel_kernel_driver_bound(*p)) out.push_back(p);
  }
  return out;
}

/// The render nodes of the Intel GPUs (by /dev/dri/by-path where recorded, else every one).
std::vector<const DeviceNode*> intel_render_nodes(const Snapshot& s, const HostAccess& a) {
  std::vector<std::string> addresses;
  for (const PciDevice* p : intel_bound_gpus(s)) addresses.push_back(p->address);
  std::vector<const DeviceNode*> out;
  for (const auto& d : a.device_nodes) {
    if (d.path.rfind("/dev/dri/renderD", 0) != 0) continue;
    bool other_gpu = false;
    for (const auto& l : a.dri_by_path) {
      if (l.node == d.path &&
          std::find(addresses.begin(), addresses.end(), l.pci_address) == addresses.end()) {
        other_gpu = true;
      }
    }
    if (!other_gpu) out.push_back(&d);
  }
  return out;
}

bool intel_world_rw(const DeviceNode& d) {
  return d.mode && d.mode->size() >= 10 && (*d.mode)[7] == 'r' && (*d.mode)[8] == 'w';
}

/// Whether an AMD GPU is bound to amdgpu: ROCm's access check then speaks for the render group.
bool intel_amd_render_check_applies(const Snapshot& s) {
  for (const PciDevice* p : pci_gpus(s, kPciVendorAmd)) {
    if (p->driver && *p->driver == "amdgpu") return true;
  }
  return false;
}

const PythonPackage* intel_find(const PythonEnv& env, std::string_view name) {
  return find_package(env, name);
}

bool intel_xpu_torch(const PythonPackage& torch) {
  if (torch.torch && torch.torch->xpu) return true;
  if (!torch.version) return false;
  auto v = parse_version(*torch.version);
  return v && v->local == "xpu";
}

bool intel_xpu_ipex(const PythonPackage& ipex) {
  if (!ipex.version) return false;
  auto v = parse_version(*ipex.version);
  return v && starts_with(v->local, intel_table().ipex.xpu_local_tag);
}

/// The XPU frameworks of the environments: "torch 2.7.0+xpu in /venv", "IPEX 2.1.10+xpu in …".
std::vector<std::string> intel_xpu_frameworks(const Snapshot& s) {
  std::vector<std::string> out;
  if (!s.python) return out;
  for (const auto& env : s.python->envs) {
    if (const auto* t = intel_find(env, "torch"); t && intel_xpu_torch(*t)) {
      out.push_back("torch " + t->version.value_or("?") + " in " + env_label(env));
    }
    if (const auto* i = intel_find(env, "intel-extension-for-pytorch"); i && intel_xpu_ipex(*i)) {
      out.push_back("intel-extension-for-pytorch " + i->version.value_or("?") + " in " +
                    env_label(env));
    }
    if (const auto* i = intel_find(env, "intel-extension-for-tensorflow")) {
      out.push_back("intel-extension-for-tensorflow " + i->version.value_or("?") + " in " +
                    env_label(env));
    }
  }
  return out;
}

std::string intel_ipex_source(std::size_t i) {
  const auto& s = intel_table().ipex.sources;
  return i < s.size() ? s[i] : (s.empty() ? std::string() : s.back());
}

}  // namespace

bool intel_kernel_explains(const Snapshot& s, const PciDevice& p) {
  return !p.driver && intel_kernel_verdict(s, p).has_value();
}

void check_intel_kernel_driver(const CheckSpec& self, const CheckInput& in,
                               std::vector<Finding>& out) {
  for (const PciDevice* p : pci_gpus(in.snap, kPciVendorIntel)) {
    auto v = intel_kernel_verdict(in.snap, *p);
    if (!v) continue;
    Finding f = make_finding(self, v->certain ? Severity::fail : Severity::warn, v->title);
    f.id = "intel.kernel_too_old";
    f.evidence = v->evidence;
    f.fix = v->fix;
    const IntelIdentity id = identify_intel(*p);
    if (id.platform && !id.platform->source.empty()) f.source = id.platform->source;
    out.push_back(std::move(f));
  }
}

void check_intel_render_access(const CheckSpec& self, const CheckInput& in,
                               std::vector<Finding>& out) {
  if (intel_bound_gpus(in.snap).empty() || intel_amd_render_check_applies(in.snap)) return;
  const HostAccess& a = host_access(in.snap);
  const auto nodes = intel_render_nodes(in.snap, a);
  if (nodes.empty()) return;
  // The group that owns the render nodes: from the nodes, else udev's rule (render where that
  // group exists, else video).
  std::optional<std::string> group;
  bool inferred = false;
  bool open_to_all = false;
  for (const DeviceNode* d : nodes) {
    open_to_all = open_to_all || intel_world_rw(*d);
    if (d->group && d->mode) group = d->group;
  }
  if (open_to_all) return;
  if (!group) {
    inferred = true;
    for (const char* g : {"render", "video"}) {
      for (const auto& x : a.account.device_groups) {
        if (!group && x.group == g) group = g;
      }
    }
  }
  if (!group) return;
  std::vector<std::string> paths;
  for (const DeviceNode* d : nodes) paths.push_back(d->path);
  const ProcessAccount& acc = a.account;
  const bool opens = std::all_of(nodes.begin(), nodes.end(), [](const DeviceNode* d) {
    return d->readable == std::optional<bool>(true) && d->writable == std::optional<bool>(true);
  });
  if (acc.uid && *acc.uid != 0 && !opens) {
    auto g = std::find_if(acc.device_groups.begin(), acc.device_groups.end(),
                          [&](const GroupAccess& x) { return x.group == *group; });
    if (g != acc.device_groups.end() && !g->in_process) {
      const std::string user = acc.user.value_or("uid " + std::to_string(*acc.uid));
      Finding f = make_finding(self, inferred ? Severity::warn : Severity::fail, "");
      f.evidence.push_back("render nodes: " + join(paths, ", ") + (inferred ? " (owner not "
                           "recorded: udev gives them to " + *group + ")" : " (group " + *group + ")"));
      f.evidence.push_back("/etc/group: " + *group + (g->listed_for_user ? " lists " : " does not list ") + user);
      if (g->listed_for_user) {
        f.id = "intel.group_not_active";
        f.title = user + " was added to the " + *group + " group after this session started: "
                  "its processes still lack it, so Level Zero and OpenCL find no Intel GPU";
        f.fix = "log out and back in (a new SSH session, or reboot), or run: newgrp " + *group;
      } else {
        f.id = "intel.not_in_render_group";
        f.title = user + " is not in the " + *group + " group that owns " + join(paths, ", ") +
                  ": Level Zero, OpenCL and SYCL find no Intel GPU (sycl-ls lists none)";
        f.fix = "sudo usermod -aG " + *group + " " + user + ", then log out and back in";
      }
      out.push_back(std::move(f));
    }
  }
  for (const auto& w : a.workloads) {
    if (w.from.empty() || w.from[0] != '/' || !w.uid || *w.uid == 0 || w.dynamic_user) continue;
    if (std::find(w.groups.begin(), w.groups.end(), *group) != w.groups.end()) continue;
    const std::string unit = w.from.substr(w.from.rfind('/') + 1);
    Finding f = make_finding(self, inferred ? Severity::warn : Severity::fail,
                             "The account " + unit + " runs as (" + w.user + ") is not in the " +
                                 *group + " group: it cannot open " + join(paths, ", ") +
                                 " and finds no Intel GPU");
    f.id = "intel.workload_access";
    f.evidence.push_back("User=" + w.user + " in " + w.from);
    f.evidence.push_back(w.user + "'s groups: " + (w.groups.empty() ? "(none)" : join(w.groups, ", ")));
    f.fix = "sudo usermod -aG " + *group + " " + w.user + ", then sudo systemctl restart " + unit;
    out.push_back(std::move(f));
  }
}

/// The Level Zero GPU drivers (libze_intel_gpu.so.1, libze_intel_gpu_legacy1.so.1) the Level Zero
/// section found on the library path, or nullopt where it did not look: no section (a snapshot
/// from before it), or ZE_ENABLE_ALT_DRIVERS set (the loader then takes that list, not its search).
std::optional<std::vector<std::string>> intel_ze_gpu_drivers(const Snapshot& s) {
  if (!s.level_zero || s.level_zero->alt_drivers) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& lib : s.level_zero->driver_libraries) {
    const std::string base = lib.substr(lib.rfind('/') + 1);
    if (base.rfind("libze_intel_gpu", 0) == 0) out.push_back(lib);
  }
  return out;
}

void check_intel_compute_runtime(const CheckSpec& self, const CheckInput& in,
                                 std::vector<Finding>& out) {
  const auto gpus = intel_bound_gpus(in.snap);
  if (gpus.empty()) return;
  if (in.snap.origin == Origin::paste) return;  // a paste does not list the ICD directory
  const Snapshot& s = in.snap;
  // A Level Zero device the loader listed is the driver at work: nothing to say.
  if (s.level_zero && !s.level_zero->devices.empty()) return;
  bool icd = false;
  bool nix = false;
  std::vector<std::string> icds;
  if (s.opencl) {
    for (const auto& i : s.opencl->icds) {
      icds.push_back(i.library);
      if (to_lower(i.library).find("igdrcl") == std::string::npos) continue;
      icd = true;
      // NixOS: its level-zero loader finds drivers by its own runpath (/run/opengl-driver/lib),
      // which the library path search does not model; the Level Zero half is not judged there.
      nix = nix || i.library.rfind("/run/opengl-driver/", 0) == 0 ||
            i.library.rfind("/nix/store/", 0) == 0;
    }
  }
  auto ze = intel_ze_gpu_drivers(s);
  if (nix && ze && ze->empty()) ze.reset();
  const bool ze_found = ze && !ze->empty();
  const auto frameworks = intel_xpu_frameworks(s);
  const std::string gpu_line =
      "Intel GPU: " + pci_label(*gpus.front()) + ", driver " + *gpus.front()->driver;
  const std::string icd_line =
      s.opencl ? "OpenCL ICDs in " + s.opencl->vendors_dir + ": " +
                     (icds.empty() ? std::string("none") : join(icds, ", ")) +
                     (icd ? "" : " (no libigdrcl.so: Intel's compute runtime, intel-opencl-icd)")
               : std::string("OpenCL ICDs: not recorded");
  std::string ze_line;
  if (!s.level_zero) {
    ze_line = "the Level Zero GPU driver (libze_intel_gpu.so.1) was not examined: this snapshot "
              "has no Level Zero section";
  } else if (s.level_zero->alt_drivers) {
    ze_line = "the Level Zero GPU driver was not looked for: ZE_ENABLE_ALT_DRIVERS=" +
              *s.level_zero->alt_drivers + " chooses the loader's drivers";
  } else if (nix && !ze_found) {
    ze_line = "the Level Zero GPU driver was not looked for: NixOS's loader finds it through "
              "/run/opengl-driver/lib, not the library path";
  } else if (ze_found) {
    ze_line = "Level Zero GPU driver: " + join(*ze, ", ");
  } else {
    ze_line = "Level Zero drivers on the library path: " +
              (s.level_zero->driver_libraries.empty() ? std::string("none")
                                                      : join(s.level_zero->driver_libraries, ", ")) +
              " (no libze_intel_gpu.so.1: Intel's Level Zero GPU driver, libze-intel-gpu1, "
              "formerly intel-level-zero-gpu)";
  }
  // The OpenCL half without the Level Zero half (compute-runtime#477, #832): SYCL, torch XPU,
  // IPEX and llama.cpp's SYCL build run on Level Zero, so they see no GPU while clinfo does.
  if (icd && ze && !ze_found) {
    const bool fw = !frameworks.empty();
    Finding f = make_finding(
        self, fw ? Severity::fail : Severity::warn,
        fw ? "Intel's Level Zero GPU driver is not installed (only its OpenCL driver is): " +
                 join(frameworks, ", ") + " find no Intel GPU"
           : "Intel's Level Zero GPU driver is not installed (only its OpenCL driver is): "
             "sycl-ls lists the GPU through OpenCL only, and SYCL programs, torch XPU and "
             "llama.cpp's SYCL build find no Level Zero GPU");
    f.id = "intel.level_zero_missing";
    f.evidence = {gpu_line, icd_line, ze_line};
    f.fix = "install the Level Zero half of the compute runtime, the same release as "
            "intel-opencl-icd: Ubuntu/Debian: sudo apt install libze-intel-gpu1 libze1 (older "
            "releases: intel-level-zero-gpu level-zero); then sycl-ls lists a [level_zero:gpu] "
            "device";
    f.source = "https://github.com/intel/compute-runtime/issues/832";
    out.push_back(std::move(f));
    return;
  }
  if (frameworks.empty() || icd || ze_found) return;
  Finding f = make_finding(self, Severity::fail,
                           "Intel's GPU compute runtime is not installed: " +
                               join(frameworks, ", ") + " find no Intel GPU");
  f.id = "intel.compute_runtime_missing";
  f.evidence = {gpu_line, icd_line, ze_line};
  f.fix = "install Intel's compute runtime for the GPU: Ubuntu/Debian: sudo apt install "
          "intel-opencl-icd libze-intel-gpu1 libze1 (older releases: intel-level-zero-gpu "
          "level-zero); then check with sycl-ls that a [level_zero:gpu] device is listed";
  f.source = "https://dgpu-docs.intel.com/driver/client/overview.html";
  out.push_back(std::move(f));
}

void check_intel_frameworks(const CheckSpec& self, const CheckInput& in,
                            std::vector<Finding>& out) {
  if (!in.snap.python) return;
  const bool intel_gpu = !pci_gpus(in.snap, kPciVendorIntel).empty();
  const IntelIpexRule& rule = intel_table().ipex;
  for (const auto& env : in.snap.python->envs) {
    const PythonPackage* ipex = intel_find(env, "intel-extension-for-pytorch");
    if (!ipex || !ipex->version) continue;
    const auto iv = parse_version(*ipex->version);
    if (!iv || iv->parts.size() < 2) continue;
    const std::string label = "intel-extension-for-pytorch " + *ipex->version + " in " +
                              env_label(env);
    const PythonPackage* torch = intel_find(env, "torch");
    const auto tv = torch && torch->version ? parse_version(*torch->version) : std::nullopt;
    if (tv && tv->parts.size() >= 2 && (tv->parts[0] != iv->parts[0] || tv->parts[1] != iv->parts[1])) {
      const std::string needs = std::to_string(iv->parts[0]) + "." + std::to_string(iv->parts[1]);
      Finding f = make_finding(self, Severity::fail,
                               label + " needs torch " + needs + ".*; torch " + *torch->version +
                                   " is installed: it does not import");
      f.id = "python.ipex_torch";
      f.evidence.push_back("torch " + *torch->version + " (" + torch->metadata_dir + ")");
      f.evidence.push_back(label + " (" + ipex->metadata_dir + ")");
      f.fix = "install the torch " + needs + " release this IPEX pairs with (XPU builds from "
              "Intel's index, as its installation page gives), or the IPEX built for torch " +
              std::to_string(tv->parts[0]) + "." + std::to_string(tv->parts[1]) +
              "; from torch 2.8 on, XPU needs no IPEX";
      f.source = intel_ipex_source(0);
      out.push_back(std::move(f));
      continue;  // one cause: the pairing comes first
    }
    if (intel_gpu && !intel_xpu_ipex(*ipex)) {
      Finding f = make_finding(self, Severity::warn,
                               label + " is a CPU build (no +" + rule.xpu_local_tag +
                                   "): it does not use the Intel GPU; to(\"xpu\") fails with "
                                   "\"PyTorch is not linked with support for xpu devices\"");
      f.id = "python.ipex_cpu_only";
      f.evidence.push_back(label);
      f.fix = "for the GPU install the +xpu build from Intel's index (its installation page "
              "gives the command for each release), or, with torch 2.8 or newer, torch's own XPU "
              "build: pip install torch --index-url https://download.pytorch.org/whl/xpu";
      f.source = intel_ipex_source(3);
      out.push_back(std::move(f));
      continue;
    }
    if (rule.last_release_series) {
      Finding f = make_finding(self, Severity::info,
                               label + ": Intel ended IPEX's releases after " +
                                   *rule.last_release_series +
                                   "; torch's own XPU builds carry its features");
      f.id = "python.ipex_ended";
      f.evidence.push_back(label);
      f.fix = "when you next upgrade, move to torch's XPU build (pip install torch --index-url "
              "https://download.pytorch.org/whl/xpu) and drop intel_extension_for_pytorch";
      f.source = intel_ipex_source(4);
      out.push_back(std::move(f));
    }
  }
}

}  // namespace gpudoctor
