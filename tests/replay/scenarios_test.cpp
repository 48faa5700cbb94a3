// `gpudoctor check` on the fixture machines, each reproducing a real report (the URL is in the
// fixture's README). Each asserts the exact finding, its severity and the versions in the fix.
#include <gtest/gtest.h>

#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace scenarios_test {

struct Checked {
  int exit_code;
  Json findings;
};

Checked check_fixture(const std::string& fixture, std::vector<std::string> env = {}) {
  auto r = test::run_gpudoctor({"check", "--json", "--sysroot", test::fixture_path(fixture)},
                               env);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  return {r.exit_code, Json::parse(r.out)["findings"]};
}

const Json* finding(const Checked& c, const std::string& id) {
  return test::find_finding(c.findings, id);
}

std::string fix_of(const Json* f) { return f && f->contains("fix") && (*f)["fix"].is_string() ? (*f)["fix"].get<std::string>() : ""; }

void expect_no_failure_or_warning(const Checked& c) {
  for (const auto& f : c.findings) {
    EXPECT_TRUE(f["severity"] == "ok" || f["severity"] == "info") << f.dump();
  }
  EXPECT_EQ(c.exit_code, 0);
}

TEST(Scenario, DriverLibraryMismatchAfterUnattendedUpgrade) {
  // oddmario/NVIDIA-Ubuntu-Driver-Guide#4: module 550.90.07 loaded, libraries 550.107.02.
  auto c = check_fixture("nvidia-driver-library-mismatch");
  const Json* f = finding(c, "nvidia.driver_library_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(f->dump().find("550.90.07"), std::string::npos);
  EXPECT_NE(fix_of(f).find("550.107.02"), std::string::npos) << fix_of(f);
  EXPECT_NE(fix_of(f).find("reboot"), std::string::npos);
  EXPECT_EQ(c.exit_code, 1);
}

TEST(Scenario, DkmsLeftTheOldModuleLoaded) {
  // Frogging-Family/nvidia-all#394: 595.80 module still loaded after the upgrade to 595.84.
  auto c = check_fixture("nvidia-dkms-stale-module");
  const Json* f = finding(c, "nvidia.driver_library_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->dump().find("595.80"), std::string::npos);
  EXPECT_NE(fix_of(f).find("595.84"), std::string::npos) << fix_of(f);
}

TEST(Scenario, NouveauStillLoadsDespiteInitramfsOnlyBlacklist) {
  // negativo17/nvidia-driver#73: rd.driver.blacklist=nouveau only, nouveau still bound.
  auto c = check_fixture("nvidia-nouveau-bound");
  const Json* f = finding(c, "nvidia.nouveau_bound");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(f->dump().find("rd.driver.blacklist=nouveau"), std::string::npos) << f->dump();
  EXPECT_NE(fix_of(f).find("modprobe.blacklist=nouveau"), std::string::npos);
}

TEST(Scenario, ContainerStartedWithoutGpus) {
  // anibali/docker-pytorch#27: the nvidia/cuda base image sets NVIDIA_VISIBLE_DEVICES=all,
  // the container was started without --gpus.
  auto c = check_fixture("nvidia-container-no-gpus", {"NVIDIA_VISIBLE_DEVICES=all"});
  const Json* f = finding(c, "nvidia.container_without_gpu");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "warn");  // no host GPU visible on PCI in the capture
  EXPECT_NE(fix_of(f).find("--gpus all"), std::string::npos);
  // Without the image's variable there is nothing to say: no GPU is expected.
  EXPECT_EQ(finding(check_fixture("nvidia-container-no-gpus"), "nvidia.container_without_gpu"),
            nullptr);
}

TEST(Scenario, ToolkitStubOnLdLibraryPath) {
  // numba/numba#9732 and #8985: the stubs directory on LD_LIBRARY_PATH.
  auto c = check_fixture("nvidia-stub-ld-library-path",
                         {"LD_LIBRARY_PATH=/usr/local/cuda-11.8/targets/x86_64-linux/lib/stubs"});
  const Json* f = finding(c, "cuda.stub_libcuda");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(fix_of(f).find("/usr/local/cuda-11.8/targets/x86_64-linux/lib/stubs"),
            std::string::npos)
      << fix_of(f);
  // The same tree without the variable: the stub stays where it belongs.
  EXPECT_EQ(finding(check_fixture("nvidia-stub-ld-library-path"), "cuda.stub_libcuda"), nullptr);
}

TEST(Scenario, SeveralToolkitsNvccFromAnotherThanTheSymlink) {
  // vllm-project/vllm#1453: /usr/local/cuda → 11.8 while PATH brings cuda-12.6's nvcc.
  auto c = check_fixture("nvidia-several-toolkits",
                         {"PATH=/usr/local/cuda-12.6/bin:/usr/local/bin:/usr/bin:/bin"});
  const Json* f = finding(c, "cuda.toolkit_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "warn");
  EXPECT_NE(f->dump().find("12.6"), std::string::npos);
  EXPECT_NE(f->dump().find("11.8"), std::string::npos);
  // With the installation guide's PATH (/usr/local/cuda/bin first) they agree.
  auto agree = check_fixture("nvidia-several-toolkits",
                             {"PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin"});
  EXPECT_EQ(finding(agree, "cuda.toolkit_mismatch"), nullptr);
}

TEST(Scenario, HealthyMachinesHaveNothingFalseToSay) {
  // The two desktops whose drivers are bound.
  for (const char* m : {"desktop-radeon-vega64", "laptop-optimus-lenovo"}) {
    SCOPED_TRACE(m);
    expect_no_failure_or_warning(check_fixture(m));
  }
  // This machine's capture has no GPU at all: a GPU doctor says so, as a warning, and only that.
  auto vm = check_fixture("kvm-virtio-vm");
  for (const auto& f : vm.findings) {
    if (f["severity"] == "warn" || f["severity"] == "fail") EXPECT_EQ(f["id"], "gpu.none") << f;
  }
  ASSERT_NE(finding(vm, "gpu.none"), nullptr);
  EXPECT_EQ(vm.exit_code, 0);
}

TEST(Scenario, UnboundDatacenterGpuIsNamed) {
  // hwloc#653's A100: the capture holds no driver link (the report's excerpt stops before it),
  // which the tree states as "no driver bound". One cause, one finding: the NVIDIA module's.
  auto c = check_fixture("server-a100-sxm4");
  const Json* f = finding(c, "nvidia.module_not_loaded");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->dump().find("0000:da:00.0"), std::string::npos);
  EXPECT_EQ(finding(c, "gpu.no_driver"), nullptr);
}

}  // namespace scenarios_test
}  // namespace gpudoctor
