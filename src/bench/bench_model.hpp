#pragma once
// What `gpudoctor bench` measures, as plain data: what an isolated bench child sends back
// (BenchSeries) and what the pure code derives from it (BenchReport). docs/bench.md documents
// the JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/probe_outcome.hpp"

namespace gpudoctor {

/// One matmul size on one device: `repeats` runs after a warm-up, each timed on its own by the
/// wall clock (src/smoke/timed_runs.hpp); `ms` and `gflops` are the best of them.
struct BenchPoint {
  int n = 0;
  std::optional<double> ms;
  std::optional<double> gflops;  ///< 2n³ / time
  std::optional<int> repeats;
  std::optional<double> median_ms;
  std::optional<double> spread_percent;  ///< (slowest − best) / best × 100
  std::optional<std::string> error;       ///< why this size has no time
  std::optional<double> speedup_vs_cpu;   ///< derived: this device's GFLOPS / the CPU BLAS's
  std::optional<double> percent_of_peak;  ///< derived: GFLOPS / the expected peak × 100
  std::optional<double> percent_of_measured_peak;  ///< derived: GFLOPS / the measured FMA rate
};
GPUDOCTOR_JSON(BenchPoint, n, ms, gflops, repeats, median_ms, spread_percent, error, speedup_vs_cpu,
               percent_of_peak, percent_of_measured_peak)

/// The fp32 rate a device sustained on gpudoctor's FMA peak shader (independent multiply-adds in
/// registers, probes/vulkan/fma_peak.comp): the ceiling its matmul is measured against.
struct MeasuredPeak {
  std::optional<double> gflops;
  std::string method;                ///< what ran
  std::optional<std::string> error;  ///< why there is no figure
};
GPUDOCTOR_JSON(MeasuredPeak, gflops, method, error)

/// Copy rates in GB/s (10⁹ bytes per second) for one buffer size.
struct Bandwidth {
  std::optional<std::uint64_t> bytes;
  std::optional<double> host_to_device_gbs;
  std::optional<double> device_to_host_gbs;
  std::optional<double> device_to_device_gbs;
  std::optional<std::string> error;
};
GPUDOCTOR_JSON(Bandwidth, bytes, host_to_device_gbs, device_to_host_gbs, device_to_device_gbs,
               error)

/// What the peak model needs about a device, as its own API reported it.
struct DeviceTraits {
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::string> type;             ///< "gpu", "cpu", "accelerator", "other"
  std::optional<std::uint32_t> compute_units;  ///< OpenCL compute units, CUDA multiprocessors
  std::optional<std::uint32_t> clock_mhz;
  std::optional<int> cc_major;  ///< NVIDIA compute capability
  std::optional<int> cc_minor;
  std::optional<std::string> pci_bus_id;  ///< "0000:01:00.0"
};
GPUDOCTOR_JSON(DeviceTraits, vendor_id, type, compute_units, clock_mhz, cc_major, cc_minor,
               pci_bus_id)

/// One device through one API (or the CPU through BLAS): the sweep and the copy rates.
struct BenchSeries {
  std::string api;  ///< "blas", "opencl", "vulkan", "cuda", "hip"
  std::string device;
  std::optional<std::string> library;  ///< the ICD, manifest or library that ran it
  std::optional<std::string> kernel;   ///< what ran: "cblas_sgemm", "OpenCL C 64×64 tiles"
  std::optional<std::string> blas;     ///< the library's SGEMM that ran ("CLBlast", "cuBLAS",
                                       ///< "OpenBLAS", "MKL"); null: gpudoctor's own kernel
  std::optional<std::string> error;    ///< why the device could not be benchmarked
  DeviceTraits traits;
  std::vector<BenchPoint> points;
  std::optional<Bandwidth> bandwidth;
  std::optional<MeasuredPeak> measured_peak;
};
GPUDOCTOR_JSON(BenchSeries, api, device, library, kernel, blas, error, traits, points, bandwidth,
               measured_peak)

/// What one bench child sends back.
struct BenchJobReport {
  std::vector<BenchSeries> series;
};
GPUDOCTOR_JSON(BenchJobReport, series)

/// The expected fp32 peak of a device from its reported properties.
struct PeakEstimate {
  double gflops = 0;
  std::string basis;   ///< "132 SM × 128 FP32 lanes × 2 (FMA) × 1980 MHz"
  std::string source;  ///< URL of the document the FLOPs-per-clock figure comes from
};
GPUDOCTOR_JSON(PeakEstimate, gflops, basis, source)

/// The PCIe link of a device, from the PCI probe, and what it allows per direction.
struct LinkEstimate {
  std::string address;
  std::optional<int> generation;
  std::optional<int> width;
  std::optional<int> max_generation;
  std::optional<int> max_width;
  std::optional<double> gbs;                     ///< at the current link
  std::optional<double> max_gbs;                 ///< at the card's own maximum
  std::optional<double> host_to_device_percent;  ///< measured host→device / gbs × 100
};
GPUDOCTOR_JSON(LinkEstimate, address, generation, width, max_generation, max_width, gbs, max_gbs,
               host_to_device_percent)

/// A series with everything derived from it.
struct BenchResult {
  BenchSeries series;
  std::optional<PeakEstimate> peak;
  std::optional<std::string> peak_unknown;  ///< why there is no peak
  std::optional<double> best_gflops;
  std::optional<int> best_n;
  std::optional<int>
      wins_from_n;  ///< the smallest n from which it beats the CPU BLAS at every size
  std::optional<LinkEstimate> link;
  std::vector<std::string> warnings;
  /// The device is judged on this series, so that a slow kernel of ours does not make a fast GPU
  /// look slow: the fastest of its series (gpudoctor's kernel, a vendor BLAS), or of the CPU
  /// BLAS libraries, the one the others are compared with.
  bool judged = false;
  int series_of_device = 1;  ///< how many series ran on the same device through the same API
};
GPUDOCTOR_JSON(BenchResult, series, peak, peak_unknown, best_gflops, best_n, wins_from_n, link,
               warnings, judged, series_of_device)

struct BenchReport {
  int schema_version = 1;
  std::string tool_version;
  std::vector<int> sizes;
  std::vector<BenchResult> results;  ///< the CPU BLAS first, then every device
  std::vector<ProbeOutcome> jobs;    ///< how each isolated bench child ended
};
GPUDOCTOR_JSON(BenchReport, schema_version, tool_version, sizes, results, jobs)

}  // namespace gpudoctor
