#include "core/isolate_result.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <cctype>
#include <cstdio>
#include <cstring>

namespace gpudoctor {

namespace {

/// The last line of the report stream that is a progress object, and the final envelope.
struct ReportStream {
  std::optional<Json> progress;
  std::string final_text;
};

ReportStream split_report(const std::string& report) {
  ReportStream out;
  std::size_t start = 0;
  while (start < report.size()) {
    std::size_t end = report.find('\n', start);
    if (end == std::string::npos) {
      out.final_text = report.substr(start);
      break;
    }
    Json line = Json::parse(report.substr(start, end - start), nullptr, false);
    if (line.is_object() && line.contains("progress")) out.progress = std::move(line["progress"]);
    start = end + 1;
  }
  return out;
}

std::string signal_text(int sig) {
#ifdef __APPLE__
  // The BSD table: macOS's libc has no sigabbrev_np/sigdescr_np (glibc 2.32).
  const char* abbrev = sig > 0 && sig < NSIG ? sys_signame[sig] : nullptr;
  std::string name = "signal " + std::to_string(sig);
  if (abbrev) {
    name = "SIG";
    for (const char* c = abbrev; *c; ++c) name += static_cast<char>(std::toupper(*c));
  }
  const char* desc = sig > 0 && sig < NSIG ? sys_siglist[sig] : nullptr;
#else
  const char* abbrev = sigabbrev_np(sig);
  std::string name = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
  const char* desc = sigdescr_np(sig);
#endif
  return desc ? name + " (" + desc + ")" : name;
}

std::string seconds_text(std::chrono::milliseconds ms) {
  std::string text = std::to_string(ms.count() / 1000);
  if (ms.count() % 1000 != 0) text += "." + std::to_string(ms.count() % 1000 / 100);
  return text + " s";
}

/// What the child's signal fence refused: the driver's fault, whatever else the child did.
void add_fenced(const std::string& what, const ChildOutput& out, ProbeOutcome& o) {
  if (out.fenced_total == 0) return;
  std::string calls;
  for (const auto& c : out.fenced_calls) calls += (calls.empty() ? "" : ", ") + c;
  if (out.fenced_total > out.fenced_calls.size()) {
    calls += " and " + std::to_string(out.fenced_total - out.fenced_calls.size()) + " more";
  }
  const std::string note = what + " tried to signal or control the run from its isolated child: " +
                           calls + " (refused by gpudoctor's signal fence)";
  if (o.status == ProbeStatus::ok || o.status == ProbeStatus::missing ||
      o.status == ProbeStatus::skipped) {
    o.detail = o.detail.empty() ? note : note + "; it reported: " + o.detail;
    o.status = ProbeStatus::failed;
  } else {
    o.detail += "; before that, " + note;
  }
}

/// Killed by the parent at its deadline, not ended by itself just before.
bool killed_by_us(const ChildOutput& out) {
  return out.abandoned ||
         (out.timed_out && WIFSIGNALED(out.wait_status) && WTERMSIG(out.wait_status) == SIGKILL);
}

}  // namespace

IsolatedResult result_of(const IsolatedJob& job, const ChildOutput& out,
                         std::chrono::milliseconds deadline) {
  IsolatedResult r;
  r.outcome.backend = job.backend;
  r.outcome.label = job.label;
  r.outcome.library = job.library;
  const std::string what = job.library ? *job.library : job.label;
  ReportStream stream = split_report(out.report);
  if (!out.log.empty()) {
    r.outcome.stderr_tail =
        out.log.size() > kStderrTail ? out.log.substr(out.log.size() - kStderrTail) : out.log;
  }
  const int st = out.wait_status;
  const bool timed_out = killed_by_us(out);
  r.outcome.seconds = timed_out ? std::chrono::duration<double>(deadline).count() : out.seconds;
  const bool died = timed_out || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
  if (died) r.data = std::move(stream.progress);
  if (timed_out && out.cut_by_run_deadline) {
    r.outcome.status = ProbeStatus::skipped;
    r.outcome.seconds = out.seconds;
    char ran[32];
    std::snprintf(ran, sizeof ran, "%.1f s", out.seconds);
    r.outcome.detail = std::string(kNotExaminedDeadline) + ": stopped after " + ran +
                       ", at gpudoctor's --deadline of " + seconds_text(*out.cut_by_run_deadline) +
                       ", before its own " + std::to_string(deadline.count()) + " ms had passed";
  } else if (timed_out) {
    r.outcome.status = ProbeStatus::timed_out;
    r.outcome.detail =
        what + " did not finish within " + std::to_string(deadline.count()) + " ms and was killed";
    if (out.abandoned) {
      r.outcome.detail +=
          "; it did not die (stuck in the kernel, in uninterruptible sleep) and "
          "was left behind";
    }
  } else if (WIFSIGNALED(st)) {
    r.outcome.status = ProbeStatus::crashed;
    r.outcome.detail = what + " crashed: " + signal_text(WTERMSIG(st));
    if (WTERMSIG(st) == SIGSYS) {
      r.outcome.detail +=
          ", from gpudoctor's signal fence: a call that would reach the run, made while the "
          "fence's SIGSYS handler was blocked or replaced";
    }
  } else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
    r.outcome.status = ProbeStatus::failed;
    r.outcome.detail = what + " made the probe exit with status " + std::to_string(WEXITSTATUS(st));
  } else {
    Json env = Json::parse(stream.final_text, nullptr, /*allow_exceptions=*/false);
    if (env.is_discarded() || !env.is_object() || !env.contains("status")) {
      r.outcome.status = ProbeStatus::failed;
      r.outcome.detail = what + " made the probe send back malformed output (" +
                         std::to_string(stream.final_text.size()) + " bytes)";
    } else {
      try {
        r.outcome.status = env.at("status").get<ProbeStatus>();
        r.outcome.detail = env.value("detail", std::string());
        // An unknown name would read as the first value, ok: a forged or broken report.
        if (Json(r.outcome.status) != env.at("status")) throw std::invalid_argument("status");
      } catch (const std::exception&) {
        r.outcome.status = ProbeStatus::failed;
        r.outcome.detail = what + " made the probe send back malformed output";
      }
      if (env.contains("data") && !env["data"].is_null()) r.data = std::move(env["data"]);
    }
  }
  add_fenced(what, out, r.outcome);
  return r;
}

IsolatedResult not_started_by_deadline(const IsolatedJob& job, std::chrono::milliseconds whole) {
  IsolatedResult r;
  r.outcome = {job.backend, job.label, job.library, ProbeStatus::skipped,
               std::string(kNotExaminedDeadline) + ": not started before gpudoctor's --deadline of " +
                   seconds_text(whole)};
  return r;
}

}  // namespace gpudoctor
