// Issue 13 §4, output: `report -o`, `report --html` and `bench --plot` never replace what is not
// a regular file (as root, `-o /dev/null` turned /dev/null into a regular file), replace a
// regular file atomically keeping its mode, and every write to standard output is checked: a
// full disk or a closed stdout is a non-zero exit with a message, not a truncated report and 0.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "io_run.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace output_files_test {

using test::IoSetup;
using test::run_io;

/// `report` of a fixture machine: files only, so it takes a fraction of a second.
std::vector<std::string> report_args(std::vector<std::string> extra) {
  std::vector<std::string> args{"report", "--sysroot", test::fixture_path("server-a100-sxm4")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode;
}

bool is_report(const std::string& text) {
  const Json j = Json::parse(text, nullptr, false);
  return j.is_object() && j.value("kind", "") == "gpudoctor-report";
}

TEST(OutputFiles, ADeviceNodeIsWrittenInPlaceNeverReplaced) {
  test::TempTree tree;
  // A private null device (needs CAP_MKNOD): /dev/null itself is not put at risk.
  const std::string null = tree.path() + "/null";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    GTEST_SKIP() << "mknod needs CAP_MKNOD: " << std::strerror(errno);
  }
  for (const char* option : {"-o", "--html"}) {
    const auto io = run_io(report_args({option, null}), {});
    EXPECT_EQ(io.r.exit_code, 0) << io.r.err;
    EXPECT_TRUE(S_ISCHR(mode_of(null))) << option << " replaced the device with a file";
  }
}

TEST(OutputFiles, AFifoIsWrittenInPlaceWhenReadAndRefusedWhenNot) {
  test::TempTree tree;
  const std::string fifo = tree.path() + "/report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Nobody reads it: refused at once rather than waited on.
  auto io = run_io(report_args({"-o", fifo}), {});
  EXPECT_FALSE(io.timed_out);
  EXPECT_EQ(io.r.exit_code, 74);
  EXPECT_NE(io.r.err.find(fifo + ": cannot be written (a FIFO nobody reads)"), std::string::npos)
      << io.r.err;
  // A reader: the report goes through it, and it stays a FIFO. Opened read-write, the FIFO
  // has its reader before gpudoctor starts, and its reads never see an end of file.
  const int fd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  std::string received;
  std::atomic<bool> done{false};
  std::thread reader([&] {
    char buf[65536];
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      const bool ready = ::poll(&p, 1, 50) > 0;
      const ssize_t n = ready ? ::read(fd, buf, sizeof buf) : 0;
      if (n > 0) received.append(buf, static_cast<std::size_t>(n));
      if (n <= 0 && done) return;
    }
  });
  io = run_io(report_args({"-o", fifo}), {});
  done = true;
  reader.join();
  ::close(fd);
  EXPECT_EQ(io.r.exit_code, 0) << io.r.err;
  EXPECT_TRUE(is_report(received)) << received.substr(0, 200);
  EXPECT_TRUE(S_ISFIFO(mode_of(fifo)));
}

TEST(OutputFiles, DashAndLinksToStandardOutputWriteToStandardOutput) {
  test::TempTree tree;
  const std::string link = tree.path() + "/out";
  ASSERT_EQ(::symlink("/dev/stdout", link.c_str()), 0);
  for (const std::string& target : {std::string("-"), link, std::string("/dev/stdout")}) {
    const auto io = run_io(report_args({"-o", target}), {});
    EXPECT_EQ(io.r.exit_code, 0) << target << ": " << io.r.err;
    EXPECT_TRUE(is_report(io.r.out)) << target;
  }
  EXPECT_TRUE(S_ISLNK(mode_of(link)));
}

