// The pull reader under the report loader: the JSON grammar exactly (what nlohmann and
// Python's json accept, it accepts; what they refuse, it refuses), nesting and size bounded,
// and the same result whatever size of chunks the input arrives in.
#include "json_pull.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "json_dom.hpp"
#include "snapshot_io.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// Reads `text` fully (skip_value then finish); the error text, or "" when it is JSON.
std::string check(std::string_view text) {
  try {
    JsonPull in(text);
    in.skip_value();
    in.finish();
    return "";
  } catch (const JsonSyntaxError& e) {
    return e.what();
  }
}

/// A refill that hands out `text` `chunk` bytes at a time.
JsonPull::Refill chunks(std::string text, std::size_t chunk) {
  auto data = std::make_shared<std::string>(std::move(text));
  auto at = std::make_shared<std::size_t>(0);
  return [data, at, chunk](char* buf, std::size_t size) {
    const std::size_t n = std::min({chunk, size, data->size() - *at});
    std::memcpy(buf, data->data() + *at, n);
    *at += n;
    return n;
  };
}

TEST(JsonPull, AcceptsWhatTheGrammarAccepts) {
  for (const char* ok :
       {"{}", "[]", " {\"a\" : [1, -0, 0.5, 1e3, -2E-7, 12.5e+2, true, false, null, \"\"]} ",
        "\"\\u00e9\\ud83d\\ude00\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
        "0", "-1", "[[[]]]", "{\"\":{}}"}) {
    EXPECT_EQ(check(ok), "") << ok;
    EXPECT_FALSE(Json::parse(ok, nullptr, false).is_discarded()) << ok;
  }
}

TEST(JsonPull, RefusesWhatTheGrammarRefuses) {
  for (const char* bad :
       {"", " ", "{", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "01", "1.", ".5", "1e", "+1", "-",
        "tru", "nul", "True", "'a'", "{a:1}", "\"\\x41\"", "\"\\u12\"", "\"\\ud800\"",
        "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\nb\"", "[1] 2", "{} x", "[1}",
        "{\"a\" 1}", "NaN", "Infinity", "[1,,2]"}) {
    EXPECT_NE(check(bad), "") << bad;
    EXPECT_TRUE(Json::parse(bad, nullptr, false).is_discarded()) << bad;
  }
}

// Issue 29 (invalid UTF-8 in every string field): a byte that breaks UTF-8 inside a string is
// read as U+FFFD, as Python's errors="replace" reads it, not a reason to refuse the document
// (one Latin-1 device name made a whole report "not JSON" and then a paste with nothing
// recognised, exit 0). The grammar around it is still enforced.
TEST(JsonPull, BytesThatAreNotUtf8InAStringReadAsReplacementCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  const std::pair<const char*, std::string> cases[] = {
      {"\"\xff\"", fffd},
      {"\"\xc0\x80\"", fffd + fffd},                 // an overlong NUL: two bad bytes
      {"\"\xed\xa0\x80\"", fffd + fffd + fffd},       // a surrogate: the lead, then two
      {"\"\xf4\x90\x80\x80\"", fffd + fffd + fffd + fffd},  // past U+10FFFF
      {"\"\xe2\x82\"", fffd},                        // cut short before the quote
      {"\"caf\xe9 ok\"", "caf" + fffd + " ok"},         // Latin-1
      {"\"\xe2\x82\xac\"", "\xe2\x82\xac"},            // a real euro sign stays
  };
  for (const auto& [text, want] : cases) {
    EXPECT_EQ(check(text), "") << text;
    JsonPull in{std::string_view(text)};
    EXPECT_EQ(in.read_string(), want) << text;
  }
  EXPECT_NE(check("\"\xff"), "");           // still cut short
  EXPECT_NE(check("\"\xff\" x"), "");      // still text after the document
  EXPECT_NE(check("{\xff: 1}"), "");         // outside a string it is no JSON
}

