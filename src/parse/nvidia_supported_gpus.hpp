#pragma once
// NVIDIA's supported-gpus.json, the table each driver release ships (the .run package's
// supported-gpus/ folder; distributions install it in the driver's documentation directory):
// {"chips": [{"devid": "0x2B85", "name": "NVIDIA GeForce RTX 5090", "features": [...]},
// {"devid": "0x2BB1", "subdevid": "0x204B", "subvendorid": "0x1028", ...},
// {"devid": "0x1BA1", ..., "legacybranch": "580.xx", ...}]}. Format as seen in
// https://github.com/megvadulthangya/nvidia-driver-assistant/blob/0b88897252662a364468f5ba6b68b35082164742/supported-gpus/supported-gpus.json
// and in the rows quoted by https://github.com/awslabs/amazon-eks-ami/pull/2824.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/nvidia_system.hpp"

namespace gpudoctor {

struct SupportedGpus {
  std::vector<DriverGpuEntry> rows;  ///< every row with a device id and a name, in file order
  std::optional<std::string> error;  ///< why the text is not such a table
};

/// Reads the file's text. open_module and needs_open_module are set per DriverGpuEntry's rules.
SupportedGpus parse_supported_gpus(std::string_view text);

/// The driver's row for a board: the row naming its subsystem, else the row for the device id
/// alone; nullptr when the table has neither.
const DriverGpuEntry* supported_gpu_row(const std::vector<DriverGpuEntry>& rows,
                                        std::uint16_t device_id,
                                        std::optional<std::uint16_t> subsystem_vendor_id,
                                        std::optional<std::uint16_t> subsystem_device_id);

}  // namespace gpudoctor
