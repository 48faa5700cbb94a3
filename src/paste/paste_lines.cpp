#include "paste/paste_lines.hpp"

#include <algorithm>
#include <cctype>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// "```", "```text", "~~~", "<details>", "</summary>": lines that frame a dump in a ticket.
bool is_fence(std::string_view t) {
  if (starts_with(t, "```") || starts_with(t, "~~~")) return true;
  const std::string l = to_lower(t);
  for (const char* tag : {"<details", "</details", "<summary", "</summary", "<pre", "</pre"}) {
    if (starts_with(l, tag)) return true;
  }
  return false;
}

/// Takes off "> " quote markers (nested ones too): e-mail and GitHub quote replies.
std::string_view unquote(std::string_view s) {
  for (;;) {
    std::size_t i = 0;
    while (i < s.size() && i < 3 && s[i] == ' ') ++i;
    if (i < s.size() && s[i] == '>') {
      s.remove_prefix(i + 1);
      if (!s.empty() && s[0] == ' ') s.remove_prefix(1);
      continue;
    }
    return s;
  }
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
}

}  // namespace

std::vector<PasteLine> clean_paste(std::string_view text) {
  std::vector<PasteLine> out;
  // A first pass counts the entries (non-blank lines, and runs of blank ones) so that the list
  // is allocated once at its size: growth by doubling would hold up to twice as much at its peak.
  {
    std::size_t entries = 0;
    bool blank_run = false;
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      bool blank = true;
      for (std::size_t k = start; k < end && blank; ++k) {
        blank = std::isspace(static_cast<unsigned char>(text[k])) != 0;
      }
      if (!blank || !blank_run) ++entries;
      blank_run = blank;
      start = end + 1;
    }
    out.reserve(entries + 1);  // a quote marker alone ("> ") reads as blank: a few may add
  }
  int number = 0;
  // One line at a time, without a list of every line first: a text of blank lines costs
  // nothing per line.
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++number;
    raw = unquote(raw);
    while (!raw.empty() && std::isspace(static_cast<unsigned char>(raw.back()))) raw.remove_suffix(1);
    if (raw.empty()) {  // blank: one entry for the run
      if (!out.empty() && !out.back().fence && out.back().text.empty() &&
          out.back().number + out.back().run == number) {
        ++out.back().run;
        continue;
      }
      PasteLine l;
      l.number = number;
      out.push_back(l);
      continue;
    }
    PasteLine l;
    l.number = number;
    // "```RuntimeError: CUDA error: …```": code opened and closed on one line is the message.
    const std::string_view t = trim(raw);
    if (t.size() > 6 && (starts_with(t, "```") || starts_with(t, "~~~")) &&
        t.substr(t.size() - 3) == t.substr(0, 3)) {
      raw = trim(t.substr(3, t.size() - 6));
    } else if (t.size() > 3 && (starts_with(t, "```") || starts_with(t, "~~~"))) {
      // "```rocBLAS error: Cannot read …": a message glued to its opening fence. An info string
      // is one word ("```text", "```Shell"); text with a space or a colon after the fence is
      // the first line of the paste, and the fence is dropped from it.
      const std::string_view rest = trim(t.substr(3));
      if (rest.find_first_of(" \t:") != std::string_view::npos) {
        raw = rest;
        if (raw.size() > 3 && (ends_with(raw, "```") || ends_with(raw, "~~~"))) {
          raw = trim(raw.substr(0, raw.size() - 3));
        }
      }
    }
    if (raw.size() > kMaxPasteLineBytes) {
      std::size_t keep = kMaxPasteLineBytes;
      // Not inside a UTF-8 sequence: back to the byte that starts one.
      while (keep > 0 && (static_cast<unsigned char>(raw[keep]) & 0xC0) == 0x80) --keep;
      raw = raw.substr(0, keep);
      l.cut = true;
    }
    l.fence = is_fence(trim(raw));
    if (!l.fence) l.text = raw;
    out.push_back(l);
  }
  // A common indentation inside each run between fences (a paste indented as a code block, or
  // a leading space added on every line) comes off; relative indentation stays.
  std::size_t begin = 0;
  while (begin < out.size()) {
    std::size_t end = begin;
    while (end < out.size() && !out[end].fence) ++end;
    std::size_t common = std::string::npos;
    for (std::size_t i = begin; i < end; ++i) {
      if (!trim(out[i].text).empty()) common = std::min(common, indent_of(out[i].text));
    }
    if (common != std::string::npos && common > 0) {
      for (std::size_t i = begin; i < end; ++i) {
        out[i].text = out[i].text.size() > common ? out[i].text.substr(common) : std::string_view();
      }
    }
    begin = end + 1;
  }
  return out;
}

int line_count(const std::vector<PasteLine>& lines) {
  return lines.empty() ? 0 : lines.back().number + lines.back().run - 1;
}

const PasteLine* line_numbered(const std::vector<PasteLine>& lines, int number) {
  auto it = std::upper_bound(lines.begin(), lines.end(), number,
                             [](int n, const PasteLine& l) { return n < l.number; });
  if (it == lines.begin()) return nullptr;
  --it;
  return number < it->number + it->run ? &*it : nullptr;
}

Labelled split_label(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 60) return {};
  std::string_view key = trim(line.substr(0, colon));
  if (key.empty() || key.front() == '/' || key.front() == '[') return {};
  return {std::string(key), std::string(trim(line.substr(colon + 1)))};
}

bool contains_token(std::string_view line, std::string_view word) {
  if (word.empty()) return false;
  for (std::size_t at = line.find(word); at != std::string_view::npos;
       at = line.find(word, at + 1)) {
    const bool before_ok = at == 0 || !word_char(line[at - 1]) || !word_char(word.front());
    const std::size_t after = at + word.size();
    // A sentence may end right after the word: "… 470.82." still names driver 470.82.
    const bool after_ok = after >= line.size() || !word_char(word.back()) ||
                          !word_char(line[after]) ||
                          (line[after] == '.' && (after + 1 >= line.size() ||
                                                  !std::isalnum(static_cast<unsigned char>(
                                                      line[after + 1]))));
    if (before_ok && after_ok) return true;
  }
  return false;
}

}  // namespace gpudoctor
