// The CUDA backend: the pure tables (error names, cores per SM, ids), the smoke matmul's
// reference and verdict, and the probe against fake libcuda builds that answer like a real H100,
// crash, hang or fail in cuInit (tests/fakes/cuda), plus this machine's own libcuda, if any.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <ostream>
#include <string>

#include "core/dynlib.hpp"
#include "core/isolate.hpp"
#include "core/library_search.hpp"
#include "core/root.hpp"
#include "cuda/cuda_probe.hpp"
#include "cuda/cuda_smoke.hpp"
#include "cuda/matmul_ptx.hpp"
#include "api/cuda/cuda_codes.hpp"
#include "api/cuda/cuda_cores.hpp"
#include "cuda_fakes.hpp"
#include "environment.hpp"
#include "api/pci/gpu_ids.hpp"
#include "smoke/matmul_reference.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;
using test::cuda_fake_dir;
using test::probe_outcome;
using test::query_json_with;

// ---- pure parts ----------------------------------------------------------------------------

TEST(CudaCodes, NamesTheResultsCudaHDefines) {
  EXPECT_EQ(cuda_error_name(0), "CUDA_SUCCESS");
  EXPECT_EQ(cuda_error_name(3), "CUDA_ERROR_NOT_INITIALIZED");
  EXPECT_EQ(cuda_error_name(34), "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(cuda_error_name(46), "CUDA_ERROR_DEVICE_UNAVAILABLE");
  EXPECT_EQ(cuda_error_name(100), "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(cuda_error_name(218), "CUDA_ERROR_INVALID_PTX");
  EXPECT_EQ(cuda_error_name(222), "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
  EXPECT_EQ(cuda_error_name(802), "CUDA_ERROR_SYSTEM_NOT_READY");
  EXPECT_EQ(cuda_error_name(804), "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE");
  EXPECT_EQ(cuda_error_name(999), "CUDA_ERROR_UNKNOWN");
  // cuda.h has no 35; the toolkit names it only in cudart.
  EXPECT_EQ(cuda_error_name(35), "cudaErrorInsufficientDriver");
  EXPECT_EQ(cuda_error_name(12345), std::nullopt);
  EXPECT_EQ(cuda_error_name(-1), std::nullopt);
}

TEST(CudaCodes, FailedCallTextNamesCallCodeAndName) {
  EXPECT_EQ(cuda_call_failed("cuInit", 100), "cuInit returned 100 (CUDA_ERROR_NO_DEVICE)");
  EXPECT_EQ(cuda_call_failed("cuInit", 4242), "cuInit returned 4242");
}

TEST(CudaCodes, ComputeModes) {
  EXPECT_EQ(nvidia_compute_mode_name(0), "default");
  EXPECT_EQ(nvidia_compute_mode_name(2), "prohibited");
  EXPECT_EQ(nvidia_compute_mode_name(3), "exclusive_process");
  EXPECT_EQ(nvidia_compute_mode_name(7), std::nullopt);
}

TEST(CudaCores, PerMultiprocessorFromDeviceQuerysTable) {
  EXPECT_EQ(cuda_cores_per_multiprocessor(3, 5), 192);  // Kepler
  EXPECT_EQ(cuda_cores_per_multiprocessor(6, 0), 64);   // P100
  EXPECT_EQ(cuda_cores_per_multiprocessor(6, 1), 128);  // GP10x
  EXPECT_EQ(cuda_cores_per_multiprocessor(7, 5), 64);   // Turing
  EXPECT_EQ(cuda_cores_per_multiprocessor(8, 0), 64);   // A100
  EXPECT_EQ(cuda_cores_per_multiprocessor(8, 6), 128);  // GA10x
  EXPECT_EQ(cuda_cores_per_multiprocessor(8, 9), 128);  // Ada
  EXPECT_EQ(cuda_cores_per_multiprocessor(9, 0), 128);  // H100: 132 × 128 = 16896
  EXPECT_EQ(cuda_cores_per_multiprocessor(10, 0), 128);
  EXPECT_EQ(cuda_cores_per_multiprocessor(12, 0), 128);
  // Unknown capabilities are unknown, not deviceQuery's guess from the previous row.
  EXPECT_EQ(cuda_cores_per_multiprocessor(9, 9), std::nullopt);
  EXPECT_EQ(cuda_cores_per_multiprocessor(2, 0), std::nullopt);
  EXPECT_EQ(cuda_cores_per_multiprocessor(-1, 0), std::nullopt);
}

TEST(CudaIds, UuidIsWrittenAsNvidiaSmiWritesIt) {
  const std::uint8_t bytes[16] = {0xc6, 0xb0, 0xca, 0x29, 0x53, 0xc0, 0x32, 0x6e,
                                  0x8a, 0xaa, 0xcf, 0xa1, 0x65, 0x3e, 0x18, 0xd1};
  EXPECT_EQ(nvidia_gpu_uuid(bytes), "GPU-c6b0ca29-53c0-326e-8aaa-cfa1653e18d1");
}

TEST(CudaIds, PciAddresses) {
  EXPECT_EQ(pci_address(0, 0x19, 0), "0000:19:00.0");
  EXPECT_EQ(pci_address(0, 2, 0), "0000:02:00.0");
  EXPECT_EQ(pci_address(0x10000, 1, 0x1f, 7), "10000:01:1f.7");
}

TEST(CudaMatmulReference, InputsAreDeterministicExactAndInRange) {
  const auto in = smoke::matmul_inputs(64);
  ASSERT_EQ(in.a.size(), 64u * 64u);
  EXPECT_EQ(in.a, smoke::matmul_inputs(64).a);
  EXPECT_EQ(in.a[0], 4435133.0f / 8388608.0f);  // the generator's first value, on any platform
  EXPECT_EQ(in.b[0], -1176776.0f / 8388608.0f);
  for (float x : in.a) {
    EXPECT_GE(x, -1.0f);
    EXPECT_LT(x, 1.0f);
  }
  EXPECT_NE(in.a, in.b);
}

TEST(CudaMatmulReference, AnFp32ProductPassesAndTheToleranceScalesWithN) {
  for (int n : {1, 17, 64, 256}) {
    const auto in = smoke::matmul_inputs(n);
    const auto ref = smoke::matmul_reference(in);
    const auto check = smoke::check_matmul(ref, smoke::matmul_fp32(in));
    EXPECT_TRUE(check.pass) << "n=" << n << " error " << check.max_abs_error;
    EXPECT_LE(check.max_abs_error, check.tolerance);
    EXPECT_EQ(check.wrong, 0u);
  }
  const auto t64 = smoke::check_matmul(smoke::matmul_reference(smoke::matmul_inputs(64)), {});
  const auto t256 = smoke::check_matmul(smoke::matmul_reference(smoke::matmul_inputs(256)), {});
  EXPECT_GT(t256.tolerance, t64.tolerance);
  EXPECT_LT(t256.tolerance, 0.01);  // tight enough that one wrong entry cannot hide
}

TEST(CudaMatmulReference, OneWrongEntryFailsAndIsLocated) {
  const auto in = smoke::matmul_inputs(128);
  const auto ref = smoke::matmul_reference(in);
  auto c = smoke::matmul_fp32(in);
  const std::size_t bad = 64 * 128 + 42;
  c[bad] += 0.01f;
  const auto check = smoke::check_matmul(ref, c);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.wrong, 1u);
  EXPECT_EQ(check.first_wrong, bad);
  EXPECT_NEAR(check.max_abs_error, 0.01, 1e-4);
  EXPECT_GT(check.max_rel_error, 0.0);
}

TEST(CudaMatmulReference, NanWrongSizeAndTransposeFail) {
  const auto in = smoke::matmul_inputs(32);
  const auto ref = smoke::matmul_reference(in);
  auto c = smoke::matmul_fp32(in);
  c[5] = std::numeric_limits<float>::quiet_NaN();
  auto nan = smoke::check_matmul(ref, c);
  EXPECT_FALSE(nan.pass);
  EXPECT_TRUE(std::isinf(nan.max_abs_error));

  EXPECT_FALSE(smoke::check_matmul(ref, std::vector<float>(10, 0.0f)).pass);

  smoke::MatmulInputs swapped = in;  // A·Bᵀ: the classic indexing bug
  for (int i = 0; i < 32; ++i) {
    for (int j = 0; j < 32; ++j) swapped.b[i * 32 + j] = in.b[j * 32 + i];
  }
  EXPECT_FALSE(smoke::check_matmul(ref, smoke::matmul_fp32(swapped)).pass);
}

TEST(CudaMatmulReference, Gflops) {
  EXPECT_DOUBLE_EQ(*smoke::matmul_gflops(1000, 1000.0), 2.0);
  EXPECT_EQ(smoke::matmul_gflops(1000, 0.0), std::nullopt);
}

TEST(CudaSmokePtx, TargetsALowIsaSoOldDriversCanJitIt) {
  const std::string ptx = cuda::kMatmulPtx;
  EXPECT_NE(ptx.find(".version 6.0\n"), std::string::npos);
  EXPECT_NE(ptx.find(".target sm_50\n"), std::string::npos);
  EXPECT_NE(ptx.find(".entry gpudoctor_sgemm("), std::string::npos);
}

TEST(CudaSmokePtx, AssemblesWithPtxasWhenAToolkitIsInstalled) {
  const char* home = std::getenv("CUDA_HOME");
  const std::string ptxas = std::string(home ? home : "/usr/local/cuda") + "/bin/ptxas";
  if (::access(ptxas.c_str(), X_OK) != 0) GTEST_SKIP() << "no " << ptxas;
  const auto dir = std::filesystem::temp_directory_path();
  const auto src = dir / ("gpudoctor_sgemm_" + std::to_string(::getpid()) + ".ptx");
  const auto out = dir / ("gpudoctor_sgemm_" + std::to_string(::getpid()) + ".cubin");
  std::ofstream(src) << cuda::kMatmulPtx;
  // Turing (CUDA 13 removed offline compilation for Maxwell, Pascal and Volta), Hopper
  // (H100/H200) and Blackwell: the driver JIT-compiles the same PTX for whichever GPU it runs on.
  for (const char* arch : {"sm_75", "sm_90", "sm_100"}) {
    const std::string cmd = ptxas + " -arch=" + arch + " " + src.string() + " -o " +
                            out.string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  std::filesystem::remove(src);
  std::filesystem::remove(out);
}

// ---- the probe against fake drivers ---------------------------------------------------------

/// Runs the CUDA child in-process against a fake's file, as `gpudoctor` would, and assembles.
CudaInfo run_child(const std::string& fake, bool smoke, ProbeOutcome* own) {
  cuda::JobOptions opt;
  opt.libraries = {cuda_fake_dir(fake) + "/libcuda.so.1"};
  opt.smoke = smoke;
  auto results = run_isolated({cuda::make_job(opt)}, 20s);
  CudaInfo info;
  *own = cuda::assemble(info, results, true);
  return info;
}

TEST(CudaFakeH100, QueryReportsWhatDeviceQueryPrinted) {
  auto run = query_json_with(cuda_fake_dir("h100"), "cuda");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_TRUE(run.json.is_object()) << run.result.out;
  const Json& c = run.json["cuda"];
  EXPECT_EQ(c["library"], cuda_fake_dir("h100") + "/libcuda.so.1");
  EXPECT_EQ(c["stub"], false);
  EXPECT_TRUE(c["init_error"].is_null());
  EXPECT_EQ(c["driver_version"], 13000);
  EXPECT_TRUE(c["smoke"].empty());  // only when asked
  ASSERT_EQ(c["devices"].size(), 1u);
  const Json& d = c["devices"][0];
  EXPECT_EQ(d["ordinal"], 0);
  EXPECT_EQ(d["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(d["uuid"], "GPU-c6b0ca29-53c0-326e-8aaa-cfa1653e18d1");
  EXPECT_EQ(d["cc_major"], 9);
  EXPECT_EQ(d["cc_minor"], 0);
  EXPECT_EQ(d["multiprocessors"], 132);
  EXPECT_EQ(d["cores_per_multiprocessor"], 128);
  EXPECT_EQ(d["total_memory_bytes"], 85017755648ull);
  EXPECT_EQ(d["clock_khz"], 1980000);
  EXPECT_EQ(d["memory_clock_khz"], 2619000);
  EXPECT_EQ(d["memory_bus_width_bits"], 5120);
  EXPECT_EQ(d["l2_cache_bytes"], 52428800);
  EXPECT_EQ(d["max_texture_1d"], 131072);
  EXPECT_EQ(d["max_texture_2d"], Json::array({131072, 65536}));
  EXPECT_EQ(d["max_texture_3d"], Json::array({16384, 16384, 16384}));
  EXPECT_EQ(d["max_layered_texture_1d"], Json::array({32768, 2048}));
  EXPECT_EQ(d["max_layered_texture_2d"], Json::array({32768, 32768, 2048}));
  EXPECT_EQ(d["total_constant_memory_bytes"], 65536);
  EXPECT_EQ(d["shared_memory_per_block_bytes"], 49152);
  EXPECT_EQ(d["shared_memory_per_multiprocessor_bytes"], 233472);
  EXPECT_EQ(d["registers_per_block"], 65536);
  EXPECT_EQ(d["warp_size"], 32);
  EXPECT_EQ(d["max_threads_per_multiprocessor"], 2048);
  EXPECT_EQ(d["max_threads_per_block"], 1024);
  EXPECT_EQ(d["max_block_dim"], Json::array({1024, 1024, 64}));
  EXPECT_EQ(d["max_grid_dim"], Json::array({2147483647, 65535, 65535}));
  EXPECT_EQ(d["max_pitch_bytes"], 2147483647);
  EXPECT_EQ(d["texture_alignment_bytes"], 512);
  EXPECT_EQ(d["gpu_overlap"], true);
  EXPECT_EQ(d["async_engine_count"], 3);
  EXPECT_EQ(d["kernel_exec_timeout"], false);
  EXPECT_EQ(d["integrated"], false);
  EXPECT_EQ(d["can_map_host_memory"], true);
  EXPECT_EQ(d["ecc_enabled"], true);
  EXPECT_EQ(d["unified_addressing"], true);
  EXPECT_EQ(d["managed_memory"], true);
  EXPECT_EQ(d["compute_preemption"], true);
  EXPECT_EQ(d["cooperative_launch"], true);
  EXPECT_EQ(d["cooperative_multi_device_launch"], true);
  EXPECT_EQ(d["compute_mode"], "default");
  EXPECT_EQ(d["pci_domain"], 0);
  EXPECT_EQ(d["pci_bus"], 2);
  EXPECT_EQ(d["pci_device"], 0);
  EXPECT_EQ(d["pci_bus_id"], "0000:02:00.0");
  // What deviceQuery did not print, the fake does not know: unknown, as null, never a sentinel.
  EXPECT_TRUE(d["registers_per_multiprocessor"].is_null());
  EXPECT_TRUE(d["shared_memory_per_block_optin_bytes"].is_null());
  EXPECT_TRUE(d["surface_alignment_bytes"].is_null());
  EXPECT_TRUE(d["tcc_driver"].is_null());
  EXPECT_TRUE(d["concurrent_kernels"].is_null());

  const Json own = probe_outcome(run.json, "cuda", "cuda");
  ASSERT_TRUE(own.is_object());
  EXPECT_EQ(own["status"], "ok");
  EXPECT_EQ(own["detail"], "driver CUDA 13.0, 1 device");
}

TEST(CudaFakeH100, SmokeMatmulRunsEndToEndAndPasses) {
  ProbeOutcome own;
  const CudaInfo info = run_child("h100", /*smoke=*/true, &own);
  ASSERT_EQ(own.status, ProbeStatus::ok) << own.detail;
  ASSERT_EQ(info.smoke.size(), 1u);
  const SmokeResult& s = info.smoke[0];
  EXPECT_EQ(s.api, "cuda");
  EXPECT_EQ(s.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(s.status, "pass") << s.reason.value_or("");
  EXPECT_EQ(s.n, 256);
  EXPECT_EQ(s.kernel, "ptx 6.0 sm_50 (JIT)");
  ASSERT_TRUE(s.max_abs_error && s.tolerance);
  EXPECT_LE(*s.max_abs_error, *s.tolerance);
  EXPECT_FALSE(s.reason);
  ASSERT_TRUE(s.kernel_ms);
  EXPECT_GT(*s.kernel_ms, 0.0);
  EXPECT_TRUE(s.gflops);
  EXPECT_EQ(own.detail, "driver CUDA 13.0, 1 device; smoke matmul passed on 1 device");
}

// The bench's use of the runner: `repeats` timed launches, and the comparison only when asked
// (a big n is timed, not checked). The fake's product is wrong, so only verify=true can see it.
TEST(CudaFakeWrongMatmul, BenchRunnerComparesOnlyWhenAsked) {
  IsolatedJob job;
  job.backend = "cuda";
  job.label = cuda_fake_dir("wrong-matmul") + "/libcuda.so.1";
  job.body = [lib_path = job.label] {
    JobReport rep;
    std::string err, missing;
    auto lib = DynamicLibrary::open(lib_path, &err);
    auto api = lib ? cuda::CudaApi::load(*lib, &missing) : std::nullopt;
    cuda::CUdevice dev = 0;
    if (!api || api->init(0) != 0 || api->device_get(&dev, 0) != 0) {
      return JobReport{ProbeStatus::failed, err + missing, Json()};
    }
    std::vector<SmokeResult> results;
    for (bool verify : {false, true}) {
      results.push_back(cuda::run_matmul_smoke(*api, dev, "fake", {64, 3, verify}));
    }
    rep.data = results;
    return rep;
  };
  auto results = run_isolated({job}, 20s);
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].outcome.status, ProbeStatus::ok) << results[0].outcome.detail;
  const auto runs = results[0].data->get<std::vector<SmokeResult>>();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].status, "unverified");
  EXPECT_FALSE(runs[0].max_abs_error);
  ASSERT_TRUE(runs[0].kernel_ms);
  EXPECT_GT(*runs[0].kernel_ms, 0.0);
  EXPECT_EQ(runs[1].status, "fail");
  EXPECT_NE(runs[1].reason.value_or("").find("1 of 4096 entries wrong"), std::string::npos)
      << runs[1].reason.value_or("");
}

TEST(CudaFakeWrongMatmul, SmokeFailsWithTheError) {
  ProbeOutcome own;
  const CudaInfo info = run_child("wrong-matmul", /*smoke=*/true, &own);
  ASSERT_EQ(info.smoke.size(), 1u);
  const SmokeResult& s = info.smoke[0];
  EXPECT_EQ(s.status, "fail");
  ASSERT_TRUE(s.max_abs_error && s.tolerance);
  EXPECT_NEAR(*s.max_abs_error, 0.25, 1e-3);
  EXPECT_GT(*s.max_abs_error, *s.tolerance);
  ASSERT_TRUE(s.reason);
  EXPECT_NE(s.reason->find("1 of 65536 entries wrong"), std::string::npos) << *s.reason;
  EXPECT_NE(own.detail.find("smoke matmul failed on NVIDIA H100 80GB HBM3: 1 of 65536"),
            std::string::npos)
      << own.detail;
}

TEST(CudaFakeMissingDependency, ALibcudaTheLoaderRefusesIsFailedWithItsReason) {
  auto run = query_json_with(cuda_fake_dir("missing-dependency"), "cuda");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json own = probe_outcome(run.json, "cuda", "cuda");
  EXPECT_EQ(own["status"], "failed");
  const std::string detail = own["detail"];
  EXPECT_NE(detail.find("libcuda.so.1 could not be loaded: libgpudoctor-absent.so"),
            std::string::npos)
      << detail;
  EXPECT_TRUE(run.json["cuda"]["library"].is_null());
}

TEST(CudaFakeInitCrash, SegfaultInCuInitIsCrashedNamingLibcuda) {
  auto run = query_json_with(cuda_fake_dir("cuda-init-crash"), "cuda");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json own = probe_outcome(run.json, "cuda", "cuda");
  ASSERT_TRUE(own.is_object()) << run.result.out;
  EXPECT_EQ(own["status"], "crashed");
  const std::string detail = own["detail"];
  EXPECT_NE(detail.find("libcuda.so.1"), std::string::npos) << detail;
  EXPECT_NE(detail.find("SIGSEGV"), std::string::npos) << detail;
  EXPECT_TRUE(run.json["cuda"]["devices"].empty());
}

TEST(CudaFakeInitHang, HangInCuInitTimesOutWithinTheDeadline) {
  auto run = query_json_with(cuda_fake_dir("cuda-init-hang"), "cuda", "2");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_LT(run.result.seconds, 2.0 + 2.0);  // the deadline plus a margin for a slow CI box
  const Json own = probe_outcome(run.json, "cuda", "cuda");
  ASSERT_TRUE(own.is_object()) << run.result.out;
  EXPECT_EQ(own["status"], "timed_out");
  const std::string detail = own["detail"];
  EXPECT_NE(detail.find("libcuda.so.1"), std::string::npos) << detail;
  EXPECT_NE(detail.find("2000 ms"), std::string::npos) << detail;
}

struct InitCase {
  const char* fake;
  int code;
  const char* name;
  const char* status;
};

void PrintTo(const InitCase& c, std::ostream* os) { *os << c.fake; }

class CudaFakeInitError : public ::testing::TestWithParam<InitCase> {};

TEST_P(CudaFakeInitError, IsAFactNamingTheCallAndTheError) {
  const InitCase& c = GetParam();
  auto run = query_json_with(cuda_fake_dir(c.fake), "cuda");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json& cuda = run.json["cuda"];
  ASSERT_TRUE(cuda["init_error"].is_object()) << run.result.out;
  EXPECT_EQ(cuda["init_error"]["call"], "cuInit");
  EXPECT_EQ(cuda["init_error"]["code"], c.code);
  EXPECT_EQ(cuda["init_error"]["name"], c.name);
  EXPECT_EQ(cuda["driver_version"], 13000);  // asked before cuInit, so known all the same
  EXPECT_EQ(cuda["stub"], false);
  EXPECT_TRUE(cuda["devices"].empty());
  const Json own = probe_outcome(run.json, "cuda", "cuda");
  EXPECT_EQ(own["status"], c.status);
  EXPECT_EQ(own["detail"], "cuInit returned " + std::to_string(c.code) + " (" + c.name + ")");
}

INSTANTIATE_TEST_SUITE_P(
    Codes, CudaFakeInitError,
    ::testing::Values(InitCase{"cuda-init-35", 35, "cudaErrorInsufficientDriver", "failed"},
                      InitCase{"cuda-init-100", 100, "CUDA_ERROR_NO_DEVICE", "missing"},
                      InitCase{"cuda-init-999", 999, "CUDA_ERROR_UNKNOWN", "failed"}),
    [](const ::testing::TestParamInfo<InitCase>& i) {
      return "cuInit" + std::to_string(i.param.code);
    });

TEST(CudaAndNvmlFakeH100, BothBackendsRunSideBySide) {
  auto run = query_json_with(cuda_fake_dir("h100"), "cuda,nvml");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_EQ(probe_outcome(run.json, "cuda", "cuda")["status"], "ok");
  EXPECT_EQ(probe_outcome(run.json, "nvml", "nvml")["status"], "ok");
  EXPECT_EQ(run.json["cuda"]["devices"].size(), 1u);
  EXPECT_EQ(run.json["nvml"]["devices"].size(), 1u);
}

TEST(CudaSysroot, LibcudaIsNotLoadedFromAnotherRoot) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gpudoctor-sysroot-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  test::ScopedLibraryPath path(cuda_fake_dir("h100"));
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "cuda", "--sysroot", dir.string()});
  std::filesystem::remove_all(dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(probe_outcome(j, "cuda", "cuda")["status"], "skipped");
  EXPECT_TRUE(j["cuda"]["library"].is_null());
}

