// `gpudoctor summary DIR|FILE…|-`: many nodes' reports read in parallel threads, only their
// brief records parsed (src/fleet/report_scan.hpp), then put together.
#include "summary_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>
#include <unordered_map>

#include "decode_text.hpp"
#include "file_io.hpp"
#include "fleet/document_stream.hpp"
#include "fleet/report_scan.hpp"
#include "fleet/summary.hpp"
#include "terminal.hpp"

namespace gpudoctor {

namespace {

namespace fs = std::filesystem;

/// A full report is about 46 KB; anything past this is not one.
constexpr std::size_t kMaxReportBytes = 64u << 20;

struct Source {
  std::string name;                  ///< the path
  std::optional<std::string> error;  ///< known unreadable before reading
};

/// Unreadable inputs named one by one; past this many they are only counted, so that a stream
/// of a million `{}` stays a few kilobytes of summary.
constexpr std::size_t kUnreadableListed = 1000;

/// The file's bytes into `buf`; the reason when it cannot be read.
std::optional<std::string> read_file(const std::string& path, std::string& buf) {
  // O_NONBLOCK: a FIFO named *.json must not wait for a writer; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::string("cannot be read (") + std::strerror(errno) + ")";
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return std::string("not a regular file");
  }
  if (static_cast<std::size_t>(st.st_size) > kMaxReportBytes) {
    ::close(fd);
    return "too large for a report (" + std::to_string(st.st_size) + " bytes)";
  }
  buf.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < buf.size()) {
    const ssize_t n = ::read(fd, buf.data() + done, buf.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      return std::string("cannot be read (") + std::strerror(saved) + ")";
    }
    if (n == 0) break;  // shrank while being read
    done += static_cast<std::size_t>(n);
  }
  buf.resize(done);
  ::close(fd);
  return std::nullopt;
}

/// Every *.json under the directory (recursively, not following links to directories), in
/// order of path. One that is not a regular file (a dangling link, a FIFO, a device) is kept, so
/// that reading it names it as unreadable rather than dropping it unseen.
void add_directory(const std::string& dir, std::vector<Source>& out) {
  std::error_code ec;
  std::vector<std::string> files;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    std::error_code type_ec;
    if (p.extension() == ".json" && !it->is_directory(type_ec)) files.push_back(p.string());
  }
  if (ec) out.push_back({dir, "cannot be listed (" + ec.message() + ")"});
  std::sort(files.begin(), files.end());
  for (auto& f : files) out.push_back({std::move(f), std::nullopt});
}

/// The node's name when the record has none: the file's name without ".json".
std::string name_from_source(const std::string& source) {
  if (source.rfind("-#", 0) == 0) return "stdin" + source.substr(2);
  std::string stem = fs::path(source).filename().string();
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0)
    stem.resize(stem.size() - 5);
  return stem;
}

struct Outcome {
  std::optional<Brief> brief;
  std::string why;
};

Outcome read_one(std::string_view text) {
  Outcome out;
  // A report that breaks the reader is one unreadable report, not a dead summary (an
  // exception leaving a thread would end the process).
  try {
    auto brief = read_brief(text);
    if (auto* why = std::get_if<std::string>(&brief)) {
      out.why = std::move(*why);
    } else {
      out.brief = std::move(std::get<Brief>(brief));
    }
  } catch (const std::exception& e) {
    out.why = std::string("cannot be read: ") + e.what();
  }
  return out;
}

