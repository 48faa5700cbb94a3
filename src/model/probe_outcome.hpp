#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "json.hpp"

namespace gpudoctor {

/// How one probe (or one isolated job of a probe) ended. "missing" means the thing it looks
/// for is not installed, which is a fact, not an error.
enum class ProbeStatus { ok, missing, failed, crashed, timed_out, skipped };

GPUDOCTOR_JSON_ENUM(ProbeStatus, {{ProbeStatus::ok, "ok"},
                                  {ProbeStatus::missing, "missing"},
                                  {ProbeStatus::failed, "failed"},
                                  {ProbeStatus::crashed, "crashed"},
                                  {ProbeStatus::timed_out, "timed_out"},
                                  {ProbeStatus::skipped, "skipped"}})

struct ProbeOutcome {
  std::string backend;                 ///< "opencl"
  std::string label;                   ///< what ran: "pocl.icd", "lvp_icd.x86_64.json", "libpci"
  std::optional<std::string> library;  ///< the vendor library it loaded, when it loads one
  ProbeStatus status = ProbeStatus::ok;
  std::string detail;                  ///< why, naming the call: "clGetPlatformIDs returned -1001"
  std::optional<double> seconds;
  std::optional<std::string> stderr_tail;  ///< what a driver printed before it failed
};
GPUDOCTOR_JSON(ProbeOutcome, backend, label, library, status, detail, seconds, stderr_tail)

const char* to_string(ProbeStatus s);

}  // namespace gpudoctor
