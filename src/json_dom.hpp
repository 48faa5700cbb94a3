#pragma once
// nlohmann's DOM for the small JSON files gpudoctor reads (ICD and Vulkan manifests, version
// files, system_profiler output, a saved bench), with the nesting bounded first: nlohmann parses
// deep input without recursing, but copying, dumping or comparing the result recurses once per
// level, and 100,000 nested arrays overflow the stack.
#include <string>
#include <string_view>

#include "json.hpp"
#include "json_pull.hpp"

namespace gpudoctor {

/// The parsed document, or a discarded value (is_discarded()) when `text` is not JSON or nests
/// deeper than `max_depth`; `why`, when given, then gets the reason.
Json parse_json_bounded(std::string_view text, std::string* why = nullptr,
                        std::size_t max_depth = kJsonMaxDepth);

}  // namespace gpudoctor
