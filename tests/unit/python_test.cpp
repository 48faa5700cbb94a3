// The python backend's parsers, on real files: the fixture trees' wheel metadata and build
// files (see their READMEs), and older generations quoted below with their sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "parse/python_env_files.hpp"
#include "parse/python_frameworks.hpp"
#include "parse/python_literals.hpp"
#include "parse/python_metadata.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::string fixture_file(const std::string& machine, const std::string& path) {
  std::ifstream in(test::fixture_path(machine) + "/" + path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kVenvSite = "home/dev/venvs/llm/lib/python3.11/site-packages/";
const std::string kCondaSite = "Users/dev/miniforge3/envs/tf/lib/python3.11/site-packages/";
const std::string kWinVenv = "mnt/c/Users/chbha/Documents/Codes/OpenSource/keras/";

// --- METADATA / PKG-INFO / WHEEL -------------------------------------------------------------

TEST(PythonParse, TorchWheelMetadata) {
  auto md = parse_core_metadata(
      fixture_file("python-venv-torch-cu124", kVenvSite + "torch-2.5.1.dist-info/METADATA"));
  EXPECT_EQ(md.get("Name"), "torch");
  EXPECT_EQ(md.get("version"), "2.5.1");  // the PyPI wheel's METADATA has no +cu124
  auto reqs = md.all("Requires-Dist");
  ASSERT_FALSE(reqs.empty());
  EXPECT_NE(std::find(reqs.begin(), reqs.end(),
                      "nvidia-cudnn-cu12 (==9.1.0.70) ; platform_system == \"Linux\" and "
                      "platform_machine == \"x86_64\""),
            reqs.end());
}

TEST(PythonParse, TensorflowMetalMetadataBodyHoldsItsVersionTable) {
  auto md = parse_core_metadata(fixture_file(
      "python-conda-tf-metal", kCondaSite + "tensorflow_metal-1.1.0.dist-info/METADATA"));
  EXPECT_EQ(md.get("Name"), "tensorflow-metal");
  EXPECT_EQ(md.get("Version"), "1.1.0");
  EXPECT_EQ(md.get("Download-URL"), "");
  EXPECT_NE(md.body.find("|v2.14|v1.1.0|12.1+||"), std::string::npos);
}

// Debian 12 python3-toml 0.10.2-1: /usr/lib/python3/dist-packages/toml-0.10.2.egg-info/PKG-INFO,
// cut to its first and last lines. The Description's paragraphs are continuation lines, and
// its "blank" lines are eight spaces: they must not end the headers.
constexpr const char* kTomlPkgInfo =
    "Metadata-Version: 1.2\n"
    "Name: toml\n"
    "Version: 0.10.2\n"
    "Summary: Python Library for Tom's Obvious, Minimal Language\n"
    "Home-page: https://github.com/uiri/toml\n"
    "Author: William Pearson\n"
    "Author-email: uiri@xqz.ca\n"
    "License: MIT\n"
    "Description: ****\n"
    "        TOML\n"
    "        ****\n"
    "        \n"
    "        This project is released under the terms of the MIT Open Source License.\n"
    "        *LICENSE.txt* for more information.\n"
    "        \n"
    "Platform: UNKNOWN\n"
    "Classifier: Development Status :: 5 - Production/Stable\n"
    "Requires-Python: >=2.6, !=3.0.*, !=3.1.*, !=3.2.*\n";

TEST(PythonParse, PkgInfoContinuationLines) {
  auto md = parse_core_metadata(kTomlPkgInfo);
  EXPECT_EQ(md.get("Version"), "0.10.2");
  EXPECT_EQ(md.get("Requires-Python"), ">=2.6, !=3.0.*, !=3.1.*, !=3.2.*");
  auto desc = md.get("Description");
  ASSERT_TRUE(desc);
  EXPECT_EQ(desc->substr(0, 14), "****\nTOML\n****");
  EXPECT_TRUE(md.body.empty());
}

TEST(PythonParse, WheelFileTags) {
  auto md = parse_core_metadata(
      fixture_file("python-user-jax-cuda12",
                   "usr/local/lib/python3.11/dist-packages/tensorflow-2.15.0.dist-info/WHEEL"));
  EXPECT_EQ(md.all("Tag"), (std::vector<std::string>{"cp311-cp311-manylinux_2_17_x86_64",
                                                     "cp311-cp311-manylinux2014_x86_64"}));
}

TEST(PythonParse, GarbledMetadataHasNoName) {
  auto md = parse_core_metadata("this is not metadata\n\x01\x02\n");
  EXPECT_FALSE(md.get("Name"));
  EXPECT_FALSE(md.get("Version"));
}

TEST(PythonParse, NormalisedNames) {
  EXPECT_EQ(normalize_package_name("tensorflow_metal"), "tensorflow-metal");
  EXPECT_EQ(normalize_package_name("Jax_CUDA12.Plugin"), "jax-cuda12-plugin");
  EXPECT_EQ(normalize_package_name("lazr.restfulclient"), "lazr-restfulclient");
  EXPECT_EQ(normalize_package_name("friendly-bard"), "friendly-bard");
  EXPECT_EQ(normalize_package_name("FrIeNdLy-._.-bArD"), "friendly-bard");
}

TEST(PythonParse, DistDirectoryNames) {
  auto d = parse_dist_dir_name("nvidia_cudnn_cu12-9.1.0.70.dist-info");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name, "nvidia_cudnn_cu12");
  EXPECT_EQ(d->version, "9.1.0.70");
  EXPECT_FALSE(d->egg_info);
  d = parse_dist_dir_name("torch-2.6.0+cpu.dist-info");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->version, "2.6.0+cpu");
  d = parse_dist_dir_name("PyGObject-3.42.2.egg-info");  // Debian 12 python3-gi
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->egg_info);
  EXPECT_EQ(d->version, "3.42.2");
  d = parse_dist_dir_name("cryptography.egg-info");  // Debian 12 python3-cryptography
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name, "cryptography");
  EXPECT_FALSE(d->version);
  EXPECT_FALSE(parse_dist_dir_name("torch"));
  EXPECT_FALSE(parse_dist_dir_name("__pycache__"));
}

