// ROCm: KFD nodes and HIP devices as device views; installs, amdgpu, KFD, variables and HIP as a
// section; what diff compares of them, with the host's access to /dev/kfd and the render nodes
// (the device files and groups themselves are shown under the host: host_facts.cpp).
#include <set>

#include "backends.hpp"
#include "facts/area_summaries.hpp"
#include "facts/row_values.hpp"
#include "model/access_view.hpp"

namespace gpudoctor::facts {

namespace {

std::string mhz(const std::optional<int>& khz) {
  return khz ? std::to_string(*khz / 1000) + " MHz" : "";
}

void kfd_view(const KfdNode& n, std::vector<Row>& rows) {
  add_row(rows, "KFD",
          RowValues()
              .text("node", "node " + std::to_string(n.node))
              .opt("gfx_target", n.gfx_target)
              .opt("gfx_target_version", n.gfx_target_version, "gfx_target_version ")
              .opt("name", n.name)
              .opt("gpu_id", n.gpu_id, "gpu_id "));
  std::string cus = n.compute_units ? std::to_string(*n.compute_units) + " CUs" : "";
  if (!cus.empty() && n.simd_per_cu) cus += " × " + std::to_string(*n.simd_per_cu) + " SIMDs";
  add_row(rows, "",
          RowValues()
              .text("compute_units", cus)
              .opt("wave_front_size", n.wave_front_size, "wave")
              .opt("max_engine_clock_mhz", n.max_engine_clock_mhz, "", " MHz", "megahertz")
              .opt("num_xcc", n.num_xcc, "", " XCC"));
  add_row(rows, "",
          RowValues()
              .bytes("memory_bytes", n.memory_bytes, "memory ")
              .opt("lds_size_kb", n.lds_size_kb, "LDS ", " KiB")
              .opt("render_node", n.render_node)
              .opt("fw_version", n.fw_version, "firmware "));
}

void hip_view(const HipDevice& d, std::vector<Row>& rows) {
  const std::string arch = d.arch_major && d.arch_minor ? std::to_string(*d.arch_major) + "." +
                                                              std::to_string(*d.arch_minor)
                                                        : "";
  add_row(rows, "HIP",
          RowValues()
              .text("ordinal", "device " + std::to_string(d.ordinal))
              .opt("name", d.name)
              .text("arch", arch.empty() ? "" : "arch " + arch)
              .opt("pci_bus_id", d.pci_bus_id));
  add_row(rows, "",
          RowValues()
              .bytes("total_memory_bytes", d.total_memory_bytes, "")
              .opt("multiprocessors", d.multiprocessors, "", " multiprocessors")
              .text("clock", mhz(d.clock_khz))
              .text("memory_clock",
                    mhz(d.memory_clock_khz).empty() ? "" : "memory " + mhz(d.memory_clock_khz))
              .opt("memory_bus_width_bits", d.memory_bus_width_bits, "", "-bit bus"));
  add_row(rows, "",
          RowValues()
              .opt("warp_size", d.warp_size, "wavefront ")
              .opt("max_threads_per_block", d.max_threads_per_block, "", " threads/block")
              .opt("l2_cache_bytes", d.l2_cache_bytes, "L2 ", " bytes", "bytes"));
}

Section rocm_section(const RocmInfo& r) {
  Section s{"rocm", "ROCm", "", {}, ""};
  if (r.installs.empty()) {
    add_row(s.rows, "Installed",
            RowValues().text("install", "none found (/opt/rocm, /opt/rocm-*, ROCM_PATH)"));
  }
  for (const auto& in : r.installs) {
    add_row(s.rows, "Installed",
            RowValues()
                .text("install", in.path + (in.real_path ? " → " + *in.real_path : ""))
                .opt("version", in.version)
                .opt("version_file", in.version_file, "from ")
                .text("default", in.default_link ? "default" : ""));
  }
  add_row(s.rows, "amdgpu",
          RowValues()
              .text("amdgpu_module", r.amdgpu_module.value_or(r.modules_listed ? "not loaded" : ""))
              .opt("amdgpu_initstate", r.amdgpu_initstate, "initstate ")
              .opt("amdgpu_version", r.amdgpu_version, "version "));
  add_row(
      s.rows, "KFD",
      RowValues().text("kfd", r.kfd_topology ? std::to_string(r.nodes.size()) + " GPU node(s), " +
                                                   std::to_string(r.cpu_nodes) + " CPU node(s)"
                                             : "no topology (/sys/class/kfd)"));
  add_row(
      s.rows, "Env",
      RowValues()
          .opt("HSA_OVERRIDE_GFX_VERSION", r.hsa_override_gfx_version, "HSA_OVERRIDE_GFX_VERSION=")
          .opt("ROCR_VISIBLE_DEVICES", r.rocr_visible_devices, "ROCR_VISIBLE_DEVICES=")
          .opt("HIP_VISIBLE_DEVICES", r.hip_visible_devices, "HIP_VISIBLE_DEVICES=")
          .opt("ROCM_PATH", r.rocm_path, "ROCM_PATH="));
  if (r.hip) {
    add_row(s.rows, "HIP",
            RowValues()
                .opt("library", r.hip->library)
                .opt("runtime_version", r.hip->runtime_version_text, "runtime ")
                .opt("driver_version", r.hip->driver_version, "driver "));
    if (const auto& e = r.hip->error) {
      add_row(s.rows, "",
              RowValues().text("error", e->call + " returned " + std::to_string(e->code) +
                                            (e->name ? " (" + *e->name + ")" : "")));
    }
    for (const auto& why : r.hip->load_errors)
      add_row(s.rows, "", RowValues().text("load_error", why));
  }
  return s;
}

/// Whether the ROCm probe found anything of AMD's: it runs on every Linux tree (and on a Mac's
/// recorded one), where "no install, no KFD" says nothing to the reader.
bool found_amd(const RocmInfo& r, const std::vector<DeviceNode>& files) {
  return !r.installs.empty() || !r.nodes.empty() || !files.empty() || r.amdgpu_module ||
         r.hsa_override_gfx_version || r.rocm_path || r.rocr_visible_devices ||
         r.hip_visible_devices || (r.hip && (r.hip->library || !r.hip->devices.empty()));
}

/// "loaded (live)", "built-in"; "not loaded" only where the module list could be read.
std::optional<std::string> amdgpu_state(const RocmInfo& r) {
  if (!r.modules_listed) return std::nullopt;
  if (!r.amdgpu_module) return "not loaded";
  return *r.amdgpu_module + (r.amdgpu_initstate ? " (" + *r.amdgpu_initstate + ")" : "");
}

/// /dev/kfd and the render nodes: the host's device files that ROCm opens.
std::vector<DeviceNode> rocm_files(const HostAccess& a) {
  std::vector<DeviceNode> out;
  for (const auto& d : a.device_nodes) {
    if (is_compute_node(d)) out.push_back(d);
  }
  return out;
}

/// render, video and the groups of /dev/kfd and the render nodes: the groups ROCm needs.
std::vector<GroupAccess> rocm_groups(const HostAccess& a) {
  std::set<std::string> wanted = {"render", "video"};
  for (const auto& d : a.device_nodes) {
    if (is_compute_node(d) && d.group) wanted.insert(*d.group);
  }
  std::vector<GroupAccess> out;
  for (const auto& g : a.account.device_groups) {
    if (wanted.count(g.group) != 0) out.push_back(g);
  }
  return out;
}

/// "/dev/dri/renderD128, /dev/kfd (no access)"; "none" where /dev was looked at.
std::optional<std::string> device_files(const HostAccess& a) {
  if (!a.dev_listed) return std::nullopt;
  std::set<std::string> files;
  for (const auto& n : rocm_files(a)) {
    const bool denied = n.readable == false || n.writable == false;
    files.insert(n.path + (denied ? " (no access)" : ""));
  }
  return files.empty() ? "none" : join({files.begin(), files.end()}, ", ");
}

/// Whether this process has the group that owns the GPU's device files.
std::string group_state(const GroupAccess& g, bool root) {
  if (root) return "not needed (root)";
  if (g.in_process) return "yes";
  return g.listed_for_user ? "listed for the user, not active in this session" : "no";
}

void compare_rocm(const RocmInfo& r, const HostAccess& a, bool amd_here, Sink& out) {
  // On a machine with nothing AMD (no AMD GPU on the bus, no trace of ROCm), "amdgpu not loaded"
  // is no fact worth a row: diff and summary of NVIDIA nodes would list it on every one.
  if (amd_here) {
    out.compare(Weight::driver, "driver", "amdgpu kernel module", amdgpu_state(r));
    out.compare(Weight::driver, "driver", "amdgpu module version", r.amdgpu_version);
  }
  out.compare(Weight::driver, "access", "ROCm device files", device_files(a));
  const bool root = a.account.uid == 0u;
  for (const auto& g : rocm_groups(a)) {
    out.compare(Weight::driver, "access", "in group " + g.group, group_state(g, root));
  }
  std::vector<std::string> versions;
  for (const auto& in : r.installs) versions.push_back(in.version.value_or(in.path));
  out.compare_set(Weight::toolkit, "toolkit", "ROCm installs", versions);
  // With one install the versions say it all; with several, the one /opt/rocm names is used.
  if (r.installs.size() >= 2) {
    for (const auto& in : r.installs) {
      if (in.default_link) {
        out.compare(Weight::toolkit, "toolkit", "/opt/rocm is", in.version.value_or(in.path));
      }
    }
  }
  if (r.hip) {
    out.compare(Weight::toolkit, "toolkit", "HIP runtime", r.hip->runtime_version_text);
    if (const auto& e = r.hip->error) {
      out.compare(Weight::driver, "driver", "HIP",
                  e->call + " returned " + std::to_string(e->code) + (e->name ? " (" + *e->name + ")" : ""));
    }
  }
  std::vector<std::string> targets;
  for (const auto& n : r.nodes) targets.push_back(n.gfx_target.value_or("node " + std::to_string(n.node)));
  out.compare_set(Weight::device, "devices", "AMD GPU targets (KFD)", targets);
  out.compare(Weight::variable, "variable", "HSA_OVERRIDE_GFX_VERSION", r.hsa_override_gfx_version);
  out.compare(Weight::variable, "variable", "ROCM_PATH", r.rocm_path);
  out.compare(Weight::variable, "variable", "ROCR_VISIBLE_DEVICES", r.rocr_visible_devices);
  out.compare(Weight::variable, "variable", "HIP_VISIBLE_DEVICES", r.hip_visible_devices);
}

}  // namespace

void rocm_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  if (!snap.rocm) return;
  for (auto k : m.in(kApiKfd)) kfd_view(snap.rocm->nodes[k], rows);
  for (auto h : m.in(kApiHip)) hip_view(snap.rocm->hip->devices[h], rows);
}

