#version 450
// gpudoctor's Vulkan matmul for GPUs: C = A·B for row-major fp32 matrices whose size n is a
// multiple of TS (the host pads with zeros), rows `ld` floats apart (CPU devices get
// matmul_direct.comp). Each work group
// computes a TS×TS tile of C, staging TS-deep slices of A and B in shared memory; each
// invocation keeps WPT rows of one column in registers. Compiled to SPIR-V at build time
// (CMakeLists.txt) and embedded in the binary (cmake/embed_spirv.cmake).
#define TS 16
#define WPT 4
layout(local_size_x = TS, local_size_y = TS / WPT, local_size_z = 1) in;

layout(std430, binding = 0) readonly buffer MatrixA { float a[]; };
layout(std430, binding = 1) readonly buffer MatrixB { float b[]; };
layout(std430, binding = 2) writeonly buffer MatrixC { float c[]; };
layout(push_constant) uniform Sizes { int n; int ld; } sizes;

shared float as[TS][TS + 1];  // +1: columns read across invocations hit different banks
shared float bs[TS][TS];

void main() {
  const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
  const int row0 = int(gl_WorkGroupID.y) * TS, col = int(gl_WorkGroupID.x) * TS + tx;
  const int ld = sizes.ld;
  float acc[WPT];
  for (int w = 0; w < WPT; ++w) acc[w] = 0.0;

  for (int k0 = 0; k0 < sizes.n; k0 += TS) {
    for (int w = 0; w < WPT; ++w) {
      const int r = ty * WPT + w;
      as[r][tx] = a[(row0 + r) * ld + k0 + tx];
      bs[r][tx] = b[(k0 + r) * ld + col];
    }
    memoryBarrierShared();
    barrier();
    for (int k = 0; k < TS; ++k) {
      const float bv = bs[k][tx];
      for (int w = 0; w < WPT; ++w) acc[w] = fma(as[ty * WPT + w][k], bv, acc[w]);
    }
    memoryBarrierShared();
    barrier();
  }
  for (int w = 0; w < WPT; ++w) c[(row0 + ty * WPT + w) * ld + col] = acc[w];
}
