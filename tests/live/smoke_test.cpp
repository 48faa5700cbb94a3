// The smoke matmul on OpenCL and Vulkan devices: the shared verdict, the smoke.failed check,
// fake drivers whose kernels return wrong numbers or crash (tests/fakes/opencl,
// tests/fakes/vulkan), and the real drivers on this machine's CPU (PoCL, lavapipe).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "core/isolate.hpp"
#include "json.hpp"
#include "smoke/smoke_verdict.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

std::string opencl_fake(const std::string& mode) {
  return std::string(GPUDOCTOR_FAKES) + "/opencl/libfake_opencl_" + mode + ".so";
}

std::string vulkan_fake(const std::string& mode) {
  return std::string(GPUDOCTOR_FAKES) + "/vulkan/fake_vk_" + mode + ".json";
}

struct Check {
  test::CommandResult run;
  Json json;
};

/// `gpudoctor check --json` on one backend, with the smoke test.
Check check_json(const std::string& backend, const std::vector<std::string>& env,
                 const std::string& timeout = "10") {
  Check c;
  c.run = test::run_gpudoctor({"check", "--json", "--backend", backend, "--timeout", timeout}, env);
  c.json = Json::parse(c.run.out, nullptr, false);
  return c;
}

/// The smoke result for the device whose name contains `device`, or null.
const Json* smoke_for(const Check& c, const std::string& api, const std::string& device) {
  if (c.json.is_discarded()) return nullptr;
  for (const auto& s : c.json["snapshot"][api]["smoke"]) {
    if (s["device"].get<std::string>().find(device) != std::string::npos) return &s;
  }
  return nullptr;
}

const Json* finding(const Check& c, const std::string& id, const std::string& area) {
  for (const auto& f : c.json["findings"]) {
    if (f["id"] == id && f["area"] == area) return &f;
  }
  return nullptr;
}

std::string text(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

TEST(SmokeVerdict, AWrongEntryFailsAndSaysWhere) {
  const smoke::MatmulInputs in = smoke::matmul_inputs(64);
  std::vector<float> c = smoke::matmul_fp32(in);
  SmokeResult ok;
  smoke::record_verdict(ok, in, c);
  EXPECT_EQ(ok.status, "pass");
  c[10 * 64 + 42] += 0.5f;
  SmokeResult r;
  smoke::record_verdict(r, in, c);
  EXPECT_EQ(r.status, "fail");
  EXPECT_EQ(r.worst_row, 10);
  EXPECT_EQ(r.worst_col, 42);
  EXPECT_EQ(r.wrong_entries, 1);
  ASSERT_TRUE(r.max_abs_error && r.tolerance && r.max_rel_error);
  EXPECT_NEAR(*r.max_abs_error, 0.5, 1e-3);
  EXPECT_GT(*r.max_rel_error, 0.0);
  EXPECT_NE(r.reason->find("1 of 4096 entries wrong"), std::string::npos) << *r.reason;
  EXPECT_NE(r.reason->find("at row 10, col 42"), std::string::npos) << *r.reason;
}

TEST(SmokeRun, PaddedLayoutRoundsUpToTheTileAndPadsEveryRow) {
  const smoke::PaddedLayout l = smoke::padded_layout(100, 64);
  EXPECT_EQ(l.padded, 128);
  EXPECT_EQ(l.ld, 144);
  EXPECT_EQ(l.bytes, 128u * 144u * sizeof(float));
  EXPECT_EQ(smoke::padded_layout(256, 16).padded, 256);  // already a multiple: no extra tile
}

TEST(SmokeRun, ARunStartsFromTheSetupOutcomeAndRefusesNonPositiveSizes) {
  SmokeResult ready;
  ready.api = "vulkan";
  const SmokeResult r = smoke::start_run(ready, 0);
  EXPECT_EQ(r.n, 0);
  EXPECT_EQ(r.status, "skip");
  EXPECT_EQ(r.reason, "n must be positive");
  EXPECT_EQ(smoke::start_run(ready, 64).status, "");  // the runner goes on
  SmokeResult broken = ready;
  smoke::record_failure(broken, "vkCreateDevice returned VK_ERROR_DEVICE_LOST (-4)");
  const SmokeResult b = smoke::start_run(broken, -1);  // the setup failure stays the verdict
  EXPECT_EQ(b.status, "fail");
  EXPECT_EQ(b.reason, "vkCreateDevice returned VK_ERROR_DEVICE_LOST (-4)");
}

TEST(SmokeVerdict, ADeadDriverFailsItsDeviceAndSkipsTheRest) {
  auto lost = smoke::smoke_lost("opencl", "libx.so", "B", {"A", "B", "C"}, "libx.so crashed");
  ASSERT_EQ(lost.size(), 2u);
  EXPECT_EQ(lost[0].device, "B");
  EXPECT_EQ(lost[0].status, "fail");
  EXPECT_EQ(lost[0].reason, "libx.so crashed (during the smoke matmul)");
  EXPECT_EQ(lost[1].device, "C");
  EXPECT_EQ(lost[1].status, "skip");
}

// A child's progress reports are what survives it: the smoke test's way to say where it died.
TEST(IsolateProgress, ADeadChildLeavesItsLastProgressReport) {
  IsolatedJob dies{"test", "dies", std::nullopt, [] {
                     report_progress(Json{{"step", 1}});
                     report_progress(Json{{"step", 2}});
                     ::kill(::getpid(), SIGKILL);
                     return JobReport{};
                   }};
  IsolatedJob finishes{"test", "finishes", std::nullopt, [] {
                         report_progress(Json{{"step", 1}});
                         return JobReport{ProbeStatus::ok, "done", Json{{"step", "final"}}};
                       }};
  auto results = run_isolated({dies, finishes}, std::chrono::milliseconds(5000));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome.status, ProbeStatus::crashed);
  ASSERT_TRUE(results[0].data);
  EXPECT_EQ((*results[0].data)["step"], 2);
  EXPECT_EQ(results[1].outcome.status, ProbeStatus::ok);
  ASSERT_TRUE(results[1].data);
  EXPECT_EQ((*results[1].data)["step"], "final");
}

