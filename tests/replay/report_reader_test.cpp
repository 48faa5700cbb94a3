// Issue 13 §3, parsing: whatever JSON is handed to `check --from`, `diff` or `report --bench`
// (nested 100,000 deep, 2 GB, /dev/zero, a FIFO, a misspelt enum, a version past 2^63), the
// answer is exit 2 with one line saying why, at once and in bounded memory; never a crash, a
// hang, or a finding that silently disappears.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "model/finding.hpp"
#include "io_run.hpp"
#include "snapshot_io.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using test::IoSetup;
using test::run_io;

/// Exit 2 within the deadline, nothing on stdout, and one stderr line holding `why`.
void expect_refused(const test::IoResult& io, const std::string& why) {
  EXPECT_FALSE(io.timed_out) << "still running after the deadline";
  EXPECT_EQ(io.r.exit_code, 2) << io.r.err;
  EXPECT_TRUE(io.r.out.empty()) << io.r.out.substr(0, 200);
  EXPECT_EQ(std::count(io.r.err.begin(), io.r.err.end(), '\n'), 1) << io.r.err;
  EXPECT_NE(io.r.err.find(why), std::string::npos) << io.r.err;
}

/// A snapshot with one OpenCL ICD whose probe ended as `status`.
std::string one_probe(const std::string& status) {
  return R"({"schema_version": 1, "probes": [{"backend": "opencl", "label": "vendor.icd",
             "library": "libvendor.so", "status": ")" +
         status + R"(", "detail": "the ICD crashed: SIGSEGV"}]})";
}

TEST(ReportReader, DeepNestingInAnyJsonInputIsExit2NotAStackOverflow) {
  test::TempTree tree;
  // 100,000 nested arrays under a key the model does not know: the old loader recursed into
  // them and died of SIGSEGV.
  const std::string deep = tree.write(
      "deep.json", R"({"schema_version": 1, "x": )" + std::string(100000, '[') +
                       std::string(100000, ']') + "}");
  const std::string ok = tree.write("ok.json", one_probe("ok"));
  expect_refused(run_io({"check", "--from", deep}, {}), "nested deeper than 128 levels");
  expect_refused(run_io({"diff", ok, deep}, {}), "nested deeper than 128 levels");
  const std::string deep_bench =
      tree.write("bench.json", "{\"results\": " + std::string(100000, '[') +
                                   std::string(100000, ']') + "}");
  expect_refused(run_io({"report", "--backend", "host", "--sysroot", tree.path(), "--bench",
                         deep_bench},
                        {}),
                 "nested deeper than 128 levels");
}

TEST(ReportReader, HugeEndlessAndSpecialInputsAreRefusedAtOnce) {
  test::TempTree tree;
  // A sparse 2 GiB file costs no disk: refused from its size, before a byte is read.
  const std::string huge = tree.path() + "/huge.json";
  {
    const int fd = ::open(huge.c_str(), O_WRONLY | O_CREAT, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, off_t{2} << 30), 0);
    ::close(fd);
  }
  expect_refused(run_io({"check", "--from", huge}, {}), "cannot be read (larger than 256 MiB)");
  expect_refused(run_io({"check", "--from", "/dev/zero"}, {}),
                 "/dev/zero: cannot be read (a character device, not a regular file");
  // Standard input may be anything: /dev/zero is refused at its first byte.
  IoSetup zero;
  zero.stdin_path = "/dev/zero";
  expect_refused(run_io({"check", "--from", "-"}, zero), "not JSON");
  // A FIFO nobody writes to would block a reader forever.
  const std::string fifo = tree.path() + "/report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(run_io({"check", "--from", fifo}, {}), "a FIFO, not a regular file");
  expect_refused(run_io({"diff", fifo, fifo}, {}), "a FIFO, not a regular file");
}

TEST(ReportReader, AReportOnStandardInputIsRead) {
  test::TempTree tree;
  IoSetup in;
  in.stdin_path = tree.write("crashed.json", one_probe("crashed"));
  const auto io = run_io({"check", "--from", "-", "--color", "never"}, in);
  EXPECT_EQ(io.r.exit_code, 1) << io.r.err;
  EXPECT_NE(io.r.out.find("libvendor.so crashed"), std::string::npos) << io.r.out;
}

TEST(ReportReader, AnUnknownProbeStatusIsAnErrorNotOk) {
  test::TempTree tree;
  // Read faithfully, a crashed ICD fails the check.
  const auto crashed = test::run_gpudoctor({"check", "--from", tree.write("a.json", one_probe("crashed"))});
  EXPECT_EQ(crashed.exit_code, 1) << crashed.err;
  // Misspelt, it used to read as "ok": the failure vanished and the exit status fell to 0.
  for (const std::string status : {"CRASHED", "exploded", ""}) {
    const std::string path = tree.write("b.json", one_probe(status));
    expect_refused(run_io({"check", "--from", path}, {}),
                   "malformed report: /probes/0/status unknown value \"" + status +
                       "\" (known: ok, missing, failed, crashed, timed_out, skipped)");
  }
  const std::string number = tree.write("c.json", R"({"schema_version": 1, "probes": [
      {"backend": "cuda", "label": "libcuda.so.1", "status": 3, "detail": ""}]})");
  expect_refused(run_io({"check", "--from", number}, {}),
                 "/probes/0/status holds a number where a string belongs");
}

