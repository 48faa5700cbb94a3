// Never ✓ without evidence on this machine (a CUDA toolkit without a driver, PoCL, lavapipe):
// what `check` says where nothing is there or a driver offers nothing, and that its fixes never
// contradict each other (docs/severity.md).
#include <gtest/gtest.h>

#include <filesystem>

#include "area_check.hpp"
#include "cuda_fakes.hpp"
#include "fix_contradictions.hpp"

namespace gpudoctor {
namespace {

using test::check;
using test::count;
using test::state;
using test::contradictions;

TEST(AreaStatus, CudaOnADriverlessMachineSaysSoAndExitsZero) {
  // This machine: a CUDA toolkit, no driver. `check --backend cuda` used to print nothing.
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib/aarch64-linux-gnu"}) {
    if (std::filesystem::exists(std::string(dir) + "/libcuda.so.1")) {
      GTEST_SKIP() << "an NVIDIA driver is installed here";
    }
  }
  test::ScopedLibraryPath none(std::nullopt);
  auto c = check({"--backend", "cuda", "--no-smoke"});
  ASSERT_EQ(c.areas.count("cuda"), 1u) << c.text;
  EXPECT_EQ(state(c, "cuda"), "absent");
  EXPECT_NE(c.text.find("no CUDA driver (libcuda.so.1 not found)"), std::string::npos) << c.text;
  EXPECT_EQ(c.exit_code, 0);
}

TEST(AreaStatus, PoclWithoutAWritableCacheIsNotOk) {
  // PoCL offers no device when it cannot create its kernel cache ($HOME/.cache/pocl): an
  // unwritable HOME, as /proc is even for root. The line used to read "✓ opencl no device".
  if (!std::filesystem::exists("/etc/OpenCL/vendors/pocl.icd")) GTEST_SKIP() << "no PoCL here";
  auto c = check({"--backend", "opencl", "--no-smoke"}, {"HOME=/proc", "XDG_CACHE_HOME="});
  EXPECT_EQ(state(c, "opencl"), "warn") << c.text;
  ASSERT_EQ(count(c, "opencl.no_device"), 1) << c.findings.dump(2);
  for (const auto& f : c.findings) {
    if (f["id"] == "opencl.no_device") {
      EXPECT_NE(f["fix"].get<std::string>().find("POCL_CACHE_DIR"), std::string::npos);
    }
  }
}

TEST(FixContradictions, ThisMachineGetsNoFixesThatContradict) {
  auto r = test::run_gpudoctor({"check", "--json", "--no-smoke"});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  EXPECT_TRUE(contradictions(Json::parse(r.out)["findings"]).empty());
}

}  // namespace
}  // namespace gpudoctor
