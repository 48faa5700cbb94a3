// AMD ROCm: the GPU's gfx target against the installed ROCm and the framework builds, access to
// /dev/kfd and the render nodes, the kernel driver under the ROCm userland, HIP's own answer.
#include <algorithm>
#include <set>
#include <tuple>

#include "checks/arch_facts.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/rocm_override.hpp"
#include "checks/rocm_util.hpp"
#include "compat/compat_query.hpp"
#include "model/access_view.hpp"
#include "parse/kfd_topology.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// " value", or nothing for an unknown one.
std::string opt_text(const std::optional<std::string>& v) { return v ? " " + *v : ""; }

/// The workaround, with the risk that comes with it, or where to go instead.
std::string unsupported_fix(const CheckInput& in, const RocmRelease& row, const std::string& gfx,
                            Finding& f) {
  const std::string targets = join(row.gfx, ", ");
  const auto rows = rocm_overrides(in.compat, gfx);
  auto ov = std::find_if(rows.begin(), rows.end(),
                         [&](const RocmOverride& o) { return lists(row, o.runs_as); });
  if (ov == rows.end()) {
    return "use a GPU this ROCm release supports (" + targets +
           "), or a ROCm release whose compatibility matrix lists " + gfx;
  }
  f.evidence.push_back("workaround named in " + ov->from.url);
  return "export HSA_OVERRIDE_GFX_VERSION=" + ov->value + " before starting the program: the " +
         "runtime then treats the GPU as " + ov->runs_as + ". AMD does not support this; it " +
         "applies to every GPU of the process" +
         (ov->from.note ? " (" + *ov->from.note + ")" : "") +
         ". Supported targets here: " + targets;
}

void judge_target(const CheckSpec& self, const CheckInput& in, std::size_t node,
                  const RocmBuild& build, const RocmRelease& row, std::vector<Finding>& out) {
  const std::string gfx = *in.snap.rocm->nodes[node].gfx_target;
  if (lists(row, gfx)) return;
  const auto ov = node_override(*in.snap.rocm, in.snap.rocm->nodes[node]);
  const auto env = ov ? std::optional<std::string>(ov->second) : std::nullopt;
  const std::string var = ov ? ov->first : "HSA_OVERRIDE_GFX_VERSION";
  const auto runs_as = env ? gfx_override_target(*env) : std::nullopt;
  Finding f = make_finding(self, Severity::warn,
                           node_label(in, node) + " is not a target " + build.label +
                               " supports: where its libraries ship no code for " + gfx +
                               " they stop with \"Cannot read TensileLibrary.dat\" or "
                               "hipErrorNoBinaryForGpu");
  f.id = build.id;
  f.source = row.from.url;
  f.evidence.push_back("GPU target (KFD gfx_target_version): " + gfx);
  f.evidence.push_back(build.label + " supports: " + join(row.gfx, ", "));
  if (runs_as && lists(row, *runs_as)) {
    f.id = "rocm.gfx_override";
    f.severity = Severity::info;
    f.title = node_label(in, node) + " runs as " + *runs_as + " under " + build.label +
              " through " + var + "=" + *env +
              ": it works for many, and AMD "
              "does not support it";
    f.evidence.push_back(var + "=" + *env);
    f.fix =
        "if kernels crash or compute wrong results, unset " + var + " and use a "
        "supported GPU (" +
        join(row.gfx, ", ") + ")";
  } else {
    if (env)
      f.evidence.push_back(var + "=" + *env + " (names no supported target)");
    f.fix = unsupported_fix(in, row, gfx, f);
  }
  out.push_back(std::move(f));
}

/// Whether there is an AMD GPU whose device files ROCm would open.
bool amd_compute_present(const RocmInfo& r, const HostAccess& a) {
  const bool render = std::any_of(a.device_nodes.begin(), a.device_nodes.end(),
                                  [](const DeviceNode& d) { return is_compute_node(d); });
  return !r.nodes.empty() || has_device_node(a, "/dev/kfd") || (r.amdgpu_module && render);
}

