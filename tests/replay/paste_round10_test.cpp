// Pastes of round 10 (tests/fixtures/pastes/holdout-10/, in-sample files only) and the machines of
// corpus batch 8 whose causes were written from them: each names its cause, a tool's own check is
// not taken for the driver's state, and what does not apply stays silent.
#include "paste_support.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace paste_round10_test {

using namespace paste_test;
using test::find_finding;

TEST(PasteRound10, TheSmiToolsModuleCheckIsAWarningNotAMissingDriver) {
  // https://github.com/ROCm/amdsmi/issues/172: amdgpu built into the kernel; amd-smi looks for
  // /sys/module/amdgpu/initstate and says the driver is not initialized.
  const auto c = check_text(paste_fixture("holdout-10/amdsmi-172-healthy-amdgpu-built-into-kernel.txt"));
  const Finding* f = find_finding(c.findings, "rocm.amdgpu_not_loaded");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->title.find("built into the kernel"), std::string::npos) << f->title;
  for (const auto& x : c.findings) EXPECT_NE(x.severity, Severity::fail) << x.id;
  // rocminfo's own word is the driver's state: a failure.
  const auto rocminfo = check_text("ROCk module is NOT loaded, possibly no GPU devices\n");
  const Finding* r = find_finding(rocminfo.findings, "rocm.amdgpu_not_loaded");
  ASSERT_NE(r, nullptr) << describe(rocminfo.findings);
  EXPECT_EQ(r->severity, Severity::fail);
}

TEST(PasteRound10, RadeonsFailedStartIsNotAmdgpus) {
  // https://github.com/ROCm/legacy-rocm-build/issues/96: a Mac Pro's D700 under the radeon
  // driver, which prints amdgpu's words.
  const auto c = check_text(paste_fixture("holdout-10/legacy-rocm-build-96-mac-pro-d700-tahiti-no-gpu-agent.txt"));
  const Finding* f = find_finding(c.findings, "rocm.gfx_unsupported");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_NE(f->title.find("0000:06:00.0"), std::string::npos) << f->title;
  EXPECT_EQ(find_finding(c.findings, "rocm.amdgpu_not_loaded"), nullptr) << describe(c.findings);
  // amdgpu's own line is still amdgpu's.
  const auto amdgpu = check_text("[    4.826030] amdgpu 0000:01:00.0: amdgpu: Fatal error during GPU init\n");
  EXPECT_NE(find_finding(amdgpu.findings, "rocm.amdgpu_not_loaded"), nullptr)
      << describe(amdgpu.findings);
}

TEST(PasteRound10, RegisteredIntelDriverWithoutAPlatformIsAccessNotInstall) {
  // https://github.com/intel/compute-runtime/issues/350: clinfo 0 platforms, intel.icd listed.
  const auto c = check_text(paste_fixture("holdout-10/compute-runtime-350-clinfo-0-platforms-not-in-render-group.txt"));
  const Finding* f = find_finding(c.findings, "intel.not_in_render_group");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(find_finding(c.findings, "opencl.no_icd"), nullptr) << describe(c.findings);
  // Without the listing, nothing says a driver is there: install one.
  const auto bare = check_text("Number of platforms                               0\n");
  EXPECT_NE(find_finding(bare.findings, "opencl.no_icd"), nullptr) << describe(bare.findings);
}

TEST(PasteRound10, CupysOwnWarningOfTwoPackagesIsNamed) {
  // https://github.com/gpustack/gpustack/issues/5459, as vLLM's API server printed it.
  const auto c = check_text(
      "(APIServer pid=1)   CuPy may not function correctly because multiple CuPy packages are "
      "installed\n(APIServer pid=1)   in your environment:\n(APIServer pid=1) \n"
      "(APIServer pid=1)     cupy-cuda12x, cupy-cuda13x\n");
  const Finding* f = find_finding(c.findings, "python.cupy_packages");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::warn);
}

TEST(CorpusBatch8, DkmsBuildLogsSayWhichKernelLacksTheDriver) {
  // clearlinux/distribution#1970 (the running kernel, another compiler: no module to load),
  // void-packages#53759 (an installed kernel the 470 branch does not build for),
  // legacy-rocm-build#5624 (amdgpu-dkms not built; the kernel's own amdgpu runs).
  struct Row {
    std::string tree, area, severity, says;
  };
  for (const auto& row : std::vector<Row>{
           {"corpus-dkms-cc-mismatch-clearlinux-lts-440", "gpu", "fail", "compiler other than"},
           {"corpus-dkms-nv470-void-kernel-612", "gpu", "warn", "installed kernel 6.12.7_1"},
           {"corpus-rocm-644-dkms-ubuntu2510-kernel617", "gpu", "warn", "another build"}}) {
    const auto found = test::area_findings(test::fixture_path(row.tree), row.area);
    const Json* f = find_finding(found, "gpu.dkms_build_failed");
    ASSERT_NE(f, nullptr) << row.tree;
    EXPECT_EQ((*f)["severity"], row.severity) << row.tree;
    EXPECT_NE((*f)["title"].get<std::string>().find(row.says), std::string::npos)
        << (*f)["title"];
  }
  // The compiler check's two compilers are its evidence; nvidia.module_not_loaded stands down.
  const auto cc = test::area_findings(
      test::fixture_path("corpus-dkms-cc-mismatch-clearlinux-lts-440"), "nvidia");
  EXPECT_EQ(find_finding(cc, "nvidia.module_not_loaded"), nullptr);
}

