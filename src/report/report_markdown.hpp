#pragma once
#include <cstddef>
#include <string>

#include "json.hpp"

namespace gpudoctor {

/// GitHub's limit on a comment is 65,536 characters; the block keeps under this many, cutting
/// the machine's part (never the diagnosis's first lines) and saying what it left out.
constexpr std::size_t kMarkdownMaxChars = 60000;

/// `gpudoctor report --markdown`: a block to paste into a ticket. The diagnosis first (one line
/// per area, each problem with its cause, fix and source), then the machine as `query` shows
/// it in a collapsed <details> section, read from the report's snapshot, so redacted as the
/// report is. At most `max_chars` characters.
std::string render_report_markdown(const Json& report, std::size_t max_chars = kMarkdownMaxChars);

}  // namespace gpudoctor
