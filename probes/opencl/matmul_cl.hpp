#pragma once
// The OpenCL smoke and bench kernel: C = A·B for row-major fp32 matrices whose size n is a
// multiple of the tile (the host pads with zeros) and whose rows are `ld` floats apart (the host
// pads rows too: a stride of a power of two maps every row to the same cache set). Each work
// item keeps a WPT_M×VW block of C in registers, VW columns as one vector (vloadN), so every
// value loaded feeds several multiply-adds. Two ways to feed it, chosen with -D by
// opencl_matmul.cpp from CL_DEVICE_LOCAL_MEM_TYPE:
//  - local memory (GPUs): each work group computes a TS_M×TS_N tile of C, staging TS_K-deep
//    slices of A and B in local memory between barriers;
//  - GPUDOCTOR_DIRECT (CPUs, whose "local" memory is ordinary memory): straight from global
//    memory through the caches, no barriers. On PoCL this is ~8x faster than the local-memory
//    form, whose accumulators the barriers force out of registers.

namespace gpudoctor::opencl {

inline constexpr const char* kMatmulKernelName = "gpudoctor_sgemm";

inline constexpr const char* kMatmulSource = R"CLC(
#define RTS_N (TS_N / VW)
#define RTS_M (TS_M / WPT_M)
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define floatV XCAT(float, VW)
#define vloadV XCAT(vload, VW)
#define vstoreV XCAT(vstore, VW)

__kernel __attribute__((reqd_work_group_size(RTS_N, RTS_M, 1)))
void gpudoctor_sgemm(const int n, const int ld, __global const float* restrict a,
                     __global const float* restrict b, __global float* restrict c) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int row = get_group_id(1) * TS_M + ty * WPT_M;
  const int col = get_group_id(0) * TS_N + tx * VW;
  floatV acc[WPT_M];
  for (int m = 0; m < WPT_M; ++m) acc[m] = (floatV)(0.0f);

#ifdef GPUDOCTOR_DIRECT
  for (int k0 = 0; k0 < n; k0 += TS_K) {
#pragma unroll
    for (int k = k0; k < k0 + TS_K; ++k) {
      const floatV bv = vloadV(0, b + k * ld + col);
#pragma unroll
      for (int m = 0; m < WPT_M; ++m) acc[m] = mad((floatV)(a[(row + m) * ld + k]), bv, acc[m]);
    }
  }
#else
  __local float as[TS_K][TS_M];  /* A's slice, transposed: as[k][row in tile] */
  __local float bs[TS_K][TS_N];
  const int tid = ty * RTS_N + tx;
  const int row0 = get_group_id(1) * TS_M, col0 = get_group_id(0) * TS_N;
  for (int k0 = 0; k0 < n; k0 += TS_K) {
    for (int e = tid; e < TS_M * TS_K; e += RTS_N * RTS_M) {
      as[e % TS_K][e / TS_K] = a[(row0 + e / TS_K) * ld + k0 + e % TS_K];
    }
    for (int e = tid; e < TS_K * RTS_N; e += RTS_N * RTS_M) {
      const int k = e / RTS_N, j = (e % RTS_N) * VW;
      vstoreV(vloadV(0, b + (k0 + k) * ld + col0 + j), 0, &bs[k][j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TS_K; ++k) {
      const floatV bv = vloadV(0, &bs[k][tx * VW]);
#pragma unroll
      for (int m = 0; m < WPT_M; ++m) acc[m] = mad((floatV)(as[k][ty * WPT_M + m]), bv, acc[m]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif
  for (int m = 0; m < WPT_M; ++m) vstoreV(acc[m], 0, c + (row + m) * ld + col);
}
)CLC";

/// `gpudoctor check`'s smoke kernel: one work item per row of C, in work groups of one; each adds
/// a_ik · (row k of B) into its row for k in order, so every entry is summed in the reference's
/// order and the inner loop runs along contiguous memory. The smoke test asks whether the device
/// computes the product, not how fast. A cold PoCL compile is its front end and kernel library
/// (the same for any kernel) and then the work-group function for the launch's local size: for
/// the bench kernel's vectors, unrolled loops and 32-item groups that took 0.6-0.8 s, for this
/// one under 0.2 s, a quarter of the whole cold compile (bench/cold_check_bench.py). Same
/// arguments as the bench kernel.
/// Its text is probes/opencl/smoke_matmul.cl, embedded at build time (cmake/embed_text.cmake),
/// the file Level Zero's SPIR-V is compiled from: one kernel for both.
extern const char kSmokeMatmulSource[];

}  // namespace gpudoctor::opencl
