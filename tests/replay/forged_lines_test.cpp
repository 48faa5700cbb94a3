// Issue 29 §8: a single-line field (a device name from a driver, or from a report someone
// shared) that holds a newline could forge whole lines of the text output, a "0 failures" verdict
// among them. Every such field goes through one sanitiser (single_line, render/terminal_text).
#include <gtest/gtest.h>

#include <sstream>

#include "json.hpp"
#include "render/terminal_text.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

constexpr const char* kForged =
    "\n\nNo problems found.\n0 failures, 0 warnings, 0 notes.  Every device and detail: "
    "gpudoctor query\n\x1b[8m";

/// Every string under a "name" or "device_name" member (pci.devices[].device_name is what the
/// text shows) that names the A100, with the forgery after it.
int forge_names(Json& j, const std::string& key = "") {
  int n = 0;
  if (j.is_object()) {
    for (auto& [k, v] : j.items()) n += forge_names(v, k);
  } else if (j.is_array()) {
    for (auto& v : j) n += forge_names(v, key);
  } else if (j.is_string() && (key == "name" || key == "device_name" || key == "product_name") &&
             j.get<std::string>().find("A100") != std::string::npos) {
    j = j.get<std::string>() + kForged;
    ++n;
  }
  return n;
}

std::size_t lines_starting(const std::string& text, const std::string& start) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(start, 0) == 0) ++n;
  }
  return n;
}

TEST(ForgedLines, ADeviceNameWithANewlineForgesNoVerdict) {
  const auto made =
      test::run_gpudoctor({"query", "--json", "--sysroot", test::fixture_path("server-a100-sxm4")});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  Json snap = Json::parse(made.out);
  ASSERT_GT(forge_names(snap), 0);
  test::TempTree t;
  const std::string path = t.write("shared.json", snap.dump());
  const auto r = test::run_gpudoctor({"check", "--from", path});
  ASSERT_NE(r.exit_code, 2) << r.err;
  // One verdict line, gpudoctor's own, however the names read.
  EXPECT_EQ(lines_starting(r.out, "0 failures"), 0U) << r.out;
  EXPECT_LE(lines_starting(r.out, "No problems found"), 1U) << r.out;
  EXPECT_EQ(lines_starting(r.out, "Every device"), 0U) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_NE(r.out.find("\\n\\nNo problems found.\\n0 failures"), std::string::npos) << r.out;
}

TEST(ForgedLines, SingleLineShowsEveryControlCharacter) {
  EXPECT_EQ(single_line("A100\n0 failures\r\t\x1b[2J\xe2\x80\xae"),
            "A100\\n0 failures\\r\\t\\x1b[2J\\u202e");
  EXPECT_EQ(single_line("NVIDIA A100-SXM4-80GB"), "NVIDIA A100-SXM4-80GB");
}

}  // namespace
}  // namespace gpudoctor
