#pragma once
// Real pastes cut and decorated the ways tickets cut and decorate them: indented, with CRLF line
// ends, inside a code fence, quoted with "> ", without their first line, cut in the middle of
// their last line. The readers of issue 27 must read each the same as the paste itself.
#include <string>
#include <utility>
#include <vector>

namespace gpudoctor::paste_fragments {

inline std::vector<std::string> fragment_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

inline std::string each_line(const std::string& text, const std::string& before,
                             const std::string& after = "\n") {
  std::string out;
  for (const auto& l : fragment_lines(text)) out += before + l + after;
  return out;
}

/// {how, text}: the paste as tickets deliver it.
inline std::vector<std::pair<std::string, std::string>> fragments(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("as posted", text);
  out.emplace_back("indented", each_line(text, "    "));
  out.emplace_back("CRLF", each_line(text, "", "\r\n"));
  out.emplace_back("in a fence", "```\n" + text + "\n```\n");
  out.emplace_back("quoted", each_line(text, "> "));
  const auto nl = text.find('\n');
  if (nl != std::string::npos) out.emplace_back("without its first line", text.substr(nl + 1));
  // Cut inside the last non-empty line.
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  const auto last_nl = trimmed.rfind('\n');
  if (last_nl != std::string::npos && trimmed.size() - last_nl > 4) {
    out.emplace_back("cut mid-line", trimmed.substr(0, last_nl + (trimmed.size() - last_nl) / 2));
  }
  return out;
}

}  // namespace gpudoctor::paste_fragments