/// The groups that own /dev/kfd and the render nodes. Where ownership is unknown (a recorded
/// tree holds plain files), udev's rule applies: render where that group exists, else video.
std::set<std::string> owning_groups(const HostAccess& a, bool* inferred) {
  std::set<std::string> groups;
  bool any_mode = false;
  for (const auto& d : a.device_nodes) {
    if (!is_compute_node(d)) continue;
    any_mode = any_mode || d.mode.has_value();
    if (!d.group || !d.mode) continue;
    if (d.mode->size() >= 10 && (*d.mode)[7] == 'r' && (*d.mode)[8] == 'w') continue;  // o+rw
    groups.insert(*d.group);
  }
  *inferred = groups.empty() && !any_mode;
  if (!*inferred) return groups;
  for (const char* g : {"render", "video"}) {
    for (const auto& x : a.account.device_groups) {
      if (x.group == g) return {g};
    }
  }
  return groups;
}

std::string process_groups_text(const ProcessAccount& a) {
  std::vector<std::string> ids;
  for (auto g : a.groups) ids.push_back(std::to_string(g));
  return ids.empty() ? "(none)" : join(ids, " ");
}

/// "crw-rw----" → 0660; nullopt for anything else.
std::optional<std::uint32_t> kfd_mode_bits(const std::string& s) {
  if (s.size() < 10) return std::nullopt;
  std::uint32_t m = 0;
  for (std::size_t i = 1; i <= 9; ++i) m = (m << 1) | (s[i] == '-' ? 0u : 1u);
  return m;
}

/// /dev/kfd owned by root with no group or other read-write (crw------- root root, or
/// crw-rw---- root root): only root opens it, whatever groups the workload's account has. The
/// maintainer's diagnosis of ROCm/ROCT-Thunk-Interface#36: "/dev/kfd permissions are controlled
/// by udevd", fixed with a rule giving it a group. Needs the node's owner and mode (the live
/// node, or /.gpudoctor/dev-nodes.txt in a tree); a non-root account that runs the workload.
bool report_kfd_root_only(const CheckSpec& self, const HostAccess& access,
                          std::vector<Finding>& out) {
  auto kfd = std::find_if(access.device_nodes.begin(), access.device_nodes.end(),
                          [](const DeviceNode& d) { return d.path == "/dev/kfd"; });
  if (kfd == access.device_nodes.end() || !kfd->mode || kfd->uid != std::optional<std::uint32_t>(0)) {
    return false;
  }
  const auto bits = kfd_mode_bits(*kfd->mode);
  if (!bits) return false;
  const bool root_group = kfd->gid == std::optional<std::uint32_t>(0) ||
                          kfd->group == std::optional<std::string>("root");
  const bool group_rw = (*bits & 0060u) == 0060u && !root_group && (kfd->gid || kfd->group);
  if (group_rw || (*bits & 0006u) == 0006u) return false;
  std::vector<std::string> accounts;
  for (const auto& w : access.workloads) {
    if (!w.from.empty() && w.from.front() == '/' && w.user != "root") {
      accounts.push_back(w.user + " (" + w.from + ")");
    }
  }
  const auto& acc = access.account;
  if (acc.uid && *acc.uid != 0) {
    accounts.push_back(acc.user.value_or("uid " + std::to_string(*acc.uid)) + " (this process)");
  }
  if (accounts.empty()) return false;
  Finding f = make_finding(self, Severity::fail,
                           "/dev/kfd is " + *kfd->mode + " root:" + kfd->group.value_or("?") +
                               ": only root can open it, so ROCm fails for every other account "
                               "whatever groups it is in");
  f.id = "rocm.kfd_permission";
  f.evidence.push_back("/dev/kfd: " + *kfd->mode + " owner uid 0, group " +
                       kfd->group.value_or(kfd->gid ? std::to_string(*kfd->gid) : "?") +
                       (access.device_nodes_record ? " (recorded in " + *access.device_nodes_record + ")"
                                                   : ""));
  for (const auto& a : accounts) f.evidence.push_back("runs the workload: " + a);
  f.fix = "give /dev/kfd a group with a udev rule: echo 'KERNEL==\"kfd\", GROUP=\"render\", "
          "MODE=\"0660\"' | sudo tee /etc/udev/rules.d/70-kfd.rules && sudo udevadm control "
          "--reload && sudo udevadm trigger, and put the account in render (in an LXC container "
          "the host's node is passed through: set its gid on the host or in the container's "
          "device entry)";
  out.push_back(std::move(f));
  return true;
}

