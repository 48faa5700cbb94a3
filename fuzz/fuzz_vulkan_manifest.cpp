// A Vulkan driver manifest (icd.d/*.json).
#include "fuzz_input.hpp"
#include "parse/vulkan_manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto m = gpudoctor::parse_vulkan_manifest(gpudoctor::fuzz::as_text(data, size));
  // The loader skips a manifest without a library: one is either named or the file is refused.
  if (!m.error && !m.library_path) __builtin_trap();
  return 0;
}
