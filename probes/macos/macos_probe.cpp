#include "macos/macos_probe.hpp"

#include <algorithm>

#include "core/paths.hpp"
#include "parse/macos_tools.hpp"
#include "parse/system_profiler.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// Where a tree keeps the outputs of the tools it was captured with.
constexpr const char* kRecordDir = "/.gpudoctor";

/// One source of facts: the command a live probe runs and the file a recorded tree holds.
struct Source {
  std::vector<std::string> argv;
  std::vector<std::string> env;  ///< added for this command only
  const char* record;            ///< file name under kRecordDir
};

const Source kSwVers{{"/usr/bin/sw_vers"},
                     // Without it a process can be told 10.16 instead of the real version.
                     {"SYSTEM_VERSION_COMPAT=0"},
                     "sw_vers.txt"};
const Source kSysctl{{"/usr/sbin/sysctl", "machdep.cpu.brand_string", "hw.optional.arm64",
                      "sysctl.proc_translated", "hw.memsize"},
                     {},
                     "sysctl.txt"};
const Source kProfilerJson{{"/usr/sbin/system_profiler", "-json", "SPDisplaysDataType"},
                           {},
                           "system_profiler-SPDisplaysDataType.json"};
const Source kProfilerText{{"/usr/sbin/system_profiler", "SPDisplaysDataType"},
                           {},
                           "system_profiler-SPDisplaysDataType.txt"};

class MacosReader {
 public:
  MacosReader(const ProbeContext& ctx, const CommandRunner* runner,
              std::chrono::milliseconds deadline, MacosInfo& info)
      : ctx_(ctx), runner_(runner), deadline_(deadline), info_(info) {}

  /// The output of one source, or nullopt (with the reason in info.errors where it failed).
  std::optional<std::string> get(const Source& s) {
    if (!ctx_.live) {
      const std::string file = std::string(kRecordDir) + "/" + s.record;
      auto text = ctx_.root.read(file, 8u << 20);
      if (text) info_.sources.push_back(file);
      return text;
    }
    CommandOutput r = runner_->run(s.argv, s.env, deadline_);
    const std::string what = join(s.argv, " ");
    if (r.error || r.timed_out) {
      info_.errors.push_back(what + ": " +
                             (r.timed_out ? "no answer within the deadline" : *r.error));
      return std::nullopt;
    }
    // sysctl exits 1 when one name is unknown (hw.optional.arm64 on older Intel Macs) but
    // still prints the others, so any output counts.
    if (r.out.empty()) {
      info_.errors.push_back(what + ": no output (exit " +
                             std::to_string(r.exit_code.value_or(-1)) + ")");
      return std::nullopt;
    }
    info_.sources.push_back(what);
    return r.out;
  }

  void read_gpus() {
    if (auto json = get(kProfilerJson)) {
      DisplaysReport report = parse_system_profiler_displays(*json);
      if (!report.error) {
        info_.gpus = std::move(report.gpus);
        return;
      }
      info_.errors.push_back("system_profiler -json: " + *report.error);
    }
    // macOS before 10.15 has no -json; people also paste the text form.
    if (auto text = get(kProfilerText)) {
      DisplaysReport report = parse_system_profiler_displays_text(*text);
      if (report.error) info_.errors.push_back("system_profiler: " + *report.error);
      info_.gpus = std::move(report.gpus);
    }
  }

  /// PlaidML's device: PLAIDML_DEVICE_IDS overrides what plaidml-setup saved in ~/.plaidml.
  void read_plaidml() {
    if (auto ids = ctx_.env.get_nonempty("PLAIDML_DEVICE_IDS")) {
      info_.plaidml = PlaidmlConfig{"PLAIDML_DEVICE_IDS", {*ids}, std::nullopt};
      return;
    }
    auto home = ctx_.env.get_nonempty("HOME");
    if (!home) return;
    const std::string file = join_path(*home, ".plaidml");
    auto text = ctx_.root.read(file, 64 * 1024);
    if (!text) return;
    info_.plaidml = parse_plaidml_config(*text);
    if (info_.plaidml) {
      info_.plaidml->file = file;
    } else {
      info_.errors.push_back(file + ": not a JSON object (PlaidML ignores it)");
    }
  }

 private:
  const ProbeContext& ctx_;
  const CommandRunner* runner_;
  std::chrono::milliseconds deadline_;
  MacosInfo& info_;
};

}  // namespace

bool recorded_macos_tree(const Root& root) {
  for (const Source* s : {&kSwVers, &kSysctl, &kProfilerJson, &kProfilerText}) {
    if (root.exists(std::string(kRecordDir) + "/" + s->record)) return true;
  }
  return false;
}

std::optional<MacosInfo> probe_macos(const ProbeContext& ctx, const CommandRunner* runner,
                                     std::chrono::milliseconds deadline, ProbeOutcome& outcome) {
  if (ctx.live && runner == nullptr) {
    outcome.status = ProbeStatus::skipped;
    outcome.detail = "not macOS";
    return std::nullopt;
  }
  if (!ctx.live && !recorded_macos_tree(ctx.root)) {
    outcome.status = ProbeStatus::skipped;
    outcome.detail = std::string("no recorded macOS outputs in ") + kRecordDir;
    return std::nullopt;
  }
  MacosInfo info;
  MacosReader reader(ctx, runner, deadline, info);
  if (auto text = reader.get(kSwVers)) apply_sw_vers(info, parse_sw_vers(*text));
  if (auto text = reader.get(kSysctl)) apply_sysctl(info, parse_sysctl(*text));
  reader.read_gpus();
  reader.read_plaidml();
  info.system_version_compat = ctx.env.get("SYSTEM_VERSION_COMPAT");
  info.dyld_library_path = ctx.env.get("DYLD_LIBRARY_PATH");
  outcome.status = info.sources.empty() ? ProbeStatus::failed : ProbeStatus::ok;
  // What was read, in words: "macOS 12.0, 1 GPU"; "version not read; GPU list not read".
  const bool gpus_read = std::any_of(info.sources.begin(), info.sources.end(), [](const std::string& x) {
    return x.find("system_profiler") != std::string::npos;
  });
  outcome.detail =
      (info.product_version ? "macOS " + *info.product_version : std::string("macOS version not read")) +
      "; " +
      (gpus_read ? std::to_string(info.gpus.size()) + (info.gpus.size() == 1 ? " GPU" : " GPUs")
                 : std::string("GPU list not read")) +
      (info.errors.empty() ? "" : "; " + info.errors.front());
  return info;
}

}  // namespace gpudoctor
