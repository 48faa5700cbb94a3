// A healthy machine must get no failure and no warning that is not true (issue 4): `gpudoctor
// check` on tests/fixtures/server-h100-torch-cu124, eight H100 80GB HBM3 on driver 550.127.05
// with PyPI's torch 2.5.1+cu124 in a conda environment, as reported in
// https://github.com/vllm-project/vllm/issues/11778 ("Is CUDA available: True").
#include <gtest/gtest.h>

#include <algorithm>

#include <set>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace h100_healthy_test {

constexpr const char* kFixture = "server-h100-torch-cu124";
constexpr const char* kDriver = "550.127.05";  // "Nvidia driver version: 550.127.05"

struct Checked {
  int exit_code;
  Json report;  ///< findings and snapshot
};

/// `check --json`, in the shell the report ran collect_env from: the conda environment
/// activated (the fixture's README says why /opt/conda), no virtualenv.
Checked check_h100(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"check", "--json", "--no-smoke"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test::run_gpudoctor(
      argv, {"CONDA_PREFIX=/opt/conda", "VIRTUAL_ENV=", "HOME=/home/user",
             "PATH=/opt/conda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  Json report = Json::parse(r.out, nullptr, false);
  EXPECT_TRUE(report.is_object()) << r.out;
  return {r.exit_code, report};
}

Checked check_fixture() { return check_h100({"--sysroot", test::fixture_path(kFixture)}); }

bool is_cuda12_wheel(const std::string& name) {
  const std::string suffix = "-cu12";
  return name.rfind("nvidia-", 0) == 0 && name.size() > suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(HealthyH100, NoFailureAndNoWarning) {
  Checked c = check_fixture();
  // The only notes: the fixture holds no OpenCL or Vulkan ICD files, because the report says
  // nothing about them.
  const std::set<std::string> notes = {"opencl.no_icd", "vulkan.no_driver"};
  for (const auto& f : c.report["findings"]) {
    EXPECT_TRUE(f["severity"] == "ok" || f["severity"] == "info") << f.dump();
    EXPECT_EQ(notes.count(f["id"].get<std::string>()), 1U) << f.dump();
  }
  EXPECT_EQ(c.exit_code, 0);
}

TEST(HealthyH100, TheScreenNamesTheBoardsOnceAndThePipCudaRuntime) {
  auto r = test::run_gpudoctor({"check", "--no-smoke", "--sysroot", test::fixture_path(kFixture)},
                               {"CONDA_PREFIX=/opt/conda", "VIRTUAL_ENV=", "HOME=/home/user",
                                "PATH=/opt/conda/bin:/usr/bin:/bin"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Once, with a count, the nvidia-smi-style indexes and each board's bus address.
  EXPECT_NE(r.out.find("gpu     GH100[H100 SXM5 80GB] (nvidia) ×8 (#0-7 at 0000:1b:00.0, "
                       "0000:43:00.0, 0000:52:00.0, 0000:61:00.0, 0000:9d:00.0, 0000:c3:00.0, "
                       "0000:d1:00.0, 0000:df:00.0)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("CUDA 12.4.127 runtime from pip wheels at "
                       "/opt/conda/lib/python3.10/site-packages/nvidia with cuDNN 9.1.0.70"),
            std::string::npos)
      << r.out;
  // A healthy machine ends with one plain sentence, not a row of zero counts.
  const std::string last = r.out.substr(r.out.rfind("\n\n") + 2);
  EXPECT_EQ(last.rfind("No problems found", 0), 0U) << r.out;
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 1) << r.out;
  EXPECT_EQ(r.out.find("0 failures"), std::string::npos) << r.out;
}

TEST(HealthyH100, ReadsTheEightGpusBoundToNvidia) {
  const Checked c = check_fixture();
  const Json& pci = c.report["snapshot"]["pci"]["devices"];
  ASSERT_EQ(pci.size(), 8U);  // "GPU 0: NVIDIA H100 80GB HBM3" … "GPU 7"
  for (const auto& p : pci) {
    EXPECT_EQ(p["vendor_id"], 0x10de);
    EXPECT_EQ(p["device_id"], 0x2330) << p.dump();
    EXPECT_EQ(p["class_name"], "3D controller");
    EXPECT_EQ(p["driver"], "nvidia");
  }
}

TEST(HealthyH100, ReadsTheDriverFromModuleAndLibraries) {
  const Checked c = check_fixture();
  const Json& nv = c.report["snapshot"]["nvidia"];
  EXPECT_EQ(nv["kernel"]["module_version"], kDriver);
  ASSERT_FALSE(nv["libcuda"].empty());
  for (const auto& lib : nv["libcuda"]) EXPECT_EQ(lib["version"], kDriver) << lib.dump();
  ASSERT_FALSE(nv["libnvidia_ml"].empty());
  EXPECT_EQ(nv["libnvidia_ml"][0]["version"], kDriver);
}

TEST(HealthyH100, ReadsTorchAndItsCudaBuildInTheCondaEnvironment) {
  const Checked c = check_fixture();
  const Json& envs = c.report["snapshot"]["python"]["envs"];
  ASSERT_EQ(envs.size(), 1U);
  const Json& env = envs[0];
  EXPECT_EQ(env["prefix"], "/opt/conda");
  EXPECT_EQ(env["kind"], "conda");
  EXPECT_EQ(env["python_version"], "3.10");  // "Python version: 3.10.15"
  const Json* torch = nullptr;
  std::set<std::string> cuda12_wheels;
  for (const auto& p : env["packages"]) {
    if (p["name"] == "torch") torch = &p;
    if (is_cuda12_wheel(p["name"])) cuda12_wheels.insert(p["name"].get<std::string>());
  }
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ((*torch)["version"], "2.5.1");  // METADATA says 2.5.1; the build is in version.py
  EXPECT_EQ((*torch)["torch"]["version"], "2.5.1+cu124");
  EXPECT_EQ((*torch)["torch"]["cuda"], "12.4");  // "CUDA used to build PyTorch: 12.4"
  EXPECT_EQ(cuda12_wheels.size(), 10U);          // the report's [conda] list, each pinned by torch
}

TEST(HealthyH100, FindsTheCudaLibrariesTorchLoadsFromItsWheels) {
  const Checked c = check_fixture();
  const Json& toolkits = c.report["snapshot"]["nvidia"]["toolkits"];
  ASSERT_EQ(toolkits.size(), 1U);  // no CUDA toolkit in the tree, only pip's wheels
  const Json& wheels = toolkits[0];
  EXPECT_EQ(wheels["path"], "/opt/conda/lib/python3.10/site-packages/nvidia");
  EXPECT_EQ(wheels["source"], "pip");
  EXPECT_EQ(wheels["cudart_version"], "12.4.127");
  EXPECT_EQ(wheels["cudnn_version"], "9.1.0.70");
  EXPECT_EQ(wheels["nccl_version"], "2.21.5");
}

TEST(HealthyH100, TorchAgainstTheDriverPassesAndFailsOnAnOlderDriver) {
  // The check runs on this machine and has nothing to say: 550.127.05 ≥ 525.60.13, the
  // minor-version-compatibility minimum of CUDA 12.
  Json report = check_fixture().report;
  EXPECT_EQ(test::find_finding(report, "python.torch_cuda_driver"), nullptr);

  // The same machine recorded with a 520 driver (CUDA ≤ 11.8): now it fails, naming both.
  report["snapshot"]["nvidia"]["kernel"]["module_version"] = "520.61.05";
  test::TempTree dir;
  const std::string recorded = dir.write("h100-520.json", report.dump());
  Checked older = check_h100({"--from", recorded});
  const Json* f = test::find_finding(older.report, "python.torch_cuda_driver");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  const std::string title = (*f)["title"];
  EXPECT_NE(title.find("torch 2.5.1+cu124"), std::string::npos) << title;
  EXPECT_NE(title.find("≥ 525.60.13"), std::string::npos) << title;
  EXPECT_NE(title.find("520.61.05"), std::string::npos) << title;
  EXPECT_EQ(older.exit_code, 1);
}

}  // namespace h100_healthy_test
}  // namespace gpudoctor
