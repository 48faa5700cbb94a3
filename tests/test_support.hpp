#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.hpp"
#include "json.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  double seconds = 0;
};

/// Runs the built gpudoctor with these arguments and extra environment ("NAME=value"), and
/// captures its output. The test process's own environment is passed on (the shell's choices of
/// devices, drivers and Python environments are unset when the tests start, test_support.cpp);
/// an extra replaces the variable of the same name.
CommandResult run_gpudoctor(const std::vector<std::string>& args,
                            const std::vector<std::string>& extra_env = {});

/// run_gpudoctor with standard error on a pseudo-terminal `columns` wide (openpty), as a person
/// at a terminal has it: r.err is what the terminal was sent. Standard output stays a pipe.
CommandResult run_gpudoctor_on_terminal(const std::vector<std::string>& args,
                                        const std::vector<std::string>& extra_env,
                                        unsigned short columns = 100);

/// A fixture machine's tree: tests/fixtures/<name>.
std::string fixture_path(const std::string& name);

/// Compares text with the golden file tests/fixtures/<name>/<file>; with GPUDOCTOR_REGOLD=1
/// set, writes it instead.
void expect_golden(const std::string& fixture, const std::string& file, const std::string& text);

/// The first finding with this id; nullptr when there is none.
const Finding* find_finding(const std::vector<Finding>& findings, std::string_view id);
/// The same in JSON: `j` is a findings array, or `check --json` / report output holding one.
const Json* find_finding(const Json& j, std::string_view id);
/// The first of these JSON findings with this id; nullptr when there is none.
const Json* find_finding(const std::vector<Json>& findings, std::string_view id);
/// The findings of one area in `gpudoctor check --json --sysroot root`, with extra environment.
std::vector<Json> area_findings(const std::string& root, const std::string& area,
                                const std::vector<std::string>& extra_env = {});

/// Every check on a snapshot, with the built-in tables, as `gpudoctor check` runs them.
std::vector<Finding> run_all_checks(const Snapshot& s);

/// Every finding with this id, in order (copies).
std::vector<Finding> with_id(const std::vector<Finding>& all, std::string_view id);

}  // namespace gpudoctor::test
