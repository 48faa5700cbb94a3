#pragma once
// Timing buffer copies, the same way for every API.
#include <chrono>
#include <cstddef>
#include <optional>

namespace gpudoctor::bench {

/// Copy rates are timed on buffers this large (or the device's largest allocation, if smaller):
/// big enough that per-call overhead is noise, small enough for any device and a CPU driver.
inline constexpr std::size_t kCopyBytes = std::size_t{64} << 20;
inline constexpr int kCopyRepeats = 5;

/// GB/s (10⁹ bytes/s) of `copy`, which moves `bytes` and returns only once they arrived (false
/// on failure). One untimed call first; nullopt if any call fails.
template <typename Copy>
std::optional<double> copy_gbs(std::size_t bytes, Copy&& copy) {
  if (!copy()) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCopyRepeats; ++i) {
    if (!copy()) return std::nullopt;
  }
  const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
  if (!(spent.count() > 0)) return std::nullopt;
  return static_cast<double>(bytes) * kCopyRepeats / spent.count() / 1e9;
}

}  // namespace gpudoctor::bench
