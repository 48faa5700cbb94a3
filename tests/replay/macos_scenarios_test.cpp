// `gpudoctor query` and `check` on the seed Macs (tests/fixtures/mac-*/, each README names what
// its files come from), and the macOS checks on snapshots that differ from those in one fact.
// Each asserts the exact finding ids, their severity and the versions named in the fix.
#include <gtest/gtest.h>

#include <filesystem>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "devices.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace macos_scenarios_test {

/// The fixture Macs' user, and a PATH with no interpreter of this machine (test::run_gpudoctor
/// drops the shell's other choices), so that only a test's own variables count.
const std::vector<std::string> kQuietEnv = {"HOME=/Users/dev", "PATH=/usr/bin:/bin"};

struct Run {
  int exit_code;
  Json json;
};

Run run_on(const std::string& fixture, std::vector<std::string> env,
           std::vector<std::string> args = {}) {
  auto name_of = [](const std::string& kv) { return kv.substr(0, kv.find('=')); };
  std::vector<std::string> all = env;
  for (const auto& quiet : kQuietEnv) {
    bool given = false;
    for (const auto& e : env) given = given || name_of(e) == name_of(quiet);
    if (!given) all.push_back(quiet);
  }
  std::vector<std::string> argv = {"check", "--json", "--no-smoke", "--sysroot",
                                   test::fixture_path(fixture)};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test::run_gpudoctor(argv, all);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  return {r.exit_code, Json::parse(r.out)};
}

/// The fixture with another recorded environment (its .gpudoctor/environment.txt replaced by
/// kQuietEnv and `env`): the one way to vary what a recorded Mac's shell had set.
Run run_variant(const std::string& fixture, std::vector<std::string> env,
                std::vector<std::string> args = {}) {
  test::TempTree tmp;
  namespace fs = std::filesystem;
  const fs::path copy = fs::path(tmp.path()) / fixture;
  fs::copy(test::fixture_path(fixture), copy, fs::copy_options::recursive);
  std::string text;
  for (const auto& kv : kQuietEnv) text += kv + "\n";
  for (const auto& kv : env) text += kv + "\n";
  tmp.write(fixture + "/.gpudoctor/environment.txt", text);
  std::vector<std::string> argv = {"check", "--json", "--no-smoke", "--sysroot", copy.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test::run_gpudoctor(argv, {});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  return {r.exit_code, Json::parse(r.out)};
}

std::vector<Json> findings(const Run& r, const std::string& id) {
  std::vector<Json> out;
  for (const auto& f : r.json["findings"]) {
    if (f["id"] == id) out.push_back(f);
  }
  return out;
}

std::vector<std::string> macos_ids(const Run& r) {
  std::vector<std::string> out;
  for (const auto& f : r.json["findings"]) {
    if (f["area"] == "macos") out.push_back(f["id"]);
  }
  return out;
}

std::string fix_of(const Json& f) { return f.value("fix", ""); }

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const std::string kPlaidEnv = "CONDA_PREFIX=/Users/dev/opt/anaconda3/envs/plaidml";

TEST(MacosScenario, Seed001ExternalGpuIsListedLikeSystemProfiler) {
  auto r = test::run_gpudoctor(
      {"query", "--json", "--sysroot", test::fixture_path("mac-egpu-rx5700xt-plaidml")}, kQuietEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["macos"]["product_version"], "10.15.6");
  ASSERT_EQ(j["devices"].size(), 1u);
  const Json& d = j["devices"][0];
  EXPECT_EQ(d["name"], "Radeon RX 5700 XT");
  EXPECT_EQ(d["vendor_id"], 0x1002);
  EXPECT_EQ(d["device_id"], 0x731f);
  EXPECT_EQ(d["macos"]["external"], true);
  EXPECT_EQ(d["macos"]["pcie_lane_width"], 4);
  EXPECT_EQ(d["macos"]["vram_bytes"], 8ULL << 30);
  auto text = test::run_gpudoctor(
      {"query", "--sysroot", test::fixture_path("mac-egpu-rx5700xt-plaidml")}, kQuietEnv);
  EXPECT_TRUE(contains(text.out, "AMD · 1002:731f · external GPU x4 · rev 00c1")) << text.out;
  EXPECT_TRUE(contains(text.out, "8 GiB VRAM")) << text.out;
}

TEST(MacosScenario, Seed001PlaidmlNotSwitchedOnAndNotSetUp) {
  auto r = run_on("mac-egpu-rx5700xt-plaidml", {});  // CONDA_PREFIX: the tree's environment
  auto backend = findings(r, "macos.plaidml_backend");
  ASSERT_EQ(backend.size(), 1u);
  // Keras on its TensorFlow backend never reaches PlaidML: certain, so a failure.
  EXPECT_EQ(backend[0]["severity"], "fail");
  EXPECT_TRUE(contains(backend[0]["title"], "\"tensorflow\" backend"));
  EXPECT_TRUE(contains(backend[0]["title"], "plaidml-keras 0.7.0"));
  EXPECT_EQ(fix_of(backend[0]).rfind("export KERAS_BACKEND=plaidml.keras.backend", 0), 0u);
  ASSERT_EQ(findings(r, "macos.plaidml_setup").size(), 1u);
  EXPECT_EQ(findings(r, "macos.plaidml_setup")[0]["severity"], "warn");
  auto dead = findings(r, "macos.plaidml_unmaintained");
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0]["severity"], "info");
  EXPECT_EQ(dead[0]["source"], "https://github.com/plaidml/plaidml/issues/1998");
  EXPECT_EQ(r.exit_code, 1);  // Keras cannot reach the GPU

  // The seed's notebook sets KERAS_BACKEND, and plaidml-setup chose the eGPU.
  auto fixed = run_variant("mac-egpu-rx5700xt-plaidml",
                           {kPlaidEnv, "KERAS_BACKEND=plaidml.keras.backend",
                            "PLAIDML_DEVICE_IDS=metal_amd_radeon_rx_5700_xt.0"});
  EXPECT_EQ(macos_ids(fixed), std::vector<std::string>{"macos.plaidml_unmaintained"});
}

