// The TensorFlow and JAX checks over real Python environments (the fixture trees, read by the
// Python probe exactly as on a user's machine) on NVIDIA machines as the named reports give them.
#include <gtest/gtest.h>

#include <algorithm>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "core/root.hpp"
#include "pci_gpu.hpp"
#include "python/python_probe.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace framework_checks_test {

std::vector<Finding> run(const Snapshot& s) {
  auto devices = merge_devices(s);
  return run_checks(CheckInput{s, devices, builtin_compat()});
}

bool contains(const std::optional<std::string>& text, const std::string& part) {
  return text && text->find(part) != std::string::npos;
}

/// The Python environments of a fixture tree, as the probe reads them.
PythonInfo envs_of(const std::string& fixture, std::map<std::string, std::string> vars) {
  const Root root(test::fixture_path(fixture));
  const Environment env(std::move(vars));
  return probe_python(ProbeContext{root, env, false}, {});
}

/// `pixi run` sets CONDA_PREFIX to the project's environment.
constexpr const char* kPixiEnv = "/home/user/recovar/.pixi/envs/default";

PythonInfo ana_envs() {
  // tests/fixtures/python-user-jax-cuda12: TensorFlow 2.15.0 (CUDA 12.2) system-wide, the JAX
  // 0.4.35 CUDA 12 plugin pair in the user site, no nvidia-cudnn wheel anywhere.
  return envs_of("python-user-jax-cuda12",
                 {{"HOME", "/home/ana"}, {"PATH", "/home/ana/.local/bin:/usr/local/bin:/usr/bin:/bin"}});
}

/// An NVIDIA machine: one GPU bound to the nvidia driver, the kernel module at `driver`.
Snapshot nvidia_machine(std::uint16_t device, std::string name, std::string driver) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(test::pci_gpu(0x10de, device, "nvidia", std::move(name)));
  s.nvidia = NvidiaSystem{};
  s.nvidia->kernel.module_version = std::move(driver);
  s.nvidia->kernel.loaded_modules = {"nvidia", "nvidia_uvm"};
  return s;
}

TEST(FrameworkChecks, Tensorflow215OnA470DriverNamesTheDriverAndTheReleaseThatFits) {
  // The anchors' classic: a CUDA 12 framework on a driver whose newest CUDA is 11.4 (RTX 3090,
  // 10de:2204, as in the torch case of checks_test).
  Snapshot s = nvidia_machine(0x2204, "GA102 [GeForce RTX 3090]", "470.256.02");
  s.python = ana_envs();
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "python.tensorflow_cuda_driver");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("tensorflow 2.15.0"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("CUDA 12.2"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("≥ 525.60.13"), std::string::npos) << f->title;
  // TensorFlow 2.14 is the newest tested with CUDA 11 (11.8): driver 470 runs it.
  EXPECT_TRUE(contains(f->fix, "pip install tensorflow==2.14.0")) << f->fix.value_or("");
  // The first document the minor-version-compatibility row for CUDA 12 cites.
  EXPECT_EQ(f->source,
            "https://docs.nvidia.com/deeplearning/cudnn/backend/v9.5.1/reference/support-matrix.html");

  // The JAX CUDA 12 plugin states its own driver minimum.
  const Finding* jax = test::find_finding(fs, "python.jax_cuda");
  ASSERT_NE(jax, nullptr);
  EXPECT_EQ(jax->severity, Severity::fail);
  EXPECT_NE(jax->title.find("jax-cuda12-plugin"), std::string::npos) << jax->title;
  EXPECT_NE(jax->title.find("≥ 525"), std::string::npos) << jax->title;
}

TEST(FrameworkChecks, PlainPipTensorflowHasNoCudnnToLoad) {
  // tensorflow/tensorflow#63362 ("pip install tensorflow" → list_physical_devices('GPU') is
  // []): the wheel pins its CUDA libraries only under the and-cuda extra. A driver new enough.
  Snapshot s = nvidia_machine(0x2204, "GA102 [GeForce RTX 3090]", "550.90.07");
  s.python = ana_envs();
  auto fs = run(s);
  EXPECT_EQ(test::find_finding(fs, "python.tensorflow_cuda_driver"), nullptr);
  const Finding* f = test::find_finding(fs, "python.tensorflow_cudnn");
  ASSERT_NE(f, nullptr);
  // No cuDNN at all to load: TensorFlow certainly cannot use the GPU (docs/severity.md).
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("Cannot dlopen some GPU libraries"), std::string::npos) << f->title;
  EXPECT_EQ(*f->fix,
            "pip install 'tensorflow[and-cuda]==2.15.0' (it installs the CUDA and cuDNN wheels "
            "this release was built against)");
  ASSERT_FALSE(f->evidence.empty());
  EXPECT_NE(f->evidence[0].find("nvidia-cudnn-cu12==8.9.4.25"), std::string::npos)
      << f->evidence[0];

  // A CUDA toolkit with cuDNN on the machine may serve it: no claim then.
  CudaToolkit tk;
  tk.path = "/usr/local/cuda-12.2";
  tk.cudnn_version = "8.9.7";
  s.nvidia->toolkits.push_back(tk);
  EXPECT_EQ(test::find_finding(run(s), "python.tensorflow_cudnn"), nullptr);

  // And with no NVIDIA GPU there is nothing to load cuDNN for.
  Snapshot cpu_box;
  cpu_box.python = ana_envs();
  EXPECT_EQ(test::find_finding(run(cpu_box), "python.tensorflow_cudnn"), nullptr);
}

