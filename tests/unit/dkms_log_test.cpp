// DKMS's make.log: the module, the kernel it was for, how the build ended. The texts are the logs
// of corpus rows 259, 260 and 278 (tests/fixtures/corpus-batch8a.md, corpus-batch8b.md), as their
// threads quote them.
#include <gtest/gtest.h>

#include "parse/dkms_log.hpp"

namespace gpudoctor {
namespace {

// https://github.com/clearlinux/distribution/issues/1970: NVIDIA's conftest refuses a compiler
// other than the kernel's.
TEST(DkmsMakeLog, CompilerCheckOfNvidia) {
  const DkmsMakeLog log = parse_dkms_make_log(
      "DKMS make.log for nvidia-440.82 for kernel 5.4.40-38.lts2019 (x86_64)\n"
      "Fri May 15 12:01:13 CDT 2020\n"
      "make[1]: Entering directory '/usr/lib/modules/5.4.40-38.lts2019/build'\n"
      "\n"
      "Compiler version check failed:\n"
      "\n"
      "The major and minor number of the compiler used to\n"
      "compile the kernel:\n"
      "\n"
      "gcc version 9.3.1 20200507 releases/gcc-9.3.0-217-g7790399265 (Clear Linux OS)\n"
      "\n"
      "does not match the compiler used here:\n"
      "\n"
      "cc (Clear Linux OS for Intel Architecture) 10.1.1 20200513\n"
      "\n"
      "*** Failed CC version check. Bailing out! ***\n");
  EXPECT_EQ(log.module, std::optional<std::string>("nvidia"));
  EXPECT_EQ(log.version, std::optional<std::string>("440.82"));
  EXPECT_EQ(log.kernel, std::optional<std::string>("5.4.40-38.lts2019"));
  EXPECT_TRUE(log.failed);
  ASSERT_EQ(log.errors.size(), 2u);
  EXPECT_EQ(log.errors[0], "Compiler version check failed:");
  EXPECT_EQ(log.kernel_compiler,
            std::optional<std::string>(
                "gcc version 9.3.1 20200507 releases/gcc-9.3.0-217-g7790399265 (Clear Linux OS)"));
  EXPECT_EQ(log.compiler_here,
            std::optional<std::string>("cc (Clear Linux OS for Intel Architecture) 10.1.1 20200513"));
}

// https://github.com/void-linux/void-packages/issues/53759: only the log's end was pasted; the
// kernel is the build tree make left.
TEST(DkmsMakeLog, KernelFromTheBuildTreeAndMakesErrors) {
  const DkmsMakeLog log = parse_dkms_make_log(
      "make[2]: *** [/usr/src/kernel-headers-6.12.7_1/Makefile:1937: "
      "/var/lib/dkms/nvidia/470.239.06/build] Chyba 2\n"
      "make[1]: *** [Makefile:224: __sub-make] Error 2\n"
      "make[1]: Leaving directory '/usr/src/kernel-headers-6.12.7_1'\n"
      "make: *** [Makefile:80: modules] Error 2\n");
  EXPECT_EQ(log.module, std::nullopt);
  EXPECT_EQ(log.kernel, std::optional<std::string>("6.12.7_1"));
  EXPECT_TRUE(log.failed);
  EXPECT_EQ(log.errors.size(), 2u);  // "Chyba" is Czech for Error: make's own line counts by "Error"
}

// https://github.com/ROCm/legacy-rocm-build/issues/5624: dkms 3's header, module/version.
TEST(DkmsMakeLog, Dkms3HeaderWithoutErrors) {
  const DkmsMakeLog log = parse_dkms_make_log(
      "DKMS (dkms-3.2.0) make.log for amdgpu/6.12.12-2202139.24.04 for kernel 6.17.0-6-generic "
      "(x86_64)\n"
      "Tue Nov  4 11:45:31 CET 2025\n");
  EXPECT_EQ(log.module, std::optional<std::string>("amdgpu"));
  EXPECT_EQ(log.version, std::optional<std::string>("6.12.12-2202139.24.04"));
  EXPECT_EQ(log.kernel, std::optional<std::string>("6.17.0-6-generic"));
  EXPECT_FALSE(log.failed);  // the probe decides from whether a module came out for that kernel
  EXPECT_TRUE(log.errors.empty());
}

}  // namespace
}  // namespace gpudoctor
