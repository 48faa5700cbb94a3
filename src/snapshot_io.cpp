#include "snapshot_io.hpp"

#include <vector>

namespace gpudoctor {

namespace {

/// Why a document that says it is newer than this gpudoctor cannot be read.
std::optional<std::string> newer_schema(const Json& j) {
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer()) return {};
  const auto version = j["schema_version"].get<long long>();
  if (version <= kSchemaVersion) return std::nullopt;
  return "written by a newer gpudoctor (schema " + std::to_string(version) +
         "; this one reads up to " + std::to_string(kSchemaVersion) + ")";
}

/// The place of every floating-point number in `j`.
void find_floats(const Json& j, const Json::json_pointer& at,
                 std::vector<Json::json_pointer>& out) {
  if (j.is_number_float()) {
    out.push_back(at);
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) find_floats(value, at / key, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) find_floats(j[i], at / i, out);
  }
}

/// nlohmann reads a float into an integer field with a plain cast, which is undefined behaviour
/// when the value does not fit (2e30 into a byte count; found by fuzz/fuzz_snapshot). gpudoctor
/// writes whole numbers in its integer fields, so a float there makes the report malformed. To
/// tell integer fields from the model's few floating-point ones, a copy with every float set to
/// 0 is read and written back: a place that comes back as an integer is an integer field.
std::optional<std::string> float_in_integer_field(const Json& j) {
  std::vector<Json::json_pointer> floats;
  find_floats(j, Json::json_pointer(), floats);
  if (floats.empty()) return std::nullopt;
  Json zeroed = j;
  for (const auto& at : floats) zeroed[at] = 0.0;
  const Json typed = zeroed.get<Snapshot>();
  for (const auto& at : floats) {
    if (typed.contains(at) && typed[at].is_number_integer()) return at.to_string();
  }
  return std::nullopt;
}

}  // namespace

std::variant<Snapshot, std::string> snapshot_from_json_text(std::string_view text) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::string("not JSON");
  if (!j.is_object()) return std::string("not a gpudoctor report (the top level is not an object)");
  // A `check --json` or `report` document carries its own version around the snapshot.
  if (auto why = newer_schema(j)) return *why;
  if (j.contains("snapshot") && j["snapshot"].is_object()) j = j["snapshot"];
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer()) {
    return std::string("not a gpudoctor report (no schema_version)");
  }
  if (auto why = newer_schema(j)) return *why;
  const auto version = j["schema_version"].get<long long>();
  if (version < 1) return "schema_version " + std::to_string(version) + " is not valid";
  try {
    if (auto at = float_in_integer_field(j)) {
      return "malformed report: " + *at +
             " holds a fraction or exponent where a whole number belongs";
    }
    return j.get<Snapshot>();
  } catch (const std::exception& e) {
    return std::string("malformed report: ") + e.what();
  }
}

}  // namespace gpudoctor
