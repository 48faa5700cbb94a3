#include "bench/vendor_blas.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace gpudoctor::bench {

namespace {

void add(std::vector<std::string>& to, std::string path) {
  if (std::find(to.begin(), to.end(), path) == to.end()) to.push_back(std::move(path));
}

/// "12.4" → 12.
std::optional<int> major_of(const std::optional<std::string>& version) {
  if (!version || version->empty() || !std::isdigit(static_cast<unsigned char>((*version)[0]))) {
    return std::nullopt;
  }
  return std::stoi(*version);
}

}  // namespace

VendorBlasPaths vendor_blas_paths(const Snapshot& snap) {
  VendorBlasPaths out;
  // The wheels' directories and sonames as NVIDIA's own loader helper lists them
  // (cuda-python, cuda_pathfinder/_dynamic_libs/supported_nvidia_libs.py:
  // SITE_PACKAGES_LIBDIRS_LINUX_CTK["cublas"] and SUPPORTED_LINUX_SONAMES_CTK["cublas"]):
  // CUDA 13 wheels put libcublas.so.13 in nvidia/cu13/lib, CUDA 11 and 12 ones
  // (nvidia-cublas-cu11, -cu12) in nvidia/cublas/lib.
  const std::vector<std::string> sonames = {"libcublas.so.13", "libcublas.so.12",
                                            "libcublas.so.11"};
  if (snap.python) {
    for (const auto& env : snap.python->envs) {
      for (const auto& site : env.site_packages) {
        add(out.cublas, site + "/nvidia/cu13/lib/libcublas.so.13");
        add(out.cublas, site + "/nvidia/cublas/lib/libcublas.so.12");
        add(out.cublas, site + "/nvidia/cublas/lib/libcublas.so.11");
      }
      // pip's and conda's mkl put libmkl_rt in the environment's lib/ (a --user install in
      // ~/.local/lib): https://github.com/kylebystrom/pawpyseed/issues/17,
      // https://github.com/davisking/dlib/issues/587
      add(out.mkl, env.prefix + "/lib/libmkl_rt.so.2");
      add(out.mkl, env.prefix + "/lib/libmkl_rt.so");
    }
  }
  if (snap.nvidia) {
    // Every libcublas the NVIDIA probe found (loader directories, toolkits, conda, pip wheels),
    // the loader's own pick first: what a framework without its own rpath would get.
    if (const auto& libs = snap.nvidia->cuda_libraries) {
      for (bool pick : {true, false}) {
        for (const auto& l : *libs) {
          if (l.library == "cublas" && l.loader_pick == pick) add(out.cublas, l.path);
        }
      }
    }
    for (const auto& tk : snap.nvidia->toolkits) {
      if (auto major = major_of(tk.version)) {
        add(out.cublas, tk.path + "/lib64/libcublas.so." + std::to_string(*major));
      } else {
        for (const auto& so : sonames) add(out.cublas, tk.path + "/lib64/" + so);
      }
    }
  }
  for (const auto& so : sonames) add(out.cublas, so);
  add(out.mkl, "libmkl_rt.so.2");
  add(out.mkl, "libmkl_rt.so");
  // rocBLAS's sonames: .so.5 from ROCm 7
  // (https://archlinux.org/packages/extra/x86_64/rocblas/sonames),
  // .so.4 in ROCm 6 (rocsolver 6.2.4 links it:
  // https://archlinux.org/packages/extra/x86_64/rocsolver/sonames), .so.0 in Debian's and
  // Ubuntu's 5.5 build (https://packages.ubuntu.com/questing/amd64/librocblas0); in ROCm's
  // default directory first, then through the loader's search.
  const char* const rocblas[] = {"librocblas.so.5", "librocblas.so.4", "librocblas.so.0"};
  for (const char* so : rocblas) add(out.rocblas, std::string("/opt/rocm/lib/") + so);
  for (const char* so : rocblas) add(out.rocblas, so);
  return out;
}

}  // namespace gpudoctor::bench
