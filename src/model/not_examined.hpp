#pragma once
// How the detail of a probe that the run's --deadline cut short or left unstarted begins
// (ProbeOutcome, status skipped): written by probes/core/isolate_result.cpp, read by the checks,
// which name such a probe as not examined, never as fine.

namespace gpudoctor {

inline constexpr const char* kNotExaminedDeadline = "not examined: deadline";

}  // namespace gpudoctor
