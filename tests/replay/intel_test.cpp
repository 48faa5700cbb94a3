// Intel machines and pastes (tests/fixtures/intel-corpus.md): the finding of each thread's
// established cause, and none on the healthy ones. The holdout cases are asserted too (they
// guard against regressions); docs/intel.md reports their rate apart.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "checks/intel_identity.hpp"
#include "checks/readiness.hpp"
#include "json.hpp"
#include "paste/read_pasted.hpp"
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

TEST(IntelMachines, LevelZeroDriverMissingBesideTheOpenClIcd) {
  // intel/compute-runtime#477: intel-opencl-icd installed, no libze_intel_gpu.so.1 on the library
  // path (the Level Zero section's driver_libraries). No XPU framework: a warning, and it is the
  // only problem claimed.
  auto r = on_machine("intel-xeonw-igpu-no-level-zero");
  EXPECT_EQ(severity_of(r.findings, "intel.level_zero_missing"), "warn") << r.findings.dump(2);
  EXPECT_EQ(problems(r.findings).size(), 1u) << r.findings.dump(2);
}

TEST(IntelMachines, LevelZeroDriverBesideTheIcdIsNotMissing) {
  // The same kind of tree with the driver on the library path (the thread shows it installed).
  for (const char* tree : {"intel-arc-a770-ssh-not-in-render", "intel-max1550-ipex-not-in-render"}) {
    auto r = on_machine(tree, {"VIRTUAL_ENV=/home/gta/py311"});
    EXPECT_EQ(severity_of(r.findings, "intel.level_zero_missing"), "") << tree << r.findings.dump(2);
    EXPECT_EQ(severity_of(r.findings, "intel.compute_runtime_missing"), "") << tree;
  }
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

TEST(IntelPastes, XpuSmiHealthIsRead) {
  // intel/xpumanager's smi_user_guide.md: `xpu-smi health -l` of one healthy device.
  const std::string path = test::fixture_path("pastes/intel/xpumanager-smi-guide-health-healthy.txt");
  auto r = test::run_gpudoctor({"check", "--json", "--from", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // recognised (an unrecognised paste exits 2), nothing wrong
  const Json j = Json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_TRUE(problems(j["findings"]).empty()) << j["findings"].dump(2);
  // Every component's status is a fact of device 0; the table is the health reader's.
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto reading = read_pasted(text);
  std::map<std::string, std::string> facts;
  for (const auto& f : reading.facts) facts[f.key] = f.value;
  EXPECT_EQ(facts["xpu-smi.0.health.GPU Core Temperature.Status"], "Ok");
  EXPECT_EQ(facts["xpu-smi.0.health.GPU Core Temperature.Throttle Threshold"], "105 Celsius Degree");
  EXPECT_EQ(facts["xpu-smi.0.health.GPU Memory.Description"], "All memory channels are healthy.");
  EXPECT_EQ(facts["xpu-smi.0.health.GPU Frequency.Status"], "OK");
  EXPECT_EQ(facts.count("xpu-smi.0.Device Information"), 0u);  // not read as discovery
  EXPECT_TRUE(reading.unrecognised.empty());
}

TEST(IntelPastes, XpuSmiDiscoveryTableIsNotHealth) {
  // The discovery table's "| Device ID | Device Information |" header is not a health device row.
  const auto reading = read_pasted(
      "+-----------+----------------------------------------------+\n"
      "| Device ID | Device Information                           |\n"
      "+-----------+----------------------------------------------+\n"
      "| 0         | Device Name: Intel(R) Graphics [0x020a]      |\n"
      "+-----------+----------------------------------------------+\n");
  for (const auto& f : reading.facts) {
    EXPECT_EQ(f.key.find(".health."), std::string::npos) << f.key;
  }
  EXPECT_FALSE(reading.facts.empty());
}

TEST(IntelPastes, HoldoutSyclLsOpenClGpuOnly) {
  auto r = on_paste("holdout/compute-runtime-764-sycl-ls-opencl-gpu-only.txt");
  EXPECT_EQ(severity_of(r.findings, "intel.level_zero_missing"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes, HoldoutHealthyIpexDeviceList) {
  auto r = on_paste("holdout/ipex-364-xpu-device-properties-healthy.txt");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

// --- second round (tests/fixtures/intel-corpus.md) -------------------------------------------

/// A snapshot with these XPU variables set (the Python probe records them).
Snapshot intel_env_snapshot(const std::vector<std::pair<std::string, std::string>>& vars,
                            std::size_t gpus = 1) {
  Snapshot s = intel_snapshot("i915", {});
  for (std::size_t i = 1; i < gpus; ++i) {
    PciDevice p = s.pci->devices[0];
    p.address = "0000:0" + std::to_string(3 + i) + ":00.0";
    s.pci->devices.push_back(p);
  }
  XpuEnvironment& x = s.python->xpu_env;
  for (const auto& [k, v] : vars) {
    if (k == "ONEAPI_DEVICE_SELECTOR") x.oneapi_device_selector = v;
    if (k == "SYCL_DEVICE_FILTER") x.sycl_device_filter = v;
    if (k == "ZE_AFFINITY_MASK") x.ze_affinity_mask = v;
    if (k == "ZE_FLAT_DEVICE_HIERARCHY") x.ze_flat_device_hierarchy = v;
    if (k == "LD_LIBRARY_PATH") x.ld_library_path = v;
  }
  return s;
}

std::string selector_severity(const std::vector<std::pair<std::string, std::string>>& vars,
                              std::size_t gpus = 1) {
  auto f = test::with_id(test::run_all_checks(intel_env_snapshot(vars, gpus)), "intel.device_selector");
  if (f.empty()) return "";
  return std::string(to_string(f[0].severity));
}

TEST(IntelDeviceSelection, OneapiDeviceSelectorGrammar) {
  // The grammar of intel/llvm's EnvironmentVariables.md.
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:0"}}), "");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:gpu"}}), "");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:*;!opencl:*"}}), "");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "LEVEL_ZERO:0.1"}}), "");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:gpu:0"}}), "fail");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero"}}), "fail");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "levelzero:gpu"}}), "fail");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:gpux"}}), "fail");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:*.0"}}), "fail");
}

