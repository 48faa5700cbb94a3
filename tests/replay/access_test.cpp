// The host's access facts (model/access.hpp) over fixture trees, read back from reports of the
// shape before they moved out of the rocm section, and the one NVIDIA check that reads them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "json.hpp"
#include "snapshot_io.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// `query --json --backend host` on a fixture: its host.access.
Json access_of(const std::string& fixture) {
  auto r = test::run_gpudoctor(
      {"query", "--json", "--backend", "host", "--sysroot", test::fixture_path(fixture)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Json::parse(r.out)["host"]["access"];
}

const Json* group_named(const Json& access, const std::string& name) {
  for (const auto& g : access["account"]["device_groups"]) {
    if (g["group"] == name) return &g;
  }
  return nullptr;
}

std::vector<std::string> strings(const Json& j) {
  std::vector<std::string> out;
  for (const auto& s : j) out.push_back(s.get<std::string>());
  return out;
}

TEST(AccessFacts, OllamaServiceAccountIsNotInRender) {
  // ollama/ollama#7723: the manual install's unit runs ollama as `ollama`, in its own group
  // only; /dev/kfd is opened with "permission denied".
  const Json a = access_of("ollama-rocm-manual-not-in-render");
  ASSERT_EQ(a["workloads"].size(), 1u) << a.dump(2);
  const Json& w = a["workloads"][0];
  EXPECT_EQ(w["user"], "ollama");
  EXPECT_EQ(w["from"], "/etc/systemd/system/ollama.service");
  EXPECT_EQ(w["uid"], 999);
  EXPECT_EQ(strings(w["groups"]), std::vector<std::string>{"ollama"});
  EXPECT_FALSE(w["dynamic_user"].get<bool>());
  const Json* render = group_named(a, "render");
  ASSERT_NE(render, nullptr) << a.dump(2);
  EXPECT_TRUE((*render)["members"].empty());  // nobody: not ollama
  std::vector<std::string> paths;
  for (const auto& d : a["device_nodes"]) paths.push_back(d["path"]);
  EXPECT_EQ(paths, (std::vector<std::string>{"/dev/dri/renderD128", "/dev/kfd"}));
  EXPECT_TRUE(a["dev_listed"].get<bool>());
}

TEST(AccessFacts, NvidiaNodesOwnedByVideoThatOllamaLacks) {
  // gentoo/guru#289: Gentoo's driver makes /dev/nvidia* root:video 0660; GURU's ollama account
  // is in its own group.
  const Json a = access_of("nvidia-gentoo-ollama-not-in-video");
  const Json& p = a["nvidia_device_files"];
  EXPECT_EQ(p["gid"], 27);
  EXPECT_EQ(p["group"], "video");
  EXPECT_EQ(p["mode"], 432);
  EXPECT_EQ(p["modify"], true);
  ASSERT_EQ(a["workloads"].size(), 1u);
  EXPECT_EQ(a["workloads"][0]["from"], "/usr/lib/systemd/system/ollama.service");
  EXPECT_EQ(strings(a["workloads"][0]["groups"]), std::vector<std::string>{"ollama"});
  const Json* video = group_named(a, "video");
  ASSERT_NE(video, nullptr);
  EXPECT_TRUE((*video)["members"].empty());
}

TEST(AccessCheck, OllamaCannotOpenTheNvidiaNodes) {
  auto fs = test::area_findings(test::fixture_path("nvidia-gentoo-ollama-not-in-video"), "nvidia",
                                {});
  const Json* f = test::find_finding(fs, "nvidia.workload_access");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_EQ((*f)["title"],
            "The account ollama.service runs as (ollama) cannot open /dev/nvidia0, "
            "/dev/nvidiactl: CUDA in that service finds no GPU");
  EXPECT_EQ((*f)["fix"], "sudo usermod -aG video ollama, then sudo systemctl restart ollama.service");
  const std::string evidence = (*f)["evidence"].dump();
  EXPECT_NE(evidence.find("group video, mode 0660"), std::string::npos) << evidence;
  EXPECT_EQ(evidence.find("nvidia-uvm"), std::string::npos) << evidence;  // made root:root 0666
}

// The same service on ROCm (ollama/ollama#7723): the fix names the service's account, not $USER.
TEST(AccessCheck, OllamaCannotOpenKfdAndTheFixNamesItsAccount) {
  auto fs = test::area_findings(test::fixture_path("ollama-rocm-manual-not-in-render"), "rocm", {});
  const Json* f = test::find_finding(fs, "rocm.not_in_group");
  ASSERT_NE(f, nullptr);
  EXPECT_NE((*f)["title"].get<std::string>().find("The account ollama that ollama.service runs as"),
            std::string::npos)
      << (*f)["title"];
  EXPECT_EQ((*f)["fix"], "sudo usermod -aG render,video ollama, then sudo systemctl restart ollama.service");
  EXPECT_EQ((*f)["fix"].get<std::string>().find("$USER"), std::string::npos);
}

TEST(AccessCheck, SilentOnceOllamaIsInVideo) {
  namespace fs = std::filesystem;
  test::TempTree root;
  fs::copy(test::fixture_path("nvidia-gentoo-ollama-not-in-video"), root.path(),
           fs::copy_options::recursive);
  root.write("etc/group", "root:x:0:\nvideo:x:27:ollama\nollama:x:999:\n");
  auto fs_ = test::area_findings(root.path(), "nvidia", {});
  EXPECT_EQ(test::find_finding(fs_, "nvidia.workload_access"), nullptr);
  // A mode that lets everyone in needs no group either.
  root.write("etc/group", "root:x:0:\nvideo:x:27:\nollama:x:999:\n");
  root.write("proc/driver/nvidia/params",
             "ModifyDeviceFiles: 1\nDeviceFileUID: 0\nDeviceFileGID: 27\nDeviceFileMode: 438\n");
  EXPECT_EQ(test::find_finding(test::area_findings(root.path(), "nvidia", {}),
                               "nvidia.workload_access"),
            nullptr);
}

TEST(AccessFacts, AccountNamesAreRedactedInAReport) {
  // amdgpu_top#92 after usermod -aG render: /etc/group lists `user` in render.
  auto r = test::run_gpudoctor(
      {"report", "--sysroot", test::fixture_path("rocm-desktop-render-not-active")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json a = Json::parse(r.out)["snapshot"]["host"]["access"];
  EXPECT_EQ(a["account"]["user"], "<user1>");
  const Json* render = group_named(a, "render");
  ASSERT_NE(render, nullptr) << a.dump(2);
  EXPECT_EQ(strings((*render)["members"]), std::vector<std::string>{"<user1>"});
}

TEST(AccessCheck, RealNodesInATreeAreJudgedByTheirOwnerAndMode) {
  // Character devices (of /dev/null's numbers) where the fixture has plain files: their stat
  // wins over the driver's parameters, which this tree no longer has.
  if (::geteuid() != 0) GTEST_SKIP() << "mknod needs root";
  namespace fs = std::filesystem;
  test::TempTree root;
  fs::copy(test::fixture_path("nvidia-gentoo-ollama-not-in-video"), root.path(),
           fs::copy_options::recursive);
  fs::remove(root.path() + "/proc/driver/nvidia/params");
  for (const char* name : {"nvidia0", "nvidiactl"}) {
    const std::string path = root.path() + "/dev/" + name;
    fs::remove(path);
    ASSERT_EQ(::mknod(path.c_str(), S_IFCHR | 0600, makedev(1, 3)), 0) << path;
  }
  ASSERT_EQ(::chown((root.path() + "/dev/nvidia0").c_str(), 0, 27), 0);
  ASSERT_EQ(::chmod((root.path() + "/dev/nvidia0").c_str(), 0660), 0);
  ASSERT_EQ(::chmod((root.path() + "/dev/nvidiactl").c_str(), 0666), 0);
  const auto findings = test::area_findings(root.path(), "nvidia", {});
  const Json* f = test::find_finding(findings, "nvidia.workload_access");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["title"],
            "The account ollama.service runs as (ollama) cannot open /dev/nvidia0: CUDA in that "
            "service finds no GPU");
  EXPECT_NE((*f)["evidence"].dump().find("group video, mode 0660 (the file)"), std::string::npos);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(OlderReports, RocmAccessMembersReadIntoTheHost) {
  // What `query --json` wrote for this fixture before the access facts moved to the host.
  const auto path = test::fixture_path("rocm-desktop-not-in-render") +
                    "/report-before-access-moved.json";
  auto loaded = snapshot_from_json_text(read_text(path));
  ASSERT_TRUE(std::holds_alternative<Snapshot>(loaded)) << std::get<std::string>(loaded);
  const Snapshot& s = std::get<Snapshot>(loaded);
  ASSERT_TRUE(s.host && s.host->access);
  const HostAccess& a = *s.host->access;
  EXPECT_TRUE(a.dev_listed);
  ASSERT_EQ(a.device_nodes.size(), 1u);
  EXPECT_EQ(a.device_nodes[0].path, "/dev/dri/renderD128");
  EXPECT_EQ(a.account.user, "user");
  ASSERT_EQ(a.account.device_groups.size(), 2u);
  EXPECT_EQ(a.account.device_groups[1].group, "render");
  EXPECT_FALSE(s.rocm->older_access);
}

TEST(OlderReports, RocmFindingsOfAnOlderReportAreThoseOfTheTree) {
  const std::string tree = test::fixture_path("rocm-desktop-not-in-render");
  auto from_tree = test::area_findings(tree, "rocm", {});
  auto r = test::run_gpudoctor(
      {"check", "--json", "--from", tree + "/report-before-access-moved.json"});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  std::vector<Json> from_report;
  const Json report = Json::parse(r.out);  // kept: a range over a temporary's member dangles
  for (const auto& f : report["findings"]) {
    if (f["area"] == "rocm") from_report.push_back(f);
  }
  ASSERT_FALSE(from_tree.empty());
  ASSERT_EQ(from_report.size(), from_tree.size()) << r.out;
  for (std::size_t i = 0; i < from_tree.size(); ++i) {
    EXPECT_EQ(from_report[i]["id"], from_tree[i]["id"]);
    EXPECT_EQ(from_report[i]["severity"], from_tree[i]["severity"]);
    EXPECT_EQ(from_report[i]["title"], from_tree[i]["title"]);
    EXPECT_EQ(from_report[i]["evidence"], from_tree[i]["evidence"]);
  }
}

TEST(OlderReports, ANewerHostAccessWinsOverTheRocmCopy) {
  const std::string text = R"({"schema_version": 1,
    "host": {"hostname": null, "wsl": false, "vm": false,
             "access": {"dev_listed": true, "device_nodes": [{"path": "/dev/kfd"}]}},
    "rocm": {"dev_listed": false, "device_nodes": [{"path": "/dev/dri/renderD128"}]}})";
  auto loaded = snapshot_from_json_text(text);
  ASSERT_TRUE(std::holds_alternative<Snapshot>(loaded)) << std::get<std::string>(loaded);
  const HostAccess& a = *std::get<Snapshot>(loaded).host->access;
  ASSERT_EQ(a.device_nodes.size(), 1u);
  EXPECT_EQ(a.device_nodes[0].path, "/dev/kfd");
  // A wrong kind in a moved member is a problem with its place, like any other.
  auto bad = snapshot_from_json_text(R"({"schema_version": 1, "rocm": {"dev_listed": "yes"}})");
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_NE(std::get<std::string>(bad).find("/rocm/dev_listed"), std::string::npos)
      << std::get<std::string>(bad);
}

}  // namespace
}  // namespace gpudoctor