TEST(MacosScenario, Seed003MetalPluginForAnotherTensorflow) {
  auto r = run_on("mac-m1-miniforge-tf-metal", {});  // the tree's CONDA_PREFIX
  auto f = findings(r, "macos.tensorflow_metal");
  ASSERT_EQ(f.size(), 1u) << r.json["findings"].dump();
  EXPECT_EQ(f[0]["severity"], "fail");
  EXPECT_TRUE(contains(f[0]["title"], "tensorflow-metal 0.2.0"));
  EXPECT_TRUE(contains(f[0]["title"], "built for TensorFlow 2.6"));
  EXPECT_TRUE(contains(f[0]["title"], "tensorflow-macos 2.5.0"));
  // The seed's own fix: the plugin for 2.5, or the TensorFlow for the plugin.
  EXPECT_TRUE(contains(fix_of(f[0]), "pip install tensorflow-metal==0.1.2")) << fix_of(f[0]);
  EXPECT_TRUE(contains(fix_of(f[0]), "pip install \"tensorflow-macos==2.6.*\"")) << fix_of(f[0]);
  EXPECT_EQ(f[0]["source"], "https://pypi.org/project/tensorflow-metal/");
  EXPECT_EQ(macos_ids(r), std::vector<std::string>{"macos.tensorflow_metal"});
  EXPECT_EQ(r.exit_code, 1);
  // Not activated: the environment is still found under ~/miniforge3/envs.
  auto idle = run_variant("mac-m1-miniforge-tf-metal", {});
  EXPECT_EQ(macos_ids(idle), std::vector<std::string>{"macos.tensorflow_metal"});
  EXPECT_EQ(idle.json["snapshot"]["python"]["envs"][0]["found_by"], Json::array({"conda install"}));
}

