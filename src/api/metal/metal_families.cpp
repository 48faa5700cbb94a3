#include "api/metal/metal_families.hpp"

#include <algorithm>
#include <limits>

#include "text.hpp"

namespace gpudoctor::metal {

const std::vector<GpuFamily>& gpu_families() {
  // Values: kGpuFamilyHeader (enum GPUFamily). The words are the case's page's and the Metal
  // feature set tables' (https://developer.apple.com/metal/Metal-Feature-Set-Tables.pdf); left
  // empty where neither says which GPUs.
  static const std::vector<GpuFamily> families = {
      {1001, "Apple1", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple1"},
      {1002, "Apple2", "Apple A8 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple2"},
      {1003, "Apple3", "Apple A9 and A10 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple3"},
      {1004, "Apple4", "Apple A11 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple4"},
      {1005, "Apple5", "Apple A12 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple5"},
      {1006, "Apple6", "Apple A13 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple6"},
      {1007, "Apple7", "Apple A14 and M1 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple7"},
      {1008, "Apple8", "Apple A15, A16 and M2 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple8"},
      {1009, "Apple9", "Apple A17, M3 and M4 GPUs", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple9"},
      {1010, "Apple10", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/apple10"},
      {2001, "Mac1", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/mac1"},
      {2002, "Mac2", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/mac2"},
      {3001, "Common1", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/common1"},
      {3002, "Common2", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/common2"},
      {3003, "Common3", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/common3"},
      {4001, "MacCatalyst1", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/maccatalyst1"},
      {4002, "MacCatalyst2", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/maccatalyst2"},
      {5001, "Metal3", "the Metal 3 features", "https://developer.apple.com/documentation/metal/mtlgpufamily/metal3"},
      {5002, "Metal4", "", "https://developer.apple.com/documentation/metal/mtlgpufamily/metal4"},
  };
  return families;
}

const std::vector<FeatureSet>& mac_feature_sets() {
  // Values: kGpuFamilyHeader (enum FeatureSet); the first macOS of each: its page.
  static const std::vector<FeatureSet> sets = {
      {10000, "macOS_GPUFamily1_v1", "10.11",
       "https://developer.apple.com/documentation/metal/mtlfeatureset/macos_gpufamily1_v1"},
      {10001, "macOS_GPUFamily1_v2", "10.12",
       "https://developer.apple.com/documentation/metal/mtlfeatureset/macos_gpufamily1_v2"},
      {10003, "macOS_GPUFamily1_v3", "10.13",
       "https://developer.apple.com/documentation/metal/mtlfeatureset/macos_gpufamily1_v3"},
      {10004, "macOS_GPUFamily1_v4", "10.14",
       "https://developer.apple.com/documentation/metal/mtlfeatureset/macos_gpufamily1_v4"},
      {10005, "macOS_GPUFamily2_v1", "10.14",
       "https://developer.apple.com/documentation/metal/mtlfeatureset/macos_gpufamily2_v1"},
  };
  return sets;
}

std::optional<std::string> highest_feature_set(const std::vector<unsigned long>& supported) {
  // The table is oldest first and family 2 after family 1, so the last it holds is the answer.
  std::optional<std::string> best;
  for (const auto& f : mac_feature_sets()) {
    if (std::find(supported.begin(), supported.end(), f.value) != supported.end()) {
      best = std::string(f.name);
    }
  }
  return best;
}

std::vector<std::string> family_names(const std::vector<long>& supported) {
  std::vector<std::string> names;
  for (const auto& f : gpu_families()) {
    if (std::find(supported.begin(), supported.end(), f.value) != supported.end()) {
      names.emplace_back(f.name);
    }
  }
  return names;
}

std::optional<std::string> highest_family(const std::vector<std::string>& names,
                                          std::string_view kind) {
  std::optional<std::string> best;
  long best_number = -1;
  for (const auto& n : names) {
    if (!starts_with(n, kind) || n.size() == kind.size()) continue;
    auto number = parse_uint(n.substr(kind.size()));
    if (!number) continue;  // "MacCatalyst1" is not a "Mac" family
    if (static_cast<long>(*number) > best_number) {
      best_number = static_cast<long>(*number);
      best = n;
    }
  }
  return best;
}

std::optional<std::string> location_name(std::uint64_t value) {
  // kGpuFamilyHeader, enum DeviceLocation.
  switch (value) {
    case 0: return "built-in";
    case 1: return "slot";
    case 2: return "external";
    case std::numeric_limits<std::uint64_t>::max(): return "unspecified";
    default: return std::nullopt;
  }
}

}  // namespace gpudoctor::metal
