#pragma once
#include <string>
#include <vector>

#include "checks/check_ids.hpp"
#include "checks/checks.hpp"
#include "devices.hpp"
#include "json_writer.hpp"
#include "model/snapshot.hpp"
#include "render/style.hpp"

namespace gpudoctor {

/// How much `check` prints. summary (the default): one line per area, under a problem its
/// one-line cause and its fix, under a note its cause. full (-v): also each finding's id,
/// evidence, quoted lines and source. problems (-q): only the areas with a warning or a failure
/// and those findings (in summary's form), nothing when there is none.
enum class CheckDetail { problems, summary, full };

struct CheckTextOptions {
  CheckDetail detail = CheckDetail::full;
  /// The last line's pointer to more: "gpudoctor query" for this machine; the command that
  /// shows more of a recorded one (--from, --sysroot). Empty: none.
  std::string more = "gpudoctor query";
  /// What `-v` is for this input ("gpudoctor check -v --from FILE"): named after a summary.
  std::string verbose = "gpudoctor check -v";
};

/// `gpudoctor check`: one line per area with ✓ / ! / ✗, under each problem its cause and the
/// fix (with CheckDetail::full also evidence and source); a last line: one sentence when nothing
/// is wrong, else the counts.
/// With `areas` (a --only selection's: selected_areas), only those areas' lines.
std::string render_check_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const std::vector<Finding>& findings, const Style& style,
                              const std::vector<std::string>* areas = nullptr,
                              const CheckTextOptions& options = {});

/// `gpudoctor check --json`: the findings and the snapshot they were drawn from.
Json check_json(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                const std::vector<Finding>& findings);

/// check_json(…) written straight to `out`, in the same bytes.
/// With `paste` (what a pasted text gave: paste_json), also its "paste" member.
void write_check_json(JsonWriter& out, const Snapshot& snap,
                      const std::vector<MergedDevice>& devices, const std::vector<Finding>& findings,
                      const Json* paste = nullptr,
                      const std::vector<std::string>* areas = nullptr);
/// `gpudoctor explain ID`.
std::string render_explain(const CheckSpec& spec);

/// `gpudoctor explain` with no id: every id check can print, each with its check's title (on a
/// terminal, wrapped under the titles' column).
std::string render_explain_list(const std::vector<CheckId>& ids,
                                const Style& style = Style::plain());

/// 0 when no finding is a failure; 1 otherwise.
int check_exit_code(const std::vector<Finding>& findings);

}  // namespace gpudoctor
