// `gpudoctor check` on the ROCm fixture machines, each reproducing a real report (the URL is in
// the fixture's README): the exact finding ids, severities and the versions in each fix.
#include <gtest/gtest.h>

#include <map>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace rocm_scenarios_test {

/// `gpudoctor check` on a fixture, with extra environment: the findings of the rocm area.
std::vector<Json> rocm_findings(const std::string& fixture, std::vector<std::string> env = {}) {
  return test::area_findings(test::fixture_path(fixture), "rocm", env);
}

TEST(RocmScenario, Rx7600XtIsNotAnRocm600Target) {
  // ROCm/legacy-rocm-build#2901: gfx1102 with ROCm 6.0.0; AMD's reply in #2914.
  auto fs = rocm_findings("rocm-rx7600xt-gfx1102");
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  const Json& f = fs[0];
  EXPECT_EQ(f["id"], "rocm.gfx_unsupported");
  EXPECT_EQ(f["severity"], "warn");
  EXPECT_EQ(f["source"],
            "https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html");
  const std::string fix = f["fix"];
  EXPECT_NE(fix.find("export HSA_OVERRIDE_GFX_VERSION=11.0.0"), std::string::npos) << fix;
  EXPECT_NE(fix.find("gfx1100"), std::string::npos);
  EXPECT_NE(fix.find("AMD does not support this"), std::string::npos);
  EXPECT_NE(
      f.dump().find("ROCm 6.0.0 (/opt/rocm) supports: gfx1100, gfx1030, gfx942, gfx90a, gfx908"),
      std::string::npos)
      << f.dump();
  EXPECT_NE(f.dump().find("https://github.com/ROCm/legacy-rocm-build/issues/2914"),
            std::string::npos);
}

TEST(RocmScenario, Rx7600XtWithTheOverrideIsANote) {
  auto fs = rocm_findings("rocm-rx7600xt-gfx1102", {"HSA_OVERRIDE_GFX_VERSION=11.0.0"});
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["id"], "rocm.gfx_override");
  EXPECT_EQ(fs[0]["severity"], "info");
  EXPECT_NE(fs[0]["title"].get<std::string>().find("runs as gfx1100"), std::string::npos);
  // AMD's own words in legacy-rocm-build#2914: a workaround it does not support.
  EXPECT_NE(fs[0]["title"].get<std::string>().find("AMD does not support it"), std::string::npos);
  EXPECT_EQ(fs[0]["fix"].get<std::string>().rfind("if kernels crash or compute wrong results, unset "
                                                  "HSA_OVERRIDE_GFX_VERSION",
                                                  0),
            0u)
      << fs[0]["fix"];
}

TEST(RocmScenario, Rx7600XtWithAnOverrideOfAnotherGenerationFails) {
  // 9.0.6 (gfx906, GCN 5) on an RDNA3 card is another ISA: one finding, with the value AMD
  // names for gfx1102 (legacy-rocm-build#2914), instead of a warning about support.
  auto fs = rocm_findings("rocm-rx7600xt-gfx1102", {"HSA_OVERRIDE_GFX_VERSION=9.0.6"});
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["id"], "rocm.gfx_override_wrong");
  EXPECT_EQ(fs[0]["severity"], "fail");
  EXPECT_EQ(fs[0]["fix"].get<std::string>().rfind("export HSA_OVERRIDE_GFX_VERSION=11.0.0", 0), 0u);
}

TEST(RocmScenario, UserNotInRenderGroup) {
  // Umio-Yasuno/amdgpu_top#92: Permission denied on /dev/dri/renderD128.
  auto fs = rocm_findings("rocm-desktop-not-in-render");
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["id"], "rocm.not_in_group");
  EXPECT_EQ(fs[0]["severity"], "warn");  // the node's owner was not recorded, udev's rule is
  EXPECT_EQ(fs[0]["fix"], "sudo usermod -aG render,video $USER, then log out and back in");
  EXPECT_NE(fs[0].dump().find("render (gid 109) does not list this user"), std::string::npos);
  EXPECT_NE(fs[0].dump().find("this process's groups: 1000"), std::string::npos);
}

TEST(RocmScenario, RenderGroupAddedButNotLoggedInAgain) {
  auto fs = rocm_findings("rocm-desktop-render-not-active");
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["id"], "rocm.group_not_active");
  EXPECT_EQ(fs[0]["severity"], "warn");
  EXPECT_NE(fs[0]["fix"].get<std::string>().find("newgrp render"), std::string::npos);
}

TEST(RocmScenario, HealthyMi200ContainerHasNothingToSay) {
  // ROCm/ROCm-docker#93: two gfx90a, uid 1000 with video and render added.
  auto fs = rocm_findings("rocm-container-gfx90a");
  EXPECT_TRUE(fs.empty()) << Json(fs).dump(2);
}

TEST(RocmScenario, Rx6700XtWithoutAnInstallIsNotJudged) {
  // rocm-libraries#8119 names no ROCm version: nothing to compare the target with.
  auto fs = rocm_findings("rocm-rx6700xt-gfx1031", {"HSA_OVERRIDE_GFX_VERSION=10.3.0"});
  EXPECT_TRUE(fs.empty()) << Json(fs).dump(2);
}

