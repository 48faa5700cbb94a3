#include "render/query_text.hpp"

#include <sstream>

#include "render/macos_text.hpp"
#include "render/nvidia_text.hpp"
#include "render/rocm_text.hpp"
#include "render/text_blocks.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

std::string link_text(const PciLink& l) {
  if (!l.speed_gts && !l.width) return "";
  std::string s;
  if (l.generation) s += "Gen" + std::to_string(*l.generation) + " ";
  if (l.width) s += "x" + std::to_string(*l.width) + " ";
  if (l.speed_gts) {
    std::ostringstream v;
    v << *l.speed_gts;
    s += "(" + v.str() + " GT/s)";
  }
  return std::string(trim(s));
}

void render_host(std::ostringstream& os, const HostInfo& h, const Style& st) {
  os << st.bold("Host") << "\n";
  Block b(os, st, 2);
  std::string os_name = h.os_pretty_name ? *h.os_pretty_name
                        : h.os_name      ? *h.os_name + opt(h.os_version, " ")
                                         : "";
  b.line("OS", os_name);
  b.line("Kernel", dots({opt(h.kernel_release), opt(h.architecture)}));
  std::string cores;
  if (h.cpu_cores || h.cpu_threads) {
    cores = opt(h.cpu_cores, "", " cores") + (h.cpu_cores && h.cpu_threads ? ", " : "") +
            opt(h.cpu_threads, "", " threads");
  }
  b.line("CPU", dots({opt(h.cpu_model), cores}));
  b.line("Memory", dots({opt_bytes(h.memory_total_bytes, ""),
                         opt_bytes(h.memory_available_bytes, "available ")}));
  b.line("C library", opt(h.glibc_version, "glibc "));
  std::vector<std::string> where;
  if (h.virtualization) where.push_back("virtual machine (" + *h.virtualization + ")");
  if (h.wsl) where.push_back("WSL" + opt(h.wsl_version));
  if (h.container) where.push_back("container (" + *h.container + ")");
  if (where.empty() && (h.machine_vendor || h.machine_model)) where.push_back("bare metal");
  b.line("Runs in", dots(where));
  b.line("Machine", dots({opt(h.machine_vendor), opt(h.machine_model)}));
  os << "\n";
}

void render_pci(Block& b, const PciDevice& p) {
  std::string ids = hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4);
  std::string names = dots({opt(p.vendor_name), opt(p.device_name)});
  b.line("PCI", dots({p.address, ids + (names.empty() ? "" : " " + names),
                      p.revision ? "rev " + hex(*p.revision, 2) : ""}));
  std::string subsys;
  if (p.subsystem_vendor_id && p.subsystem_device_id) {
    subsys = "subsystem " + hex(*p.subsystem_vendor_id, 4) + ":" + hex(*p.subsystem_device_id, 4) +
             opt(p.subsystem_name, " ");
  }
  b.more(dots({"class " + hex(p.class_code >> 8, 4) + opt(p.class_name, " "), subsys}));
  std::string drv = p.driver ? "driver " + *p.driver : "no driver bound";
  b.more(dots({drv, p.modules.empty() ? "" : "modules " + join(p.modules, ", ")}));
  std::string cur = link_text(p.link_current);
  std::string max = link_text(p.link_max);
  if (!cur.empty() || !max.empty()) {
    std::string s = "link " + (cur.empty() ? "?" : cur);
    if (!max.empty() && max != cur) s += ", capable of " + max;
    b.more(s);
  }
  b.more(dots({opt(p.numa_node, "NUMA node "), opt(p.iommu_group, "IOMMU group "),
               p.boot_vga == std::optional<bool>(true) ? "boot VGA" : "",
               opt(p.runtime_pm, "power ")}));
}

void render_opencl(Block& b, const OpenClPlatform& plat, const OpenClDevice& d) {
  b.line("OpenCL", dots({opt(plat.name), opt(d.name) + opt(d.type, " (", ")")}));
  b.more(dots({opt(d.version), opt(d.driver_version, "driver "), opt(d.opencl_c_version)}));
  std::string units = opt(d.compute_units, "", " compute units") + opt(d.max_clock_mhz, " at ", " MHz");
  b.more(dots({units, opt(d.vendor), d.vendor_id ? "vendor id 0x" + hex(*d.vendor_id, 4) : ""}));
  b.more(dots({opt_bytes(d.global_mem_bytes, "global "), opt_bytes(d.local_mem_bytes, "local "),
               opt_bytes(d.constant_mem_bytes, "constant "),
               opt_bytes(d.max_alloc_bytes, "max alloc ")}));
  std::string items = dims(d.max_work_item_sizes);
  b.more(dots({opt(d.max_work_group_size, "work-group "), items.empty() ? "" : "items " + items,
               yes_no(d.fp16, "fp16"), yes_no(d.fp64, "fp64")}));
  b.more(dots({opt(d.pci_bus_id, "PCI "), opt(d.uuid, "UUID "),
               d.extensions.empty() ? "" : std::to_string(d.extensions.size()) + " extensions"}));
}

