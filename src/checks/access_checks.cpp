// Access for the account a GPU service runs as (model/access.hpp): a unit file's User= whose
// account cannot open the NVIDIA device files.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "model/access_view.hpp"

namespace gpudoctor {

namespace {

/// Owner, group and permission bits of a device file, from the node itself or from the
/// driver's DeviceFile parameters (a recorded tree holds plain files).
struct NodeOwner {
  std::uint32_t uid = 0;
  std::optional<std::string> group;
  std::uint32_t mode = 0;
  std::string from;
};

/// "crw-rw----" → 0660.
std::optional<std::uint32_t> mode_bits(const std::string& s) {
  if (s.size() < 10) return std::nullopt;
  std::uint32_t m = 0;
  for (std::size_t i = 1; i <= 9; ++i) {
    m <<= 1;
    if (s[i] != '-') m |= 1u;
  }
  return m;
}

/// /dev/nvidiactl and /dev/nvidia<N>: the files the driver makes with its DeviceFile
/// parameters (nvidia-modprobe makes nvidia-uvm root:root, NVIDIA/nvidia-modprobe#7).
bool driver_made(const std::string& path) {
  if (path == "/dev/nvidiactl") return true;
  const std::string rest = path.rfind("/dev/nvidia", 0) == 0 ? path.substr(11) : "";
  return !rest.empty() && std::all_of(rest.begin(), rest.end(),
                                     [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<NodeOwner> owner_of(const DeviceNode& d, const HostAccess& a) {
  if (d.mode && d.uid) {
    auto bits = mode_bits(*d.mode);
    if (!bits) return std::nullopt;
    return NodeOwner{*d.uid, d.group, *bits, "the file"};
  }
  const auto& p = a.nvidia_device_files;
  if (!driver_made(d.path) || !p || p->modify == std::optional<bool>(false) || !p->mode) {
    return std::nullopt;
  }
  return NodeOwner{p->uid.value_or(0), p->group, *p->mode & 0777u,
                   "the driver's DeviceFile parameters in /proc/driver/nvidia/params"};
}

bool may_open(const NodeOwner& o, const WorkloadAccount& w) {
  const bool in_group = o.group && std::find(w.groups.begin(), w.groups.end(), *o.group) !=
                                       w.groups.end();
  return (w.uid == o.uid && (o.mode & 0600u) == 0600u) ||
         (in_group && (o.mode & 0060u) == 0060u) || (o.mode & 0006u) == 0006u;
}

std::string octal(std::uint32_t m) {
  std::string s = "0000";
  for (int i = 3; i >= 1; --i, m >>= 3) s[static_cast<std::size_t>(i)] = char('0' + (m & 7u));
  return s;
}

/// "ollama.service" from "/usr/lib/systemd/system/ollama.service".
std::string unit_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

}  // namespace

void check_nvidia_workload_access(const CheckSpec& self, const CheckInput& in,
                                  std::vector<Finding>& out) {
  const HostAccess& a = host_access(in.snap);
  const bool gpu = std::any_of(a.device_nodes.begin(), a.device_nodes.end(), [](const auto& d) {
    return driver_made(d.path) && d.path != "/dev/nvidiactl";
  });
  if (!gpu) return;
  for (const auto& w : a.workloads) {
    // Only a service's own account: the user who ran gpudoctor is judged from the open checks
    // of this process (nvidia.device_nodes), and a desktop user may hold a seat's ACL.
    if (w.from.empty() || w.from[0] != '/' || !w.uid || *w.uid == 0 || w.dynamic_user) continue;
    std::vector<std::string> denied;
    std::optional<std::string> group;  // the group that would open them all
    std::vector<std::string> evidence;
    for (const auto& d : a.device_nodes) {
      const auto o = owner_of(d, a);
      if (!o || may_open(*o, w)) continue;
      denied.push_back(d.path);
      evidence.push_back(d.path + ": owner uid " + std::to_string(o->uid) + ", group " +
                         o->group.value_or("?") + ", mode " + octal(o->mode) + " (" + o->from +
                         ")");
      if (o->group && (o->mode & 0060u) == 0060u && (!group || *group == *o->group)) {
        group = o->group;
      }
    }
    if (denied.empty()) continue;
    const std::string unit = unit_name(w.from);
    Finding f = make_finding(self, Severity::fail,
                             "The account " + unit + " runs as (" + w.user + ") cannot open " +
                                 join(denied, ", ") + ": CUDA in that service finds no GPU");
    f.evidence.push_back("User=" + w.user + " in " + w.from);
    f.evidence.push_back(w.user + "'s groups: " + (w.groups.empty() ? "(none)" : join(w.groups, ", ")));
    for (auto& e : evidence) f.evidence.push_back(std::move(e));
    f.fix = group ? "sudo usermod -aG " + *group + " " + w.user + ", then sudo systemctl restart " +
                        unit
                  : "give " + w.user + " read and write access to " + join(denied, ", ") +
                        ", then sudo systemctl restart " + unit;
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
