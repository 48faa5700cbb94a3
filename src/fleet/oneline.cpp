#include "fleet/oneline.hpp"

#include <algorithm>
#include <utility>

namespace gpudoctor {

namespace {

/// UTF-8 sequences the checks' titles use, and how they read in ASCII.
const std::pair<std::string_view, std::string_view> kSpelled[] = {
    {"\u2192", "->"}, {"\u00d7", "x"},  {"\u2013", "-"},  {"\u2014", "-"},  {"\u2026", "..."},
    {"\u2018", "'"},  {"\u2019", "'"},  {"\u201c", "\""}, {"\u201d", "\""}, {"\u00b0", " deg"},
    {"\u2265", ">="}, {"\u2264", "<="}, {"\u00b7", "-"},  {"\u2260", "!="}};

/// Unique ids of findings at this level, in check order.
std::vector<std::string> ids_at(const std::vector<Finding>& findings, Severity level) {
  std::vector<std::string> ids;
  for (const auto& f : findings) {
    if (f.severity == level && std::find(ids.begin(), ids.end(), f.id) == ids.end()) {
      ids.push_back(f.id);
    }
  }
  return ids;
}

/// "FAIL 3: a, b, +1": as many ids as fit in `room` bytes, the rest counted.
std::string verdict_part(const char* word, const std::vector<std::string>& ids, std::size_t room) {
  const std::string head = std::string(word) + " " + std::to_string(ids.size()) + ":";
  std::string out = head;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::string more = " +" + std::to_string(ids.size() - i);
    const std::string next = (i ? ", " : " ") + ids[i];
    const bool last = i + 1 == ids.size();
    // Room for this id, and (unless it is the last) for the "+N" that may follow it.
    const std::size_t need = out.size() + next.size() + (last ? 0 : more.size() + 1);
    if (need > room) {
      out += (i ? "," : "") + more;
      return out;
    }
    out += next;
  }
  return out;
}

std::string first_title(const std::vector<Finding>& findings, Severity level) {
  for (const auto& f : findings) {
    if (f.severity == level) return f.title;
  }
  return "";
}

std::string cut(std::string s, std::size_t max) {
  if (s.size() > max) s.resize(max);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

std::string ascii_only(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
      ++i;
      continue;
    }
    bool spelled = false;
    for (const auto& [utf8, ascii] : kSpelled) {
      if (text.substr(i, utf8.size()) == utf8) {
        out += ascii;
        i += utf8.size();
        spelled = true;
        break;
      }
    }
    if (spelled) continue;
    out += '?';
    ++i;  // the continuation bytes of this character
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return out;
}

std::string render_oneline(const std::vector<Finding>& findings, std::size_t gpus) {
  const auto fails = ids_at(findings, Severity::fail);
  const auto warns = ids_at(findings, Severity::warn);
  std::string head;
  std::string title;
  if (!fails.empty()) {
    head = verdict_part("FAIL", fails, kOnelineHead);
    if (!warns.empty()) head += "; " + verdict_part("WARN", warns, kOnelineMax - head.size() - 2);
    title = first_title(findings, Severity::fail);
  } else if (!warns.empty()) {
    head = verdict_part("WARN", warns, kOnelineHead);
    title = first_title(findings, Severity::warn);
  } else {
    std::size_t notes = 0;
    for (const auto& f : findings) notes += f.severity == Severity::info ? 1 : 0;
    head =
        "OK: " + std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs") + ", no failure or warning";
    if (notes) head += ", " + std::to_string(notes) + (notes == 1 ? " note" : " notes");
  }
  std::string line = ascii_only(head);
  if (!title.empty()) line += " | " + ascii_only(title);
  return cut(line, kOnelineMax);
}

std::string render_oneline_unknown(std::string_view why) {
  return cut("UNKNOWN: " + ascii_only(why), kOnelineMax);
}

int fleet_exit_code(const std::vector<Finding>& findings, Severity fail_on) {
  for (const auto& f : findings) {
    if (static_cast<int>(f.severity) >= static_cast<int>(fail_on) &&
        static_cast<int>(f.severity) >= static_cast<int>(Severity::warn)) {
      return 1;
    }
  }
  return 0;
}

}  // namespace gpudoctor
