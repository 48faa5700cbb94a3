// decode_text (issue 29 §5): the encodings and line ends people's tools write, decoded; binary
// still told apart from text with a stray NUL.
#include "decode_text.hpp"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(DecodeText, Utf16LittleAndBigEndianWithABomBecomeUtf8) {
  // "é€😀\r\n" in UTF-16LE and BE: a 2-byte, a 3-byte and a surrogate-pair code point.
  const std::string le("\xFF\xFE\xE9\x00\xAC\x20\x3D\xD8\x00\xDE\r\x00\n\x00", 14);
  const std::string be("\xFE\xFF\x00\xE9\x20\xAC\xD8\x3D\xDE\x00\x00\r\x00\n", 14);
  for (const auto& [bytes, encoding] : {std::pair{le, "UTF-16LE"}, std::pair{be, "UTF-16BE"}}) {
    const DecodedText d = decode_text(bytes);
    EXPECT_EQ(d.text, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\n") << encoding;
    EXPECT_EQ(d.encoding, encoding);
    EXPECT_FALSE(d.binary);
    EXPECT_TRUE(d.changed);
  }
  // A lone surrogate and an odd last byte become U+FFFD.
  EXPECT_EQ(decode_text(std::string("\xFF\xFE\x00\xD8x", 5)).text, "\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(DecodeText, AUtf8BomIsDroppedAndLineEndsBecomeLf) {
  const DecodedText d = decode_text(
      "\xEF\xBB\xBF"
      "a\r\nb\rc\n\rd");
  EXPECT_EQ(d.text, "a\nb\nc\n\nd");
  EXPECT_TRUE(d.changed);
  const DecodedText plain = decode_text("a\nb\n");
  EXPECT_EQ(plain.text, "a\nb\n");
  EXPECT_FALSE(plain.changed);
}

TEST(DecodeText, AnIsolatedNulIsDroppedButNulRunsAndControlsAreBinary) {
  const DecodedText one = decode_text(std::string("nvidia-smi\0 output\n", 19));
  EXPECT_FALSE(one.binary);
  EXPECT_EQ(one.text, "nvidia-smi output\n");
  EXPECT_TRUE(decode_text(std::string(1 << 16, '\0')).binary);  // /dev/zero
  EXPECT_TRUE(decode_text(std::string("\x7f"
                                      "ELF\x02\x01\x01\0\0\0",
                                      10))
                  .binary);
  EXPECT_TRUE(decode_text(std::string(64, '\x01')).binary);
  // Latin-1 in otherwise UTF-8 text stays text, its bytes as they were.
  const DecodedText latin = decode_text("caf\xE9 au lait, a long enough line of text\n");
  EXPECT_FALSE(latin.binary);
  EXPECT_EQ(latin.text, "caf\xE9 au lait, a long enough line of text\n");
}

TEST(DecodeText, JsonIsDecidedByParsing) {
  EXPECT_TRUE(is_json_document(" {\"a\": [1, 2]}\n"));
  EXPECT_TRUE(is_json_document("[]"));
  EXPECT_FALSE(is_json_document("[ 7386.259769] NVRM: API mismatch"));
  EXPECT_FALSE(is_json_document("{\"a\": 1} trailing"));
  EXPECT_FALSE(is_json_document(""));
  // A report cut short is a broken report, not a paste; dmesg's brackets close early.
  EXPECT_TRUE(is_json_cut_short("{\"schema_version\": 1, \"probes\": [{\"backend\""));
  EXPECT_TRUE(is_json_cut_short("[1, 2\n"));
  EXPECT_FALSE(is_json_cut_short("[ 7386.259769] NVRM: API mismatch"));
  EXPECT_FALSE(is_json_cut_short("{}"));
  EXPECT_EQ(classify_user_input("{\"schema_version\": 1, \"pro").kind, InputKind::json);
  EXPECT_EQ(classify_user_input("[    0.000000] Linux version 6.1.0\n").kind, InputKind::text);
  EXPECT_EQ(classify_user_input("{\"probes\": []}").kind, InputKind::json);
  EXPECT_EQ(classify_user_input(std::string(100, '\0')).kind, InputKind::binary);
  EXPECT_EQ(classify_user_input(" \n\t").kind, InputKind::binary);
}

// Issue 29: JSON that nlohmann refuses only for a value (a number past a double, a number of
// thousands of digits, a byte that is not UTF-8 in a string) is still JSON: its problem is said
// (exit 2), it is not read as a paste that recognises nothing (exit 0).
TEST(DecodeText, JsonWithValuesPastALimitIsStillJson) {
  EXPECT_EQ(classify_user_input("{\"schema_version\": 1, \"pci\": {\"devices_scanned\": 1e99999}}").kind,
            InputKind::json);
  EXPECT_EQ(classify_user_input("{\"schema_version\": 1" + std::string(5000, '0') + "}").kind,
            InputKind::json);
  EXPECT_EQ(classify_user_input("{\"schema_version\": 1, \"host\": {\"os_name\": \"caf\xe9\"}}").kind,
            InputKind::json);
  // Text stays text.
  EXPECT_EQ(classify_user_input("nvidia-smi: 1e99999 caf\xe9\n").kind, InputKind::text);
}

}  // namespace
}  // namespace gpudoctor