/// A gfx target's (major, minor, stepping), whose order is the generations' (gfx803 < gfx908 <
/// gfx90a < gfx1030); nullopt for a name that is not one.
std::optional<std::tuple<unsigned, unsigned, unsigned>> gfx_order(const std::string& gfx) {
  const auto v = parse_gfx_target(gfx);
  if (!v) return std::nullopt;
  return std::make_tuple(v->major, v->minor, v->stepping);
}

/// With no ROCm, no ROCm build of a framework and no ollama installed, nothing judges the
/// GPU's target; a person setting up ROCm on it should still learn, before installing, that the
/// newest release in the table does not support it: a target older than every one that release
/// lists, or one for which a documented override names a supported sibling. A target newer than
/// the table (RDNA 4 beside a table that ends at 6.3) is not judged.
void report_target_before_install(const CheckSpec& self, const CheckInput& in, std::size_t node,
                                  std::vector<Finding>& out) {
  const std::string& gfx = *in.snap.rocm->nodes[node].gfx_target;
  const RocmRelease* newest = nullptr;
  for (const RocmRelease& row : in.compat.rocm_releases) {
    if (!newest || newest->rocm < row.rocm) newest = &row;
  }
  if (!newest || lists(*newest, gfx)) return;
  const auto number = gfx_order(gfx);
  std::optional<std::tuple<unsigned, unsigned, unsigned>> lowest;
  for (const auto& g : newest->gfx) {
    if (auto n = gfx_order(g); n && (!lowest || *n < *lowest)) lowest = n;
  }
  const auto overrides = rocm_overrides(in.compat, gfx);
  const auto ov = std::find_if(overrides.begin(), overrides.end(),
                               [&](const RocmOverride& o) { return lists(*newest, o.runs_as); });
  const bool older = number && lowest && *number < *lowest;
  if (ov == overrides.end() && !older) return;
  Finding f = make_finding(self, Severity::info,
                           node_label(in, node) + " is not a target ROCm " + newest->rocm.text +
                               " supports (the newest release in gpudoctor's table): ROCm's "
                               "libraries can ship no code for " + gfx + ", and programs built "
                               "for ROCm (torch, ollama, llama.cpp's HIP build) stop with "
                               "\"invalid device function\" or run on the CPU");
  f.evidence.push_back("GPU target (KFD gfx_target_version): " + gfx);
  f.evidence.push_back("ROCm " + newest->rocm.text + " supports: " + join(newest->gfx, ", "));
  f.evidence.push_back("no ROCm, ROCm build of a framework or ollama installed here");
  f.source = newest->from.url;
  if (ov != overrides.end()) {
    f.evidence.push_back("workaround named in " + ov->from.url);
    f.fix = "when you install ROCm, start the programs with HSA_OVERRIDE_GFX_VERSION=" +
            ov->value + ": the runtime then treats the GPU as " + ov->runs_as +
            ", which ROCm ships code for (AMD does not support this" +
            (ov->from.note ? "; " + *ov->from.note : std::string()) +
            "); or use a Vulkan backend (llama.cpp, ollama) where one exists";
  } else {
    f.fix = "ROCm dropped this generation: use an older ROCm release that listed " + gfx +
            ", or a Vulkan or OpenCL backend (llama.cpp, ollama; Mesa's RADV and rusticl)";
  }
  out.push_back(std::move(f));
}

}  // namespace

void check_rocm_gfx_support(const CheckSpec& self, const CheckInput& in,
                            std::vector<Finding>& out) {
  if (!in.snap.rocm) return;
  const auto builds = rocm_builds(in.snap);
  const bool ollama = in.snap.runtimes && !in.snap.runtimes->ollama.empty();
  for (std::size_t i = 0; i < in.snap.rocm->nodes.size(); ++i) {
    if (!in.snap.rocm->nodes[i].gfx_target) continue;
    if (report_wrong_override(self, in, i, builds, out)) continue;
    if (builds.empty() && !ollama && !node_override(*in.snap.rocm, in.snap.rocm->nodes[i])) {
      report_target_before_install(self, in, i, out);
      continue;
    }
    for (const auto& b : builds) {
      if (b.code_read) continue;  // python.torch_gfx
      if (auto row = rocm_release(in.compat, b.version)) judge_target(self, in, i, b, *row, out);
    }
  }
}