void render_vulkan(Block& b, const VulkanDevice& v) {
  b.line("Vulkan", dots({opt(v.name) + opt(v.type, " (", ")"), opt(v.api_version, "API ")}));
  b.more(dots({opt(v.driver_name), opt(v.driver_version, "driver "), opt(v.driver_info)}));
  std::string ids;
  if (v.vendor_id && v.device_id) ids = hex(*v.vendor_id, 4) + ":" + hex(*v.device_id, 4);
  b.more(dots({ids, opt(v.conformance_version, "conformance "), opt(v.pci_bus_id, "PCI ")}));
  std::vector<std::string> heaps;
  for (const auto& h : v.memory_heaps) {
    heaps.push_back(human_bytes(h.size_bytes) + (h.device_local ? " device-local" : ""));
  }
  if (!heaps.empty()) b.more("memory heaps: " + join(heaps, ", "));
  std::vector<std::string> queues;
  for (const auto& q : v.queue_families) {
    queues.push_back(std::to_string(q.count) + "×" + join(q.flags, "+"));
  }
  if (!queues.empty()) b.more("queues: " + join(queues, ", "));
  std::string wg = dims(v.max_compute_work_group_size);
  b.more(dots({opt(v.subgroup_size, "subgroup "),
               opt(v.max_compute_work_group_invocations, "work-group "),
               wg.empty() ? "" : "size " + wg,
               v.max_compute_shared_memory_bytes
                   ? "shared " + human_bytes(*v.max_compute_shared_memory_bytes)
                   : "",
               yes_no(v.shader_float16, "fp16"), yes_no(v.shader_float64, "fp64")}));
  b.more(opt(v.device_uuid, "UUID "));
}

std::string kind_text(const MergedDevice& m) {
  switch (m.kind) {
    case DeviceKind::gpu: return "GPU";
    case DeviceKind::accelerator: return "accelerator";
    case DeviceKind::cpu: return "CPU";
    case DeviceKind::other: return "other";
  }
  return "";
}

void render_device(std::ostringstream& os, std::size_t i, const Snapshot& snap,
                   const MergedDevice& m, const Style& st) {
  std::string tag = kind_text(m) + (m.software ? ", software implementations" : "");
  os << st.bold("[" + std::to_string(i) + "] " + m.name) << "  " << st.dim(tag) << "\n";
  Block b(os, st, 4);
  if (m.software) {
    b.more(st.yellow("the APIs below run on the CPU: no GPU driver answered for them"));
  }
  if (m.pci) render_pci(b, snap.pci->devices[*m.pci]);
  for (auto [p, d] : m.opencl) {
    render_opencl(b, snap.opencl->platforms[p], snap.opencl->platforms[p].devices[d]);
  }
  for (auto v : m.vulkan) render_vulkan(b, snap.vulkan->devices[v]);
  for (auto c : m.cuda) render_cuda_device(b, snap.cuda->devices[c]);
  for (auto n : m.nvml) render_nvml_device(b, snap.nvml->devices[n]);
  for (auto k : m.kfd) render_kfd_node(b, snap.rocm->nodes[k]);
  for (auto h : m.hip) render_hip_device(b, snap.rocm->hip->devices[h]);
  if (m.macos) render_macos_gpu(b, snap.macos->gpus[*m.macos]);
  os << "\n";
}

std::string status_text(ProbeStatus s, const Style& st) {
  std::string t = to_string(s);
  switch (s) {
    case ProbeStatus::ok: return st.green(t);
    case ProbeStatus::missing:
    case ProbeStatus::skipped: return st.yellow(t);
    default: return st.red(t);
  }
}

