/* A libcublas at the cuBLAS ABI, for tests of the bench's cuBLAS series: the three entry points
 * gpudoctor calls, with the prototypes and status values of cublas_api.h (CUDA 13.0). It runs on
 * top of the fake libcuda (fake_cuda.c), whose device memory is host memory, so SGEMM is a plain
 * column-major loop on the CPU.
 *
 * Build variants (compile definitions):
 *   FAKE_CUBLAS_CREATE_RESULT=N  cublasCreate_v2 returns N (1: CUBLAS_STATUS_NOT_INITIALIZED,
 *                                what cuBLAS returns when it cannot set up on the device)
 *   FAKE_CUBLAS_ROW_MAJOR        SGEMM reads its operands row-major (transposed): the product of
 *                                a caller that forgets cuBLAS is column-major is wrong, and so is
 *                                this one's for a caller that gets it right
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct cublasContext* cublasHandle_t;
typedef int cublasStatus_t;

enum {
  kStatusSuccess = 0,
  kStatusNotInitialized = 1,
  kStatusInvalidValue = 7,
  kOpN = 0,
};

static int g_handle_token;

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
#if defined(FAKE_CUBLAS_CREATE_RESULT)
  (void)handle;
  return FAKE_CUBLAS_CREATE_RESULT;
#else
  if (handle == NULL) return kStatusInvalidValue;
  *handle = (cublasHandle_t)&g_handle_token;
  return kStatusSuccess;
#endif
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  return handle == (cublasHandle_t)&g_handle_token ? kStatusSuccess : kStatusNotInitialized;
}

/* C (m×n) = alpha·A (m×k)·B (k×n) + beta·C, column-major, no transposes. */
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                              const float* alpha, const float* a, int lda, const float* b,
                              int ldb, const float* beta, float* c, int ldc) {
  if (handle != (cublasHandle_t)&g_handle_token) return kStatusNotInitialized;
  if (transa != kOpN || transb != kOpN) return kStatusInvalidValue;
  if (m < 0 || n < 0 || k < 0 || lda < m || ldb < k || ldc < m || !alpha || !beta)
    return kStatusInvalidValue;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      float acc = 0.0f;
      for (int p = 0; p < k; ++p) {
#if defined(FAKE_CUBLAS_ROW_MAJOR)
        acc = fmaf(a[(size_t)i * lda + p], b[(size_t)p * ldb + j], acc);
#else
        acc = fmaf(a[i + (size_t)p * lda], b[p + (size_t)j * ldb], acc);
#endif
      }
      float* out = &c[i + (size_t)j * ldc];
      *out = *beta == 0.0f ? *alpha * acc : *alpha * acc + *beta * *out;
    }
  }
  return kStatusSuccess;
}
