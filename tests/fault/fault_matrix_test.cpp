// Crash and hang isolation for every backend that loads a vendor library: an OpenCL ICD, a
// Vulkan driver, libcuda and libnvidia-ml, each faked at its ABI (tests/fakes) to segfault,
// abort, hang and answer garbage. Whatever the library does, `gpudoctor check --json` ends in
// bounded time, the probe's outcome and a finding name the library and what it did, and the
// good device another backend sees is still reported.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "cuda_fakes.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using test::cuda_fake_dir;

constexpr double kTimeoutSeconds = 1.0;
// The deadline, plus a margin wide enough for a loaded CI machine or a sanitizer build.
constexpr double kWallBoundSeconds = kTimeoutSeconds + 6.0;

struct Fault {
  const char* backend;  ///< the backend whose library misbehaves
  const char* mode;     ///< crash, abort, hang, garbage
  const char* fake;     ///< under <build>/tests/fakes: the library, manifest or directory
  const char* library;  ///< what the outcome's "library" names
  const char* status;   ///< the outcome's status
  const char* says;     ///< what its detail must say: the signal, the deadline, the lie
};

void PrintTo(const Fault& f, std::ostream* os) { *os << f.backend << "/" << f.mode; }

const Fault kFaults[] = {
    {"opencl", "crash", "opencl/libfake_opencl_crash.so", "libfake_opencl_crash.so", "crashed",
     "SIGSEGV"},
    {"opencl", "abort", "opencl/libfake_opencl_abort.so", "libfake_opencl_abort.so", "crashed",
     "SIGABRT"},
    {"opencl", "hang", "opencl/libfake_opencl_hang.so", "libfake_opencl_hang.so", "timed_out",
     "within 1000 ms"},
    {"opencl", "garbage", "opencl/libfake_opencl_garbage.so", "libfake_opencl_garbage.so", "failed",
     "answered implausibly"},
    {"vulkan", "crash", "vulkan/fake_vk_crash.json", "libfake_vk_crash.so", "crashed", "SIGSEGV"},
    {"vulkan", "abort", "vulkan/fake_vk_abort.json", "libfake_vk_abort.so", "crashed", "SIGABRT"},
    {"vulkan", "hang", "vulkan/fake_vk_hang.json", "libfake_vk_hang.so", "timed_out",
     "within 1000 ms"},
    {"vulkan", "garbage", "vulkan/fake_vk_garbage.json", "libfake_vk_garbage.so", "failed",
     "1000 devices"},
    {"cuda", "crash", "cuda/cuda-init-crash", "libcuda.so.1", "crashed", "SIGSEGV"},
    {"cuda", "abort", "cuda/cuda-init-abort", "libcuda.so.1", "crashed", "SIGABRT"},
    {"cuda", "hang", "cuda/cuda-init-hang", "libcuda.so.1", "timed_out", "within 1000 ms"},
    {"cuda", "garbage", "cuda/cuda-garbage", "libcuda.so.1", "failed",
     "cuDeviceGetCount reported 2147483647 devices"},
    {"nvml", "crash", "cuda/nvml-init-crash", "libnvidia-ml.so.1", "crashed", "SIGSEGV"},
    {"nvml", "abort", "cuda/nvml-init-abort", "libnvidia-ml.so.1", "crashed", "SIGABRT"},
    {"nvml", "hang", "cuda/nvml-init-hang", "libnvidia-ml.so.1", "timed_out", "within 1000 ms"},
    {"nvml", "garbage", "cuda/nvml-garbage", "libnvidia-ml.so.1", "failed",
     "nvmlDeviceGetCount_v2 reported 4294967295 devices"},
};

std::string fake_path(const Fault& f) { return std::string(GPUDOCTOR_FAKES) + "/" + f.fake; }

bool loader_installed(const std::string& soname) {
  for (const char* dir :
       {"/usr/lib/x86_64-linux-gnu/", "/usr/lib64/", "/usr/lib/", "/usr/lib/aarch64-linux-gnu/"}) {
    if (::access((dir + soname).c_str(), R_OK) == 0) return true;
  }
  return false;
}

