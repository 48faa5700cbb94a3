#include "input_files.hpp"

#include <unistd.h>

#include "decode_text.hpp"
#include "file_io.hpp"
#include "paste/read_pasted.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

JsonLimits report_limits() {
  JsonLimits limits;
  limits.max_bytes = kMaxReportBytes;
  return limits;
}

/// Input that did not read as a report, decided by parsing what it decodes to (decode_text.hpp):
/// a report the decoding made readable (UTF-16, a BOM), text to read as a paste, or `problem`.
std::variant<RecordedMachine, PastedText, std::string> not_a_report(std::string_view bytes,
                                                                    const std::string& name,
                                                                    const std::string& problem) {
  NotAReport what = read_not_a_report(bytes, name, problem);
  if (what.paste) return PastedText{std::move(*what.paste)};
  if (!what.snapshot) return what.problem;
  RecordedMachine m;
  m.snap = std::move(*what.snapshot);
  return m;
}

/// Standard input is read once: parsed as a report while it streams, and what was read kept,
/// so that text pasted from a ticket can be taken for one when it is no report.
std::variant<RecordedMachine, PastedText, std::string> read_from_stdin() {
  // A person at a terminal is about to paste: say how to end it.
  if (::isatty(STDIN_FILENO) != 0 && ::isatty(STDERR_FILENO) != 0) {
    print_error("paste the text (a report, collect_env, nvidia-smi, a log, …), then press "
                "Ctrl-D on a line of its own");
  }
  auto opened = open_input("-", kMaxReportBytes);
  if (auto* why = std::get_if<std::string>(&opened)) return *why;
  JsonPull::Refill inner = std::get<InputFile>(opened).refill();
  std::string seen;
  auto loaded = recorded_from_json_input(
      [&](char* buf, std::size_t size) {
        const std::size_t n = inner(buf, size);
        seen.append(buf, n);
        return n;
      },
      report_limits());
  if (auto* m = std::get_if<RecordedMachine>(&loaded)) return std::move(*m);
  const std::string problem = std::get<std::string>(loaded);
  // Refused at once when what came so far is binary (/dev/zero, an executable).
  if (decode_text(seen).binary) return "-: " + problem;
  try {
    char buf[1 << 16];
    while (const std::size_t n = inner(buf, sizeof buf)) {
      seen.append(buf, n);
      if (seen.size() > kMaxReportBytes) return std::string("-: cannot be read (larger than 256 MiB)");
    }
  } catch (const std::exception& e) {
    return std::string("-: ") + e.what();
  }
  return not_a_report(seen, "-", "-: " + problem);
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
  auto loaded = snapshot_from_json_input(std::get<InputFile>(opened).refill(), report_limits());
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

std::variant<RecordedMachine, PastedText, std::string> read_from(const std::string& path) {
  if (path == "-") return read_from_stdin();
  auto opened = open_input(path, kMaxReportBytes);
  if (auto* why = std::get_if<std::string>(&opened)) return *why;
  auto loaded =
      recorded_from_json_input(std::get<InputFile>(opened).refill(), report_limits());
  if (auto* m = std::get_if<RecordedMachine>(&loaded)) return std::move(*m);
  const std::string problem = path + ": " + std::get<std::string>(loaded);
  // Not a report: text pasted from a ticket, unless it was meant as JSON. Streamed the first
  // time, read whole only now, so a large report never costs a second copy.
  std::string ignored;
  auto text = read_text_file(path, ignored);
  if (!text) return problem;
  return not_a_report(*text, path, problem);
}

}  // namespace gpudoctor
