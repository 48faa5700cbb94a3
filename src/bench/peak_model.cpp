#include "bench/peak_model.hpp"

#include <cstdio>

#include "api/cuda/cuda_cores.hpp"

namespace gpudoctor::bench {

namespace {

constexpr std::uint32_t kVendorNvidia = 0x10de;
constexpr std::uint32_t kVendorAmd = 0x1002;
constexpr std::uint32_t kVendorIntel = 0x8086;

// A fused multiply-add is two floating-point operations; every per-clock figure below counts
// FMA lanes and doubles them.
constexpr double kFlopsPerFma = 2;

constexpr const char* kCudaSource =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#arithmetic-instructions";
// Intel's "The Compute Architecture of Intel Processor Graphics Gen9" (2015), section 5.3.2: two
// SIMD-4 FPUs per EU, each with FMA (16 FP32 FLOPs per clock); Gen11 and Xe EUs keep eight FP32
// FMA lanes. A copy of the document:
constexpr const char* kIntelSource =
    "https://docslib.org/doc/12519002/the-compute-architecture-of-intel-processor-graphics-gen9-stephen-junkins";
// GCN (gfx6–gfx9): four SIMD16 per compute unit; RDNA 1–2 (gfx10): two SIMD32 per compute unit.
// Both are 64 FP32 FMA lanes per CU. RDNA 3 (gfx11) dual-issues, which a clock count cannot
// promise, so it is left unknown.
constexpr const char* kAmdSource = "https://www.amd.com/system/files/documents/rdna-whitepaper.pdf";

PeakEstimate estimate(std::uint32_t units, const char* unit_name, double fma_lanes,
                      std::uint32_t clock_mhz, const char* source) {
  PeakEstimate p;
  p.gflops = units * fma_lanes * kFlopsPerFma * clock_mhz / 1000.0;
  char basis[160];
  std::snprintf(basis, sizeof basis, "%u %s × %.0f FP32 lanes × 2 (FMA) × %u MHz", units, unit_name,
                fma_lanes, clock_mhz);
  p.basis = basis;
  p.source = source;
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
    auto cores = cuda_cores_per_multiprocessor(*t.cc_major, *t.cc_minor);
    if (!cores)
      return "FP32 cores per SM of compute capability " + std::to_string(*t.cc_major) + "." +
             std::to_string(*t.cc_minor) + " are not documented";
    return estimate(*t.compute_units, "SM", *cores, *t.clock_mhz, kCudaSource);
  }
  if (vendor == kVendorIntel && t.type && *t.type == "gpu") {
    return estimate(*t.compute_units, "EU", 8, *t.clock_mhz, kIntelSource);
  }
  if (vendor == kVendorAmd) {
    auto gfx = amd_gfx_major(name);
    if (gfx && *gfx >= 6 && *gfx <= 10) {
      return estimate(*t.compute_units, "CU", 64, *t.clock_mhz, kAmdSource);
    }
    return std::string("FP32 lanes per compute unit are known here only for gfx6–gfx10");
  }
  return std::string("no documented FP32 FLOPs per clock for this vendor");
}

}  // namespace gpudoctor::bench
