// The host: OS, kernel, CPU, memory, where it runs.
#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

/// "8 cores, 16 threads"
std::string cores_text(const HostInfo& h) {
  std::string s = h.cpu_cores ? std::to_string(*h.cpu_cores) + " cores" : "";
  if (h.cpu_threads) s += (s.empty() ? "" : ", ") + std::to_string(*h.cpu_threads) + " threads";
  return s;
}

}  // namespace

void host_facts(const Snapshot& snap, Sink& out) {
  if (!snap.host) return;
  const HostInfo& h = *snap.host;
  Section s{"host", "Host", "", {}, ""};
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
