#pragma once
// Reads JSON straight into the model's structs (those declared with GPUDOCTOR_JSON), from a
// JsonPull, with no DOM in between: a 45 MB report becomes a Snapshot at parse speed and in
// about the model's own memory. Stricter than nlohmann's get<T>(): a fraction or an exponent
// in a whole-number field, a value out of the field's range, an unknown enum name and a value
// of the wrong kind are problems. The first problem is kept with its place (a JSON pointer)
// and reading goes on past it, so the caller can still read the rest (schema_version) first.
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "json.hpp"
#include "json_pull.hpp"

namespace gpudoctor {

namespace json_model_detail {

struct AnyVisit {
  template <typename F>
  void operator()(const char*, F&) const {}
};

template <typename T, typename = void>
struct is_struct : std::false_type {};
template <typename T>
struct is_struct<T, std::void_t<decltype(visit_fields(std::declval<T&>(), AnyVisit{}))>>
    : std::true_type {};

/// T declares members that an older schema kept elsewhere or under another name:
/// visit_moved_fields(T&, key, visit) calls visit(name, field) for a key it knows.
template <typename T, typename = void>
struct has_moved_fields : std::false_type {};
template <typename T>
struct has_moved_fields<T, std::void_t<decltype(visit_moved_fields(
                               std::declval<T&>(), std::string_view(), AnyVisit{}))>>
    : std::true_type {};

template <typename T, typename = void>
struct is_named_enum : std::false_type {};
template <typename T>
struct is_named_enum<T, std::void_t<decltype(json_enum_names(static_cast<const T*>(nullptr)))>>
    : std::true_type {};

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};

template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};

template <typename T>
struct is_string_map : std::false_type {};
template <typename T>
struct is_string_map<std::map<std::string, T>> : std::true_type {};

}  // namespace json_model_detail

/// A value that does not fit its field: where (a JSON pointer) and why.
struct JsonReadProblem {
  std::string pointer;
  std::string why;
};

class JsonModelReader {
 public:
  explicit JsonModelReader(JsonPull& in) : in_(in) {}

  /// Reads the next value into `out`, which must be a GPUDOCTOR_JSON struct, a named enum,
  /// std::string, bool, an integer, double, std::optional, std::vector or std::map with
  /// string keys of those.
  template <typename T>
  void read(T& out) {
    namespace d = json_model_detail;
    if constexpr (d::is_optional<T>::value) {
      if (in_.peek() == JsonKind::null) {
        in_.read_null();
        out.reset();
      } else {
        out.emplace();
        read(*out);
      }
    } else if constexpr (d::is_vector<T>::value) {
      if (!expect(JsonKind::array)) return;
      out.clear();
      in_.begin_array();
      for (bool first = true; in_.next_element(first);) {
        path_.push_back({nullptr, out.size()});
        read(out.emplace_back());
        path_.pop_back();
      }
    } else if constexpr (d::is_string_map<T>::value) {
      if (!expect(JsonKind::object)) return;
      out.clear();
      in_.begin_object();
      for (bool first = true; in_.next_key(first);) {
        const std::string key = in_.key();
        path_.push_back({nullptr, out.size()});
        read(out[key]);
        path_.pop_back();
      }
    } else if constexpr (d::is_struct<T>::value) {
      if (!expect(JsonKind::object)) return;
      out = T{};
      in_.begin_object();
      for (bool first = true; in_.next_key(first);) {
        if (!read_field(out, in_.key()) && !read_moved_field(out, in_.key())) in_.skip_value();
      }
    } else if constexpr (d::is_named_enum<T>::value) {
      if (!expect(JsonKind::string)) return;
      const std::string& name = in_.read_string();
      if (auto value = enum_named<T>(name)) {
        out = *value;
      } else {
        problem("unknown value \"" + name + "\" (known: " + enum_names_text<T>() + ")");
      }
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (expect(JsonKind::string)) out = in_.read_string();
    } else if constexpr (std::is_same_v<T, bool>) {
      if (expect(JsonKind::boolean)) out = in_.read_bool();
    } else if constexpr (std::is_integral_v<T>) {
      if (expect(JsonKind::number)) read_integer(out);
    } else {
      static_assert(std::is_same_v<T, double>, "no JSON reading for this type");
      if (expect(JsonKind::number)) read_double(out);
    }
  }

  /// Reads the value of member `key` into the field of that name of `out`; false (nothing
  /// read) when `out` has no such field.
  template <typename T>
  bool read_field(T& out, const std::string& key) {
    const int wanted = field_index<T>(key);
    if (wanted < 0) return false;
    int index = 0;
    visit_fields(out, [&](const char* name, auto& field) {
      if (index++ != wanted) return;
      path_.push_back({name, 0});
      read(field);
      path_.pop_back();
    });
    return true;
  }

  /// Reads member `key`, which T's older schema had, into the field T keeps it in now; false
  /// when T names no such moved member.
  template <typename T>
  bool read_moved_field(T& out, const std::string& key) {
    if constexpr (json_model_detail::has_moved_fields<T>::value) {
      bool found = false;
      visit_moved_fields(out, key, [&](const char* name, auto& field) {
        found = true;
        path_.push_back({name, 0});
        read(field);
        path_.pop_back();
      });
      return found;
    } else {
      return false;
    }
  }

  /// The first problem, if any.
  const std::optional<JsonReadProblem>& problem() const { return problem_; }

 private:
  struct Step {
    const char* name;  ///< a member; nullptr for an array element
    std::size_t index;
  };

  /// The position of the field named `key` in T's GPUDOCTOR_JSON list, or -1: one hash
  /// lookup per member instead of a comparison with every field name (a CudaDevice has 50).
  template <typename T>
  static int field_index(const std::string& key) {
    static const std::unordered_map<std::string_view, int> kFields = [] {
      std::unordered_map<std::string_view, int> fields;
      T any{};
      int index = 0;
      visit_fields(any, [&](const char* name, auto&) { fields.emplace(name, index++); });
      return fields;
    }();
    const auto it = kFields.find(key);
    return it == kFields.end() ? -1 : it->second;
  }

  /// True when the next value is of `kind`; otherwise records the problem and skips it.
  bool expect(JsonKind kind);
  void problem(std::string why);
  void read_double(double& out);

  template <typename T>
  void read_integer(T& out) {
    const JsonNumber n = in_.read_number();
    if (!n.integer) return problem("holds a fraction or exponent where a whole number belongs");
    T value{};
    const char* first = n.text.data();
    const char* last = first + n.text.size();
    if constexpr (std::is_unsigned_v<T>) {
      if (*first == '-') return problem("holds a negative number where none belongs");
    }
    const auto [end, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || end != last) return problem("holds " + std::string(n.text) +
                                                         ", out of the field's range");
    out = value;
  }

  JsonPull& in_;
  std::vector<Step> path_;
  std::optional<JsonReadProblem> problem_;
};

/// `text`, one JSON document, read into `out`: "" or why not ("not JSON: …", "nested deeper
/// than …", "/results/0/n holds 1e+30 …"). For small files with a model type (a saved bench),
/// without nlohmann's get<T>(), whose casts of out-of-range floats are undefined behaviour.
template <typename T>
std::string read_json_model(std::string_view text, T& out) {
  try {
    JsonLimits limits;
    limits.max_bytes = text.size();
    JsonPull in(text, limits);
    JsonModelReader reader(in);
    reader.read(out);
    in.finish();
    if (const auto& p = reader.problem()) return p->pointer + " " + p->why;
    return "";
  } catch (const JsonSyntaxError& e) {
    return e.what();
  }
}

}  // namespace gpudoctor