TEST(SmokeCheck, EveryApisFailureFailsAndASkipIsANote) {
  Snapshot s;
  s.opencl = OpenClInfo{};
  s.vulkan = VulkanInfo{};
  const smoke::MatmulInputs in = smoke::matmul_inputs(64);
  std::vector<float> c = smoke::matmul_fp32(in);
  c[3 * 64 + 5] += 0.25f;
  SmokeResult bad;
  bad.api = "opencl";
  bad.device = "gpu0";
  smoke::record_verdict(bad, in, c);
  s.opencl->smoke.push_back(bad);
  SmokeResult skipped;
  skipped.api = "vulkan";
  skipped.device = "gpu1";
  skipped.status = "skip";
  skipped.reason = "no queue family of the device can run compute shaders";
  s.vulkan->smoke.push_back(skipped);
  auto devices = merge_devices(s);
  auto findings = run_checks(CheckInput{s, devices, builtin_compat()});
  auto smoke_findings = std::count_if(findings.begin(), findings.end(),
                                      [](const Finding& f) { return f.id == "smoke.failed"; });
  EXPECT_EQ(smoke_findings, 2);
  for (const auto& f : findings) {
    if (f.id != "smoke.failed") continue;
    if (f.area == "opencl") {
      EXPECT_EQ(f.severity, Severity::fail);
      EXPECT_NE(f.title.find("gave wrong results"), std::string::npos) << f.title;
      EXPECT_NE(std::find_if(f.evidence.begin(), f.evidence.end(),
                             [](const std::string& e) {
                               return e.find("at row 3, col 5") != std::string::npos;
                             }),
                f.evidence.end());
    } else {
      EXPECT_EQ(f.area, "vulkan");
      EXPECT_EQ(f.severity, Severity::info);
      EXPECT_NE(f.title.find("no queue family"), std::string::npos) << f.title;
    }
  }
}

TEST(OpenClSmokeFault, KernelReturningWrongNumbersIsAFailWithTheError) {
  Check c = check_json("opencl", {"OCL_ICD_VENDORS=" + opencl_fake("wrong_result")});
  EXPECT_EQ(c.run.exit_code, 1) << c.run.err;
  const Json* s = smoke_for(c, "opencl", "fake compute device");
  ASSERT_TRUE(s) << c.run.out;
  EXPECT_EQ((*s)["status"], "fail");
  EXPECT_EQ((*s)["worst_row"], 3);
  EXPECT_EQ((*s)["worst_col"], 5);
  EXPECT_NEAR((*s)["max_abs_error"].get<double>(), 0.25, 1e-3);
  EXPECT_EQ((*s)["n"], 256);
  EXPECT_NE(text(*s, "reason").find("1 of 65536 entries wrong"), std::string::npos);
  const Json* f = finding(c, "smoke.failed", "opencl");
  ASSERT_TRUE(f) << c.json["findings"].dump(2);
  EXPECT_EQ((*f)["severity"], "fail");
}

TEST(OpenClSmokeFault, DriverCrashingMidKernelIsAFailSayingItCrashed) {
  Check c = check_json(
      "opencl", {"OCL_ICD_VENDORS=" + opencl_fake("kernel_crash"), "ASAN_OPTIONS=handle_segv=0"});
  EXPECT_EQ(c.run.exit_code, 1) << c.run.err;
  const Json* s = smoke_for(c, "opencl", "fake compute device");
  ASSERT_TRUE(s) << c.run.out;
  EXPECT_EQ((*s)["status"], "fail");
  const std::string reason = text(*s, "reason");
  EXPECT_NE(reason.find("crashed: SIGSEGV"), std::string::npos) << reason;
  EXPECT_NE(reason.find("during the smoke matmul"), std::string::npos) << reason;
  // What the child enumerated before it died is still there.
  EXPECT_EQ(c.json["snapshot"]["opencl"]["platforms"].size(), 1u);
  EXPECT_TRUE(finding(c, "smoke.failed", "opencl")) << c.json["findings"].dump(2);
}