TEST(MacosScenario, Seed004MpsNeedsMacos123) {
  auto r = run_on(
      "mac-m1pro-torch-mps", {},
      {"--python-env", "/Users/dev/envs/torch112", "--python-env", "/Users/dev/envs/torch21"});
  auto f = findings(r, "macos.mps");
  ASSERT_EQ(f.size(), 2u) << r.json["findings"].dump();
  for (const auto& one : f) {
    EXPECT_EQ(one["severity"], "info");  // the seed does not say its macOS version
    EXPECT_TRUE(contains(one["title"], "needs macOS 12.3 or later")) << one.dump();
    EXPECT_EQ(fix_of(one), "check with sw_vers -productVersion: MPS needs 12.3 or later");
    EXPECT_EQ(one["source"], "https://pytorch.org/docs/2.1/_sources/notes/mps.rst.txt");
  }
  EXPECT_TRUE(contains(f[0]["title"], "torch 1.12.0"));
  EXPECT_TRUE(contains(f[1]["title"], "torch 2.1.0"));
  EXPECT_EQ(r.json["snapshot"]["macos"]["cpu_brand"], "Apple M1 Pro");
  EXPECT_EQ(r.exit_code, 0);
}

TEST(MacosScenario, Seed002DyldLibraryPathForCuda) {
  // The tree's shell: DYLD_LIBRARY_PATH=$CUDA_HOME/lib:$CUDA_HOME/extras/CUPTI/lib, the only
  // way to the toolkit's libraries, which SIP strips (the seed's Jupyter lost it).
  auto r = run_on("mac-highsierra-gtx750ti-cuda", {});
  auto f = findings(r, "macos.dyld_library_path");
  ASSERT_EQ(f.size(), 1u) << r.json["findings"].dump();
  EXPECT_EQ(f[0]["severity"], "warn");
  EXPECT_TRUE(contains(f[0]["title"], "/usr/local/cuda/lib")) << f[0].dump();
  EXPECT_TRUE(contains(f[0]["title"], "SIP strips it")) << f[0].dump();
  EXPECT_TRUE(contains(f[0]["title"], "Library not loaded: @rpath/libcudart.9.2.dylib"))
      << f[0].dump();
  EXPECT_EQ(fix_of(f[0]).rfind("record the directory in the binary that loads the library, "
                               "which SIP does not strip: install_name_tool -add_rpath "
                               "/usr/local/cuda/lib ",
                               0),
            0u)
      << fix_of(f[0]);
  EXPECT_TRUE(contains(fix_of(f[0]), "kernel.json")) << fix_of(f[0]);
  EXPECT_TRUE(contains(f[0]["source"], "RuntimeProtections"));
  EXPECT_EQ(r.exit_code, 0);  // a warning: whether the person starts Jupyter that way is unknown
  // A DYLD_LIBRARY_PATH that leads to no toolkit stays a note.
  auto other = run_variant("mac-highsierra-gtx750ti-cuda", {"DYLD_LIBRARY_PATH=/opt/mylib/lib"});
  auto note = findings(other, "macos.dyld_library_path");
  ASSERT_EQ(note.size(), 1u);
  EXPECT_EQ(note[0]["severity"], "info");
  EXPECT_EQ(fix_of(note[0]),
            "record the directory in the binary instead: install_name_tool -add_rpath "
            "/opt/mylib/lib <the program or .so that loads the library>");
  // Without the variable only the toolkit is left to say something about: CUDA 9.2 on a Mac.
  auto unset = run_variant("mac-highsierra-gtx750ti-cuda", {});
  EXPECT_EQ(macos_ids(unset), std::vector<std::string>{"macos.cuda"}) << unset.json["findings"].dump();
}

