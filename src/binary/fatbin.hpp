#pragma once
// NVIDIA fatbinary containers (the .nv_fatbin section of a CUDA library): which GPU code they
// carry, read from the container and entry headers alone, hopping from header to header over
// the payloads. The layout is not documented by NVIDIA; it was read from open readers
// (n-eiling/cuda-fatbin-decompression, jiegec/fatbinary) and checked here against cuobjdump on
// libraries nvcc 13.0 built for chosen -gencode sets (tests/gpu_code_test.cpp).
//
//   container header (16 bytes): u32 magic 0xBA55ED50, u16 version (1), u16 header size,
//                                u64 size of the entries that follow
//   entry header (≥ 64 bytes):   u16 kind (1 PTX, 2 ELF/SASS, 8 LTO-IR), u16, u32 header size,
//                                u64 payload size, …, u32 arch @28 (90 for sm_90), …,
//                                u64 flags @40 (0x100000 arch-specific "a", 0x200000
//                                family-specific "f", 0x2000 / 0x8000 compressed payload)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "binary/byte_source.hpp"

namespace gpudoctor::binary {

inline constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;

struct FatbinScan {
  std::vector<std::string> sass;  ///< "sm_80", "sm_90a", "sm_100f": numeric order, each once
  std::vector<std::string> ptx;   ///< "compute_90"
  std::vector<std::string> lto;   ///< "lto_89": NVVM IR for link-time optimisation
  std::uint64_t containers = 0;   ///< fatbinary headers walked
  std::uint64_t entries = 0;
  std::uint64_t sass_entries = 0;  ///< cubins, as cuobjdump --list-elf counts them
  std::uint64_t ptx_entries = 0;   ///< as cuobjdump --list-ptx counts them
  std::uint64_t compressed_entries = 0;
  std::optional<std::string> error;  ///< where the walk stopped and why; what came before stays
};

/// Walks the fatbinary containers lying back to back (zero padding allowed between them) in
/// [offset, offset + size) of `src`. Every size is checked against the region before it is
/// used; the walk stops at the first inconsistency, or after fixed limits on containers and
/// entries, with an error.
FatbinScan scan_fatbins(const ByteSource& src, std::uint64_t offset, std::uint64_t size);

}  // namespace gpudoctor::binary