TEST(IntelDeviceSelection, SelectorsThatHideTheGpus) {
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "opencl:cpu"}}), "fail");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "!*:gpu"}}), "fail");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:1"}}, 1), "fail");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:1"}}, 2), "");
  EXPECT_EQ(selector_severity({{"ONEAPI_DEVICE_SELECTOR", "level_zero:0,3"}}, 2), "warn");
  // A paste has no PCI list: the indices are not judged, the syntax is.
  Snapshot s = intel_env_snapshot({{"ONEAPI_DEVICE_SELECTOR", "level_zero:7"}});
  s.pci.reset();
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "intel.device_selector").empty());
}

TEST(IntelDeviceSelection, SyclDeviceFilter) {
  // Alone it is deprecated (its own id, info); beside ONEAPI_DEVICE_SELECTOR the runtime refuses.
  EXPECT_EQ(selector_severity({{"SYCL_DEVICE_FILTER", "level_zero:gpu:0"}}), "");
  auto alone = test::with_id(test::run_all_checks(intel_env_snapshot({{"SYCL_DEVICE_FILTER", "level_zero:gpu:0"}})),
                             "intel.device_filter_deprecated");
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].severity, Severity::info);
  EXPECT_EQ(selector_severity({{"SYCL_DEVICE_FILTER", "level_zero:gpu"},
                               {"ONEAPI_DEVICE_SELECTOR", "level_zero:gpu"}}),
            "fail");
}

