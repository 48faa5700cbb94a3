// The questions checks ask of the compatibility matrices, answered as the documents state them
// (each expectation names the document in data/compat that says so).
#include "compat/compat_query.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "compat/compat_data.hpp"
#include "compat/version.hpp"

namespace gpudoctor {
namespace {

Version v(const char* text) { return parse_version(text).value(); }
const CompatData& data() { return builtin_compat(); }

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}
bool has_version(const std::vector<Version>& list, const char* item) {
  return std::any_of(list.begin(), list.end(), [&](const Version& x) { return x == v(item); });
}

// ---- cuda_driver_minimums.json

TEST(CompatQueryDriver, Cuda124OnLinuxIsTheDriverItsInstallerBundles) {
  // cuda_12.4.0_550.54.14_linux.run
  auto m = min_driver_for_cuda(data(), v("12.4"), CompatOs::kLinux);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->driver.text, "550.54.14");
  EXPECT_EQ(m->basis, DriverBasis::kInstaller);
  EXPECT_EQ(min_driver_for_cuda(data(), v("12.4.1"), CompatOs::kLinux)->driver.text, "550.54.15");
}

TEST(CompatQueryDriver, ReleaseNotesValues) {
  // Release notes table (10.x also on the compatibility page, Table 2).
  EXPECT_EQ(min_driver_for_cuda(data(), v("10.2"), CompatOs::kLinux)->driver.text, "440.33");
  EXPECT_EQ(min_driver_for_cuda(data(), v("10.2.89"), CompatOs::kWindows)->driver.text, "441.22");
  // "CUDA 10.1 (10.1.105 general release, and updates)".
  EXPECT_EQ(min_driver_for_cuda(data(), v("10.1.243"), CompatOs::kLinux)->driver.text, "418.39");
  EXPECT_EQ(min_driver_for_cuda(data(), v("11.8"), CompatOs::kWindows)->driver.text, "520.06");
  EXPECT_EQ(min_driver_for_cuda(data(), v("11.4.4"), CompatOs::kLinux)->driver.text, "470.82.01");
  // A runtime that names no release of its minor gets the minor's first release.
  EXPECT_EQ(min_driver_for_cuda(data(), v("11.0"), CompatOs::kLinux)->driver.text, "450.51.05");
  // cuDNN 9.10.2 matrix: CUDA 12.8 needs >= 570.26 (Linux), >= 570.65 (Windows); the
  // 12.8.0 runfile bundles 570.86.10, and the table value wins over it.
  auto cuda128 = min_driver_for_cuda(data(), v("12.8"), CompatOs::kLinux);
  ASSERT_TRUE(cuda128);
  EXPECT_EQ(cuda128->driver.text, "570.26");
  EXPECT_EQ(cuda128->basis, DriverBasis::kReleaseNotes);
  EXPECT_EQ(min_driver_for_cuda(data(), v("12.8"), CompatOs::kWindows)->driver.text, "570.65");
}

TEST(CompatQueryDriver, UnknownIsNotGuessed) {
  // No Windows value was verified for CUDA 12.4 or 13.x, and there is no CUDA 12.7.
  EXPECT_FALSE(min_driver_for_cuda(data(), v("12.4"), CompatOs::kWindows));
  EXPECT_FALSE(min_driver_for_cuda(data(), v("13.0"), CompatOs::kWindows));
  EXPECT_FALSE(min_driver_for_cuda(data(), v("12.7"), CompatOs::kLinux));
  EXPECT_FALSE(min_driver_for_cuda(data(), v("12.4"), CompatOs::kMacos));
}

// ---- cuda_minor_version_compat.json

TEST(CompatQueryMinorCompat, FamilyMinimums) {
  auto linux12 = minor_compat_for_cuda(data(), v("12.4"), CompatOs::kLinux);
  ASSERT_TRUE(linux12);
  ASSERT_TRUE(linux12->supported);
  EXPECT_EQ(linux12->min_driver->text, "525.60.13");
  EXPECT_EQ(minor_compat_for_cuda(data(), v("11.8"), CompatOs::kWindows)->min_driver->text,
            "452.39");
  EXPECT_EQ(minor_compat_for_cuda(data(), v("11.2"), CompatOs::kLinux)->min_driver->text,
            "450.80.02");
  EXPECT_EQ(minor_compat_for_cuda(data(), v("13.1"), CompatOs::kLinux)->min_driver->text, "580");
  auto cuda10 = minor_compat_for_cuda(data(), v("10.2"), CompatOs::kLinux);
  ASSERT_TRUE(cuda10);
  EXPECT_FALSE(cuda10->supported);
  EXPECT_FALSE(minor_compat_for_cuda(data(), v("13.0"), CompatOs::kWindows));
}

