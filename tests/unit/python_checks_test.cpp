// python.framework_python: torch against the Python versions its release matrix lists
// (data/compat/pytorch.json, from PyTorch's RELEASE.md), including the ones it lists only as
// experimental: torch 2.2 and 2.3 shipped Python 3.12 wheels as experimental, the support
// asked for in https://github.com/pytorch/pytorch/issues/110436.
#include <gtest/gtest.h>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// A machine with one environment of that Python holding that torch (a CPU build: the check
/// reads only the versions).
std::vector<Finding> torch_on_python(const std::string& torch, const std::string& python) {
  Snapshot s;
  s.python = PythonInfo{};
  PythonEnv env;
  env.kind = "venv";
  env.prefix = "/home/user/venv";
  env.python_version = python;
  PythonPackage p;
  p.name = "torch";
  p.version = torch;
  p.torch = TorchBuildInfo{};
  p.torch->version = torch;
  env.packages.push_back(p);
  s.python->envs.push_back(env);
  const auto devices = merge_devices(s);
  return run_checks(CheckInput{s, devices, builtin_compat()});
}

TEST(FrameworkPython, APythonTheMatrixListsAsExperimentalIsANoteNotAWarning) {
  const auto fs = torch_on_python("2.3.1", "3.12.3");
  const Finding* f = test::find_finding(fs, "python.framework_python");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::info);
  EXPECT_NE(f->title.find("supports Python 3.12 only as experimental"), std::string::npos)
      << f->title;
  ASSERT_TRUE(f->source);
  EXPECT_NE(f->source->find("pytorch"), std::string::npos) << *f->source;
}

TEST(FrameworkPython, APythonOutsideTheMatrixIsAWarning) {
  const auto fs = torch_on_python("2.3.1", "3.13.0");
  const Finding* f = test::find_finding(fs, "python.framework_python");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->title.find("is not released for Python 3.13"), std::string::npos) << f->title;
  ASSERT_TRUE(f->fix);
  EXPECT_NE(f->fix->find("use a Python in that range"), std::string::npos);
}

TEST(FrameworkPython, ASupportedPythonSaysNothing) {
  EXPECT_EQ(test::find_finding(torch_on_python("2.3.1", "3.11.9"), "python.framework_python"),
            nullptr);
}

}  // namespace
}  // namespace gpudoctor