TEST(JsonPull, ErrorsSayWhatAndWhere) {
  EXPECT_EQ(check("[1, 2,]"), "not JSON: expected a value at byte 6");
  EXPECT_EQ(check(""), "not JSON: the text ends where a value belongs at byte 0");
}

TEST(JsonPull, NestingPastTheLimitIsAnErrorNotARecursion) {
  // 100,000 levels overflowed the stack of the old loader (SIGSEGV).
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(check(deep), "nested deeper than 128 levels at byte 129");
  const std::string limit = std::string(kJsonMaxDepth, '[') + std::string(kJsonMaxDepth, ']');
  EXPECT_EQ(check(limit), "");
  std::string objects;
  for (int i = 0; i < 200; ++i) objects += "{\"a\":";
  EXPECT_NE(check(objects + "1" + std::string(200, '}')).find("nested deeper"), std::string::npos);
}

TEST(JsonPull, InputPastTheByteLimitStopsBeingRead) {
  JsonLimits limits;
  limits.max_bytes = 1 << 20;
  // An endless string of spaces, as /dev/zero is endless: refused once past the limit.
  std::size_t delivered = 0;
  JsonPull in(
      [&delivered](char* buf, std::size_t size) {
        std::memset(buf, ' ', size);
        delivered += size;
        return size;
      },
      limits);
  try {
    in.skip_value();
    FAIL() << "read past the limit";
  } catch (const JsonSyntaxError& e) {
    EXPECT_STREQ(e.what(), "larger than 1 MiB");
  }
  EXPECT_LE(delivered, (1u << 20) + (256u << 10));
}

TEST(JsonPull, ChunkBoundariesChangeNothing) {
  // Every recorded report of the fixtures, read whole and read one byte at a time.
  for (const char* name : {"server-a100-sxm4", "rocm-rx6700xt-gfx1031", "mac-m1pro-torch-mps"}) {
    const auto r = test::run_gpudoctor({"query", "--json", "--sysroot", test::fixture_path(name)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto whole = snapshot_from_json_text(r.out);
    ASSERT_TRUE(std::holds_alternative<Snapshot>(whole)) << std::get<std::string>(whole);
    const std::string expected = dump_json(Json(std::get<Snapshot>(whole)));
    for (std::size_t chunk : {1, 2, 3, 7, 4096}) {
      const auto pieces = snapshot_from_json_input(chunks(r.out, chunk));
      ASSERT_TRUE(std::holds_alternative<Snapshot>(pieces)) << std::get<std::string>(pieces);
      EXPECT_EQ(dump_json(Json(std::get<Snapshot>(pieces))), expected) << name << " " << chunk;
    }
  }
  // And a string with escapes and multi-byte characters split anywhere.
  const std::string text = "[\"a\\u00e9\\ud83d\\ude00\xc3\xa9\xf0\x9f\x98\x80\\n\", 123.5e-1]";
  for (std::size_t chunk = 1; chunk < 6; ++chunk) {
    JsonPull in(chunks(text, chunk));
    bool first = true;
    in.begin_array();
    ASSERT_TRUE(in.next_element(first));
    EXPECT_EQ(in.read_string(), "a\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9\xf0\x9f\x98\x80\n");
    ASSERT_TRUE(in.next_element(first));
    EXPECT_EQ(in.read_number().text, "123.5e-1");
    EXPECT_FALSE(in.next_element(first));
    in.finish();
  }
}

TEST(JsonDom, DeepDocumentsAreRefusedBeforeTheDomIsBuilt) {
  std::string why;
  const std::string deep = "{\"ICD\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_TRUE(parse_json_bounded(deep, &why).is_discarded());
  EXPECT_EQ(why, "nested deeper than 128 levels at byte 135");
  const Json ok = parse_json_bounded(R"({"ICD": {"library_path": "x.so"}})", &why);
  ASSERT_TRUE(ok.is_object());
  EXPECT_EQ(ok["ICD"]["library_path"], "x.so");
}

}  // namespace
}  // namespace gpudoctor
