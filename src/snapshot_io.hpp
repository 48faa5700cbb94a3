#pragma once
#include <string>
#include <string_view>
#include <variant>

#include <optional>
#include <vector>

#include "json_pull.hpp"
#include "model/finding.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

/// A recorded snapshot from any JSON gpudoctor writes (`query --json`, `check --json`,
/// `report`), or a one-line reason it cannot be used: not JSON, nested too deep, too large,
/// written by a newer gpudoctor, or a value that does not fit its field (with its place).
std::variant<Snapshot, std::string> snapshot_from_json_text(std::string_view text);

/// The same, read as `refill` delivers it (a file, a pipe), without holding the whole text:
/// memory is about the snapshot's own.
std::variant<Snapshot, std::string> snapshot_from_json_input(JsonPull::Refill refill,
                                                             JsonLimits limits = {});

/// A report as recorded: its snapshot (origin `report`, or `paste` when it was made from one)
/// and, for a brief record (`report --brief`), which holds no snapshot, the findings it lists.
struct RecordedMachine {
  Snapshot snap;
  std::optional<std::vector<Finding>> brief_findings;
};

/// Any JSON gpudoctor writes, brief records included, read as `refill` delivers it.
std::variant<RecordedMachine, std::string> recorded_from_json_input(JsonPull::Refill refill,
                                                                    JsonLimits limits = {});

}  // namespace gpudoctor