void check_rocm_device_access(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  if (!in.snap.rocm) return;
  const RocmInfo& r = *in.snap.rocm;
  const HostAccess& access = host_access(in.snap);
  if (!amd_compute_present(r, access) || access.account.uid == std::optional<std::uint32_t>(0)) {
    return;
  }
  if (report_kfd_root_only(self, access, out)) return;
  std::vector<std::string> denied;
  bool all_open = true;  // this process opens every one (groups, ACLs or a 0666 udev rule)
  for (const auto& d : access.device_nodes) {
    if (!is_compute_node(d)) continue;
    all_open = all_open && d.readable == std::optional<bool>(true) &&
               d.writable == std::optional<bool>(true);
    if (d.readable == std::optional<bool>(false) || d.writable == std::optional<bool>(false)) {
      denied.push_back(d.path + " " + d.mode.value_or("?") + " group " + d.group.value_or("?"));
    }
  }
  if (all_open && access.dev_listed && has_device_node(access, "/dev/kfd")) return;
  const ProcessAccount& account = access.account;
  bool inferred = false;
  bool reported = false;
  // A service that runs the workload (ollama's unit file, User=ollama): its account is the one
  // that must be in the group, and the fix names it, not the person who ran gpudoctor.
  bool services = false;
  for (const auto& w : access.workloads) {
    if (w.from.empty() || w.from.front() != '/') continue;  // $USER, $SUDO_USER: this process's
    services = true;
    for (const auto& g : owning_groups(access, &inferred)) {
      if (std::find(w.groups.begin(), w.groups.end(), g) != w.groups.end()) continue;
      Finding f = make_finding(self, inferred ? Severity::warn : Severity::fail, "");
      f.id = "rocm.not_in_group";
      const std::string service = w.from.substr(w.from.rfind('/') + 1);
      f.title = "The account " + w.user + " that " + service + " runs as is not in the " + g +
                " group that owns /dev/kfd and the render nodes: ROCm cannot open the GPU from it";
      f.evidence.push_back(w.from + ": runs as " + w.user + ", groups " +
                           (w.groups.empty() ? std::string("(none)") : join(w.groups, " ")));
      if (inferred) f.evidence.push_back("owner of /dev/kfd not recorded: udev gives it to " + g);
      const std::string& unit = service;
      f.fix = w.dynamic_user
                  ? "add SupplementaryGroups=" + g + " video to " + w.from +
                        " (DynamicUser= makes the account at each start), then sudo systemctl "
                        "daemon-reload && sudo systemctl restart " + unit
                  : "sudo usermod -aG " + g + ",video " + w.user + ", then sudo systemctl restart " + unit;
      out.push_back(std::move(f));
      reported = true;
    }
  }
  // Under --sysroot the process is the analysing machine's: with a service judged, it says
  // nothing about the workload.
  if (services && !account.uid) return;
  for (const auto& g : owning_groups(access, &inferred)) {
    auto a = std::find_if(account.device_groups.begin(), account.device_groups.end(),
                          [&](const GroupAccess& x) { return x.group == g; });
    if (a == account.device_groups.end() || a->in_process) continue;
    Finding f = make_finding(self, inferred ? Severity::warn : Severity::fail, "");
    f.evidence.push_back("/etc/group: " + g +
                         (a->gid ? " (gid " + std::to_string(*a->gid) + ")" : "") +
                         (a->listed_for_user ? " lists this user" : " does not list this user"));
    f.evidence.push_back("this process's groups: " + process_groups_text(account));
    if (inferred) f.evidence.push_back("owner of /dev/kfd not recorded: udev gives it to " + g);
    for (const auto& d : denied) f.evidence.push_back("not accessible: " + d);
    if (a->listed_for_user) {
      f.id = "rocm.group_not_active";
      f.title = "This user was added to the " + g +
                " group after this session started: its "
                "processes still lack it, so /dev/kfd cannot be opened";
      f.fix = "log out and back in (a new SSH session, or reboot), or run: newgrp " + g;
    } else {
      f.id = "rocm.not_in_group";
      f.title = "This user is not in the " + g +
                " group that owns /dev/kfd and the render "
                "nodes: ROCm cannot open the GPU";
      f.fix = "sudo usermod -aG render,video $USER, then log out and back in";
    }
    out.push_back(std::move(f));
    reported = true;
  }
  if (denied.empty() || reported) return;
  Finding f =
      make_finding(self, Severity::fail, "The GPU's device files are not accessible to this user");
  for (const auto& d : denied) f.evidence.push_back("not accessible: " + d);
  f.fix =
      "sudo usermod -aG render,video $USER, then log out and back in (in a container: "
      "--device /dev/kfd --device /dev/dri --group-add <gid of the host's render group>)";
  out.push_back(std::move(f));
}

