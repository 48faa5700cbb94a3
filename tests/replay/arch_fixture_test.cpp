// "no kernel image is available" replayed from files: tests/fixtures/rtx5090-torch-cu121-no-sm120
// (https://github.com/HybridRobotics/berkeley-humanoid-lite/issues/49: an RTX 5090 on driver
// 590.48.01, the project's torch 2.5.1+cu121), whose libtorch_cuda.so is a small stand-in with
// the real wheel's arch list; and an nvcc-built library (tests/gpu_code) put in a torch install.
#include <gtest/gtest.h>

#include <filesystem>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFixture = "rtx5090-torch-cu121-no-sm120";
constexpr const char* kVenv = "/home/user/berkeley-humanoid-lite/.venv";

Json check(const std::string& root, const std::string& venv) {
  auto r = test::run_gpudoctor({"check", "--json", "--no-smoke", "--sysroot", root},
                               {"VIRTUAL_ENV=" + venv, "HOME=/home/user", "CONDA_PREFIX=",
                                "PATH=/usr/local/bin:/usr/bin:/bin"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  Json report = Json::parse(r.out, nullptr, false);
  EXPECT_TRUE(report.is_object()) << r.out;
  return report;
}

std::vector<Json> findings(const Json& report, const std::string& id) {
  std::vector<Json> out;
  for (const auto& f : report["findings"]) {
    if (f["id"] == id) out.push_back(f);
  }
  return out;
}

bool has(const Json& v, const std::string& part) {
  return v.is_string() && v.get<std::string>().find(part) != std::string::npos;
}

TEST(ArchFixture, Rtx5090WithTorchCu121FailsFromTheLibraryItCarries) {
  Json report = check(test::fixture_path(kFixture), kVenv);
  auto fs = findings(report, "python.torch_arch");
  ASSERT_EQ(fs.size(), 1u) << report["findings"].dump(1);
  const Json& f = fs[0];
  EXPECT_EQ(f["severity"], "fail");
  EXPECT_TRUE(has(f["title"], "(compute capability 12.0)")) << f["title"];
  EXPECT_TRUE(has(f["title"], "no kernel image is available for execution on the device"));
  EXPECT_TRUE(has(f["title"], "read from torch/lib/libtorch_cuda.so")) << f["title"];
  EXPECT_TRUE(has(f["evidence"][0], "SASS sm_50, sm_60, sm_70, sm_75, sm_80, sm_86, sm_90"))
      << f["evidence"][0];
  // No 2.5 build carries sm_120: the newest wheel in the table that does, on a driver (590)
  // that runs its CUDA.
  EXPECT_TRUE(has(f["fix"], "pip install --force-reinstall 'torch==")) << f["fix"];
  EXPECT_TRUE(has(f["fix"], "(its kernels include sm_120)")) << f["fix"];
  EXPECT_FALSE(has(f["fix"], "needs NVIDIA driver")) << f["fix"];
  // The library in the report, as read.
  const Json& pkg = report["snapshot"]["python"]["envs"][0]["packages"][0];
  ASSERT_EQ(pkg["gpu_code"].size(), 1u);
  EXPECT_TRUE(pkg["gpu_code"][0]["error"].is_null());
  EXPECT_EQ(pkg["gpu_code"][0]["cuda_fatbins"], 1);
}

TEST(ArchFixture, WithoutTheLibraryTheBuildTableGivesTheSameAnswerAndSaysSo) {
  test::TempTree tree;
  fs::copy(test::fixture_path(kFixture), tree.path(),
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove(fs::path(tree.path()) / (std::string(kVenv).substr(1) +
                                      "/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so"));
  Json report = check(tree.path(), kVenv);
  auto fs = findings(report, "python.torch_arch");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0]["severity"], "fail");
  EXPECT_TRUE(has(fs[0]["title"], "from PyTorch's build table")) << fs[0]["title"];
  EXPECT_TRUE(has(fs[0]["source"], "github.com/pytorch/builder")) << fs[0]["source"];
}

TEST(ArchFixture, AnNvccBuiltLibraryInATorchInstallIsReadAndJudged) {
  // libfatbin_sass_only.so (sm_75, sm_80, sm_90) as a torch's libtorch_cuda.so on a Tesla P100
  // (6.0, 10de:15f8): no cubin of its major and no PTX at or below it.
  const std::string lib = std::string(GPUDOCTOR_GPU_CODE) + "/libfatbin_sass_only.so";
  if (!fs::exists(lib)) GTEST_SKIP() << "libfatbin_sass_only.so not built (no CUDA 13 nvcc)";
  test::TempTree tree;
  const std::string site = "opt/venv/lib/python3.12/site-packages";
  tree.write("sys/bus/pci/devices/0000:3b:00.0/vendor", "0x10de\n");
  tree.write("sys/bus/pci/devices/0000:3b:00.0/device", "0x15f8\n");
  tree.write("sys/bus/pci/devices/0000:3b:00.0/class", "0x030200\n");
  fs::create_directory_symlink("../../drivers/nvidia",
                               fs::path(tree.path()) / "sys/bus/pci/devices/0000:3b:00.0/driver");
  tree.write("sys/module/nvidia/version", "580.95.05\n");
  tree.write(site + "/torch-2.11.0.dist-info/METADATA", "Name: torch\nVersion: 2.11.0\n");
  tree.write(site + "/torch/version.py", "__version__ = '2.11.0+cu130'\ncuda = '13.0'\n");
  tree.mkdir(site + "/torch/lib");
  fs::copy_file(lib, fs::path(tree.path()) / site / "torch/lib/libtorch_cuda.so");
  Json report = check(tree.path(), "/opt/venv");
  auto fs = findings(report, "python.torch_arch");
  ASSERT_EQ(fs.size(), 1u) << report["findings"].dump(1);
  EXPECT_EQ(fs[0]["severity"], "fail");
  EXPECT_TRUE(has(fs[0]["evidence"][0], "SASS sm_75, sm_80, sm_90; PTX none")) << fs[0]["evidence"];
}

TEST(ArchFixture, CondaForgeTorchLibrariesInTheEnvironmentsLibAreRead) {
  // conda-forge's pytorch puts libtorch_cuda.so in <prefix>/lib, not in site-packages/torch/lib.
  const std::string lib = std::string(GPUDOCTOR_GPU_CODE) + "/libfatbin_sass_and_ptx.so";
  if (!fs::exists(lib)) GTEST_SKIP() << "libfatbin_sass_and_ptx.so not built (no CUDA 13 nvcc)";
  test::TempTree tree;
  const std::string site = "opt/conda/envs/ml/lib/python3.12/site-packages";
  tree.write(site + "/torch-2.9.1.dist-info/METADATA", "Name: torch\nVersion: 2.9.1\n");
  tree.write(site + "/torch/version.py", "__version__ = '2.9.1'\ncuda = '12.9'\n");
  fs::copy_file(lib, fs::path(tree.path()) / "opt/conda/envs/ml/lib/libtorch_cuda.so");
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "python", "--sysroot", tree.path()},
                               {"CONDA_PREFIX=/opt/conda/envs/ml", "VIRTUAL_ENV=", "HOME=/root"});
  Json q = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(q.is_object()) << r.err;
  const Json& code = q["python"]["envs"][0]["packages"][0]["gpu_code"];
  ASSERT_EQ(code.size(), 1u) << q["python"].dump(1);
  EXPECT_EQ(code[0]["path"], "/opt/conda/envs/ml/lib/libtorch_cuda.so");
  EXPECT_EQ(code[0]["sass"], Json::array({"sm_75", "sm_86"}));
  EXPECT_EQ(code[0]["ptx"], Json::array({"compute_90"}));
}

}  // namespace
}  // namespace gpudoctor
