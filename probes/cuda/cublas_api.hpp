#pragma once
// The cuBLAS entry points the bench calls, opened at run time (a CUDA toolkit's lib64, or the
// pip wheels nvidia-cublas-cu12 / nvidia-cublas). Prototypes and values as cublas_api.h of
// CUDA 12 declares them (the _v2 names are the exported symbols); nothing here needs that header
// or links the library.
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

}  // namespace gpudoctor::cuda
