#include "report_command.hpp"

#include <ctime>

#include "bench/bench_model.hpp"
#include "checks/checks.hpp"
#include "file_io.hpp"
#include "fleet_check.hpp"
#include "json_dom.hpp"
#include "json_model_reader.hpp"
#include "machine_source.hpp"
#include "decode_text.hpp"
#include "report/diff.hpp"
#include "report/report.hpp"
#include "report/report_html.hpp"
#include "snapshot_io.hpp"

namespace gpudoctor {

namespace {

/// A saved bench is a few kilobytes; this is room for thousands of devices.
constexpr std::uint64_t kMaxBenchBytes = std::uint64_t{16} << 20;

int input_error(const std::string& message) {
  print_error(message);
  return kExitUsage;
}

/// A file that could not be written: not the user's typing, so not exit 2.
int output_error(const std::string& message) {
  print_error(message);
  return kExitOutput;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

/// What `gpudoctor bench --json` wrote, checked to be one; or why it is not.
std::variant<Json, std::string> read_bench_file(const std::string& path) {
  auto opened = open_input(path, kMaxBenchBytes);
  if (auto* why = std::get_if<std::string>(&opened)) return *why;
  std::string why;
  const auto text = std::get<InputFile>(opened).read_all(kMaxBenchBytes, why);
  if (!text) return why;
  const Json j = parse_json_bounded(*text, &why);
  if (j.is_discarded()) return path + ": " + why;
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) {
    return path + ": not the output of gpudoctor bench --json";
  }
  BenchReport bench;
  const std::string problem = read_json_model(*text, bench);
  if (!problem.empty()) return path + ": malformed bench results: " + problem;
  return Json(bench);
}

}  // namespace

std::optional<std::string> read_text_file(const std::string& path, std::string& why) {
  auto opened = open_input(path, kMaxReportBytes);
  if (auto* problem = std::get_if<std::string>(&opened)) {
    why = *problem;
    return std::nullopt;
  }
  return std::get<InputFile>(opened).read_all(kMaxReportBytes, why);
}

std::variant<Snapshot, std::string> read_snapshot_file(const std::string& path) {
  auto opened = open_input(path, kMaxReportBytes);
  if (auto* why = std::get_if<std::string>(&opened)) return *why;
  JsonLimits limits;
  limits.max_bytes = kMaxReportBytes;
  auto loaded = snapshot_from_json_input(std::get<InputFile>(opened).refill(), limits);
  if (auto* problem = std::get_if<std::string>(&loaded)) {
    // A report saved as UTF-16 or with a BOM is still one (decode_text.hpp).
    std::string ignored;
    auto text = read_text_file(path, ignored);
    if (!text) return path + ": " + *problem;
    NotAReport what = read_not_a_report(*text, path, path + ": " + *problem);
    if (what.snapshot) return std::move(*what.snapshot);
    return what.paste ? path + ": " + *problem : what.problem;
  }
  return loaded;
}

int run_report(const Options& opt, const Snapshot& snap, const std::vector<MergedDevice>& devices,
               const std::vector<Finding>& findings, const Environment& env) {
  ReportInput in{snap, devices, findings, env, utc_now(), !opt.no_redact, std::nullopt};
  if (auto [node, source] = node_name_and_source(opt, env); !node.empty()) {
    in.node_name = node;
    in.node_source = source;
  }
  if (opt.bench_file) {
    auto bench = read_bench_file(*opt.bench_file);
    if (auto* why = std::get_if<std::string>(&bench)) return input_error("--bench " + *why);
    in.bench = std::get<Json>(bench);
  }
  if (!opt.html && !opt.brief) {
    // Written as it is made: a report of tens of MB is never a DOM or a whole string.
    const auto write = [&in](JsonWriter& out) { write_report(out, in); };
    if (!opt.output) return emit_json(write, kExitOk);
    const std::string why = write_output_json(*opt.output, write);
    return why.empty() ? kExitOk : output_error("-o " + why);
  }
  const Json report = build_report(in);
  if (opt.html) {
    const std::string why = write_output(*opt.html, render_report_html(report));
    if (!why.empty()) return output_error("--html " + why);
  }
  // --brief: the node's compact record on one line, so that many nodes' records can be piped
  // into `gpudoctor summary -`.
  const std::string text = opt.brief ? dump_json(report["brief"]) + "\n" : dump_json(report, 2) + "\n";
  if (opt.output) {
    const std::string why = write_output(*opt.output, text);
    if (!why.empty()) return output_error("-o " + why);
  } else if (!opt.html) {
    return emit(text, 0, false, Style::plain());
  }
  return kExitOk;
}

int run_diff(const Options& opt) {
  auto a = read_snapshot_file(opt.diff_files.at(0));
  auto b = read_snapshot_file(opt.diff_files.at(1));
  for (auto* side : {&a, &b}) {
    if (auto* why = std::get_if<std::string>(side)) return input_error("diff: " + *why);
  }
  const Snapshot& sa = std::get<Snapshot>(a);
  const Snapshot& sb = std::get<Snapshot>(b);
  const auto da = merge_devices(sa);
  const auto db = merge_devices(sb);
  const auto fa = run_checks(CheckInput{sa, da, builtin_compat()});
  const auto fb = run_checks(CheckInput{sb, db, builtin_compat()});
  const auto diffs = diff_machines(DiffSide{sa, da, fa}, DiffSide{sb, db, fb});
  const std::string& an = opt.diff_files[0];
  const std::string& bn = opt.diff_files[1];
  // Like diff(1): 1 when the reports differ in anything that matters.
  const int code = diffs.empty() ? kExitOk : kExitFound;
  if (opt.json) return emit(dump_json(diff_json(diffs, an, bn), 2) + "\n", code, false, Style::plain());
  return emit(render_diff_text(diffs, an, bn), code, true, Style::plain());
}

int run_report(const Options& opt, const Environment& env) {
  auto loaded = load_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) return input_error(*why);
  const Machine& m = std::get<Machine>(loaded);
  if (m.pasted) {
    return input_error("--from " + *opt.from +
                       ": not a report (text pasted from a ticket is read by `gpudoctor check --from`)");
  }
  const auto findings = run_checks(CheckInput{m.snap, m.devices, builtin_compat()});
  return run_report(opt, m.snap, m.devices, findings, env);
}

}  // namespace gpudoctor