// ---- driver_branch_max_cuda.json

TEST(CompatQueryBranch, HighestCudaPerDriver) {
  EXPECT_EQ(max_cuda_for_driver(data(), v("470.82.01"))->max_cuda.text, "11.4");
  EXPECT_EQ(max_cuda_for_driver(data(), v("418.87.00"))->max_cuda.text, "10.1");  // data-center PDF
  EXPECT_EQ(max_cuda_for_driver(data(), v("535.104.05"))->max_cuda.text, "12.2");
  EXPECT_EQ(*max_cuda_for_driver(data(), v("535.104.05"))->max_cuda_major, 12);
  EXPECT_EQ(max_cuda_for_driver(data(), v("580.65.06"))->max_cuda.text, "13.0");
  // R565 is not in the table: the answer is R560's, never more than a document states.
  EXPECT_EQ(max_cuda_for_driver(data(), v("565.57.01"))->max_cuda.text, "12.6");
  EXPECT_FALSE(max_cuda_for_driver(data(), v("300.1")));
}

// ---- cuda_arch_range.json

TEST(CompatQueryArch, WhatNvccCanBuild) {
  // CUDA 13.0 removed offline compilation for Maxwell, Pascal and Volta.
  EXPECT_EQ(cuda_builds_sm(data(), v("13.0"), "50"), std::optional<bool>(false));
  EXPECT_EQ(cuda_builds_sm(data(), v("12.9"), "sm_50"), std::optional<bool>(true));
  EXPECT_EQ(cuda_builds_sm(data(), v("13.0"), "70"), std::optional<bool>(false));
  // cuFFT: SM35/SM37 unsupported from CUDA 12.0.
  EXPECT_EQ(cuda_builds_sm(data(), v("12.0"), "35"), std::optional<bool>(false));
  EXPECT_EQ(cuda_builds_sm(data(), v("11.8"), "35"), std::optional<bool>(true));
  // nvcc 11.8 builds sm_90 (PyTorch's cu118 wheels); sm_90a needs 12.0.
  EXPECT_EQ(cuda_builds_sm(data(), v("11.8"), "90"), std::optional<bool>(true));
  EXPECT_EQ(cuda_builds_sm(data(), v("11.8"), "90a"), std::optional<bool>(false));
  // Thor: sm_101 until 12.9, sm_110 from 13.0.
  EXPECT_EQ(cuda_builds_sm(data(), v("13.0"), "101"), std::optional<bool>(false));
  EXPECT_EQ(cuda_builds_sm(data(), v("13.0"), "110"), std::optional<bool>(true));
  EXPECT_FALSE(cuda_builds_sm(data(), v("12.0"), "99"));
}

TEST(CompatQueryArch, RangePerToolkit) {
  auto r13 = arch_range_for_cuda(data(), v("13.0"));
  ASSERT_TRUE(r13);
  EXPECT_EQ(to_string(r13->min), "7.5");
  EXPECT_EQ(to_string(r13->max), "12.1");
  auto r124 = arch_range_for_cuda(data(), v("12.4.1"));
  ASSERT_TRUE(r124);
  EXPECT_EQ(to_string(r124->min), "5.0");
  EXPECT_EQ(to_string(r124->max), "9.0");
  EXPECT_TRUE(has(r124->sms, "90a"));
  auto r118 = arch_range_for_cuda(data(), v("11.8"));
  EXPECT_EQ(to_string(r118->min), "3.5");
  EXPECT_EQ(to_string(r118->max), "9.0");
  auto r102 = arch_range_for_cuda(data(), v("10.2"));
  EXPECT_EQ(to_string(r102->min), "3.0");
  EXPECT_EQ(to_string(r102->max), "7.5");
}

// ---- gpu_compute_capability.json

