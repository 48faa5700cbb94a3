#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace gpudoctor {

/// A CUDA device UUID (cuDeviceGetUuid's 16 bytes) as nvidia-smi and NVML write it:
/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case hex.
std::string nvidia_gpu_uuid(const std::uint8_t (&bytes)[16]);

/// "0000:01:00.0": the domain with at least four hex digits, lower case, as sysfs names it;
/// nullopt when bus, device or function is out of range.
std::optional<std::string> pci_address(std::uint32_t domain, std::uint32_t bus,
                                       std::uint32_t device, std::uint32_t function = 0);

}  // namespace gpudoctor
