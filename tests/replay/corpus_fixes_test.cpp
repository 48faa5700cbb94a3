// Facts the corpus machines showed were not read (issue 26 §5, /work/notes/machine-misses.md),
// each on the fixture that missed it and on a tree made to differ in that one fact:
// - a Docker host without the NVIDIA Container Toolkit (corpus-docker-host-no-toolkit-*);
// - /dev/kfd owned by root with no group access, recorded in a tree as `ls -l` lines
//   (/.gpudoctor/dev-nodes.txt; corpus-rocm-kfd-mode-0600).
#include <gtest/gtest.h>

#include <filesystem>

#include "json.hpp"
#include "parse/device_access.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace corpus_fixes_test {

namespace fs = std::filesystem;

Json check_tree(const std::string& dir) {
  auto r = test::run_gpudoctor({"check", "--json", "--no-smoke", "--sysroot", dir});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  return r.exit_code == 0 || r.exit_code == 1 ? Json::parse(r.out) : Json();
}

const Json* finding(const Json& out, const std::string& id) {
  if (!out.is_object()) return nullptr;
  for (const auto& f : out["findings"]) {
    if (f["id"] == id) return &f;
  }
  return nullptr;
}

std::string evidence_text(const Json& f) {
  std::string s;
  for (const auto& e : f["evidence"]) s += e.get<std::string>() + "\n";
  return s;
}

/// A copy of a fixture tree, to change one fact in it.
void copy_fixture(const std::string& machine, const test::TempTree& t) {
  fs::copy(test::fixture_path(machine), t.path(),
           fs::copy_options::recursive | fs::copy_options::copy_symlinks |
               fs::copy_options::overwrite_existing);
}

TEST(CorpusFixes, DockerHostWithoutTheToolkitIsNamed) {
  const Json out = check_tree(test::fixture_path("corpus-docker-host-no-toolkit-elasticfusion"));
  const Json* f = finding(out, "nvidia.container_toolkit");
  ASSERT_NE(f, nullptr) << out.dump(1);
  EXPECT_EQ((*f)["severity"], "warn");
  const std::string ev = evidence_text(*f);
  EXPECT_NE(ev.find("/usr/bin/dockerd"), std::string::npos) << ev;
  EXPECT_NE(ev.find("daemon.json: none"), std::string::npos) << ev;
  EXPECT_NE((*f)["fix"].get<std::string>().find("nvidia-ctk runtime configure"), std::string::npos);
}

TEST(CorpusFixes, DockerHostWithTheToolkitOrACdiSpecIsNot) {
  for (const std::string& extra : {"usr/bin/nvidia-container-runtime-hook", "usr/bin/nvidia-ctk",
                                   "etc/cdi/nvidia.yaml"}) {
    test::TempTree t;
    copy_fixture("corpus-docker-host-no-toolkit-elasticfusion", t);
    t.write(extra, extra == "etc/cdi/nvidia.yaml" ? "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\n" : "");
    EXPECT_EQ(finding(check_tree(t.path()), "nvidia.container_toolkit"), nullptr) << extra;
  }
}

TEST(CorpusFixes, DaemonJsonNamingTheMissingNvidiaRuntimeFails) {
  test::TempTree t;
  copy_fixture("corpus-docker-host-no-toolkit-elasticfusion", t);
  t.write("etc/docker/daemon.json",
          "{\"default-runtime\": \"nvidia\", \"runtimes\": {\"nvidia\": {\"path\": "
          "\"nvidia-container-runtime\", \"runtimeArgs\": []}}}\n");
  const Json out = check_tree(t.path());
  const Json* f = finding(out, "nvidia.container_toolkit");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(evidence_text(*f).find("runtimes nvidia, default-runtime nvidia"), std::string::npos);
}

TEST(CorpusFixes, NoDockerOrNoDriverNoToolkitFinding) {
  test::TempTree no_docker;
  copy_fixture("corpus-docker-host-no-toolkit-elasticfusion", no_docker);
  fs::remove(fs::path(no_docker.path()) / "usr/bin/docker");
  fs::remove(fs::path(no_docker.path()) / "usr/bin/dockerd");
  EXPECT_EQ(finding(check_tree(no_docker.path()), "nvidia.container_toolkit"), nullptr);
  test::TempTree no_driver;
  copy_fixture("corpus-docker-host-no-toolkit-elasticfusion", no_driver);
  fs::remove_all(fs::path(no_driver.path()) / "sys/module/nvidia");
  fs::remove_all(fs::path(no_driver.path()) / "dev");
  EXPECT_EQ(finding(check_tree(no_driver.path()), "nvidia.container_toolkit"), nullptr);
}

