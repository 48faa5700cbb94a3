#pragma once
// Clang offload bundles: the GPU code objects that HIP (ROCm) libraries carry in their
// .hip_fatbin section, one bundle per translation unit, aligned to 4096 bytes. Layouts from
// LLVM's own reader, llvm/lib/Object/OffloadBundle.cpp:
//
//   uncompressed: "__CLANG_OFFLOAD_BUNDLE__", u64 entry count, then per entry u64 offset
//                 (from the bundle's start), u64 size, u64 ID length, the ID
//                 ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", "host-x86_64-unknown-linux")
//   compressed:   "CCOB", u16 version, u16 method (zlib 0, zstd 1); version 2 then has u32 total
//                 size, version 3 u64 total size; version 1 records no total size. The entry
//                 IDs are inside the compressed data and are not read here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binary/byte_source.hpp"

namespace gpudoctor::binary {

struct BundleScan {
  std::vector<std::string> targets;  ///< AMD GPU target IDs: "gfx1030", "gfx90a:xnack-"; sorted
  std::vector<std::string> other_ids;  ///< entry IDs of other devices (not host), each once
  std::uint64_t bundles = 0;           ///< uncompressed bundles read
  std::uint64_t compressed = 0;        ///< compressed (CCOB) bundles: their targets are not read
  std::optional<std::string> error;    ///< where the walk stopped and why
};

/// Walks the bundles in [offset, offset + size) of `src`, from header to header, every count,
/// offset and length checked against the region first.
BundleScan scan_offload_bundles(const ByteSource& src, std::uint64_t offset, std::uint64_t size);

/// The AMD GPU target ID an offload entry ID names: "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" →
/// "gfx90a:xnack-", "hip-amdgcn-amd-amdhsa-gfx906" → "gfx906"; nullopt for other devices.
std::optional<std::string> amdgpu_target_id(std::string_view entry_id);

/// The processor of a target ID, without its features: "gfx90a:xnack-" → "gfx90a".
std::string_view gfx_processor(std::string_view target_id);

}  // namespace gpudoctor::binary
