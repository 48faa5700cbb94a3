#include "model/probe_outcome.hpp"

namespace gpudoctor {

const char* to_string(ProbeStatus s) {
  switch (s) {
    case ProbeStatus::ok: return "ok";
    case ProbeStatus::missing: return "missing";
    case ProbeStatus::failed: return "failed";
    case ProbeStatus::crashed: return "crashed";
    case ProbeStatus::timed_out: return "timed out";
    case ProbeStatus::skipped: return "skipped";
  }
  return "?";
}

}  // namespace gpudoctor