void render_registrations(std::ostringstream& os, const Snapshot& snap, const Style& st) {
  if (snap.opencl) {
    os << st.bold("OpenCL ICDs") << st.dim(opt(snap.opencl->loader, "  (loader ", ")")) << "\n";
    if (snap.opencl->icds.empty()) os << "  none registered\n";
    for (const auto& icd : snap.opencl->icds) {
      std::string where = icd.file ? *icd.file : icd.source;
      std::string state = icd.error                               ? st.red(*icd.error)
                          : icd.loads == std::optional<bool>(true) ? st.green("loads")
                          : icd.resolved                           ? "found"
                                                                   : "";
      os << "  " << where << " → " << icd.library
         << (icd.resolved && *icd.resolved != icd.library ? " (" + *icd.resolved + ")" : "")
         << (state.empty() ? "" : "  " + state) << "\n";
    }
  }
  if (snap.vulkan) {
    os << st.bold("Vulkan drivers")
       << st.dim(opt(snap.vulkan->loader, "  (loader ", ")") +
                 opt(snap.vulkan->instance_version, ", instance "))
       << "\n";
    if (snap.vulkan->manifests.empty()) os << "  none registered\n";
    for (const auto& m : snap.vulkan->manifests) {
      os << "  " << m.file << " → " << m.library_path.value_or("?")
         << opt(m.api_version, " (API ", ")") << (m.error ? "  " + st.red(*m.error) : "")
         << (m.not_loaded ? "  " + st.dim("not loaded: " + *m.not_loaded) : "") << "\n";
    }
  }
  if (snap.opencl || snap.vulkan) os << "\n";
}

std::string package_text(const PythonPackage& p) {
  std::string s = p.name + " " + p.version.value_or("?");
  if (p.torch && p.torch->local_version) s += "+" + *p.torch->local_version;
  if (p.torch && p.torch->cuda) s += " (CUDA " + *p.torch->cuda + ")";
  if (p.torch && p.torch->hip) s += " (HIP " + *p.torch->hip + ")";
  if (p.tensorflow && p.tensorflow->cuda_version) {
    s += " (CUDA " + *p.tensorflow->cuda_version +
         (p.tensorflow->cudnn_version ? ", cuDNN " + *p.tensorflow->cudnn_version : "") + ")";
  }
  if (p.keras) s += " (backend " + p.keras->backend + ")";
  return s;
}

void render_python(std::ostringstream& os, const PythonInfo& py, const Style& st) {
  os << st.bold("Python environments") << "\n";
  if (py.envs.empty()) os << "  none found\n";
  for (const auto& env : py.envs) {
    os << "  " << env.prefix << "  "
       << st.dim(dots({env.kind, opt(env.python_version, "Python "), join(env.found_by, ", ")}))
       << "\n";
    std::vector<std::string> pkgs;
    for (const auto& p : env.packages) pkgs.push_back(package_text(p));
    if (!pkgs.empty()) os << "    " << join(pkgs, ", ") << "\n";
  }
  for (const auto& e : py.errors) os << "  " << st.yellow("! " + e) << "\n";
  os << "\n";
}

}  // namespace

void render_probe_lines(std::ostringstream& os, const Snapshot& snap, const Style& st) {
  os << st.bold("Probes") << "\n";
  for (const auto& p : snap.probes) {
    bool sub = p.label != p.backend;
    std::string name = sub ? "  " + p.label : p.backend;
    if (name.size() < 24) name.resize(24, ' ');
    std::string secs;
    if (p.seconds) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.0f ms", *p.seconds * 1000.0);
      secs = buf;
    }
    os << "  " << name << " " << status_text(p.status, st) << "  " << p.detail
       << (secs.empty() ? "" : "  " + st.dim(secs)) << "\n";
  }
}

std::string render_query_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const Style& style) {
  std::ostringstream os;
  if (snap.host) render_host(os, *snap.host, style);
  os << style.bold("Devices (" + std::to_string(devices.size()) + ")") << "\n";
  if (devices.empty()) os << "  none found by the backends that ran\n";
  os << "\n";
  for (std::size_t i = 0; i < devices.size(); ++i) render_device(os, i, snap, devices[i], style);
  render_registrations(os, snap, style);
  render_nvidia_sections(os, snap, style);
  if (snap.macos) render_macos_section(os, *snap.macos, style);
  if (snap.rocm) render_rocm_section(os, *snap.rocm, style);
  if (snap.python) render_python(os, *snap.python, style);
  render_probe_lines(os, snap, style);
  return os.str();
}

Json query_json(const Snapshot& snap, const std::vector<MergedDevice>& devices) {
  Json j = snap;
  j["devices"] = devices_json(snap, devices);
  return j;
}

}  // namespace gpudoctor
