// The nvidia probe's library finder and fabric reader on throwaway trees laid out as the
// installers lay them out: which copy of a library the loader picks, where each version comes
// from, the soname read from a real ELF file, NVSwitches and Fabric Manager's records.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/root.hpp"
#include "environment.hpp"
#include "nvidia/nvidia_readers.hpp"
#include "temp_tree.hpp"

namespace gpudoctor {
namespace {

const CudaLibrary* find(const std::vector<CudaLibrary>& libs, const std::string& path) {
  for (const auto& l : libs) {
    if (l.path == path) return &l;
  }
  return nullptr;
}

void link(const test::TempTree& t, const std::string& target, const std::string& rel) {
  std::filesystem::create_directories(std::filesystem::path(t.path() + "/" + rel).parent_path());
  std::filesystem::create_symlink(target, t.path() + "/" + rel);
}

TEST(CudaLibraries, LoaderOrderVersionsAndSoname) {
  test::TempTree t;
  // The loader: ld.so.conf naming one directory; LD_LIBRARY_PATH naming a toolkit's lib64.
  t.write("etc/ld.so.conf", "/usr/lib/x86_64-linux-gnu\n");
  // A system cuDNN 8.9.7 as Debian packages it (soname link, versioned file).
  t.write("usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7", "");
  link(t, "libcudnn.so.8.9.7", "usr/lib/x86_64-linux-gnu/libcudnn.so.8");
  // A toolkit whose cuDNN only a header dates (the tar install copies both).
  t.write("usr/local/cuda-12.2/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.2.0"}})");
  t.write("usr/local/cuda-12.2/lib64/libcudart.so.12.2.140", "");
  link(t, "libcudart.so.12.2.140", "usr/local/cuda-12.2/lib64/libcudart.so.12");
  t.write("usr/local/cuda-12.2/include/cudnn_version.h",
          "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 8\n#define CUDNN_PATCHLEVEL 0\n");
  // A real ELF file as the toolkit's libcudnn.so.8, so the soname is read from its bytes.
  std::filesystem::copy_file(std::string(GPUDOCTOR_FAKES) + "/elf/libgpudoctor-rpath.so.2",
                             t.path() + "/usr/local/cuda-12.2/lib64/libcudnn.so.8");
  // A conda environment with conda-forge's cuDNN record and library.
  t.write("opt/conda/conda-meta/cudnn-8.1.0.77-h90431f1_0.json", "{}");
  t.write("opt/conda/lib/libcudnn.so.8", "");
  // pip's wheel in that environment.
  t.write("opt/conda/lib/python3.10/site-packages/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
          "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n");
  t.write("opt/conda/lib/python3.10/site-packages/nvidia/cudnn/lib/libcudnn.so.9", "");

  const Root root(t.path());
  const Environment env({{"LD_LIBRARY_PATH", "/usr/local/cuda-12.2/lib64"},
                         {"CONDA_PREFIX", "/opt/conda"}});
  const ProbeContext ctx{root, env, false};
  auto toolkits = find_cuda_toolkits(ctx, root);
  auto libs = find_cuda_libraries(ctx, root, toolkits);

  auto* tk = find(libs, "/usr/local/cuda-12.2/lib64/libcudnn.so.8");
  ASSERT_NE(tk, nullptr);
  EXPECT_EQ(tk->found_in, "toolkit");
  EXPECT_EQ(tk->version, std::optional<std::string>("8.8.0"));
  EXPECT_EQ(tk->version_from, std::optional<std::string>("cudnn_version.h"));
  EXPECT_EQ(tk->soname, std::optional<std::string>("libgpudoctor-rpath.so.2"));
  EXPECT_TRUE(tk->on_loader_path);
  EXPECT_TRUE(tk->loader_pick);  // LD_LIBRARY_PATH comes before ld.so.conf

