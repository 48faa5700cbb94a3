// The python probe on fixture trees (tests/fixtures/python-*, see their READMEs), replayed
// through a Root the way --sysroot does, with the environment a user's shell would have.
#include "python/python_probe.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/root.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

PythonInfo probe(const std::string& root_dir, std::map<std::string, std::string> vars,
                 const std::vector<std::string>& extra = {}) {
  const Root root(root_dir);
  const Environment env(std::move(vars));
  const ProbeContext ctx{root, env, false};
  return probe_python(ctx, extra);
}

const PythonPackage* find_pkg(const PythonEnv& env, const std::string& name) {
  for (const auto& p : env.packages) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> names(const PythonEnv& env) {
  std::vector<std::string> out;
  for (const auto& p : env.packages) out.push_back(p.name + "==" + p.version.value_or("?"));
  return out;
}

using Strings = std::vector<std::string>;

TEST(PythonProbe, VenvWithCudaTorch) {
  auto info = probe(test::fixture_path("python-venv-torch-cu124"),
                    {{"VIRTUAL_ENV", "/home/dev/venvs/llm"},
                     {"PATH", "/home/dev/venvs/llm/bin:/usr/local/bin:/usr/bin:/bin"},
                     {"HOME", "/home/dev"}});
  EXPECT_TRUE(info.errors.empty()) << info.errors.front();
  ASSERT_EQ(info.envs.size(), 2U);
  const PythonEnv& venv = info.envs[0];
  EXPECT_EQ(venv.kind, "venv");
  EXPECT_EQ(venv.prefix, "/home/dev/venvs/llm");
  // ~/venvs/llm is also where a person keeps venvs: the home scan finds it a third way.
  EXPECT_EQ(venv.found_by, (Strings{"VIRTUAL_ENV", "PATH", "home directory"}));
  EXPECT_EQ(venv.python_executable, "/home/dev/venvs/llm/bin/python3");
  EXPECT_EQ(venv.executable_archs, (Strings{"x86_64"}));
  EXPECT_EQ(venv.python_version, "3.11.2");
  EXPECT_EQ(venv.python_version_from, "pyvenv.cfg");
  EXPECT_EQ(venv.base_home, "/usr/bin");
  EXPECT_EQ(venv.include_system_site_packages, false);
  EXPECT_EQ(venv.site_packages, (Strings{"/home/dev/venvs/llm/lib/python3.11/site-packages"}));
  EXPECT_EQ(names(venv),
            (Strings{"nvidia-cublas-cu12==12.4.5.8", "nvidia-cuda-runtime-cu12==12.4.127",
                     "nvidia-cudnn-cu12==9.1.0.70", "nvidia-nccl-cu12==2.21.5", "torch==2.5.1"}));
  const PythonPackage* torch = find_pkg(venv, "torch");
  ASSERT_TRUE(torch && torch->torch);
  EXPECT_EQ(torch->metadata_dir, "torch-2.5.1.dist-info");
  EXPECT_EQ(torch->installer, "pip");
  EXPECT_EQ(torch->wheel_tags, (Strings{"cp311-cp311-linux_x86_64"}));
  EXPECT_FALSE(torch->cuda_series);
  EXPECT_EQ(torch->torch->version, "2.5.1+cu124");
  EXPECT_EQ(torch->torch->local_version, "cu124");
  EXPECT_EQ(torch->torch->cuda, "12.4");
  EXPECT_FALSE(torch->torch->hip);
  EXPECT_EQ(torch->torch->debug, false);
  EXPECT_NE(std::find(torch->requires_dist.begin(), torch->requires_dist.end(),
                      "nvidia-cudnn-cu12 (==9.1.0.70) ; platform_system == \"Linux\" and "
                      "platform_machine == \"x86_64\""),
            torch->requires_dist.end());
  for (const auto& r : torch->requires_dist) EXPECT_EQ(r.rfind("nvidia-", 0), 0U) << r;
  const PythonPackage* cudnn = find_pkg(venv, "nvidia-cudnn-cu12");
  ASSERT_TRUE(cudnn);
  EXPECT_EQ(cudnn->cuda_series, "12");
  EXPECT_EQ(cudnn->requires_dist, (Strings{"nvidia-cublas-cu12"}));

  const PythonEnv& sys = info.envs[1];  // /usr/bin/python3, no site-packages in the fixture
  EXPECT_EQ(sys.kind, "system");
  EXPECT_EQ(sys.prefix, "/usr");
  EXPECT_EQ(sys.found_by, (Strings{"standard location"}));
  EXPECT_EQ(sys.python_executable, "/usr/bin/python3");
  EXPECT_EQ(sys.python_version, "3.11");
  EXPECT_EQ(sys.python_version_from, "executable name");
  EXPECT_TRUE(sys.packages.empty());

  // The snapshot says null, never a placeholder, for what it does not know.
  Json j = info;
  EXPECT_TRUE(j["envs"][0]["packages"][4]["torch"]["hip"].is_null());
  EXPECT_EQ(j["envs"][0]["packages"][4]["torch"]["cuda"], "12.4");
  EXPECT_EQ(j.get<PythonInfo>().envs[0].packages[4].torch->local_version, "cu124");
}

TEST(PythonProbe, SameVenvFoundThreeWaysIsOneEnvironment) {
  auto info = probe(test::fixture_path("python-venv-torch-cu124"),
                    {{"VIRTUAL_ENV", "/home/dev/venvs/llm/"}},
                    {"/home/dev/venvs/llm", "/home/dev/venvs/llm/lib64/python3.11/site-packages"});
  ASSERT_EQ(info.envs.size(), 2U);
  EXPECT_EQ(info.envs[0].prefix, "/home/dev/venvs/llm");
  EXPECT_EQ(info.envs[0].found_by, (Strings{"VIRTUAL_ENV", "--python-env", "home directory"}));
  EXPECT_EQ(info.envs[0].packages.size(), 5U);
}

TEST(PythonProbe, MiniforgeEnvWithTensorflowMetal) {
  auto info = probe(test::fixture_path("python-conda-tf-metal"),
                    {{"CONDA_PREFIX", "/Users/dev/miniforge3/envs/tf"},
                     {"HOME", "/Users/dev"},
                     {"PATH",
                      "/Users/dev/miniforge3/envs/tf/bin:/Users/dev/miniforge3/condabin:"
                      "/usr/bin:/bin"}});
  EXPECT_TRUE(info.errors.empty()) << info.errors.front();
  EXPECT_EQ(info.conda_envs_file, "/Users/dev/.conda/environments.txt");
  ASSERT_EQ(info.envs.size(), 1U);  // the base env's files were not captured: skipped
  const PythonEnv& env = info.envs[0];
  EXPECT_EQ(env.kind, "conda");
  EXPECT_EQ(env.found_by, (Strings{"CONDA_PREFIX", "environments.txt"}));
  EXPECT_EQ(env.python_version, "3.11.9");
  EXPECT_EQ(env.python_version_from, "conda-meta");
  EXPECT_FALSE(env.python_executable);
  EXPECT_FALSE(env.executable_archs);
  EXPECT_EQ(names(env),
            (Strings{"keras==2.15.0", "tensorflow-macos==2.15.0", "tensorflow-metal==1.1.0"}));
  const PythonPackage* tf = find_pkg(env, "tensorflow-macos");
  ASSERT_TRUE(tf && tf->tensorflow);
  EXPECT_EQ(tf->tensorflow->file,
            "/Users/dev/miniforge3/envs/tf/lib/python3.11/site-packages/tensorflow/python/"
            "platform/build_info.py");
  EXPECT_EQ(tf->tensorflow->is_cuda_build, false);
  EXPECT_FALSE(tf->tensorflow->cuda_version);
  EXPECT_EQ(tf->wheel_tags, (Strings{"cp311-cp311-macosx_12_0_arm64"}));
  const PythonPackage* metal = find_pkg(env, "tensorflow-metal");
  ASSERT_TRUE(metal);
  EXPECT_FALSE(metal->tensorflow);  // it installs only tensorflow-plugins
  EXPECT_EQ(metal->wheel_tags, (Strings{"cp311-cp311-macosx_11_0_arm64"}));
  const PythonPackage* keras = find_pkg(env, "keras");
  ASSERT_TRUE(keras && keras->keras);
  EXPECT_EQ(keras->keras->backend, "tensorflow");
  EXPECT_EQ(keras->keras->backend_from, "default");
  EXPECT_FALSE(keras->keras->config_file);
}

TEST(PythonProbe, SystemTensorflowAndUserSiteJax) {
  const std::map<std::string, std::string> vars = {
      {"HOME", "/home/ana"}, {"PATH", "/home/ana/.local/bin:/usr/local/bin:/usr/bin:/bin"}};
  auto info = probe(test::fixture_path("python-user-jax-cuda12"), vars);
  EXPECT_TRUE(info.errors.empty()) << info.errors.front();
  ASSERT_EQ(info.envs.size(), 2U);
  const PythonEnv& sys = info.envs[0];
  EXPECT_EQ(sys.kind, "system");
  EXPECT_EQ(sys.prefix, "/usr");
  EXPECT_EQ(sys.found_by, (Strings{"PATH", "standard location"}));
  EXPECT_EQ(sys.python_executable, "/usr/bin/python3");
  EXPECT_EQ(sys.python_version, "3.11");
  EXPECT_EQ(sys.site_packages, (Strings{"/usr/local/lib/python3.11/dist-packages"}));
  EXPECT_EQ(names(sys), (Strings{"tensorflow==2.15.0"}));
  const auto& build = sys.packages[0].tensorflow;
  ASSERT_TRUE(build);
  EXPECT_EQ(build->cuda_version, "12.2");
  EXPECT_EQ(build->cudnn_version, "8");
  EXPECT_EQ(build->is_cuda_build, true);

  const PythonEnv& user = info.envs[1];
  EXPECT_EQ(user.kind, "user");
  EXPECT_EQ(user.prefix, "/home/ana/.local");
  EXPECT_EQ(user.found_by, (Strings{"user site"}));
  EXPECT_EQ(user.python_version, "3.11");
  EXPECT_EQ(user.python_version_from, "lib directory");
  EXPECT_EQ(names(user), (Strings{"cupy-cuda12x==13.3.0", "jax==0.4.35", "jax-cuda12-pjrt==0.4.35",
                                  "jax-cuda12-plugin==0.4.35", "jaxlib==0.4.35", "keras==3.6.0"}));
  EXPECT_EQ(find_pkg(user, "cupy-cuda12x")->cuda_series, "12");
  EXPECT_EQ(find_pkg(user, "jax-cuda12-plugin")->cuda_series, "12");
  EXPECT_EQ(find_pkg(user, "jax-cuda12-plugin")->requires_dist.front(), "jax-cuda12-pjrt ==0.4.35");
  const auto& keras = find_pkg(user, "keras")->keras;
  ASSERT_TRUE(keras);
  EXPECT_EQ(keras->backend, "jax");
  EXPECT_EQ(keras->backend_from, "keras.json");
  EXPECT_EQ(keras->config_file, "/home/ana/.keras/keras.json");

  auto vars_torch = vars;
  vars_torch["KERAS_BACKEND"] = "torch";
  auto again = probe(test::fixture_path("python-user-jax-cuda12"), vars_torch);
  const auto& k2 = find_pkg(again.envs[1], "keras")->keras;
  EXPECT_EQ(k2->backend, "torch");
  EXPECT_EQ(k2->backend_from, "KERAS_BACKEND");
  EXPECT_EQ(k2->config_backend, "jax");
}

TEST(PythonProbe, WindowsVenvSeenFromWslWithCpuTorch) {
  const std::string venv = "/mnt/c/Users/chbha/Documents/Codes/OpenSource/keras";
  auto info = probe(test::fixture_path("python-wsl-windows-venv-cpu-torch"), {}, {venv});
  EXPECT_TRUE(info.errors.empty()) << info.errors.front();
  ASSERT_EQ(info.envs.size(), 1U);
  const PythonEnv& env = info.envs[0];
  EXPECT_EQ(env.kind, "venv");
  EXPECT_EQ(env.found_by, (Strings{"--python-env"}));
  EXPECT_EQ(env.python_version, "3.12.7");
  EXPECT_EQ(env.base_home, "C:\\Users\\chbha\\AppData\\Local\\Programs\\Python\\Python312");
  EXPECT_EQ(env.site_packages, (Strings{venv + "/Lib/site-packages"}));
  ASSERT_EQ(names(env), (Strings{"torch==2.6.0+cpu"}));
  const PythonPackage& torch = env.packages[0];
  EXPECT_FALSE(torch.installer);
  EXPECT_EQ(torch.wheel_tags, (Strings{"cp312-cp312-win_amd64"}));
  ASSERT_TRUE(torch.torch);
  EXPECT_EQ(torch.torch->local_version, "cpu");
  EXPECT_FALSE(torch.torch->cuda);
  EXPECT_FALSE(torch.torch->hip);

  // The site-packages directory given alone is an environment of its own kind.
  auto site = probe(test::fixture_path("python-wsl-windows-venv-cpu-torch"), {},
                    {venv + "/Lib/site-packages"});
  ASSERT_EQ(site.envs.size(), 1U);
  EXPECT_EQ(site.envs[0].kind, "path");
  EXPECT_EQ(site.envs[0].packages.size(), 1U);
}

TEST(PythonProbe, MissingDirectoriesAreErrorsOnlyWhenNamed) {
  auto info = probe(test::fixture_path("python-venv-torch-cu124"),
                    {{"VIRTUAL_ENV", "/home/dev/venvs/gone"}, {"HOME", "/home/nobody"}},
                    {"/srv/envs/missing"});
  EXPECT_EQ(info.errors, (Strings{"VIRTUAL_ENV /home/dev/venvs/gone: not a directory",
                                  "--python-env /srv/envs/missing: not a directory"}));
}

// No variable names an environment (a copied tree, a service, a shell that never activated
// one): under --sysroot every home is read, and the venvs a person keeps there are found.
TEST(PythonProbe, VenvsInHomesAreFoundWithNoVariableSet) {
  auto info = probe(test::fixture_path("python-venv-torch-cu124"), {});
  const auto venv = std::find_if(info.envs.begin(), info.envs.end(), [](const PythonEnv& e) {
    return e.prefix == "/home/dev/venvs/llm";
  });
  ASSERT_NE(venv, info.envs.end());
  EXPECT_EQ(venv->found_by, (Strings{"home directory"}));
  EXPECT_TRUE(find_pkg(*venv, "torch"));
  // A project's .venv one level down, even without its pyvenv.cfg (the RTX 5090 tree's).
  auto project = probe(test::fixture_path("rtx5090-torch-cu121-no-sm120"), {});
  ASSERT_FALSE(project.envs.empty());
  EXPECT_EQ(project.envs[0].prefix, "/home/user/berkeley-humanoid-lite/.venv");
  EXPECT_EQ(project.envs[0].found_by, (Strings{"home directory"}));
}

/// A scratch copy of the venv fixture in which files can be broken.
class BrokenVenv : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/gpudoctor-python-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    fs::copy(test::fixture_path("python-venv-torch-cu124"), dir_,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string site(const std::string& rel) const {
    return dir_ + "/home/dev/venvs/llm/lib/python3.11/site-packages/" + rel;
  }
  std::string dir_;
};

TEST_F(BrokenVenv, MissingOrGarbledMetadataIsAnErrorAndTheRestContinues) {
  std::ofstream(site("torch-2.5.1.dist-info/METADATA"), std::ios::trunc)
      << "this is not metadata\n\x01\x02\n";
  fs::remove(site("nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA"));
  fs::remove(site("nvidia_nccl_cu12-2.21.5.dist-info/WHEEL"));
  auto info = probe(dir_, {{"VIRTUAL_ENV", "/home/dev/venvs/llm"}});
  const std::string prefix = "/home/dev/venvs/llm/lib/python3.11/site-packages/";
  EXPECT_EQ(info.errors,
            (Strings{prefix + "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA: cannot be read",
                     prefix + "torch-2.5.1.dist-info/METADATA: no Name or Version header; the "
                              "directory name is used"}));
  // The venv comes first; the tree's own /usr (the venv's base interpreter) may follow.
  ASSERT_GE(info.envs.size(), 1U);
  EXPECT_EQ(info.envs[0].prefix, "/home/dev/venvs/llm");
  EXPECT_EQ(names(info.envs[0]),
            (Strings{"nvidia-cublas-cu12==12.4.5.8", "nvidia-cuda-runtime-cu12==12.4.127",
                     "nvidia-cudnn-cu12==9.1.0.70", "nvidia-nccl-cu12==2.21.5", "torch==2.5.1"}));
  const PythonPackage* torch = find_pkg(info.envs[0], "torch");
  ASSERT_TRUE(torch->torch);
  EXPECT_EQ(torch->torch->version, "2.5.1+cu124");  // version.py is still read
  EXPECT_TRUE(torch->requires_dist.empty());
  EXPECT_TRUE(find_pkg(info.envs[0], "nvidia-nccl-cu12")->wheel_tags.empty());
}

TEST_F(BrokenVenv, TorchWithoutItsVersionFile) {
  fs::remove(site("torch/version.py"));
  auto info = probe(dir_, {{"VIRTUAL_ENV", "/home/dev/venvs/llm"}});
  ASSERT_EQ(info.errors.size(), 1U);
  EXPECT_NE(info.errors[0].find("torch/version.py: cannot be read"), std::string::npos);
  EXPECT_FALSE(find_pkg(info.envs[0], "torch")->torch);
}

TEST_F(BrokenVenv, PyenvShimIsFollowedToTheSelectedVersion) {
  // pyenv's layout: ~/.pyenv/shims/python3 is a script; ~/.pyenv/version names the version.
  const std::string pyenv = dir_ + "/root/.pyenv";
  fs::create_directories(pyenv + "/shims");
  fs::create_directories(pyenv + "/versions/3.11.7/bin");
  fs::create_directories(pyenv + "/versions/3.11.7/lib/python3.11/site-packages");
  std::ofstream(pyenv + "/shims/python3") << "#!/usr/bin/env bash\nset -e\n";
  std::ofstream(pyenv + "/version") << "3.11.7\n";
  fs::copy_file(dir_ + "/usr/bin/python3.11", pyenv + "/versions/3.11.7/bin/python3.11");
  fs::create_symlink("python3.11", pyenv + "/versions/3.11.7/bin/python3");
  auto info = probe(dir_, {{"PATH", "/root/.pyenv/shims:/usr/bin"}, {"HOME", "/root"}});
  ASSERT_GE(info.envs.size(), 1U);
  EXPECT_EQ(info.envs[0].prefix, "/root/.pyenv/versions/3.11.7");
  EXPECT_EQ(info.envs[0].kind, "path");
  EXPECT_EQ(info.envs[0].found_by, (Strings{"PATH", "home directory"}));  // ~/.pyenv/versions
  EXPECT_EQ(info.envs[0].python_executable, "/root/.pyenv/versions/3.11.7/bin/python3");
  EXPECT_EQ(info.envs[0].python_version, "3.11");

  std::ofstream(pyenv + "/version", std::ios::trunc) << "system\n";
  auto system = probe(dir_, {{"PATH", "/root/.pyenv/shims:/usr/bin"}, {"HOME", "/root"}});
  ASSERT_GE(system.envs.size(), 1U);
  EXPECT_EQ(system.envs[0].prefix, "/usr");
  EXPECT_EQ(system.envs[0].found_by, (Strings{"PATH", "standard location"}));
}

}  // namespace
}  // namespace gpudoctor
