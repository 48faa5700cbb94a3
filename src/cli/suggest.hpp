#pragma once
// "Did you mean" for the command line: commands, backends, finding ids.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// Edit distance (insert, delete or substitute a character, or swap two neighbours: optimal
/// string alignment), case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` when it is close enough to be what was meant: within a
/// third of the word's length (at least 1, at most 3 edits); the first of equals wins.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean 'x'?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gpudoctor
