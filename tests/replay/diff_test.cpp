// `gpudoctor diff`: what differs that matters between a machine that works and one that does
// not, most important first.
#include "report/diff.hpp"

#include <gtest/gtest.h>

#include "devices.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// HOME is the fixture Macs' user; PATH holds no interpreter of this machine, so that the
/// fixture alone decides (test::run_gpudoctor drops the shell's other choices).
const std::vector<std::string> kQuietEnv = {"HOME=/Users/dev", "PATH=/usr/bin:/bin"};

/// `gpudoctor report` of a fixture machine, written to a file in `tmp`.
std::string report_of(const test::TempTree& tmp, const std::string& fixture,
                      const std::vector<std::string>& args = {}) {
  const std::string file = tmp.path() + "/" + fixture + ".json";
  std::vector<std::string> argv = {"report", "-o", file, "--sysroot", test::fixture_path(fixture)};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test::run_gpudoctor(argv, kQuietEnv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return file;
}

/// `gpudoctor diff --json A B`, a line per difference in its order: "area: what | A | B", with
/// "-" for a fact the machine lacks and only the severity of a finding (its title is the
/// check's to word).
std::vector<std::string> diff_lines(const std::string& a, const std::string& b) {
  auto r = test::run_gpudoctor({"diff", "--json", a, b});
  // Like diff(1): 1 when the reports differ, 0 when they do not.
  EXPECT_EQ(r.exit_code, Json::parse(r.out)["differences"].empty() ? 0 : 1) << r.err;
  auto side = [](const Json& d, const char* key) -> std::string {
    if (d[key].is_null()) return "-";
    const std::string v = d[key];
    return d["area"] == "finding" ? v.substr(0, v.find(':')) : v;
  };
  const Json diffs = Json::parse(r.out)["differences"];
  std::vector<std::string> out;
  for (const auto& d : diffs) {
    out.push_back(d["area"].get<std::string>() + ": " + d["what"].get<std::string>() + " | " +
                  side(d, "a") + " | " + side(d, "b"));
  }
  return out;
}

TEST(DiffCli, MismatchedDriverAgainstAHealthyMachineLeadsWithTheFailure) {
  test::TempTree tmp;
  const std::string healthy = report_of(tmp, "nvidia-several-toolkits");
  const std::string broken = report_of(tmp, "nvidia-driver-library-mismatch");

  auto r = test::run_gpudoctor({"diff", "--json", healthy, broken});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const Json diffs = Json::parse(r.out)["differences"];
  ASSERT_GE(diffs.size(), 3u);
  EXPECT_EQ(diffs[0]["area"], "finding");
  EXPECT_EQ(diffs[0]["what"], "nvidia.driver_library_mismatch");
  EXPECT_TRUE(diffs[0]["a"].is_null());
  EXPECT_NE(diffs[0]["b"].get<std::string>().find("fail"), std::string::npos);
  bool saw_module = false;
  bool saw_toolkits = false;
  for (const auto& d : diffs) {
    if (d["what"] == "NVIDIA kernel module") {
      saw_module = true;
      EXPECT_EQ(d["b"], "550.90.07");
    }
    if (d["what"] == "CUDA toolkits") saw_toolkits = !d["a"].is_null() && d["b"].is_null();
  }
  EXPECT_TRUE(saw_module) << r.out;
  EXPECT_TRUE(saw_toolkits) << r.out;
  for (std::size_t i = 1; i < diffs.size(); ++i) {
    EXPECT_LE(diffs[i - 1]["rank"].get<int>(), diffs[i]["rank"].get<int>());
  }

  auto text = test::run_gpudoctor({"diff", healthy, broken});
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(text.out.find("finding: nvidia.driver_library_mismatch\n  A: (none)\n  B: fail: "),
            text.out.find("finding:"));
  EXPECT_NE(text.out.find("most important first"), std::string::npos);
}

TEST(DiffCli, AReportAgainstItselfHasNoDifferences) {
  test::TempTree tmp;
  const std::string a = report_of(tmp, "nvidia-dkms-stale-module");
  auto r = test::run_gpudoctor({"diff", a, a});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("No differences that matter."), std::string::npos) << r.out;
}