/// The backends to run and the environment that makes the faulty library the only one of its
/// kind. The good device comes from the fake H100 (tests/fakes/cuda): NVML's when libcuda is
/// the faulty one, libcuda's otherwise.
struct FaultSetup {
  std::string backends;
  std::vector<std::string> env;
  const char* good_backend;
};

FaultSetup setup_for(const Fault& f, const std::string& empty_dir) {
  const std::string h100 = cuda_fake_dir("h100");
  const std::string backend = f.backend;
  if (backend == "opencl") {
    return {"opencl,cuda",
            {"OCL_ICD_VENDORS=" + empty_dir, "OCL_ICD_FILENAMES=" + fake_path(f),
             "LD_LIBRARY_PATH=" + h100},
            "cuda"};
  }
  if (backend == "vulkan") {
    return {"vulkan,cuda", {"VK_DRIVER_FILES=" + fake_path(f), "LD_LIBRARY_PATH=" + h100}, "cuda"};
  }
  // libcuda or libnvidia-ml from the fault's directory; the other from the H100's.
  return {"cuda,nvml",
          {"LD_LIBRARY_PATH=" + fake_path(f) + ":" + h100},
          backend == "cuda" ? "nvml" : "cuda"};
}

const Json* outcome_naming(const Json& snapshot, const Fault& f) {
  for (const auto& p : snapshot.at("probes")) {
    const Json library = p.value("library", Json());
    if (p.value("backend", "") == f.backend && library.is_string() &&
        library.get<std::string>().find(f.library) != std::string::npos) {
      return &p;
    }
  }
  return nullptr;
}

const Json* finding_naming(const Json& report, const Fault& f) {
  const std::string id = std::string("probe.") + f.status;
  for (const auto& finding : report.at("findings")) {
    if (finding.value("id", "") == id &&
        finding.value("title", "").find(f.library) != std::string::npos) {
      return &finding;
    }
  }
  return nullptr;
}

class FaultMatrix : public ::testing::TestWithParam<Fault> {};

TEST_P(FaultMatrix, TheRunEndsInTimeAndTheReportNamesTheLibraryAndWhatItDid) {
  const Fault& f = GetParam();
  const std::string backend = f.backend;
  if (backend == "opencl" && !loader_installed("libOpenCL.so.1")) {
    GTEST_SKIP() << "no OpenCL ICD loader (ocl-icd-libopencl1)";
  }
  if (backend == "vulkan" && !loader_installed("libvulkan.so.1")) {
    GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  }
  test::TempTree empty;
  const FaultSetup s = setup_for(f, empty.path());
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--backend", s.backends, "--timeout", "1"}, s.env);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // a check failed: the one about the library
  EXPECT_LT(r.seconds, kWallBoundSeconds);
  if (std::string(f.status) == "timed_out") {
    EXPECT_GE(r.seconds, kTimeoutSeconds - 0.05);
  }
  const Json report = Json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(report.is_object() && report.contains("snapshot")) << r.out << r.err;
  const Json& snapshot = report.at("snapshot");

  const Json* outcome = outcome_naming(snapshot, f);
  ASSERT_NE(outcome, nullptr) << snapshot.at("probes").dump(2);
  EXPECT_EQ(outcome->at("status"), f.status) << outcome->dump(2);
  const std::string detail = outcome->at("detail");
  EXPECT_NE(detail.find(f.says), std::string::npos) << detail;
  if (std::string(f.status) != "failed") {
    EXPECT_NE(detail.find(f.library), std::string::npos) << detail;
  }

  const Json* finding = finding_naming(report, f);
  ASSERT_NE(finding, nullptr) << report.at("findings").dump(2);
  EXPECT_EQ(finding->at("severity"), "fail");
  EXPECT_EQ(finding->at("evidence").at(0), detail);

  const Json& good = snapshot.at(s.good_backend).at("devices");
  ASSERT_EQ(good.size(), 1u) << snapshot.at(s.good_backend).dump(2);
  EXPECT_EQ(good[0].at("name"), "NVIDIA H100 80GB HBM3");
}

INSTANTIATE_TEST_SUITE_P(EveryBackendEveryFault, FaultMatrix, ::testing::ValuesIn(kFaults),
                         [](const auto& info) {
                           return std::string(info.param.backend) + "_" + info.param.mode;
                         });

}  // namespace
}  // namespace gpudoctor
