#pragma once
// nlohmann::json plus the two things every model file needs: std::optional as JSON null,
// and a field macro that tolerates missing keys (a missing key is "unknown", not an error).
#include <nlohmann/json.hpp>
#include <optional>

namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v) {
      j = *v;
    } else {
      j = nullptr;
    }
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null()) {
      v.reset();
    } else {
      v = j.get<T>();
    }
  }
};
}  // namespace nlohmann

/// to_json / from_json for a plain struct; on reading, an absent key keeps the default.
#define GPUDOCTOR_JSON(Type, ...) NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Type, __VA_ARGS__)

namespace gpudoctor {
using Json = nlohmann::json;

/// Serialises for a pipe or a file: strings from drivers may hold invalid UTF-8, which is
/// replaced rather than allowed to throw.
inline std::string dump_json(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}
}  // namespace gpudoctor
