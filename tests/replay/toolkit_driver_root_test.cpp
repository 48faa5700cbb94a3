// The NVIDIA Container Toolkit's driver root (config.toml's [nvidia-container-cli] root): a
// containerised driver's setting left on a host whose driver is its own is a failure of every
// GPU container (NVIDIA/nvidia-container-toolkit#154); commented defaults and a root that holds
// a driver are not.
#include <gtest/gtest.h>

#include "core/root.hpp"
#include "environment.hpp"
#include "host/access_probe.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace toolkit_driver_root_test {

ContainerEngines engines_of(const test::TempTree& tree) {
  const Root root(tree.path());
  const Environment env;
  const HostAccess a = probe_access(ProbeContext{root, env, false, false});
  EXPECT_TRUE(a.container_engines.has_value());
  return a.container_engines.value_or(ContainerEngines{});
}

/// `check --json` on a fixture: its nvidia.container_toolkit finding, or null.
Json toolkit_finding(const std::string& fixture) {
  const auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--sysroot", test::fixture_path(fixture)},
      {"HOME=/nonexistent"});
  const Json j = Json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.is_object()) << r.err;
  const Json* f = j.is_object() ? test::find_finding(j, "nvidia.container_toolkit") : nullptr;
  EXPECT_NE(f, nullptr) << r.out;
  return f ? *f : Json();
}

// nvidia-ctk's default config.toml carries the key commented out, and other sections have keys
// of their own: neither is the driver root.
TEST(ToolkitDriverRoot, CommentedKeysAndOtherSectionsAreNotTheRoot) {
  test::TempTree tree;
  tree.write("usr/bin/docker", "");
  tree.write("etc/nvidia-container-runtime/config.toml",
             "[nvidia-container-cli]\n"
             "environment = []\n"
             "#root = \"/run/nvidia/driver\"\n"
             "ldconfig = \"@/sbin/ldconfig.real\"\n"
             "\n"
             "[nvidia-container-runtime]\n"
             "root = \"/elsewhere\"\n");
  const ContainerEngines e = engines_of(tree);
  EXPECT_EQ(e.toolkit_config, "/etc/nvidia-container-runtime/config.toml");
  EXPECT_FALSE(e.toolkit_driver_root.has_value());
  EXPECT_FALSE(e.toolkit_driver_root_has_driver.has_value());
}

// The GPU Operator's own node: /run/nvidia/driver is the driver container's root, with the
// driver in it.
TEST(ToolkitDriverRoot, ARootThatHoldsTheDriverIsRead) {
  test::TempTree tree;
  tree.write("usr/bin/docker", "");
  tree.write("usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml",
             "[nvidia-container-cli]\n  root = \"/run/nvidia/driver\"  \n");
  tree.write("run/nvidia/driver/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "");
  const ContainerEngines e = engines_of(tree);
  EXPECT_EQ(e.toolkit_driver_root, "/run/nvidia/driver");
  EXPECT_EQ(e.toolkit_driver_root_has_driver, true);
}

// corpus-container-toolkit-root-run-nvidia-driver: the thread's non-working config on a host
// whose driver is installed: the finding names the root and the fix sets it to "/".
TEST(ToolkitDriverRoot, AContainerisedDriversRootOnAHostDriverFails) {
  const Json f = toolkit_finding("corpus-container-toolkit-root-run-nvidia-driver");
  ASSERT_TRUE(f.is_object());
  EXPECT_EQ(f["severity"], "fail");
  EXPECT_NE(f["title"].get<std::string>().find("/run/nvidia/driver"), std::string::npos);
  EXPECT_NE(f["fix"].get<std::string>().find("root = \"/\""), std::string::npos);
}

// containerd's config as nvidia-ctk writes it (format 2): the runtime named and made the CRI
// default, a RuntimeClass-only setup, and a commented copy of the default that counts for nothing.
TEST(ContainerdRuntime, TheNvidiaRuntimeAndItsDefaultAreRead) {
  const std::string runtime =
      "version = 2\n"
      "[plugins.\"io.containerd.grpc.v1.cri\".containerd]\n"
      "  %DEFAULT%\n"
      "  [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia]\n"
      "    runtime_type = \"io.containerd.runc.v2\"\n"
      "    [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia.options]\n"
      "      BinaryName = \"/usr/bin/nvidia-container-runtime\"\n";
  auto with_default = [&](const std::string& line) {
    std::string s = runtime;
    s.replace(s.find("%DEFAULT%"), 9, line);
    return s;
  };
  {
    test::TempTree tree;
    tree.write("usr/bin/containerd", "");
    tree.write("usr/bin/kubelet", "");
    tree.write("etc/containerd/config.toml", with_default("default_runtime_name = \"nvidia\""));
    const ContainerEngines e = engines_of(tree);
    EXPECT_TRUE(e.containerd_nvidia_runtime);
    EXPECT_TRUE(e.containerd_nvidia_default);
  }
  {
    test::TempTree tree;
    tree.write("usr/bin/containerd", "");
    tree.write("usr/bin/kubelet", "");
    tree.write("etc/containerd/config.toml",
               with_default("# default_runtime_name = \"nvidia\"\n  default_runtime_name = \"runc\""));
    const ContainerEngines e = engines_of(tree);
    EXPECT_TRUE(e.containerd_nvidia_runtime);
    EXPECT_FALSE(e.containerd_nvidia_default);
  }
}

// NVIDIA/k8s-device-plugin#107 (corpus-k8s-containerd-runc-device-plugin): containerd 1.2's
// default runtime is runc and no runtime is NVIDIA's: the node's pods get no GPU.
TEST(ContainerdRuntime, AKubernetesNodeWhoseContainerdHasNoNvidiaRuntimeFails) {
  const Json f = toolkit_finding("corpus-k8s-containerd-runc-device-plugin");
  ASSERT_TRUE(f.is_object());
  EXPECT_EQ(f["severity"], "fail");
  EXPECT_NE(f["title"].get<std::string>().find("nvidia.com/gpu: 0"), std::string::npos);
  EXPECT_NE(f["fix"].get<std::string>().find("--runtime=containerd --set-as-default"),
            std::string::npos);
}

}  // namespace toolkit_driver_root_test
}  // namespace gpudoctor
