#include "report/html.hpp"

#include <cstdio>

#include "text.hpp"

namespace gpudoctor::html {

namespace {
constexpr std::size_t kLongCell = 24;
}  // namespace

std::string escape(std::string_view text) { return markup_escape(text); }

std::string text_of(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number_float()) {
    // Timings and errors to four significant digits: 0.3601169999 ms is 0.3601 ms.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", value.get<double>());
    return buf;
  }
  if (value.is_number()) return dump_json(value);
  if (value.is_array()) {
    std::vector<std::string> parts;
    for (const auto& v : value) {
      if (!v.is_structured()) parts.push_back(text_of(v));
    }
    return join(parts, ", ");
  }
  return "";
}

const Json& field(const Json& j, const std::string& key) {
  static const Json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string field_text(const Json& j, const std::string& key) { return text_of(field(j, key)); }

std::string link(const std::string& url, const std::string& label) {
  if (!starts_with(url, "https://") && !starts_with(url, "http://")) return escape(label);
  return "<a href=\"" + escape(url) + "\">" + escape(label) + "</a>";
}

std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows) {
  std::string out = "<table><thead><tr>";
  for (const auto& h : header) out += "<th>" + escape(h) + "</th>";
  out += "</tr></thead><tbody>";
  for (const auto& row : rows) {
    out += "<tr>";
    for (const auto& cell : row) {
      // Paths and PATH lists may break anywhere; short words ("missing") stay whole.
      out += (cell.size() > kLongCell ? "<td class=\"long\">" : "<td>") + escape(cell) + "</td>";
    }
    out += "</tr>";
  }
  return out + "</tbody></table>\n";
}

std::string facts_table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string body;
  for (const auto& [name, value] : rows) {
    if (value.empty()) continue;
    body += "<tr><th>" + escape(name) + "</th><td>" + escape(value) + "</td></tr>";
  }
  return body.empty() ? "" : "<table class=\"facts\">" + body + "</table>\n";
}

std::string object_table(const Json& object) {
  std::vector<std::pair<std::string, std::string>> rows;
  if (object.is_object()) {
    for (const auto& [key, value] : object.items()) rows.emplace_back(key, text_of(value));
  }
  return facts_table(rows);
}

}  // namespace gpudoctor::html
