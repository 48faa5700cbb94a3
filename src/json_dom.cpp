#include "json_dom.hpp"

namespace gpudoctor {

Json parse_json_bounded(std::string_view text, std::string* why, std::size_t max_depth) {
  try {
    // One pass of the pull reader checks the grammar and the depth without building anything.
    JsonLimits limits;
    limits.max_depth = max_depth;
    limits.max_bytes = text.size();
    JsonPull check(text, limits);
    check.skip_value();
    check.finish();
  } catch (const JsonSyntaxError& e) {
    if (why != nullptr) *why = e.what();
    return Json(Json::value_t::discarded);
  }
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() && why != nullptr) *why = "not JSON";
  return j;
}

}  // namespace gpudoctor
