#include "api/vulkan/vulkan_names.hpp"

#include "text.hpp"

namespace gpudoctor {

namespace {

const char* vk_result_name(std::int32_t r) {
  switch (r) {
    case 0:
      return "VK_SUCCESS";
    case 1:
      return "VK_NOT_READY";
    case 2:
      return "VK_TIMEOUT";
    case 3:
      return "VK_EVENT_SET";
    case 4:
      return "VK_EVENT_RESET";
    case 5:
      return "VK_INCOMPLETE";
    case -1:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case -2:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case -3:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case -4:
      return "VK_ERROR_DEVICE_LOST";
    case -5:
      return "VK_ERROR_MEMORY_MAP_FAILED";
    case -6:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case -7:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case -8:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case -9:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case -10:
      return "VK_ERROR_TOO_MANY_OBJECTS";
    case -11:
      return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case -12:
      return "VK_ERROR_FRAGMENTED_POOL";
    case -13:
      return "VK_ERROR_UNKNOWN";
    case -1000069000:
      return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case -1000072003:
      return "VK_ERROR_INVALID_EXTERNAL_HANDLE";
    case -1000161000:
      return "VK_ERROR_FRAGMENTATION";
    case -1000257000:
      return "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS";
    case 1000297000:
      return "VK_PIPELINE_COMPILE_REQUIRED";
    case -1000000000:
      return "VK_ERROR_SURFACE_LOST_KHR";
    case -1000000001:
      return "VK_ERROR_NATIVE_WINDOW_IN_USE_KHR";
    case -1000003001:
      return "VK_ERROR_INCOMPATIBLE_DISPLAY_KHR";
    case -1000011001:
      return "VK_ERROR_VALIDATION_FAILED_EXT";
    case -1000174001:
      return "VK_ERROR_NOT_PERMITTED_KHR";
    default:
      return nullptr;
  }
}

std::vector<std::string> flag_names(std::uint32_t flags, const char* const* names, int n) {
  std::vector<std::string> out;
  for (int bit = 0; bit < 32; ++bit) {
    const std::uint32_t mask = 1u << bit;
    if ((flags & mask) == 0) continue;
    if (bit < n && names[bit] != nullptr) {
      out.emplace_back(names[bit]);
    } else {
      out.push_back("0x" + hex(mask, 0));
    }
  }
  return out;
}

constexpr const char* kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

std::string vk_result_text(std::int32_t result) {
  const char* name = vk_result_name(result);
  if (name == nullptr) return "VkResult " + std::to_string(result);
  return std::string(name) + " (" + std::to_string(result) + ")";
}

std::string vk_call_failed(std::string_view call, std::int32_t result) {
  return std::string(call) + " returned " + vk_result_text(result);
}

std::optional<std::string> vk_device_type_name(std::uint32_t type) {
  switch (type) {
    case 0:
      return "other";
    case 1:
      return "integrated_gpu";
    case 2:
      return "discrete_gpu";
    case 3:
      return "virtual_gpu";
    case 4:
      return "cpu";
    default:
      return std::nullopt;
  }
}

std::optional<std::string> vk_driver_id_name(std::uint32_t id) {
  static const char* const kNames[] = {
      nullptr,
      "AMD_PROPRIETARY",
      "AMD_OPEN_SOURCE",
      "MESA_RADV",
      "NVIDIA_PROPRIETARY",
      "INTEL_PROPRIETARY_WINDOWS",
      "INTEL_OPEN_SOURCE_MESA",
      "IMAGINATION_PROPRIETARY",
      "QUALCOMM_PROPRIETARY",
      "ARM_PROPRIETARY",
      "GOOGLE_SWIFTSHADER",
      "GGP_PROPRIETARY",
      "BROADCOM_PROPRIETARY",
      "MESA_LLVMPIPE",
      "MOLTENVK",
      "COREAVI_PROPRIETARY",
      "JUICE_PROPRIETARY",
      "VERISILICON_PROPRIETARY",
      "MESA_TURNIP",
      "MESA_V3DV",
      "MESA_PANVK",
      "SAMSUNG_PROPRIETARY",
      "MESA_VENUS",
      "MESA_DOZEN",
      "MESA_NVK",
      "IMAGINATION_OPEN_SOURCE_MESA",
      "MESA_HONEYKRISP",
      "VULKAN_SC_EMULATION_ON_VULKAN",
  };
  if (id == 0 || id >= sizeof kNames / sizeof kNames[0]) return std::nullopt;
  return std::string(kNames[id]);
}

std::vector<std::string> vk_queue_flag_names(std::uint32_t flags) {
  static const char* const kNames[] = {"graphics",       "compute",   "transfer",
                                       "sparse_binding", "protected", "video_decode",
                                       "video_encode",   nullptr,     "optical_flow"};
  return flag_names(flags, kNames, sizeof kNames / sizeof kNames[0]);
}

std::vector<std::string> vk_memory_property_flag_names(std::uint32_t flags) {
  static const char* const kNames[] = {"device_local",    "host_visible",     "host_coherent",
                                       "host_cached",     "lazily_allocated", "protected",
                                       "device_coherent", "device_uncached",  "rdma_capable"};
  return flag_names(flags, kNames, sizeof kNames / sizeof kNames[0]);
}

std::string vk_fixed_string(const char* data, std::size_t capacity, bool* terminated) {
  std::size_t n = 0;
  while (n < capacity && data[n] != '\0') ++n;
  if (terminated != nullptr) *terminated = n < capacity;
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  std::string out;
  out.reserve(n);
  std::size_t i = 0;
  while (i < n) {
    // Decode one UTF-8 sequence; anything malformed, and any C0/C1 control, becomes U+FFFD.
    const unsigned char c = p[i];
    int len = c < 0x80             ? 1
              : (c & 0xE0) == 0xC0 ? 2
              : (c & 0xF0) == 0xE0 ? 3
              : (c & 0xF8) == 0xF0 ? 4
                                   : 0;
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    bool ok = len > 0 && i + static_cast<std::size_t>(len) <= n;
    for (int k = 1; ok && k < len; ++k) {
      ok = (p[i + k] & 0xC0) == 0x80;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    const char32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= min[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF) && cp >= 0x20 &&
         cp != 0x7F && (cp < 0x80 || cp > 0x9F);
    if (ok) {
      out.append(data + i, static_cast<std::size_t>(len));
      i += static_cast<std::size_t>(len);
    } else {
      out += kReplacementCharacter;
      ++i;
    }
  }
  return out;
}

std::string vk_uuid_string(const std::uint8_t* bytes) {
  std::string s;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += hex(bytes[i], 2);
  }
  return s;
}

}  // namespace gpudoctor
