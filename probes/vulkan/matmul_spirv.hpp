#pragma once
// The Vulkan matmul shader (probes/vulkan/matmul.comp) as SPIR-V words, compiled at build time
// and embedded (cmake/embed_spirv.cmake), so that gpudoctor needs no shader compiler at run time.
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpudoctor::vulkan {

/// Little-endian SPIR-V, as glslangValidator wrote it; the host is little-endian too.
std::vector<std::uint32_t> matmul_spirv();

/// The shader's work group: TS×(TS/WPT) invocations computing a TS×TS tile of C.
inline constexpr int kMatmulTile = 16;
inline constexpr int kMatmulWorkGroupInvocations = 64;
inline constexpr unsigned kMatmulSharedBytes = 16 * 17 * 4 + 16 * 16 * 4;

}  // namespace gpudoctor::vulkan
