#include <gtest/gtest.h>

#include "cli.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

TEST(Cli, NoCommandMeansCheck) {
  auto r = parse_cli({}, "1.2.3");
  ASSERT_TRUE(r.options);
  EXPECT_EQ(r.options->command, Command::check);
  EXPECT_TRUE(r.options->backends.empty());
}

TEST(Cli, QueryWithBackendsJsonSysrootTimeout) {
  auto r = parse_cli({"query", "--json", "--backend", "pci,opencl", "--sysroot", "/tmp/x",
                      "--timeout", "2.5"},
                     "1.2.3");
  ASSERT_TRUE(r.options) << r.err;
  EXPECT_EQ(r.options->command, Command::query);
  EXPECT_TRUE(r.options->json);
  EXPECT_EQ(r.options->backends, (std::vector<std::string>{"pci", "opencl"}));
  EXPECT_EQ(r.options->sysroot, "/tmp/x");
  EXPECT_EQ(r.options->timeout.count(), 2500);
}

TEST(Cli, DefaultDeadlineLeavesRoomForAColdKernelCompile) {
  // A cold PoCL compile of the smoke kernel took 11 s on a loaded 2-core machine: check and
  // report wait longer by default when they run smoke tests; query and --no-smoke do not.
  EXPECT_EQ(parse_cli({"query"}, "1").options->timeout.count(), 5000);
  EXPECT_EQ(parse_cli({"check"}, "1").options->timeout.count(), 20000);
  EXPECT_EQ(parse_cli({}, "1").options->timeout.count(), 20000);
  EXPECT_EQ(parse_cli({"check", "--no-smoke"}, "1").options->timeout.count(), 5000);
  EXPECT_EQ(parse_cli({"check", "--timeout", "3"}, "1").options->timeout.count(), 3000);
}

TEST(Cli, UnknownBackendIsAUsageError) {
  auto r = parse_cli({"query", "--backend", "pci,cuda-typo"}, "1");
  EXPECT_FALSE(r.options);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cuda-typo"), std::string::npos);
}

// Issue 29 §8: `--backend ''` split into no names and ran every backend; a list given empty
// (or only commas) is a usage error, for every command that takes one.
TEST(Cli, AnEmptyBackendListIsAUsageError) {
  for (const char* command : {"query", "check", "report", "bench"}) {
    for (const char* list : {"", ",", " , "}) {
      auto r = parse_cli({command, "--backend", list}, "1");
      EXPECT_FALSE(r.options) << command << " --backend '" << list << "'";
      EXPECT_EQ(r.exit_code, 2) << command;
      EXPECT_NE(r.err.find("--backend"), std::string::npos) << r.err;
    }
  }
  EXPECT_FALSE(parse_cli({"check", "--backend="}, "1").options);
}

TEST(Cli, UnknownOptionIsAUsageError) {
  auto r = parse_cli({"query", "--frobnicate"}, "1");
  EXPECT_FALSE(r.options);
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, VersionAndHelp) {
  auto v = parse_cli({"--version"}, "1.2.3");
  EXPECT_FALSE(v.options);
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out, "gpudoctor 1.2.3\n");
  auto h = parse_cli({"--help"}, "1.2.3");
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("query"), std::string::npos);
  EXPECT_NE(h.out.find("check"), std::string::npos);
  auto qh = parse_cli({"query", "--help"}, "1.2.3");
  EXPECT_NE(qh.out.find("--sysroot"), std::string::npos);
}

TEST(Cli, ColorMode) {
  EXPECT_EQ(parse_cli({"check", "--color", "never"}, "1").options->color, ColorMode::never);
  EXPECT_EQ(parse_cli({"check", "--color=always"}, "1").options->color, ColorMode::always);
  EXPECT_FALSE(parse_cli({"check", "--color", "sometimes"}, "1").options);
}

TEST(CliBinary, VersionHelpAndExitCodes) {
  auto v = test::run_gpudoctor({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("gpudoctor ", 0), 0u);
  auto bad = test::run_gpudoctor({"query", "--backend", "nope"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty());
  auto not_dir = test::run_gpudoctor({"query", "--sysroot", "/nonexistent/gpudoctor-root"});
  EXPECT_EQ(not_dir.exit_code, 2);
  EXPECT_NE(not_dir.err.find("not a directory"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
