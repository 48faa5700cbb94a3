// version_text() for this build. build_info.hpp changes with every commit, so only the
// executables compile this file (gpudoctor, gpudoctor-gendocs): a new revision relinks them,
// not gpudoctor_app and every test binary.
#include "build_info.hpp"
#include "tool_version.hpp"
#include "version_text.hpp"

namespace gpudoctor {

std::string version_text() {
  return version_text(kToolVersion, kGitRevision, kCompatDataDate, kCompatDataDateNote);
}

}  // namespace gpudoctor