TEST(PythonParse, RequirementsAndVersions) {
  EXPECT_EQ(requirement_name("nvidia-cudnn-cu12 (==9.1.0.70) ; platform_system == \"Linux\""),
            "nvidia-cudnn-cu12");
  EXPECT_EQ(requirement_name("nvidia-cudnn-cu12 <10.0,>=9.1 ; extra == 'with_cuda'"),
            "nvidia-cudnn-cu12");
  EXPECT_EQ(requirement_name("typing-extensions>=4.10.0"), "typing-extensions");
  EXPECT_EQ(local_version_label("2.5.1+cu124"), "cu124");
  EXPECT_EQ(local_version_label("2.3.0.dev20240308+rocm6.0"), "rocm6.0");
  EXPECT_FALSE(local_version_label("2.5.1"));
}

TEST(PythonParse, CudaSeriesFromNames) {
  EXPECT_EQ(cuda_series_from_name("nvidia-cudnn-cu12"), "12");
  EXPECT_EQ(cuda_series_from_name("nvidia-cublas-cu11"), "11");
  EXPECT_EQ(cuda_series_from_name("jax-cuda12-plugin"), "12");
  EXPECT_EQ(cuda_series_from_name("jax-cuda12-pjrt"), "12");
  EXPECT_EQ(cuda_series_from_name("cupy-cuda12x"), "12");
  EXPECT_EQ(cuda_series_from_name("cupy-cuda102"), "10.2");
  EXPECT_EQ(cuda_series_from_name("cupy-cuda92"), "9.2");
  EXPECT_FALSE(cuda_series_from_name("cupy"));
  EXPECT_FALSE(cuda_series_from_name("torch"));
  EXPECT_FALSE(cuda_series_from_name("nvidia-ml-py"));
}

TEST(PythonParse, RelevantPackages) {
  for (const char* n : {"torch", "tensorflow-metal", "tensorflow-macos", "jax-cuda12-plugin",
                        "cupy-cuda12x", "nvidia-nccl-cu12", "keras", "numpy", "plaidml",
                        // the oneAPI runtime wheels torch +xpu pins
                        "intel-sycl-rt", "intel-cmplr-lib-ur", "umf", "tcmlib", "onemkl-sycl-blas",
                        "pytorch-triton-xpu", "dpcpp-cpp-rt"}) {
    EXPECT_TRUE(is_gpu_relevant_package(n)) << n;
  }
  for (const char* n : {"requests", "pip", "torchgen", "jaxtyping", "cupyx", "umfpack"}) {
    EXPECT_FALSE(is_gpu_relevant_package(n)) << n;
  }
}

// --- Python literals: torch/version.py ---------------------------------------------------------

