#pragma once
// A pasted dump as lines, with the decorations people add around it taken off: markdown fences
// and HTML <details> tags, "> " quote prefixes, a common indentation, CR line ends.
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct PasteLine {
  std::string_view text;  ///< without decoration, a slice of the text cleaned (which must outlive
                          ///< it); empty for a fence or a blank line
  int number = 0;         ///< 1-based line in the text as given
  int run = 1;            ///< how many lines it stands for: a run of blank lines is one entry
  bool fence = false;     ///< a markdown fence or HTML tag line: a boundary between parts
  bool cut = false;       ///< longer than kMaxPasteLineBytes: only its start is read
};

/// A line is read up to this many bytes; past it, its rest is not read (and said so). No dump
/// gpudoctor reads has lines near it. Issue 29 (very long lines): a 30 MB line of one message
/// cost every reader's scan of all of it, and a line of 100 KB ("AAAA… : x") overflowed the
/// stack in std::regex_match (libstdc++'s executor recurses once or more a character):
/// gpudoctor died of SIGSEGV.
inline constexpr std::size_t kMaxPasteLineBytes = std::size_t{16} << 10;

/// Every line of `text`, cleaned, except that a run of blank lines is one entry (so lines[i]
/// is line number lines[i].number, not i + 1). Each line is a slice of `text`, never a copy: the
/// caller keeps `text` alive as long as the lines (read_pasted owns its copy), and replaces NUL
/// bytes first if they are to read as spaces (read_pasted does). Memory grows with the text's
/// non-blank lines (32 bytes each), not with its blank ones nor with their length.
std::vector<PasteLine> clean_paste(std::string_view text);

/// How many lines the text had, blank runs counted in full.
int line_count(const std::vector<PasteLine>& lines);

/// The entry that holds line `number`; nullptr past the end.
const PasteLine* line_numbered(const std::vector<PasteLine>& lines, int number);

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
