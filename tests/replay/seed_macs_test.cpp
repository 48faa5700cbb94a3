// The seeds' Macs as a person meets them (issue 30): seed 000's Hackintosh from its own text
// (tests/fixtures/mac-hackintosh-rx570-tf-metal: the tree, its pip text and its Metal lines),
// every Mac tree diagnosed from the environment it recorded and none of the analysing
// machine's, a tree without one naming the variables it took, and the python line that
// follows its frameworks' pairing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace seed_macs_test {

const std::string kSeed000 = "mac-hackintosh-rx570-tf-metal";

/// Variables of an analysing machine that must not reach a recorded Mac's diagnosis.
const std::vector<std::string> kHostile = {
    "HOME=/root", "PATH=/opt/host/bin:/usr/bin:/bin", "CUDA_HOME=/usr/local/cuda",
    "CONDA_PREFIX=/opt/host/conda", "DYLD_LIBRARY_PATH=/opt/host/lib",
    "SYSTEM_VERSION_COMPAT=1", "KERAS_BACKEND=plaidml.keras.backend"};

std::vector<std::string> mac_fixtures() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(test::fixture_path(""))) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("mac-", 0) == 0) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The argument words of the fixture's replay.txt (NAME=value words would be environment).
std::vector<std::string> replay_words(const std::string& fixture, std::vector<std::string>* env) {
  std::ifstream in(test::fixture_path(fixture) + "/replay.txt");
  std::vector<std::string> args;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      const bool is_env = w.find('=') != std::string::npos && w[0] != '-';
      (is_env ? *env : args).push_back(w);
    }
  }
  return args;
}

std::string line_of(const std::string& text, const std::string& start) {
  for (const auto& line : split_lines(text)) {
    if (line.rfind(start, 0) == 0) return std::string(line);
  }
  return "";
}

test::CommandResult check(const std::string& fixture, const std::vector<std::string>& env,
                          bool json, std::vector<std::string> args = {}) {
  std::vector<std::string> argv = {"check", "--no-smoke", "--sysroot", test::fixture_path(fixture)};
  if (json) argv.insert(argv.begin() + 1, "--json");
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_gpudoctor(argv, env);
}

const Json* finding(const Json& report, const std::string& id) {
  for (const auto& f : report["findings"]) {
    if (f["id"] == id) return &f;
  }
  return nullptr;
}

TEST(SeedMacs, EveryMacTreeRecordsItsEnvironmentAndHonoursOnlyThat) {
  const auto fixtures = mac_fixtures();
  ASSERT_GE(fixtures.size(), 6u);
  for (const auto& fixture : fixtures) {
    SCOPED_TRACE(fixture);
    EXPECT_TRUE(std::filesystem::exists(test::fixture_path(fixture) +
                                        "/.gpudoctor/environment.txt"));
    std::vector<std::string> set_by_hand;
    const auto args = replay_words(fixture, &set_by_hand);
    EXPECT_EQ(set_by_hand, std::vector<std::string>{});
    // The same diagnosis whatever the analysing machine has set.
    auto quiet = check(fixture, {}, true, args);
    auto hostile = check(fixture, kHostile, true, args);
    ASSERT_TRUE(quiet.exit_code == 0 || quiet.exit_code == 1) << quiet.err;
    Json a = Json::parse(quiet.out);
    Json b = Json::parse(hostile.out);
    EXPECT_EQ(a["findings"], b["findings"]);
    EXPECT_EQ(a["areas"], b["areas"]);
    EXPECT_EQ(a["snapshot"]["python"], b["snapshot"]["python"]);
    EXPECT_EQ(b["snapshot"]["environment"]["source"], "recorded");
    EXPECT_EQ(b["snapshot"]["environment"]["file"], "/.gpudoctor/environment.txt");
    for (const char* host : {"/opt/host", "/root"}) {
      EXPECT_EQ(hostile.out.find(host), std::string::npos) << host << " in\n" << hostile.out;
    }
    EXPECT_EQ(hostile.err.find("took"), std::string::npos) << hostile.err;
  }
}

