// The streaming JSON writer must write the very bytes dump_json writes for the same document:
// layout, numbers, escapes (invalid UTF-8 replaced, DEL, C1 and bidirectional controls as \u
// escapes), member order, empty containers, and the model's structs as their to_json.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "json_model_writer.hpp"
#include "json_writer.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {
namespace {

/// What `write` writes, in pieces no larger than `flush_bytes` each is sent in.
template <typename F>
std::string written(F write, int indent = 2) {
  std::string text;
  JsonWriter out([&text](std::string_view piece) {
    text.append(piece);
    return true;
  }, indent);
  write(out);
  EXPECT_TRUE(out.flush());
  return text;
}

/// NUL to DEL, each once.
std::string every_ascii_byte() {
  std::string s;
  for (int c = 0; c < 0x80; ++c) s += static_cast<char>(c);
  return s;
}

/// Strings a driver or a user's environment can hand over: escapes, UTF-8, invalid bytes,
/// controls a terminal acts on.
const std::vector<std::string> kHardStrings = {
    "",
    "plain ASCII /usr/lib/x86_64-linux-gnu",
    "quote \" and backslash \\ C:\\Users\\alice",
    "tab\tnewline\nreturn\rbell\x07 nul? no, form\x0c feed, \x1b[31mred",
    "DEL \x7f here",
    "C1 \xc2\x85 next line, \xc2\x9b CSI",
    "bidi \xe2\x80\xae reversed \xe2\x81\xa6 isolate \xe2\x80\x8f mark \xd8\x9c arabic",
    "line separator \xe2\x80\xa8 paragraph \xe2\x80\xa9",
    "UTF-8 GeForce RTX\xe2\x84\xa2 \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80",
    "invalid \xff\xfe bytes, truncated \xe2\x80, overlong \xc0\xaf, surrogate \xed\xa0\x80",
    "lone continuation \x80 and lead at end \xc3",
    every_ascii_byte(),
};

Json hard_document() {
  Json doc = Json::object();
  Json strings = Json::array();
  for (const auto& s : kHardStrings) strings.push_back(s);
  doc["strings"] = strings;
  for (const auto& s : kHardStrings) doc["key " + s] = s;
  doc["numbers"] = {0.0,
                    -0.0,
                    0.1,
                    1.0,
                    100.0,
                    1e300,
                    -1e-300,
                    4.9e-324,
                    123456789.125,
                    1.0 / 3.0,
                    std::numeric_limits<double>::quiet_NaN(),
                    std::numeric_limits<double>::infinity(),
                    std::numeric_limits<std::int64_t>::min(),
                    std::numeric_limits<std::int64_t>::max(),
                    std::numeric_limits<std::uint64_t>::max(),
                    0,
                    -1};
  doc["empty_object"] = Json::object();
  doc["empty_array"] = Json::array();
  doc["nested"] = {{"a", Json::array({Json::object(), Json::array(), nullptr, true, false})},
                   {"b", {{"c", {{"d", Json::array({1, Json::array({2, Json::array()})})}}}}}};
  doc["null"] = nullptr;
  return doc;
}

TEST(JsonWriter, WritesWhatDumpJsonWritesIndentedAndOnOneLine) {
  const Json doc = hard_document();
  for (int indent : {2, -1, 4}) {
    EXPECT_EQ(written([&](JsonWriter& out) { out.json(doc); }, indent), dump_json(doc, indent))
        << "indent " << indent;
  }
}

TEST(JsonWriter, ScalarsAndEmptyContainersAtTheTop) {
  for (const Json& j : {Json(nullptr), Json(true), Json(-0.0), Json("\xe2\x80\xae"),
                        Json::object(), Json::array(), Json(42u)}) {
    EXPECT_EQ(written([&](JsonWriter& out) { out.json(j); }), dump_json(j, 2));
  }
}

TEST(JsonWriter, ALongDocumentArrivesInPiecesThatAddUpToIt) {
  Json doc = Json::array();
  for (int i = 0; i < 20000; ++i) {
    doc.push_back({{"i", i}, {"s", kHardStrings[i % kHardStrings.size()]}});
  }
  std::size_t pieces = 0;
  std::string text;
  JsonWriter out([&](std::string_view piece) {
    ++pieces;
    text.append(piece);
    return true;
  });
  out.json(doc);
  ASSERT_TRUE(out.flush());
  EXPECT_GT(pieces, 2u);
  EXPECT_EQ(text, dump_json(doc, 2));
}

TEST(JsonWriter, ASinkThatFailsIsToldNothingMore) {
  int calls = 0;
  JsonWriter out([&calls](std::string_view) {
    ++calls;
    return false;
  });
  Json doc = Json::array();
  for (int i = 0; i < 50000; ++i) doc.push_back("a string of some length to fill the buffer");
  out.json(doc);
  EXPECT_FALSE(out.flush());
  EXPECT_TRUE(out.failed());
  EXPECT_EQ(calls, 1);
}

/// A snapshot with the hard strings in its fields, enums, optionals set and unset, maps.
Snapshot hard_snapshot() {
  Snapshot s;
  s.tool_version = kHardStrings[6];
  s.host.emplace();
  s.host->hostname = kHardStrings[9];
  s.host->kernel_version = kHardStrings[3];
  s.host->cpu_cores = 64;
  s.python.emplace();
  PythonEnv env;
  env.prefix = kHardStrings[2];
  s.python->envs.push_back(env);
  env.prefix = kHardStrings[8];
  s.python->envs.push_back(env);
  ProbeOutcome probe;
  probe.label = kHardStrings[5];
  probe.status = ProbeStatus::crashed;
  probe.seconds = 0.1;
  s.probes.push_back(probe);
  return s;
}

TEST(JsonModelWriter, AStructIsWrittenAsItsToJson) {
  const Snapshot s = hard_snapshot();
  EXPECT_EQ(written([&](JsonWriter& out) { write_model(out, s); }), dump_json(Json(s), 2));
  EXPECT_EQ(written([&](JsonWriter& out) { write_model(out, Snapshot{}); }),
            dump_json(Json(Snapshot{}), 2));
}

TEST(JsonModelWriter, MembersAddedToAStructTakeTheirPlaceInNameOrder) {
  const Snapshot s = hard_snapshot();
  const Json devices = Json::array({{{"name", "x"}}});
  const int version = 7;
  const auto written_later = [](JsonWriter& out) { out.string("later"); };
  const std::string text = written([&](JsonWriter& out) {
    JsonMembers members;
    members.add_fields(s);
    members.add("devices", devices);
    members.add("aaa", version);
    members.add_written("zzz", written_later);
    members.add("tool_version", version);  // replaces the field of that name
    members.write(out);
  });
  Json expected = s;
  expected["devices"] = devices;
  expected["aaa"] = version;
  expected["zzz"] = "later";
  expected["tool_version"] = version;
  EXPECT_EQ(text, dump_json(expected, 2));
}

}  // namespace
}  // namespace gpudoctor
