// gpudoctor's smoke matmul for Level Zero: C = A·B, fp32, one work item per row of C; the same
// kernel as OpenCL's smoke kernel (probes/opencl/matmul_cl.hpp, kSmokeMatmulSource). Compiled at
// build time to SPIR-V (clang -cl-std=CL1.2 -target spir64 -emit-llvm, then llvm-spirv) and
// embedded: level_zero_matmul_spirv(). tests/fakes/level_zero runs the same loop on the CPU.
__kernel void gpudoctor_sgemm(const int n, const int ld, __global const float* restrict a,
                              __global const float* restrict b, __global float* restrict c) {
  __global const float* a_row = a + get_global_id(0) * ld;
  __global float* c_row = c + get_global_id(0) * ld;
  for (int col = 0; col < n; ++col) c_row[col] = 0.0f;
  for (int k = 0; k < n; ++k) {
    const float a_k = a_row[k];
    __global const float* b_row = b + k * ld;
    for (int col = 0; col < n; ++col) c_row[col] = mad(a_k, b_row[col], c_row[col]);
  }
}
