#pragma once
// What a caller asks of a device's matmul runner (probes/*/…_matmul.hpp): shared by every API.

namespace gpudoctor::smoke {

/// The n `gpudoctor check` uses: big enough to cover several tiles and work groups, small
/// enough that compile, run and the CPU reference stay well under a second on a CPU device.
inline constexpr int kCheckMatmulN = 256;

struct MatmulRequest {
  int n = kCheckMatmulN;  ///< C = A·B, all n×n fp32, row-major
  int repeats = 1;        ///< timed kernel runs; kernel_ms is the best of them
  bool verify = true;     ///< compare with the CPU reference (O(n³) in double: slow for big n)
};

}  // namespace gpudoctor::smoke