TEST(CompatQueryGpu, ModelNamesAsDriversReportThem) {
  auto cc = [](const char* name) {
    auto m = compute_capability_for_model(data(), name);
    return m ? numeric_string(m->cc) : std::string("unknown");
  };
  EXPECT_EQ(cc("NVIDIA GeForce RTX 3090"), "8.6");
  EXPECT_EQ(cc("NVIDIA GeForce RTX 3060 Ti"), "8.6");
  EXPECT_EQ(cc("Tesla V100-SXM2-16GB"), "7.0");
  EXPECT_EQ(cc("NVIDIA A100-SXM4-80GB"), "8.0");
  EXPECT_EQ(cc("NVIDIA A10"), "8.6");
  EXPECT_EQ(cc("NVIDIA H100 80GB HBM3"), "9.0");
  EXPECT_EQ(cc("NVIDIA GH200 480GB"), "9.0");
  EXPECT_EQ(cc("NVIDIA L40S"), "8.9");
  EXPECT_EQ(cc("NVIDIA RTX 6000 Ada Generation"), "8.9");
  EXPECT_EQ(cc("Tesla K80"), "3.7");
  EXPECT_EQ(cc("NVIDIA GeForce RTX 5090"), "12.0");
  // Not in the table (no document read for it): unknown, not a neighbour's value.
  EXPECT_EQ(cc("Quadro RTX 6000"), "unknown");
  EXPECT_EQ(cc("Tesla V100S-PCIE-32GB"), "unknown");
  EXPECT_EQ(cc("AMD Radeon RX 7900 XTX"), "unknown");
}

TEST(CompatQueryGpu, PciIds) {
  auto h100 = compute_capability_for_pci(data(), 0x10de, 0x2330);
  ASSERT_TRUE(h100);
  EXPECT_EQ(h100->model, "H100");
  EXPECT_EQ(numeric_string(h100->cc), "9.0");
  EXPECT_EQ(numeric_string(compute_capability_for_pci(data(), 0x10de, 0x1eb8)->cc), "7.5");  // T4
  EXPECT_EQ(numeric_string(compute_capability_for_pci(data(), 0x10de, 0x2b85)->cc), "12.0");
  EXPECT_FALSE(compute_capability_for_pci(data(), 0x1002, 0x2330));
  EXPECT_FALSE(compute_capability_for_pci(data(), 0x10de, 0x1e04));  // RTX 2080 Ti: left out
}

// ---- cudnn.json

TEST(CompatQueryCudnn, Cuda13Build) {
  auto rows = cudnn_support(data(), v("9.17.0"), v("13.0"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].linux_driver->text, "580.65.06");
  EXPECT_FALSE(rows[0].windows_driver);
  EXPECT_EQ(cudnn_supports_cc(rows[0], v("7.5")), std::optional<bool>(true));
  EXPECT_EQ(cudnn_supports_cc(rows[0], v("7.0")), std::optional<bool>(false));
  EXPECT_EQ(cudnn_supports_cc(rows[0], v("12.0")), std::optional<bool>(true));
}

TEST(CompatQueryCudnn, BlackwellRowComesFirst) {
  auto rows = cudnn_support(data(), v("9.10.2.21"), v("12.8"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].linux_driver->text, "570.26");
  EXPECT_EQ(rows[1].linux_driver->text, "525.60.13");
  EXPECT_EQ(cudnn_supports_cc(rows[0], v("12.0")), std::optional<bool>(true));
  EXPECT_EQ(cudnn_supports_cc(rows[1], v("12.0")), std::optional<bool>(false));
  EXPECT_EQ(cudnn_support(data(), v("9.5.1.17"), v("12.6")).at(0).windows_driver->text, "527.41");
  // cuDNN 7.6 does not support CUDA 9.1.
  EXPECT_TRUE(cudnn_support(data(), v("7.6.5"), v("9.1")).empty());
  EXPECT_FALSE(cudnn_support(data(), v("7.6.5"), v("10.0")).empty());
}

// ---- tensorflow.json

