// probes/metal/metal_objc.cpp, the one file that sends Objective-C messages, compiled for Linux
// and run against tests/fakes/metal/fake_objc.c: a fake runtime whose objc_msgSend is a
// trampoline to C functions of each method's exact type. This proves the call sequence, every
// cast of objc_msgSend and the marshalling of arguments and results under the x86_64 System V
// ABI (pointers, NSUIntegers, BOOLs, doubles in vector registers, MTLSize structs by value on
// the stack, arguments past the sixth, NSError** out-parameters, autorelease pools); not
// Apple's runtime, not arm64, not that Metal compiles the MSL kernel.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "metal/metal_enumerate.hpp"
#include "metal/metal_matmul.hpp"
#include "metal/metal_objc.hpp"
#include "metal/metal_probe.hpp"

namespace gpudoctor {
namespace {

const std::string kFake = std::string(GPUDOCTOR_FAKES) + "/metal/libfake_objc_metal.so";

class MetalAbi : public ::testing::Test {
 protected:
  void SetUp() override {
#if !defined(__x86_64__)
    GTEST_SKIP() << "the fake objc_msgSend is an x86_64 trampoline";
#endif
    unsetenv("FAKE_METAL_MODE");
  }
  void TearDown() override { unsetenv("FAKE_METAL_MODE"); }