TEST(MacosScenario, Seed002CudaOnMacosEndsWith102) {
  // The seed's CUDA 9.2 toolkit in /usr/local/cuda: NVIDIA's last macOS release is 10.2
  // (data/compat/cuda_platforms.json), so nothing newer will come for this Mac.
  auto r = run_on("mac-highsierra-gtx750ti-cuda", {});
  auto f = findings(r, "macos.cuda");
  ASSERT_EQ(f.size(), 1u) << r.json["findings"].dump();
  EXPECT_EQ(f[0]["severity"], "info");
  EXPECT_TRUE(contains(f[0]["title"], "CUDA on macOS ends with CUDA 10.2")) << f[0].dump();
  EXPECT_TRUE(contains(f[0].dump(), "CUDA toolkit 9.2.148")) << f[0].dump();
  EXPECT_TRUE(contains(fix_of(f[0]), "keep CUDA ≤ 10.2")) << f[0].dump();
  EXPECT_EQ(r.exit_code, 0);
}

TEST(MacosScenario, LinuxTreesHaveNoMacosSection) {
  auto r = run_on("kvm-virtio-vm", {"DYLD_LIBRARY_PATH=/opt/lib"});
  EXPECT_TRUE(macos_ids(r).empty());
  EXPECT_FALSE(r.json["snapshot"].contains("macos") && !r.json["snapshot"]["macos"].is_null());
  bool skipped = false;
  for (const auto& p : r.json["snapshot"]["probes"]) {
    if (p["backend"] == "macos") skipped = p["status"] == "skipped";
  }
  EXPECT_TRUE(skipped);
}

// --- the checks on snapshots one fact away from a seed ------------------------------------

Snapshot mac_snapshot(const std::string& version, bool arm64) {
  Snapshot s;
  s.macos = MacosInfo{};
  s.macos->product_version = version;
  s.macos->arm64 = arm64;
  s.python = PythonInfo{};
  return s;
}

PythonEnv env_with(const std::string& prefix, std::vector<std::string> archs,
                   std::optional<std::string> sdk, std::vector<PythonPackage> pkgs = {}) {
  PythonEnv e;
  e.kind = "conda";
  e.prefix = prefix;
  e.python_executable = prefix + "/bin/python3.8";
  e.executable_archs = archs;
  e.executable_macos_sdk = sdk;
  e.python_version = "3.8";
  e.packages = std::move(pkgs);
  return e;
}

std::vector<Finding> check(const Snapshot& s) { return test::run_all_checks(s); }

using test::with_id;

TEST(MacosScenario, X86PythonOnAppleSilicon) {
  // Seed 003's Miniforge, but the x86_64 installer (Mach-O x86_64, as binary_archs reads it).
  Snapshot s = mac_snapshot("12.6", true);
  s.python->envs.push_back(env_with("/Users/dev/miniforge3", {"x86_64"}, "11.3"));
  auto f = with_id(check(s), "macos.rosetta_python");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].fix->rfind("recreate the environment with arm64 packages: CONDA_SUBDIR=osx-arm64 "
                            "conda create -n <name> python=3.8",
                            0),
            0u);
  s.macos->translated = true;
  EXPECT_EQ(with_id(check(s), "macos.rosetta_shell").size(), 1u);
  // A universal2 interpreter runs natively; an Intel Mac has no Rosetta question.
  s.macos->translated = false;
  s.python->envs[0].executable_archs = std::vector<std::string>{"x86_64", "arm64"};
  EXPECT_TRUE(with_id(check(s), "macos.rosetta_python").empty());
  Snapshot intel = mac_snapshot("12.6", false);
  intel.python->envs.push_back(env_with("/Users/dev/miniforge3", {"x86_64"}, "11.3"));
  EXPECT_TRUE(with_id(check(intel), "macos.rosetta_python").empty());
}

