#pragma once
// The rocBLAS entry points the bench calls (its SGEMM as a series of its own, the speed the GPU
// reaches with AMD's tuned kernels),
// opened at run time: no ROCm SDK at build time. Prototypes and values are those of rocBLAS's
// C headers: rocblas_create_handle / rocblas_destroy_handle in
// https://github.com/ROCm/rocBLAS/blob/develop/library/include/internal/rocblas-auxiliary.h,
// rocblas_sgemm in .../library/include/internal/rocblas-functions.h, and rocblas_operation
// (none = 111) and rocblas_status (success = 0 … check_numerics_fail = 13) in
// .../library/include/internal/rocblas-types.h. rocblas_int is int32_t (LP64 builds, the
// ones ROCm ships); rocBLAS is column-major, as BLAS is.
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpudoctor::hip {

struct RocblasHandleImpl;
using RocblasHandle = RocblasHandleImpl*;  ///< rocblas_handle: typedef struct _rocblas_handle*

inline constexpr int kRocblasSuccess = 0;         // rocblas_status_success
inline constexpr int kRocblasOperationNone = 111;  // rocblas_operation_none

using RocblasCreateFn = int(RocblasHandle* handle);
using RocblasDestroyFn = int(RocblasHandle handle);
/// rocblas_get_version_string (rocblas-functions.h): "4.2.0.…" into `buf`.
using RocblasVersionFn = int(char* buf, std::size_t len);
using RocblasSgemmFn = int(RocblasHandle handle, int transa, int transb, std::int32_t m,
                           std::int32_t n, std::int32_t k, const float* alpha, const float* a,
                           std::int32_t lda, const float* b, std::int32_t ldb, const float* beta,
                           float* c, std::int32_t ldc);

/// "1 (rocblas_status_invalid_handle)": the number and its name in rocblas-types.h.
inline std::string rocblas_status_text(int status) {
  static const char* const kNames[] = {
      "rocblas_status_success",          "rocblas_status_invalid_handle",
      "rocblas_status_not_implemented",  "rocblas_status_invalid_pointer",
      "rocblas_status_invalid_size",     "rocblas_status_memory_error",
      "rocblas_status_internal_error",   "rocblas_status_perf_degraded",
      "rocblas_status_size_query_mismatch", "rocblas_status_size_increased",
      "rocblas_status_size_unchanged",   "rocblas_status_invalid_value",
      "rocblas_status_continue",         "rocblas_status_check_numerics_fail"};
  const bool known = status >= 0 && status < static_cast<int>(sizeof kNames / sizeof kNames[0]);
  return std::to_string(status) + (known ? " (" + std::string(kNames[status]) + ")" : "");
}

}  // namespace gpudoctor::hip
