#pragma once
// The Vulkan shaders (probes/vulkan/matmul_tiled.comp for GPUs; matmul_texel.comp for CPU
// devices, matmul_direct.comp where their texel buffers are too small; fma_peak.comp) as SPIR-V
// words, compiled at build time and embedded (cmake/embed_spirv.cmake), so that gpudoctor needs
// no shader compiler at run time; and the shape each matmul is dispatched with.
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpudoctor::vulkan {

/// Little-endian SPIR-V, as glslangValidator wrote it; the host is little-endian too.
std::vector<std::uint32_t> matmul_tiled_spirv();
std::vector<std::uint32_t> matmul_direct_spirv();
std::vector<std::uint32_t> matmul_texel_spirv();
std::vector<std::uint32_t> fma_peak_spirv();

/// One shader and how the host runs it: n is padded to a multiple of `tile`, and a work group
/// computes `group_rows` × `group_columns` of C with `invocations` invocations and
/// `shared_bytes` of shared memory, A and B read as uniform texel buffers of RGBA32F when
/// `texel_inputs` (else all three are storage buffers). The host dispatches (padded / group_rows) ×
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
  bool texel_inputs = false;
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

/// 8 invocations, each a 32×16 block (RPI = 32 rows, CV = 4 vec4s of columns); A and B through
/// uniform texel buffers, no shared memory.
inline constexpr MatmulShader kTexelMatmul{
    matmul_texel_spirv,
    "GLSL compute (SPIR-V), 32x16 blocks per invocation, A and B read through texel buffers "
    "(CPU device)",
    128,
    32,
    128,
    8,
    0,
    true};

}  // namespace gpudoctor::vulkan
