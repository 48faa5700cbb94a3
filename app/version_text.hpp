#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// What `--version` prints after "gpudoctor ": the version, the git revision and the date of
/// the compatibility data, one per line; an unknown revision or date says so.
std::string version_text(std::string_view version, std::optional<std::string_view> revision,
                         std::optional<std::string_view> compat_date,
                         std::optional<std::string_view> compat_date_note);

/// The same for this build (app/build_version.cpp, from build_info.hpp written at build time;
/// linked into the executables only).
std::string version_text();

}  // namespace gpudoctor
