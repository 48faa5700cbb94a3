#pragma once
#include <string>

#include "json.hpp"

namespace gpudoctor {

/// `gpudoctor report --html`: one self-contained page (inline CSS, no script, no network)
/// drawn from the report JSON alone: the findings first, then devices, smoke tests, software,
/// the bench plot when there is one, and the raw JSON folded at the end.
std::string render_report_html(const Json& report);

}  // namespace gpudoctor
