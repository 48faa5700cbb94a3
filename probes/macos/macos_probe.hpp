#pragma once
#include <chrono>
#include <optional>

#include "core/command_runner.hpp"
#include "model/macos.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// The runner for macOS's own tools on this build: a SpawnRunner on macOS, nullptr elsewhere
/// (macos_platform_apple.cpp / macos_platform_none.cpp, chosen in CMake).
const CommandRunner* macos_command_runner();

/// Whether a tree holds any of the tool outputs a Mac's capture records under /.gpudoctor/.
bool recorded_macos_tree(const Root& root);

/// macOS facts. Live, through `runner`: sw_vers, sysctl, system_profiler -json
/// SPDisplaysDataType (the text form where -json is not known). Under --sysroot, the same
/// outputs recorded in <root>/.gpudoctor/ (sw_vers.txt, sysctl.txt,
/// system_profiler-SPDisplaysDataType.json or .txt; tests/fixtures/README.md). nullopt (and
/// outcome "skipped") on another OS or a tree with none of them.
std::optional<MacosInfo> probe_macos(const ProbeContext& ctx, const CommandRunner* runner,
                                     std::chrono::milliseconds deadline, ProbeOutcome& outcome);

}  // namespace gpudoctor