TEST(PythonParse, TorchVersionPyCuda) {
  auto t = parse_torch_version_py(
      fixture_file("python-venv-torch-cu124", kVenvSite + "torch/version.py"));
  EXPECT_EQ(t.version, "2.5.1+cu124");
  EXPECT_EQ(t.local_version, "cu124");
  EXPECT_EQ(t.cuda, "12.4");
  EXPECT_FALSE(t.hip);
  EXPECT_FALSE(t.xpu);
  EXPECT_EQ(t.git_version, "a8d6afb511a69687bbb2b7e88a3cf67917e1697e");
  EXPECT_EQ(t.debug, false);
}

TEST(PythonParse, TorchVersionPyCpu) {
  auto t = parse_torch_version_py(fixture_file("python-wsl-windows-venv-cpu-torch",
                                               kWinVenv + "Lib/site-packages/torch/version.py"));
  EXPECT_EQ(t.version, "2.6.0+cpu");
  EXPECT_EQ(t.local_version, "cpu");
  EXPECT_FALSE(t.cuda);
  EXPECT_FALSE(t.hip);
  EXPECT_FALSE(t.xpu);
}

// torch==1.13.1 from PyPI, torch-1.13.1-cp310-none-macosx_11_0_arm64.whl: the untyped form.
constexpr const char* kTorch1131Mac = R"(__version__ = '1.13.1'
debug = False
cuda = None
git_version = '49444c3e546bf240bed24a101e747422d1f8a0ee'
hip = None
)";

// A torch/version.py as pasted into a pytorch/pytorch PR description (1.8 development build).
constexpr const char* kTorch18Dev = R"(__version__ = '1.8.0a0+1a92802'
debug = False
cuda = '11.1'
git_version = '1a92802bde28286f850b415bfd985515565740c3'
hip = None
)";

// A ROCm nightly's torch/version.py, found in public code search (store id 28421718187).
constexpr const char* kTorchRocmNightly = R"(from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '2.3.0.dev20240308+rocm6.0'
debug = False
cuda: Optional[str] = None
git_version = '55e93013211e3d9a52e259aee5df4f6198a3cdcc'
hip: Optional[str] = '6.0.32830-d62f6a171'
)";

TEST(PythonParse, TorchVersionPyOlderAndRocm) {
  auto mac = parse_torch_version_py(kTorch1131Mac);
  EXPECT_EQ(mac.version, "1.13.1");
  EXPECT_FALSE(mac.local_version);
  EXPECT_FALSE(mac.cuda);
  auto dev = parse_torch_version_py(kTorch18Dev);
  EXPECT_EQ(dev.cuda, "11.1");
  EXPECT_EQ(dev.local_version, "1a92802");
  auto rocm = parse_torch_version_py(kTorchRocmNightly);
  EXPECT_EQ(rocm.local_version, "rocm6.0");
  EXPECT_FALSE(rocm.cuda);
  EXPECT_EQ(rocm.hip, "6.0.32830-d62f6a171");
}

TEST(PythonParse, LiteralsSkipWhatIsNotALiteral) {
  auto m = python_assignments(
      "import os\nx = os.environ.get('A')\ny: str = 'ok'  # comment\n"
      "def f():\n    z = 'inner'\nw = ['a', \"b\",]\n");
  EXPECT_FALSE(m.count("x"));
  EXPECT_FALSE(m.count("z"));
  ASSERT_TRUE(m.count("y"));
  EXPECT_EQ(m["y"].text, "ok");
  ASSERT_TRUE(m.count("w"));
  EXPECT_EQ(m["w"].items, (std::vector<std::string>{"a", "b"}));
}

// --- tensorflow build_info.py --------------------------------------------------------------------

TEST(PythonParse, TensorflowBuildInfo215Linux) {
  auto b = parse_tensorflow_build_info(fixture_file(
      "python-user-jax-cuda12",
      "usr/local/lib/python3.11/dist-packages/tensorflow/python/platform/build_info.py"));
  EXPECT_EQ(b.cuda_version, "12.2");
  EXPECT_EQ(b.cudnn_version, "8");
  EXPECT_EQ(b.is_cuda_build, true);
  EXPECT_EQ(b.is_rocm_build, false);
  EXPECT_EQ(b.is_tensorrt_build, true);
  EXPECT_EQ(b.cuda_compute_capabilities,
            (std::vector<std::string>{"sm_50", "sm_60", "sm_70", "sm_75", "compute_80"}));
}

