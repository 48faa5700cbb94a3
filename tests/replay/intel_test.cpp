// Intel machines and pastes (tests/fixtures/intel-corpus.md): the finding of each thread's
// established cause, and none on the healthy ones. The holdout cases are asserted too (they
// guard against regressions); docs/intel.md reports their rate apart.
#include <gtest/gtest.h>

#include <set>

#include "checks/intel_identity.hpp"
#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace intel_test {

struct IntelRun {
  Json findings;
  std::string err;
};

IntelRun intel_check(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  std::vector<std::string> a = {"check", "--json"};
  a.insert(a.end(), args.begin(), args.end());
  auto r = test::run_gpudoctor(a, env);
  IntelRun out;
  out.err = r.err;
  const Json j = Json::parse(r.out, nullptr, false);
  if (!j.is_discarded() && j.contains("findings")) out.findings = j["findings"];
  return out;
}

IntelRun on_machine(const std::string& fixture, const std::vector<std::string>& env = {}) {
  return intel_check({"--sysroot", test::fixture_path(fixture)}, env);
}

IntelRun on_paste(const std::string& file) {
  return intel_check({"--from", test::fixture_path("pastes/intel/" + file)});
}

std::string severity_of(const Json& findings, const std::string& id) {
  for (const auto& f : findings) {
    if (f["id"] == id) return f["severity"].get<std::string>();
  }
  return "";
}

std::set<std::string> problems(const Json& findings) {
  std::set<std::string> out;
  for (const auto& f : findings) {
    if (f["severity"] == "warn" || f["severity"] == "fail") out.insert(f["id"].get<std::string>());
  }
  return out;
}

TEST(IntelIdentity, TableLoadsAndPlacesIdsAndNames) {
  const IntelTable& t = intel_table();
  EXPECT_TRUE(t.errors.empty()) << t.errors.front();
  ASSERT_FALSE(t.platforms.empty());
  auto b580 = identify_intel(t, 0xe20b, std::nullopt);
  ASSERT_NE(b580.platform, nullptr);
  EXPECT_EQ(b580.platform->platform, "Battlemage");
  EXPECT_EQ(b580.platform->drivers, std::vector<std::string>{"xe"});
  // e210 is in pci.ids (Battlemage G21) but not in the kernel header the table copies: its name
  // places it, and says so.
  auto e210 = identify_intel(t, 0xe210, std::string("Battlemage G21 [Intel Graphics]"));
  ASSERT_NE(e210.platform, nullptr);
  EXPECT_EQ(e210.platform->platform, "Battlemage");
  EXPECT_NE(e210.how.find("pci.ids name"), std::string::npos);
  auto cml = identify_intel(t, 0x9bc4, std::string("CometLake-H GT2 [UHD Graphics]"));
  ASSERT_NE(cml.platform, nullptr);
  EXPECT_EQ(cml.platform->generation, "Gen9");
  EXPECT_EQ(cml.platform->runtime, std::optional<std::string>("legacy1"));
  EXPECT_EQ(identify_intel(t, 0x1234, std::string("Some Future Lake")).platform, nullptr);
  EXPECT_EQ(intel_kernel_version(std::string("6.8.0-51-generic")), std::optional<std::string>("6.8.0"));
}

TEST(IntelIdentity, ABrokenTableSaysWhat) {
  auto t = read_intel_table(R"({"rows": [{"platform": "X", "ids": ["zz"]}]})");
  EXPECT_EQ(t.errors.size(), 2u);  // the bad id, and no source
  EXPECT_FALSE(read_intel_table("not json").errors.empty());
}

/// An Intel GPU bound to `driver` and one Python environment with these packages.
Snapshot intel_snapshot(const std::string& driver,
                        const std::vector<std::pair<std::string, std::string>>& packages) {
  Snapshot s;
  s.origin = Origin::sysroot;
  s.host = HostInfo{};
  s.host->os_id = "ubuntu";
  s.host->kernel_release = "6.8.0-51-generic";
  s.pci = PciInfo{};
  PciDevice p;
  p.address = "0000:03:00.0";
  p.class_code = 0x030000;
  p.vendor_id = kPciVendorIntel;
  p.device_id = 0x56a0;
  p.driver = driver;
  s.pci->devices.push_back(p);
  s.opencl = OpenClInfo{};
  s.opencl->vendors_dir = "/etc/OpenCL/vendors";
  s.python = PythonInfo{};
  PythonEnv env;
  env.kind = "venv";
  env.prefix = "/home/user/venv";
  for (const auto& [name, version] : packages) {
    PythonPackage pkg;
    pkg.name = name;
    pkg.version = version;
    pkg.metadata_dir = name + "-" + version + ".dist-info";
    env.packages.push_back(pkg);
  }
  s.python->envs.push_back(env);
  return s;
}

TEST(IntelChecks, XpuTorchWithoutIntelsComputeRuntime) {
  Snapshot s = intel_snapshot("i915", {{"torch", "2.7.0+xpu"}});
  auto f = test::with_id(test::run_all_checks(s), "intel.compute_runtime_missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  OpenClIcd icd;
  icd.source = "/etc/OpenCL/vendors";
  icd.file = "/etc/OpenCL/vendors/intel.icd";
  icd.library = "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so";
  s.opencl->icds.push_back(icd);
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "intel.compute_runtime_missing").empty());
  // No XPU framework: nothing to say about the runtime.
  Snapshot plain = intel_snapshot("i915", {{"torch", "2.7.0+cpu"}});
  EXPECT_TRUE(test::with_id(test::run_all_checks(plain), "intel.compute_runtime_missing").empty());
}

TEST(IntelChecks, IpexPairsWithItsOwnTorchMinor) {
  auto bad = test::with_id(test::run_all_checks(intel_snapshot(
                               "i915", {{"torch", "2.3.0"}, {"intel-extension-for-pytorch", "2.1.10+xpu"}})),
                           "python.ipex_torch");
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].title.find("needs torch 2.1.*"), std::string::npos) << bad[0].title;
  auto good = test::run_all_checks(
      intel_snapshot("i915", {{"torch", "2.1.0.post2+cxx11.abi"}, {"intel-extension-for-pytorch", "2.1.10+xpu"}}));
  EXPECT_TRUE(test::with_id(good, "python.ipex_torch").empty());
  EXPECT_TRUE(test::with_id(good, "python.ipex_cpu_only").empty());
  EXPECT_EQ(test::with_id(good, "python.ipex_ended").size(), 1u);
}

TEST(IntelChecks, AlchemistOnAnOldKernelBoundOrNot) {
  // DG2 wants 6.2 (compute-runtime#610); the snapshot's kernel is 6.8: nothing to say.
  EXPECT_TRUE(test::with_id(test::run_all_checks(intel_snapshot("i915", {})), "intel.kernel_too_old").empty());
  Snapshot s = intel_snapshot("i915", {});
  s.host->kernel_release = "5.15.0-153-generic";
  EXPECT_EQ(test::with_id(test::run_all_checks(s), "intel.kernel_too_old").size(), 1u);
  s.pci->devices[0].driver = "vfio-pci";  // passed to a VM: not this kernel's business
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "intel.kernel_too_old").empty());
}

TEST(IntelMachines, BattlemageOnAKernelWithoutXe) {
  // intel-gpu-i915-backports#209: Ubuntu 24.04, 6.8.0-51-generic, no driver.
  auto r = on_machine("intel-bmg-g21-kernel-68-no-driver");
  EXPECT_EQ(severity_of(r.findings, "intel.kernel_too_old"), "fail") << r.findings.dump(2);
  EXPECT_EQ(severity_of(r.findings, "gpu.no_driver"), "");  // one cause, one finding
}

TEST(IntelMachines, UserOutsideRender) {
  // intel/compute-runtime#701: usermod -a -G render fixed it.
  auto r = on_machine("intel-arc-a770-ssh-not-in-render");
  EXPECT_EQ(severity_of(r.findings, "intel.not_in_render_group"), "warn") << r.findings.dump(2);
  EXPECT_EQ(problems(r.findings), std::set<std::string>{"intel.not_in_render_group"});
}

TEST(IntelMachines, IpexCpuBuildOnAnIntelGpu) {
  // intel/intel-extension-for-pytorch#244.
  auto r = on_machine("intel-adl-ipex-111-cpu-only", {"VIRTUAL_ENV=/home/user/venv"});
  EXPECT_EQ(severity_of(r.findings, "python.ipex_cpu_only"), "warn") << r.findings.dump(2);
}

TEST(IntelMachines, HoldoutAlchemistBeforeLinux62) {
  // i915 is bound: Intel's out-of-tree i915 backport would run DG2 on such a kernel, so this is
  // a risk (warn), not a certain failure like a GPU no driver binds.
  auto r = on_machine("intel-a770-kernel-pre-62");
  EXPECT_EQ(severity_of(r.findings, "intel.kernel_too_old"), "warn") << r.findings.dump(2);
}

TEST(IntelMachines, HoldoutHealthyB580OnXe) {
  auto r = on_machine("intel-b580-xe-611-healthy");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelMachines, LevelZeroMissingIsNotSeenWithoutTheLevelZeroSection) {
  // intel/compute-runtime#477: the cause is the Level Zero driver, which only the Level Zero
  // backend reads. Nothing here may claim a wrong cause in the meantime.
  auto r = on_machine("intel-xeonw-igpu-no-level-zero");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelPastes, SyclLsWithoutLevelZero) {
  auto r = on_paste("compute-runtime-477-sycl-ls-no-level-zero.txt");
  EXPECT_EQ(severity_of(r.findings, "intel.level_zero_missing"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes, TorchXpuInitFailed) {
  auto r = on_paste("pytorch-147226-xpu-init-failed.txt");
  EXPECT_EQ(severity_of(r.findings, "python.torch_xpu_init"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes, GucFirmwareMissing) {
  auto r = on_paste("i915-backports-41-guc-missing.txt");
  EXPECT_EQ(severity_of(r.findings, "gpu.firmware_missing"), "warn") << r.findings.dump(2);
}

TEST(IntelPastes, TorchNotLinkedWithXpu) {
  auto r = on_paste("ipex-244-xpu-not-linked.txt");
  EXPECT_EQ(severity_of(r.findings, "python.torch_no_xpu"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes, HealthyMax1100CollectEnv) {
  auto r = on_paste("torch-xpu-ops-2024-collect-env-max1100.txt");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelPastes, HealthyIrisXeThroughVulkanAndSycl) {
  auto r = on_paste("ramalama-1585-iris-xe-vulkan-sycl-healthy.txt");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelPastes, HealthySyclLs2023Layout) {
  auto r = on_paste("llama-cpp-sycl-doc-a770-healthy.txt");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelPastes, XpuSmiDiscoveryIsRead) {
  auto r = test::run_gpudoctor({"check", "--json", "--from",
                                test::fixture_path("pastes/intel/xpumanager-smi-guide-discovery-healthy.txt")});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // recognised (an unrecognised paste exits 2), nothing wrong
  const Json j = Json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_NE(r.out.find("xpu-smi"), std::string::npos);
  EXPECT_TRUE(problems(j["findings"]).empty()) << j["findings"].dump(2);
}

TEST(IntelPastes, HoldoutSyclLsOpenClGpuOnly) {
  auto r = on_paste("holdout/compute-runtime-764-sycl-ls-opencl-gpu-only.txt");
  EXPECT_EQ(severity_of(r.findings, "intel.level_zero_missing"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes, HoldoutHealthyIpexDeviceList) {
  auto r = on_paste("holdout/ipex-364-xpu-device-properties-healthy.txt");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

}  // namespace intel_test
}  // namespace gpudoctor
