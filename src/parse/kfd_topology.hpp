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
