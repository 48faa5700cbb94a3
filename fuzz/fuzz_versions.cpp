// Version strings as drivers, toolkits, wheels and manifests write them. Comparison must be an
// order: reflexive and antisymmetric on whatever parses.
#include "compat/version.hpp"
#include "fuzz_input.hpp"
#include "api/vulkan/vulkan_version.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  const auto [first, second] = fuzz::first_line_and_rest(text);
  const auto a = parse_version(first);
  const auto b = parse_version(second);
  if (a) {
    if (compare_versions(*a, *a) != 0 || compare_to_bound(*a, *a) != 0) __builtin_trap();
    if (!parse_version(numeric_string(*a))) __builtin_trap();
  }
  if (a && b) {
    const int ab = compare_versions(*a, *b);
    const int ba = compare_versions(*b, *a);
    if ((ab < 0) != (ba > 0) || (ab == 0) != (ba == 0)) __builtin_trap();
    in_range(*a, VersionRange{b, b});
    same_minor(*a, *b);
  }
  cuda_version_from_tag(text);
  rocm_version_from_tag(text);
  if (auto packed = parse_vulkan_api_version(text)) vulkan_api_version_string(*packed);
  return 0;
}