TEST(IntelDeviceSelection, AffinityMaskAndHierarchy) {
  EXPECT_EQ(selector_severity({{"ZE_AFFINITY_MASK", "0"}}), "");
  EXPECT_EQ(selector_severity({{"ZE_AFFINITY_MASK", "0.1"}}), "");
  EXPECT_EQ(selector_severity({{"ZE_AFFINITY_MASK", ""}}), "");
  EXPECT_EQ(selector_severity({{"ZE_AFFINITY_MASK", "1"}}), "fail");
  EXPECT_EQ(selector_severity({{"ZE_AFFINITY_MASK", "0,2"}}), "warn");
  EXPECT_EQ(selector_severity({{"ZE_AFFINITY_MASK", "gpu0"}}), "warn");
  // A two-tile Max is two devices by default (FLAT).
  Snapshot s = intel_env_snapshot({{"ZE_AFFINITY_MASK", "1"}});
  s.pci->devices[0].device_name = "Ponte Vecchio XT (2 Tile) [Data Center GPU Max 1550]";
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "intel.device_selector").empty());
  EXPECT_EQ(selector_severity({{"ZE_FLAT_DEVICE_HIERARCHY", "COMPOSITE"}}), "");
  EXPECT_EQ(selector_severity({{"ZE_FLAT_DEVICE_HIERARCHY", "flatt"}}), "warn");
}

TEST(IntelOneapiRuntime, TorchPinsItsRuntimeWheels) {
  Snapshot s = intel_snapshot("i915", {{"torch", "2.7.0+xpu"}, {"intel-sycl-rt", "2025.1.0"},
                                       {"umf", "0.10.0"}});
  PythonPackage& torch = s.python->envs[0].packages[0];
  torch.requires_dist = {"intel-sycl-rt==2025.0.5; platform_system == \"Linux\"", "umf==0.10.0",
                         "intel-cmplr-lib-ur==2025.0.5", "intel-sycl-rt==2025.0.5; platform_system == \"Windows\""};
  auto f = test::with_id(test::run_all_checks(s), "python.xpu_runtime_wheels");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_NE(f[0].title.find("intel-sycl-rt 2025.1.0 (pinned 2025.0.5)"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].title.find("intel-cmplr-lib-ur missing"), std::string::npos) << f[0].title;
  EXPECT_EQ(f[0].title.find("umf"), std::string::npos) << f[0].title;
  // Pins met: nothing.
  s.python->envs[0].packages[1].version = "2025.0.5";
  torch.requires_dist = {"intel-sycl-rt==2025.0.5", "umf==0.10.0"};
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "python.xpu_runtime_wheels").empty());
}

TEST(IntelOneapiRuntime, SourcedToolkitAheadOfTheWheels) {
  Snapshot s = intel_snapshot("i915", {{"torch", "2.7.0+xpu"}, {"intel-sycl-rt", "2025.0.5"}});
  s.python->xpu_env.ld_library_path = "/opt/intel/oneapi/compiler/2025.1/lib:/usr/local/lib";
  auto f = test::with_id(test::run_all_checks(s), "intel.oneapi_shadows_wheels");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);  // 2025.1 against 2025.0
  s.python->envs[0].packages[1].version = "2025.1.1";
  f = test::with_id(test::run_all_checks(s), "intel.oneapi_shadows_wheels");
  EXPECT_TRUE(f.empty());  // the same release: nothing certain to say
  s.python->envs[0].packages.pop_back();  // the wheel's release unknown: a risk
  f = test::with_id(test::run_all_checks(s), "intel.oneapi_shadows_wheels");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  s.python->xpu_env.ld_library_path = "/usr/local/cuda/lib64";
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "intel.oneapi_shadows_wheels").empty());
}

TEST(IntelLegacyRuntime, Gen9WithTheRegularRuntime) {
  Snapshot s = intel_snapshot("i915", {});
  s.pci->devices[0].device_id = 0x5917;
  s.pci->devices[0].device_name = "Kaby Lake-R GT2 [UHD Graphics 620]";
  OpenClIcd icd;
  icd.source = "/etc/OpenCL/vendors";
  icd.file = "/etc/OpenCL/vendors/intel.icd";
  icd.library = "/nix/store/abc-intel-compute-runtime-25.13.33276.16/lib/intel-opencl/libigdrcl.so";
  s.opencl->icds.push_back(icd);
  auto f = test::with_id(test::run_all_checks(s), "intel.legacy_runtime");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);  // 25.13 >= 24.35.30872.22
  s.opencl->icds[0].library = "/nix/store/abc-intel-compute-runtime-24.13.29138.7/lib/intel-opencl/libigdrcl.so";
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "intel.legacy_runtime").empty());  // before the split
  s.opencl->icds[0].library = "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so";
  f = test::with_id(test::run_all_checks(s), "intel.legacy_runtime");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::info);  // release unknown: before 24.35 it still works
  OpenClIcd legacy = icd;
  legacy.file = "/etc/OpenCL/vendors/intel_legacy1.icd";
  legacy.library = "/usr/lib/x86_64-linux-gnu/intel-opencl-legacy1/libigdrcl_legacy1.so";
  s.opencl->icds.push_back(legacy);
  EXPECT_TRUE(test::with_id(test::run_all_checks(s), "intel.legacy_runtime").empty());
  // A Gen12 GPU is not legacy.
  Snapshot a770 = intel_snapshot("i915", {});
  a770.opencl->icds.push_back(icd);
  EXPECT_TRUE(test::with_id(test::run_all_checks(a770), "intel.legacy_runtime").empty());
}

