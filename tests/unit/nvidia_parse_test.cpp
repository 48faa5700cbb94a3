// The `nvidia` backend's parsers, each on real inputs whose sources the comments name.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "parse/nvidia_kernel.hpp"
#include "parse/nvidia_toolkit.hpp"

namespace gpudoctor {
namespace {

// ---------------------------------------------------------------------------------------------
// /proc/driver/nvidia/version

TEST(NvidiaParse, NvrmProprietary) {
  // https://github.com/dylanaraps/neofetch/issues/876 (Ubuntu, 384.98)
  auto v = parse_nvrm_version(
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  384.98  Thu Oct 26 15:16:01 PDT 2017\n"
      "GCC version:  gcc version 7.2.0 (Ubuntu 7.2.0-8ubuntu3) \n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "384.98");
  EXPECT_EQ(v->flavor, "proprietary");
  EXPECT_EQ(v->arch, "x86_64");
  // https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4 (Ubuntu 24.04)
  v = parse_nvrm_version(
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "550.90.07");
}

TEST(NvidiaParse, NvrmOpen) {
  // https://github.com/nix-community/nixGL/issues/186 (Ubuntu 24.04, nvidia-driver-565-open)
  auto v = parse_nvrm_version(
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  "
      "(dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024\n"
      "GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)\n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "565.57.01");
  EXPECT_EQ(v->flavor, "open");
  EXPECT_EQ(v->arch, "x86_64");
  // https://github.com/nix-community/nixGL/issues/121 (Arch nvidia-open-dkms, trailing blanks)
  v = parse_nvrm_version(
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  525.60.11  Release Build  "
      "(archlinux-builder@localhost)  \nGCC version:  gcc version 12.2.0 (GCC) \n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "525.60.11");
  EXPECT_EQ(v->flavor, "open");
  // https://github.com/nix-community/nixGL/issues/139 (Jetson Orin NX, L4T 35.3.1)
  v = parse_nvrm_version(
      "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  35.3.1  Release Build  "
      "(buildbrain@mobile-u64-6289-d7000)  Sun Mar 19 08:09:33 PDT 2023\n"
      "GCC version:  gcc version 9.3.0 (Buildroot 2020.08) \n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "35.3.1");
  EXPECT_EQ(v->arch, "aarch64");
}

TEST(NvidiaParse, NvrmNotThatFile) {
  EXPECT_FALSE(parse_nvrm_version(""));
  EXPECT_FALSE(parse_nvrm_version("GCC version:  gcc version 12.2.0 (GCC)\n"));
  EXPECT_FALSE(parse_nvrm_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module\n"));
}

// ---------------------------------------------------------------------------------------------
// /proc/modules, SecureBoot, modprobe.d, /proc/cmdline, /etc/group, modes

TEST(NvidiaParse, ProcModules) {
  // `cat /proc/modules | grep nvidia` quoted in the Ubuntu Forums thread "Nvidia Question..."
  // (2005-08-04, post by Mishura).
  auto names = parse_proc_modules(
      "nvidia 3923452 24 - Live 0xf17e2000\n"
      "agpgart 33608 2 nvidia,intel_agp, Live 0xf1080000\n");
  EXPECT_EQ(names, (std::vector<std::string>{"nvidia", "agpgart"}));
  EXPECT_TRUE(parse_proc_modules("").empty());
}

TEST(NvidiaParse, SecureBootVariable) {
  // ArchWiki, "Unified Extensible Firmware Interface/Secure Boot": `od -An -t u1` of the
  // variable prints "6  0  0  0  1" when Secure Boot is on.
  EXPECT_EQ(parse_secure_boot_var(std::string("\x06\x00\x00\x00\x01", 5)), true);
  EXPECT_EQ(parse_secure_boot_var(std::string("\x06\x00\x00\x00\x00", 5)), false);
  EXPECT_EQ(parse_secure_boot_var(std::string("\x06\x00", 2)), std::nullopt);
}

TEST(NvidiaParse, ModprobeBlacklists) {
  // /etc/modprobe.d/nixos.conf from https://github.com/NixOS/nixpkgs/issues/286028
  const char* nixos =
      "blacklist usblp\nblacklist nouveau\nblacklist nvidiafb\n\n\n\n"
      "softdep nvidia post: nvidia-uvm\n";
  EXPECT_TRUE(modprobe_disables(nixos, "nouveau"));
  EXPECT_FALSE(modprobe_disables(nixos, "nvidia"));
  EXPECT_FALSE(modprobe_disables(nixos, "nvidia_uvm"));
  // negativo17's nvidia.conf (https://github.com/negativo17/nvidia-driver, nvidia.conf)
  EXPECT_TRUE(modprobe_disables("# Nvidia modules options\nblacklist nouveau\n"
                                "#options nvidia-drm modeset=1\n",
                                "nouveau"));
  EXPECT_FALSE(modprobe_disables("#blacklist nouveau\noptions nouveau modeset=0\n", "nouveau"));
}

TEST(NvidiaParse, CmdlineNouveau) {
  // Fedora 29 from https://github.com/negativo17/nvidia-driver/issues/73: blacklisted only in
  // the initramfs, so nouveau still loaded.
  const char* fedora =
      "BOOT_IMAGE=/vmlinuz-4.20.6-200.fc29.x86_64 root=UUID=8c7955f0-077d-403e-9ea7-c14b48f660d7 "
      "ro rootflags=subvol=root rd.driver.blacklist=nouveau";
  EXPECT_EQ(cmdline_params_for(fedora, "nouveau"),
            (std::vector<std::string>{"rd.driver.blacklist=nouveau"}));
  // A Fedora 44 /proc/cmdline excerpt quoted in a public troubleshooting log (the driver
  // blacklisted both ways, nouveau loaded regardless).
  EXPECT_EQ(cmdline_params_for("rd.driver.blacklist=nouveau,nova_core "
                               "modprobe.blacklist=nouveau,nova_core",
                               "nouveau"),
            (std::vector<std::string>{"rd.driver.blacklist=nouveau,nova_core",
                                      "modprobe.blacklist=nouveau,nova_core"}));
  // The kernel-parameter form of nvidia-installer's "options nouveau modeset=0".
  EXPECT_EQ(cmdline_params_for("quiet nouveau.modeset=0", "nouveau"),
            (std::vector<std::string>{"nouveau.modeset=0"}));
  EXPECT_TRUE(cmdline_params_for("quiet splash", "nouveau").empty());
}

TEST(NvidiaParse, GroupFileAndModes) {
  auto groups = parse_group_file("root:x:0:\nvideo:x:44:alice,bob\nrender:x:105:\nbroken\n");
  EXPECT_EQ(groups.at(44), "video");
  EXPECT_EQ(groups.at(105), "render");
  EXPECT_EQ(groups.size(), 3u);
  EXPECT_EQ(mode_string(0020666), "crw-rw-rw-");  // /dev/nvidiactl on a stock driver install
  EXPECT_EQ(mode_string(0040755), "drwxr-xr-x");
  EXPECT_EQ(mode_string(0020660), "crw-rw----");
}

// ---------------------------------------------------------------------------------------------
// Toolkit files

TEST(NvidiaParse, VersionJson) {
  // /usr/local/cuda-11.5/version.json from a public WSL2 setup log (excerpt), and CUDA 12.6.3's
  // from a public toolchain capture (head of the file).
  auto v = parse_cuda_version_json(R"j({
   "cuda" : { "name" : "CUDA SDK", "version" : "11.5.2" },
   "cuda_cudart" : { "name" : "CUDA Runtime (cudart)", "version" : "11.5.117" },
   "libcublas" : { "name" : "CUDA cuBLAS", "version" : "11.7.4.6" },
   "nvidia_fs" : { "name" : "NVIDIA file-system", "version" : "2.9.5" }
})j");
  EXPECT_EQ(v.at("cuda"), "11.5.2");
  EXPECT_EQ(v.at("cuda_cudart"), "11.5.117");
  EXPECT_EQ(v.at("libcublas"), "11.7.4.6");
  v = parse_cuda_version_json(R"j({ "cuda" : { "name" : "CUDA SDK", "version" : "12.6.20241114" },
   "cuda_nvcc" : { "name" : "CUDA NVCC", "version" : "12.6.85" } })j");
  EXPECT_EQ(v.at("cuda"), "12.6.20241114");
  EXPECT_TRUE(parse_cuda_version_json("CUDA Version 10.2.89").empty());
  EXPECT_TRUE(parse_cuda_version_json("{ \"cuda\" : ").empty());
}

TEST(NvidiaParse, VersionTxt) {
  // "cat /usr/local/cuda/version.txt -> CUDA Version 9.0.176", CUDA 9.0 from the runfile
  // cuda_9.0.176_384.81_linux-run (https://medium.com/repro-repo/install-cuda-and-cudnn-for-
  // tensorflow-gpu-on-ubuntu-79306e4ac04e).
  EXPECT_EQ(parse_cuda_version_txt("CUDA Version 9.0.176\n"), "9.0.176");
  EXPECT_EQ(parse_cuda_version_txt("{}"), std::nullopt);
}

TEST(NvidiaParse, NvccVersion) {
  // This machine's /usr/local/cuda-13.0/bin/nvcc.
  EXPECT_EQ(parse_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\n"
                               "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                               "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
                               "Cuda compilation tools, release 13.0, V13.0.88\n"
                               "Build cuda_13.0.r13.0/compiler.36424714_0\n"),
            "13.0.88");
  // https://github.com/FahimFBA/CUDA-WSL2-Ubuntu/issues/3 (Ubuntu's nvidia-cuda-toolkit)
  EXPECT_EQ(parse_nvcc_version("Cuda compilation tools, release 11.5, V11.5.119\n"
                               "Build cuda_11.5.r11.5/compiler.30672275_0\n"),
            "11.5.119");
  EXPECT_EQ(parse_nvcc_version("Cuda compilation tools, release 10.0\n"), "10.0");
  EXPECT_EQ(parse_nvcc_version("bash: nvcc: command not found\n"), std::nullopt);
}

TEST(NvidiaParse, Headers) {
  // The defines of this machine's CUDA 13.0 headers (cuDNN 9.19 and NCCL 2.28.9 wheels).
  EXPECT_EQ(parse_cudnn_header("#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR 9\n"
                               "#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n\n"
                               "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + "
                               "CUDNN_PATCHLEVEL)\n"),
            "9.19.0");
  EXPECT_EQ(parse_nccl_header("#define NCCL_MAJOR 2\n#define NCCL_MINOR 28\n#define NCCL_PATCH 9\n"
                              "#define NCCL_SUFFIX \"\"\n\n#define NCCL_VERSION_CODE 22809\n"),
            "2.28.9");
  EXPECT_EQ(parse_cublas_header("#define CUBLAS_VER_MAJOR 13\n#define CUBLAS_VER_MINOR 1\n"
                                "#define CUBLAS_VER_PATCH 0\n#define CUBLAS_VER_BUILD 3\n"),
            "13.1.0.3");
  EXPECT_EQ(parse_cuda_version_macro("#define CUDA_VERSION 13000\n", "CUDA_VERSION"), "13.0");
  EXPECT_EQ(parse_cuda_version_macro("#define CUDART_VERSION  12040\n", "CUDART_VERSION"),
            "12.4");
  // cuDNN 7 kept its version in cudnn.h (the same medium.com article as above).
  EXPECT_EQ(parse_cudnn_header("#define CUDNN_MAJOR 7\n#define CUDNN_MINOR 0\n"
                               "#define CUDNN_PATCHLEVEL 5\n"),
            "7.0.5");
  EXPECT_EQ(parse_cudnn_header("#define CUDNN_MAJOR 9\n"), std::nullopt);
}

TEST(NvidiaParse, PackagesAndLibraryNames) {
  // Wheel METADATA of this machine's nvidia-cuda-runtime 13.0.96.
  EXPECT_EQ(parse_wheel_metadata_version("Metadata-Version: 2.4\nName: nvidia-cuda-runtime\n"
                                         "Version: 13.0.96\nSummary: CUDA Runtime native "
                                         "Libraries\n"),
            "13.0.96");
  auto w = parse_dist_info_name("nvidia_cudnn_cu12-9.1.0.70.dist-info");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->name, "nvidia_cudnn_cu12");
  EXPECT_EQ(w->version, "9.1.0.70");
  EXPECT_EQ(wheel_base_name("nvidia_cudnn_cu12"), "nvidia_cudnn");
  EXPECT_EQ(wheel_base_name("nvidia-nccl-cu13"), "nvidia_nccl");
  EXPECT_EQ(wheel_base_name("nvidia_cuda_runtime"), "nvidia_cuda_runtime");
  // cudatoolkit=10.1.243=h6bb024c_0, a conda package of many public environment.yml files.
  auto c = parse_conda_meta_name("cudatoolkit-10.1.243-h6bb024c_0.json");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->name, "cudatoolkit");
  EXPECT_EQ(c->version, "10.1.243");
  c = parse_conda_meta_name("cuda-cudart-12.4.127-0.json");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->name, "cuda-cudart");
  EXPECT_EQ(c->version, "12.4.127");

  // libcuda1's files (https://github.com/vllm-project/vllm/pull/6864): libcuda.so.570.86.15
  EXPECT_EQ(library_name_version("libcuda.so.570.86.15", "libcuda.so"), "570.86.15");
  EXPECT_EQ(library_name_version("libcuda.so.1", "libcuda.so"), "1");
  EXPECT_EQ(library_name_version("libcuda.so", "libcuda.so"), std::nullopt);
  EXPECT_EQ(library_name_version("libcudart.so.13", "libcuda.so"), std::nullopt);
  EXPECT_EQ(best_library_version({"libcudart.so", "libcudart.so.12", "libcudart.so.12.6.77",
                                  "libcudart_static.a"},
                                 "libcudart.so"),
            "12.6.77");
  EXPECT_EQ(best_library_version({"libcudnn.so.8", "libcudnn.so.9"}, "libcudnn.so"), "9");
  EXPECT_TRUE(is_stub_path("/usr/local/cuda-11.8/targets/x86_64-linux/lib/stubs/libcuda.so"));
  EXPECT_FALSE(is_stub_path("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
}

}  // namespace
}  // namespace gpudoctor
