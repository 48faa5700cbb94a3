#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.hpp"
#include "compat/compat_data.hpp"
#include "devices.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

/// What every check reads: the snapshot, the devices merged from it, and the matrices.
struct CheckInput {
  const Snapshot& snap;
  const std::vector<MergedDevice>& devices;
  const CompatData& compat;  ///< the vendors' compatibility matrices (data/compat)
};

struct CheckSpec;
/// A check appends what it concluded; it may conclude nothing when it does not apply.
using CheckFn = void (*)(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out);

/// Whether a check's own id is also a finding id, or only names the check (for `explain`,
/// --only and --skip) while every finding it reports carries one of its also_emits ids.
enum class OwnId { finding, name_only };

/// One check: the ids it may emit (a prefix is enough), what it looks at, and why.
struct CheckSpec {
  std::string_view id;           ///< "nvidia.nouveau_bound"
  std::string_view area;
  std::string_view looks_at;     ///< for `gpudoctor explain`
  std::string_view why;
  std::string_view source;       ///< URL
  CheckFn run;
  std::string_view also_emits = "";  ///< other finding ids it reports, comma separated
  /// Where it applies ("any", "linux", "macos"; platform/platform.hpp): run_checks skips it on
  /// a snapshot of another platform, so a Mac never gets advice about ICDs or kernel modules.
  std::string_view platforms = "any";
  OwnId own_id = OwnId::finding;
};

/// The one list of checks, in the order they run and are shown.
const std::vector<CheckSpec>& all_checks();

/// Runs every check that applies on the snapshot's platform; findings come back in check order.
std::vector<Finding> run_checks(const CheckInput& in);

/// The check with this id, or that reports findings with this id; nullptr if none.
const CheckSpec* find_check(std::string_view id);

}  // namespace gpudoctor
