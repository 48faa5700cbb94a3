#pragma once
// Where a command's machine comes from, diagnosed: this machine's probes, a --sysroot tree, a
// recorded report or brief record, or text pasted from a ticket (`--from`). The one place a
// command reads a machine; every origin goes through src/diagnose.hpp.
#include <string>
#include <variant>

#include "cli.hpp"
#include "diagnose.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// The machine the options name, diagnosed; or a one-line reason (for exit status 2). `--from -`
/// reads standard input.
std::variant<Diagnosis, std::string> diagnose_machine(const Options& opt, const Environment& env);

/// The environment of the machine diagnosed, for what a report says of it: under --sysroot the
/// tree's recorded environment where it has one; otherwise `env` itself (for a tree with no
/// record, snap.environment names the variables the probes took from it).
Environment diagnosed_environment(const Options& opt, const Snapshot& snap, const Environment& env);

/// A report, brief record or pasted text in a file (or "-"), diagnosed; or a one-line reason
/// that names the file.
std::variant<Diagnosis, std::string> diagnose_file(const std::string& path);

}  // namespace gpudoctor
