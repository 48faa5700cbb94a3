// The only file that includes build_info.hpp, which changes with every commit: a new revision
// recompiles this file and relinks, nothing else.
#include "version_text.hpp"

#include "build_info.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

std::string version_text(std::string_view version, std::optional<std::string_view> revision,
                         std::optional<std::string_view> compat_date,
                         std::optional<std::string_view> compat_date_note) {
  std::string out(version);
  out += "\nrevision ";
  out += revision ? std::string(*revision)
                  : "unknown (not built from a git checkout or release tarball)";
  out += "\ncompat data ";
  if (compat_date) {
    out += *compat_date;
    if (compat_date_note) out += " (" + std::string(*compat_date_note) + ")";
  } else {
    out += "of unknown date";
  }
  return out;
}

std::string version_text() {
  return version_text(kToolVersion, kGitRevision, kCompatDataDate, kCompatDataDateNote);
}

}  // namespace gpudoctor
