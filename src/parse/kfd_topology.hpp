#pragma once
// Parsers for the AMD KFD topology in sysfs (/sys/class/kfd/kfd/topology/nodes/<N>/…) and the
// few ROCm strings that go with it. Each takes text or numbers; none touches the system.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// A KFD `properties` file ("simd_count 240" per line) as name → value; malformed lines are
/// skipped.
std::map<std::string, std::uint64_t> parse_kfd_properties(std::string_view text);

/// Whether a KFD node is a GPU. libhsakmt (ROCR-Runtime libhsakmt/src/topology.c) treats a node
/// with simd_count 0 as a CPU agent and bails out before reading its target; the kernel writes
/// gpu_id 0 for CPU nodes. Where a recorded properties file lacks simd_count, a nonzero gpu_id or
/// gfx_target_version decides; vendor_id alone does not.
bool kfd_node_is_gpu(const std::map<std::string, std::uint64_t>& properties,
                     std::optional<std::uint64_t> gpu_id);

/// KFD's gfx_target_version (major * 10000 + minor * 100 + stepping) as the LLVM target name:
/// 90010 → "gfx90a", 100301 → "gfx1031", 90402 → "gfx942". Minor and stepping are written as
/// one hex digit each, as LLVM names them; nullopt for 0 (a CPU node) or a value no target has.
std::optional<std::string> gfx_target_name(std::uint64_t gfx_target_version);

/// The PCI address of a KFD node: location_id is the kernel's pci_dev_id() (bus << 8 | devfn),
/// domain is pci_domain_nr(): 0, 33536 → "0000:83:00.0".
std::optional<std::string> kfd_pci_address(std::uint64_t domain, std::uint64_t location_id);

/// HSA_OVERRIDE_GFX_VERSION ("10.3.0", MAJOR.MINOR.STEPPING) as the target the runtime then
/// reports: "gfx1030"; nullopt when the value is not three numbers.
std::optional<std::string> gfx_override_target(std::string_view value);

/// Whether libhsakmt accepts an HSA_OVERRIDE_GFX_VERSION value: sscanf("%u.%u.%u%c") must read
/// exactly three numbers, major ≤ 63, minor and stepping ≤ 255 (ROCR-Runtime
/// libhsakmt/src/topology.c); otherwise it logs "HSA_OVERRIDE_GFX_VERSION %s is invalid" and
/// opening the topology fails, so no GPU is usable.
bool hsa_override_accepted(std::string_view value);

/// "gfx1031" → {10, 3, 1}; nullopt when it is not a gfx target name.
struct GfxVersion {
  unsigned major = 0;
  unsigned minor = 0;
  unsigned stepping = 0;
};
std::optional<GfxVersion> parse_gfx_target(std::string_view name);

/// A ROCm version file's text (.info/version: "6.3.0-39") without blanks; nullopt when empty.
std::optional<std::string> parse_rocm_version_file(std::string_view text);

}  // namespace gpudoctor
