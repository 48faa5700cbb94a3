// Issue 29 §6: `summary` writes like every other command (through app/file_io: a write error
// is a non-zero exit, text from reports reaches the terminal only through terminal_text), and
// `summary -` reads a stream one document at a time.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "io_run.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using test::IoSetup;
using test::run_io;

/// A brief record of the fixture H100 server, as `report --brief` writes it, with `edit`.
std::string brief_record(const std::string& node, const std::function<void(Json&)>& edit = {}) {
  const auto r = run_io({"report", "--brief", "--no-smoke", "--sysroot",
                         test::fixture_path("server-h100-torch-cu124"), "--node-name", node},
                        {});
  Json b = Json::parse(r.r.out, nullptr, false);
  if (edit && b.is_object()) edit(b);
  return b.dump() + "\n";
}

TEST(FleetSummaryIo, AWriteErrorIsANonZeroExit) {
  test::TempTree t;
  t.write("r/n1.json", brief_record("n1"));
  IoSetup full;
  full.stdout_path = "/dev/full";
  for (const auto& args : {std::vector<std::string>{"summary", t.path() + "/r"},
                           std::vector<std::string>{"summary", "--json", t.path() + "/r"}}) {
    const auto io = run_io(args, full);
    EXPECT_EQ(io.r.exit_code, 74) << args[1] << ": " << io.r.err;
    EXPECT_NE(io.r.err.find("standard output: cannot be written"), std::string::npos) << io.r.err;
  }
}

TEST(FleetSummaryIo, BidiAndControlCharactersNeverReachTheTerminal) {
  test::TempTree t;
  // U+202E (RIGHT-TO-LEFT OVERRIDE) turns what follows around on a terminal ("Trojan Source",
  // CVE-2021-42574); U+2066 isolates; a newline would start a line of its own.
  t.write("r/n1.json", brief_record("n1", [](Json& b) {
            b["findings"] = Json::array({{{"id", "cuda.init"},
                                          {"severity", "fail"},
                                          {"title", "cuInit \u202e0 :deliaf\u2066 ok"},
                                          {"evidence", {"line one\nALL GOOD: 0 failures"}}}});
            b["summary"]["failures"] = 1;
          }));
  const auto io = run_io({"summary", t.path() + "/r"}, {});
  EXPECT_EQ(io.r.exit_code, 1) << io.r.err;
  EXPECT_EQ(io.r.out.find("\u202e"), std::string::npos) << io.r.out;
  EXPECT_EQ(io.r.out.find("\u2066"), std::string::npos) << io.r.out;
  EXPECT_NE(io.r.out.find("\\u202e"), std::string::npos) << io.r.out;
}

TEST(FleetSummaryIo, AStreamOfEmptyDocumentsStaysInBoundedMemory) {
  test::TempTree t;
  // 6 MB of `{}`: two million documents, none a report. Held whole with an entry each, it
  // took hundreds of MB; read one at a time, a few.
  std::string stream;
  stream.reserve(6 << 20);
  while (stream.size() < (6u << 20)) stream += "{}\n";
  stream += brief_record("n1");
  IoSetup in;
  in.stdin_path = t.write("stream.jsonl", stream);
  in.timeout_s = 60;
  const auto io = run_io({"summary", "-"}, in);
  EXPECT_FALSE(io.timed_out);
  EXPECT_EQ(io.r.exit_code, 0) << io.r.err;
  EXPECT_NE(io.r.out.find("1 node from 2097153 reports (2097152 unreadable)"), std::string::npos)
      << io.r.out.substr(0, 300);
  // AddressSanitizer keeps freed memory in quarantine (256 MB by default) and maps shadow
  // memory, so the peak says nothing about gpudoctor there; bench/complexity_bench.py measures
  // the same stream side by side in a plain build.
#ifdef GPUDOCTOR_ASAN
  constexpr bool kSanitized = true;
#else
  constexpr bool kSanitized = false;
#endif
  if (!kSanitized) {
    EXPECT_LT(io.max_rss_kib, 48 * 1024) << "peak RSS " << io.max_rss_kib << " KiB";
  }
}

}  // namespace
}  // namespace gpudoctor