TEST(FrameworkChecks, CpuOnlyTensorflowOnAGpuMachineIsAFailure) {
  // The same TensorFlow 2.15 as the CPU build (build_info.py is_cuda_build = False): it never
  // uses the RTX 3090, for certain, so the severity rule makes it a failure, as for torch.
  Snapshot s = nvidia_machine(0x2204, "GA102 [GeForce RTX 3090]", "550.90.07");
  s.python = ana_envs();
  bool changed = false;
  for (auto& env : s.python->envs) {
    for (auto& p : env.packages) {
      if (p.tensorflow) {
        p.tensorflow->is_cuda_build = false;
        changed = true;
      }
    }
  }
  ASSERT_TRUE(changed);
  const auto fs = run(s);
  const Finding* f = test::find_finding(fs, "python.tensorflow_cpu_only");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->fix->find("tensorflow[and-cuda]==2.15.0"), std::string::npos) << *f->fix;
}

TEST(FrameworkChecks, JaxPluginOfAnotherReleaseThanJaxlibIsDropped) {
  // ma-gilles/recovar#64: jax/jaxlib 0.9.0.1 with jax-cuda12-plugin/-pjrt 0.9.2 pulled in by a
  // loose pin; jaxlib warns "… is not compatible with the installed jaxlib version 0.9.0.1".
  PythonInfo py = envs_of("python-venv-jax-plugin-mismatch",
                          {{"HOME", "/home/user"}, {"CONDA_PREFIX", kPixiEnv}});
  ASSERT_FALSE(py.envs.empty());
  Snapshot s = nvidia_machine(0x2204, "GA102 [GeForce RTX 3090]", "550.90.07");
  s.python = py;
  auto fs = run(s);
  auto found = test::with_id(fs, "python.jax_cuda");
  ASSERT_EQ(found.size(), 1U);
  const Finding* f = &found.front();
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("jax-cuda12-plugin 0.9.2"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("jaxlib 0.9.0.1"), std::string::npos) << f->title;
  EXPECT_EQ(*f->fix, "pip install 'jax-cuda12-plugin==0.9.0.1' 'jax-cuda12-pjrt==0.9.0.1' (the "
                     "plugin of jaxlib's own release)");  // the report's own workaround
  EXPECT_TRUE(contains(f->source, "jaxlib/plugin_support.py"));
  EXPECT_EQ(test::find_finding(fs, "python.jax_cpu_only"), nullptr);  // a plugin is there, just the wrong one
}

TEST(FrameworkChecks, JaxWithoutAPluginOnAGpuMachineRunsOnTheCpu) {
  PythonInfo py = envs_of("python-venv-jax-plugin-mismatch",
                          {{"HOME", "/home/user"}, {"CONDA_PREFIX", kPixiEnv}});
  ASSERT_FALSE(py.envs.empty());
  auto& pkgs = py.envs.front().packages;
  pkgs.erase(std::remove_if(pkgs.begin(), pkgs.end(),
                            [](const PythonPackage& p) { return p.name.rfind("jax-cuda", 0) == 0; }),
             pkgs.end());
  Snapshot s = nvidia_machine(0x2330, "GH100 [H100 SXM5 80GB]", "580.65.06");
  s.python = py;
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "python.jax_cpu_only");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);  // a CPU-only JAX on a GPU machine: certain
  // Driver 580 meets the CUDA 13 plugin's minimum (the installation page's row).
  EXPECT_EQ(*f->fix, "pip install -U 'jax[cuda13]'");
  s.nvidia->kernel.module_version = "550.90.07";
  auto on_550 = run(s);
  f = test::find_finding(on_550, "python.jax_cpu_only");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(*f->fix, "pip install -U 'jax[cuda12]'");
}

TEST(FrameworkChecks, HealthyJaxAndTensorflowOnAnH100SayNothingFalse) {
  // The same environments on an H100 with driver 580: the JAX pair matches and the driver is
  // new enough for both; the true remarks are TensorFlow's missing cuDNN wheels, and that its
  // build_info.py lists no sm_90 cubin, only compute_80 PTX: TensorFlow 2.15 on H100s says
  // itself that it "was not built with CUDA kernel binaries compatible with compute capability
  // 9.0" and JIT-compiles (https://github.com/tensorflow/tensorflow/issues/62320).
  Snapshot s = nvidia_machine(0x2330, "GH100 [H100 SXM5 80GB]", "580.65.06");
  s.python = ana_envs();
  for (const auto& f : run(s)) {
    if (f.severity == Severity::ok || f.severity == Severity::info) continue;
    if (f.id == "python.tensorflow_arch") {
      EXPECT_EQ(f.severity, Severity::warn) << f.title;
      EXPECT_TRUE(contains(f.title, "compute_80 PTX")) << f.title;
      continue;
    }
    EXPECT_EQ(f.id, "python.tensorflow_cudnn") << f.title;
  }
}

}  // namespace framework_checks_test
}  // namespace gpudoctor