TEST(CorpusBatch8, ADkmsLogForAKernelNoLongerInstalledSaysNothing) {
  test::TempTree t;
  t.write("proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
  t.write("var/lib/dkms/nvidia/535.183.01/build/make.log",
          "DKMS make.log for nvidia-535.183.01 for kernel 6.8.0-1-amd64 (x86_64)\n"
          "make: *** [Makefile:80: modules] Error 2\n");
  EXPECT_EQ(find_finding(test::area_findings(t.path(), "gpu"), "gpu.dkms_build_failed"), nullptr);
  // Installed, it is what the next boot gets.
  t.mkdir("lib/modules/6.8.0-1-amd64");
  const auto installed = test::area_findings(t.path(), "gpu");
  const Json* f = find_finding(installed, "gpu.dkms_build_failed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "warn");
  // Built for that kernel after all (a module came out): nothing failed.
  t.mkdir("var/lib/dkms/nvidia/535.183.01/6.8.0-1-amd64/x86_64/module");
  t.write("var/lib/dkms/nvidia/535.183.01/build/make.log",
          "DKMS make.log for nvidia-535.183.01 for kernel 6.8.0-1-amd64 (x86_64)\n");
  EXPECT_EQ(find_finding(test::area_findings(t.path(), "gpu"), "gpu.dkms_build_failed"), nullptr);
}

TEST(CorpusBatch8, HipsFirstGpuBeingTheIntegratedOneIsNamed) {
  // ROCm/legacy-rocm-build#3401: a 3400G's gfx902 is KFD's first GPU, the RX 6600 the second.
  const std::string apu_first = test::fixture_path("corpus-rocm-3400g-rx6600-hip-default-igpu");
  const auto first = test::area_findings(apu_first, "rocm");
  const Json* f = find_finding(first, "rocm.igpu_first");
  ASSERT_NE(f, nullptr);
  EXPECT_NE((*f)["fix"].get<std::string>().find("HIP_VISIBLE_DEVICES=1"), std::string::npos);
  // Choosing the discrete GPU settles it.
  EXPECT_EQ(find_finding(test::area_findings(apu_first, "rocm", {"HIP_VISIBLE_DEVICES=1"}),
                         "rocm.igpu_first"),
            nullptr);
  // ROCm/rocm-cli#395: the discrete GPU is first; HIP_VISIBLE_DEVICES=1 keeps only the iGPU.
  const std::string dgpu_first = test::fixture_path("corpus-rocm-7900xt-raphael-hip-visible-1-igpu");
  EXPECT_EQ(find_finding(test::area_findings(dgpu_first, "rocm"), "rocm.igpu_first"), nullptr);
  const auto kept = test::area_findings(dgpu_first, "rocm", {"HIP_VISIBLE_DEVICES=1"});
  const Json* g = find_finding(kept, "rocm.igpu_first");
  ASSERT_NE(g, nullptr);
  EXPECT_NE((*g)["title"].get<std::string>().find("leaves only the integrated GPU gfx1036"),
            std::string::npos)
      << (*g)["title"];
}

TEST(CorpusBatch8, TwoCupyWheelsAndTensorflowWithoutItsMetalPluginAreNamed) {
  const auto cupy = test::area_findings(
      test::fixture_path("corpus-container-gpustack-cupy-12x-and-13x"), "python");
  EXPECT_NE(find_finding(cupy, "python.cupy_packages"), nullptr);
  const auto tf = test::area_findings(test::fixture_path("corpus-mac-tf215-no-tensorflow-metal"),
                                      "macos", {"HOME=/Users/dev", "VIRTUAL_ENV=/Users/dev/tf-env"});
  const Json* f = find_finding(tf, "macos.tensorflow_metal_missing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE((*f)["fix"].get<std::string>().find("tensorflow-metal==1.1.0"), std::string::npos);
  // With its plugin beside it (the M2 Max fixture's pair), nothing is missing.
  EXPECT_EQ(find_finding(test::area_findings(test::fixture_path("mac-m2max-tf218-metal110"), "macos"),
                         "macos.tensorflow_metal_missing"),
            nullptr);
}

TEST(CorpusBatch8, WslsGpuDeviceBesideRocmIsNotAMissingNvidiaDriver) {
  // /dev/dxg carries every vendor's GPU into WSL 2 (ROCm/legacy-rocm-build#3561's RX 7900 XTX):
  // with ROCm installed and no CUDA toolkit, a missing libcuda is not NVIDIA's driver missing.
  test::TempTree t;
  t.write("proc/sys/kernel/osrelease", "5.15.153.1-microsoft-standard-WSL2\n");
  t.write("proc/sys/fs/binfmt_misc/WSLInterop", "enabled\n");
  t.write("dev/dxg", "");
  t.write("usr/lib/wsl/lib/libdxcore.so", "");
  EXPECT_NE(find_finding(test::area_findings(t.path(), "nvidia"), "nvidia.wsl_gpu"), nullptr);
  t.write("opt/rocm/.info/version", "6.2.0-66\n");
  EXPECT_EQ(find_finding(test::area_findings(t.path(), "nvidia"), "nvidia.wsl_gpu"), nullptr);
}

}  // namespace paste_round10_test
}  // namespace gpudoctor