TEST(PythonParse, TensorflowBuildInfo215Macos) {
  auto b = parse_tensorflow_build_info(fixture_file(
      "python-conda-tf-metal", kCondaSite + "tensorflow/python/platform/build_info.py"));
  EXPECT_FALSE(b.cuda_version);
  EXPECT_EQ(b.is_cuda_build, false);
  EXPECT_EQ(b.is_rocm_build, false);
  EXPECT_EQ(b.is_tensorrt_build, false);
}

// tensorflow==2.3.0 from PyPI, cp38 manylinux2010_x86_64: a plain dict.
constexpr const char* kTf230Linux =
    R"("""Auto-generated module providing information about the build."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

build_info = {'cuda_version': '10.1', 'cudnn_version': '7', 'cuda_compute_capabilities': ['sm_35', 'sm_37', 'sm_52', 'sm_60', 'sm_61', 'compute_70'], 'cpu_compiler': '/usr/bin/gcc-5', 'is_rocm_build': False, 'is_cuda_build': True}
)";

// tensorflow==2.10.0 from PyPI, cp310 win_amd64: the DLL suffixes stand for the versions.
constexpr const char* kTf2100Windows = R"(import collections

build_info = collections.OrderedDict([('cpu_compiler', 'C:/Program Files (x86)/Microsoft Visual Studio/2019/Community/VC/Tools/MSVC/14.29.30133/bin/HostX64/x64/cl.exe'), ('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), ('cuda_version', '64_112'), ('cudart_dll_name', 'cudart64_112.dll'), ('cudnn_dll_name', 'cudnn64_8.dll'), ('cudnn_version', '64_8'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False), ('msvcp_dll_names', 'msvcp140.dll,msvcp140_1.dll'), ('nvcuda_dll_name', 'nvcuda.dll')])
)";

// tensorflow-gpu==1.15.5 from PyPI, cp37 manylinux2010_x86_64:
// tensorflow_core/python/platform/build_info.py, module constants.
constexpr const char* kTfGpu1155 =
    R"("""Generates a Python module containing information about the build."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

is_rocm_build = False
is_cuda_build = True

cuda_version_number = '10'
cudnn_version_number = '7'
)";

TEST(PythonParse, TensorflowBuildInfoOlderGenerations) {
  auto b23 = parse_tensorflow_build_info(kTf230Linux);
  EXPECT_EQ(b23.cuda_version, "10.1");
  EXPECT_EQ(b23.cudnn_version, "7");
  EXPECT_EQ(b23.is_cuda_build, true);
  EXPECT_FALSE(b23.is_tensorrt_build);
  EXPECT_EQ(b23.cuda_compute_capabilities.size(), 6U);
  auto win = parse_tensorflow_build_info(kTf2100Windows);
  EXPECT_EQ(win.cuda_version, "11.2");
  EXPECT_EQ(win.cudnn_version, "8");
  EXPECT_EQ(win.is_tensorrt_build, false);
  auto b115 = parse_tensorflow_build_info(kTfGpu1155);
  EXPECT_EQ(b115.cuda_version, "10");
  EXPECT_EQ(b115.cudnn_version, "7");
  EXPECT_EQ(b115.is_cuda_build, true);
  EXPECT_EQ(b115.is_rocm_build, false);
}

// --- keras.json, pyvenv.cfg, environments.txt, names -------------------------------------------

TEST(PythonParse, KerasJson) {
  auto k = parse_keras_json(fixture_file("python-user-jax-cuda12", "home/ana/.keras/keras.json"));
  EXPECT_TRUE(k.valid);
  EXPECT_EQ(k.backend, "jax");
  EXPECT_FALSE(parse_keras_json("{\"backend\": ").valid);
  EXPECT_FALSE(parse_keras_json("{\"floatx\": \"float32\"}").backend);
}

TEST(PythonParse, PyvenvCfgVenv) {
  auto c =
      parse_pyvenv_cfg(fixture_file("python-venv-torch-cu124", "home/dev/venvs/llm/pyvenv.cfg"));
  EXPECT_EQ(c.home, "/usr/bin");
  EXPECT_EQ(c.version, "3.11.2");
  EXPECT_EQ(c.executable, "/usr/bin/python3.11");
  EXPECT_EQ(c.include_system_site_packages, false);
  auto w =
      parse_pyvenv_cfg(fixture_file("python-wsl-windows-venv-cpu-torch", kWinVenv + "pyvenv.cfg"));
  EXPECT_EQ(w.home, "C:\\Users\\chbha\\AppData\\Local\\Programs\\Python\\Python312");
  EXPECT_EQ(w.version, "3.12.7");
}

// Written on the build machine (Debian 12, /usr/bin/python3 3.11.2) by virtualenv 21.15.7
// and by uv 0.13.8.
constexpr const char* kVirtualenvCfg = R"(home = /usr/bin
implementation = CPython
python-version = 3.11
version_info = 3.11.2.final.0
version = 3.11.2
executable = /usr/bin/python3.11
command = /tmp/tools-venv/bin/python3 -m virtualenv /tmp/cfgs/ve-virtualenv
virtualenv = 21.15.7
include-system-site-packages = false
base-prefix = /usr
base-exec-prefix = /usr
base-executable = /usr/bin/python3
)";
constexpr const char* kUvCfg = R"(home = /usr/bin
implementation = CPython
uv = 0.13.8
version_info = 3.11.2
include-system-site-packages = false
)";

