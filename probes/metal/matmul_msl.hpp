#pragma once
// The smoke and bench matmul in the Metal Shading Language, compiled at run time by
// newLibraryWithSource:options:error: (no Xcode, no metallib at build time).
//
// C = A·B over n×n fp32 matrices, row-major, rows `ld` floats apart, n a multiple of the tile:
// the runner pads A and B with zeros (smoke/matmul_reference.hpp pad_matrix), so the padding
// adds nothing. Each threadgroup computes a kMatmulTile² block of C from tiles of A and B staged
// in threadgroup memory; each thread one entry.

namespace gpudoctor::metal {

inline constexpr int kMatmulTile = 16;
inline constexpr const char* kMatmulFunction = "gpudoctor_matmul";

/// buffer(3): the sizes, as the runner passes them with setBytes:.
struct MatmulSizes {
  unsigned int n;   ///< padded n: a multiple of kMatmulTile
  unsigned int ld;  ///< row stride in floats
};

inline constexpr const char* kMatmulSource = R"msl(
#include <metal_stdlib>
using namespace metal;

struct MatmulSizes { uint n; uint ld; };
constant constexpr uint TS = 16;

kernel void gpudoctor_matmul(device const float* a [[buffer(0)]],
                             device const float* b [[buffer(1)]],
                             device float* c [[buffer(2)]],
                             constant MatmulSizes& size [[buffer(3)]],
                             uint2 gid [[thread_position_in_grid]],
                             uint2 lid [[thread_position_in_threadgroup]]) {
  threadgroup float ta[TS][TS];
  threadgroup float tb[TS][TS];
  const uint row = gid.y;
  const uint col = gid.x;
  float acc = 0.0f;
  for (uint k0 = 0; k0 < size.n; k0 += TS) {
    ta[lid.y][lid.x] = a[row * size.ld + k0 + lid.x];
    tb[lid.y][lid.x] = b[(k0 + lid.y) * size.ld + col];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint k = 0; k < TS; ++k) acc = fma(ta[lid.y][k], tb[k][lid.x], acc);
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  c[row * size.ld + col] = acc;
}
)msl";

}  // namespace gpudoctor::metal