  static metal::MetalLibraries fake_libraries() {
    return {kFake, "", kFake, kFake};  // no CoreGraphics off a Mac
  }
  std::unique_ptr<metal::MetalCalls> open() {
    std::vector<std::string> load_errors;
    std::string error;
    bool missing = true;
    auto calls = metal::open_objc_metal(fake_libraries(), &load_errors, &error, &missing);
    EXPECT_TRUE(calls) << error;
    EXPECT_TRUE(load_errors.empty());
    return calls;
  }
  /// Objects the fake made and has not freed: every reference the caller got is released and
  /// every autoreleased object drained.
  static long live_objects() {
    void* h = dlopen(kFake.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (h == nullptr) return -1;
    auto fn = reinterpret_cast<long (*)()>(dlsym(h, "fake_objc_live_objects"));
    long n = fn ? fn() : -1;
    dlclose(h);
    return n;
  }
  MetalInfo enumerate(metal::MetalCalls& calls, bool smoke) {
    MetalInfo info;
    metal::EnumerateOptions options;
    options.smoke = smoke;
    options.smoke_n = 40;
    last_ = metal::enumerate(calls, options, info);
    return info;
  }
  JobReport last_;
};

TEST_F(MetalAbi, DevicePropertiesCrossTheAbiIntact) {
  setenv("FAKE_METAL_MODE", "two", 1);
  auto calls = open();
  ASSERT_TRUE(calls);
  const MetalInfo info = enumerate(*calls, false);
  ASSERT_EQ(info.devices.size(), 2u);
  const MetalDevice& d = info.devices[0];
  EXPECT_EQ(d.name, "Fake Metal GPU");
  EXPECT_EQ(d.registry_id, 0x100000abcu);
  EXPECT_EQ(d.unified_memory, true);
  EXPECT_EQ(d.recommended_max_working_set_bytes, 1ull << 34);
  EXPECT_EQ(d.max_buffer_length_bytes, 1ull << 33);
  EXPECT_EQ(d.max_threadgroup_memory_bytes, 32768u);
  EXPECT_EQ(d.location, "built-in");
  EXPECT_EQ(d.removable, false);
  EXPECT_EQ(d.families, (std::vector<std::string>{"Apple1", "Apple2", "Apple3", "Apple4",
                                                  "Apple5", "Apple6", "Apple7", "Mac2",
                                                  "Common1", "Common2", "Common3", "Metal3"}));
  const MetalDevice& e = info.devices[1];
  EXPECT_EQ(e.name, "Fake eGPU");
  EXPECT_EQ(e.location, "external");
  EXPECT_EQ(e.location_number, 1u);
  EXPECT_EQ(e.removable, true);
  EXPECT_EQ(e.unified_memory, false);
  EXPECT_EQ(live_objects(), 0);
}

TEST_F(MetalAbi, OldMetalIsAskedOnlyWhatItAnswers) {
  setenv("FAKE_METAL_MODE", "old", 1);  // an unknown selector would abort the test
  auto calls = open();
  ASSERT_TRUE(calls);
  const MetalInfo info = enumerate(*calls, true);
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].families_known, false);
  // supportsFeatureSet: instead, its NSUInteger argument through the ABI: 10000, 10001, 10003.
  EXPECT_EQ(info.devices[0].feature_set, "macOS_GPUFamily1_v3");
  EXPECT_EQ(info.devices[0].unified_memory, std::nullopt);
  EXPECT_EQ(info.devices[0].registry_id, 0x100000abcu);
  ASSERT_EQ(info.smoke.size(), 1u);
  EXPECT_EQ(info.smoke[0].status, "pass") << info.smoke[0].reason.value_or("");
}

TEST_F(MetalAbi, SmokeMatmulPassesThroughTheRuntime) {
  auto calls = open();
  ASSERT_TRUE(calls);
  const MetalInfo info = enumerate(*calls, true);
  ASSERT_EQ(info.smoke.size(), 1u);
  EXPECT_EQ(info.smoke[0].status, "pass") << info.smoke[0].reason.value_or("");
  EXPECT_EQ(info.smoke[0].n, 40);
  EXPECT_EQ(live_objects(), 0);
}

TEST_F(MetalAbi, MpsTakesDoublesAndStackArguments) {
  setenv("FAKE_METAL_MODE", "two", 1);
  auto calls = open();
  ASSERT_TRUE(calls);
  auto devices = calls->all_devices();
  ASSERT_EQ(devices.size(), 2u);
  {
    metal::MetalMatmul mps(*calls, devices[0], "Fake Metal GPU", metal::MatmulEngine::mps);
    smoke::MatmulRequest req;
    req.n = 33;
    const SmokeResult r = mps.run(req);
    EXPECT_EQ(r.status, "pass") << r.reason.value_or("");
    metal::MetalMatmul egpu(*calls, devices[1], "Fake eGPU", metal::MatmulEngine::mps);
    const SmokeResult s = egpu.run(req);
    EXPECT_EQ(s.status, "skip");
    EXPECT_NE(s.reason->find("MPSSupportsMTLDevice"), std::string::npos);
  }
  for (auto d : devices) calls->release(d);
  EXPECT_EQ(live_objects(), 0);
}

TEST_F(MetalAbi, FailuresCarryMetalsOwnWords) {
  for (const char* mode : {"wrong", "compile_error", "gpu_error"}) {
    setenv("FAKE_METAL_MODE", mode, 1);
    auto calls = open();
    ASSERT_TRUE(calls);
    const MetalInfo info = enumerate(*calls, true);
    ASSERT_EQ(info.smoke.size(), 1u) << mode;
    const SmokeResult& r = info.smoke[0];
    EXPECT_EQ(r.status, "fail") << mode;
    const std::string reason = r.reason.value_or("");
    if (std::string(mode) == "wrong") {
      EXPECT_EQ(r.worst_row, 1);
      EXPECT_EQ(r.worst_col, 3);
    } else if (std::string(mode) == "compile_error") {
      EXPECT_NE(reason.find("newLibraryWithSource:options:error:"), std::string::npos);
      EXPECT_NE(reason.find("the fake compiler refused it"), std::string::npos);  // NSError**
    } else {
      EXPECT_NE(reason.find("status 5 (MTLCommandBufferStatusError)"), std::string::npos);
      EXPECT_NE(reason.find("fake: the command buffer was aborted"), std::string::npos);
    }
    EXPECT_EQ(live_objects(), 0) << mode;
  }
}

TEST_F(MetalAbi, CrashInTheKernelFailsThatDeviceInTheChild) {
  setenv("FAKE_METAL_MODE", "crash", 1);
  metal::JobOptions options;
  options.libraries = fake_libraries();
  options.enumerate.smoke = true;
  options.enumerate.smoke_n = 32;
  auto results = run_isolated({metal::make_job(options)}, std::chrono::seconds(20));
  MetalInfo info;
  const ProbeOutcome out = metal::assemble(info, results, true);
  EXPECT_EQ(out.status, ProbeStatus::crashed) << out.detail;
  ASSERT_EQ(info.devices.size(), 1u);
  ASSERT_EQ(info.smoke.size(), 1u);
  EXPECT_EQ(info.smoke[0].status, "fail");
  EXPECT_NE(info.smoke[0].reason->find("SIGSEGV"), std::string::npos)
      << info.smoke[0].reason.value_or("");
}

TEST_F(MetalAbi, NoRuntimeIsMissing) {
  metal::JobOptions options;
  options.libraries = {"/nonexistent/libobjc.A.dylib", "", kFake, ""};
  auto results = run_isolated({metal::make_job(options)}, std::chrono::seconds(20));
  MetalInfo info;
  const ProbeOutcome out = metal::assemble(info, results, true);
  EXPECT_EQ(out.status, ProbeStatus::missing) << out.detail;
  EXPECT_NE(out.detail.find("Objective-C runtime"), std::string::npos);
  EXPECT_EQ(info.load_errors.size(), 1u);
}

}  // namespace
}  // namespace gpudoctor
