#include "render/rocm_text.hpp"

namespace gpudoctor {

namespace {

std::string mhz(const std::optional<int>& khz) {
  return khz ? std::to_string(*khz / 1000) + " MHz" : "";
}

std::string group_text(const GroupAccess& g) {
  std::string s = g.group + opt(g.gid, " (", ")");
  if (g.in_process) return s + ": this process has it";
  return s + (g.listed_for_user ? ": listed for the user, not active in this session"
                                : ": not a group of this user");
}

}  // namespace

void render_kfd_node(Block& b, const KfdNode& n) {
  b.line("KFD", dots({"node " + std::to_string(n.node), opt(n.gfx_target),
                      opt(n.gfx_target_version, "gfx_target_version "), opt(n.name),
                      opt(n.gpu_id, "gpu_id ")}));
  std::string cus = opt(n.compute_units, "", " CUs");
  if (!cus.empty() && n.simd_per_cu) cus += " × " + std::to_string(*n.simd_per_cu) + " SIMDs";
  b.more(dots({cus, opt(n.wave_front_size, "wave", ""), opt(n.max_engine_clock_mhz, "", " MHz"),
               opt(n.num_xcc, "", " XCC")}));
  b.more(dots({opt_bytes(n.memory_bytes, "memory "), opt(n.lds_size_kb, "LDS ", " KiB"),
               opt(n.render_node), opt(n.fw_version, "firmware ")}));
}

void render_hip_device(Block& b, const HipDevice& d) {
  std::string arch = d.arch_major && d.arch_minor
                         ? std::to_string(*d.arch_major) + "." + std::to_string(*d.arch_minor)
                         : "";
  b.line("HIP", dots({"device " + std::to_string(d.ordinal), opt(d.name),
                      arch.empty() ? "" : "arch " + arch, opt(d.pci_bus_id)}));
  b.more(dots({opt_bytes(d.total_memory_bytes, ""), opt(d.multiprocessors, "", " multiprocessors"),
               mhz(d.clock_khz),
               mhz(d.memory_clock_khz).empty() ? "" : "memory " + mhz(d.memory_clock_khz),
               opt(d.memory_bus_width_bits, "", "-bit bus")}));
  b.more(dots({opt(d.warp_size, "wavefront "), opt(d.max_threads_per_block, "", " threads/block"),
               opt(d.l2_cache_bytes, "L2 ", " bytes")}));
}

std::string rocm_summary(const RocmInfo& r) {
  std::vector<std::string> parts;
  for (const auto& in : r.installs) {
    if (in.default_link || r.installs.size() == 1)
      parts.push_back("ROCm " + in.version.value_or("?"));
  }
  std::vector<std::string> targets;
  for (const auto& n : r.nodes) targets.push_back(n.gfx_target.value_or("?"));
  if (!r.nodes.empty()) {
    parts.push_back(std::to_string(r.nodes.size()) + (r.nodes.size() == 1 ? " GPU (" : " GPUs (") +
                    join(targets, ", ") + ")");
  }
  if (r.amdgpu_module) parts.push_back("amdgpu " + *r.amdgpu_module);
  if (r.hip && r.hip->runtime_version_text) parts.push_back("HIP " + *r.hip->runtime_version_text);
  return dots(parts);
}

void render_rocm_section(std::ostringstream& os, const RocmInfo& r, const Style& st) {
  os << st.bold("ROCm") << "\n";
  Block b(os, st, 2);
  if (r.installs.empty()) b.line("Installed", "none found (/opt/rocm, /opt/rocm-*, ROCM_PATH)");
  for (const auto& in : r.installs) {
    b.line("Installed", dots({in.path + opt(in.real_path, " → "), opt(in.version),
                              opt(in.version_file, "from "), in.default_link ? "default" : ""}));
  }
  b.line("amdgpu",
         dots({r.amdgpu_module.value_or(r.modules_listed ? "not loaded" : ""),
               opt(r.amdgpu_initstate, "initstate "), opt(r.amdgpu_version, "version ")}));
  b.line("KFD", r.kfd_topology ? std::to_string(r.nodes.size()) + " GPU node(s), " +
                                     std::to_string(r.cpu_nodes) + " CPU node(s)"
                               : "no topology (/sys/class/kfd)");
  for (const auto& d : r.device_nodes) {
    b.line("Device", dots({d.path, opt(d.mode), opt(d.group, "group "),
                           d.readable && d.writable
                               ? (*d.readable && *d.writable ? "read/write" : "not accessible")
                               : ""}));
  }
  b.line("User", dots({opt(r.account.user), opt(r.account.uid, "uid ")}));
  if (r.account.uid != std::optional<std::uint32_t>(0)) {  // root opens every device file
    for (const auto& g : r.account.device_groups) b.more(group_text(g));
  }
  b.line("Env", dots({opt(r.hsa_override_gfx_version, "HSA_OVERRIDE_GFX_VERSION="),
                      opt(r.rocr_visible_devices, "ROCR_VISIBLE_DEVICES="),
                      opt(r.hip_visible_devices, "HIP_VISIBLE_DEVICES="),
                      opt(r.rocm_path, "ROCM_PATH=")}));
  if (r.hip) {
    b.line("HIP", dots({opt(r.hip->library), opt(r.hip->runtime_version_text, "runtime "),
                        opt(r.hip->driver_version, "driver ")}));
  }
  os << "\n";
}

}  // namespace gpudoctor
