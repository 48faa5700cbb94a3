#include "snapshot_io.hpp"

namespace gpudoctor {

std::variant<Snapshot, std::string> snapshot_from_json_text(std::string_view text) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::string("not JSON");
  if (!j.is_object()) return std::string("not a gpudoctor report (the top level is not an object)");
  if (j.contains("snapshot") && j["snapshot"].is_object()) j = j["snapshot"];
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer()) {
    return std::string("not a gpudoctor report (no schema_version)");
  }
  const auto version = j["schema_version"].get<long long>();
  if (version > kSchemaVersion) {
    return "written by a newer gpudoctor (schema " + std::to_string(version) +
           "; this one reads up to " + std::to_string(kSchemaVersion) + ")";
  }
  if (version < 1) return "schema_version " + std::to_string(version) + " is not valid";
  try {
    return j.get<Snapshot>();
  } catch (const std::exception& e) {
    return std::string("malformed report: ") + e.what();
  }
}

}  // namespace gpudoctor