// ---- this machine ----------------------------------------------------------------------------

/// Whether the loader could find `name` here with LD_LIBRARY_PATH as given.
bool loader_finds(const std::string& name, const std::optional<std::string>& library_path) {
  std::map<std::string, std::string> vars;
  if (library_path) vars["LD_LIBRARY_PATH"] = *library_path;
  const Root root("/");
  const Environment env(vars);
  return LibrarySearch(root, env).find(name).has_value();
}

TEST(CudaLive, WithoutADriverLibcudaIsReportedMissing) {
  if (loader_finds("libcuda.so.1", std::nullopt) || loader_finds("libcuda.so", std::nullopt)) {
    GTEST_SKIP() << "this machine has a libcuda";
  }
  auto run = query_json_with(std::nullopt, "cuda");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json own = probe_outcome(run.json, "cuda", "cuda");
  EXPECT_EQ(own["status"], "missing");
  EXPECT_NE(own["detail"].get<std::string>().find("libcuda.so.1 not found"), std::string::npos);
  EXPECT_TRUE(run.json["cuda"]["library"].is_null());
  EXPECT_EQ(run.json["cuda"]["load_errors"].size(), 2u);  // libcuda.so.1, then libcuda.so
}

TEST(CudaLive, TheToolkitStubIsRecognised) {
  const std::string stubs = "/usr/local/cuda/lib64/stubs";
  if (::access((stubs + "/libcuda.so").c_str(), R_OK) != 0) GTEST_SKIP() << "no " << stubs;
  if (loader_finds("libcuda.so.1", stubs)) GTEST_SKIP() << "a real libcuda.so.1 comes first";
  auto run = query_json_with(stubs, "cuda");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const Json& cuda = run.json["cuda"];
  ASSERT_TRUE(cuda["library"].is_string()) << run.result.out;
  EXPECT_NE(cuda["library"].get<std::string>().find("/stubs/"), std::string::npos);
  EXPECT_EQ(cuda["stub"], true);
  if (cuda["init_error"].is_object()) {
    EXPECT_EQ(cuda["init_error"]["code"], 34);
    EXPECT_EQ(cuda["init_error"]["name"], "CUDA_ERROR_STUB_LIBRARY");
  }
  const Json own = probe_outcome(run.json, "cuda", "cuda");
  EXPECT_EQ(own["status"], "failed");
  EXPECT_NE(own["detail"].get<std::string>().find("stub"), std::string::npos) << own["detail"];
}

}  // namespace
}  // namespace gpudoctor