void check_rocminfo_lsmod(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.rocm || !in.snap.host || !in.snap.host->container) return;
  const RocmInfo& r = *in.snap.rocm;
  if (r.lsmod != std::optional<bool>(false) || r.amdgpu_module != std::optional<std::string>("loaded")) {
    return;
  }
  const RocmInstall* install = active_install(r);
  const auto v = install && install->version ? parse_version(*install->version) : std::nullopt;
  // rocminfo ran `lsmod | grep amdgpu` until ROCm 5.5 (rocminfo 94b4b3f, first in rocm-5.5.0).
  if (!v || !(*v < *parse_version("5.5"))) return;
  Finding f = make_finding(
      self, Severity::warn,
      "rocminfo of ROCm " + *install->version + " says \"ROCk module is NOT loaded, possibly no "
      "GPU devices\" in this container although amdgpu is loaded: before ROCm 5.5 it asks lsmod, "
      "which this image does not have (package kmod)");
  f.evidence.push_back("container: " + *in.snap.host->container);
  f.evidence.push_back("ROCm " + *install->version + " (" + install->path + ")");
  f.evidence.push_back("no lsmod in /sbin, /usr/sbin, /bin or /usr/bin");
  f.evidence.push_back("/sys/module/amdgpu/initstate: " + r.amdgpu_initstate.value_or("present"));
  f.fix = "install kmod in the image (apt-get install kmod, dnf install kmod); rocminfo of ROCm "
          "5.5 and later reads /sys/module/amdgpu/initstate instead";
  f.source = "https://github.com/ROCm/rocminfo/commit/94b4b3f0a66eb70912177ca7076b4267f8b5449b";
  out.push_back(std::move(f));
}

void check_rocm_kernel_driver(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  if (!in.snap.rocm) return;
  const RocmInfo& r = *in.snap.rocm;
  const RocmInstall* install = active_install(r);
  const bool userland = !r.installs.empty() || (r.hip && r.hip->library);
  if (!userland || (r.nodes.empty() && pci_shows_no_gpu_of(in.snap, kPciVendorAmd))) return;
  const std::string what = install ? "ROCm " + *install->version : "ROCm";
  if (amdgpu_not_loaded(in.snap)) {
    Finding f = make_finding(self, Severity::fail,
                             what +
                                 " is installed but the amdgpu kernel module is not loaded: "
                                 "no GPU can be used");
    f.id = "rocm.amdgpu_not_loaded";
    for (const auto& i : r.installs)
      f.evidence.push_back("installed: " + i.path + opt_text(i.version));
    f.evidence.push_back(r.modules_listed ? "/proc/modules and /sys/module: no amdgpu"
                                          : "/sys/module: no amdgpu; no KFD node");
    for (const PciDevice* p : pci_gpus(in.snap, kPciVendorAmd)) {
      f.evidence.push_back("AMD GPU on PCI: " + pci_label(*p) + " driver " +
                           p->driver.value_or("none"));
    }
    f.fix =
        "sudo modprobe amdgpu and read dmesg | grep -i amdgpu; with AMD's packaged driver: "
        "sudo apt install amdgpu-dkms (or dnf), then reboot";
    if (in.snap.nvidia && in.snap.nvidia->kernel.secure_boot == std::optional<bool>(true)) {
      // amdgpu-dkms builds an unsigned module unless its key is enrolled: Secure Boot refuses it.
      f.evidence.push_back("Secure Boot is on");
      *f.fix = std::string("Secure Boot is on and refuses modules signed by no enrolled key "
                           "(amdgpu-dkms's build): ") + kEnrolDkmsKey + "; then sudo modprobe amdgpu";
    }
    out.push_back(std::move(f));
    return;
  }
  if (r.amdgpu_initstate && *r.amdgpu_initstate != "live") {
    Finding f = make_finding(self, Severity::fail,
                             "The amdgpu module is " + *r.amdgpu_initstate + ", not live");
    f.id = "rocm.amdgpu_not_loaded";
    f.evidence.push_back("/sys/module/amdgpu/initstate: " + *r.amdgpu_initstate);
    f.fix = "read dmesg | grep -i amdgpu for why it did not finish loading, then reboot";
    out.push_back(std::move(f));
    return;
  }
  const HostAccess& access = host_access(in.snap);
  if (!r.amdgpu_module || !access.dev_listed || has_device_node(access, "/dev/kfd") ||
      r.kfd_topology) {
    return;
  }
  const bool container = in.snap.host && in.snap.host->container;
  Finding f = make_finding(
      self, Severity::fail,
      "amdgpu is loaded but there is no /dev/kfd: " + what + " cannot reach the GPU for compute");
  f.id = "rocm.no_kfd";
  f.evidence.push_back("amdgpu module: " + *r.amdgpu_module);
  f.evidence.push_back("/dev/kfd: missing; /sys/class/kfd/kfd/topology: missing");
  if (container) {
    f.evidence.push_back("container: " + *in.snap.host->container);
    f.fix =
        "start the container with the GPU's device files: docker run --device /dev/kfd "
        "--device /dev/dri --group-add video …";
  } else {
    f.fix =
        "read dmesg | grep -i kfd: \"kfd not supported on this ASIC\" means this GPU has no "
        "ROCm compute; otherwise the kernel lacks CONFIG_HSA_AMD (install AMD's amdgpu-dkms)";
  }
  out.push_back(std::move(f));
}

