// `gpudoctor check --sysroot` on the fixture machines of the CUDA-library, Fabric Manager and WSL
// failure classes, each rebuilt from the public report its README names; a healthy variant of
// each where the report gives one (its own workaround, or the versions made equal through
// `check --from`).
#include <gtest/gtest.h>

#include <fstream>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace nvlibs_scenarios_test {

struct Checked {
  int exit_code = -1;
  Json report;
};

Checked check(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  std::vector<std::string> argv = {"check", "--json", "--no-smoke"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test::run_gpudoctor(argv, env);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  Json j = Json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.is_object()) << r.out;
  return {r.exit_code, j};
}

Checked check_fixture(const std::string& name, const std::vector<std::string>& env = {},
                      std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--sysroot", test::fixture_path(name)};
  args.insert(args.end(), extra.begin(), extra.end());
  return check(args, env);
}

const Json* finding(const Checked& c, const std::string& id) {
  for (const auto& f : c.report["findings"]) {
    if (f["id"] == id) return &f;
  }
  return nullptr;
}

std::string text(const Json* f, const char* key) {
  return f && f->contains(key) && (*f)[key].is_string() ? (*f)[key].get<std::string>() : "";
}

/// The fails and warnings, by id: what a scenario must say, and nothing else.
std::vector<std::string> problems(const Checked& c) {
  std::vector<std::string> out;
  for (const auto& f : c.report["findings"]) {
    if (f["severity"] == "fail" || f["severity"] == "warn") out.push_back(f["id"]);
  }
  return out;
}

/// `check --from` on a recorded report after `edit` changed one fact of it.
template <typename Edit>
Checked replay(const Checked& recorded, Edit edit) {
  test::TempTree dir;
  Json snapshot = recorded.report["snapshot"];
  edit(snapshot);
  const std::string file = dir.write("report.json", snapshot.dump());
  return check({"--from", file}, {});
}

TEST(NvlibsScenario, DgxA100FabricManagerOfAnotherVersion) {
  // canonical/microk8s#2119
  auto c = check_fixture("nvidia-dgx-a100-fabricmanager-mismatch");
  const Json* f = finding(c, "nvidia.fabricmanager");
  ASSERT_NE(f, nullptr) << c.report["findings"].dump();
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(text(f, "title").find("460.91.03"), std::string::npos);
  EXPECT_NE(text(f, "title").find("460.73.01"), std::string::npos);
  EXPECT_NE(text(f, "fix").find("nvidia-fabricmanager-460=460.73.01*"), std::string::npos)
      << text(f, "fix");
  EXPECT_EQ(problems(c), std::vector<std::string>{"nvidia.fabricmanager"});
  EXPECT_EQ(c.exit_code, 1);
  // The same machine once apt installed the driver's own Fabric Manager: nothing to say.
  auto fixed = replay(c, [](Json& s) {
    s["nvidia"]["fabricmanager"]["version"] = "460.73.01";
    s["nvidia"]["fabricmanager"]["enabled"] = true;  // systemctl enable --now
  });
  EXPECT_EQ(finding(fixed, "nvidia.fabricmanager"), nullptr);
  EXPECT_EQ(fixed.exit_code, 0);
  // …and with none at all: CUDA error 802.
  auto none = replay(c, [](Json& s) { s["nvidia"]["fabricmanager"] = nullptr; });
  f = finding(none, "nvidia.fabricmanager");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(text(f, "title").find("802"), std::string::npos);
}

TEST(NvlibsScenario, CondaCudaNotOnTheLoaderPathForTensorflow27) {
  // tensorflow/tensorflow#52988
  const std::vector<std::string> env = {"CONDA_PREFIX=/home/user/miniconda3/envs/tmp",
                                        "HOME=/home/user",
                                        "PATH=/home/user/miniconda3/envs/tmp/bin:/usr/bin:/bin"};
  auto c = check_fixture("python-conda-tf27-cuda-not-on-loader-path", env);
  const Json* f = finding(c, "python.tensorflow_cuda_libraries");
  ASSERT_NE(f, nullptr) << c.report["findings"].dump();
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(text(f, "title").find("libcudart.so.11.0"), std::string::npos) << text(f, "title");
  EXPECT_NE(text(f, "fix").find("export LD_LIBRARY_PATH=/home/user/miniconda3/envs/tmp/lib"),
            std::string::npos)
      << text(f, "fix");
  EXPECT_EQ(problems(c), std::vector<std::string>{"python.tensorflow_cuda_libraries"});
  // The libraries as the probe recorded them: in the environment, not where the loader looks.
  bool seen = false;
  for (const auto& l : c.report["snapshot"]["nvidia"]["cuda_libraries"]) {
    if (l["name"] == "libcudnn.so.8") {
      seen = true;
      EXPECT_EQ(l["found_in"], "conda");
      EXPECT_EQ(l["on_loader_path"], false);
      EXPECT_EQ(l["version"], "8");
    }
  }
  EXPECT_TRUE(seen);
  // The report's own workaround (with its typo: the first entry is the word LD_LIBRARY_PATH).
  auto env2 = env;
  env2.push_back("LD_LIBRARY_PATH=LD_LIBRARY_PATH:/home/user/miniconda3/envs/tmp/lib");
  auto ok = check_fixture("python-conda-tf27-cuda-not-on-loader-path", env2);
  EXPECT_TRUE(problems(ok).empty()) << ok.report["findings"].dump();
}

