#include "report_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench/bench_model.hpp"
#include "checks/checks.hpp"
#include "machine_source.hpp"
#include "report/diff.hpp"
#include "report/report.hpp"
#include "report/report_html.hpp"
#include "snapshot_io.hpp"

namespace gpudoctor {

namespace {

int input_error(const std::string& message) {
  std::cerr << "gpudoctor: " << message << "\n";
  return kExitUsage;
}

/// A file that could not be written: not the user's typing, so not exit 2.
int output_error(const std::string& message) {
  std::cerr << "gpudoctor: " << message << "\n";
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

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

/// The file's bytes; nullopt, with `why` naming the file and the reason, when it has none.
std::optional<std::string> read_text_file(const std::string& path, std::string& why) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    why = path + ": is a directory, not a report";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = path + ": cannot be read (" + std::strerror(errno) + ")";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// What `gpudoctor bench --json` wrote, checked to be one; or why it is not.
std::variant<Json, std::string> read_bench_file(const std::string& path) {
  std::string why;
  const auto text = read_text_file(path, why);
  if (!text) return why;
  const Json j = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) {
    return path + ": not the output of gpudoctor bench --json";
  }
  try {
    return Json(j.get<BenchReport>());
  } catch (const std::exception& e) {
    return path + ": malformed bench results: " + e.what();
  }
}

}  // namespace

std::variant<Snapshot, std::string> read_snapshot_file(const std::string& path) {
  std::string why;
  const auto text = read_text_file(path, why);
  if (!text) return why;
  auto loaded = snapshot_from_json_text(*text);
  if (auto* problem = std::get_if<std::string>(&loaded)) return path + ": " + *problem;
  return loaded;
}

std::string write_file_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return path + ": cannot be written (" + std::strerror(errno) + ")";
  // mkstemp makes the file private; a report is an ordinary file to share.
  const bool ok = ::fchmod(fd, 0644) == 0 && write_all(fd, text) && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
    const int why = ok ? errno : saved;
    ::unlink(temp.c_str());
    return path + ": cannot be written (" + std::strerror(why) + ")";
  }
  return "";
}

int run_report(const Options& opt, const Snapshot& snap, const std::vector<MergedDevice>& devices,
               const std::vector<Finding>& findings, const Environment& env) {
  ReportInput in{snap, devices, findings, env, utc_now(), !opt.no_redact, std::nullopt};
  if (opt.bench_file) {
    auto bench = read_bench_file(*opt.bench_file);
    if (auto* why = std::get_if<std::string>(&bench)) return input_error("--bench " + *why);
    in.bench = std::get<Json>(bench);
  }
  const Json report = build_report(in);
  if (opt.html) {
    const std::string why = write_file_atomically(*opt.html, render_report_html(report));
    if (!why.empty()) return output_error("--html " + why);
  }
  const std::string text = dump_json(report, 2) + "\n";
  if (opt.output) {
    const std::string why = write_file_atomically(*opt.output, text);
    if (!why.empty()) return output_error("-o " + why);
  } else if (!opt.html) {
    std::cout << text;
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
  std::cout << (opt.json ? dump_json(diff_json(diffs, an, bn), 2) + "\n"
                         : render_diff_text(diffs, an, bn));
  // Like diff(1): 1 when the reports differ in anything that matters.
  return diffs.empty() ? kExitOk : kExitFound;
}

int run_report(const Options& opt, const Environment& env) {
  auto loaded = load_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) return input_error(*why);
  const Machine& m = std::get<Machine>(loaded);
  const auto findings = run_checks(CheckInput{m.snap, m.devices, builtin_compat()});
  return run_report(opt, m.snap, m.devices, findings, env);
}

}  // namespace gpudoctor
