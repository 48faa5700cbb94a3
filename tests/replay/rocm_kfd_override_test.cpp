// `gpudoctor check --sysroot` on the machines where KFD leaves out an AMD GPU and where
// HSA_OVERRIDE_GFX_VERSION cannot work, each rebuilt from one public report (the URL is in the
// fixture's README), and the same machines mended, which must raise nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "json.hpp"
#include "parse/kfd_topology.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace rocm_kfd_override_test {

std::vector<Json> rocm_findings_at(const std::string& root, std::vector<std::string> env = {}) {
  return test::area_findings(root, "rocm", env);
}

std::vector<Json> rocm_findings(const std::string& fixture, std::vector<std::string> env = {}) {
  return rocm_findings_at(test::fixture_path(fixture), std::move(env));
}

bool has(const Json& f, const std::string& text) {
  return f.dump().find(text) != std::string::npos;
}

/// A copy of a fixture tree to mend.
void copy_fixture(const std::string& fixture, const test::TempTree& to) {
  namespace fs = std::filesystem;
  fs::copy(test::fixture_path(fixture), to.path(),
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

TEST(RocmKfd, Rx580BehindAPathWithoutAtomicsIsNotInKfd) {
  // legacy-rocm-build#1214: "kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics".
  auto fs = rocm_findings("rocm-rx580-pcie-atomics");
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  const Json& f = fs[0];
  EXPECT_EQ(f["id"], "rocm.gpu_not_in_kfd");
  EXPECT_EQ(f["severity"], "fail");  // ROCm is installed and cannot use the GPU
  EXPECT_TRUE(has(f, "0000:03:00.0 Ellesmere")) << f.dump(2);
  EXPECT_TRUE(has(f, "1002:67df is CHIP_POLARIS10"));
  EXPECT_TRUE(has(f, "0 GPU node(s), 1 CPU node(s)"));
  const std::string fix = f["fix"];
  EXPECT_NE(fix.find("PCI rejects atomics"), std::string::npos) << fix;
  EXPECT_NE(fix.find("slot wired to the CPU"), std::string::npos) << fix;
  EXPECT_EQ(f["source"], "https://github.com/ROCm/legacy-rocm-build/issues/558");
}

TEST(RocmKfd, Rx580InKfdRaisesNothing) {
  // The same machine with the card in a slot that passes atomics: KFD lists it at 03:00.0.
  test::TempTree root;
  copy_fixture("rocm-rx580-pcie-atomics", root);
  root.write("sys/class/kfd/kfd/topology/nodes/1/properties",
             "cpu_cores_count 0\nsimd_count 144\ngfx_target_version 80003\nvendor_id 4098\n"
             "device_id 26591\nlocation_id 768\n");
  root.write("sys/class/kfd/kfd/topology/nodes/1/gpu_id", "47218\n");
  auto fs = rocm_findings_at(root.path());
  for (const auto& f : fs) EXPECT_NE(f["id"], "rocm.gpu_not_in_kfd") << f.dump(2);
}

TEST(RocmKfd, AnotherGpuInKfdMakesTheMissingOneAWarning) {
  // The RX 580 machine with a second card that KFD does list: ROCm works, on that one.
  test::TempTree root;
  copy_fixture("rocm-rx580-pcie-atomics", root);
  root.write("sys/bus/pci/devices/0000:04:00.0/vendor", "0x1002\n");
  root.write("sys/bus/pci/devices/0000:04:00.0/device", "0x687f\n");
  root.write("sys/bus/pci/devices/0000:04:00.0/class", "0x030000\n");
  std::filesystem::create_directory_symlink(
      "../../drivers/amdgpu", root.path() + "/sys/bus/pci/devices/0000:04:00.0/driver");
  root.write("sys/class/kfd/kfd/topology/nodes/1/properties",
             "simd_count 256\ngfx_target_version 90000\nvendor_id 4098\nlocation_id 1024\n");
  auto all = rocm_findings_at(root.path());
  // The Vega's gfx900 is also older than every target of the newest ROCm in the table: a note.
  std::vector<Json> fs;
  for (const auto& f : all) {
    if (f["severity"] != "info") fs.push_back(f);
  }
  ASSERT_EQ(fs.size(), 1u) << Json(all).dump(2);
  EXPECT_EQ(fs[0]["severity"], "warn");
  EXPECT_TRUE(has(fs[0], "0000:03:00.0")) << fs[0].dump(2);
}

TEST(RocmKfd, GcnOneCardHasNoKfdAtAll) {
  // legacy-rocm-build#538: R9 270X (Pitcairn), "kfd2kgd: kfd not supported on this ASIC".
  auto fs = rocm_findings("rocm-r9-270x-kfd-unsupported");
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  const Json& f = fs[0];
  EXPECT_EQ(f["id"], "rocm.gpu_not_in_kfd");
  EXPECT_EQ(f["severity"], "fail");
  EXPECT_TRUE(has(f, "CHIP_PITCAIRN, Southern Islands (GCN 1)")) << f.dump(2);
  const std::string fix = f["fix"];
  EXPECT_NE(fix.find("never driven Southern Islands (GCN 1) chips"), std::string::npos) << fix;
  EXPECT_NE(fix.find("Vulkan (RADV"), std::string::npos) << fix;
  EXPECT_EQ(f["source"],
            "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdgpu/"
            "amdgpu_drv.c");
}

TEST(RocmKfd, WithoutRocmTheMissingGpuIsANote) {
  // No ROCm anywhere: nothing fails yet, but a GPU doctor still says ROCm cannot use the GPU.
  test::TempTree root;
  copy_fixture("rocm-r9-270x-kfd-unsupported", root);
  std::filesystem::remove_all(root.path() + "/opt");
  auto fs = rocm_findings_at(root.path());
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["severity"], "info");
}

TEST(RocmKfd, CpuNodesAreNeverGpus) {
  // The CPU node of the RX 580 machine is counted as a CPU, not as a GPU of unknown target.
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "rocm", "--sysroot",
                                test::fixture_path("rocm-rx580-pcie-atomics")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json rocm = Json::parse(r.out)["rocm"];
  EXPECT_EQ(rocm["cpu_nodes"], 1) << rocm.dump(2);
  EXPECT_TRUE(rocm["nodes"].empty());
  // libhsakmt's rule: simd_count decides; a CPU node that states a vendor is still a CPU.
  EXPECT_FALSE(kfd_node_is_gpu({{"cpu_cores_count", 16}, {"simd_count", 0}, {"vendor_id", 4098}},
                               std::nullopt));
  EXPECT_TRUE(kfd_node_is_gpu({{"simd_count", 80}, {"cpu_cores_count", 16}}, std::nullopt));
  EXPECT_FALSE(kfd_node_is_gpu({{"cpu_cores_count", 16}}, 0));
  EXPECT_TRUE(kfd_node_is_gpu({{"gfx_target_version", 110002}, {"vendor_id", 4098}}, std::nullopt));
  EXPECT_FALSE(kfd_node_is_gpu({{"vendor_id", 4098}}, std::nullopt));
}

TEST(RocmOverride, Mi210ForcedToGfx1030CrossesAGeneration) {
  // legacy-rocm-build#5238: an MI210 (gfx90a) run with HSA_OVERRIDE_GFX_VERSION=10.3.0.
  auto fs = rocm_findings("rocm-mi210-override-gfx1030", {"HSA_OVERRIDE_GFX_VERSION=10.3.0"});
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  const Json& f = fs[0];
  EXPECT_EQ(f["id"], "rocm.gfx_override_wrong");
  EXPECT_EQ(f["severity"], "fail");
  EXPECT_TRUE(has(f, "as gfx1030, another GPU generation")) << f.dump(2);
  EXPECT_EQ(f["fix"],
            "unset HSA_OVERRIDE_GFX_VERSION: gfx90a is a target ROCm builds for and needs no "
            "override");
  EXPECT_EQ(f["source"], "https://github.com/ROCm/legacy-rocm-build/issues/5238");
}

TEST(RocmOverride, Mi210WithoutTheOverrideRaisesNothing) {
  EXPECT_TRUE(rocm_findings("rocm-mi210-override-gfx1030").empty());
}

TEST(RocmOverride, Rx7800XtSetToItsOwnTargetGetsTheKnownValue) {
  // stable-diffusion-webui#13534: 11.0.1 (gfx1101 itself) never worked, 11.0.0 did.
  auto fs = rocm_findings("rocm-rx7800xt-override-own-target", {"HSA_OVERRIDE_GFX_VERSION=11.0.1"});
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  const Json& f = fs[0];
  EXPECT_EQ(f["id"], "rocm.gfx_override_wrong");
  EXPECT_EQ(f["severity"], "warn");  // no ROCm version known: it may ship gfx1101 code
  EXPECT_TRUE(has(f, "own target")) << f.dump(2);
  const std::string fix = f["fix"];
  EXPECT_EQ(fix.rfind("export HSA_OVERRIDE_GFX_VERSION=11.0.0: ", 0), 0u) << fix;
  EXPECT_NE(fix.find("as gfx1100"), std::string::npos);
  // With the known value there is nothing to say (no ROCm release to judge the target by).
  EXPECT_TRUE(
      rocm_findings("rocm-rx7800xt-override-own-target", {"HSA_OVERRIDE_GFX_VERSION=11.0.0"})
          .empty());
}

TEST(RocmOverride, Rx7800XtWithAnRdna2ValueCrossesAGeneration) {
  // invoke-ai/InvokeAI#3967: 10.3.0 did not work on a 7800 XT; told to use 11.0.0 for the 7000s.
  auto fs = rocm_findings("rocm-rx7800xt-override-own-target", {"HSA_OVERRIDE_GFX_VERSION=10.3.0"});
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["id"], "rocm.gfx_override_wrong");
  EXPECT_EQ(fs[0]["severity"], "fail");
  EXPECT_EQ(fs[0]["fix"].get<std::string>().rfind("export HSA_OVERRIDE_GFX_VERSION=11.0.0", 0), 0u);
}

