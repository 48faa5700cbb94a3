#include "api/cuda/cuda_cores.hpp"

namespace gpudoctor {

namespace {

struct CoresPerSm {
  int sm;  ///< 0xMm: major in the high nibble, minor in the low one, as the source writes it
  int cores;
};

// _ConvertSMVer2Cores in NVIDIA/cuda-samples Common/helper_cuda.h (the CUDA 13.0 samples:
// https://github.com/NVIDIA/cuda-samples/blob/master/Common/helper_cuda.h), the table deviceQuery
// prints "CUDA Cores/MP" from.
constexpr CoresPerSm kTable[] = {
    {0x30, 192}, {0x32, 192}, {0x35, 192}, {0x37, 192},  // Kepler
    {0x50, 128}, {0x52, 128}, {0x53, 128},               // Maxwell
    {0x60, 64},  {0x61, 128}, {0x62, 128},               // Pascal
    {0x70, 64},  {0x72, 64},                             // Volta, Xavier
    {0x75, 64},                                          // Turing
    {0x80, 64},  {0x86, 128}, {0x87, 128},               // Ampere
    {0x89, 128},                                         // Ada
    {0x90, 128},                                         // Hopper
    {0xa0, 128}, {0xa1, 128}, {0xa3, 128},               // Blackwell (sm_100, 101, 103)
    {0xb0, 128},                                         // sm_110
    {0xc0, 128}, {0xc1, 128},                            // sm_120, sm_121
};

}  // namespace

std::optional<int> cuda_cores_per_multiprocessor(int major, int minor) {
  if (major < 0 || minor < 0 || minor > 0xf) return std::nullopt;
  const int key = (major << 4) + minor;
  for (const auto& row : kTable) {
    if (row.sm == key) return row.cores;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