  auto* sys = find(libs, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8");
  ASSERT_NE(sys, nullptr);
  EXPECT_EQ(sys->found_in, "loader");
  EXPECT_EQ(sys->version, std::optional<std::string>("8.9.7"));
  EXPECT_EQ(sys->real_path, std::optional<std::string>("/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7"));
  EXPECT_FALSE(sys->loader_pick);  // shadowed by the toolkit's

  auto* cudart = find(libs, "/usr/local/cuda-12.2/lib64/libcudart.so.12");
  ASSERT_NE(cudart, nullptr);
  EXPECT_EQ(cudart->version, std::optional<std::string>("12.2.140"));

  auto* conda = find(libs, "/opt/conda/lib/libcudnn.so.8");
  ASSERT_NE(conda, nullptr);
  EXPECT_EQ(conda->found_in, "conda");
  EXPECT_EQ(conda->version, std::optional<std::string>("8.1.0.77"));
  EXPECT_EQ(conda->version_from, std::optional<std::string>("conda-meta"));
  EXPECT_FALSE(conda->on_loader_path);

  auto* wheel = find(libs, "/opt/conda/lib/python3.10/site-packages/nvidia/cudnn/lib/libcudnn.so.9");
  ASSERT_NE(wheel, nullptr);
  EXPECT_EQ(wheel->found_in, "pip");
  EXPECT_EQ(wheel->version, std::optional<std::string>("9.1.0.70"));
  EXPECT_FALSE(wheel->loader_pick);
}

TEST(NvidiaFabric, NvSwitchesFabricManagerAndDxg) {
  test::TempTree t;
  // HGX H200 of bigstack-oss/cubecos#259: `05:00.0 Bridge [0680]: NVIDIA Corporation GH100
  // [H100 NVSwitch] [10de:22a3] (rev a1) (driver: nvidia-nvswitch)`.
  t.write("sys/bus/pci/devices/0000:05:00.0/vendor", "0x10de\n");
  t.write("sys/bus/pci/devices/0000:05:00.0/device", "0x22a3\n");
  t.write("sys/bus/pci/devices/0000:05:00.0/class", "0x068000\n");
  link(t, "../../../bus/pci/drivers/nvidia-nvswitch", "sys/bus/pci/devices/0000:05:00.0/driver");
  // The GPU beside it, class 0302: not a switch.
  t.write("sys/bus/pci/devices/0000:5d:00.0/vendor", "0x10de\n");
  t.write("sys/bus/pci/devices/0000:5d:00.0/device", "0x2335\n");
  t.write("sys/bus/pci/devices/0000:5d:00.0/class", "0x030200\n");
  t.write("var/lib/dpkg/status",
          "Package: nvidia-fabricmanager-550\nStatus: install ok installed\nVersion: 550.90.07-1\n");
  t.write("usr/lib/systemd/system/nvidia-fabricmanager.service", "");
  link(t, "/usr/lib/systemd/system/nvidia-fabricmanager.service",
       "etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service");
  t.write("dev/null", "");

  const Root root(t.path());
  const Environment env;
  NvidiaSystem s;
  probe_nvidia_fabric(ProbeContext{root, env, false}, root, s);
  ASSERT_EQ(s.nvswitches.size(), 1u);
  EXPECT_EQ(s.nvswitches[0].address, "0000:05:00.0");
  EXPECT_EQ(s.nvswitches[0].device_id, 0x22a3);
  EXPECT_EQ(s.nvswitches[0].driver, std::optional<std::string>("nvidia-nvswitch"));
  ASSERT_TRUE(s.fabricmanager);
  EXPECT_EQ(s.fabricmanager->version, std::optional<std::string>("550.90.07"));
  EXPECT_EQ(s.fabricmanager->package, std::optional<std::string>("nvidia-fabricmanager-550"));
  EXPECT_EQ(s.fabricmanager->enabled, std::optional<bool>(true));
  EXPECT_FALSE(s.fabricmanager->running);  // no process list in the tree
  EXPECT_EQ(s.dev_dxg, std::optional<bool>(false));  // /dev was listed, no dxg in it
}

}  // namespace
}  // namespace gpudoctor
