// Issue 29 §5, text decided by its first byte: raw dmesg (lines start with '[') was refused as
// "not a gpudoctor report", UTF-16 with a byte-order mark (what PowerShell's `>` writes) and a
// paste with one NUL byte got "not JSON", and lone CR line ends made one line. What the input
// is is decided by parsing, after decoding (src/decode_text.*). The pastes are real tickets'
// (tests/fixtures/pastes/README.md); their re-encodings are what the named tools write.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using test::run_gpudoctor;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string paste(const std::string& rel) { return slurp(test::fixture_path("pastes/" + rel)); }

/// The dmesg lines of a pasted dump without the ticket's ``` fences: what `dmesg > f` writes.
std::string raw_dmesg(const std::string& rel) {
  std::string text = paste(rel);
  text = text.substr(text.find('['));
  return text.substr(0, text.find("```"));
}

/// UTF-16 with a byte-order mark, as PowerShell 5's `>` (Out-File's default) writes; `big`
/// for UTF-16BE ("Out-File -Encoding BigEndianUnicode"). Line ends become CRLF as on Windows.
std::string utf16(const std::string& ascii, bool big) {
  std::string out = big ? "\xFE\xFF" : "\xFF\xFE";
  for (char c : ascii) {
    if (c == '\n') {
      out += big ? std::string("\0\r", 2) : std::string("\r\0", 2);
    }
    out += big ? std::string(1, '\0') + c : std::string(1, c) + '\0';
  }
  return out;
}

Json findings_of(const test::CommandResult& r) {
  const Json j = Json::parse(r.out, nullptr, false);
  Json ids = Json::array();
  if (j.is_object() && j.contains("findings")) {
    for (const auto& f : j["findings"]) ids.push_back(f.value("id", ""));
  }
  return ids;
}

bool has_finding(const test::CommandResult& r, const std::string& id) {
  const Json ids = findings_of(r);
  return std::find(ids.begin(), ids.end(), Json(id)) != ids.end();
}

TEST(InputEncoding, RawDmesgStartingWithABracketIsReadAsAPaste) {
  test::TempTree tree;
  const std::string path =
      tree.write("dmesg.txt", raw_dmesg("kernel/bigdata-133-probe-not-called-nouveau.txt"));
  ASSERT_EQ(slurp(path).front(), '[');
  const auto r = run_gpudoctor({"check", "--json", "--from", path});
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find("not a gpudoctor report"), std::string::npos) << r.err;
  EXPECT_TRUE(has_finding(r, "nvidia.nouveau_bound")) << findings_of(r).dump();
}

TEST(InputEncoding, Utf16WithAByteOrderMarkIsReadAsText) {
  test::TempTree tree;
  const std::string dmesg = raw_dmesg("kernel/dalle-playground-104-api-mismatch-dmesg.txt");
  for (bool big : {false, true}) {
    const std::string path = tree.write(big ? "be.txt" : "le.txt", utf16(dmesg, big));
    const auto r = run_gpudoctor({"check", "--json", "--from", path});
    EXPECT_NE(r.exit_code, 2) << (big ? "UTF-16BE: " : "UTF-16LE: ") << r.err;
    EXPECT_TRUE(has_finding(r, "nvidia.driver_library_mismatch")) << findings_of(r).dump();
  }
}

TEST(InputEncoding, AReportSavedAsUtf16OrWithAUtf8BomIsStillAReport) {
  test::TempTree tree;
  const auto made =
      run_gpudoctor({"query", "--json", "--sysroot", test::fixture_path("server-a100-sxm4")});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  for (const auto& [name, bytes] :
       {std::pair<std::string, std::string>{"bom8.json", "\xEF\xBB\xBF" + made.out},
        {"utf16.json", utf16(made.out, false)}}) {
    const std::string path = tree.write(name, bytes);
    const auto r = run_gpudoctor({"check", "--json", "--from", path});
    EXPECT_NE(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_TRUE(Json::parse(r.out, nullptr, false).contains("snapshot")) << name;
    const auto d = run_gpudoctor({"diff", path, path});
    EXPECT_EQ(d.exit_code, 0) << name << ": " << d.err;
  }
}

TEST(InputEncoding, APasteWithOneNulByteIsText) {
  test::TempTree tree;
  std::string text = paste("collect_env/lhotse-793-torch-cu102-driver-9010.txt");
  text.insert(text.size() / 2, 1, '\0');
  const std::string path = tree.write("nul.txt", text);
  const auto r = run_gpudoctor({"check", "--json", "--from", path});
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has_finding(r, "python.torch_cuda_driver")) << findings_of(r).dump();
}

TEST(InputEncoding, LoneCarriageReturnsEndLines) {
  // Classic Mac OS line ends; on main the whole dump was one line and its finding was lost.
  test::TempTree tree;
  std::string text = paste("collect_env/pytorch-122924-windows-cpu-wheel-rtx4080.txt");
  for (auto& c : text) {
    if (c == '\n') c = '\r';
  }
  const std::string path = tree.write("cr.txt", text);
  const auto r = run_gpudoctor({"check", "--json", "--from", path});
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has_finding(r, "python.torch_cpu_only")) << findings_of(r).dump();
}

TEST(InputEncoding, JsonThatIsNoReportAndBinaryAreStillRefused) {
  test::TempTree tree;
  // A JSON document, in any encoding, that is not a report.
  for (const std::string& bytes :
       {std::string(R"({"probes": []})"), utf16(R"({"probes": []})", false)}) {
    const std::string path = tree.write("other.json", bytes);
    const auto r = run_gpudoctor({"check", "--from", path});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("not a gpudoctor report"), std::string::npos) << r.err;
  }
  // Many NULs: an executable, /dev/zero.
  const std::string elf = tree.write("a.out", std::string("\x7f"
                                                          "ELF\x02\x01\x01",
                                                          7) +
                                                  std::string(4096, '\0') + "text");
  const auto r = run_gpudoctor({"check", "--from", elf});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not JSON"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpudoctor
