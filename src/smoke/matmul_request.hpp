#pragma once
// What a caller asks of a device's matmul runner (probes/*/…_matmul.hpp): shared by every API.
#include <vector>

namespace gpudoctor::smoke {

/// The n `gpudoctor check` uses: big enough to cover several tiles and work groups, small
/// enough that compile, run and the CPU reference stay well under a second on a CPU device.
inline constexpr int kCheckMatmulN = 256;

struct MatmulRequest {
  int n = kCheckMatmulN;  ///< C = A·B, all n×n fp32, row-major
  int repeats = 1;        ///< at least this many timed runs; kernel_ms is the best of them
  bool verify = true;     ///< compare with the CPU reference (O(n³) in double: slow for big n)
  int max_repeats = 0;    ///< more timed runs while `budget_ms` lasts, up to this many
  double budget_ms = 0;   ///< time the runs beyond `repeats` may take together
  double cap_ms = 0;      ///< stop once the timed runs took this long, even short of `repeats`
                          ///< (a device far too slow for n); 0: no cap
  std::vector<double>* times_ms = nullptr;  ///< receives every timed run's time, if set: the device's where the API measures it (OpenCL profiling events), else the wall clock
};

}  // namespace gpudoctor::smoke
