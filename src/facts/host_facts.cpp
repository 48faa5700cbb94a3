// The host: OS, kernel, CPU, memory, where it runs; who may open the GPU's device files.
#include <cstdio>

#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

/// "8 cores, 16 threads"
std::string cores_text(const HostInfo& h) {
  std::string s = h.cpu_cores ? std::to_string(*h.cpu_cores) + " cores" : "";
  if (h.cpu_threads) s += (s.empty() ? "" : ", ") + std::to_string(*h.cpu_threads) + " threads";
  return s;
}

std::string group_text(const GroupAccess& g) {
  std::string s = g.group + (g.gid ? " (" + std::to_string(*g.gid) + ")" : "");
  if (g.in_process) return s + ": this process has it";
  return s + (g.listed_for_user ? ": listed for the user, not active in this session"
                                : ": not a group of this user");
}

std::string octal(std::uint32_t mode) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04o", mode & 07777u);
  return buf;
}

/// The device files with their owners and the PCI device /dev/dri/by-path names; this
/// process's account and groups; the accounts workloads run as; what a container was given.
void access_rows(const HostAccess& a, std::vector<Row>& rows) {
  for (const auto& d : a.device_nodes) {
    std::string pci;
    for (const auto& l : a.dri_by_path) {
      if (l.node == d.path) pci = l.pci_address;
    }
    // One label for the list, as the other rows of a kind ("Device", then "").
    add_row(rows, &d == &a.device_nodes.front() ? "Devices" : "",
            RowValues()
                .text("path", d.path)
                .opt("mode", d.mode)
                .opt("group", d.group, "group ")
                .text("pci_address", pci)
                .text("access", d.readable && d.writable
                                    ? (*d.readable && *d.writable ? "read/write" : "not accessible")
                                    : ""));
  }
  if (const auto& p = a.nvidia_device_files) {
    add_row(rows, "",
            RowValues()
                .text("nvidia_device_files", "the NVIDIA driver makes /dev/nvidia*")
                .opt("nvidia_uid", p->uid, "uid ")
                .opt("nvidia_gid", p->gid, "gid ")
                .text("nvidia_mode", p->mode ? "mode " + octal(*p->mode) : "")
                .text("nvidia_modify", p->modify == false ? "(ModifyDeviceFiles off)" : ""));
  }
  const ProcessAccount& u = a.account;
  add_row(rows, "User", RowValues().opt("user", u.user).opt("uid", u.uid, "uid "));
  if (u.uid != std::optional<std::uint32_t>(0)) {  // root opens every device file
    for (const auto& g : u.device_groups) add_row(rows, "", RowValues().text("group", group_text(g)));
  }
  for (const auto& w : a.workloads) {
    add_row(rows, "Workload",
            RowValues()
                .text("user", w.user)
                .text("from", "from " + w.from)
                .text("groups", w.groups.empty() ? "" : "groups " + join(w.groups, ", "))
                .text("known", w.uid || w.dynamic_user ? "" : "not in /etc/passwd")
                .text("dynamic_user", w.dynamic_user ? "DynamicUser" : ""));
  }
  for (const auto& m : a.device_mounts) {
    add_row(rows, "Mounted",
            RowValues().text("mount_point", m.mount_point).opt("fs_type", m.fs_type, "(", ")"));
  }
  for (const auto& f : a.cdi_specs) {
    add_row(rows, "CDI spec", RowValues().text("path", f.path).opt("kind", f.kind, "kind "));
  }
  for (const auto& f : a.oci_hooks) add_row(rows, "OCI hook", RowValues().text("path", f.path));
}

}  // namespace

void host_facts(const Snapshot& snap, Sink& out) {
  if (!snap.host) return;
  const HostInfo& h = *snap.host;
  Section s{"host", "Host", "", {}, snap.macos ? "nothing read here: what was read of the Mac is under macOS below"
                                              : "nothing read: no /etc/os-release, kernel release or /proc"};
  const std::string os_name = h.os_pretty_name ? *h.os_pretty_name
                              : h.os_name ? *h.os_name + (h.os_version ? " " + *h.os_version : "")
                                          : "";
  add_row(s.rows, "OS", RowValues().text("os", os_name));
  add_row(s.rows, "Kernel",
          RowValues().opt("kernel_release", h.kernel_release).opt("architecture", h.architecture));
  add_row(s.rows, "CPU",
          RowValues().opt("cpu_model", h.cpu_model).text("cpu_cores", cores_text(h)));
  add_row(s.rows, "Memory",
          RowValues()
              .bytes("memory_total_bytes", h.memory_total_bytes, "")
              .bytes("memory_available_bytes", h.memory_available_bytes, "available "));
  add_row(s.rows, "C library", RowValues().opt("glibc", h.glibc_version, "glibc "));
  RowValues where;
  if (h.virtualization) where.text("virtual_machine", "virtual machine (" + *h.virtualization + ")");
  if (h.wsl) where.text("wsl", "WSL" + h.wsl_version.value_or(""));
  if (h.container) where.text("container", "container (" + *h.container + ")");
  if (where.empty() && (h.machine_vendor || h.machine_model)) where.text("bare_metal", "bare metal");
  add_row(s.rows, "Runs in", std::move(where));
  add_row(
      s.rows, "Machine",
      RowValues().opt("machine_vendor", h.machine_vendor).opt("machine_model", h.machine_model));
  if (h.access) access_rows(*h.access, s.rows);
  out.section(std::move(s));

  out.compare(Weight::host, "host", "OS", h.os_pretty_name);
  out.compare(Weight::host, "host", "kernel", h.kernel_release);
  out.compare(Weight::host, "host", "architecture", h.architecture);
  out.compare(Weight::host, "host", "glibc", h.glibc_version);
  out.compare(Weight::host, "host", "container", h.container);
  if (h.wsl) out.compare(Weight::host, "host", "WSL", "WSL" + h.wsl_version.value_or(""));
  if (h.vm) out.compare(Weight::host, "host", "virtual machine", h.virtualization.value_or("yes"));
}

}  // namespace gpudoctor::facts