TEST(CorpusFixes, LsLinesOfDeviceFilesAreRead) {
  auto a = parse_ls_device_line("crw-------   1 root    root    234,   0 Mai 21 05:13 kfd");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->path, "/dev/kfd");
  EXPECT_EQ(a->mode, "crw-------");
  EXPECT_EQ(a->owner, "root");
  EXPECT_EQ(a->group, "root");
  auto b = parse_ls_device_line("crw-rw---- 1 root render 509,0 Aug 22 21:34 /dev/dri/renderD128");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->path, "/dev/dri/renderD128");
  EXPECT_EQ(b->group, "render");
  EXPECT_FALSE(parse_ls_device_line("drwxr-xr-x 2 root root 140 Aug 22 21:34 ."));
  EXPECT_FALSE(parse_ls_device_line("total 0"));
}

TEST(CorpusFixes, KfdOnlyRootCanOpenIsNamedFromARecordedTree) {
  const Json out = check_tree(test::fixture_path("corpus-rocm-kfd-mode-0600"));
  const Json* f = finding(out, "rocm.kfd_permission");
  ASSERT_NE(f, nullptr) << out.dump(1);
  EXPECT_EQ((*f)["severity"], "fail");
  const std::string ev = evidence_text(*f);
  EXPECT_NE(ev.find("crw-------"), std::string::npos) << ev;
  EXPECT_NE(ev.find("/.gpudoctor/dev-nodes.txt"), std::string::npos) << ev;
  EXPECT_NE((*f)["fix"].get<std::string>().find("KERNEL==\"kfd\""), std::string::npos);
  // The user is in render and video: the group checks must not blame the account.
  EXPECT_EQ(finding(out, "rocm.not_in_group"), nullptr);
}

TEST(CorpusFixes, KfdWithARenderGroupIsNotRootOnly) {
  test::TempTree t;
  copy_fixture("corpus-rocm-kfd-mode-0600", t);
  t.write(".gpudoctor/dev-nodes.txt", "crw-rw---- 1 root render 234, 0 Mai 21 05:13 kfd\n");
  EXPECT_EQ(finding(check_tree(t.path()), "rocm.kfd_permission"), nullptr);
  // Without the record the owner is not known: nothing is said about it.
  test::TempTree bare;
  copy_fixture("corpus-rocm-kfd-mode-0600", bare);
  fs::remove_all(fs::path(bare.path()) / ".gpudoctor");
  EXPECT_EQ(finding(check_tree(bare.path()), "rocm.kfd_permission"), nullptr);
}

TEST(CorpusFixes, TheGpuOperatorsToolkitCountsAsInstalled) {
  // NVIDIA/nvidia-container-toolkit#154: the toolkit under /usr/local/nvidia/toolkit is
  // installed; what fails is its driver root (toolkit_driver_root_test.cpp), never "not installed".
  const Json out = check_tree(test::fixture_path("corpus-container-toolkit-root-run-nvidia-driver"));
  ASSERT_TRUE(out.is_object());
  const Json* f = finding(out, "nvidia.container_toolkit");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["title"].get<std::string>().find("not installed"), std::string::npos);
  EXPECT_EQ((*f)["title"].get<std::string>().find("Toolkit is not"), std::string::npos);
  EXPECT_NE(out.dump().find("/usr/local/nvidia/toolkit/nvidia-container-cli"), std::string::npos);
}

TEST(CorpusFixes, AnApptainerContainerWithoutKfdIsNamed) {
  const Json out = check_tree(test::fixture_path("corpus-rocm-docker-kfd-not-mounted"));
  const Json* f = finding(out, "rocm.no_kfd");
  ASSERT_NE(f, nullptr) << out.dump(1);
  EXPECT_NE(evidence_text(*f).find("container: apptainer"), std::string::npos);
  test::TempTree t;
  copy_fixture("corpus-rocm-docker-kfd-not-mounted", t);
  fs::remove_all(fs::path(t.path()) / ".singularity.d");
  const Json bare = check_tree(t.path());
  const Json* g = finding(bare, "rocm.no_kfd");
  if (g != nullptr) EXPECT_EQ(evidence_text(*g).find("container:"), std::string::npos);
}

}  // namespace corpus_fixes_test
}  // namespace gpudoctor
