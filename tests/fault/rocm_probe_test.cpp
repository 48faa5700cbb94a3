// The ROCm backend's probes: the file probe over the fixture trees (KFD topology, installs,
// device files, this process's groups), and the HIP child against a fake libamdhip64 that
// answers like a real Radeon RX 470/480, crashes, hangs or finds no device (tests/fakes/rocm).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "core/isolate.hpp"
#include "core/root.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "json.hpp"
#include "host/access_probe.hpp"
#include "rocm/hip_probe.hpp"
#include "rocm/rocm_system_probe.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;

RocmInfo probe_fixture(const std::string& fixture, Environment env = Environment{}) {
  const Root root(test::fixture_path(fixture));
  const ProbeContext ctx{root, env, false, false};
  return probe_rocm_system(ctx);
}

/// The host's access facts of a fixture tree (they were the rocm section's before).
HostAccess access_of_fixture(const std::string& fixture) {
  const Root root(test::fixture_path(fixture));
  const Environment env;
  const ProbeContext ctx{root, env, false, false};
  return probe_access(ctx);
}

std::string hip_fake(const std::string& dir) {
  return std::string(GPUDOCTOR_FAKES) + "/rocm/" + dir + "/libamdhip64.so";
}

TEST(RocmProbe, KfdNodeFromTheRx6700XtReport) {
  // ROCm/rocm-libraries#8119: 40 CUs of 2 SIMDs, BDFID 768, 2530 MHz, gfx1031.
  const std::map<std::string, std::string> vars = {{"HSA_OVERRIDE_GFX_VERSION", "10.3.0"}};
  RocmInfo r = probe_fixture("rocm-rx6700xt-gfx1031", Environment(vars));
  EXPECT_TRUE(r.kfd_topology);
  ASSERT_EQ(r.nodes.size(), 1u);
  const KfdNode& n = r.nodes[0];
  EXPECT_EQ(n.node, 1);
  EXPECT_EQ(n.gfx_target_version, 100301u);
  EXPECT_EQ(n.gfx_target, "gfx1031");
  EXPECT_EQ(n.compute_units, 40u);
  EXPECT_EQ(n.pci_address, "0000:03:00.0");
  EXPECT_EQ(n.max_engine_clock_mhz, 2530u);
  EXPECT_EQ(n.vendor_id, 0x1002u);
  EXPECT_FALSE(n.render_node);  // drm_render_minor not in the report
  EXPECT_FALSE(n.memory_bytes);
  EXPECT_EQ(r.hsa_override_gfx_version, "10.3.0");
  EXPECT_FALSE(r.modules_listed);
  EXPECT_FALSE(r.hip);  // the file probe never loads HIP
}

TEST(RocmProbe, InstallsModuleAndTargetOfTheRx7600XtReport) {
  // ROCm/legacy-rocm-build#2901: ROCm 6.0.0 in /opt/rocm, "ROCk module is loaded".
  RocmInfo r = probe_fixture("rocm-rx7600xt-gfx1102");
  ASSERT_EQ(r.installs.size(), 1u);
  EXPECT_EQ(r.installs[0].path, "/opt/rocm");
  EXPECT_EQ(r.installs[0].version, "6.0.0");
  EXPECT_EQ(r.installs[0].version_file, ".info/version");
  EXPECT_TRUE(r.installs[0].default_link);
  EXPECT_EQ(r.amdgpu_module, "loaded");
  EXPECT_EQ(r.amdgpu_initstate, "live");
  ASSERT_EQ(r.nodes.size(), 1u);
  EXPECT_EQ(r.nodes[0].gfx_target, "gfx1102");
  EXPECT_FALSE(r.nodes[0].compute_units);  // rocminfo failed before printing them
}

TEST(RocmProbe, ContainerDeviceFilesAndGroups) {
  // ROCm/ROCm-docker#93: uid 1000 with --group-add video --group-add render, two gfx90a.
  RocmInfo r = probe_fixture("rocm-container-gfx90a");
  ASSERT_EQ(r.nodes.size(), 2u);
  EXPECT_EQ(r.nodes[1].gfx_target, "gfx90a");
  const HostAccess a = access_of_fixture("rocm-container-gfx90a");
  std::vector<std::string> paths;
  for (const auto& d : a.device_nodes) paths.push_back(d.path);
  // Every GPU device file, the cards too: the host records them for every vendor.
  EXPECT_EQ(paths, (std::vector<std::string>{"/dev/dri/card0", "/dev/dri/card1",
                                             "/dev/dri/card2", "/dev/dri/renderD128", "/dev/dri/renderD129",
                                             "/dev/kfd"}))
      << testing::PrintToString(paths);
  const DeviceNode& kfd = a.device_nodes.back();
  EXPECT_FALSE(kfd.mode);  // a plain file in a tree says nothing about the node
  EXPECT_FALSE(kfd.readable);
  EXPECT_EQ(a.account.uid, 1000u);
  EXPECT_FALSE(a.account.user);  // "I have no name!"
  ASSERT_EQ(a.account.device_groups.size(), 2u);
  EXPECT_EQ(a.account.device_groups[1].group, "render");
  EXPECT_EQ(a.account.device_groups[1].gid, 109u);
  EXPECT_TRUE(a.account.device_groups[1].in_process);
  // Two nodes without PCI addresses are two GPUs, not one.
  Snapshot s;
  s.rocm = r;
  auto devices = merge_devices(s);
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].name, "AMD GPU (gfx90a)");
  EXPECT_EQ(devices[1].in("kfd"), std::vector<std::size_t>{1});
}

