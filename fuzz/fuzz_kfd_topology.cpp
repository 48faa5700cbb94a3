// The AMD KFD topology files in sysfs, HSA_OVERRIDE_GFX_VERSION and ROCm's version file.
#include "fuzz_input.hpp"
#include "parse/kfd_topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  const auto properties = parse_kfd_properties(text);
  const auto value = [&](const char* key) -> std::uint64_t {
    auto it = properties.find(key);
    return it == properties.end() ? 0 : it->second;
  };
  gfx_target_name(value("gfx_target_version"));
  kfd_pci_address(value("domain"), value("location_id"));
  gfx_override_target(text);
  parse_gfx_target(text);
  parse_rocm_version_file(text);
  return 0;
}
