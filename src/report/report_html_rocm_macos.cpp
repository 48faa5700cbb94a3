// The ROCm and macOS parts of the HTML report's software section, from the report JSON.
#include "render/text_blocks.hpp"
#include "report/html.hpp"
#include "report/report_html_parts.hpp"
#include "text.hpp"

namespace gpudoctor::html {

namespace {

using Rows = std::vector<std::vector<std::string>>;

/// A byte count as "16 GiB"; "" when the report has none.
std::string bytes_text(const Json& j, const std::string& key) {
  const Json& v = field(j, key);
  return v.is_number_unsigned() ? human_bytes(v.get<std::uint64_t>()) : "";
}

std::string amdgpu_text(const Json& r) {
  std::string module = field_text(r, "amdgpu_module");
  if (module.empty() && field(r, "modules_listed") == true) module = "not loaded";
  const std::string state = field_text(r, "amdgpu_initstate");
  const std::string version = field_text(r, "amdgpu_version");
  return dots({module, state.empty() ? "" : "initstate " + state,
               version.empty() ? "" : "version " + version});
}

std::string kfd_text(const Json& r) {
  if (field(r, "kfd_topology") != true) return "no topology (/sys/class/kfd)";
  std::vector<std::string> targets;
  for (const auto& n : field(r, "nodes")) targets.push_back(field_text(n, "gfx_target"));
  return std::to_string(field(r, "nodes").size()) + " GPU node(s) (" + dots(targets) + "), " +
         field_text(r, "cpu_nodes") + " CPU node(s)";
}

/// "render (gid 109): not a group of this user", one per group; root needs none.
std::string groups_text(const Json& account) {
  if (field(account, "uid") == 0) return "root: every device file opens";
  std::vector<std::string> lines;
  for (const auto& g : field(account, "device_groups")) {
    const std::string gid = field_text(g, "gid");
    std::string state = field(g, "in_process") == true ? "this process has it"
                        : field(g, "listed_for_user") == true
                            ? "listed for the user, not active in this session"
                            : "not a group of this user";
    lines.push_back(field_text(g, "group") + (gid.empty() ? "" : " (gid " + gid + ")") + ": " +
                    state);
  }
  return join(lines, "; ");
}

std::string hip_error_text(const Json& e) {
  if (!e.is_object()) return "";
  const std::string name = field_text(e, "name");
  return field_text(e, "call") + " returned " + field_text(e, "code") +
         (name.empty() ? "" : " (" + name + ")");
}

std::string rocm_installs(const Json& r) {
  Rows rows;
  for (const auto& in : field(r, "installs")) {
    rows.push_back({field_text(in, "path"), field_text(in, "real_path"), field_text(in, "version"),
                    field_text(in, "version_file"), field_text(in, "default_link")});
  }
  if (rows.empty()) return "<p class=\"none\">No ROCm install found (/opt/rocm, ROCM_PATH).</p>\n";
  return table({"install", "real path", "version", "read from", "/opt/rocm"}, rows);
}

std::string device_files(const Json& r) {
  Rows rows;
  for (const auto& d : field(r, "device_nodes")) {
    rows.push_back({field_text(d, "path"), field_text(d, "mode"), field_text(d, "group"),
                    field_text(d, "readable"), field_text(d, "writable")});
  }
  if (rows.empty()) return "";
  return table({"device file", "mode", "group", "readable", "writable"}, rows);
}

std::string mac_gpu_memory(const Json& g) {
  if (field(g, "unified_memory") == true) return "unified (system memory)";
  const std::string shared = bytes_text(g, "vram_shared_bytes");
  return dots({bytes_text(g, "vram_bytes"), shared.empty() ? "" : shared + " shared"});
}

std::string mac_gpus(const Json& m) {
  Rows rows;
  for (const auto& g : field(m, "gpus")) {
    std::vector<std::string> displays;
    for (const auto& d : field(g, "displays")) displays.push_back(field_text(d, "name"));
    std::string bus = field_text(g, "bus");
    if (!field_text(g, "pcie_lane_width").empty()) bus += " x" + field_text(g, "pcie_lane_width");
    const std::string metal = field_text(g, "metal");
    rows.push_back({field_text(g, "name"), field_text(g, "vendor"), bus, mac_gpu_memory(g),
                    metal.empty() ? field_text(g, "metal_supported") : metal,
                    field_text(g, "cores"), dots(displays)});
  }
  if (rows.empty()) return "";
  return table({"GPU", "vendor", "bus", "memory", "Metal", "GPU cores", "displays"}, rows);
}

std::string mac_architecture(const Json& m) {
  const Json& arm64 = field(m, "arm64");
  if (!arm64.is_boolean()) return "";
  return arm64 == true ? "Apple silicon (arm64)" : "Intel (x86_64)";
}

std::string plaidml_text(const Json& m) {
  const Json& p = field(m, "plaidml");
  if (!p.is_object()) return "";
  const std::string ids = field_text(p, "device_ids");
  return ids.empty() ? field_text(p, "file") + ": no device" : ids;
}

/// Whether the ROCm probe found anything of AMD's: it runs on every Linux tree (and on a Mac's
/// recorded one), where "no install, no KFD" says nothing to the reader of a ticket.
bool found_amd(const Json& r) {
  for (const char* list : {"installs", "nodes", "device_nodes"}) {
    if (!field(r, list).empty()) return true;
  }
  for (const char* key : {"amdgpu_module", "hsa_override_gfx_version", "rocm_path",
                          "rocr_visible_devices", "hip_visible_devices"}) {
    if (!field(r, key).is_null()) return true;
  }
  const Json& hip = field(r, "hip");
  return !field(hip, "library").is_null() || !field(hip, "devices").empty();
}

}  // namespace

std::string rocm_section(const Json& snapshot) {
  const Json& r = field(snapshot, "rocm");
  if (!r.is_object() || !found_amd(r)) return "";
  const Json& account = field(r, "account");
  const Json& hip = field(r, "hip");
  const std::string uid = field_text(account, "uid");
  return "<h3>ROCm</h3>\n" + rocm_installs(r) +
         facts_table(
             {{"amdgpu module", amdgpu_text(r)},
              {"KFD", kfd_text(r)},
              {"user", dots({field_text(account, "user"), uid.empty() ? "" : "uid " + uid})},
              {"device groups", groups_text(account)},
              {"HSA_OVERRIDE_GFX_VERSION", field_text(r, "hsa_override_gfx_version")},
              {"ROCR_VISIBLE_DEVICES", field_text(r, "rocr_visible_devices")},
              {"HIP_VISIBLE_DEVICES", field_text(r, "hip_visible_devices")},
              {"ROCM_PATH", field_text(r, "rocm_path")},
              {"libamdhip64", field_text(hip, "library")},
              {"HIP runtime", field_text(hip, "runtime_version_text")},
              {"HIP error", hip_error_text(field(hip, "error"))},
              {"HIP load errors", field_text(hip, "load_errors")}}) +
         device_files(r);
}

std::string macos_section(const Json& snapshot) {
  const Json& m = field(snapshot, "macos");
  if (!m.is_object()) return "";
  const std::string build = field_text(m, "build_version");
  return "<h3>macOS</h3>\n" +
         facts_table(
             {{"version", dots({field_text(m, "product_name"), field_text(m, "product_version"),
                                build.empty() ? "" : "build " + build})},
              {"CPU", field_text(m, "cpu_brand")},
              {"architecture", mac_architecture(m)},
              {"runs under Rosetta", field_text(m, "translated")},
              {"memory", bytes_text(m, "memory_bytes")},
              {"SYSTEM_VERSION_COMPAT", field_text(m, "system_version_compat")},
              {"DYLD_LIBRARY_PATH", field_text(m, "dyld_library_path")},
              {"PlaidML device", plaidml_text(m)},
              {"read from", field_text(m, "sources")},
              {"problems", field_text(m, "errors")}}) +
         mac_gpus(m);
}

}  // namespace gpudoctor::html
