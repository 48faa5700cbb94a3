#pragma once
// One diagnosis for every origin: this machine, a --sysroot tree, a report, pasted text. Every
// command (check, report, diff, summary, the fleet outputs) gets its devices and findings from
// here; none merges devices or runs the checks itself.
#include <optional>
#include <string_view>
#include <vector>

#include "devices.hpp"
#include "model/finding.hpp"
#include "model/snapshot.hpp"
#include "paste/read_pasted.hpp"

namespace gpudoctor {

/// What a paste gave beside its snapshot: what was read where, and what would decide more.
struct PasteDiagnosis {
  PastedReading reading;  ///< its snapshot moved into Diagnosis::snap
  std::vector<PasteAsk> asks;
};

struct Diagnosis {
  Snapshot snap;
  std::vector<MergedDevice> devices;
  std::vector<Finding> findings;        ///< every check's, in check order (before --only/--skip)
  std::optional<PasteDiagnosis> paste;  ///< for pasted text
};

/// Merges the snapshot's devices and runs every check with the built-in tables.
Diagnosis diagnose(Snapshot snap);

/// Merges the devices and keeps the findings a report recorded instead of judging again: a
/// brief record, which carries no snapshot to judge, or a node's own verdict for `summary`.
Diagnosis diagnose_recorded(Snapshot snap, std::vector<Finding> recorded);

/// Reads pasted text, diagnoses what it shows, and quotes each finding's lines. Text in which
/// nothing is recognised gives no finding and an empty reading (paste->reading.parts).
Diagnosis diagnose_paste(std::string text);

}  // namespace gpudoctor