TEST(PythonParse, PyvenvCfgVirtualenvAndUv) {
  EXPECT_EQ(parse_pyvenv_cfg(kVirtualenvCfg).version, "3.11.2");
  auto uv = parse_pyvenv_cfg(kUvCfg);
  EXPECT_EQ(uv.version, "3.11.2");
  EXPECT_EQ(uv.include_system_site_packages, false);
  EXPECT_EQ(parse_pyvenv_cfg("version_info = 3.11.2.final.0\n").version, "3.11.2");
}

TEST(PythonParse, CondaEnvironmentsTxt) {
  EXPECT_EQ(parse_conda_environments(
                fixture_file("python-conda-tf-metal", "Users/dev/.conda/environments.txt")),
            (std::vector<std::string>{"/Users/dev/miniforge3", "/Users/dev/miniforge3/envs/tf"}));
  EXPECT_EQ(parse_conda_environments("\n  /opt/conda  \r\n# note\n"),
            (std::vector<std::string>{"/opt/conda"}));
}

TEST(PythonParse, VersionsFromNames) {
  EXPECT_EQ(python_version_from_conda_meta("python-3.11.9-h932a869_0_cpython.json"), "3.11.9");
  EXPECT_FALSE(python_version_from_conda_meta("python-dateutil-2.8.2-pyhd8ed1ab_0.json"));
  EXPECT_FALSE(python_version_from_conda_meta("python_abi-3.11-4_cp311.json"));
  EXPECT_EQ(python_version_from_name("python3.11"), "3.11");
  EXPECT_EQ(python_version_from_name("python3.13t"), "3.13");
  EXPECT_FALSE(python_version_from_name("python3"));
  EXPECT_FALSE(python_version_from_name("python3.11-config"));
  EXPECT_EQ(python_version_from_libpython("libpython3.11.so.1.0"), "3.11");
  EXPECT_EQ(python_version_from_libpython("libpython3.11.dylib"), "3.11");
  EXPECT_EQ(python_version_from_libpython("libpython3.7m.so"), "3.7");
  EXPECT_EQ(python_version_from_libpython("python312.dll"), "3.12");
  EXPECT_FALSE(python_version_from_libpython("python3.dll"));
}

// --- executable headers
// ---------------------------------------------------------------------------

TEST(PythonParse, BinaryArchs) {
  // Debian 12's /usr/bin/python3.11 (its first 64 bytes are in the fixture).
  EXPECT_EQ(binary_archs(fixture_file("python-venv-torch-cu124", "usr/bin/python3.11")),
            (std::vector<std::string>{"x86_64"}));
  // tensorflow-metal 1.1.0's tensorflow-plugins/libmetal_plugin.dylib: thin arm64 Mach-O.
  const std::string thin("\xcf\xfa\xed\xfe\x0c\x00\x00\x01\x00\x00\x00\x00\x06\x00\x00\x00", 16);
  EXPECT_EQ(binary_archs(thin), (std::vector<std::string>{"arm64"}));
  // MarkupSafe 2.1.5 macosx_10_9_universal2: markupsafe/_speedups.cpython-310-darwin.so.
  const std::string fat(
      "\xca\xfe\xba\xbe\x00\x00\x00\x02\x01\x00\x00\x07\x00\x00\x00\x03\x00\x00\x40\x00"
      "\x00\x00\x89\x60\x00\x00\x00\x0e\x01\x00\x00\x0c\x00\x00\x00\x00\x00\x01\x00\x00",
      40);
  EXPECT_EQ(binary_archs(fat), (std::vector<std::string>{"x86_64", "arm64"}));
  EXPECT_FALSE(binary_archs("#!/usr/bin/env bash\nset -e\n"));  // a pyenv shim
  EXPECT_FALSE(binary_archs(""));
}

}  // namespace
}  // namespace gpudoctor
