#pragma once
// The Vulkan matmul shaders (probes/vulkan/matmul_tiled.comp for GPUs, matmul_direct.comp for
// CPU devices) as SPIR-V words, compiled at build time and embedded (cmake/embed_spirv.cmake),
// so that gpudoctor needs no shader compiler at run time; and the shape each is dispatched with.
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpudoctor::vulkan {

/// Little-endian SPIR-V, as glslangValidator wrote it; the host is little-endian too.
std::vector<std::uint32_t> matmul_tiled_spirv();
std::vector<std::uint32_t> matmul_direct_spirv();

/// One shader and how the host runs it: n is padded to a multiple of `tile`, and a work group
/// computes `group_rows` × `group_columns` of C with `invocations` invocations and
/// `shared_bytes` of shared memory. The host dispatches (padded / group_rows) ×
/// (padded / group_columns) groups: the direct shader's x walks down the rows; the tiled
/// shader's groups are square, so the two counts are the same.
struct MatmulShader {
  std::vector<std::uint32_t> (*spirv)();
  const char* description;
  int tile;
  int group_rows;
  int group_columns;
  std::uint32_t invocations;
  std::uint32_t shared_bytes;
};

/// TS = 16: 16×4 invocations, each 4 rows of one column; A and B slices staged in shared memory.
inline constexpr MatmulShader kTiledMatmul{
    matmul_tiled_spirv,
    "GLSL compute (SPIR-V), 16x16 shared-memory tiles, 4 rows per invocation",
    16,
    16,
    16,
    64,
    16 * 17 * 4 + 16 * 16 * 4};

/// CW = 8 invocations, each an 8×4 block (RPI = 8 rows, one vec4 of columns); no shared memory.
inline constexpr MatmulShader kDirectMatmul{
    matmul_direct_spirv,
    "GLSL compute (SPIR-V), 8x4 blocks per invocation read as vec4, no shared memory (CPU device)",
    32,
    8,
    32,
    8,
    0};

}  // namespace gpudoctor::vulkan