TEST(IntelMachines2, Max1550UserOutsideRender) {
  auto r = on_machine("intel-max1550-ipex-not-in-render", {"VIRTUAL_ENV=/home/gta/py311"});
  EXPECT_EQ(severity_of(r.findings, "intel.not_in_render_group"), "warn") << r.findings.dump(2);
  EXPECT_EQ(problems(r.findings), std::set<std::string>{"intel.not_in_render_group"});
}

TEST(IntelMachines2, FilterBesideSelector) {
  auto r = on_machine("intel-onedpl-filter-with-selector",
                      {"SYCL_DEVICE_FILTER=level_zero:gpu", "ONEAPI_DEVICE_SELECTOR=level_zero:gpu"});
  EXPECT_EQ(severity_of(r.findings, "intel.device_selector"), "fail") << r.findings.dump(2);
}

TEST(IntelMachines2, SourcedToolkitBeforeTorchXpu) {
  auto r = on_machine("intel-torch-xpu-setvars-ur-loader",
                      {"VIRTUAL_ENV=/home/user/venv", "LD_LIBRARY_PATH=/opt/intel/oneapi/compiler/2025.2/lib"});
  EXPECT_NE(severity_of(r.findings, "intel.oneapi_shadows_wheels"), "") << r.findings.dump(2);
  EXPECT_EQ(severity_of(r.findings, "python.ipex_torch"), "fail") << r.findings.dump(2);
}

TEST(IntelMachines2, Gen9NeedsLegacy1) {
  // nixos-hardware#1351 gives no runtime release: the condition is said (info), not a cause.
  auto r = on_machine("intel-t480-uhd620-needs-legacy1");
  EXPECT_EQ(severity_of(r.findings, "intel.legacy_runtime"), "info") << r.findings.dump(2);
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelMachines2, RocketLakeWithoutLevelZeroDriver) {
  // compute-runtime#832: the Level Zero section finds no libze_intel_gpu.so.1 beside
  // intel-opencl-icd; the finding names the package the thread's fix installed.
  auto r = on_machine("intel-rkl-11700k-no-libze-intel-gpu");
  EXPECT_EQ(severity_of(r.findings, "intel.level_zero_missing"), "warn") << r.findings.dump(2);
  EXPECT_NE(r.findings.dump().find("libze-intel-gpu1"), std::string::npos);
  EXPECT_EQ(problems(r.findings).size(), 1u) << r.findings.dump(2);
}

