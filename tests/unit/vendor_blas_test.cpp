// Where the bench looks for the vendor BLAS libraries it runs as their own series (issue 18 §2):
// the pip wheels of every Python environment, every CUDA toolkit, then the loader's own search.
#include "bench/vendor_blas.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpudoctor::bench {
namespace {

std::ptrdiff_t index_of(const std::vector<std::string>& v, const std::string& s) {
  auto it = std::find(v.begin(), v.end(), s);
  return it == v.end() ? -1 : it - v.begin();
}

TEST(VendorBlasPaths, WheelsThenToolkitsThenSonames) {
  Snapshot snap;
  snap.python = PythonInfo{};
  PythonEnv venv;
  venv.prefix = "/home/u/venv";
  venv.site_packages = {"/home/u/venv/lib/python3.11/site-packages"};
  snap.python->envs.push_back(venv);
  snap.nvidia = NvidiaSystem{};
  CudaToolkit tk12;
  tk12.path = "/usr/local/cuda-12.4";
  tk12.version = "12.4.131";
  CudaToolkit unknown;
  unknown.path = "/opt/cuda";
  snap.nvidia->toolkits = {tk12, unknown};
  CudaLibrary found;  // as the NVIDIA probe reports a conda environment's libcublas
  found.library = "cublas";
  found.name = "libcublas.so.12";
  found.path = "/opt/conda/lib/libcublas.so.12";
  found.found_in = "conda";
  CudaLibrary cudnn = found;
  cudnn.library = "cudnn";
  cudnn.path = "/opt/conda/lib/libcudnn.so.9";
  snap.nvidia->cuda_libraries = std::vector<CudaLibrary>{cudnn, found};

  const VendorBlasPaths p = vendor_blas_paths(snap);
  const std::string site = "/home/u/venv/lib/python3.11/site-packages";
  const auto wheel12 = index_of(p.cublas, site + "/nvidia/cublas/lib/libcublas.so.12");
  const auto wheel13 = index_of(p.cublas, site + "/nvidia/cu13/lib/libcublas.so.13");
  const auto toolkit = index_of(p.cublas, "/usr/local/cuda-12.4/lib64/libcublas.so.12");
  const auto soname = index_of(p.cublas, "libcublas.so.12");
  ASSERT_GE(wheel12, 0);
  ASSERT_GE(wheel13, 0);
  ASSERT_GE(toolkit, 0);
  EXPECT_LT(wheel12, toolkit);
  const auto conda = index_of(p.cublas, "/opt/conda/lib/libcublas.so.12");
  ASSERT_GE(conda, 0);
  EXPECT_LT(conda, toolkit);
  EXPECT_EQ(index_of(p.cublas, "/opt/conda/lib/libcudnn.so.9"), -1);
  EXPECT_LT(toolkit, soname);
  // A toolkit of version 12 is asked for its own soname only; one of unknown version for each.
  EXPECT_EQ(index_of(p.cublas, "/usr/local/cuda-12.4/lib64/libcublas.so.13"), -1);
  EXPECT_GE(index_of(p.cublas, "/opt/cuda/lib64/libcublas.so.11"), 0);
  EXPECT_GE(index_of(p.cublas, "/opt/cuda/lib64/libcublas.so.13"), 0);
  EXPECT_LT(index_of(p.mkl, "/home/u/venv/lib/libmkl_rt.so.2"), index_of(p.mkl, "libmkl_rt.so.2"));
  EXPECT_EQ(p.cublas.back(), "libcublas.so.11");
}

TEST(VendorBlasPaths, NothingFoundStillTriesTheSonames) {
  const VendorBlasPaths p = vendor_blas_paths(Snapshot{});
  EXPECT_EQ(p.cublas,
            (std::vector<std::string>{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"}));
  EXPECT_EQ(p.mkl, (std::vector<std::string>{"libmkl_rt.so.2", "libmkl_rt.so"}));
}

}  // namespace
}  // namespace gpudoctor::bench
