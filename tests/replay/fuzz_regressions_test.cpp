// Inputs fuzz/run.sh found to break a parser (tests/fixtures/fuzz/README.md), each replayed
// through the parser it broke and through the command a user would give it to.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "json_pull.hpp"
#include "snapshot_io.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::string fuzz_fixture(const std::string& name) {
  return test::fixture_path("fuzz") + "/" + name;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FuzzRegression, AFloatTooLargeForAnIntegerFieldIsAMalformedReport) {
  const std::string path = fuzz_fixture("snapshot-float-in-integer-field.json");
  auto read = snapshot_from_json_text(read_all(path));
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  // A whole number past 2^64, which nlohmann read as a float: now refused as out of range.
  EXPECT_EQ(std::get<std::string>(read),
            "malformed report: /host/memory_available_bytes holds "
            "2265828518446744073709551616568, out of the field's range");

  auto r = test::run_gpudoctor({"check", "--json", "--from", path});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("/host/memory_available_bytes"), std::string::npos) << r.err;
}

TEST(FuzzRegression, AnyFloatInAnIntegerFieldIsRefusedAndFloatFieldsStillRead) {
  // Even one that would fit: gpudoctor never writes a fraction or an exponent there.
  auto small = snapshot_from_json_text(R"({"schema_version": 1, "host": {"cpu_cores": 2.0}})");
  ASSERT_TRUE(std::holds_alternative<std::string>(small));
  EXPECT_NE(std::get<std::string>(small).find("/host/cpu_cores"), std::string::npos);

  auto fine = snapshot_from_json_text(
      R"({"schema_version": 1, "host": {"cpu_cores": 2},
          "probes": [{"backend": "cuda", "label": "cuda", "status": "ok", "seconds": 1e300}]})");
  ASSERT_TRUE(std::holds_alternative<Snapshot>(fine)) << std::get<std::string>(fine);
  const Snapshot& snap = std::get<Snapshot>(fine);
  ASSERT_EQ(snap.probes.size(), 1u);
  EXPECT_EQ(snap.probes[0].seconds, 1e300);
  ASSERT_TRUE(snap.host);
  EXPECT_EQ(snap.host->cpu_cores, 2);
}

TEST(FuzzRegression, ANulByteAfterTheDocumentIsMoreTextNotItsEnd) {
  // fuzz_json_pull: nlohmann takes a NUL outside a string for the end of the input and reads
  // this as JSON; RFC 8259 and Python's json do not, and neither does the pull reader.
  const std::string text = read_all(fuzz_fixture("json-pull-nul-after-document.json"));
  ASSERT_EQ(text.size(), 23u);
  EXPECT_FALSE(Json::parse(text, nullptr, false).is_discarded());
  JsonPull in(text);
  in.skip_value();
  try {
    in.finish();
    FAIL() << "the NUL was taken for the end";
  } catch (const JsonSyntaxError& e) {
    EXPECT_STREQ(e.what(), "not JSON: more text after the document at byte 22");
  }
}

TEST(FuzzRegression, ANumberPastADoublesRangeIsGrammarAndItsFieldRefusesIt) {
  // fuzz_json_pull: nlohmann refuses 1e400 as it parses ("number overflow"); the grammar
  // allows it (Python reads inf). The pull reader reads it; a field refuses it as a value.
  const std::string text = read_all(fuzz_fixture("json-pull-number-overflow.json"));
  JsonPull in(text);
  EXPECT_EQ(in.read_number().text, "1e400");
  in.finish();
  const auto read = snapshot_from_json_text(
      R"({"schema_version": 1, "probes": [{"backend": "x", "label": "x", "seconds": )" + text +
      "}]}");
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_EQ(std::get<std::string>(read),
            "malformed report: /probes/0/seconds holds 1e400, out of a double's range");
}

}  // namespace
}  // namespace gpudoctor
