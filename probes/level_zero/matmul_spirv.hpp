#pragma once
// The Level Zero smoke kernel (probes/opencl/smoke_matmul.cl) as SPIR-V, compiled at build time
// with clang and llvm-spirv and embedded (cmake/embed_spirv.cmake), so that gpudoctor needs no
// compiler at run time. A build without those tools links matmul_spirv_none.cpp instead, whose
// empty module makes the smoke test say it was not examined.
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpudoctor::level_zero {

/// Little-endian SPIR-V words; empty when gpudoctor was built without a SPIR-V compiler.
std::vector<std::uint32_t> matmul_spirv();

/// The kernel's entry point in that module.
inline constexpr const char* kMatmulKernelName = "gpudoctor_sgemm";

}  // namespace gpudoctor::level_zero
