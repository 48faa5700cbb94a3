#include "report_command.hpp"

#include <unistd.h>

#include <ctime>

#include "bench/bench_model.hpp"
#include "file_io.hpp"
#include "fleet_check.hpp"
#include "json_dom.hpp"
#include "json_model_reader.hpp"
#include "machine_source.hpp"
#include "report/diff.hpp"
#include "report/report.hpp"
#include "report/report_html.hpp"
#include "report/report_markdown.hpp"
#include "input_files.hpp"
#include "snapshot_io.hpp"
#include "terminal.hpp"

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

/// utc_now() as a file name's part: "20261128T120000Z".
std::string file_stamp(const std::string& utc) {
  std::string out;
  for (const char c : utc) {
    if (c != '-' && c != ':') out += c;
  }
  return out;
}

/// `gpudoctor report` with its output on a terminal: a thousand lines of JSON scroll past a
/// person, so the report goes to a file in the current directory (else the temporary one) and
/// one line says where, and what to paste instead.
int report_to_file_for_terminal(const ReportInput& in, const Environment& env) {
  const std::string name = "gpudoctor-report-" + file_stamp(in.generated_at) + ".json";
  const auto write = [&in](JsonWriter& out) { write_report(out, in); };
  std::string path = name;
  std::string why = write_output_json(path, write);
  if (!why.empty()) {
    path = env.get_nonempty("TMPDIR").value_or("/tmp") + "/" + name;
    if (const std::string again = write_output_json(path, write); !again.empty()) {
      return output_error(why + "; " + again);
    }
  }
  const std::string text = "Wrote the report (" +
                           std::string(in.redact ? "redacted" : "not redacted") + ") to " + path +
                           ": attach it to the ticket.\nA block to paste into a comment instead: "
                           "gpudoctor report --markdown -\nThe JSON on standard output: "
                           "gpudoctor report | less, or -o FILE.\n";
  return emit(text, kExitOk, true, stdout_style(ColorMode::automatic, env));
}

}  // namespace

int run_report(const Options& opt, const Diagnosis& d, const Environment& env) {
  // A --sysroot tree's report names the tree's variables, not the analysing machine's.
  const Environment machine_env = diagnosed_environment(opt, d.snap, env);
  ReportInput in{d.snap, d.devices, d.findings, machine_env, utc_now(), !opt.no_redact,
                 std::nullopt};
  // Under --sysroot the image's host name is hidden wherever it stands as a token (a kernel
  // release "6.1.0-myhost42"): the snapshot does not hold it under "hostname".
  if (opt.sysroot) {
    if (auto host = analysed_host_name(opt)) in.host_names.push_back(*host);
  }
  if (auto [node, source] = node_name_and_source(opt, env); !node.empty()) {
    in.node_name = node;
    in.node_source = source;
  }
  if (opt.bench_file) {
    auto bench = read_bench_file(*opt.bench_file);
    if (auto* why = std::get_if<std::string>(&bench)) return input_error("--bench " + *why);
    in.bench = std::get<Json>(bench);
  }
  const bool markdown_to_stdout = opt.markdown && *opt.markdown == "-";
  if (!opt.html && !opt.brief && !opt.markdown) {
    // Written as it is made: a report of tens of MB is never a DOM or a whole string.
    const auto write = [&in](JsonWriter& out) { write_report(out, in); };
    if (!opt.output && ::isatty(STDOUT_FILENO)) return report_to_file_for_terminal(in, env);
    if (!opt.output) return emit_json(write, kExitOk);
    const std::string why = write_output_json(*opt.output, write);
    return why.empty() ? kExitOk : output_error("-o " + why);
  }
  const Json report = build_report(in);
  if (opt.html) {
    const std::string why = write_output(*opt.html, render_report_html(report));
    if (!why.empty()) return output_error("--html " + why);
  }
  if (opt.markdown && !markdown_to_stdout) {
    const std::string why = write_output(*opt.markdown, render_report_markdown(report));
    if (!why.empty()) return output_error("--markdown " + why);
  }
  // --brief: the node's compact record on one line, so that many nodes' records can be piped
  // into `gpudoctor summary -`.
  const std::string text = opt.brief ? dump_json(report["brief"]) + "\n" : dump_json(report, 2) + "\n";
  if (opt.output) {
    const std::string why = write_output(*opt.output, text);
    if (!why.empty()) return output_error("-o " + why);
  } else if (!opt.html && !opt.markdown) {
    return emit(text, 0, false, Style::plain());
  }
  if (markdown_to_stdout) return emit(render_report_markdown(report), kExitOk, false, Style::plain());
  return kExitOk;
}

int run_diff(const Options& opt) {
  // One machine's model at a time: each is read, diagnosed and reduced to the facts diff
  // compares before the other is read (two reports of 16,000 GPUs held both, issue 29 §3).
  std::vector<facts::Compared> sides[2];
  for (int i = 0; i < 2; ++i) {
    auto read = diagnose_file(opt.diff_files.at(static_cast<std::size_t>(i)));
    if (auto* why = std::get_if<std::string>(&read)) return input_error("diff: " + *why);
    const Diagnosis& d = std::get<Diagnosis>(read);
    sides[i] = diff_facts(DiffSide{d.snap, d.devices, d.findings});
  }
  const auto diffs = diff_compared(std::move(sides[0]), std::move(sides[1]));
  const std::string& an = opt.diff_files[0];
  const std::string& bn = opt.diff_files[1];
  // Like diff(1): 1 when the reports differ in anything that matters.
  const int code = diffs.empty() ? kExitOk : kExitFound;
  if (opt.json) return emit(dump_json(diff_json(diffs, an, bn), 2) + "\n", code, false, Style::plain());
  return emit(render_diff_text(diffs, an, bn), code, true,
              stdout_style(opt.color, Environment::from_process()));
}

int run_report(const Options& opt, const Environment& env) {
  auto loaded = diagnose_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) return input_error(*why);
  return run_report(opt, std::get<Diagnosis>(loaded), env);
}

}  // namespace gpudoctor
