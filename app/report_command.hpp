#pragma once
// The impure edge of `gpudoctor report` and `gpudoctor diff`: files, the clock. main.cpp calls
// these; everything they compute is pure code in src/report/.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checks/finding.hpp"
#include "cli.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

/// Any JSON gpudoctor writes (query/check --json, report), read back as a snapshot from a
/// regular file or standard input ("-"), streamed with a size cap (kMaxReportBytes); or a
/// one-line reason naming the file.
std::variant<Snapshot, std::string> read_snapshot_file(const std::string& path);
/// The file's bytes; nullopt, with `why` naming the file and the reason, when it has none.
std::optional<std::string> read_text_file(const std::string& path, std::string& why);

/// Over five times the largest report measured (45 MB); a larger input is refused, not read,
/// so memory stays bounded whatever is given (a 2 GB file, /dev/zero on standard input).
inline constexpr std::uint64_t kMaxReportBytes = std::uint64_t{256} << 20;

/// `gpudoctor report`: 0, 2 when --bench cannot be read, 74 when a file cannot be written.
int run_report(const Options& opt, const Snapshot& snap, const std::vector<MergedDevice>& devices,
               const std::vector<Finding>& findings, const Environment& env);

/// `gpudoctor report` on the machine the options name (this one, or --from).
int run_report(const Options& opt, const Environment& env);

/// `gpudoctor diff A B`: 0 when the reports match, 1 when they differ, 2 when a file cannot be
/// used.
int run_diff(const Options& opt);

}  // namespace gpudoctor