TEST(NvlibsScenario, Tensorflow215LoadsTheCudnn88OfLdLibraryPath) {
  // tensorflow/docs#2291 (tensorflow/tensorflow#62626)
  auto c = check_fixture("python-tf215-cudnn88-on-ld-library-path",
                         {"HOME=/home/user", "PATH=/usr/local/bin:/usr/bin:/bin",
                          "LD_LIBRARY_PATH=/usr/local/cuda-12.2/lib64"});
  const Json* f = finding(c, "python.tensorflow_cudnn_loaded");
  ASSERT_NE(f, nullptr) << c.report["findings"].dump();
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(text(f, "title").find("8.8.0"), std::string::npos);
  EXPECT_NE(text(f, "title").find("8.9.4.25"), std::string::npos);
  EXPECT_NE(f->dump().find("/usr/local/cuda-12.2/lib64/libcudnn.so.8.8.0"), std::string::npos);
  EXPECT_NE(text(f, "fix").find("tensorflow[and-cuda]==2.15.0"), std::string::npos);
  EXPECT_EQ(problems(c), std::vector<std::string>{"python.tensorflow_cudnn_loaded"});
}

TEST(NvlibsScenario, TorchCu117AgainstNvcc122) {
  // vllm-project/vllm#763
  auto c = check_fixture(
      "python-torch201-cu117-nvcc-122",
      {"HOME=/home/user", "PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin"},
      {"--python-env", "/home/user/venv/lib/python3.8/site-packages"});
  const Json* f = finding(c, "python.torch_extension_cuda");
  ASSERT_NE(f, nullptr) << c.report["findings"].dump();
  EXPECT_EQ((*f)["severity"], "warn");
  EXPECT_NE(text(f, "title").find("(12.2) mismatches the version that was used to compile "
                                  "PyTorch (11.7)"),
            std::string::npos)
      << text(f, "title");
  EXPECT_NE(text(f, "fix").find("CUDA 11"), std::string::npos) << text(f, "fix");
  EXPECT_EQ(problems(c), std::vector<std::string>{"python.torch_extension_cuda"});
}

TEST(NvlibsScenario, TorchPinsACudnnTooOldForJax) {
  // rdyro/torch2jax#29, AI-Hypercomputer/maxtext#1509
  auto c = check_fixture("python-torch26-jax06-cudnn-conflict",
                         {"HOME=/home/user", "PATH=/usr/bin:/bin"},
                         {"--python-env", "/home/user/venv/lib/python3.11/site-packages"});
  const Json* f = finding(c, "python.nvidia_wheel_conflict");
  ASSERT_NE(f, nullptr) << c.report["findings"].dump();
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(text(f, "title").find("jax-cuda12-plugin 0.6.0"), std::string::npos) << text(f, "title");
  EXPECT_NE(text(f, "title").find("9.1.0.70"), std::string::npos);
  EXPECT_NE(text(f, "fix").find("torch==2.8.0"), std::string::npos) << text(f, "fix");
  EXPECT_EQ(problems(c), std::vector<std::string>{"python.nvidia_wheel_conflict"});
}

TEST(NvlibsScenario, Wsl2OnAWindowsBuildWithoutGpuSupport) {
  // microsoft/WSL#7056
  auto c = check_fixture("wsl2-windows-build-without-gpu");
  const Json* f = finding(c, "nvidia.wsl_gpu");
  ASSERT_NE(f, nullptr) << c.report["findings"].dump();
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(text(f, "fix").find("19044"), std::string::npos);
  EXPECT_EQ(problems(c), std::vector<std::string>{"nvidia.wsl_gpu"});
}

TEST(NvlibsScenario, Wsl2WithTheLinuxDriverInstalledInside) {
  // microsoft/WSL#6925
  auto c = check_fixture("wsl2-linux-driver-inside");
  const Json* f = finding(c, "nvidia.wsl_linux_driver");
  ASSERT_NE(f, nullptr) << c.report["findings"].dump();
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE(f->dump().find("/usr/lib/x86_64-linux-gnu/libcuda.so.1"), std::string::npos);
  EXPECT_NE(text(f, "fix").find("cuda-drivers"), std::string::npos);
  EXPECT_EQ(problems(c), std::vector<std::string>{"nvidia.wsl_linux_driver"});
  // Without it, the same WSL is healthy.
  auto fixed = replay(c, [](Json& s) {
    Json kept = Json::array();
    for (auto& l : s["nvidia"]["libcuda"]) {
      if (l["path"].get<std::string>().rfind("/usr/lib/wsl/lib/", 0) == 0) kept.push_back(l);
    }
    s["nvidia"]["libcuda"] = kept;
  });
  EXPECT_TRUE(problems(fixed).empty()) << fixed.report["findings"].dump();
}

}  // namespace nvlibs_scenarios_test
}  // namespace gpudoctor
