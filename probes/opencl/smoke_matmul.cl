// gpudoctor's smoke matmul: C = A*B, fp32, one work item per row of C; it checks that a device
// computes the product, not how fast. The one source of the kernel for both APIs that take
// OpenCL C: OpenCL builds this text at run time (embedded by cmake/embed_text.cmake as
// opencl::kSmokeMatmulSource), Level Zero runs it as SPIR-V compiled at build time (clang
// -cl-std=CL1.2 -target spir64 -emit-llvm, then llvm-spirv: level_zero::matmul_spirv()).
// tests/fakes/level_zero runs the same loop on the CPU. Arguments as the bench kernel's
// (matmul_cl.hpp): n, the rows' stride ld in floats, then A, B, C.
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