TEST(DiffCli, RocmUserNotInRenderAgainstAnRx6700XtWithoutDevFiles) {
  // No failure on either side: the devices lead (which GPU each has decides what the rest
  // means), then the desktop's amdgpu module, /dev and groups (the RX 6700 XT's tree holds only
  // the KFD topology, so it has no such facts), then the desktop's warning and the RX 6700 XT's
  // note (gfx1031 is no target of the newest ROCm in the table; no ROCm is installed there).
  test::TempTree tmp;
  const auto lines = diff_lines(report_of(tmp, "rocm-desktop-not-in-render"),
                                report_of(tmp, "rocm-rx6700xt-gfx1031"));
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "devices: device count | 0 | 1",
                       "devices: names | - | AMD GPU (gfx1031)",
                       "devices: AMD GPU targets (KFD) | - | gfx1031",
                       "driver: amdgpu kernel module | loaded (live) | -",
                       "access: ROCm device files | /dev/dri/renderD128 | -",
                       "access: in group video | no | -",
                       "access: in group render | no | -",
                       "finding: rocm.not_in_group | warn | -",
                       "finding: rocm.gfx_unsupported | - | info",
                   }));
}

TEST(DiffCli, RenderGroupAddedButNotActiveIsTheOneAccessDifference) {
  test::TempTree tmp;
  const auto lines = diff_lines(report_of(tmp, "rocm-desktop-not-in-render"),
                                report_of(tmp, "rocm-desktop-render-not-active"));
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "access: in group render | no | listed for the user, not active in this "
                       "session",
                       "finding: rocm.not_in_group | warn | -",
                       "finding: rocm.group_not_active | - | warn",
                   }));
}

TEST(DiffCli, M1ProWithTorchAgainstM1WithTensorflowMetal) {
  // Seeds 004 and 003: the failing plugin first, the frameworks, then what each sysctl said.
  // Both torch environments' MPS notes are one difference, not the last one alone.
  test::TempTree tmp;
  const std::string torch = report_of(
      tmp, "mac-m1pro-torch-mps",
      {"--python-env", "/Users/dev/envs/torch112", "--python-env", "/Users/dev/envs/torch21"});
  const std::string tf = report_of(tmp, "mac-m1-miniforge-tf-metal");
  EXPECT_EQ(diff_lines(torch, tf), (std::vector<std::string>{
                                       "finding: macos.tensorflow_metal | - | fail",
                                       "framework: torch | 1.12.0, 2.1.0 | -",
                                       "framework: tensorflow-macos | - | 2.5.0",
                                       "framework: tensorflow-metal | - | 0.2.0",
                                       "macos: chip | Apple M1 Pro | -",
                                       "macos: memory | 16 GiB | -",
                                       "finding: macos.mps | info | -",
                                   }));
  auto r = test::run_gpudoctor({"diff", "--json", torch, tf});
  const std::string mps = Json::parse(r.out)["differences"].back()["a"];
  EXPECT_NE(mps.find("torch 1.12.0"), std::string::npos) << mps;
  EXPECT_NE(mps.find("; info: torch 2.1.0"), std::string::npos) << mps;
}

TEST(DiffCli, IntelMacWithAnEgpuAgainstAppleSilicon) {
  // Seed 001's eGPU Mac against seed 004's M1 Pro: the failure leads, then the devices (the
  // eGPU, its Metal family and link), then the macOS version, as the OS carries the GPU
  // drivers; the PlaidML environment's packages after those, the warnings, the chip.
  test::TempTree tmp;
  const auto lines = diff_lines(report_of(tmp, "mac-egpu-rx5700xt-plaidml"),
                                report_of(tmp, "mac-m1pro-torch-mps"));
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "finding: macos.plaidml_backend | fail | -",  // a failure leads
                       "devices: names | Radeon RX 5700 XT | -",
                       "devices: device count | 1 | 0",
                       "macos: Metal | Radeon RX 5700 XT: macOS GPUFamily2 v1 | -",
                       "macos: external GPUs | Radeon RX 5700 XT (PCIe x4) | -",
                       "driver: macOS | 10.15.6 (19G2021) | -",
                       "framework: keras | 2.2.4 | -",
                       "framework: plaidml | 0.7.0 | -",
                       "framework: plaidml-keras | 0.7.0 | -",
                       "python: Python versions | 3.7 | -",
                       "finding: macos.plaidml_setup | warn | -",
                       "macos: chip | - | Apple M1 Pro",
                       "macos: Apple silicon | - | yes",
                       "macos: memory | - | 16 GiB",
                       "finding: macos.plaidml_unmaintained | info | -",
                   }));
}