TEST(SeedMacs, AMacTreesReportNamesItsOwnEnvironment) {
  // Issue 30: the analysing machine's CUDA_HOME showed in the Mac eGPU's report.
  auto r = test::run_gpudoctor({"report", "--no-redact", "--sysroot",
                                test::fixture_path("mac-egpu-rx5700xt-plaidml")},
                               kHostile);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  EXPECT_FALSE(j["environment"].contains("CUDA_HOME")) << j["environment"].dump();
  EXPECT_FALSE(j["environment"].contains("DYLD_LIBRARY_PATH")) << j["environment"].dump();
  EXPECT_EQ(j["environment"]["CONDA_PREFIX"], "/Users/dev/opt/anaconda3/envs/plaidml")
      << j["environment"].dump();
}

TEST(SeedMacs, ATreeWithoutARecordedEnvironmentSaysWhichVariablesItTook) {
  // kvm-virtio-vm records no environment: the probes read this machine's, and the run says so.
  auto r = test::run_gpudoctor({"check", "--json", "--no-smoke", "--sysroot",
                                test::fixture_path("kvm-virtio-vm")},
                               {"CUDA_HOME=/opt/host/cuda", "HOME=/root", "GPUDOCTOR_TEST_UNREAD=1"});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["snapshot"]["environment"]["source"], "this machine");
  const Json& vars = j["snapshot"]["environment"]["variables"];
  EXPECT_NE(std::find(vars.begin(), vars.end(), "CUDA_HOME"), vars.end()) << vars.dump();
  EXPECT_NE(std::find(vars.begin(), vars.end(), "HOME"), vars.end()) << vars.dump();
  // Only what was asked for and set: a variable no probe reads is not named.
  EXPECT_EQ(std::find(vars.begin(), vars.end(), "GPUDOCTOR_TEST_UNREAD"), vars.end());
  EXPECT_NE(r.err.find("records no environment (.gpudoctor/environment.txt): took "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("CUDA_HOME"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("from this machine's environment"), std::string::npos) << r.err;
}

TEST(SeedMacs, Seed000TreeIsItsEnvironmentAndItsPairingHolds) {
  auto r = check(kSeed000, kHostile, true);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["snapshot"]["macos"]["product_version"], "12.0");
  EXPECT_EQ(j["snapshot"]["macos"]["memory_bytes"], 64ULL << 30);
  const Json& envs = j["snapshot"]["python"]["envs"];
  ASSERT_EQ(envs.size(), 1u) << envs.dump();
  EXPECT_EQ(envs[0]["prefix"], "/Users/dev/opt/anaconda3/envs/tf-metal-2.6");
  std::vector<std::string> names;
  for (const auto& p : envs[0]["packages"]) names.push_back(p["name"].get<std::string>() + " " +
                                                             p["version"].get<std::string>());
  EXPECT_NE(std::find(names.begin(), names.end(), "tensorflow-macos 2.6.0"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "tensorflow-metal 0.2.0"), names.end());
  // tensorflow-metal 0.2.0 is the plugin for TensorFlow 2.6 on macOS 12: nothing to fix.
  EXPECT_EQ(finding(j, "macos.tensorflow_metal"), nullptr) << j["findings"].dump();
  EXPECT_EQ(finding(j, "macos.tensorflow_metal_macos"), nullptr) << j["findings"].dump();
  auto text = check(kSeed000, {}, false);
  EXPECT_EQ(line_of(text.out, "✓ python").rfind("✓ python  1 environment; tensorflow-macos 2.6.0", 0),
            0u)
      << text.out;
}

TEST(SeedMacs, Seed000PipTextNamesTheMacos1016TrapAndItsFix) {
  const std::string pip = test::fixture_path(kSeed000 + "/seed-pip.txt");
  auto r = test::run_gpudoctor({"check", "--json", "--from", pip});
  Json j = Json::parse(r.out);
  ASSERT_TRUE(j.contains("findings")) << r.out << r.err;
  const Json* f = finding(j, "python.unsupported_wheel");
  ASSERT_NE(f, nullptr) << r.out;
  EXPECT_EQ((*f)["severity"], "warn");
  EXPECT_NE((*f)["title"].get<std::string>().find("macOS 10.16"), std::string::npos) << f->dump();
  EXPECT_NE((*f)["title"].get<std::string>().find("tensorflow-macos"), std::string::npos);
  EXPECT_EQ((*f)["fix"].get<std::string>().rfind(
                "on macOS 11 or later: SYSTEM_VERSION_COMPAT=0 python -m pip install <package>", 0),
            0u)
      << f->dump();
  ASSERT_FALSE((*f)["quotes"].empty());
  EXPECT_NE((*f)["quotes"][0].dump().find("macOS12"), std::string::npos) << f->dump();
  // With the wheel's name, a macosx_11_0 tag refused is the 10.16 trap itself.
  test::TempTree tmp;
  const std::string line = tmp.write(
      "pip.txt",
      "ERROR: tensorflow_macos-2.6.0-cp38-cp38-macosx_11_0_x86_64.whl is not a supported wheel "
      "on this platform.\n");
  auto named = test::run_gpudoctor({"check", "--json", "--from", line});
  Json n = Json::parse(named.out);
  const Json* trap = finding(n, "macos.version_compat");
  ASSERT_NE(trap, nullptr) << named.out;
  EXPECT_EQ((*trap)["severity"], "fail");
  EXPECT_NE((*trap)["title"].get<std::string>().find("macosx_11_0_x86_64"), std::string::npos);
  EXPECT_EQ((*trap)["fix"].get<std::string>().rfind(
                "SYSTEM_VERSION_COMPAT=0 python -m pip install tensorflow_macos", 0),
            0u)
      << trap->dump();
  EXPECT_EQ(finding(n, "python.unsupported_wheel"), nullptr) << named.out;
  EXPECT_EQ(named.exit_code, 1);
}

