// The framework tables where a release is missing or newer than them: tensorflow-metal against
// TensorFlow (tests/fixtures/mac-m2max-tf218-metal110, from tensorflow/tensorflow#84167), the MPS
// macOS floor between and after the documented releases, and the note that says a release is
// newer than the tables instead of falling silent.
#include <gtest/gtest.h>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "compat/compat_query.hpp"
#include "devices.hpp"
#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using test::with_id;

std::vector<Finding> check(const Snapshot& s) { return test::run_all_checks(s); }

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

PythonPackage package(const std::string& name, const std::string& version) {
  PythonPackage p;
  p.name = name;
  p.version = version;
  return p;
}

Snapshot mac_with(const std::string& macos, std::vector<PythonPackage> pkgs) {
  Snapshot s;
  s.macos = MacosInfo{};
  s.macos->product_version = macos;
  s.macos->arm64 = true;
  s.python = PythonInfo{};
  PythonEnv e;
  e.kind = "venv";
  e.prefix = "/Users/dev/env";
  e.python_executable = "/Users/dev/env/bin/python3.11";
  e.executable_archs = std::vector<std::string>{"arm64"};
  e.python_version = "3.11";
  e.packages = std::move(pkgs);
  s.python->envs.push_back(e);
  return s;
}

TEST(MetalTable, Tf218WithMetal110IsAFailureWithThePluginFor218) {
  // tensorflow/tensorflow#84167: M2 Max, macOS 15.2, tensorflow-metal 1.1.0 after TF 2.18.
  const std::string prefix = "/Users/mspanchenko/anaconda3/envs/cryptoNN_ml_core";
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--sysroot",
       test::fixture_path("mac-m2max-tf218-metal110")},
      {"HOME=/Users/mspanchenko", "PATH=/usr/bin:/bin", "CONDA_PREFIX=" + prefix});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  std::vector<Json> metal;
  const Json report = Json::parse(r.out);
  for (const auto& f : report["findings"]) {
    if (f["id"] == "macos.tensorflow_metal") metal.push_back(f);
  }
  ASSERT_EQ(metal.size(), 1u) << r.out;
  EXPECT_EQ(metal[0]["severity"], "fail");
  const std::string title = metal[0]["title"];
  EXPECT_TRUE(contains(title, "built for TensorFlow 2.14–2.17")) << title;
  EXPECT_TRUE(contains(title, "tensorflow 2.18.0 is installed")) << title;
  const std::string fix = metal[0]["fix"];
  EXPECT_TRUE(contains(fix, "pip install tensorflow-metal==1.2.0 (the plugin for tensorflow 2.18)"))
      << fix;
  EXPECT_EQ(r.exit_code, 1);
}

TEST(MetalTable, RowsNoLongerStretchOver218) {
  const auto& data = builtin_compat();
  auto v110 = tensorflow_metal_release(data, *parse_version("1.1.0"));
  ASSERT_TRUE(v110);
  EXPECT_FALSE(in_range(*parse_version("2.18.0"), v110->tensorflow));
  EXPECT_TRUE(in_range(*parse_version("2.17.1"), v110->tensorflow));
  auto for218 = tensorflow_metal_for_tf(data, *parse_version("2.18.0"));
  ASSERT_TRUE(for218);
  EXPECT_EQ(for218->plugin.text, "1.2.0");
}

TEST(MetalTable, TensorflowNewerThanTheNewestPairingIsANote) {
  // 1.2.0 is the newest plugin; whether it loads with TensorFlow 2.19 is not in any source read.
  auto s =
      mac_with("15.2", {package("tensorflow", "2.19.0"), package("tensorflow-metal", "1.2.0")});
  auto f = with_id(check(s), "macos.tensorflow_metal");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::info);
  EXPECT_TRUE(contains(f[0].title, "is not in gpudoctor's tables")) << f[0].title;
}

TEST(MpsTable, ReleasesBetweenDocumentedFloorsAreJudgedByTheirNeighbours) {
  // torch 2.5 has no row; 1.12–2.1 need 12.3 and 2.14 needs 14.0.
  auto below = with_id(check(mac_with("12.2", {package("torch", "2.5.1")})), "macos.mps");
  ASSERT_EQ(below.size(), 1u);
  EXPECT_EQ(below[0].severity, Severity::fail);
  EXPECT_EQ(*below[0].fix, "upgrade macOS to 12.3 or later (System Settings → Software Update)");
  auto between = with_id(check(mac_with("13.1", {package("torch", "2.5.1")})), "macos.mps");
  ASSERT_EQ(between.size(), 1u);
  EXPECT_EQ(between[0].severity, Severity::info);
  EXPECT_TRUE(contains(between[0].title, "not in gpudoctor's tables"));
  EXPECT_TRUE(with_id(check(mac_with("14.5", {package("torch", "2.5.1")})), "macos.mps").empty());
}

TEST(MpsTable, ReleaseNewerThanTheTableIsNeverSilent) {
  auto ok = with_id(check(mac_with("15.0", {package("torch", "2.15.0")})), "macos.mps");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].severity, Severity::info);
  EXPECT_TRUE(contains(ok[0].title, "newer than gpudoctor's MPS table")) << ok[0].title;
  auto old = with_id(check(mac_with("13.6", {package("torch", "2.15.0")})), "macos.mps");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].severity, Severity::fail);  // below the newest floor known: 14.0
}

TEST(NewerThanTables, TorchAndTensorflowBeyondTheTablesAreNamed) {
  auto s = mac_with("15.0", {package("torch", "2.99.0"), package("tensorflow", "2.99.0"),
                             package("tensorflow-metal", "9.0.0")});
  auto f = with_id(check(s), "compat.newer_than_tables");
  ASSERT_EQ(f.size(), 3u);
  for (const auto& one : f) {
    EXPECT_EQ(one.severity, Severity::info);
    EXPECT_TRUE(contains(one.title, "newer than gpudoctor's")) << one.title;
    EXPECT_FALSE(one.evidence.empty());
  }
  EXPECT_TRUE(contains(f[0].title, "(newest: torch 2.14)")) << f[0].title;
  // A release the tables hold raises nothing.
  EXPECT_TRUE(
      with_id(check(mac_with("15.0", {package("torch", "2.5.1")})), "compat.newer_than_tables")
          .empty());
}

}  // namespace
}  // namespace gpudoctor