namespace {

/// A visibility list of device indices ("1", "0,2"); nothing where a member is not an index (a
/// UUID "GPU-…"), whose position cannot be judged from the files.
std::optional<std::vector<int>> visible_indices(const std::string& value) {
  std::vector<int> out;
  for (const auto& part : split_words(value, ",")) {
    const std::string t(trim(part));
    if (t.empty() || t.size() > 4 ||
        !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    out.push_back(std::stoi(t));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

/// The machine's AMD GPUs (indices 0 .. gpus-1) as a HIP program sees them, in its order:
/// ROCR_VISIBLE_DEVICES keeps some and ROCr numbers them again from 0; HIP_VISIBLE_DEVICES (or
/// CUDA_VISIBLE_DEVICES, which HIP reads where it is unset) then picks among those.
struct HipVisibility {
  std::vector<std::size_t> kept_by_rocr;  ///< after ROCR_VISIBLE_DEVICES (every GPU when unset)
  /// After the HIP list too; nothing where that list is not indices (a UUID).
  std::optional<std::vector<std::size_t>> shown;
  std::vector<std::string> lists;         ///< the lists set: "ROCR_VISIBLE_DEVICES=1"
  std::string hip_name;                   ///< "HIP_VISIBLE_DEVICES" or "CUDA_VISIBLE_DEVICES"
  std::optional<std::string> hip_value;
};

/// Nothing where ROCR_VISIBLE_DEVICES is set to anything but indices.
std::optional<HipVisibility> hip_visibility(const RocmInfo& r, std::size_t gpus) {
  auto pick = [](const std::vector<std::size_t>& from, const std::vector<int>& picks) {
    std::vector<std::size_t> out;
    for (int i : picks) {
      const auto at = static_cast<std::size_t>(i);
      if (at < from.size()) out.push_back(from[at]);
    }
    return out;
  };
  HipVisibility v;
  for (std::size_t i = 0; i < gpus; ++i) v.kept_by_rocr.push_back(i);
  if (r.rocr_visible_devices) {
    const auto picks = visible_indices(*r.rocr_visible_devices);
    if (!picks) return std::nullopt;
    v.kept_by_rocr = pick(v.kept_by_rocr, *picks);
    v.lists.push_back("ROCR_VISIBLE_DEVICES=" + *r.rocr_visible_devices);
  }
  v.hip_name = r.hip_visible_devices ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES";
  v.hip_value = r.hip_visible_devices ? r.hip_visible_devices : r.cuda_visible_devices;
  if (!v.hip_value) {
    v.shown = v.kept_by_rocr;
  } else if (const auto picks = visible_indices(*v.hip_value)) {
    v.shown = pick(v.kept_by_rocr, *picks);
    v.lists.push_back(v.hip_name + "=" + *v.hip_value);
  }
  return v;
}

}  // namespace

/// ROCR_VISIBLE_DEVICES keeps some GPUs and ROCr numbers them again from 0; HIP_VISIBLE_DEVICES
/// (or CUDA_VISIBLE_DEVICES) then picks among those, by the new numbers. Indices the first list
/// leaves no GPU for, or a second list that counts past what the first kept, leave HIP no GPU
/// (Parsl/parsl#3858 on Frontier; mcmonkeyprojects/SwarmUI#565, a ROCm contributor's account).
void check_rocm_visible_devices(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  if (!in.snap.rocm) return;
  const RocmInfo& r = *in.snap.rocm;
  const std::size_t gpus = !r.nodes.empty() ? r.nodes.size()
                                            : pci_gpus(in.snap, kPciVendorAmd).size();
  // Beside NVIDIA GPUs the lists may be a scheduler's for them (Slurm sets ROCR_VISIBLE_DEVICES
  // and CUDA_VISIBLE_DEVICES alike): their numbering is not the AMD GPUs'.
  if (gpus == 0 || !pci_gpus(in.snap, kPciVendorNvidia).empty()) return;
  if (!r.rocr_visible_devices) return;
  const auto v = hip_visibility(r, gpus);
  if (!v) return;
  const std::size_t kept = v->kept_by_rocr.size();
  const std::string kept_by = "ROCR_VISIBLE_DEVICES=" + *r.rocr_visible_devices;
  if (kept == 0) {
    Finding f = make_finding(self, Severity::fail,
                             kept_by + " names no GPU of this machine (it has " +
                                 plural(gpus, "GPU") + ", numbered from 0): ROCm and HIP programs "
                                 "find none (hipErrorNoDevice)");
    f.evidence.push_back("AMD: " + plural(gpus, "GPU"));
    f.evidence.push_back(kept_by);
    f.fix = "set ROCR_VISIBLE_DEVICES to indices below " + std::to_string(gpus) +
            " (rocm-smi lists them), or unset it";
    f.source = "https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html";
    out.push_back(std::move(f));
    return;
  }
  if (!v->hip_value || !v->shown || !v->shown->empty()) return;
  const std::string& hip_name = v->hip_name;
  const std::string& hip_value = *v->hip_value;
  Finding f = make_finding(
      self, Severity::fail,
      kept_by + " leaves " + plural(kept, "GPU") + ", which HIP numbers from 0; " +
          hip_name + "=" + hip_value + " then asks for one past them: HIP programs (torch's "
          "ROCm build among them) find no GPU");
  f.evidence.push_back("AMD: " + plural(gpus, "GPU"));
  f.evidence.push_back(kept_by);
  f.evidence.push_back(hip_name + "=" + hip_value);
  f.fix = "select the GPU with one of the two, not both: keep ROCR_VISIBLE_DEVICES=" +
          *r.rocr_visible_devices + " and unset " + hip_name + " (or set it to 0), or unset "
          "ROCR_VISIBLE_DEVICES and keep " + hip_name + "=" + hip_value;
  f.source = "https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html";
  out.push_back(std::move(f));
}

void check_hip_init(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.rocm || !in.snap.rocm->hip || !in.snap.rocm->hip->error) return;
  const RocmInfo& r = *in.snap.rocm;
  const HipError& e = *r.hip->error;
  const bool no_device = e.code == 100;  // hipErrorNoDevice
  // No AMD GPU on the bus: finding none is HIP's right answer (rocm's area line says so).
  if (no_device && r.nodes.empty() && pci_shows_no_gpu_of(in.snap, kPciVendorAmd)) return;
  Finding f = make_finding(self, no_device && r.nodes.empty() ? Severity::info : Severity::fail,
                           e.call + " failed with " + std::to_string(e.code) + opt_text(e.name) +
                               ": no HIP program can use the GPU");
  f.evidence.push_back(e.call + " returned " + std::to_string(e.code) + opt_text(e.name) +
                       opt_text(e.text));
  if (r.hip->library) f.evidence.push_back("libamdhip64: " + *r.hip->library);
  if (r.hip_visible_devices) f.evidence.push_back("HIP_VISIBLE_DEVICES=" + *r.hip_visible_devices);
  if (r.rocr_visible_devices)
    f.evidence.push_back("ROCR_VISIBLE_DEVICES=" + *r.rocr_visible_devices);
  // HIP honours CUDA_VISIBLE_DEVICES as it does HIP_VISIBLE_DEVICES (the HIP environment
  // variables reference), so a script's CUDA_VISIBLE_DEVICES="" hides every AMD GPU too.
  f.fix = no_device
              ? "check HIP_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES and ROCR_VISIBLE_DEVICES (an "
                "empty value hides every GPU) and that this user can open /dev/kfd "
                "(rocm.device_access)"
              : "see the HIP error reference for this code; rerun with AMD_LOG_LEVEL=3";
  if (no_device) {
    f.source = "https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html";
  }
  out.push_back(std::move(f));
}

/// HIP numbers the GPUs in the KFD topology's order, and an APU's integrated GPU is often node
/// 1, before a discrete card: programs that take the first GPU (torch's cuda:0, a HIP sample)
/// run on the integrated one, slowly or not at all where ROCm has no code for it. The same where
/// a visibility list keeps only the integrated GPU (ROCm/legacy-rocm-build#3401: a Ryzen 3400G's
/// gfx902 as HIP device 0 beside an RX 6600; ROCm/rocm-cli#395: HIP_VISIBLE_DEVICES=1 keeping
/// only a Raphael iGPU where the RX 7900 XT was device 0).
void check_rocm_igpu_first(const CheckSpec& self, const CheckInput& in,
                           std::vector<Finding>& out) {
  if (!in.snap.rocm || in.snap.rocm->nodes.size() < 2) return;
  if (!pci_gpus(in.snap, kPciVendorNvidia).empty()) return;
  const RocmInfo& r = *in.snap.rocm;
  auto apu = [&](const KfdNode& n) { return n.gfx_target && rocm_apu(in.compat, *n.gfx_target); };
  const auto discrete = std::find_if(r.nodes.begin(), r.nodes.end(), [&](const KfdNode& n) {
    return n.gfx_target && !apu(n);
  });
  if (discrete == r.nodes.end()) return;
  // The GPUs HIP shows, in its order: ROCr's list first, then HIP's (or CUDA's) among those.
  const auto v = hip_visibility(r, r.nodes.size());
  if (!v || !v->shown || v->shown->empty()) return;  // none left: rocm.visible_devices
  const auto& lists = v->lists;
  const KfdNode& igpu = r.nodes[v->shown->front()];
  if (!apu(igpu)) return;
  const bool only_igpus = std::all_of(v->shown->begin(), v->shown->end(),
                                      [&](std::size_t i) { return apu(r.nodes[i]); });
  const std::size_t discrete_index = static_cast<std::size_t>(discrete - r.nodes.begin());
  const std::string dgpu = *discrete->gfx_target + " (KFD's GPU " +
                           std::to_string(discrete_index) + ")";
  const std::string igpu_name = "the integrated GPU " + *igpu.gfx_target;
  Finding f = make_finding(
      self, Severity::warn,
      lists.empty()
          ? "HIP's first GPU is " + igpu_name + ": programs that take GPU 0 (torch's cuda:0, "
            "HIP samples) run on it, not on the discrete " + dgpu
          : join(lists, " and ") +
                (only_igpus ? (lists.size() == 1 ? " leaves only " : " leave only ")
                            : (lists.size() == 1 ? " puts first " : " put first ")) +
                igpu_name +
                ", not the discrete " + dgpu);
  for (std::size_t i = 0; i < r.nodes.size(); ++i) {
    const KfdNode& n = r.nodes[i];
    f.evidence.push_back("KFD GPU " + std::to_string(i) + ": " + n.gfx_target.value_or("?") +
                         (apu(n) ? " (APU: integrated)" : " (discrete)") +
                         (n.pci_address ? " at " + *n.pci_address : ""));
  }
  for (const auto& l : lists) f.evidence.push_back(l);
  f.fix = "set HIP_VISIBLE_DEVICES=" + std::to_string(discrete_index) +
          (lists.empty() ? "" : " (and no other list)") +
          " so HIP shows only the discrete GPU, or turn the integrated GPU off in the firmware "
          "settings";
  f.source = "https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html";
  out.push_back(std::move(f));
}

}  // namespace gpudoctor
