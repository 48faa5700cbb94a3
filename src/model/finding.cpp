#include "model/finding.hpp"

namespace gpudoctor {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::ok: return "ok";
    case Severity::info: return "info";
    case Severity::warn: return "warn";
    case Severity::fail: return "fail";
  }
  return "?";
}

}  // namespace gpudoctor
