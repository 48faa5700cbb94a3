#include "report/html.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "text.hpp"

namespace gpudoctor::html {

namespace {

/// `text` cut at its newlines (none: the text itself).
std::vector<std::string> split_lines_keep(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (auto at = text.find('\n'); at != std::string::npos; at = text.find('\n', start)) {
    out.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

}  // namespace

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
                  const std::vector<std::vector<std::string>>& given) {
  // No row twice, no column that says nothing in any row, and "—" (not a blank) where one row
  // has nothing to say.
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : given) {
    if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
  }
  std::vector<bool> keep(header.size(), false);
  for (std::size_t c = 0; c < header.size(); ++c) {
    for (const auto& row : rows) keep[c] = keep[c] || (c < row.size() && !row[c].empty());
  }
  std::string out = "<table><thead><tr>";
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (keep[c] || rows.empty()) out += "<th>" + escape(header[c]) + "</th>";
  }
  out += "</tr></thead><tbody>";
  for (const auto& row : rows) {
    out += "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c < keep.size() && !keep[c]) continue;
      const std::string& cell = row[c];
      if (cell.empty()) {
        out += "<td class=\"none\">—</td>";
        continue;
      }
      // Paths and PATH lists may break anywhere; short words ("missing") stay whole.
      out += (cell.size() > kLongCell ? "<td class=\"long\">" : "<td>") + escape(cell) + "</td>";
    }
    out += "</tr>";
  }
  return out + "</tbody></table>\n";
}

std::string facts_table(const std::vector<std::pair<std::string, std::string>>& rows) {
  // A row with no name continues the one above it (a second line of the same fact): one
  // cell, lines apart, rather than a row with an empty header; the same fact is shown once.
  std::vector<std::pair<std::string, std::string>> merged;
  for (const auto& [name, value] : rows) {
    if (value.empty()) continue;
    if (std::find(merged.begin(), merged.end(), std::make_pair(name, value)) != merged.end()) continue;
    if (name.empty() && !merged.empty()) {
      merged.back().second += "\n" + value;
      continue;
    }
    merged.emplace_back(name, value);
  }
  std::string body;
  for (const auto& [name, value] : merged) {
    std::string cell;
    for (const auto& line : split_lines_keep(value)) cell += (cell.empty() ? "" : "<br>") + escape(line);
    body += "<tr><th>" + escape(name) + "</th><td>" + cell + "</td></tr>";
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
