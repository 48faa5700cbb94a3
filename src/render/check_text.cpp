#include "render/check_text.hpp"

namespace gpudoctor {

std::string render_check_text(const Snapshot&, const std::vector<MergedDevice>&, const Style&) {
  return "";
}

int check_exit_code(const Snapshot& snap) {
  for (const auto& p : snap.probes) {
    if (p.status == ProbeStatus::failed || p.status == ProbeStatus::crashed ||
        p.status == ProbeStatus::timed_out) {
      return 1;
    }
  }
  return 0;
}

}  // namespace gpudoctor
