// `gpudoctor summary DIR|FILE…|-`: many nodes' reports read in parallel threads, only their
// brief records parsed (src/fleet/report_scan.hpp), then put together.
#include "summary_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "fleet/report_scan.hpp"
#include "fleet/summary.hpp"

namespace gpudoctor {

namespace {

namespace fs = std::filesystem;

/// A full report is about 46 KB; anything past this is not one.
constexpr std::size_t kMaxReportBytes = 64u << 20;
constexpr std::size_t kMaxStdinBytes = 1u << 30;

struct Source {
  std::string name;                      ///< the path, or "-#N"
  std::optional<std::string_view> text;  ///< documents from stdin are already in memory
  std::optional<std::string> error;      ///< known unreadable before reading
};

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
  if (ec) out.push_back({dir, std::nullopt, "cannot be listed (" + ec.message() + ")"});
  std::sort(files.begin(), files.end());
  for (auto& f : files) out.push_back({std::move(f), std::nullopt, std::nullopt});
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
      std::string_view text;
      if (s.text) {
        text = *s.text;
      } else if (auto why = read_file(s.name, buf)) {
        out[i].why = *why;
        continue;
      } else {
        text = buf;
      }
      // A report that breaks the reader is one unreadable report, not a dead summary (an
      // exception leaving a thread would end the process).
      try {
        auto brief = read_brief(text);
        if (auto* why = std::get_if<std::string>(&brief)) {
          out[i].why = std::move(*why);
        } else {
          out[i].brief = std::move(std::get<Brief>(brief));
        }
      } catch (const std::exception& e) {
        out[i].why = std::string("cannot be read: ") + e.what();
      }
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

}  // namespace

int run_summary(const Options& opt) {
  std::vector<Source> sources;
  std::string stdin_text;
  Documents stdin_docs;
  for (const auto& input : opt.summary_inputs) {
    std::error_code ec;
    if (input == "-") {
      if (!stdin_text.empty() || !stdin_docs.texts.empty()) continue;  // read once
      char chunk[1 << 16];
      ssize_t n = 0;
      while ((n = ::read(STDIN_FILENO, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 || stdin_text.size() + n > kMaxStdinBytes) break;
        stdin_text.append(chunk, static_cast<std::size_t>(n));
      }
      stdin_docs = split_documents(stdin_text);
      for (std::size_t i = 0; i < stdin_docs.texts.size(); ++i) {
        sources.push_back({"-#" + std::to_string(i + 1), stdin_docs.texts[i], std::nullopt});
      }
      if (stdin_docs.error)
        sources.push_back({"-", std::nullopt, "not JSON: " + *stdin_docs.error});
    } else if (fs::is_directory(input, ec)) {
      add_directory(input, sources);
    } else if (!fs::exists(input, ec)) {
      sources.push_back({input, std::nullopt, std::string("does not exist")});
    } else {
      sources.push_back({input, std::nullopt, std::nullopt});
    }
  }
  auto outcomes = read_all(sources);
  std::vector<NodeReport> reports;
  std::vector<Unreadable> unreadable;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (outcomes[i].brief) {
      NodeReport r{sources[i].name, std::move(*outcomes[i].brief)};
      if (r.brief.node.empty()) r.brief.node = name_from_source(sources[i].name);
      reports.push_back(std::move(r));
    } else {
      unreadable.push_back({sources[i].name, outcomes[i].why});
    }
  }
  const bool none = reports.empty();
  SummaryOptions so;
  so.stale_after_hours = opt.stale_after_hours;
  const Summary s = summarize(std::move(reports), std::move(unreadable), so);
  std::cout << (opt.json ? dump_json(summary_json(s), 2) + "\n" : render_summary_text(s));
  if (none) {
    std::cerr << "gpudoctor: summary: no readable report among " << sources.size() << " inputs\n";
    return 2;
  }
  return s.failing.empty() ? 0 : 1;
}

}  // namespace gpudoctor