TEST(ReportReader, AnUnknownSeverityOrStatusInAnyModelJsonThrows) {
  EXPECT_EQ(Json("warn").get<Severity>(), Severity::warn);
  EXPECT_THROW((void)Json("fatal").get<Severity>(), std::invalid_argument);
  EXPECT_THROW((void)Json(2).get<Severity>(), std::invalid_argument);
  EXPECT_THROW((void)Json("OK").get<ProbeStatus>(), std::invalid_argument);
  EXPECT_EQ(Json(Severity::fail), "fail");
}

TEST(ReportReader, ASchemaVersionPastAnyIntegerSaysNewer) {
  test::TempTree tree;
  for (const std::string v : {"9223372036854775808", "18446744073709551616",
                              "100000000000000000000000000000", "1e30", "2"}) {
    const std::string top = tree.write("top.json", "{\"schema_version\": " + v + "}");
    expect_refused(run_io({"check", "--from", top}, {}),
                   "written by a newer gpudoctor (schema " + v + "; this one reads up to 1)");
    const std::string nested =
        tree.write("nested.json", "{\"schema_version\": 1, \"snapshot\": {\"schema_version\": " +
                                      v + ", \"probes\": \"newer layout\"}}");
    expect_refused(run_io({"diff", nested, nested}, {}), "written by a newer gpudoctor");
  }
  for (const std::string v : {"0", "-1", "-9223372036854775809", "1.5"}) {
    const std::string path = tree.write("bad.json", "{\"schema_version\": " + v + "}");
    expect_refused(run_io({"check", "--from", path}, {}), "schema_version " + v + " is not valid");
  }
}

TEST(ReportReader, ValuesThatDoNotFitTheirFieldAreNamedWithTheirPlace) {
  const auto problem = [](const std::string& text) {
    const auto read = snapshot_from_json_text(text);
    return std::holds_alternative<std::string>(read) ? std::get<std::string>(read) : "";
  };
  EXPECT_EQ(problem(R"({"schema_version":1,"host":{"cpu_cores":2e30}})"),
            "malformed report: /host/cpu_cores holds a fraction or exponent where a whole number "
            "belongs");
  EXPECT_EQ(problem(R"({"schema_version":1,"pci":{"devices":[{"revision":300}]}})"),
            "malformed report: /pci/devices/0/revision holds 300, out of the field's range");
  EXPECT_EQ(problem(R"({"schema_version":1,"host":{"memory_total_bytes":-1}})"),
            "malformed report: /host/memory_total_bytes holds a negative number where none "
            "belongs");
  EXPECT_EQ(problem(R"({"schema_version":1,"host":{"wsl":"yes"}})"),
            "malformed report: /host/wsl holds a string where true or false belongs");
  EXPECT_EQ(problem(R"({"schema_version":1,"probes":{}})"),
            "malformed report: /probes holds an object where an array belongs");
  // Unknown members are skipped, whatever they hold; a repeated member counts once, the last.
  const auto read = snapshot_from_json_text(
      R"({"schema_version":1,"future":{"a":[1,{"b":null}]},"host":{"cpu_cores":4},)"
      R"("host":{"cpu_threads":8}})");
  ASSERT_TRUE(std::holds_alternative<Snapshot>(read)) << std::get<std::string>(read);
  EXPECT_EQ(std::get<Snapshot>(read).host->cpu_cores, std::nullopt);
  EXPECT_EQ(std::get<Snapshot>(read).host->cpu_threads, 8);
}

TEST(ReportReader, ASavedBenchIsReadAsStrictlyAsAReport) {
  test::TempTree tree;
  const auto report = [&](const std::string& bench) {
    return run_io({"report", "--backend", "host", "--sysroot", tree.path(), "--bench",
                   tree.write("bench.json", bench)},
                  {});
  };
  // nlohmann's get<int>() cast 1e30 to int: undefined behaviour.
  expect_refused(report(R"({"results": [{"series": {"api": "blas", "device": "cpu",
                           "points": [{"n": 1e30}]}}]})"),
                 "malformed bench results: /results/0/series/points/0/n holds a fraction or "
                 "exponent where a whole number belongs");
  expect_refused(report(R"({"results": [], "jobs": [{"backend": "opencl", "label": "x",
                           "status": "fine", "detail": ""}]})"),
                 "malformed bench results: /jobs/0/status unknown value \"fine\"");
  const auto ok = report(R"({"results": [], "sizes": [64]})");
  EXPECT_EQ(ok.r.exit_code, 0) << ok.r.err;
}

TEST(ReportReader, TimeoutsThatAreNoNumberAreUsageErrors) {
  for (const char* v : {"nan", "NaN", "-nan", "inf", "-inf", "1e400"}) {
    const auto r = test::run_gpudoctor({"query", "--backend", "host", "--timeout", v});
    EXPECT_EQ(r.exit_code, 2) << v << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << v;
    const auto b = test::run_gpudoctor({"bench", "--sizes", "8", "--timeout", v});
    EXPECT_EQ(b.exit_code, 2) << v << ": " << b.err;
  }
}

}  // namespace
}  // namespace gpudoctor
