// The accounts: this process's, the members of the device files' groups, and the accounts GPU
// workloads run as (a service's unit file, $USER, $SUDO_USER).
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "host/access_probe.hpp"
#include "parse/accounts.hpp"
#include "parse/device_access.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::array<const char*, 2> kConventionalGroups = {"render", "video"};

/// Services that run GPU work as an account of their own. ollama's manual install creates the
/// user ollama and a unit with User=ollama Group=ollama, and adds it to no device group
/// (https://github.com/ollama/ollama/blob/main/docs/linux.md). The NVIDIA daemons
/// (nvidia-persistenced, nv-fabricmanager) hold the GPU for others and are no workload.
constexpr std::array<const char*, 1> kWorkloadUnits = {"ollama.service"};

/// Where systemd looks for system units, the first directory first (systemd.unit(5),
/// https://www.freedesktop.org/software/systemd/man/latest/systemd.unit.html).
constexpr std::array<const char*, 5> kUnitDirs = {"/etc/systemd/system", "/run/systemd/system",
                                                  "/usr/local/lib/systemd/system",
                                                  "/usr/lib/systemd/system", "/lib/systemd/system"};

struct Accounts {
  std::vector<PasswdEntry> passwd;
  std::vector<GroupEntry> groups;

  const PasswdEntry* user(const std::string& name) const {
    auto it = std::find_if(passwd.begin(), passwd.end(),
                           [&](const PasswdEntry& p) { return p.name == name; });
    return it == passwd.end() ? nullptr : &*it;
  }
  const GroupEntry* group(std::uint32_t gid) const {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const GroupEntry& g) { return g.gid == gid; });
    return it == groups.end() ? nullptr : &*it;
  }
};

Accounts read_accounts(const Root& root) {
  Accounts a;
  if (auto text = root.read("/etc/passwd")) a.passwd = parse_passwd(*text);
  if (auto text = root.read("/etc/group")) a.groups = parse_group_entries(*text);
  return a;
}

/// /etc/group's members of `g` and the accounts whose primary group it is.
std::vector<std::string> members_of(const Accounts& accounts, const GroupEntry& g) {
  std::vector<std::string> out = g.members;
  for (const auto& p : accounts.passwd) {
    if (p.gid == g.gid && std::find(out.begin(), out.end(), p.name) == out.end()) {
      out.push_back(p.name);
    }
  }
  return out;
}

/// The groups an account's processes get: the primary (or `primary`), every group that lists
/// it, and `extra`; systemd sets a User= service's groups this way (initgroups, then
/// SupplementaryGroups=).
WorkloadAccount workload(const Accounts& accounts, const std::string& user, std::string from,
                         const std::optional<std::string>& primary,
                         const std::vector<std::string>& extra) {
  WorkloadAccount w{user, std::move(from), std::nullopt, {}, false};
  std::set<std::string> seen;
  auto add = [&](const std::string& g) {
    if (seen.insert(g).second) w.groups.push_back(g);
  };
  const PasswdEntry* p = accounts.user(user);
  if (p) w.uid = p->uid;
  if (primary) {
    add(*primary);
  } else if (const GroupEntry* g = p ? accounts.group(p->gid) : nullptr) {
    add(g->name);
  }
  for (const auto& g : accounts.groups) {
    if (std::find(g.members.begin(), g.members.end(), user) != g.members.end()) add(g.name);
  }
  for (const auto& g : extra) add(g);
  return w;
}

/// A unit's file (the first of kUnitDirs that has it) and its drop-ins (<unit>.d/*.conf, a
/// name in an earlier directory hiding the same name in a later one, applied by name).
std::optional<std::pair<std::string, UnitAccount>> read_unit(const Root& root,
                                                             const std::string& unit) {
  std::optional<std::pair<std::string, UnitAccount>> out;
  for (const char* dir : kUnitDirs) {
    const std::string path = std::string(dir) + "/" + unit;
    if (auto text = root.read(path, 256 * 1024)) {
      out.emplace(path, UnitAccount{});
      apply_unit_accounts(*text, out->second);
      break;
    }
  }
  if (!out) return out;
  std::map<std::string, std::string> dropins;
  for (const char* dir : kUnitDirs) {
    const std::string d = std::string(dir) + "/" + unit + ".d";
    for (const auto& name : root.list(d)) {
      if (ends_with(name, ".conf")) dropins.emplace(name, d + "/" + name);
    }
  }
  for (const auto& [name, path] : dropins) {
    if (auto text = root.read(path, 256 * 1024)) apply_unit_accounts(*text, out->second);
  }
  return out;
}

}  // namespace

ProcessAccount probe_account(const Root& root, const std::vector<DeviceNode>& nodes) {
  ProcessAccount a;
  if (auto text = root.read("/proc/self/status", 64 * 1024)) {
    ProcessIds ids = parse_proc_status_ids(*text);
    a.uid = ids.uid;
    a.gid = ids.gid;
    a.groups = std::move(ids.groups);
  }
  const Accounts accounts = read_accounts(root);
  std::optional<std::uint32_t> primary_gid;
  if (a.uid) {
    for (const auto& p : accounts.passwd) {
      if (p.uid != *a.uid) continue;
      a.user = p.name;
      primary_gid = p.gid;
      break;
    }
  }
  std::set<std::string> wanted(kConventionalGroups.begin(), kConventionalGroups.end());
  for (const auto& n : nodes) {
    if (n.group) wanted.insert(*n.group);
  }
  auto has = [&](std::uint32_t gid) {
    return a.gid == gid || std::find(a.groups.begin(), a.groups.end(), gid) != a.groups.end();
  };
  for (const auto& g : accounts.groups) {
    if (wanted.erase(g.name) == 0) continue;
    GroupAccess access{g.name, g.gid, has(g.gid), primary_gid == g.gid, members_of(accounts, g)};
    if (a.user) {
      access.listed_for_user =
          access.listed_for_user ||
          std::find(g.members.begin(), g.members.end(), *a.user) != g.members.end();
    }
    a.device_groups.push_back(std::move(access));
  }
  return a;
}

std::vector<WorkloadAccount> probe_workloads(const ProbeContext& ctx) {
  const Accounts accounts = read_accounts(ctx.root);
  std::vector<WorkloadAccount> out;
  for (const char* unit : kWorkloadUnits) {
    auto found = read_unit(ctx.root, unit);
    if (!found) continue;
    const UnitAccount& u = found->second;
    // A system unit without User= runs as root.
    WorkloadAccount w = workload(accounts, u.user.value_or("root"), found->first, u.group,
                                 u.supplementary_groups);
    w.dynamic_user = u.dynamic_user;
    out.push_back(std::move(w));
  }
  // Who ran gpudoctor describes this machine only, never a --sysroot tree.
  if (ctx.root.is_host()) {
    for (const char* var : {"SUDO_USER", "USER"}) {
      if (auto user = ctx.env.get_nonempty(var)) {
        out.push_back(workload(accounts, *user, var, std::nullopt, {}));
      }
    }
  }
  return out;
}

}  // namespace gpudoctor
