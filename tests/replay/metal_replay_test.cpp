// The metal backend on the fixture machines: a Mac's tree (seed 004) gets a Metal section and a
// "not examined" metal line, since Metal cannot be loaded from another root; a Linux tree gets
// neither. No Metal device dump is recorded anywhere (there is no Mac here to record one).
#include <gtest/gtest.h>

#include "json.hpp"
#include "test_support.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace {

std::string area_line(const std::string& text, const std::string& area) {
  for (const auto& line : split_lines(text)) {
    if (line.size() > 2 && line.substr(2, area.size() + 1) == area + " ") return std::string(line);
  }
  return "";
}

TEST(MetalReplay, MacTreeHasAMetalLineNotExamined) {
  const std::string root = test::fixture_path("mac-m1pro-torch-mps");
  auto text = test::run_gpudoctor({"check", "--no-smoke", "--sysroot", root},
                                  {"HOME=/Users/dev", "PATH=/usr/bin:/bin"});
  EXPECT_EQ(area_line(text.out, "metal"),
            "? metal   Metal.framework is not loaded under --sysroot")
      << text.out;
  auto json = test::run_gpudoctor({"query", "--json", "--sysroot", root},
                                  {"HOME=/Users/dev", "PATH=/usr/bin:/bin"});
  const Json j = Json::parse(json.out);
  ASSERT_TRUE(j.contains("metal")) << json.out.substr(0, 400);
  EXPECT_TRUE(j["metal"]["devices"].empty());
  bool skipped = false;
  for (const auto& p : j["probes"]) {
    if (p["backend"] == "metal") skipped = p["status"] == "skipped";
  }
  EXPECT_TRUE(skipped);
}

TEST(MetalReplay, LinuxTreeSaysNothingAboutMetal) {
  const std::string root = test::fixture_path("kvm-virtio-vm");
  auto text = test::run_gpudoctor({"check", "--no-smoke", "--sysroot", root});
  EXPECT_EQ(area_line(text.out, "metal"), "") << text.out;
  EXPECT_EQ(text.out.find("Metal"), std::string::npos) << text.out;
  auto json = test::run_gpudoctor({"query", "--json", "--sysroot", root});
  const Json j = Json::parse(json.out);
  EXPECT_TRUE(!j.contains("metal") || j["metal"].is_null());
  for (const auto& p : j["probes"]) EXPECT_NE(p["backend"], "metal");
}

}  // namespace
}  // namespace gpudoctor
