#pragma once
// Path helpers for the Python probe: target paths as strings, links followed inside the root
// (an absolute link in a fixture tree points into the fixture, not into this machine).
#include <string>
#include <string_view>

#include "core/root.hpp"

namespace gpudoctor::python {

/// The path with every symbolic link followed inside the root; "." and ".." folded.
std::string resolve_path(const Root& root, std::string_view path);

/// "/a/b" gives "/a", "/a" gives "/".
std::string parent_dir(std::string_view path);
/// "/a/b" gives "b".
std::string base_name(std::string_view path);
std::string join_path(std::string_view dir, std::string_view name);

}  // namespace gpudoctor::python
