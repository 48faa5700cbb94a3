// Input gpudoctor cannot use (a --from file that is missing, a directory, not a report or
// from a newer gpudoctor; a --sysroot that is not a directory) is one clear line on stderr,
// nothing on stdout, and exit status 2.
#include <gtest/gtest.h>

#include <algorithm>

#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using test::CommandResult;
using test::run_gpudoctor;

/// Exit 2, stdout empty, and stderr exactly one line that names `subject` and says `why`.
void expect_one_line_usage_error(const CommandResult& r, const std::string& subject,
                                 const std::string& why) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("gpudoctor: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(subject), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
}

TEST(BadInput, FromAMissingFileSaysWhy) {
  const std::string path = "/nonexistent/gpudoctor/report.json";
  auto r = run_gpudoctor({"check", "--json", "--from", path});
  expect_one_line_usage_error(r, path, "cannot be read (No such file or directory)");
}

TEST(BadInput, FromADirectoryIsNotAReport) {
  test::TempTree dir;
  auto r = run_gpudoctor({"check", "--from", dir.path()});
  expect_one_line_usage_error(r, dir.path(), "cannot be read (a directory, not a file)");
}

TEST(BadInput, FromAnEmptyOrBinaryFileIsNotJson) {
  test::TempTree tree;
  for (const std::string& path :
       {tree.write("empty.json", ""), tree.write("binary.json", std::string("\x7f"
                                                                            "ELF\x02\x01\x01\0\0\0",
                                                                            10))}) {
    expect_one_line_usage_error(run_gpudoctor({"check", "--from", path}), path, "not JSON");
  }
}

TEST(BadInput, FromANewerSchemaNamesBothVersions) {
  test::TempTree tree;
  // A `check --json` output nests the snapshot; its version is the one that counts.
  const std::string path =
      tree.write("check.json", R"({"schema_version": 1, "snapshot": {"schema_version": 7}})");
  auto r = run_gpudoctor({"check", "--json", "--from", path});
  expect_one_line_usage_error(r, path, "written by a newer gpudoctor (schema 7;");
}

TEST(BadInput, FromAReportWithoutASchemaVersion) {
  test::TempTree tree;
  const std::string path = tree.write("other.json", R"({"probes": []})");
  expect_one_line_usage_error(run_gpudoctor({"check", "--from", path}), path,
                              "not a gpudoctor report (no schema_version)");
}

TEST(BadInput, SysrootThatIsAFileOrMissingIsNotADirectory) {
  test::TempTree tree;
  for (const std::string& root : {tree.write("file", "not a tree"), tree.path() + "/missing"}) {
    for (const char* command : {"query", "check"}) {
      auto r = run_gpudoctor({command, "--json", "--sysroot", root});
      expect_one_line_usage_error(r, "--sysroot " + root, "not a directory");
    }
  }
}

}  // namespace
}  // namespace gpudoctor