TEST(SeedMacs, Seed000MetalLinesAreRead) {
  auto r = test::run_gpudoctor(
      {"check", "--json", "--from", test::fixture_path(kSeed000 + "/seed-metal.txt")});
  Json j = Json::parse(r.out);
  ASSERT_TRUE(j.contains("snapshot")) << r.out;
  std::map<std::string, std::string> seen;
  for (const auto& s : j["snapshot"]["symptoms"]) {
    for (const auto& [k, v] : s["values"].items()) {
      if (v.is_string() && !v.get<std::string>().empty()) {
        seen[s["id"].get<std::string>() + "." + k] = v.get<std::string>();
      }
    }
  }
  EXPECT_EQ(seen["tensorflow.metal_device.device"], "AMD Radeon RX 570") << j["snapshot"].dump();
  EXPECT_EQ(seen["tensorflow.metal_memory.system_memory"], "64.00 GB");
  EXPECT_EQ(seen["tensorflow.metal_memory.max_cache_size"], "4.00 GB");
  // The person's question answered: TensorFlow reached the GPU, a note and no failure.
  const Json* reached = finding(j, "metal.tensorflow_device");
  ASSERT_NE(reached, nullptr) << r.out;
  EXPECT_EQ((*reached)["severity"], "info");
  EXPECT_NE((*reached)["title"].get<std::string>().find("AMD Radeon RX 570"), std::string::npos);
  EXPECT_EQ(r.exit_code, 0);
}

TEST(SeedMacs, AFrameworkLineFollowsItsPairing) {
  // Seed 003 (tensorflow-metal 0.2.0 beside tensorflow-macos 2.5.0) and the M2 Max (metal 1.1.0
  // beside TensorFlow 2.18): the pairing fails under macos, and the python line says so.
  for (const char* fixture : {"mac-m1-miniforge-tf-metal", "mac-m2max-tf218-metal110"}) {
    auto r = check(fixture, {}, false);
    const std::string python = line_of(r.out, "✗ python");
    EXPECT_FALSE(python.empty()) << r.out;
    EXPECT_NE(python.find("fails with its pairing under macos"), std::string::npos) << r.out;
    auto j = Json::parse(check(fixture, {}, true).out);
    for (const auto& a : j["areas"]) {
      if (a["area"] == "python") {
        EXPECT_EQ(a["state"], "fail") << a.dump();
      }
    }
  }
  // Seed 004's MPS notes (its macOS version unknown) leave the line as it was.
  auto mps = check("mac-m1pro-torch-mps", {}, false,
                   {"--python-env", "/Users/dev/envs/torch112", "--python-env",
                    "/Users/dev/envs/torch21"});
  EXPECT_FALSE(line_of(mps.out, "✓ python").empty()) << mps.out;
}

TEST(SeedMacs, Seed002ToolkitLineIsNotFineOnAVersionFileAlone) {
  auto r = check("mac-highsierra-gtx750ti-cuda", {}, false);
  const std::string cuda = line_of(r.out, "? cuda");
  EXPECT_FALSE(cuda.empty()) << r.out;
  EXPECT_NE(cuda.find("toolkit 9.2.148 at /usr/local/cuda (only its version.txt"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(line_of(r.out, "✓ cuda").empty()) << r.out;
}

}  // namespace seed_macs_test
}  // namespace gpudoctor
