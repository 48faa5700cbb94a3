#include "test_support.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "core/pipe.hpp"
#include "devices.hpp"

extern char** environ;  // NOLINT

namespace gpudoctor::test {

namespace {

/// Variables gpudoctor reads that choose devices, drivers, libraries or Python environments:
/// unset once, when the test binary starts, so that a developer's CUDA_VISIBLE_DEVICES or
/// active virtualenv does not change what a test sees. Tests set what they need afterwards.
struct ShellChoicesCleared {
  ShellChoicesCleared() {
    for (const char* name : {"CUDA_VISIBLE_DEVICES",
                             "NVIDIA_VISIBLE_DEVICES",
                             "HIP_VISIBLE_DEVICES",
                             "ROCR_VISIBLE_DEVICES",
                             "GPU_DEVICE_ORDINAL",
                             "HSA_OVERRIDE_GFX_VERSION",
                             "ROCM_PATH",
                             "CUDA_HOME",
                             "CUDA_PATH",
                             "LD_LIBRARY_PATH",
                             "DYLD_LIBRARY_PATH",
                             "DYLD_FALLBACK_LIBRARY_PATH",
                             "VIRTUAL_ENV",
                             "CONDA_PREFIX",
                             "CONDA_DEFAULT_ENV",
                             "PYENV_VERSION",
                             "KERAS_BACKEND",
                             "PLAIDML_DEVICE_IDS",
                             "SYSTEM_VERSION_COMPAT",
                             "OCL_ICD_FILENAMES",
                             "OCL_ICD_VENDORS",
                             "OPENCL_VENDOR_PATH",
                             "VK_DRIVER_FILES",
                             "VK_ICD_FILENAMES",
                             "VK_ADD_DRIVER_FILES",
                             "VK_LOADER_DRIVERS_SELECT",
                             "VK_LOADER_DRIVERS_DISABLE",
                             "VK_INSTANCE_LAYERS",
                             "VK_LOADER_LAYERS_ENABLE",
                             "VK_LOADER_LAYERS_DISABLE",
                             "VK_LOADER_LAYERS_ALLOW",
                             "VK_LAYER_PATH",
                             "VK_ADD_LAYER_PATH",
                             "VK_IMPLICIT_LAYER_PATH",
                             "VK_ADD_IMPLICIT_LAYER_PATH"}) {
      ::unsetenv(name);
    }
  }
};
const ShellChoicesCleared kShellChoicesCleared;

}  // namespace

CommandResult run_gpudoctor(const std::vector<std::string>& args,
                            const std::vector<std::string>& extra_env) {
  CommandResult r;
  int out[2];
  int err[2];
  if (!open_pipe_cloexec(out) || !open_pipe_cloexec(err)) return r;
  std::vector<std::string> argv_s{GPUDOCTOR_BIN};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  // The extras replace variables of the same name: with duplicates, getenv sees the first.
  auto name_of = [](const std::string& kv) { return kv.substr(0, kv.find('=')); };
  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv(*e);
    bool replaced = false;
    for (const auto& x : extra_env) replaced = replaced || name_of(x) == name_of(kv);
    if (!replaced) env_s.push_back(kv);
  }
  env_s.insert(env_s.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> argv;
  std::vector<char*> envp;
  for (auto& s : argv_s) argv.push_back(s.data());
  for (auto& s : env_s) envp.push_back(s.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    // EINTR: gpudoctor's own child guard (a SIGCHLD handler) runs in this process too.
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[8192];
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        (i == 0 ? r.out : r.err).append(buf, static_cast<std::size_t>(n));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

std::vector<Json> area_findings(const std::string& root, const std::string& area,
                                const std::vector<std::string>& extra_env) {
  auto r = run_gpudoctor({"check", "--json", "--sysroot", root}, extra_env);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  std::vector<Json> out;
  const Json report = Json::parse(r.out, nullptr, false);
  if (!report.is_object() || !report.contains("findings")) {
    ADD_FAILURE() << "no findings in: " << r.out;
    return out;
  }
  for (const auto& f : report["findings"]) {
    if (f["area"] == area) out.push_back(f);
  }
  return out;
}

std::vector<Finding> run_all_checks(const Snapshot& s) {
  auto devices = merge_devices(s);
  return run_checks(CheckInput{s, devices, builtin_compat()});
}

const Json* find_finding(const std::vector<Json>& findings, std::string_view id) {
  for (const auto& f : findings) {
    if (f.is_object() && f.value("id", "") == id) return &f;
  }
  return nullptr;
}

std::vector<Finding> with_id(const std::vector<Finding>& all, std::string_view id) {
  std::vector<Finding> out;
  for (const auto& f : all) {
    if (f.id == id) out.push_back(f);
  }
  return out;
}

std::string fixture_path(const std::string& name) {
  return std::string(GPUDOCTOR_FIXTURES) + "/" + name;
}

void expect_golden(const std::string& fixture, const std::string& file, const std::string& text) {
  const std::string path = fixture_path(fixture) + "/" + file;
  const char* regold = std::getenv("GPUDOCTOR_REGOLD");
  if (regold != nullptr && std::string(regold) == "1") {
    std::ofstream(path, std::ios::binary) << text;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "no golden file " << path << " (run with GPUDOCTOR_REGOLD=1)";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), text) << "golden " << path << " differs (GPUDOCTOR_REGOLD=1 rewrites it)";
}

const Finding* find_finding(const std::vector<Finding>& findings, std::string_view id) {
  for (const auto& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

const Json* find_finding(const Json& j, std::string_view id) {
  const Json& list = j.is_object() && j.contains("findings") ? j["findings"] : j;
  if (!list.is_array()) return nullptr;
  for (const auto& f : list) {
    if (f.is_object() && f.contains("id") && f["id"] == id) return &f;
  }
  return nullptr;
}

}  // namespace gpudoctor::test