TEST(RocmProbe, GroupListedButNotInThisSession) {
  // Umio-Yasuno/amdgpu_top#92, after usermod -aG render, before a new login.
  const HostAccess a = access_of_fixture("rocm-desktop-render-not-active");
  EXPECT_EQ(a.account.user, "user");
  const auto& groups = a.account.device_groups;
  auto render = std::find_if(groups.begin(), groups.end(),
                             [](const GroupAccess& g) { return g.group == "render"; });
  ASSERT_NE(render, groups.end());
  EXPECT_TRUE(render->listed_for_user);
  EXPECT_FALSE(render->in_process);
}

TEST(RocmProbe, QueryJsonOfEveryRocmFixtureMatchesItsGolden) {
  // The rocm section and the merged devices as `query --json` writes them; GPUDOCTOR_REGOLD=1
  // rewrites tests/fixtures/<machine>/query-rocm.json.
  for (const char* fixture :
       {"rocm-rx7600xt-gfx1102", "rocm-rx6700xt-gfx1031", "rocm-container-gfx90a",
        "rocm-desktop-not-in-render", "rocm-desktop-render-not-active"}) {
    auto r = test::run_gpudoctor(
        {"query", "--json", "--backend", "rocm", "--sysroot", test::fixture_path(fixture)});
    ASSERT_EQ(r.exit_code, 0) << fixture << r.err;
    const Json j = Json::parse(r.out);
    Json golden = {{"rocm", j["rocm"]}, {"devices", j["devices"]}};
    test::expect_golden(fixture, "query-rocm.json", dump_json(golden, 2) + "\n");
  }
}

HipInfo run_hip(const std::string& dir, ProbeOutcome* own,
                std::chrono::milliseconds deadline = 20s) {
  hip::JobOptions opt;
  opt.libraries = {hip_fake(dir)};
  auto results = run_isolated({hip::make_job(opt)}, deadline);
  RocmInfo info;
  *own = hip::assemble(info, results, true);
  return info.hip.value_or(HipInfo{});
}

TEST(RocmHipFake, ReportsWhatHipInfoPrinted) {
  ProbeOutcome out;
  HipInfo h = run_hip("rx480", &out);
  EXPECT_EQ(out.status, ProbeStatus::ok) << out.detail;
  EXPECT_EQ(out.label, "hip");
  EXPECT_EQ(out.detail, "HIP version unknown, 1 device");
  EXPECT_EQ(h.library, hip_fake("rx480"));
  EXPECT_FALSE(h.runtime_version);  // not exported by the fake
  ASSERT_EQ(h.devices.size(), 1u);
  const HipDevice& d = h.devices[0];
  EXPECT_EQ(d.name, "Ellesmere [Radeon RX 470/480]");
  EXPECT_EQ(d.multiprocessors, 32);
  EXPECT_EQ(d.clock_khz, 1130000);
  EXPECT_EQ(d.memory_clock_khz, 2000000);
  EXPECT_EQ(d.memory_bus_width_bits, 256);
  EXPECT_EQ(d.l2_cache_bytes, 0);
  EXPECT_EQ(d.warp_size, 64);
  EXPECT_EQ(d.shared_memory_per_block_bytes, 65536);
  EXPECT_EQ(d.pci_bus_id, std::nullopt);  // no domain attribute: the address is incomplete
  EXPECT_FALSE(d.total_memory_bytes);
  EXPECT_FALSE(d.arch_major);
}

TEST(RocmHipFake, CrashInHipGetDeviceCountIsAFact) {
  ProbeOutcome out;
  HipInfo h = run_hip("hip-count-crash", &out);
  EXPECT_EQ(out.status, ProbeStatus::crashed) << out.detail;
  EXPECT_TRUE(h.devices.empty());
}

TEST(RocmHipFake, HangIsCutAtTheDeadline) {
  ProbeOutcome out;
  run_hip("hip-count-hang", &out, 1500ms);
  EXPECT_EQ(out.status, ProbeStatus::timed_out) << out.detail;
}

TEST(RocmHipFake, NoDeviceNamesTheError) {
  ProbeOutcome out;
  HipInfo h = run_hip("hip-no-device", &out);
  EXPECT_EQ(out.status, ProbeStatus::missing);
  EXPECT_EQ(out.detail, "hipGetDeviceCount returned 100 (hipErrorNoDevice)");
  ASSERT_TRUE(h.error);
  EXPECT_EQ(h.error->code, 100);
}

TEST(RocmHipFake, MissingLibraryIsMissing) {
  ProbeOutcome out;
  HipInfo h = run_hip("does-not-exist", &out);
  EXPECT_EQ(out.status, ProbeStatus::missing);
  EXPECT_FALSE(h.library);
}

TEST(RocmHipFake, QueryJoinsHipThroughTheLoader) {
  // The real loader picks the fake up by name; under no --sysroot the KFD files are this
  // machine's, so only the HIP part is asserted.
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "rocm"},
                               {"LD_LIBRARY_PATH=" + std::string(GPUDOCTOR_FAKES) + "/rocm/rx480"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  ASSERT_TRUE(j["rocm"]["hip"].is_object()) << r.out;
  EXPECT_EQ(j["rocm"]["hip"]["devices"][0]["name"], "Ellesmere [Radeon RX 470/480]");
  bool joined = false;
  for (const auto& d : j["devices"]) joined = joined || !d["hip"].empty();
  EXPECT_TRUE(joined) << j["devices"].dump();
}

}  // namespace
}  // namespace gpudoctor
