#include "compat/framework_libs.hpp"

#include <algorithm>

namespace gpudoctor {

std::optional<FrameworkLibrarySearch> framework_library_search(const CompatData& data,
                                                               std::string_view framework,
                                                               const Version& version) {
  for (const auto& row : data.framework_library_search) {
    if (row.framework == framework && in_range(version, row.version)) return row;
  }
  return std::nullopt;
}

std::vector<FrameworkWheelPin> framework_pins(const CompatData& data, std::string_view framework,
                                              std::string_view package) {
  std::vector<FrameworkWheelPin> out;
  for (const auto& row : data.framework_wheel_pins) {
    if (row.framework == framework && row.package == package) out.push_back(row);
  }
  std::sort(out.begin(), out.end(),
            [](const FrameworkWheelPin& a, const FrameworkWheelPin& b) { return a.version < b.version; });
  return out;
}

std::optional<FrameworkNeeded> framework_needed(const CompatData& data, std::string_view framework,
                                                const Version& version) {
  for (const auto& row : data.framework_needed) {
    if (row.framework == framework && in_range(version, row.version)) return row;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