std::vector<Outcome> read_all(const std::vector<Source>& sources) {
  std::vector<Outcome> out(sources.size());
  std::atomic<std::size_t> next{0};
  auto work = [&]() {
    std::string buf;
    for (std::size_t i = next++; i < sources.size(); i = next++) {
      const Source& s = sources[i];
      if (s.error) {
        out[i].why = *s.error;
        continue;
      }
      if (auto why = read_file(s.name, buf)) {
        out[i].why = *why;
        continue;
      }
      // A report saved as UTF-16 or with a BOM (PowerShell's `>`) reads like any other.
      if (buf.rfind("\xFF\xFE", 0) == 0 || buf.rfind("\xFE\xFF", 0) == 0 ||
          buf.rfind("\xEF\xBB\xBF", 0) == 0) {
        buf = decode_text(buf).text;
      }
      out[i] = read_one(buf);
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t n = std::min<std::size_t>({cores, 16, sources.size() / 8 + 1});
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  return out;
}

/// What summary keeps of what it read: one report per node as they come (the newest), the
/// unreadable ones up to kUnreadableListed, counts of the rest.
class Gathered {
 public:
  explicit Gathered(const SummaryOptions& opt) : opt_(opt) {}

  void add(const std::string& source, Outcome o) {
    if (!o.brief) {
      if (unreadable_.size() < kUnreadableListed) {
        unreadable_.push_back({source, std::move(o.why)});
      } else {
        ++unreadable_more_;
      }
      return;
    }
    NodeReport r{source, std::move(*o.brief)};
    if (r.brief.node.empty()) r.brief.node = name_from_source(source);
    // Only the newest report of a node is kept while reading: a stream that repeats one node
    // holds one report, not all of them.
    auto [it, fresh] = by_node_.emplace(r.brief.node, reports_.size());
    if (fresh) {
      reports_.push_back(std::move(r));
    } else if (newer_report(r.brief, reports_[it->second].brief, opt_)) {
      superseded_.push_back(reports_[it->second].source);
      reports_[it->second] = std::move(r);
    } else {
      superseded_.push_back(r.source);
    }
  }

  Summary summarize_all() {
    Summary s = summarize(std::move(reports_), std::move(unreadable_), opt_);
    s.superseded.insert(s.superseded.begin(), superseded_.begin(), superseded_.end());
    s.reports += superseded_.size() + unreadable_more_;
    s.unreadable_not_listed = unreadable_more_;
    return s;
  }

 private:
  const SummaryOptions& opt_;
  std::vector<NodeReport> reports_;
  std::unordered_map<std::string, std::size_t> by_node_;
  std::vector<std::string> superseded_;
  std::vector<Unreadable> unreadable_;
  std::size_t unreadable_more_ = 0;
};

/// Reads every document of standard input (`report --brief` of many nodes piped together) one
/// at a time: memory is the largest document and what is kept of each, never the stream.
void read_stdin(Gathered& out) {
  DocumentStream docs(
      [](char* buf, std::size_t size) -> std::size_t {
        for (;;) {
          const ssize_t n = ::read(STDIN_FILENO, buf, size);
          if (n >= 0) return static_cast<std::size_t>(n);
          if (errno != EINTR) throw std::runtime_error(std::strerror(errno));
        }
      },
      kMaxReportBytes);
  std::size_t n = 0;
  while (auto doc = docs.next()) out.add("-#" + std::to_string(++n), read_one(*doc));
  if (docs.error()) out.add("-", Outcome{std::nullopt, "not JSON: " + *docs.error()});
}

}  // namespace

int run_summary(const Options& opt) {
  SummaryOptions so;
  so.stale_after_hours = opt.stale_after_hours;
  so.now = std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count();
  Gathered gathered(so);
  std::vector<Source> sources;
  bool stdin_read = false;
  for (const auto& input : opt.summary_inputs) {
    std::error_code ec;
    if (input == "-") {
      if (!stdin_read) read_stdin(gathered);  // read once
      stdin_read = true;
    } else if (fs::is_directory(input, ec)) {
      add_directory(input, sources);
    } else if (!fs::exists(input, ec)) {
      sources.push_back({input, std::string("does not exist")});
    } else {
      sources.push_back({input, std::nullopt});
    }
  }
  auto outcomes = read_all(sources);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    gathered.add(sources[i].name, std::move(outcomes[i]));
  }
  outcomes.clear();
  const Summary s = gathered.summarize_all();
  const int verdict = s.failing.empty() ? 0 : 1;
  const int code = opt.json ? emit_json([&s](JsonWriter& w) { w.json(summary_json(s)); }, verdict)
                            : emit(render_summary_text(s), verdict, true,
                                   // At a terminal: its width, ASCII where the locale is not UTF-8.
                                   stdout_style(ColorMode::never, Environment::from_process()));
  if (code != verdict) return code;
  if (s.names.empty()) {
    print_error("summary: no readable report among " + std::to_string(s.reports) + " inputs");
    return 2;
  }
  return verdict;
}

}  // namespace gpudoctor
