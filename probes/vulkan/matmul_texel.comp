#version 450
// gpudoctor's Vulkan matmul for CPU devices (lavapipe): C = A·B for row-major fp32 matrices whose
// size n is a multiple of 128 (the host pads with zeros), rows `ld` floats apart (a multiple of
// 4). A and B are read through uniform texel buffers (RGBA32F, one vec4 a texel), C written to a
// storage buffer.
//
// Why this shape, measured on lavapipe (Mesa 22.3, LLVM 15, 256-bit): a CPU driver runs a work
// group's invocations as the lanes of one SIMD vector. Its storage-buffer loads go lane by lane,
// each with a bounds check and a branch, whether the address is the same for every lane or not;
// a texel fetch is one call that loads all lanes at once. So every operand comes from a texel
// fetch, and each fetch feeds as many multiply-adds as the registers allow: one invocation
// keeps a 32-row × 16-column block of C (RPI rows × CV vec4s, four columns each), the 8 lanes of
// a work group side by side along the row. Per step of four k: 4·CV fetches of B (each lane its
// own columns) and RPI fetches of A (the same texel for every lane: four k of one row), for
// 16·RPI·CV vector multiply-adds. The A operand comes from a fetch at a uniform address rather
// than a subgroup broadcast of one fetch per lane: lavapipe's broadcast cost more than the FMAs
// it fed. Against gpudoctor's FMA peak shader (fma_peak.comp) this ran 60-65 % at n = 512 and
// 1024, where the storage-buffer shader (matmul_direct.comp, still the fallback) ran 13 %.
//
// Work groups along x walk down the rows, so successive groups reuse one panel of B from cache.
// Compiled to SPIR-V at build time (CMakeLists.txt), embedded (cmake/embed_spirv.cmake).
#define LANES 8
#define RPI 32
#define CV 4
layout(local_size_x = LANES, local_size_y = 1, local_size_z = 1) in;

layout(binding = 0) uniform samplerBuffer matrix_a;
layout(binding = 1) uniform samplerBuffer matrix_b;
layout(std430, binding = 2) writeonly buffer MatrixC { vec4 c[]; };
layout(push_constant) uniform Sizes { int n; int ld; } sizes;

// Constant indices only (the macros spell every row out, no loop to unroll), so the
// accumulators stay in registers or spill slots, never in an array indexed per lane.
#define ZERO_ROW(r) acc[r][0] = vec4(0.0); acc[r][1] = vec4(0.0); acc[r][2] = vec4(0.0); acc[r][3] = vec4(0.0);
#define ZERO_EIGHT(r) ZERO_ROW(r) ZERO_ROW(r + 1) ZERO_ROW(r + 2) ZERO_ROW(r + 3) \
  ZERO_ROW(r + 4) ZERO_ROW(r + 5) ZERO_ROW(r + 6) ZERO_ROW(r + 7)

#define B_ROW(kk)                                                   \
  b[kk][0] = texelFetch(matrix_b, (k + kk) * ld4 + col4);           \
  b[kk][1] = texelFetch(matrix_b, (k + kk) * ld4 + col4 + LANES);   \
  b[kk][2] = texelFetch(matrix_b, (k + kk) * ld4 + col4 + 2 * LANES); \
  b[kk][3] = texelFetch(matrix_b, (k + kk) * ld4 + col4 + 3 * LANES);

#define MAC(r, j) acc[r][j] += av.x * b[0][j] + av.y * b[1][j] + av.z * b[2][j] + av.w * b[3][j];

#define ROW(r)                                                        \
  {                                                                   \
    const vec4 av = texelFetch(matrix_a, (row0 + r) * ld4 + k / 4);   \
    MAC(r, 0) MAC(r, 1) MAC(r, 2) MAC(r, 3)                           \
  }

#define EIGHT_ROWS(r) ROW(r) ROW(r + 1) ROW(r + 2) ROW(r + 3) ROW(r + 4) ROW(r + 5) ROW(r + 6) ROW(r + 7)

#define STORE_ROW(r)                                           \
  c[(row0 + r) * ld4 + col4] = acc[r][0];                      \
  c[(row0 + r) * ld4 + col4 + LANES] = acc[r][1];              \
  c[(row0 + r) * ld4 + col4 + 2 * LANES] = acc[r][2];          \
  c[(row0 + r) * ld4 + col4 + 3 * LANES] = acc[r][3];

#define STORE_EIGHT(r) STORE_ROW(r) STORE_ROW(r + 1) STORE_ROW(r + 2) STORE_ROW(r + 3) \
  STORE_ROW(r + 4) STORE_ROW(r + 5) STORE_ROW(r + 6) STORE_ROW(r + 7)

void main() {
  const int ld4 = sizes.ld / 4;
  const int row0 = int(gl_WorkGroupID.x) * RPI;
  const int col4 = int(gl_WorkGroupID.y) * LANES * CV + int(gl_LocalInvocationID.x);
  vec4 acc[RPI][CV];
  ZERO_EIGHT(0) ZERO_EIGHT(8) ZERO_EIGHT(16) ZERO_EIGHT(24)
  for (int k = 0; k < sizes.n; k += 4) {
    vec4 b[4][CV];
    B_ROW(0) B_ROW(1) B_ROW(2) B_ROW(3)
    EIGHT_ROWS(0) EIGHT_ROWS(8) EIGHT_ROWS(16) EIGHT_ROWS(24)
  }
  STORE_EIGHT(0) STORE_EIGHT(8) STORE_EIGHT(16) STORE_EIGHT(24)
}