TEST(OpenClSmokeFault, DriverHangingMidKernelIsAFailAtTheDeadline) {
  Check c = check_json("opencl", {"OCL_ICD_VENDORS=" + opencl_fake("kernel_hang")}, "2");
  EXPECT_EQ(c.run.exit_code, 1) << c.run.err;
  EXPECT_LT(c.run.seconds, 5.0);
  const Json* s = smoke_for(c, "opencl", "fake compute device");
  ASSERT_TRUE(s) << c.run.out;
  EXPECT_EQ((*s)["status"], "fail");
  EXPECT_NE(text(*s, "reason").find("did not finish within 2000 ms"), std::string::npos)
      << text(*s, "reason");
}

TEST(OpenClSmokeFault, NoSmokeRunsNoKernel) {
  auto r = test::run_gpudoctor({"check", "--json", "--no-smoke", "--backend", "opencl"},
                               {"OCL_ICD_VENDORS=" + opencl_fake("kernel_crash")});
  Json j = Json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_TRUE(j["snapshot"]["opencl"]["smoke"].empty());
  EXPECT_EQ(j["snapshot"]["opencl"]["platforms"].size(), 1u);
}

TEST(VulkanSmokeFault, ShaderReturningWrongNumbersIsAFailWithTheError) {
  Check c = check_json("vulkan", {"VK_DRIVER_FILES=" + vulkan_fake("wrong_result")});
  EXPECT_EQ(c.run.exit_code, 1) << c.run.err;
  const Json* s = smoke_for(c, "vulkan", "fake compute device");
  ASSERT_TRUE(s) << c.run.out;
  EXPECT_EQ((*s)["status"], "fail");
  EXPECT_EQ((*s)["worst_row"], 3);
  EXPECT_EQ((*s)["worst_col"], 5);
  EXPECT_NEAR((*s)["max_abs_error"].get<double>(), 0.25, 1e-3);
  EXPECT_TRUE(finding(c, "smoke.failed", "vulkan")) << c.json["findings"].dump(2);
}

TEST(VulkanSmokeFault, DriverCrashingMidDispatchIsAFailSayingItCrashed) {
  Check c = check_json(
      "vulkan", {"VK_DRIVER_FILES=" + vulkan_fake("kernel_crash"), "ASAN_OPTIONS=handle_segv=0"});
  EXPECT_EQ(c.run.exit_code, 1) << c.run.err;
  const Json* s = smoke_for(c, "vulkan", "fake compute device");
  ASSERT_TRUE(s) << c.run.out;
  EXPECT_EQ((*s)["status"], "fail");
  EXPECT_NE(text(*s, "reason").find("crashed: SIGSEGV"), std::string::npos) << text(*s, "reason");
  EXPECT_EQ(c.json["snapshot"]["vulkan"]["devices"].size(), 1u);
}

void expect_live_pass(const Json& s) {
  EXPECT_EQ(s["status"], "pass") << s.dump(2);
  EXPECT_EQ(s["n"], 256);
  ASSERT_TRUE(s["kernel_ms"].is_number()) << s.dump(2);
  EXPECT_GT(s["kernel_ms"].get<double>(), 0.0);
  ASSERT_TRUE(s["gflops"].is_number()) << s.dump(2);
  EXPECT_GT(s["gflops"].get<double>(), 0.0);
  EXPECT_LE(s["max_abs_error"].get<double>(), s["tolerance"].get<double>());
}

TEST(OpenClSmokeLive, PoclCpuDevicePasses) {
  if (!fs::exists("/etc/OpenCL/vendors/pocl.icd")) GTEST_SKIP() << "PoCL is not installed";
  Check c = check_json("opencl", {});
  const Json* s = smoke_for(c, "opencl", "Portable Computing Language");
  ASSERT_TRUE(s) << c.run.out << c.run.err;
  expect_live_pass(*s);
  const std::string out =
      test::run_gpudoctor({"check", "--backend", "opencl", "--color", "never"}).out;
  // The device, then its result, the device named once.
  EXPECT_NE(out.find("(CPU), smoke matmul PASS (n="), std::string::npos) << out;
  EXPECT_EQ(out.find("smoke matmul PASS on "), std::string::npos) << out;
}

TEST(VulkanSmokeLive, LavapipePasses) {
  if (!fs::exists("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")) {
    GTEST_SKIP() << "lavapipe (mesa-vulkan-drivers) is not installed";
  }
  Check c = check_json("vulkan", {"VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"});
  const Json* s = smoke_for(c, "vulkan", "llvmpipe");
  ASSERT_TRUE(s) << c.run.out << c.run.err;
  expect_live_pass(*s);
}

}  // namespace
}  // namespace gpudoctor