void rocm_facts(const Snapshot& snap, Sink& out) {
  if (!snap.rocm) return;
  const HostAccess& access = host_access(snap);
  const bool found = found_amd(*snap.rocm, rocm_files(access));
  if (found) out.section(rocm_section(*snap.rocm));
  bool amd_gpu = false;
  if (snap.pci) {
    for (const auto& p : snap.pci->devices) amd_gpu = amd_gpu || p.vendor_id == kPciVendorAmd;
  }
  compare_rocm(*snap.rocm, access, found || amd_gpu, out);
}

std::string rocm_summary(const RocmInfo& r) {
  std::vector<std::string> parts;
  for (const auto& in : r.installs) {
    if (in.default_link || r.installs.size() == 1) parts.push_back("ROCm " + in.version.value_or("?"));
  }
  std::vector<std::string> targets;
  for (const auto& n : r.nodes) targets.push_back(n.gfx_target.value_or("?"));
  if (!r.nodes.empty()) {
    parts.push_back(std::to_string(r.nodes.size()) + (r.nodes.size() == 1 ? " GPU (" : " GPUs (") +
                    join(targets, ", ") + ")");
  }
  if (r.amdgpu_module) parts.push_back("amdgpu " + *r.amdgpu_module);
  if (r.hip && r.hip->runtime_version_text) parts.push_back("HIP " + *r.hip->runtime_version_text);
  return join_known(parts);
}

}  // namespace gpudoctor::facts
