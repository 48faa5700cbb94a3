#pragma once
// Internal to src/knowledge: how a data/messages pattern is compiled and matched.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/messages.hpp"

namespace gpudoctor {

/// `p` with every "(?<name>" turned into "(": the names of the capture groups in order ("" for
/// an unnamed one) go to `names`; nullopt for a malformed group or class.
std::optional<std::string> rewrite_named_groups(std::string_view p, std::vector<std::string>& names);

/// The longest run of plain text every match of `p` contains ("" when there is none, e.g. a
/// pattern that is an alternative at the top level).
std::string required_literal(std::string_view p);

/// A line and the next as the patterns are tried on them: alone and joined (with a space,
/// and without one for a break inside a word), each also lower-cased for icase literals. Made
/// once per line, not once per entry.
struct MatchSubject {
  MatchSubject(std::string_view line, std::string_view next_line);
  std::string one, next, space, tight;
  std::string one_l, next_l, space_l, tight_l;
};

/// `e`'s first pattern that matches the line, or the line wrapped onto the next.
std::optional<MessageMatch> match_entry(const MessageEntry& e, const MatchSubject& s);

/// "12.1.105 (nvcc)" -> "12.1.105", "11040)" -> "11040": the same as paste_sink.hpp's
/// leading_version, here so that knowledge/ does not reach into paste/.
std::string leading_number(std::string_view s);

}  // namespace gpudoctor
