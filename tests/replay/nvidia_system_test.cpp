// The `nvidia` backend: the probe on this machine, its mechanics on a throwaway tree, and
// fixture trees from real bug reports replayed with --sysroot. Parsers: nvidia_parse_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "core/root.hpp"
#include "environment.hpp"
#include "json.hpp"
#include "nvidia/nvidia_readers.hpp"
#include "core/paths.hpp"
#include "core/root.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace nvidia_system_test {

// ---------------------------------------------------------------------------------------------
// Running gpudoctor

/// Sets and unsets variables of this process (which run_gpudoctor passes on) for one scope.
class ScopedEnv {
 public:
  explicit ScopedEnv(const std::map<std::string, std::optional<std::string>>& vars) {
    for (const auto& [name, value] : vars) {
      const char* old = std::getenv(name.c_str());
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

/// The variables the nvidia probe reads, all unset unless a test names them.
std::map<std::string, std::optional<std::string>> clean_env(
    std::map<std::string, std::optional<std::string>> set) {
  std::map<std::string, std::optional<std::string>> vars = {
      {"LD_LIBRARY_PATH", std::nullopt},        {"CUDA_HOME", std::nullopt},
      {"CUDA_PATH", std::nullopt},              {"CUDA_VISIBLE_DEVICES", std::nullopt},
      {"NVIDIA_VISIBLE_DEVICES", std::nullopt}, {"VIRTUAL_ENV", std::nullopt},
      {"CONDA_PREFIX", std::nullopt},
      {"PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}};
  for (auto& [k, v] : set) vars[k] = v;
  return vars;
}

Json query_nvidia(const std::vector<std::string>& extra_args,
                  std::map<std::string, std::optional<std::string>> env) {
  ScopedEnv scoped(clean_env(std::move(env)));
  std::vector<std::string> args = {"query", "--json", "--backend", "nvidia"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  auto r = test::run_gpudoctor(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.seconds, 10.0);
  Json j = Json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.is_object()) << r.out;
  return j;
}

/// Replays a fixture and checks the nvidia section against its golden file.
Json replay(const std::string& fixture, std::map<std::string, std::optional<std::string>> env) {
  Json j = query_nvidia({"--sysroot", test::fixture_path(fixture)}, std::move(env));
  EXPECT_EQ(j.value("live", true), false);
  bool probed = false;
  for (const auto& p : j.value("probes", Json::array())) {
    if (p.value("backend", "") == "nvidia") {
      probed = true;
      EXPECT_EQ(p.value("status", ""), "ok");
    }
  }
  EXPECT_TRUE(probed);
  Json golden = {{"nvidia", j.value("nvidia", Json())}};
  test::expect_golden(fixture, "query-nvidia.json", dump_json(golden, 2) + "\n");
  return j.value("nvidia", Json::object());
}

std::vector<std::string> strings(const Json& array) {
  std::vector<std::string> out;
  for (const auto& v : array) out.push_back(v.get<std::string>());
  return out;
}

const Json* toolkit_at(const Json& nvidia, const std::string& path) {
  for (const auto& t : nvidia["toolkits"]) {
    if (t.value("path", "") == path) return &t;
  }
  return nullptr;
}

TEST(NvidiaLive, ThisMachine) {
  namespace fs = std::filesystem;
  if (!fs::exists("/usr/local/cuda-13.0/version.json") &&
      !fs::exists("/usr/local/cuda-13.0/bin/nvcc")) {
    GTEST_SKIP() << "no CUDA 13.0 toolkit at /usr/local/cuda-13.0";
  }
  Json n = query_nvidia({}, {{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64/stubs"}})["nvidia"];

  const Json* t = toolkit_at(n, "/usr/local/cuda-13.0");
  ASSERT_NE(t, nullptr) << n.dump(2);
  EXPECT_EQ(t->value("source", ""), "/usr/local");
  EXPECT_TRUE(t->value("default_symlink", false));
  EXPECT_EQ(t->value("version", "").rfind("13.0", 0), 0u) << t->dump();
  EXPECT_TRUE((*t)["cudnn_version"].is_string());
  EXPECT_TRUE((*t)["cublas_version"].is_string());
  EXPECT_TRUE((*t)["cudart_version"].is_string());
  EXPECT_EQ(t->value("stub_libcuda", ""), "/usr/local/cuda-13.0/lib64/stubs/libcuda.so");
  EXPECT_EQ(n["usr_local_cuda"], "/usr/local/cuda-13.0");
  // Each toolkit once, however many routes lead to it.
  int count = 0;
  for (const auto& k : n["toolkits"]) count += k.value("real_path", "") == "/usr/local/cuda-13.0";
  EXPECT_EQ(count, 1);

  // The kernel side agrees with the files: on this machine no module and no nodes.
  std::size_t nodes = 0;
  std::error_code ec;
  for (fs::directory_iterator it("/dev", ec), end; !ec && it != end; it.increment(ec)) {
    nodes += it->path().filename().string().rfind("nvidia", 0) == 0;
  }
  EXPECT_GE(n["kernel"]["device_nodes"].size(), nodes);  // plus /dev/nvidia-caps/* children
  if (nodes == 0) {
    EXPECT_TRUE(n["kernel"]["device_nodes"].empty());
  }
  if (!fs::exists("/proc/driver/nvidia") && !fs::exists("/sys/module/nvidia")) {
    EXPECT_TRUE(n["kernel"]["module_version"].is_null());
    for (const auto& m : n["kernel"]["loaded_modules"]) EXPECT_NE(m, "nvidia");
  }

  // The stub directory on LD_LIBRARY_PATH comes first, and is recognisable as a stub.
  ASSERT_FALSE(n["libcuda"].empty());
  const Json& first = n["libcuda"][0];
  EXPECT_EQ(first.value("path", ""), "/usr/local/cuda/lib64/stubs/libcuda.so");
  EXPECT_EQ(first.value("name", ""), "libcuda.so");
  EXPECT_TRUE(first.value("stub", false));
  EXPECT_FALSE(first.value("shadowed", true));
  EXPECT_TRUE(first["version"].is_null());
  EXPECT_EQ(first["elf_bits"], 64);
  EXPECT_EQ(n["ld_library_path"], "/usr/local/cuda/lib64/stubs");
}

TEST(NvidiaLive, NoStubWithoutLdLibraryPath) {
  if (!std::filesystem::exists("/usr/local/cuda-13.0/lib64/stubs/libcuda.so")) {
    GTEST_SKIP() << "no CUDA 13.0 stub";
  }
  Json n = query_nvidia({}, {})["nvidia"];
  for (const auto& f : n["libcuda"]) EXPECT_FALSE(f.value("stub", false)) << f.dump();
  EXPECT_TRUE(n["ld_library_path"].is_null());
}

// ---------------------------------------------------------------------------------------------
// Fixture trees (README.md in each says where every file came from)

TEST(NvidiaFixture, DriverLibraryMismatch) {
  Json n = replay("nvidia-driver-library-mismatch", {});
  const Json& k = n["kernel"];
  EXPECT_EQ(k["module_version"], "550.90.07");
  EXPECT_EQ(k["sys_module_version"], "550.90.07");
  EXPECT_EQ(k["module_flavor"], "proprietary");
  EXPECT_EQ(strings(k["loaded_modules"]), (std::vector<std::string>{"nvidia"}));
  // The loader finds the upgraded userspace: NVML says "Driver/library version mismatch".
  ASSERT_EQ(n["libnvidia_ml"].size(), 2u);
  for (const auto& f : n["libnvidia_ml"]) {
    EXPECT_EQ(f["version"], "550.107.02");
    EXPECT_NE(f["version"], k["module_version"]);
  }
  ASSERT_EQ(n["libcuda"].size(), 3u);  // /usr/lib/x86_64-linux-gnu is /lib/…: listed once
  EXPECT_EQ(n["libcuda"][1]["path"], "/lib/x86_64-linux-gnu/libcuda.so.1");
  EXPECT_EQ(n["libcuda"][1]["real_path"], "/usr/lib/x86_64-linux-gnu/libcuda.so.550.107.02");
  for (const auto& f : n["libcuda"]) EXPECT_FALSE(f.value("shadowed", true));
  EXPECT_TRUE(n["toolkits"].empty());
}

TEST(NvidiaFixture, NouveauBound) {
  Json n = replay("nvidia-nouveau-bound", {});
  const Json& k = n["kernel"];
  EXPECT_EQ(strings(k["loaded_modules"]), (std::vector<std::string>{"nouveau"}));
  EXPECT_TRUE(k["module_version"].is_null());
  EXPECT_TRUE(k["proc_version"].is_null());
  EXPECT_TRUE(k["device_nodes"].empty());
  EXPECT_TRUE(k["nouveau_blacklisted_in"].empty());
  EXPECT_EQ(strings(k["nouveau_cmdline"]),
            (std::vector<std::string>{"rd.driver.blacklist=nouveau"}));
  EXPECT_TRUE(n["libcuda"].empty());
}

TEST(NvidiaFixture, ContainerWithoutGpus) {
  Json n = replay("nvidia-container-no-gpus",
                  {{"PATH",
                    "/home/user/miniconda/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:"
                    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
                   {"LD_LIBRARY_PATH", "/usr/local/nvidia/lib:/usr/local/nvidia/lib64"},
                   {"NVIDIA_VISIBLE_DEVICES", "all"}});
  const Json& k = n["kernel"];
  EXPECT_TRUE(k["proc_version"].is_null());
  EXPECT_TRUE(k["device_nodes"].empty());
  EXPECT_TRUE(k["loaded_modules"].empty());
  EXPECT_TRUE(n["libcuda"].empty());  // nothing injected the driver's libraries
  EXPECT_TRUE(n["libnvidia_ml"].empty());
  EXPECT_EQ(n["nvidia_visible_devices"], "all");
  EXPECT_TRUE(n["nvcc_on_path"].is_null());
  ASSERT_EQ(n["toolkits"].size(), 2u);
  const Json* image = toolkit_at(n, "/usr/local/cuda-10.1");
  ASSERT_NE(image, nullptr);
  EXPECT_EQ((*image)["cudart_version"], "10.1.243");
  // The base image ships no version file or nvcc: libcudart's file version says the release.
  EXPECT_EQ((*image)["version"], "10.1.243");
  EXPECT_EQ((*image)["version_source"], "libcudart");
  EXPECT_TRUE(image->value("default_symlink", false));
  const Json* conda = toolkit_at(n, "/home/user/miniconda");
  ASSERT_NE(conda, nullptr);
  EXPECT_EQ((*conda)["source"], "conda");
  EXPECT_EQ((*conda)["version"], "10.1.243");
  EXPECT_EQ((*conda)["version_source"], "conda-meta");
  EXPECT_EQ((*conda)["cudart_version"], "10.1.243");
}

TEST(NvidiaFixture, StubOnLdLibraryPath) {
  const std::string stubs = "/usr/local/cuda-11.8/targets/x86_64-linux/lib/stubs";
  Json n = replay("nvidia-stub-ld-library-path",
                  {{"LD_LIBRARY_PATH", stubs},
                   {"CONDA_PREFIX", "/home/pxr/miniconda3/envs/visionmb"}});
  ASSERT_EQ(n["libcuda"].size(), 1u);
  const Json& f = n["libcuda"][0];
  EXPECT_EQ(f["path"], stubs + "/libcuda.so");
  EXPECT_TRUE(f.value("stub", false));
  EXPECT_TRUE(f["version"].is_null());
  EXPECT_EQ(n["ld_library_path"], stubs);
  const Json* toolkit = toolkit_at(n, "/usr/local/cuda-11.8");
  ASSERT_NE(toolkit, nullptr);
  EXPECT_EQ((*toolkit)["stub_libcuda"], stubs + "/libcuda.so");
  EXPECT_EQ((*toolkit)["version"], "11.8.20220929");
  const Json* env = toolkit_at(n, "/home/pxr/miniconda3/envs/visionmb");
  ASSERT_NE(env, nullptr);
  EXPECT_EQ((*env)["source"], "conda");
  EXPECT_EQ((*env)["cudart_version"], "11.7.60");
}

TEST(NvidiaFixture, SeveralToolkits) {
  Json n = replay("nvidia-several-toolkits",
                  {{"PATH", "/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                            "/usr/bin:/sbin:/bin"}});
  ASSERT_EQ(n["toolkits"].size(), 3u);
  const auto& t = n["toolkits"];
  EXPECT_EQ(t[0]["path"], "/usr/local/cuda-9.0");
  EXPECT_EQ(t[0]["version"], "9.0.176");
  EXPECT_EQ(t[0]["version_source"], "version.txt");
  EXPECT_EQ(t[1]["path"], "/usr/local/cuda-11.8");
  EXPECT_EQ(t[1]["version"], "11.8.20220929");
  EXPECT_EQ(t[1]["version_source"], "version.json");
  EXPECT_TRUE(t[1].value("default_symlink", false));
  EXPECT_EQ(strings(t[1]["found_by"]), (std::vector<std::string>{"/usr/local", "PATH"}));
  EXPECT_EQ(t[2]["path"], "/usr/local/cuda-12.6");
  EXPECT_EQ(t[2]["version"], "12.6.20241114");
  EXPECT_EQ(t[2]["cudart_version"], "12.6.77");
  EXPECT_FALSE(t[0].value("default_symlink", true));
  EXPECT_FALSE(t[2].value("default_symlink", true));
  // /usr/local/cuda → /etc/alternatives/cuda → /usr/local/cuda-11.8, inside the fixture.
  EXPECT_EQ(n["usr_local_cuda"], "/usr/local/cuda-11.8");
  EXPECT_EQ(n["nvcc_on_path"], "/usr/local/cuda/bin/nvcc");
}

TEST(NvidiaFixture, DkmsStaleModule) {
  Json n = replay("nvidia-dkms-stale-module", {});
  const Json& k = n["kernel"];
  EXPECT_TRUE(k["proc_version"].is_null());
  EXPECT_EQ(k["sys_module_version"], "595.80");
  EXPECT_EQ(k["module_version"], "595.80");
  EXPECT_EQ(strings(k["dkms"]),
            (std::vector<std::string>{"nvidia/595.80, 7.0.12-zen1-1-zen, x86_64: installed"}));
  // Plain files stand in for the device nodes: the paths count, their owners do not.
  ASSERT_EQ(k["device_nodes"].size(), 2u);
  EXPECT_EQ(k["device_nodes"][1]["path"], "/dev/nvidiactl");
  EXPECT_TRUE(k["device_nodes"][1]["mode"].is_null());
  EXPECT_TRUE(k["device_nodes"][1]["readable"].is_null());
  ASSERT_EQ(n["libcuda"].size(), 3u);
  EXPECT_EQ(n["libcuda"][0]["path"], "/lib/libcuda.so");
  EXPECT_EQ(n["libcuda"][0]["version"], "595.84");
  EXPECT_EQ(n["libnvidia_ml"][1]["real_path"], "/usr/lib/libnvidia-ml.so.595.84");
}

/// A throwaway root for the probe's mechanics; every file's text is a real one cited above.
class TempRoot {
 public:
  TempRoot() {
    char tmpl[] = "/tmp/gpudoctor-nvidia-XXXXXX";
    dir_ = ::mkdtemp(tmpl) ? tmpl : "";
  }
  ~TempRoot() {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  const std::string& dir() const { return dir_; }
  void write(const std::string& path, const std::string& text) const {
    std::filesystem::create_directories(std::filesystem::path(dir_ + path).parent_path());
    std::ofstream(dir_ + path, std::ios::binary) << text;
  }
  void link(const std::string& path, const std::string& target) const {
    std::filesystem::create_directories(std::filesystem::path(dir_ + path).parent_path());
    std::filesystem::create_symlink(target, dir_ + path);
  }
  void mkdir(const std::string& path) const { std::filesystem::create_directories(dir_ + path); }

 private:
  std::string dir_;
};

TEST(NvidiaKernelProbe, TreeMechanics) {
  TempRoot t;
  ASSERT_FALSE(t.dir().empty());
  t.write("/proc/driver/nvidia/version",
          "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  "
          "(dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024\n");
  t.write("/proc/modules", "nvidia 3923452 24 - Live 0xf17e2000\n");
  t.write("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
          std::string("\x06\x00\x00\x00\x01", 5));
  t.write("/etc/modprobe.d/nvidia-installer-disable-nouveau.conf",
          "# generated by nvidia-installer\nblacklist nouveau\noptions nouveau modeset=0\n");
  t.link("/lib", "usr/lib");  // merged /usr: /lib/modprobe.d and /usr/lib/modprobe.d are one
  t.write("/usr/lib/modprobe.d/nvidia.conf",
          "# Nvidia modules options\nblacklist nouveau\n#options nvidia-drm modeset=1\n");
  t.write("/usr/lib/modprobe.d/usb.conf", "blacklist usblp\n");
  // dkms: one version only added, one built for a kernel but not installed, one installed.
  t.write("/var/lib/dkms/nvidia/550.90.07/source/dkms.conf", "");
  t.mkdir("/var/lib/dkms/nvidia/550.107.02/6.8.0-41-generic/x86_64/module");
  t.mkdir("/var/lib/dkms/nvidia/565.57.01/6.8.0-41-generic/x86_64/module");
  t.link("/var/lib/dkms/nvidia/kernel-6.8.0-41-generic-x86_64", "565.57.01/6.8.0-41-generic/x86_64");
  t.write("/etc/group", "root:x:0:\nvideo:x:44:\n");
  t.write("/dev/nvidia-caps/nvidia-cap1", "");
  t.write("/dev/nvidiactl", "");

  const Root root(t.dir());
  const Environment env;
  const ProbeContext ctx{root, env, false};
  const Root& paths = root;
  NvidiaKernel k = probe_nvidia_kernel(ctx, paths);
  EXPECT_EQ(k.module_version, "565.57.01");
  EXPECT_EQ(k.module_flavor, "open");
  EXPECT_FALSE(k.sys_module_version);
  EXPECT_EQ(k.loaded_modules, (std::vector<std::string>{"nvidia"}));
  EXPECT_EQ(k.secure_boot, true);
  EXPECT_EQ(k.nouveau_blacklisted_in,
            (std::vector<std::string>{"/etc/modprobe.d/nvidia-installer-disable-nouveau.conf",
                                      "/lib/modprobe.d/nvidia.conf"}));
  EXPECT_EQ(k.dkms, (std::vector<std::string>{
                        "nvidia/550.107.02, 6.8.0-41-generic, x86_64: built",
                        "nvidia/550.90.07: added",
                        "nvidia/565.57.01, 6.8.0-41-generic, x86_64: installed"}));
  ASSERT_EQ(k.device_nodes.size(), 3u);
  EXPECT_EQ(k.device_nodes[0].path, "/dev/nvidia-caps");
  EXPECT_EQ(k.device_nodes[1].path, "/dev/nvidia-caps/nvidia-cap1");
  EXPECT_EQ(k.device_nodes[2].path, "/dev/nvidiactl");
  for (const auto& node : k.device_nodes) {
    EXPECT_FALSE(node.mode);  // not character devices, and not this machine's
    EXPECT_FALSE(node.readable);
  }
}

TEST(NvidiaLive, LoaderSearchAndElfHeader) {
  const Root root("/");
  const Environment env;
  const ProbeContext ctx{root, env, true};
  EXPECT_EQ(elf_bits(root, "/proc/self/exe"), sizeof(void*) * 8);
  auto libs = find_loader_libraries(ctx, root, "libc.so");
  ASSERT_FALSE(libs.empty());  // the C library itself, through the same search
  EXPECT_FALSE(libs.front().shadowed);
  EXPECT_TRUE(libs.front().real_path);
}

TEST(RootResolve, AbsoluteLinksStayUnderTheRoot) {
  const Root paths(test::fixture_path("nvidia-several-toolkits"));
  EXPECT_EQ(paths.resolve("/usr/local/cuda"), "/usr/local/cuda-11.8");
  EXPECT_EQ(paths.resolve("/usr/local/cuda/bin/nvcc"), "/usr/local/cuda-11.8/bin/nvcc");
  EXPECT_EQ(paths.resolve("/usr/local/cuda-12.6/lib64/libcudart.so.12"),
            "/usr/local/cuda-12.6/targets/x86_64-linux/lib/libcudart.so.12.6.77");
  EXPECT_EQ(paths.resolve("/usr/local/cuda/../cuda-9.0/./version.txt"),
            "/usr/local/cuda-9.0/version.txt");
  EXPECT_EQ(paths.resolve("/no/such/path"), "/no/such/path");
  EXPECT_TRUE(paths.exists("/usr/local/cuda/version.json"));
  EXPECT_EQ(parent_path("/usr/local/cuda/bin/nvcc"), "/usr/local/cuda/bin");
  EXPECT_EQ(parent_path("/usr"), "/");
  EXPECT_EQ(file_name("/usr/lib/libcuda.so.1"), "libcuda.so.1");
  EXPECT_EQ(join_path("/usr/lib/", "/libcuda.so"), "/usr/lib/libcuda.so");
}

}  // namespace nvidia_system_test
}  // namespace gpudoctor