Snapshot with_torch(const std::string& build, const std::string& python) {
  Snapshot s;
  s.python = PythonInfo{};
  PythonEnv env;
  env.kind = "venv";
  env.prefix = "/opt/venv";
  env.python_version = python;
  PythonPackage torch;
  torch.name = "torch";
  torch.version = build.substr(0, build.find('+'));
  torch.torch = TorchBuildInfo{};
  torch.torch->version = build;
  env.packages.push_back(torch);
  s.python->envs.push_back(env);
  s.host = HostInfo{};
  s.host->os_pretty_name = "Debian GNU/Linux 12 (bookworm)";
  return s;
}

TEST(DiffMachines, FrameworkBuildComesBeforePythonAndTheSameOsIsNotADifference) {
  const Snapshot a = with_torch("2.5.1+cu124", "3.11.9");
  const Snapshot b = with_torch("2.5.1+cpu", "3.12.3");
  const std::vector<MergedDevice> none;
  const std::vector<Finding> no_findings;
  const auto diffs = diff_machines({a, none, no_findings}, {b, none, no_findings});
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].what, "torch");
  EXPECT_EQ(diffs[0].a, "2.5.1+cu124");
  EXPECT_EQ(diffs[0].b, "2.5.1+cpu");
  EXPECT_EQ(diffs[1].what, "Python versions");
}

Snapshot mac_with_python(bool rosetta, const std::string& arch) {
  Snapshot s;
  s.macos = MacosInfo{};
  s.macos->arm64 = true;
  s.macos->translated = rosetta;
  s.python = PythonInfo{};
  PythonEnv env;
  env.kind = "conda";
  env.prefix = "/Users/dev/miniforge3";
  env.executable_archs = std::vector<std::string>{arch};
  s.python->envs.push_back(env);
  return s;
}

TEST(DiffMachines, AnX86PythonUnderRosettaAgainstANativeOne) {
  const Snapshot a = mac_with_python(true, "x86_64");
  const Snapshot b = mac_with_python(false, "arm64");
  const std::vector<MergedDevice> none;
  const std::vector<Finding> no_findings;
  const auto diffs = diff_machines({a, none, no_findings}, {b, none, no_findings});
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].what, "Python interpreter architectures");
  EXPECT_EQ(diffs[0].a, "x86_64");
  EXPECT_EQ(diffs[0].b, "arm64");
  EXPECT_EQ(diffs[1].what, "runs under Rosetta");
  EXPECT_EQ(diffs[1].a, "yes");
  EXPECT_EQ(diffs[1].b, "no");
}

Snapshot rocm_with_installs(std::uint32_t uid, const std::string& default_version) {
  Snapshot s;
  s.rocm = RocmInfo{};
  for (const char* v : {"6.2.4", "6.3.0"}) {
    s.rocm->installs.push_back(
        {std::string("/opt/rocm-") + v, std::nullopt, v, ".info/version", v == default_version});
  }
  s.host = HostInfo{};
  ProcessAccount& account = s.host->access.emplace().account;
  account.uid = uid;
  account.device_groups = {{"render", 109, uid != 0, uid != 0, {}}};
  return s;
}

TEST(DiffMachines, RootNeedsNoGroupAndTheInstallOptRocmNamesIsCompared) {
  Snapshot a = rocm_with_installs(0, "6.3.0");
  Snapshot b = rocm_with_installs(1000, "6.2.4");
  b.rocm->hip = HipInfo{};
  b.rocm->hip->error = HipError{"hipGetDeviceCount", 100, "hipErrorNoDevice", std::nullopt};
  const std::vector<MergedDevice> none;
  const std::vector<Finding> no_findings;
  const auto diffs = diff_machines({a, none, no_findings}, {b, none, no_findings});
  ASSERT_EQ(diffs.size(), 3u);  // both have 6.2.4 and 6.3.0: the installs are no difference
  EXPECT_EQ(diffs[0].what, "in group render");
  EXPECT_EQ(diffs[0].a, "not needed (root)");
  EXPECT_EQ(diffs[0].b, "yes");
  EXPECT_EQ(diffs[1].what, "HIP");
  EXPECT_EQ(diffs[1].a, std::nullopt);
  EXPECT_EQ(diffs[1].b, "hipGetDeviceCount returned 100 (hipErrorNoDevice)");
  EXPECT_EQ(diffs[2].what, "/opt/rocm is");
  EXPECT_EQ(diffs[2].a, "6.3.0");
  EXPECT_EQ(diffs[2].b, "6.2.4");
}

}  // namespace
}  // namespace gpudoctor