TEST(RocmScenario, ExplainKnowsEveryRocmFinding) {
  for (const char* id : {"rocm.gfx_unsupported", "rocm.torch_gfx_unsupported", "rocm.gfx_override",
                         "rocm.not_in_group", "rocm.group_not_active", "rocm.amdgpu_not_loaded",
                         "rocm.no_kfd", "rocm.hip_init", "rocm.device_access",
                         "rocm.gfx_override_wrong", "rocm.gpu_not_in_kfd"}) {
    auto r = test::run_gpudoctor({"explain", id});
    EXPECT_EQ(r.exit_code, 0) << id << r.err;
    EXPECT_NE(r.out.find("https://"), std::string::npos) << id;
  }
}

// ---- the same checks over snapshots no fixture tree can hold ---------------------------------

/// The findings of every check on `s`, by id.
std::map<std::string, Finding> run(const Snapshot& s) {
  auto devices = merge_devices(s);
  std::map<std::string, Finding> out;
  for (auto& f : run_checks(CheckInput{s, devices, builtin_compat()})) out.emplace(f.id, f);
  return out;
}

const Finding* find(const std::map<std::string, Finding>& fs, const std::string& id) {
  auto it = fs.find(id);
  return it == fs.end() ? nullptr : &it->second;
}

/// An AMD machine whose /dev/kfd (the host's access facts) has `group` and `access`.
Snapshot with_kfd_node(std::optional<std::string> group, std::optional<bool> access) {
  Snapshot s;
  s.rocm = RocmInfo{};
  s.host = HostInfo{};
  HostAccess& r = s.host->access.emplace();
  r.dev_listed = true;
  r.account.uid = 1000;
  r.account.user = "dev";
  r.account.groups = {1000};
  r.account.device_groups = {{"render", 109, false, false, {}}, {"video", 44, false, false, {}}};
  DeviceNode kfd;
  kfd.path = "/dev/kfd";
  kfd.mode = "crw-rw----";
  kfd.group = std::move(group);
  kfd.readable = access;
  kfd.writable = access;
  r.device_nodes.push_back(kfd);
  return s;
}

TEST(RocmChecks, LiveNodeOwnedByRenderIsAFailure) {
  // ROCm/ROCm-docker#116: "Unable to open /dev/kfd read-write: Permission denied", crw-rw----
  // root render.
  Snapshot s = with_kfd_node("render", false);
  auto fs = run(s);
  const Finding* f = find(fs, "rocm.not_in_group");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("This user is not in the render group"), std::string::npos);
  EXPECT_EQ(find(fs, "rocm.device_access"), nullptr);  // one finding for one cause
}

TEST(RocmChecks, OpenNodesNeedNoGroup) {
  // AMD's 0666 udev rule (ROCm/ROCm-docker#90): accessible without the group.
  Snapshot s = with_kfd_node("render", true);
  s.host->access->device_nodes[0].mode = "crw-rw-rw-";
  EXPECT_EQ(find(run(s), "rocm.not_in_group"), nullptr);
}

TEST(RocmChecks, RootIsNeverAskedForGroups) {
  Snapshot s = with_kfd_node("render", std::nullopt);
  s.host->access->account.uid = 0;
  EXPECT_TRUE(run(s).empty());
}

TEST(RocmChecks, RocmWithoutAmdgpuFails) {
  Snapshot s;
  s.rocm = RocmInfo{};
  s.rocm->modules_listed = true;
  s.rocm->installs.push_back({"/opt/rocm-6.3.0", std::nullopt, "6.3.0-39", ".info/version", true});
  auto fs = run(s);
  const Finding* f = find(fs, "rocm.amdgpu_not_loaded");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("ROCm 6.3.0-39 is installed"), std::string::npos);
}

TEST(RocmChecks, AmdgpuWithoutKfdInAContainer) {
  Snapshot s;
  s.host = HostInfo{};
  s.host->container = "docker";
  s.rocm = RocmInfo{};
  s.rocm->modules_listed = true;
  s.rocm->amdgpu_module = "loaded";
  s.host->access.emplace().dev_listed = true;
  s.rocm->installs.push_back({"/opt/rocm", std::nullopt, "6.2.4", ".info/version", true});
  auto fs = run(s);
  const Finding* f = find(fs, "rocm.no_kfd");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix->find("--device /dev/kfd --device /dev/dri"), std::string::npos);
}

TEST(RocmChecks, TorchRocmBuildJudgedByItsRocmRelease) {
  // torch +rocm6.2 on a gfx1031 (the 6700 XT of legacy-rocm-build#2720): the ROCm 6.2 matrix
  // row lists gfx1030, and the override row (10.3.0) applies.
  Snapshot s;
  s.rocm = RocmInfo{};
  KfdNode n;
  n.gfx_target = "gfx1031";
  s.rocm->nodes.push_back(n);
  s.python = PythonInfo{};
  PythonEnv env;
  env.prefix = "/home/dev/venv";
  PythonPackage torch;
  torch.name = "torch";
  torch.torch = TorchBuildInfo{};
  torch.torch->version = "2.5.1+rocm6.2";
  torch.torch->local_version = "rocm6.2";
  env.packages.push_back(torch);
  s.python->envs.push_back(env);
  auto fs = run(s);
  const Finding* f = find(fs, "rocm.torch_gfx_unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->title.find("torch 2.5.1+rocm6.2 in /home/dev/venv"), std::string::npos);
  EXPECT_NE(f->fix->find("HSA_OVERRIDE_GFX_VERSION=10.3.0"), std::string::npos) << *f->fix;
}

}  // namespace rocm_scenarios_test
}  // namespace gpudoctor
