#pragma once
// The Level Zero backend: libze_loader.so.1 opened in one isolated child, which initialises the
// loader (zeInitDrivers where the loader has it, else zeInit with ZE_INIT_FLAG_GPU_ONLY) and
// lists every driver the loader took, its devices and their tiles (README.md).
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "model/level_zero.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::level_zero {

/// What the isolated child does; tests point `libraries` at another loader.
struct JobOptions {
  std::vector<std::string> libraries = {"libze_loader.so.1"};
  /// The one driver the loader is to load (ZE_ENABLE_ALT_DRIVERS in the child); none: the
  /// loader's own search.
  std::optional<std::string> driver;
  bool smoke = false;
};

/// Linux only: the driver libraries the loader would look for, found on the library path under
/// the root, and ZE_ENABLE_ALT_DRIVERS. Loads nothing.
void discover(const ProbeContext& ctx, LevelZeroInfo& info);

/// The job that opens the loader in a child and reports a LevelZeroInfo.
IsolatedJob make_job(JobOptions options);

/// The driver libraries to probe one by one: ZE_ENABLE_ALT_DRIVERS's list where set, else those
/// discover() found.
std::vector<std::string> driver_list(const LevelZeroInfo& info);

/// One isolated job per driver of driver_list(), or one for the loader's own search when it is
/// empty (none unless ctx.live); each runs the smoke matmul when ctx.smoke.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx, const LevelZeroInfo& info);

/// The children's reports as the section (keeping what discover found), and the backend's outcome.
ProbeOutcome assemble(LevelZeroInfo& info, const std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::level_zero
