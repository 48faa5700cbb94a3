#include "version_text.hpp"

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

}  // namespace gpudoctor
