#pragma once
// The cuBLAS entry points the bench calls, opened at run time (a CUDA toolkit's lib64, or the
// pip wheels nvidia-cublas-cu12 / nvidia-cublas). Prototypes and values as cublas_api.h of
// CUDA 12 declares them (the _v2 names are the exported symbols); nothing here needs that header
// or links the library.
#include <string>

namespace gpudoctor::cuda {

using CublasHandle = struct cublasContext*;
inline constexpr int kCublasSuccess = 0;  // CUBLAS_STATUS_SUCCESS
inline constexpr int kCublasOpN = 0;      // CUBLAS_OP_N

using CublasCreateFn = int(CublasHandle* handle);
using CublasDestroyFn = int(CublasHandle handle);
/// Column-major C = alpha·op(A)·op(B) + beta·C; pointers are device memory.
using CublasSgemmFn = int(CublasHandle handle, int trans_a, int trans_b, int m, int n, int k,
                          const float* alpha, const float* a, int lda, const float* b, int ldb,
                          const float* beta, float* c, int ldc);

/// "1 (CUBLAS_STATUS_NOT_INITIALIZED)": the cublasStatus_t values of cublas_api.h (CUDA 13.0).
inline std::string cublas_status_text(int status) {
  const char* name = nullptr;
  switch (status) {
    case 0: name = "CUBLAS_STATUS_SUCCESS"; break;
    case 1: name = "CUBLAS_STATUS_NOT_INITIALIZED"; break;
    case 3: name = "CUBLAS_STATUS_ALLOC_FAILED"; break;
    case 7: name = "CUBLAS_STATUS_INVALID_VALUE"; break;
    case 8: name = "CUBLAS_STATUS_ARCH_MISMATCH"; break;
    case 11: name = "CUBLAS_STATUS_MAPPING_ERROR"; break;
    case 13: name = "CUBLAS_STATUS_EXECUTION_FAILED"; break;
    case 14: name = "CUBLAS_STATUS_INTERNAL_ERROR"; break;
    case 15: name = "CUBLAS_STATUS_NOT_SUPPORTED"; break;
    case 16: name = "CUBLAS_STATUS_LICENSE_ERROR"; break;
    default: break;
  }
  return std::to_string(status) + (name ? std::string(" (") + name + ")" : std::string());
}

}  // namespace gpudoctor::cuda
