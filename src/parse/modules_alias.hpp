#pragma once
// Which kernel modules could drive a device, as `lspci -k` finds them: the device's modalias
// matched against the glob patterns of /lib/modules/<release>/modules.alias.
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// Modules whose "alias <pattern> <module>" line matches the modalias (fnmatch globbing),
/// each once, in the order of the file. Only "pci:" patterns are considered.
std::vector<std::string> modules_for_modalias(std::string_view modules_alias,
                                              std::string_view modalias);

}  // namespace gpudoctor
