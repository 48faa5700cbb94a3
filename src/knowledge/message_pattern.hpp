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

/// `e`'s first pattern that matches `line`, or the line wrapped onto `next`.
std::optional<MessageMatch> match_entry(const MessageEntry& e, std::string_view line,
                                        std::string_view next);

/// "12.1.105 (nvcc)" -> "12.1.105", "11040)" -> "11040": the same as paste_sink.hpp's
/// leading_version, here so that knowledge/ does not reach into paste/.
std::string leading_number(std::string_view s);

}  // namespace gpudoctor
