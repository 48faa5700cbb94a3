#pragma once
// The impure edge of `gpudoctor report` and `gpudoctor diff`: files, the clock. main.cpp calls
// these; everything they compute is pure code in src/report/.
#include <string>
#include <variant>
#include <vector>

#include "checks/finding.hpp"
#include "cli.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

/// Any JSON gpudoctor writes (query/check --json, report), read back as a snapshot; or a
/// one-line reason naming the file.
std::variant<Snapshot, std::string> read_snapshot_file(const std::string& path);

/// Writes `text` to a temporary file in the same directory, then renames it over `path`, so
/// a reader never sees half a file. Returns the reason on failure, empty on success.
std::string write_file_atomically(const std::string& path, const std::string& text);

/// `gpudoctor report`: 0, 2 when --bench cannot be read, 74 when a file cannot be written.
int run_report(const Options& opt, const Snapshot& snap, const std::vector<MergedDevice>& devices,
               const std::vector<Finding>& findings, const Environment& env);

/// `gpudoctor report` on the machine the options name (this one, or --from).
int run_report(const Options& opt, const Environment& env);

/// `gpudoctor diff A B`: 0 when the reports match, 1 when they differ, 2 when a file cannot be
/// used.
int run_diff(const Options& opt);

}  // namespace gpudoctor
