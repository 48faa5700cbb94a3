#pragma once
// Where the vendor BLAS libraries the bench runs as their own series (the speed a GPU really
// reaches, beside our own kernel's) may be, from
// what the file-reading probes found: the Python environments' wheels, the CUDA toolkits. The
// bench child tries them in order, then the plain sonames through the loader's own search.
#include <string>
#include <vector>

#include "model/snapshot.hpp"

namespace gpudoctor::bench {

struct VendorBlasPaths {
  std::vector<std::string> cublas;  ///< libcublas: pip wheels, the NVIDIA probe's finds,
                                    ///< toolkits, then sonames
  std::vector<std::string> mkl;     ///< libmkl_rt: Python environments' lib/, then sonames
  std::vector<std::string> rocblas;  ///< librocblas: ROCm's default directory, then sonames
};

VendorBlasPaths vendor_blas_paths(const Snapshot& snap);

/// The CPU BLAS sonames the loader finds on its own: OpenBLAS, then the reference-BLAS name
/// Debian's alternatives point at OpenBLAS (both export cblas_sgemm).
inline const std::vector<std::string> kOpenBlasLibraries = {"libopenblas.so.0", "libblas.so.3"};

/// CLBlast, the OpenCL BLAS (Debian: libclblast1).
inline const std::vector<std::string> kClblastLibraries = {"libclblast.so.1", "libclblast.so"};

}  // namespace gpudoctor::bench
