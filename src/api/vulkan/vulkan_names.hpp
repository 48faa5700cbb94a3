#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// "VK_ERROR_INCOMPATIBLE_DRIVER (-9)"; an unknown code reads "VkResult -12345".
std::string vk_result_text(std::int32_t result);

/// "vkCreateBuffer returned VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)".
std::string vk_call_failed(std::string_view call, std::int32_t result);

/// VkPhysicalDeviceType as the model spells it ("discrete_gpu", "cpu", …); nullopt for a value
/// the spec does not define.
std::optional<std::string> vk_device_type_name(std::uint32_t type);

/// VkDriverId without its prefix ("MESA_LLVMPIPE"); nullopt for an id this build does not know.
std::optional<std::string> vk_driver_id_name(std::uint32_t id);

/// Flag names, lowest bit first; bits without a name come out as "0x…".
std::vector<std::string> vk_queue_flag_names(std::uint32_t flags);
std::vector<std::string> vk_memory_property_flag_names(std::uint32_t flags);

/// A fixed-size char array a driver filled in (deviceName, driverInfo, …) as printable UTF-8:
/// it stops at the first NUL or at the capacity, and control characters become U+FFFD, so a
/// lying driver cannot make us read past the array or write escape codes to a terminal.
/// *terminated says whether a NUL was found inside the array.
std::string vk_fixed_string(const char* data, std::size_t capacity, bool* terminated = nullptr);

/// 16 bytes as a UUID: "6d657361-3232-2e33-2e36-000000000000".
std::string vk_uuid_string(const std::uint8_t* bytes);

}  // namespace gpudoctor
