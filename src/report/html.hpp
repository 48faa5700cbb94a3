#pragma once
// Small pieces for writing HTML by hand: escaping, safe links, tables from report JSON.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json.hpp"

namespace gpudoctor::html {

/// Text or attribute value with & < > " ' escaped.
std::string escape(std::string_view text);

/// A JSON value as a person reads it: strings as they are, true/false as yes/no, numbers as
/// JSON writes them, arrays joined with ", "; null and missing as "".
std::string text_of(const Json& value);

/// j[key] when j is an object holding it, else null: reading a report never throws.
const Json& field(const Json& j, const std::string& key);
/// text_of(field(j, key)).
std::string field_text(const Json& j, const std::string& key);

/// <a href> for http(s) URLs only; anything else is shown as text.
std::string link(const std::string& url, const std::string& label);

/// <table> with a header row; cells are escaped here.
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows);

/// A two-column table of name → value, skipping empty values; "" when all are empty.
std::string facts_table(const std::vector<std::pair<std::string, std::string>>& rows);

/// Every scalar member of an object as a facts table (arrays of scalars joined), for the
/// per-API views of a device.
std::string object_table(const Json& object);

}  // namespace gpudoctor::html
