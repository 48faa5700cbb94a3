#include "metal/metal_device.hpp"

#include "api/metal/metal_families.hpp"

namespace gpudoctor::metal {

namespace {

std::optional<std::uint64_t> number(MetalCalls& calls, Object o, const char* selector) {
  if (!calls.responds(o, selector)) return std::nullopt;
  return calls.unsigned_value(o, selector);
}

std::optional<bool> flag(MetalCalls& calls, Object o, const char* selector) {
  if (!calls.responds(o, selector)) return std::nullopt;
  return calls.flag(o, selector);
}

}  // namespace

MetalDevice read_device(MetalCalls& calls, Object device, int index) {
  MetalDevice d;
  d.index = index;
  if (calls.responds(device, "name")) d.name = calls.text(device, "name");
  // Older macOS versions lack some of these selectors (Apple's MTLDevice pages give each one's
  // first version: https://developer.apple.com/documentation/metal/mtldevice).
  d.registry_id = number(calls, device, "registryID");
  d.unified_memory = flag(calls, device, "hasUnifiedMemory");
  d.recommended_max_working_set_bytes =
      number(calls, device, "recommendedMaxWorkingSetSize");
  d.low_power = flag(calls, device, "isLowPower");            
  d.headless = flag(calls, device, "isHeadless");             
  d.removable = flag(calls, device, "isRemovable");           
  if (auto location = number(calls, device, "location")) {    
    d.location = location_name(*location);
  }
  d.location_number = number(calls, device, "locationNumber");
  d.max_buffer_length_bytes = number(calls, device, "maxBufferLength");
  d.max_threadgroup_memory_bytes = number(calls, device, "maxThreadgroupMemoryLength");
  d.families_known = calls.responds(device, "supportsFamily:");
  if (*d.families_known) {
    std::vector<long> supported;
    for (const auto& f : gpu_families()) {
      if (calls.supports_family(device, f.value)) supported.push_back(f.value);
    }
    d.families = family_names(supported);
  } else if (calls.responds(device, "supportsFeatureSet:")) {
    // macOS 10.11–10.14 (seed 002's High Sierra): the feature sets instead of the families.
    std::vector<unsigned long> supported;
    for (const auto& f : mac_feature_sets()) {
      if (calls.supports_feature_set(device, f.value)) supported.push_back(f.value);
    }
    d.feature_set = highest_feature_set(supported);
  }
  return d;
}

}  // namespace gpudoctor::metal
