#pragma once
// A pasted dump as lines, with the decorations people add around it taken off: markdown fences
// and HTML <details> tags, "> " quote prefixes, a common indentation, CR line ends.
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct PasteLine {
  int number = 0;     ///< 1-based line in the text as given
  std::string text;   ///< without decoration; empty for a fence or a blank line
  bool fence = false; ///< a markdown fence or HTML tag line: a boundary between parts
};

/// Every line of `text`, cleaned; a NUL byte ends nothing (it becomes a space).
std::vector<PasteLine> clean_paste(std::string_view text);

/// "Key   : value" / "Key: value" → {"Key", "value"} (both trimmed); key empty when the line has
/// no colon or the key would not be a label (longer than 60, or starts with a space-less path).
struct Labelled {
  std::string key;
  std::string value;
};
Labelled split_label(std::string_view line);

/// True when `line` holds `word` with no letter, digit, '.', '_' or '-' right before or after it.
bool contains_token(std::string_view line, std::string_view word);

}  // namespace gpudoctor
