#version 450
// gpudoctor's Vulkan matmul for CPU devices (lavapipe, SwiftShader): C = A·B for row-major fp32
// matrices whose size n is a multiple of 32 (the host pads with zeros), rows `ld` floats apart
// (a multiple of 4). No shared memory and no barrier: a CPU driver runs a work group's
// invocations as the lanes of one SIMD loop, and every barrier splits that loop. Each invocation
// keeps an RPI×4 block of C in registers and reads A and B as vec4, four k at a time; a work
// group covers RPI rows × CW·4 columns. Work groups along x walk down the rows, so successive
// groups reuse one panel of B from cache (at n = 2048: 12 GFLOPS, against 5 with x across the
// columns). On lavapipe (LLVM 15, 256-bit) this ran 14 GFLOPS at n = 256 where the tiled
// shared-memory shader (matmul_tiled.comp) ran 0.7. Compiled to SPIR-V at build time
// (CMakeLists.txt) and embedded in the binary (cmake/embed_spirv.cmake).
#define CW 8
#define RPI 8
layout(local_size_x = CW, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) readonly buffer MatrixA { vec4 a[]; };
layout(std430, binding = 1) readonly buffer MatrixB { vec4 b[]; };
layout(std430, binding = 2) writeonly buffer MatrixC { vec4 c[]; };
layout(push_constant) uniform Sizes { int n; int ld; } sizes;

void main() {
  const int col4 = int(gl_WorkGroupID.y) * CW + int(gl_LocalInvocationID.x);  // columns 4·col4 …
  const int row0 = int(gl_WorkGroupID.x) * RPI;
  const int ld4 = sizes.ld / 4;
  vec4 acc[RPI];
  for (int w = 0; w < RPI; ++w) acc[w] = vec4(0.0);
  for (int k = 0; k < sizes.n; k += 4) {
    const vec4 b0 = b[k * ld4 + col4], b1 = b[(k + 1) * ld4 + col4];
    const vec4 b2 = b[(k + 2) * ld4 + col4], b3 = b[(k + 3) * ld4 + col4];
    for (int w = 0; w < RPI; ++w) {
      const vec4 av = a[(row0 + w) * ld4 + k / 4];
      acc[w] += av.x * b0 + av.y * b1 + av.z * b2 + av.w * b3;
    }
  }
  for (int w = 0; w < RPI; ++w) c[(row0 + w) * ld4 + col4] = acc[w];
}