TEST(IntelMachines2, HealthyMax1100) {
  auto r = on_machine("intel-max1100-torch-xpu-healthy", {"VIRTUAL_ENV=/tmp/xpu-tool/Python/3.10.20/x64"});
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelMachines2, HoldoutHealthyB60) {
  auto r = on_machine("intel-b60-torch-213-xpu-healthy", {"VIRTUAL_ENV=/home/user/venv"});
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelMachines2, HoldoutHealthyA770Ubuntu2604) {
  auto r = on_machine("intel-a770-ubuntu2604-torch-xpu-healthy", {"VIRTUAL_ENV=/home/user/sleap-nn/.venv"});
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelMachines2, HoldoutSelectorWithTooManyColons) {
  auto r = on_machine("intel-a770-selector-too-many-colons", {"ONEAPI_DEVICE_SELECTOR=level_zero:gpu:0"});
  EXPECT_EQ(severity_of(r.findings, "intel.device_selector"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes2, LoaderCannotOpenLibzeIntelGpu) {
  auto r = on_paste("compute-runtime-832-loader-trace-no-libze.txt");
  EXPECT_EQ(severity_of(r.findings, "intel.level_zero_missing"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes2, XeGucFirmwareMissing) {
  auto r = on_paste("incus-os-891-xe-bmg-guc-enoent.txt");
  EXPECT_NE(severity_of(r.findings, "gpu.firmware_missing"), "") << r.findings.dump(2);
}

TEST(IntelPastes2, SyclFilterWithSelector) {
  auto r = on_paste("onedpl-787-sycl-device-filter-deprecated.txt");
  EXPECT_EQ(severity_of(r.findings, "intel.device_selector"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes2, UrLoaderOfASourcedToolkit) {
  auto r = on_paste("pytorch-149953-libur-loader-setvars.txt");
  EXPECT_EQ(severity_of(r.findings, "intel.oneapi_shadows_wheels"), "fail") << r.findings.dump(2);
}

TEST(IntelPastes2, HoldoutXeGucTooOld) {
  auto r = on_paste("holdout/sof-linux-5196-xe-lnl-guc-too-old.txt");
  EXPECT_NE(severity_of(r.findings, "gpu.firmware_missing"), "") << r.findings.dump(2);
}

TEST(IntelPastes2, HoldoutHealthySyclLsTwoLevelZeroGpus) {
  auto r = on_paste("holdout/oneapi-spec-536-sycl-ls-a770m-iris-healthy.txt");
  EXPECT_TRUE(problems(r.findings).empty()) << r.findings.dump(2);
}

TEST(IntelReadiness, XpuPairOnAHealthyTree) {
  auto r = test::run_gpudoctor({"check", "--json", "--no-smoke", "--sysroot",
                                test::fixture_path("intel-b60-torch-213-xpu-healthy")},
                               {"VIRTUAL_ENV=/home/user/venv"});
  const Json j = Json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.err;
  ASSERT_TRUE(j.contains("readiness"));
  std::map<std::string, Json> stages;
  for (const auto& pair : j["readiness"]) {
    if (pair["framework"] != "torch 2.13.0+xpu") continue;
    EXPECT_EQ(pair["api"], "xpu");  // read from the version's +xpu where no build file was read
    for (const auto& st : pair["stages"]) stages[st["stage"].get<std::string>()] = st;
    break;
  }
  ASSERT_FALSE(stages.empty()) << j["readiness"].dump(2);
  EXPECT_EQ(stages["kernel_driver"]["state"], "ok");
  EXPECT_EQ(stages["access"]["state"], "ok");
  EXPECT_NE(stages["access"]["fact"].get<std::string>().find("/dev/dri/renderD"), std::string::npos);
  // Only the OpenCL half of the compute runtime is in the tree: said, not passed.
  EXPECT_EQ(stages["user_driver"]["state"], "not_examined");
  EXPECT_NE(stages["user_driver"]["fact"].get<std::string>().find("libze_intel_gpu"), std::string::npos);
}

TEST(IntelReadiness, SelectorHidingTheGpuFailsAtAccess) {
  Snapshot s = intel_env_snapshot({{"ONEAPI_DEVICE_SELECTOR", "opencl:cpu"}});
  PythonPackage torch;
  torch.name = "torch";
  torch.version = "2.7.0+xpu";
  torch.metadata_dir = "torch-2.7.0+xpu.dist-info";
  s.python->envs[0].packages.push_back(torch);
  OpenClIcd icd;
  icd.source = "/etc/OpenCL/vendors";
  icd.library = "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so";
  s.opencl->icds.push_back(icd);
  auto findings = test::run_all_checks(s);
  ASSERT_EQ(test::with_id(findings, "intel.device_selector").size(), 1u);
  const StageOfFinding* row = nullptr;
  auto placed = stage_of_finding("intel.device_selector");
  ASSERT_TRUE(placed.has_value());
  row = &*placed;
  EXPECT_EQ(row->stage, Stage::access);
  EXPECT_EQ(row->vendor, "intel");
}

}  // namespace intel_test
}  // namespace gpudoctor