TEST(RocmOverride, Gfx1031WithTheRdna3ValueGetsTen) {
  // The 6700 XT of rocm-libraries#8119 told 11.0.0: the known value is 10.3.0.
  auto fs = rocm_findings("rocm-rx6700xt-gfx1031", {"HSA_OVERRIDE_GFX_VERSION=11.0.0"});
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["id"], "rocm.gfx_override_wrong");
  EXPECT_EQ(fs[0]["fix"].get<std::string>().rfind("export HSA_OVERRIDE_GFX_VERSION=10.3.0", 0), 0u);
}

TEST(RocmOverride, ValueLibhsakmtRefusesIsAFailure) {
  // "gfx1030" is the target's name, not MAJOR.MINOR.STEPPING: libhsakmt refuses it.
  auto fs = rocm_findings("rocm-rx6700xt-gfx1031", {"HSA_OVERRIDE_GFX_VERSION=gfx1030"});
  ASSERT_EQ(fs.size(), 1u) << Json(fs).dump(2);
  EXPECT_EQ(fs[0]["id"], "rocm.gfx_override_wrong");
  EXPECT_TRUE(has(fs[0], "is not MAJOR.MINOR.STEPPING"));
  EXPECT_EQ(fs[0]["fix"].get<std::string>().rfind("export HSA_OVERRIDE_GFX_VERSION=10.3.0", 0), 0u);
  EXPECT_TRUE(hsa_override_accepted("10.3.0"));
  EXPECT_TRUE(hsa_override_accepted(" 9.0.10"));
  EXPECT_FALSE(hsa_override_accepted("gfx1030"));
  EXPECT_FALSE(hsa_override_accepted("10.3"));
  EXPECT_FALSE(hsa_override_accepted("10.3.0.1"));
  EXPECT_FALSE(hsa_override_accepted("10.3.0 "));
  EXPECT_FALSE(hsa_override_accepted("64.0.0"));
}

TEST(RocmOverride, PerNodeVariableWinsOverTheProcessWideOne) {
  // libhsakmt reads HSA_OVERRIDE_GFX_VERSION_<node> first: a right per-node value mends it.
  EXPECT_TRUE(rocm_findings("rocm-mi210-override-gfx1030", {"HSA_OVERRIDE_GFX_VERSION=10.3.0",
                                                            "HSA_OVERRIDE_GFX_VERSION_2=9.0.10"})
                  .empty());
  auto fs = rocm_findings("rocm-mi210-override-gfx1030", {"HSA_OVERRIDE_GFX_VERSION_2=11.0.0"});
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_TRUE(has(fs[0], "HSA_OVERRIDE_GFX_VERSION_2=11.0.0"));
}

}  // namespace rocm_kfd_override_test
}  // namespace gpudoctor
