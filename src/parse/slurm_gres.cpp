#include "parse/slurm_gres.hpp"

#include <algorithm>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// Splits at commas outside brackets.
std::vector<std::string_view> top_level_items(std::string_view text) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') ++depth;
    if (text[i] == ']') --depth;
    if (text[i] == ',' && depth == 0) {
      out.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(text.substr(start));
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// "01-04,07" → {"01","02","03","04","07"}.
std::optional<std::vector<std::string>> expand_range_list(std::string_view body, std::size_t cap) {
  std::vector<std::string> out;
  for (const std::string& part : split_words(body, ",")) {
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      if (!all_digits(part)) return std::nullopt;
      out.emplace_back(part);
    } else {
      const std::string lo = part.substr(0, dash), hi = part.substr(dash + 1);
      if (!all_digits(lo) || !all_digits(hi) || lo.size() > 9 || hi.size() > 9) return std::nullopt;
      const long a = std::stol(lo), b = std::stol(hi);
      if (b < a || static_cast<std::size_t>(b - a) >= cap) return std::nullopt;
      for (long v = a; v <= b; ++v) {
        std::string n = std::to_string(v);
        if (n.size() < lo.size()) n.insert(0, lo.size() - n.size(), '0');
        out.push_back(std::move(n));
      }
    }
    if (out.size() > cap) return std::nullopt;
  }
  return out;
}

/// One item: text with bracket groups, each multiplying the names so far.
std::optional<std::vector<std::string>> expand_item(std::string_view item, std::size_t cap) {
  std::vector<std::string> names{""};
  std::size_t i = 0;
  while (i < item.size()) {
    const auto open = item.find('[', i);
    const std::string_view plain = item.substr(i, open == std::string_view::npos ? item.npos : open - i);
    for (auto& n : names) n.append(plain);
    if (open == std::string_view::npos) break;
    const auto close = item.find(']', open);
    if (close == std::string_view::npos) return std::nullopt;
    auto values = expand_range_list(item.substr(open + 1, close - open - 1), cap);
    if (!values || names.size() * values->size() > cap) return std::nullopt;
    std::vector<std::string> next;
    next.reserve(names.size() * values->size());
    for (const auto& n : names) {
      for (const auto& v : *values) next.push_back(n + v);
    }
    names = std::move(next);
    i = close + 1;
  }
  return names;
}

/// key=value words of a line, keys lower-cased; a value runs to the next blank.
std::vector<std::pair<std::string, std::string>> settings(std::string_view line) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& word : split_words(line)) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    out.emplace_back(to_lower(word.substr(0, eq)), word.substr(eq + 1));
  }
  return out;
}

std::string short_name(std::string_view host) {
  return to_lower(std::string(host.substr(0, host.find('.'))));
}

}  // namespace

std::optional<std::vector<std::string>> expand_hostlist(std::string_view text, std::size_t cap) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  std::vector<std::string> out;
  for (std::string_view item : top_level_items(text)) {
    item = trim(item);
    if (item.empty()) continue;
    auto names = expand_item(item, cap);
    if (!names || out.size() + names->size() > cap) return std::nullopt;
    for (auto& n : *names) out.push_back(std::move(n));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

GresConfForNode parse_gres_conf(std::string_view text, const std::optional<std::string>& hostname) {
  GresConfForNode out;
  std::optional<std::string> global_autodetect, global_line, node_autodetect, node_line;
  const std::optional<std::string> me =
      hostname ? std::optional<std::string>(short_name(*hostname)) : std::nullopt;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    const auto kv = settings(line);
    auto value_of = [&](const char* key) -> std::optional<std::string> {
      for (const auto& [k, v] : kv) {
        if (k == key) return v;
      }
      return std::nullopt;
    };
    const auto node = value_of("nodename");
    if (node) {
      auto names = me ? expand_hostlist(*node) : std::nullopt;
      if (!names) {
        ++out.lines_not_matched;
        continue;
      }
      const bool mine = std::any_of(names->begin(), names->end(),
                                    [&](const std::string& n) { return short_name(n) == *me; });
      if (!mine) continue;
    }
    if (auto detect = value_of("autodetect")) {
      (node ? node_autodetect : global_autodetect) = to_lower(*detect);
      (node ? node_line : global_line) = std::string(line);
    }
    const auto name = value_of("name");
    const auto file = value_of("file");
    if (name && to_lower(*name) == "gpu" && file) {
      if (auto files = expand_hostlist(*file)) {
        for (auto& f : *files) {
          if (std::find(out.gpu_files.begin(), out.gpu_files.end(), f) == out.gpu_files.end()) {
            out.gpu_files.push_back(std::move(f));
          }
        }
        if (!out.files_line) out.files_line = std::string(line);
      }
    }
  }
  out.autodetect = node_autodetect ? node_autodetect : global_autodetect;
  out.autodetect_line = node_autodetect ? node_line : global_line;
  return out;
}

std::optional<std::string> slurm_conf_value(std::string_view text, std::string_view key) {
  std::optional<std::string> value;
  const std::string want = to_lower(std::string(key)) + "=";
  for (std::string_view line : split_lines(text)) {
    line = trim(line.substr(0, line.find('#')));
    if (line.size() <= want.size() || to_lower(std::string(line.substr(0, want.size()))) != want) {
      continue;
    }
    const std::string_view v = trim(line.substr(want.size()));
    value = std::string(v.substr(0, v.find_first_of(" \t")));
  }
  return value;
}

}  // namespace gpudoctor
