// The platform decision (src/platform/): which platform a snapshot is, which checks apply to
// it, and which libraries each platform's probes open.
#include <gtest/gtest.h>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "devices.hpp"
#include "platform/library_names.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace platform_test {

TEST(Platform, SnapshotIsAMacWhenTheMacosBackendFoundOne) {
  Snapshot s;
  EXPECT_EQ(snapshot_platform(s), kPlatformLinux);
  s.macos = MacosInfo{};
  EXPECT_EQ(snapshot_platform(s), kPlatformMacos);
}

TEST(Platform, ListedPlatforms) {
  EXPECT_TRUE(platform_listed("any", kPlatformMacos));
  EXPECT_TRUE(platform_listed("linux", kPlatformLinux));
  EXPECT_FALSE(platform_listed("linux", kPlatformMacos));
  EXPECT_TRUE(platform_listed("linux, macos", kPlatformMacos));
  EXPECT_FALSE(platform_listed("macos", kPlatformLinux));
  EXPECT_FALSE(platform_listed("", kPlatformLinux));
}

TEST(Platform, EveryCheckNamesKnownPlatforms) {
  for (const auto& c : all_checks()) {
    for (const auto& p : split_words(c.platforms, ", ")) {
      EXPECT_TRUE(p == kPlatformAny || p == kPlatformLinux || p == kPlatformMacos)
          << c.id << ": " << p;
    }
  }
}

std::vector<Finding> run(const Snapshot& s) {
  auto devices = merge_devices(s);
  return run_checks(CheckInput{s, devices, builtin_compat()});
}

/// A Linux machine with an NVIDIA GPU that no driver claimed, and no OpenCL or Vulkan.
Snapshot bare_linux() {
  Snapshot s;
  s.pci = PciInfo{};
  PciDevice gpu;
  gpu.address = "0000:01:00.0";
  gpu.class_code = 0x030000;
  gpu.vendor_id = 0x10de;
  gpu.device_id = 0x1380;  // GeForce GTX 750 Ti, seed 002's card
  s.pci->devices.push_back(gpu);
  s.opencl = OpenClInfo{};
  s.vulkan = VulkanInfo{};
  return s;
}

// A tree without the PCI list (a container, a partial --sysroot copy) where the NVIDIA kernel
// module is loaded: the missing OpenCL and Vulkan drivers are the NVIDIA driver's, not a CPU
// implementation's.
TEST(Platform, MissingDriverFixNamesTheGpuAnyBackendSaw) {
  Snapshot s;
  s.opencl = OpenClInfo{};
  s.opencl->loader = "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1";
  s.vulkan = VulkanInfo{};
  s.vulkan->loader = "/usr/lib/x86_64-linux-gnu/libvulkan.so.1";
  auto cpu_only = run(s);
  const Finding* cl = test::find_finding(cpu_only, "opencl.no_icd");
  ASSERT_NE(cl, nullptr);
  EXPECT_NE(cl->fix->find("pocl-opencl-icd"), std::string::npos) << *cl->fix;

  s.nvidia = NvidiaSystem{};
  s.nvidia->kernel.module_version = "550.54.14";
  auto nvidia = run(s);
  cl = test::find_finding(nvidia, "opencl.no_icd");
  const Finding* vk = test::find_finding(nvidia, "vulkan.no_driver");
  ASSERT_NE(cl, nullptr);
  ASSERT_NE(vk, nullptr);
  EXPECT_NE(cl->fix->find("nvidia-opencl-icd"), std::string::npos) << *cl->fix;
  EXPECT_EQ(cl->fix->find("pocl"), std::string::npos) << *cl->fix;
  EXPECT_NE(vk->fix->find("nvidia-vulkan-icd"), std::string::npos) << *vk->fix;

  // nouveau drives only NVIDIA GPUs too (the nvidia-nouveau-bound fixture has no PCI list).
  s.nvidia->kernel.module_version.reset();
  s.nvidia->kernel.loaded_modules = {"nouveau"};
  const auto nouveau = run(s);
  cl = test::find_finding(nouveau, "opencl.no_icd");
  ASSERT_NE(cl, nullptr);
  EXPECT_NE(cl->fix->find("nvidia-opencl-icd"), std::string::npos) << *cl->fix;
}

TEST(Platform, LinuxOnlyChecksSkipAMac) {
  Snapshot s = bare_linux();
  auto linux_findings = run(s);
  ASSERT_NE(test::find_finding(linux_findings, "gpu.no_driver"), nullptr);
  ASSERT_NE(test::find_finding(linux_findings, "opencl.no_icd"), nullptr);
  // The same facts in a Mac's snapshot: none of the Linux-only checks speaks.
  s.macos = MacosInfo{};
  s.macos->product_version = "10.13.6";
  for (const auto& f : run(s)) {
    const CheckSpec* spec = find_check(f.id);
    ASSERT_NE(spec, nullptr) << f.id;
    EXPECT_TRUE(platform_listed(spec->platforms, kPlatformMacos)) << f.id;
  }
}

TEST(Platform, AreasOfOnePlatformAreMarkedSo) {
  // The macos area's checks read what only a Mac has; the areas of kernel drivers only Linux.
  for (const auto& c : all_checks()) {
    if (c.area == "macos") EXPECT_EQ(c.platforms, kPlatformMacos) << c.id;
    // gpu.none reads every source of GPUs, system_profiler among them.
    if ((c.area == "gpu" || c.area == "nvidia" || c.area == "rocm") && c.id != std::string_view("gpu.none")) {
      EXPECT_EQ(c.platforms, kPlatformLinux) << c.id;
    }
  }
}

TEST(Platform, LibraryNamesPerPlatform) {
  const LibraryNames& mac = library_names(kPlatformMacos);
  EXPECT_EQ(mac.opencl, std::vector<std::string>{"/System/Library/Frameworks/OpenCL.framework/OpenCL"});
  EXPECT_FALSE(mac.opencl_has_icds);
  EXPECT_EQ(mac.vulkan.front(), "libvulkan.1.dylib");
  EXPECT_EQ(mac.cuda.back(), "/usr/local/cuda/lib/libcuda.dylib");
  EXPECT_TRUE(mac.nvml.empty());
  EXPECT_TRUE(mac.hip.empty());
  EXPECT_EQ(mac.metal, "/System/Library/Frameworks/Metal.framework/Metal");
  const LibraryNames& linux_names = library_names(kPlatformLinux);
  EXPECT_EQ(linux_names.opencl, std::vector<std::string>{"libOpenCL.so.1"});
  EXPECT_TRUE(linux_names.opencl_has_icds);
  EXPECT_EQ(linux_names.vulkan, std::vector<std::string>{"libvulkan.so.1"});
  EXPECT_EQ(linux_names.cuda.front(), "libcuda.so.1");
  EXPECT_TRUE(linux_names.metal.empty());
}

}  // namespace platform_test
}  // namespace gpudoctor
