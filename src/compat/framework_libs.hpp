#pragma once
// Queries on framework_cuda_libs.json: where a framework release looks for the CUDA libraries
// it loads, which nvidia-* wheels each release pins, and which CUDA libraries it links.
#include <optional>
#include <string_view>
#include <vector>

#include "compat/compat_data.hpp"

namespace gpudoctor {

/// How this release of `framework` finds its CUDA libraries; nullopt when no row covers it.
std::optional<FrameworkLibrarySearch> framework_library_search(const CompatData& data,
                                                               std::string_view framework,
                                                               const Version& version);

/// Every release of `framework` that requires `package`, oldest first.
std::vector<FrameworkWheelPin> framework_pins(const CompatData& data, std::string_view framework,
                                              std::string_view package);

/// The CUDA libraries this release of `framework` links (its PyPI wheel's DT_NEEDED); nullopt
/// when no row covers it.
std::optional<FrameworkNeeded> framework_needed(const CompatData& data, std::string_view framework,
                                                const Version& version);

}  // namespace gpudoctor
