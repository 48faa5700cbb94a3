/* A librocblas at the rocBLAS C ABI, for tests: rocblas_sgemm computes the product on the CPU,
 * column-major as rocBLAS does, from the "device" memory of the fake libamdhip64 (plain host
 * memory); its version string says it is a fake, so no figure it gives passes for a GPU's.
 * Prototypes and values as in rocBLAS's library/include/internal/rocblas-{types,auxiliary,
 * functions}.h (https://github.com/ROCm/rocBLAS). Build variants:
 *   FAKE_ROCBLAS_CREATE_RESULT=N  rocblas_create_handle returns N
 *   FAKE_ROCBLAS_ROW_MAJOR        reads and writes row-major: a wrong product for the bench
 */
#include <stddef.h>
#include <string.h>

typedef int rocblas_status;
typedef struct fake_rocblas_handle* rocblas_handle;

enum { kSuccess = 0, kInvalidHandle = 1, kInvalidPointer = 3, kInvalidSize = 4,
       kNotImplemented = 2 };
enum { kOperationNone = 111 };

static int g_handle;

rocblas_status rocblas_create_handle(rocblas_handle* handle) {
#if defined(FAKE_ROCBLAS_CREATE_RESULT)
  (void)handle;
  return FAKE_ROCBLAS_CREATE_RESULT;
#else
  if (handle == NULL) return kInvalidHandle;
  *handle = (rocblas_handle)&g_handle;
  return kSuccess;
#endif
}

rocblas_status rocblas_destroy_handle(rocblas_handle handle) {
  return handle == (rocblas_handle)&g_handle ? kSuccess : kInvalidHandle;
}

rocblas_status rocblas_get_version_string(char* buf, size_t len) {
  static const char kVersion[] = "fake (gpudoctor tests/fakes/rocm, computed on the CPU)";
  if (buf == NULL) return kInvalidPointer;
  if (len < sizeof kVersion) return kInvalidSize;
  memcpy(buf, kVersion, sizeof kVersion);
  return kSuccess;
}

rocblas_status rocblas_sgemm(rocblas_handle handle, int transa, int transb, int m, int n, int k,
                             const float* alpha, const float* a, int lda, const float* b, int ldb,
                             const float* beta, float* c, int ldc) {
  if (handle != (rocblas_handle)&g_handle) return kInvalidHandle;
  if (transa != kOperationNone || transb != kOperationNone) return kNotImplemented;
  if (alpha == NULL || beta == NULL || a == NULL || b == NULL || c == NULL) return kInvalidPointer;
  if (m < 0 || n < 0 || k < 0 || lda < m || ldb < k || ldc < m) return kInvalidSize;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) {
#if defined(FAKE_ROCBLAS_ROW_MAJOR)
        sum += a[i * lda + p] * b[p * ldb + j];
#else
        sum += a[p * lda + i] * b[j * ldb + p];
#endif
      }
#if defined(FAKE_ROCBLAS_ROW_MAJOR)
      float* out = &c[i * ldc + j];
#else
      float* out = &c[j * ldc + i];
#endif
      *out = *alpha * sum + (*beta == 0.0f ? 0.0f : *beta * *out);
    }
  }
  return kSuccess;
}
