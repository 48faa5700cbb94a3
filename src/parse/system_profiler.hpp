#pragma once
// `system_profiler SPDisplaysDataType`, in both the forms people paste: `-json` (what the macos
// probe runs) and the default text. Pure functions of the text; nothing touches the system.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/macos.hpp"

namespace gpudoctor {

struct DisplaysReport {
  std::vector<MacGpu> gpus;
  std::optional<std::string> error;  ///< why the text was not a report; gpus is then empty
};

/// `system_profiler -json SPDisplaysDataType`: every GPU under "SPDisplaysDataType".
DisplaysReport parse_system_profiler_displays(std::string_view json);

/// The text form ("Graphics/Displays:", "Chipset Model: …", "Displays:").
DisplaysReport parse_system_profiler_displays_text(std::string_view text);

/// "8 GB", "1536 MB" → bytes (binary units, as system_profiler means them).
std::optional<std::uint64_t> parse_profiler_size(std::string_view text);

}  // namespace gpudoctor
