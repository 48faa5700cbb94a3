// Never ✓ without evidence (docs/severity.md), on the fixture machines: an area is ok only when
// something was examined and found fine; "nothing there" and "not examined" are states of their
// own, in the text, the JSON and the report; one cause gives one finding; and no two fixes of one
// run contradict each other.
#include <gtest/gtest.h>

#include <filesystem>

#include "area_check.hpp"
#include "checks/area_status.hpp"
#include "checks/checks.hpp"
#include "fix_contradictions.hpp"
#include "pci_gpu.hpp"

namespace gpudoctor {
namespace {

using test::check;
using test::count;
using test::state;
using test::expect_text_matches_states;
using test::actions_of;
using test::contradictions;

TEST(AreaStatus, EveryFixtureMachineIsOkOnlyWhereSomethingWasExamined) {
  for (const char* m : {"kvm-virtio-vm", "server-a100-sxm4", "nvidia-nouveau-bound",
                        "rocm-rx6700xt-gfx1031", "mac-m1pro-torch-mps", "python-venv-torch-cu124"}) {
    SCOPED_TRACE(m);
    auto c = check({"--sysroot", test::fixture_path(m)});
    expect_text_matches_states(c);
    // Vendor libraries are never loaded under --sysroot: OpenCL, Vulkan and libcuda are never ✓
    // from a run that did not load them.
    for (const char* api : {"opencl", "vulkan"}) EXPECT_NE(state(c, api), "ok") << api;
  }
}

TEST(AreaStatus, CudaIsNoQuestionWhereNothingNvidiaIsThere) {
  // Issue 30: "? cuda libcuda is not loaded" on Apple silicon. A Mac with no NVIDIA GPU, driver,
  // toolkit or libcuda has no cuda line at all; a Linux tree with none of them a plain "–" line,
  // not a "?" counted among the areas not examined.
  for (const char* m : {"mac-m1pro-torch-mps", "mac-m1-miniforge-tf-metal", "mac-m2max-tf218-metal110",
                        "mac-hackintosh-rx570-tf-metal", "mac-egpu-rx5700xt-plaidml"}) {
    SCOPED_TRACE(m);
    auto c = check({"--sysroot", test::fixture_path(m)});
    EXPECT_EQ(state(c, "cuda"), "(no line)");
    EXPECT_EQ(c.text.find(" cuda "), std::string::npos) << c.text;
    EXPECT_EQ(c.text.find("libcuda"), std::string::npos) << c.text;
  }
  for (const char* m : {"rocm-rx6700xt-gfx1031", "corpus-healthy-llamacpp-5700g-gfx90c"}) {
    SCOPED_TRACE(m);
    auto c = check({"--sysroot", test::fixture_path(m)});
    EXPECT_EQ(state(c, "cuda"), "absent");
    expect_text_matches_states(c);
  }
  // Where NVIDIA is there the question stays: seed 002's Mac (a GTX 750 Ti, CUDA 9.2's
  // version.txt) and a Linux tree whose libcuda is not loaded under --sysroot.
  EXPECT_EQ(state(check({"--sysroot", test::fixture_path("mac-highsierra-gtx750ti-cuda")}), "cuda"),
            "not_examined");
  EXPECT_EQ(state(check({"--sysroot", test::fixture_path("rtx5090-torch-cu121-no-sm120")}), "cuda"),
            "not_examined");
}

TEST(AreaStatus, APciBusThatWasNeverReadIsNotExamined) {
  // The stale-dkms capture holds no /sys/bus/pci: the GPU line used to be "✓ no GPU".
  auto c = check({"--sysroot", test::fixture_path("nvidia-dkms-stale-module")});
  EXPECT_EQ(state(c, "gpu"), "not_examined");
  EXPECT_NE(c.areas["gpu"]["summary"].get<std::string>().find("not read"), std::string::npos);
  EXPECT_EQ(count(c, "gpu.none"), 0);  // no claim about GPUs from a bus never read
}

TEST(AreaStatus, AMachineWithoutAnyGpuSaysSoAsAWarning) {
  auto c = check({"--sysroot", test::fixture_path("kvm-virtio-vm")});
  EXPECT_EQ(state(c, "gpu"), "warn");
  EXPECT_EQ(count(c, "gpu.none"), 1);
  EXPECT_EQ(state(c, "nvidia"), "not_examined");  // the capture holds no /proc/modules
  EXPECT_EQ(state(c, "python"), "absent");
  EXPECT_EQ(c.exit_code, 0);  // a warning, not a failure
}

TEST(AreaStatus, NoNvidiaDriverNextToAnNvidiaGpuIsNeverOk) {
  // hwloc#653's A100 with no driver bound: one finding, the NVIDIA module's.
  auto c = check({"--sysroot", test::fixture_path("server-a100-sxm4")});
  EXPECT_EQ(state(c, "nvidia"), "fail");
  EXPECT_EQ(count(c, "nvidia.module_not_loaded"), 1);
  EXPECT_EQ(count(c, "gpu.no_driver"), 0);
  EXPECT_EQ(state(c, "gpu"), "info");  // listed, not ✓: it has no driver
  // The same GPU handed to a VM (vfio-pci): no driver of NVIDIA's, said as such, never ✓.
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(
      test::pci_gpu(0x10de, 0x20b0, "vfio-pci", std::nullopt, "0000:da:00.0", 0x030200));
  s.pci->devices_scanned = 1;
  s.nvidia = NvidiaSystem{};
  s.nvidia->kernel.modules_listed = true;
  auto devices = merge_devices(s);
  auto findings = run_checks(CheckInput{s, devices, builtin_compat()});
  for (const auto& a : area_statuses(s, devices, findings)) {
    if (a.area == "nvidia") EXPECT_EQ(a.state, AreaState::absent) << a.summary;
    if (a.area == "gpu") EXPECT_EQ(a.state, AreaState::info) << a.summary;  // reserved for a VM
  }
}

TEST(AreaStatus, ATargetNoInstalledRocmJudgesIsNotOk) {
  // rocm-libraries#8119's gfx1031 with no ROCm in the capture: nothing judged the target.
  auto c = check({"--sysroot", test::fixture_path("rocm-rx6700xt-gfx1031")});
  EXPECT_EQ(state(c, "rocm"), "absent");
  EXPECT_NE(c.areas["rocm"]["summary"].get<std::string>().find("no ROCm installed"),
            std::string::npos);
}

TEST(AreaStatus, APoclWithoutItsCacheReplayedFromItsReportIsNotOk) {
  // tests/fixtures/pocl-no-cache-dir: this machine's report with HOME=/proc (PoCL: 0 devices).
  auto c = check({"--from", test::fixture_path("pocl-no-cache-dir") + "/report.json"});
  EXPECT_EQ(state(c, "opencl"), "warn");
  ASSERT_EQ(count(c, "opencl.no_device"), 1) << c.findings.dump(2);
  EXPECT_EQ(state(c, "gpu"), "warn");  // and no GPU in the container either
}

TEST(AreaStatus, TheReportCarriesTheStates) {
  auto r = test::run_gpudoctor({"report", "--sysroot", test::fixture_path("kvm-virtio-vm")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  ASSERT_TRUE(j.contains("areas")) << r.out.substr(0, 400);
  bool gpu = false;
  for (const auto& a : j["areas"]) gpu = gpu || (a["area"] == "gpu" && a["state"] == "warn");
  EXPECT_TRUE(gpu);
}

TEST(FixContradictions, TheReaderSeesInstallsRemovalsAndPins) {
  auto a = actions_of("pip uninstall tensorflow-cpu && pip install 'tensorflow[and-cuda]==2.15.0'");
  EXPECT_EQ(a.removes, (std::set<std::string>{"tensorflow-cpu"}));
  EXPECT_EQ(a.installs, (std::set<std::string>{"tensorflow"}));
  EXPECT_EQ(a.pins.at("tensorflow"), "2.15.0");
  auto b = actions_of("pip install --force-reinstall torch==2.5.1 --index-url "
                      "https://download.pytorch.org/whl/cu124 (the newest CUDA build)");
  EXPECT_EQ(b.installs, (std::set<std::string>{"torch"}));
  auto c = actions_of("sudo apt install nvidia-driver firmware-misc-nonfree, then reboot");
  EXPECT_EQ(c.installs, (std::set<std::string>{"nvidia-driver", "firmware-misc-nonfree"}));
  // A contradiction is found where there is one.
  Json fs = Json::array({{{"id", "a.install"}, {"fix", "pip install jax==0.4.35"}},
                         {{"id", "b.remove"}, {"fix", "pip uninstall jax"}},
                         {{"id", "c.pin"}, {"fix", "pip install 'jax==0.4.30'"}}});
  EXPECT_EQ(contradictions(fs).size(), 3u);  // install vs remove twice, and two pins
}

std::vector<std::string> machines() {
  std::vector<std::string> out;
  const std::set<std::string> not_machines = {"fuzz", "macho", "macos-system-profiler", "tools"};
  for (const auto& e : std::filesystem::directory_iterator(test::fixture_path(""))) {
    if (e.is_directory() && not_machines.count(e.path().filename().string()) == 0) {
      out.push_back(e.path().filename().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FixContradictions, NoFixtureMachineGetsFixesThatContradict) {
  const auto all = machines();
  ASSERT_GE(all.size(), 20u);
  for (const auto& m : all) {
    SCOPED_TRACE(m);
    auto r = test::run_gpudoctor({"check", "--json", "--sysroot", test::fixture_path(m)});
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
    const Json findings = Json::parse(r.out)["findings"];
    const auto found = contradictions(findings);
    std::string text;
    for (const auto& c : found) text += c + "\n";
    EXPECT_TRUE(found.empty()) << text;
  }
}

TEST(FixContradictions, NoScenarioEnvironmentGetsFixesThatContradict) {
  // The fixtures again with the environment their scenario tests give them: an activated env,
  // the image's NVIDIA_VISIBLE_DEVICES, the user whose site-packages hold the frameworks.
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"nvidia-container-no-gpus", {"NVIDIA_VISIBLE_DEVICES=all"}},
      {"mac-egpu-rx5700xt-plaidml",
       {"HOME=/Users/dev", "CONDA_PREFIX=/Users/dev/opt/anaconda3/envs/plaidml"}},
      {"mac-m1-miniforge-tf-metal",
       {"HOME=/Users/dev", "CONDA_PREFIX=/Users/dev/miniforge3/envs/tensorflow_m1"}},
      {"python-venv-jax-plugin-mismatch",
       {"HOME=/home/user", "CONDA_PREFIX=/home/user/recovar/.pixi/envs/default"}},
      {"python-user-jax-cuda12", {"HOME=/home/ana"}},
  };
  for (const auto& [m, env] : runs) {
    SCOPED_TRACE(m);
    auto r = test::run_gpudoctor({"check", "--json", "--sysroot", test::fixture_path(m)}, env);
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
    const auto found = contradictions(Json::parse(r.out)["findings"]);
    std::string text;
    for (const auto& c : found) text += c + "\n";
    EXPECT_TRUE(found.empty()) << text;
  }
}

}  // namespace
}  // namespace gpudoctor