TEST(CompatQueryTensorflow, TestedBuilds) {
  auto tf215 = tensorflow_tested_build(data(), v("2.15.1"), CompatOs::kLinux, true);
  ASSERT_TRUE(tf215);
  EXPECT_EQ(tf215->cuda->text, "12.2");
  EXPECT_EQ(tf215->cudnn->text, "8.9");
  ASSERT_EQ(tf215->python.size(), 1u);
  EXPECT_EQ(tf215->python[0].min->text, "3.9");
  EXPECT_EQ(tf215->python[0].max->text, "3.11");
  EXPECT_EQ(tensorflow_tested_build(data(), v("2.18.0"), CompatOs::kLinux, true)->cuda->text,
            "12.5");
  // TensorFlow 2.10 was the last release with GPU on native Windows.
  EXPECT_TRUE(tensorflow_tested_build(data(), v("2.10.0"), CompatOs::kWindows, true));
  EXPECT_FALSE(tensorflow_tested_build(data(), v("2.11.0"), CompatOs::kWindows, true));
  auto old = tensorflow_tested_build(data(), v("1.15.0"), CompatOs::kLinux, true);
  ASSERT_TRUE(old);
  EXPECT_EQ(old->package, "tensorflow_gpu");
  EXPECT_EQ(old->python.size(), 2u);  // "2.7, 3.3-3.7"
  EXPECT_EQ(
      tensorflow_tested_build(data(), v("2.16.2"), CompatOs::kMacos, false)->python[0].max->text,
      "3.12");
}

// ---- pytorch.json

TEST(CompatQueryTorch, ReleaseMatrix) {
  auto t25 = torch_release(data(), v("2.5.1+cu124"));
  ASSERT_TRUE(t25);
  EXPECT_EQ(t25->python.min->text, "3.9");
  EXPECT_EQ(t25->python.max->text, "3.12");
  ASSERT_EQ(t25->cuda.size(), 3u);
  EXPECT_EQ(t25->cuda[2].cuda.text, "12.4");
  EXPECT_EQ(t25->rocm->text, "6.2");
  auto t23 = torch_release(data(), v("2.3.0"));
  EXPECT_EQ(t23->cuda[0].cudnn->text, "8.7.0.84");
  EXPECT_FALSE(t23->cuda[1].stable);
  EXPECT_FALSE(torch_release(data(), v("1.11.0")));
}

TEST(CompatQueryTorch, ArchsInsideTheWheels) {
  auto linux130 = torch_archs(data(), v("2.13.0"), v("13.0"), "linux-x86_64");
  ASSERT_TRUE(linux130);
  EXPECT_TRUE(has_version(linux130->archs, "7.5"));
  EXPECT_FALSE(has_version(linux130->archs, "7.0"));
  EXPECT_TRUE(has_version(linux130->ptx, "12.0"));
  EXPECT_TRUE(torch_archs(data(), v("2.13.0"), v("13.0"), "windows-x86_64")->ptx.empty());
  EXPECT_TRUE(
      has_version(torch_archs(data(), v("2.12.0"), v("12.6"), "linux-x86_64")->archs, "5.0"));
  // 2.8's CUDA 12.8 wheel kept sm_70 (pytorch issue 157517).
  EXPECT_TRUE(
      has_version(torch_archs(data(), v("2.8.0"), v("12.8"), "linux-x86_64")->archs, "7.0"));
  // Not documented here: 2.5's archs.
  EXPECT_FALSE(torch_archs(data(), v("2.5.1"), v("12.4"), "linux-x86_64"));
}

TEST(CompatQueryTorch, MpsNeedsMacos) {
  EXPECT_EQ(torch_mps_min_macos(data(), v("2.1.2"))->macos_min.text, "12.3");
  EXPECT_EQ(torch_mps_min_macos(data(), v("2.14.0"))->macos_min.text, "14.0");
  EXPECT_FALSE(torch_mps_min_macos(data(), v("2.5.0")));
}

// ---- jax.json, tensorflow_metal.json

TEST(CompatQueryJax, PluginRequirements) {
  auto cuda13 = jax_plugin_requirements(data(), "cuda13", std::nullopt);
  ASSERT_TRUE(cuda13);
  EXPECT_EQ(cuda13->linux_driver_min->text, "580");
  EXPECT_EQ(cuda13->min_compute_capability->text, "7.5");
  auto cuda12 = jax_plugin_requirements(data(), "cuda12", v("0.7.1"));
  ASSERT_TRUE(cuda12);
  EXPECT_EQ(cuda12->cudnn.min->text, "9.8");
  EXPECT_EQ(cuda12->min_compute_capability->text, "5.2");
  EXPECT_TRUE(in_range(v("9.8.0"), cuda12->cudnn));
  EXPECT_FALSE(in_range(v("10.0.0"), cuda12->cudnn));
  EXPECT_EQ(jax_plugin_requirements(data(), "cuda12", v("0.4.31"))->cudnn.min->text, "9.1");
  EXPECT_FALSE(jax_plugin_requirements(data(), "cuda12", v("0.4.20")));
  EXPECT_FALSE(jax_plugin_requirements(data(), "rocm7", std::nullopt));
}

