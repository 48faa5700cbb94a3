#pragma once
// Target paths as strings: the few operations probes need on them.
#include <string>
#include <string_view>

namespace gpudoctor {

/// "/a/b/c" → "/a/b"; "/a" → "/"; "a" → ".".
std::string parent_path(std::string_view path);
/// "/a/b/c" → "c".
std::string file_name(std::string_view path);
/// Joins with exactly one slash.
std::string join_path(std::string_view dir, std::string_view name);

}  // namespace gpudoctor
