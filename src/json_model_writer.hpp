#pragma once
// Writes the model's structs (those declared with GPUDOCTOR_JSON) straight to a JsonWriter,
// with no DOM in between, in the bytes their to_json and dump_json give: members in
// nlohmann's order (sorted by name), optionals as null, enums by name. The writing
// counterpart of json_model_reader.hpp.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "json.hpp"
#include "json_model_reader.hpp"
#include "json_writer.hpp"

namespace gpudoctor {

template <typename T>
void write_model(JsonWriter& out, const T& value);

namespace json_model_detail {

template <typename T>
void write_erased(JsonWriter& out, const void* value) {
  write_model(out, *static_cast<const T*>(value));
}

template <typename F>
void call_erased(JsonWriter& out, const void* write) {
  (*static_cast<const F*>(write))(out);
}

}  // namespace json_model_detail

/// The members of one JSON object, gathered from structs and single values and written in
/// nlohmann's order, so that a struct plus a few members of its own (the snapshot and its
/// merged devices) is written as to_json and `j[name] = value` would make it.
class JsonMembers {
 public:
  /// Member `name`, replacing one of that name already added.
  template <typename T>
  void add(std::string_view name, const T& value) {
    put({name, &value, &json_model_detail::write_erased<T>});
  }
  /// Member `name` written by `write(JsonWriter&)`, which must outlive write().
  template <typename F>
  void add_written(std::string_view name, const F& write) {
    put({name, &write, &json_model_detail::call_erased<F>});
  }
  /// Every field of a GPUDOCTOR_JSON struct.
  template <typename T>
  void add_fields(const T& value) {
    visit_fields(value, [this](const char* name, const auto& field) {
      members_.push_back({name, &field, &json_model_detail::write_erased<
                                            std::decay_t<decltype(field)>>});
    });
  }
  void write(JsonWriter& out) {
    std::stable_sort(members_.begin(), members_.end(),
                     [](const Member& a, const Member& b) { return a.name < b.name; });
    out.begin_object();
    for (const Member& m : members_) {
      out.key(m.name);
      m.write(out, m.value);
    }
    out.end_object();
  }

 private:
  struct Member {
    std::string_view name;
    const void* value;
    void (*write)(JsonWriter&, const void*);
  };
  void put(Member m) {
    for (Member& old : members_) {
      if (old.name == m.name) {
        old = m;
        return;
      }
    }
    members_.push_back(m);
  }
  std::vector<Member> members_;
};

namespace json_model_detail {

/// The positions of T's fields in nlohmann's order (by name), computed once.
template <typename T>
const std::vector<int>& sorted_field_order() {
  static const std::vector<int> kOrder = [] {
    std::vector<std::string_view> names;
    T any{};
    visit_fields(any, [&](const char* name, auto&) { names.emplace_back(name); });
    std::vector<int> order(names.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return names[a] < names[b]; });
    return order;
  }();
  return kOrder;
}

template <typename T>
void write_struct(JsonWriter& out, const T& value) {
  struct Field {
    const char* name;
    const void* value;
    void (*write)(JsonWriter&, const void*);
  };
  const std::vector<int>& order = sorted_field_order<T>();
  std::vector<Field> fields;
  fields.reserve(order.size());
  visit_fields(value, [&](const char* name, const auto& field) {
    fields.push_back({name, &field, &write_erased<std::decay_t<decltype(field)>>});
  });
  out.begin_object();
  for (int i : order) {
    out.key(fields[i].name);
    fields[i].write(out, fields[i].value);
  }
  out.end_object();
}

}  // namespace json_model_detail

/// Writes `value`: a GPUDOCTOR_JSON struct, a named enum, std::string, bool, a number,
/// std::optional, std::vector or std::map with string keys of those, or a Json; anything else
/// through its to_json.
template <typename T>
void write_model(JsonWriter& out, const T& value) {
  namespace d = json_model_detail;
  if constexpr (d::is_optional<T>::value) {
    if (value) {
      write_model(out, *value);
    } else {
      out.null();
    }
  } else if constexpr (d::is_vector<T>::value && !std::is_same_v<T, std::vector<bool>>) {
    out.begin_array();
    for (const auto& element : value) write_model(out, element);
    out.end_array();
  } else if constexpr (d::is_string_map<T>::value) {
    out.begin_object();
    for (const auto& [name, element] : value) {
      out.key(name);
      write_model(out, element);
    }
    out.end_object();
  } else if constexpr (d::is_struct<T>::value) {
    d::write_struct(out, value);
  } else if constexpr (d::is_named_enum<T>::value) {
    out.string(enum_name(value));
  } else if constexpr (std::is_same_v<T, std::string>) {
    out.string(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    out.boolean(value);
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    out.integer(value);
  } else if constexpr (std::is_integral_v<T>) {
    out.unsigned_integer(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    out.number(static_cast<double>(value));
  } else if constexpr (std::is_same_v<T, Json>) {
    out.json(value);
  } else {
    out.json(Json(value));
  }
}

}  // namespace gpudoctor