TEST(CompatQueryMetal, BasePackage) {
  EXPECT_EQ(tensorflow_metal_requirements(data(), v("2.13.0"))->base_package, "tensorflow");
  EXPECT_EQ(tensorflow_metal_requirements(data(), v("2.12.0"))->base_package, "tensorflow-macos");
  EXPECT_EQ(tensorflow_metal_requirements(data(), v("2.16.2"))->macos_min->text, "12.0");
}

// ---- rocm.json

TEST(CompatQueryRocm, Releases) {
  auto r620 = rocm_release(data(), v("6.2.0"));
  ASSERT_TRUE(r620);
  EXPECT_TRUE(has(r620->gfx, "gfx942"));
  EXPECT_FALSE(has(r620->gfx, "gfx1101"));
  EXPECT_TRUE(has_version(r620->pytorch, "2.3"));
  auto r630 = rocm_release(data(), v("6.3.0-39"));  // /opt/rocm/.info/version
  ASSERT_TRUE(r630);
  EXPECT_EQ(r630->rocm.text, "6.3.0");
  bool debian = std::any_of(r630->os.begin(), r630->os.end(),
                            [](const RocmDistro& d) { return d.distro == "Debian"; });
  EXPECT_FALSE(debian);                            // Debian 12 appears from 6.3.1
  EXPECT_FALSE(rocm_release(data(), v("6.4.0")));  // later releases: not read
}

TEST(CompatQueryRocm, GpusAndKernels) {
  auto xtx = rocm_gpu(data(), "AMD Radeon RX 7900 XTX");
  ASSERT_TRUE(xtx);
  EXPECT_EQ(xtx->gfx, "gfx1100");
  EXPECT_EQ(rocm_gpu(data(), "AMD Radeon RX 7900 XT")->gpu, "Radeon RX 7900 XT");
  EXPECT_EQ(rocm_gpu(data(), "AMD Instinct MI300X")->gfx, "gfx942");
  EXPECT_EQ(rocm_gpu(data(), "AMD Radeon RX 6700 XT")->gfx, "gfx1031");
  EXPECT_FALSE(rocm_gpu(data(), "NVIDIA GeForce RTX 3090"));
  auto jammy = rocm_kernels(data(), "ubuntu", "22.04.5");
  ASSERT_TRUE(jammy);
  ASSERT_EQ(jammy->kernels.size(), 2u);
  EXPECT_EQ(jammy->kernels[1].version, "6.8");
  EXPECT_EQ(*jammy->kernels[1].flavor, "HWE");
}

// The table deviceQuery prints "CUDA Cores/MP" from, and the per-vendor lanes of the peaks.
TEST(CompatQueryFp32Lanes, CoresPerSmAndVendorLanes) {
  const CompatData& d = builtin_compat();
  EXPECT_EQ(nvidia_fp32_lanes(d, 8, 0)->lanes, 64);   // A100
  EXPECT_EQ(nvidia_fp32_lanes(d, 8, 6)->lanes, 128);  // GA10x
  EXPECT_EQ(nvidia_fp32_lanes(d, 6, 0)->lanes, 64);   // P100
  EXPECT_EQ(nvidia_fp32_lanes(d, 3, 5)->lanes, 192);  // Kepler
  EXPECT_EQ(nvidia_fp32_lanes(d, 9, 0)->unit, "SM");
  EXPECT_FALSE(nvidia_fp32_lanes(d, 9, 9));  // not in NVIDIA's table: unknown, not guessed
  EXPECT_EQ(vendor_fp32_lanes(d, "amd", 10, true)->lanes, 64);
  EXPECT_FALSE(vendor_fp32_lanes(d, "amd", 11, true));  // RDNA 3 dual-issues: no row
  EXPECT_FALSE(vendor_fp32_lanes(d, "amd", std::nullopt, true));
  EXPECT_EQ(vendor_fp32_lanes(d, "intel", std::nullopt, true)->lanes, 8);
  EXPECT_FALSE(vendor_fp32_lanes(d, "intel", std::nullopt, false));  // an Intel CPU device
}

}  // namespace
}  // namespace gpudoctor
