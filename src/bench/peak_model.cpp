#include "bench/peak_model.hpp"

#include <cstdio>

#include "compat/compat_query.hpp"

namespace gpudoctor::bench {

namespace {

constexpr std::uint32_t kVendorNvidia = 0x10de;
constexpr std::uint32_t kVendorAmd = 0x1002;
constexpr std::uint32_t kVendorIntel = 0x8086;

// A fused multiply-add is two floating-point operations; every per-clock figure below counts
// FMA lanes and doubles them.
constexpr double kFlopsPerFma = 2;

/// units × lanes × 2 × clock, with the row of data/compat/gpu_fp32_lanes.json it rests on.
PeakEstimate estimate(std::uint32_t units, const Fp32Lanes& row, std::uint32_t clock_mhz) {
  PeakEstimate p;
  p.gflops = units * double(row.lanes) * kFlopsPerFma * clock_mhz / 1000.0;
  char basis[160];
  std::snprintf(basis, sizeof basis, "%u %s × %d FP32 lanes × 2 (FMA) × %u MHz", units,
                row.unit.c_str(), row.lanes, clock_mhz);
  p.basis = basis;
  p.source = row.from.url;
  return p;
}

/// AMD's OpenCL names a device by its gfx target ("gfx906", "gfx1030"); the major part.
std::optional<int> amd_gfx_major(const std::optional<std::string>& name) {
  if (!name || name->rfind("gfx", 0) != 0 || name->size() < 4) return std::nullopt;
  const std::string digits = name->substr(3);
  // gfx906: one-digit major and two digits after it; gfx1030: two-digit major.
  const std::size_t major_len = digits.size() >= 4 ? 2 : 1;
  try {
    return std::stoi(digits.substr(0, major_len));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::variant<PeakEstimate, std::string> expected_peak(const DeviceTraits& t,
                                                      const std::optional<std::string>& name) {
  if (t.type && *t.type == "cpu") {
    return std::string("a CPU device does not report its SIMD width or FMA units per core");
  }
  if (!t.compute_units || !t.clock_mhz || *t.compute_units == 0 || *t.clock_mhz == 0) {
    return std::string("the driver reports no compute-unit count and clock");
  }
  const std::uint32_t vendor = t.vendor_id.value_or(0);
  if (vendor == kVendorNvidia) {
    if (!t.cc_major || !t.cc_minor) return std::string("the compute capability is not reported");
    auto row = nvidia_fp32_lanes(builtin_compat(), *t.cc_major, *t.cc_minor);
    if (!row)
      return "FP32 cores per SM of compute capability " + std::to_string(*t.cc_major) + "." +
             std::to_string(*t.cc_minor) + " are not documented";
    return estimate(*t.compute_units, *row, *t.clock_mhz);
  }
  const bool gpu = t.type && *t.type == "gpu";
  if (vendor == kVendorIntel) {
    if (auto row = vendor_fp32_lanes(builtin_compat(), "intel", std::nullopt, gpu)) {
      return estimate(*t.compute_units, *row, *t.clock_mhz);
    }
  }
  if (vendor == kVendorAmd) {
    if (auto row = vendor_fp32_lanes(builtin_compat(), "amd", amd_gfx_major(name), gpu)) {
      return estimate(*t.compute_units, *row, *t.clock_mhz);
    }
    return std::string("FP32 lanes per compute unit of this gfx target are not documented here");
  }
  return std::string("no documented FP32 FLOPs per clock for this vendor");
}

}  // namespace gpudoctor::bench
