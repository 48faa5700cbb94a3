#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/smoke.hpp"

namespace gpudoctor {

/// One MTLDevice as MTLCopyAllDevices lists it. Each property is unknown (null) where this
/// macOS's Metal does not answer its selector (respondsToSelector: said no).
struct MetalDevice {
  int index = 0;  ///< its place in MTLCopyAllDevices' array
  std::optional<std::string> name;          ///< "Apple M1 Pro", "AMD Radeon RX 5700 XT"
  std::optional<std::uint64_t> registry_id;  ///< the IORegistry entry id (registryID)
  std::optional<bool> unified_memory;        ///< hasUnifiedMemory
  std::optional<std::uint64_t> recommended_max_working_set_bytes;
  std::optional<bool> low_power;  ///< isLowPower: the integrated GPU of a two-GPU Mac
  std::optional<bool> headless;   ///< isHeadless: drives no display
  std::optional<bool> removable;  ///< isRemovable: an eGPU
  std::optional<std::string> location;  ///< "built-in", "slot", "external", "unspecified"
  std::optional<std::uint64_t> location_number;
  std::optional<std::uint64_t> max_buffer_length_bytes;
  std::optional<std::uint64_t> max_threadgroup_memory_bytes;
  /// supportsFamily: for every MTLGPUFamily this gpudoctor knows (api/metal/metal_families),
  /// named as Apple's headers do: "Apple7", "Mac2", "Common3", "Metal3". Empty when the call
  /// is missing (before macOS 10.15).
  std::vector<std::string> families;
  std::optional<bool> families_known;  ///< whether supportsFamily: was there to ask
  /// Before macOS 10.15, where supportsFamily: is missing: the newest macOS feature set
  /// supportsFeatureSet: said yes to ("macOS_GPUFamily1_v3"); null where not asked or none.
  std::optional<std::string> feature_set;
};
GPUDOCTOR_JSON(MetalDevice, index, name, registry_id, unified_memory,
               recommended_max_working_set_bytes, low_power, headless, removable, location,
               location_number, max_buffer_length_bytes, max_threadgroup_memory_bytes, families,
               families_known, feature_set)

/// Metal through the Objective-C runtime (libobjc.A.dylib, Metal.framework), in a child.
struct MetalInfo {
  std::optional<std::string> library;   ///< Metal.framework as opened
  std::vector<std::string> load_errors;  ///< dlerror() of what could not be opened
  std::optional<std::string> error;      ///< what stopped the enumeration, naming the call
  std::vector<MetalDevice> devices;
  std::vector<SmokeResult> smoke;
};
GPUDOCTOR_JSON(MetalInfo, library, load_errors, error, devices, smoke)

}  // namespace gpudoctor
