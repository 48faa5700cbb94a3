#pragma once
// nlohmann::json plus the things every model file needs: std::optional as JSON null, a field
// macro that tolerates missing keys (a missing key is "unknown", not an error) and also lists
// the fields for code that walks a struct without a JSON document (src/json_model_reader.hpp),
// and enums whose unknown names are an error.
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "text.hpp"

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

#define GPUDOCTOR_VISIT_FIELD(field) gpudoctor_visit(#field, gpudoctor_value.field);

/// to_json / from_json for a plain struct (on reading, an absent key keeps the default), and
/// visit_fields(value, visit), which calls visit("name", value.name) for every field in order.
#define GPUDOCTOR_JSON(Type, ...)                                                        \
  NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Type, __VA_ARGS__)                     \
  template <typename Visit>                                                              \
  void visit_fields(Type& gpudoctor_value, Visit&& gpudoctor_visit) {                    \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(GPUDOCTOR_VISIT_FIELD, __VA_ARGS__))        \
  }                                                                                      \
  template <typename Visit>                                                              \
  void visit_fields(const Type& gpudoctor_value, Visit&& gpudoctor_visit) {              \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(GPUDOCTOR_VISIT_FIELD, __VA_ARGS__))        \
  }

/// An enum written as one of its names. Unlike NLOHMANN_JSON_SERIALIZE_ENUM, which reads any
/// unknown name as the first value (a "crashed" probe status misspelt in a shared report would
/// read as "ok" and its finding would vanish), reading an unknown name or a non-string throws.
/// The names: `{{E::a, "a"}, {E::b, "b"}}`.
#define GPUDOCTOR_JSON_ENUM(E, ...)                                                     \
  inline constexpr std::pair<E, const char*> gpudoctor_names_##E[] = __VA_ARGS__;       \
  inline const auto& json_enum_names(const E*) { return gpudoctor_names_##E; }          \
  inline void to_json(::nlohmann::json& j, const E& e) { j = ::gpudoctor::enum_name(e); } \
  inline void from_json(const ::nlohmann::json& j, E& e) {                              \
    if (!j.is_string()) throw std::invalid_argument("expected one of " +              \
                                                    ::gpudoctor::enum_names_text<E>()); \
    e = ::gpudoctor::enum_from_name<E>(j.get_ref<const std::string&>());                \
  }

namespace gpudoctor {
using Json = nlohmann::json;

/// Serialises for a pipe or a file: strings from drivers may hold invalid UTF-8, which is
/// replaced rather than allowed to throw, and code points that would reverse or hide text on a
/// terminal are written as \u escapes (escape_hidden_in_json).
inline std::string dump_json(const Json& j, int indent = -1) {
  return escape_hidden_in_json(j.dump(indent, ' ', false, Json::error_handler_t::replace));
}

/// The name of an enum declared with GPUDOCTOR_JSON_ENUM ("" for a value it does not name).
template <typename E>
const char* enum_name(E e) {
  for (const auto& [value, name] : json_enum_names(static_cast<const E*>(nullptr))) {
    if (value == e) return name;
  }
  return "";
}

/// "ok, info, warn, fail"
template <typename E>
std::string enum_names_text() {
  std::string text;
  for (const auto& [value, name] : json_enum_names(static_cast<const E*>(nullptr))) {
    text += (text.empty() ? "" : ", ") + std::string(name);
  }
  return text;
}

/// The value named `name`, or nullopt.
template <typename E>
std::optional<E> enum_named(std::string_view name) {
  for (const auto& [value, known] : json_enum_names(static_cast<const E*>(nullptr))) {
    if (name == known) return value;
  }
  return std::nullopt;
}

/// The value named `name`; throws std::invalid_argument naming the known ones otherwise.
template <typename E>
E enum_from_name(std::string_view name) {
  if (auto value = enum_named<E>(name)) return *value;
  throw std::invalid_argument("unknown value \"" + std::string(name) + "\" (known: " +
                              enum_names_text<E>() + ")");
}

}  // namespace gpudoctor
