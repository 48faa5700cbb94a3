// The KFD topology: /sys/class/kfd/kfd/topology/nodes/<N>/{properties,gpu_id,name,mem_banks,
// caches,io_links}.
#include <algorithm>

#include "core/paths.hpp"
#include "parse/kfd_topology.hpp"
#include "rocm/rocm_readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kNodes = "/sys/class/kfd/kfd/topology/nodes";

using Properties = std::map<std::string, std::uint64_t>;

std::optional<std::uint32_t> u32(const Properties& p, const char* key) {
  auto it = p.find(key);
  if (it == p.end() || it->second > 0xffffffffu) return std::nullopt;
  return static_cast<std::uint32_t>(it->second);
}

std::optional<std::uint64_t> u64(const Properties& p, const char* key) {
  auto it = p.find(key);
  if (it == p.end()) return std::nullopt;
  return it->second;
}

/// Numeric entries of a directory, in numeric order ("10" after "9").
std::vector<std::string> numbered(const Root& root, const std::string& dir) {
  std::vector<std::string> out;
  for (auto& name : root.list(dir)) {
    if (parse_uint(name) && name.find_first_not_of("0123456789") == std::string::npos) {
      out.push_back(std::move(name));
    }
  }
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return out;
}

std::vector<KfdMemoryBank> memory_banks(const Root& root, const std::string& node_dir) {
  std::vector<KfdMemoryBank> banks;
  const std::string dir = join_path(node_dir, "mem_banks");
  for (const auto& b : numbered(root, dir)) {
    auto text = root.read(join_path(join_path(dir, b), "properties"));
    if (!text) continue;
    const Properties p = parse_kfd_properties(*text);
    banks.push_back(
        {u32(p, "heap_type"), u64(p, "size_in_bytes"), u32(p, "width"), u32(p, "mem_clk_max")});
  }
  return banks;
}

void fill_from_properties(KfdNode& n, const Properties& p) {
  n.gfx_target_version = u32(p, "gfx_target_version");
  if (n.gfx_target_version) n.gfx_target = gfx_target_name(*n.gfx_target_version);
  n.vendor_id = u32(p, "vendor_id");
  n.device_id = u32(p, "device_id");
  if (auto loc = u64(p, "location_id")) {
    n.pci_address = kfd_pci_address(u64(p, "domain").value_or(0), *loc);  // domain: 5.x+
  }
  n.simd_count = u32(p, "simd_count");
  n.simd_per_cu = u32(p, "simd_per_cu");
  if (n.simd_count && n.simd_per_cu && *n.simd_per_cu > 0) {
    n.compute_units = *n.simd_count / *n.simd_per_cu;
  }
  n.array_count = u32(p, "array_count");
  n.simd_arrays_per_engine = u32(p, "simd_arrays_per_engine");
  n.cu_per_simd_array = u32(p, "cu_per_simd_array");
  n.wave_front_size = u32(p, "wave_front_size");
  n.max_waves_per_simd = u32(p, "max_waves_per_simd");
  n.lds_size_kb = u32(p, "lds_size_in_kb");
  n.num_xcc = u32(p, "num_xcc");
  n.max_engine_clock_mhz = u32(p, "max_engine_clk_fcompute");
  n.fw_version = u32(p, "fw_version");
  n.drm_render_minor = u32(p, "drm_render_minor");
  if (n.drm_render_minor && *n.drm_render_minor > 0) {
    n.render_node = "/dev/dri/renderD" + std::to_string(*n.drm_render_minor);
  }
}

}  // namespace

void probe_kfd_topology(const Root& root, RocmInfo& info) {
  info.kfd_topology = root.is_directory(kNodes);
  for (const auto& id : numbered(root, kNodes)) {
    const std::string dir = join_path(kNodes, id);
    auto text = root.read(join_path(dir, "properties"));
    if (!text) continue;
    const Properties p = parse_kfd_properties(*text);
    std::optional<std::uint64_t> gpu_id;
    if (auto g = root.read_line(join_path(dir, "gpu_id")); g && parse_uint(*g)) {
      gpu_id = parse_uint(*g);
    }
    if (!kfd_node_is_gpu(p, gpu_id)) {
      ++info.cpu_nodes;
      continue;
    }
    KfdNode n;
    n.node = static_cast<int>(*parse_uint(id));
    if (gpu_id && *gpu_id <= 0xffffffffu) n.gpu_id = static_cast<std::uint32_t>(*gpu_id);
    if (auto name = root.read_line(join_path(dir, "name")); name && !name->empty()) {
      n.name = *name;
    }
    fill_from_properties(n, p);
    n.memory_banks = memory_banks(root, dir);
    for (const auto& b : n.memory_banks) {
      if (b.size_bytes) n.memory_bytes = n.memory_bytes.value_or(0) + *b.size_bytes;
    }
    if (root.is_directory(join_path(dir, "caches"))) {
      n.caches = static_cast<std::uint32_t>(numbered(root, join_path(dir, "caches")).size());
    }
    if (root.is_directory(join_path(dir, "io_links"))) {
      n.io_links = static_cast<std::uint32_t>(numbered(root, join_path(dir, "io_links")).size());
    }
    info.nodes.push_back(std::move(n));
  }
}

}  // namespace gpudoctor