// (A link named as the output is replaced, never followed, since issue 29 §1: see
// output_links_test.cpp.)
TEST(OutputFiles, ARegularFileIsReplacedKeepingItsMode) {
  test::TempTree tree;
  const std::string report = tree.write("report.json", "old");
  ASSERT_EQ(::chmod(report.c_str(), 0600), 0);
  const std::string html = tree.write("report.html", "old");
  ASSERT_EQ(::chmod(html.c_str(), 0640), 0);
  const auto io = run_io(report_args({"-o", report, "--html", html}), {});
  ASSERT_EQ(io.r.exit_code, 0) << io.r.err;
  EXPECT_TRUE(is_report(slurp(report)));
  EXPECT_EQ(mode_of(report) & 07777, 0600u);
  EXPECT_EQ(mode_of(html) & 07777, 0640u);
  EXPECT_NE(slurp(html).find("<html"), std::string::npos);
  // No temporary file is left behind.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tree.path())) ++entries;
  EXPECT_EQ(entries, 2u);
}

TEST(OutputFiles, ANewFileGetsTheUmasksMode) {
  test::TempTree tree;
  const mode_t mask = ::umask(027);
  const auto io = run_io(report_args({"-o", tree.path() + "/new.json"}), {});
  ::umask(mask);
  ASSERT_EQ(io.r.exit_code, 0) << io.r.err;
  EXPECT_EQ(mode_of(tree.path() + "/new.json") & 07777, 0640u);
}

TEST(OutputFiles, WhatCannotTakeAReportIsRefusedWithItsKind) {
  test::TempTree tree;
  const std::string dir = tree.mkdir("dir");
  auto io = run_io(report_args({"-o", dir}), {});
  EXPECT_EQ(io.r.exit_code, 74);
  EXPECT_NE(io.r.err.find(dir + ": cannot be written (a directory"), std::string::npos) << io.r.err;
  io = run_io(report_args({"-o", tree.path() + "/missing/r.json"}), {});
  EXPECT_EQ(io.r.exit_code, 74);
  EXPECT_NE(io.r.err.find("its directory does not exist"), std::string::npos) << io.r.err;
  // Refused before minutes of benchmarking, not after.
  io = run_io({"bench", "--plot", dir}, {});
  EXPECT_EQ(io.r.exit_code, 74);
  EXPECT_LT(io.r.seconds, 5);
  EXPECT_NE(io.r.err.find("--plot " + dir + ": cannot be written (a directory"), std::string::npos)
      << io.r.err;
}

TEST(OutputFiles, AFullDiskIsAnErrorNotATruncatedReport) {
  auto io = run_io(report_args({"-o", "/dev/full"}), {});
  EXPECT_EQ(io.r.exit_code, 74);
  EXPECT_NE(io.r.err.find("/dev/full: cannot be written (No space left on device)"),
            std::string::npos)
      << io.r.err;
  IoSetup full;
  full.stdout_path = "/dev/full";
  for (const auto& args : {report_args({}), std::vector<std::string>{"query", "--backend", "host"},
                           std::vector<std::string>{"explain", "probe.crashed"},
                           std::vector<std::string>{"--help"}}) {
    io = run_io(args, full);
    EXPECT_EQ(io.r.exit_code, 74) << args[0];
    EXPECT_NE(io.r.err.find("standard output: cannot be written (No space left on device)"),
              std::string::npos)
        << args[0] << ": " << io.r.err;
  }
}

TEST(OutputFiles, AClosedStandardOutputIsAnErrorAndTakesNoFilesPlace) {
  test::TempTree tree;
  IoSetup closed;
  closed.stdout_path = "";
  auto io = run_io({"query", "--backend", "host"}, closed);
  EXPECT_EQ(io.r.exit_code, 74);
  EXPECT_NE(io.r.err.find("standard output: cannot be written (it is closed)"), std::string::npos)
      << io.r.err;
  // With descriptor 1 free, the report's temporary file would have been given it.
  const std::string out = tree.path() + "/r.json";
  io = run_io(report_args({"-o", out}), closed);
  EXPECT_EQ(io.r.exit_code, 0) << io.r.err;
  EXPECT_TRUE(is_report(slurp(out)));
}

}  // namespace output_files_test
}  // namespace gpudoctor