TEST(MacosScenario, Seed000PythonToldMacos1016) {
  // Seed 000: macOS 12 on Intel, a conda Python 3.8 whose interpreter was linked against an
  // SDK older than 11 (10.14, as in the real header of tests/fixtures/macho).
  Snapshot s = mac_snapshot("12.6", false);
  s.python->envs.push_back(
      env_with("/Users/dev/miniconda3/envs/tf-metal-2.6", {"x86_64"}, "10.14"));
  auto f = with_id(check(s), "macos.version_compat");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_TRUE(contains(f[0].title, "told macOS 10.16 instead of 12.6"));
  EXPECT_EQ(*f[0].fix,
            "SYSTEM_VERSION_COMPAT=0 /Users/dev/miniconda3/envs/tf-metal-2.6/bin/python3.8 -m pip "
            "install <package> (or export SYSTEM_VERSION_COMPAT=0 in ~/.zshrc)");
  s.macos->system_version_compat = "0";  // the seed's fix
  EXPECT_TRUE(with_id(check(s), "macos.version_compat").empty());
  s.macos->system_version_compat = "1";  // forced for every program, new SDK or not
  s.python->envs[0].executable_macos_sdk = "13.1";
  EXPECT_EQ(*with_id(check(s), "macos.version_compat").at(0).fix,
            "unset SYSTEM_VERSION_COMPAT (remove it from ~/.zshrc), then pip install again");
  Snapshot catalina = mac_snapshot("10.15.6", false);  // no compatibility answer before 11
  catalina.python->envs.push_back(env_with("/p", {"x86_64"}, "10.9"));
  EXPECT_TRUE(with_id(check(catalina), "macos.version_compat").empty());
}

TEST(MacosScenario, MpsBelowItsMacosFloorAndBefore112) {
  PythonPackage torch;
  torch.name = "torch";
  torch.version = "2.1.0";
  Snapshot s = mac_snapshot("12.2", true);  // pytorch/pytorch#78343's macOS
  s.python->envs.push_back(env_with("/Users/dev/envs/t", {"arm64"}, "13.0", {torch}));
  auto f = with_id(check(s), "macos.mps");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(*f[0].fix, "upgrade macOS to 12.3 or later (System Settings → Software Update)");
  s.macos->product_version = "12.3";
  EXPECT_TRUE(with_id(check(s), "macos.mps").empty());
  s.python->envs[0].packages[0].version = "1.11.0";
  auto old = with_id(check(s), "macos.mps");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(*old[0].fix,
            "/Users/dev/envs/t/bin/python3.8 -m pip install --upgrade \"torch>=1.12\"");
}

TEST(MacosScenario, MetalPluginNeedsMacos121) {
  PythonPackage tf, metal;
  tf.name = "tensorflow-macos";
  tf.version = "2.9.0";
  metal.name = "tensorflow-metal";
  metal.version = "0.5.0";
  Snapshot s = mac_snapshot("12.0.1", true);
  s.python->envs.push_back(env_with("/e", {"arm64"}, "12.0", {tf, metal}));
  auto all = check(s);
  EXPECT_TRUE(with_id(all, "macos.tensorflow_metal").empty());  // 2.9 ↔ 0.5.0 is a pair
  auto f = with_id(all, "macos.tensorflow_metal_macos");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(*f[0].fix, "upgrade macOS to 12.1 or later");
}

TEST(MacosScenario, MoltenVkJoinsTheSystemProfilerGpu) {
  // A Mac Pro's two identical cards stay two devices; MoltenVK's view joins the one card of a
  // Mac where the vendor and device id say which it is.
  Snapshot s = mac_snapshot("13.4", false);
  MacGpu rx;
  rx.name = "Radeon RX 5700 XT";
  rx.vendor_id = 0x1002;
  rx.device_id = 0x731f;
  s.macos->gpus = {rx, rx};
  EXPECT_EQ(merge_devices(s).size(), 2u);
  s.macos->gpus = {rx};
  s.vulkan = VulkanInfo{};
  VulkanDevice vk;
  vk.name = "AMD Radeon RX 5700 XT";
  vk.type = "discrete_gpu";
  vk.vendor_id = 0x1002;
  vk.device_id = 0x731f;
  s.vulkan->devices = {vk};
  auto merged = merge_devices(s);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].in("macos"), std::vector<std::size_t>{0});
  EXPECT_EQ(merged[0].in("vulkan"), std::vector<std::size_t>{0});
}

}  // namespace macos_scenarios_test
}  // namespace gpudoctor
