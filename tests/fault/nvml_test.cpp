// The NVML backend: the pure tables (return codes, architectures, clock event reasons) and the
// probe against fake libnvidia-ml builds that answer like a real H100, report a driver/library
// version mismatch or crash (tests/fakes/cuda), plus this machine's own NVML, if any.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "core/isolate.hpp"
#include "core/library_search.hpp"
#include "core/root.hpp"
#include "cuda_fakes.hpp"
#include "environment.hpp"
#include "nvml/nvml_probe.hpp"
#include "api/nvml/nvml_codes.hpp"

namespace gpudoctor {
namespace {

using test::cuda_fake_dir;
using test::probe_outcome;
using test::query_json_with;

TEST(NvmlCodes, NamesTheReturnCodesNvmlHDefines) {
  EXPECT_EQ(nvml_error_name(0), "NVML_SUCCESS");
  EXPECT_EQ(nvml_error_name(3), "NVML_ERROR_NOT_SUPPORTED");
  EXPECT_EQ(nvml_error_name(9), "NVML_ERROR_DRIVER_NOT_LOADED");
  EXPECT_EQ(nvml_error_name(12), "NVML_ERROR_LIBRARY_NOT_FOUND");
  EXPECT_EQ(nvml_error_name(15), "NVML_ERROR_GPU_IS_LOST");
  EXPECT_EQ(nvml_error_name(17), "NVML_ERROR_OPERATING_SYSTEM");
  EXPECT_EQ(nvml_error_name(18), "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
  EXPECT_EQ(nvml_error_name(999), "NVML_ERROR_UNKNOWN");
  EXPECT_EQ(nvml_error_name(500), std::nullopt);
  EXPECT_EQ(nvml_error_name(-3), std::nullopt);
  EXPECT_EQ(nvml_call_failed("nvmlInit_v2", 18),
            "nvmlInit_v2 returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH)");
}

TEST(NvmlCodes, Architectures) {
  EXPECT_EQ(nvml_architecture_name(7), "ampere");
  EXPECT_EQ(nvml_architecture_name(9), "hopper");
  EXPECT_EQ(nvml_architecture_name(0xffffffffu), std::nullopt);  // NVML_DEVICE_ARCH_UNKNOWN
}

TEST(NvmlCodes, ClockEventReasonBitsAsNames) {
  EXPECT_TRUE(nvml_clock_event_reason_names(0).empty());
  EXPECT_EQ(nvml_clock_event_reason_names(0x1), std::vector<std::string>{"gpu_idle"});
  EXPECT_EQ(nvml_clock_event_reason_names(0x4 | 0x8 | 0x40),
            (std::vector<std::string>{"sw_power_cap", "hw_slowdown", "hw_thermal_slowdown"}));
  EXPECT_EQ(nvml_clock_event_reason_names(0x100000000ull), std::vector<std::string>{"0x100000000"});
}

TEST(NvmlFakeH100, QueryReportsWhatNvidiaSmiPrinted) {
  auto run = query_json_with(cuda_fake_dir("h100"), "nvml");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_TRUE(run.json.is_object()) << run.result.out;
  const Json& n = run.json["nvml"];
  EXPECT_EQ(n["library"], cuda_fake_dir("h100") + "/libnvidia-ml.so.1");
  EXPECT_TRUE(n["init_error"].is_null());
  EXPECT_TRUE(n["init_code"].is_null());
  EXPECT_EQ(n["driver_version"], "545.23.08");
  EXPECT_EQ(n["nvml_version"], "12.545.23.08");
  EXPECT_EQ(n["cuda_driver_version"], 12030);
  ASSERT_EQ(n["devices"].size(), 1u);
  const Json& d = n["devices"][0];
  EXPECT_EQ(d["index"], 0);
  EXPECT_EQ(d["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(d["uuid"], "GPU-10f35015-e921-bfab-2eb8-4e9b6664d5f1");
  EXPECT_EQ(d["serial"], "1654123038646");
  EXPECT_EQ(d["vbios_version"], "96.00.74.00.0D");
  EXPECT_EQ(d["pci_bus_id"], "0000:19:00.0");
  EXPECT_EQ(d["pci_device_id"], 0x233010DEu);
  EXPECT_EQ(d["pci_subsystem_id"], 0x16C110DEu);
  EXPECT_EQ(d["architecture"], "hopper");
  EXPECT_EQ(d["memory_total_bytes"], 81559ull << 20);
  EXPECT_EQ(d["memory_reserved_bytes"], 328ull << 20);
  EXPECT_EQ(d["memory_used_bytes"], 2ull << 20);
  EXPECT_EQ(d["memory_free_bytes"], 81227ull << 20);
  EXPECT_EQ(d["temperature_c"], 33);
  EXPECT_EQ(d["power_draw_mw"], 72020);
  EXPECT_EQ(d["power_limit_mw"], 700000);
  EXPECT_EQ(d["clock_graphics_mhz"], 345);
  EXPECT_EQ(d["clock_sm_mhz"], 345);
  EXPECT_EQ(d["clock_memory_mhz"], 2619);
  EXPECT_EQ(d["clock_graphics_max_mhz"], 1980);
  EXPECT_EQ(d["clock_sm_max_mhz"], 1980);
  EXPECT_EQ(d["clock_memory_max_mhz"], 2619);
  EXPECT_EQ(d["pcie_gen_current"], 5);
  EXPECT_EQ(d["pcie_gen_max"], 5);
  EXPECT_EQ(d["pcie_width_current"], 16);
  EXPECT_EQ(d["pcie_width_max"], 16);
  EXPECT_EQ(d["ecc_enabled"], true);
  EXPECT_EQ(d["ecc_pending"], true);
  EXPECT_EQ(d["ecc_corrected_volatile"], 0);
  EXPECT_EQ(d["ecc_uncorrected_volatile"], 0);
  EXPECT_EQ(d["ecc_corrected_aggregate"], 0);
  EXPECT_EQ(d["ecc_uncorrected_aggregate"], 0);
  EXPECT_EQ(d["persistence_mode"], true);
  EXPECT_EQ(d["mig_enabled"], false);
  EXPECT_EQ(d["mig_pending"], false);
  EXPECT_EQ(d["compute_mode"], "default");
  EXPECT_EQ(d["throttle_reasons"], Json::array({"gpu_idle"}));
  EXPECT_TRUE(d["processes"].empty());
  // nvmlDeviceGetCudaComputeCapability answers NOT_SUPPORTED: the fields stay null.
  EXPECT_TRUE(d["cc_major"].is_null());
  EXPECT_TRUE(d["cc_minor"].is_null());

  const Json own = probe_outcome(run.json, "nvml", "nvml");
  ASSERT_TRUE(own.is_object());
  EXPECT_EQ(own["status"], "ok");
  EXPECT_EQ(own["detail"], "driver 545.23.08, 1 device");
}

TEST(NvmlFakeMismatch, DriverLibraryMismatchIsInitCode18) {
  auto run = query_json_with(cuda_fake_dir("nvml-init-18"), "nvml");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json& n = run.json["nvml"];
  EXPECT_EQ(n["init_code"], 18);
  EXPECT_EQ(n["init_error"], "nvmlInit_v2 returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH)");
  EXPECT_EQ(n["init_error_text"], "RM has detected an NVML/RM version mismatch.");
  EXPECT_TRUE(n["driver_version"].is_null());
  EXPECT_TRUE(n["devices"].empty());
  const Json own = probe_outcome(run.json, "nvml", "nvml");
  EXPECT_EQ(own["status"], "failed");
  EXPECT_EQ(own["detail"],
            "nvmlInit_v2 returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH): RM has detected an "
            "NVML/RM version mismatch.");
}

TEST(NvmlFakeInitCrash, SegfaultInNvmlInitIsCrashedNamingTheLibrary) {
  auto run = query_json_with(cuda_fake_dir("nvml-init-crash"), "nvml");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json own = probe_outcome(run.json, "nvml", "nvml");
  ASSERT_TRUE(own.is_object()) << run.result.out;
  EXPECT_EQ(own["status"], "crashed");
  const std::string detail = own["detail"];
  EXPECT_NE(detail.find("libnvidia-ml.so.1"), std::string::npos) << detail;
  EXPECT_NE(detail.find("SIGSEGV"), std::string::npos) << detail;
}

TEST(NvmlFakeH100, ChildCanBePointedAtALibraryPath) {
  nvml::JobOptions opt;
  opt.libraries = {cuda_fake_dir("h100") + "/libnvidia-ml.so.1"};
  auto results = run_isolated({nvml::make_job(opt)}, std::chrono::seconds(10));
  NvmlInfo info;
  const ProbeOutcome own = nvml::assemble(info, results, true);
  EXPECT_EQ(own.status, ProbeStatus::ok) << own.detail;
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].uuid, "GPU-10f35015-e921-bfab-2eb8-4e9b6664d5f1");
}

TEST(NvmlLive, WithoutADriverNvmlIsReportedMissing) {
  const Root root("/");
  const Environment env;
  const LibrarySearch search(root, env);
  if (search.find("libnvidia-ml.so.1") || search.find("libnvidia-ml.so")) {
    GTEST_SKIP() << "this machine has an NVML";
  }
  auto run = query_json_with(std::nullopt, "nvml");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json own = probe_outcome(run.json, "nvml", "nvml");
  EXPECT_EQ(own["status"], "missing");
  EXPECT_NE(own["detail"].get<std::string>().find("libnvidia-ml.so.1 not found"),
            std::string::npos);
  EXPECT_TRUE(run.json["nvml"]["library"].is_null());
}

}  // namespace
}  // namespace gpudoctor
