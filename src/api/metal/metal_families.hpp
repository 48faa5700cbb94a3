#pragma once
// The Metal enumerations gpudoctor reads off a device, as data with their sources: which
// MTLGPUFamily values to ask supportsFamily: about, and what MTLDeviceLocation's values mean.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::metal {

struct GpuFamily {
  long value;              ///< MTLGPUFamily (NSInteger)
  std::string_view name;   ///< as the header names it without the prefix: "Apple7"
  std::string_view about;  ///< what Apple's documentation says it is, where it says
  std::string_view source; ///< the page that documents the case
};

/// Every MTLGPUFamily value Apple's headers declare (metal-cpp's Metal/MTLDevice.hpp, from the
/// same SDK as MTLDevice.h), in the header's order.
const std::vector<GpuFamily>& gpu_families();

/// A macOS feature set of the API before MTLGPUFamily: what macOS 10.11–10.14 answer
/// supportsFeatureSet: about (deprecated since, still answered).
struct FeatureSet {
  unsigned long value;          ///< MTLFeatureSet (NSUInteger)
  std::string_view name;        ///< "macOS_GPUFamily1_v3"
  std::string_view first_macos; ///< the macOS release that added it, as its page gives
  std::string_view source;      ///< the page that documents the case
};

/// The macOS MTLFeatureSet values Apple's headers declare (kGpuFamilyHeader, enum FeatureSet),
/// oldest first; the alias macOS_ReadWriteTextureTier2 (10002) is a texture tier, not a family
/// version, and is left out.
const std::vector<FeatureSet>& mac_feature_sets();

/// The newest feature set of the GPU family with the highest number a device said yes to:
/// "macOS_GPUFamily2_v1" for {10000, 10001, 10003, 10004, 10005}; nullopt for none.
std::optional<std::string> highest_feature_set(const std::vector<unsigned long>& supported);

/// The header that gives the values.
inline constexpr std::string_view kGpuFamilyHeader =
    "https://github.com/bkaradzic/metal-cpp/blob/cf1ff4d213ef7d66c2b9d1ef9611853ccc8df8d5/"
    "Metal/MTLDevice.hpp";

/// The names of the families a device said yes to, in the table's order.
std::vector<std::string> family_names(const std::vector<long>& supported);

/// The highest family of one kind ("Apple", "Mac", "Common", "Metal") among `names`:
/// "Apple7" for {"Apple1", …, "Apple7", "Mac2"}; nullopt when none is of that kind.
std::optional<std::string> highest_family(const std::vector<std::string>& names,
                                          std::string_view kind);

/// MTLDeviceLocation (NSUInteger) as words: 0 built-in, 1 slot, 2 external, NSUIntegerMax
/// unspecified; nullopt for a value the header does not declare.
std::optional<std::string> location_name(std::uint64_t value);

}  // namespace gpudoctor::metal
