#pragma once
// Many OpenCL drivers that hang (tests/fakes/opencl, FAKE_HANG), each a copy of its own under a
// name of its own with its own .icd file, as on a node with many broken vendor packages; and a
// runner for the packaged health-check scripts that start gpudoctor (issue 29, cause 4).
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor::test {

inline bool opencl_loader_installed() {
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu/", "/usr/lib64/", "/usr/lib/",
                          "/usr/lib/aarch64-linux-gnu/"}) {
    if (::access((std::string(dir) + "libOpenCL.so.1").c_str(), R_OK) == 0) return true;
  }
  return false;
}

class HangingDrivers {
 public:
  explicit HangingDrivers(std::size_t n) : n_(n) {
    namespace fs = std::filesystem;
    const fs::path hang = std::string(GPUDOCTOR_FAKES) + "/opencl/libfake_opencl_hang.so";
    const std::string libs = tree_.mkdir("lib");
    vendors_ = tree_.mkdir("vendors");
    for (std::size_t i = 0; i < n; ++i) {
      const std::string lib = libs + "/libhang_" + std::to_string(i) + ".so";
      fs::copy_file(hang, lib);
      tree_.write("vendors/hang_" + std::to_string(i) + ".icd", lib + "\n");
    }
  }
  std::size_t count() const { return n_; }
  /// The environment that makes them the only OpenCL drivers (ocl-icd and Khronos loaders).
  std::string opencl_env() const { return "OCL_ICD_VENDORS=" + vendors_; }
  const std::string& dir() const { return tree_.path(); }

 private:
  TempTree tree_;
  std::string vendors_;
  std::size_t n_;
};

/// Runs argv (argv[0] a path) with the test's environment plus `extra_env`, standard error
/// merged into standard output.
inline CommandResult run_program(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& extra_env) {
  CommandResult r;
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return r;
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& kv : extra_env) {
      const auto eq = kv.find('=');
      ::setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    }
    ::dup2(out[1], 1);
    ::dup2(out[1], 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(out[1]);
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    r.out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

}  // namespace gpudoctor::test
