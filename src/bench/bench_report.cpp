#include "bench/bench_report.hpp"

#include <algorithm>
#include <cstdio>

#include "bench/bench_math.hpp"
#include "bench/peak_model.hpp"
#include "devices.hpp"
#include "text.hpp"

namespace gpudoctor::bench {

namespace {

constexpr const char* kCpuApi = "blas";

std::string gbs_text(double gbs) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB/s", gbs);
  return buf;
}

const PciDevice* pci_device(const std::optional<PciInfo>& pci,
                            const std::optional<std::string>& address) {
  if (!pci || !address) return nullptr;
  auto want = normalize_pci_address(*address);
  for (const auto& d : pci->devices) {
    if (want && normalize_pci_address(d.address) == want) return &d;
  }
  return nullptr;
}

LinkEstimate link_of(const PciDevice& d, const std::optional<Bandwidth>& bw) {
  LinkEstimate l;
  l.address = d.address;
  l.generation = d.link_current.generation;
  l.width = d.link_current.width;
  l.max_generation = d.link_max.generation;
  l.max_width = d.link_max.width;
  l.gbs = pcie_link_gbs(l.generation, l.width);
  l.max_gbs = pcie_link_gbs(l.max_generation, l.max_width);
  if (bw) l.host_to_device_percent = percent(bw->host_to_device_gbs, l.gbs);
  return l;
}

/// An eGPU behind x4 or a card in a narrow or old slot stands out here.
void link_warnings(const LinkEstimate& l, const std::optional<Bandwidth>& bw,
                   std::vector<std::string>& out) {
  if (l.width && l.max_width && *l.width < *l.max_width) {
    std::string w = "the PCIe link runs at x" + std::to_string(*l.width) +
                    " while the card supports x" + std::to_string(*l.max_width);
    if (l.gbs) w += ": host↔device copies are capped at " + gbs_text(*l.gbs);
    out.push_back(w + " (an eGPU enclosure, a x" + std::to_string(*l.width) +
                  " slot, or lanes shared with another device)");
  }
  if (l.generation && l.max_generation && *l.generation < *l.max_generation) {
    // An idle GPU drops its link speed to save power; a copy rate above what the slow link
    // carries shows it came back up under load.
    const auto h2d = bw ? bw->host_to_device_gbs : std::nullopt;
    if (h2d && l.gbs && *h2d > *l.gbs) return;
    std::string w = "the PCIe link trained at Gen" + std::to_string(*l.generation) +
                    " while the card supports Gen" + std::to_string(*l.max_generation);
    if (l.gbs && l.max_gbs)
      w += " (" + gbs_text(*l.gbs) + " instead of " + gbs_text(*l.max_gbs) + ")";
    if (h2d) w += " and host→device copies ran at " + gbs_text(*h2d);
    out.push_back(w + "; check the slot, the riser and the BIOS PCIe speed setting");
  }
}

/// Far below its expected peak at the sizes large enough to judge.
void peak_warning(const BenchResult& r, std::vector<std::string>& out) {
  if (!r.peak) return;
  const BenchPoint* judged = nullptr;
  for (const auto& p : r.series.points) {
    if (p.n >= kJudgedFromN && p.percent_of_peak &&
        (judged == nullptr || *p.percent_of_peak > *judged->percent_of_peak)) {
      judged = &p;
    }
  }
  if (judged == nullptr || *judged->percent_of_peak >= kFarBelowPercent) return;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "runs far below what it should: %.1f GFLOPS at n=%d is %.2f %% of its expected "
                "%.0f GFLOPS (clocks held low, power or thermal throttling, or another process "
                "on the device)",
                *judged->gflops, judged->n, *judged->percent_of_peak, r.peak->gflops);
  out.push_back(buf);
}

bool same_device(const DeviceTraits& a, const DeviceTraits& b) {
  if (!a.pci_bus_id || !b.pci_bus_id) return false;
  auto pa = normalize_pci_address(*a.pci_bus_id);
  return pa && pa == normalize_pci_address(*b.pci_bus_id);
}

/// Vulkan reports no compute-unit count or clock; the same card's CUDA or OpenCL entry (joined
/// by PCI address) does, and the peak model needs them.
void share_traits(std::vector<BenchSeries>& series) {
  for (auto& s : series) {
    for (const auto& other : series) {
      if (&s == &other || !same_device(s.traits, other.traits)) continue;
      DeviceTraits& t = s.traits;
      if (!t.compute_units && !t.clock_mhz) {
        t.compute_units = other.traits.compute_units;
        t.clock_mhz = other.traits.clock_mhz;
      }
      if (!t.cc_major && !t.cc_minor) {
        t.cc_major = other.traits.cc_major;
        t.cc_minor = other.traits.cc_minor;
      }
    }
  }
}

BenchResult derive(BenchSeries s, const std::vector<BenchPoint>* cpu,
                   const std::optional<PciInfo>& pci) {
  BenchResult r;
  auto peak = expected_peak(s.traits, s.device);
  if (auto* p = std::get_if<PeakEstimate>(&peak)) {
    r.peak = *p;
  } else {
    r.peak_unknown = std::get<std::string>(peak);
  }
  for (auto& p : s.points) {
    if (cpu != nullptr && s.api != kCpuApi)
      p.speedup_vs_cpu = ratio(p.gflops, gflops_at(*cpu, p.n));
    if (r.peak) p.percent_of_peak = percent(p.gflops, r.peak->gflops);
    if (s.measured_peak) p.percent_of_measured_peak = percent(p.gflops, s.measured_peak->gflops);
  }
  if (const BenchPoint* best = best_point(s.points)) {
    r.best_gflops = best->gflops;
    r.best_n = best->n;
  }
  if (cpu != nullptr && s.api != kCpuApi) r.wins_from_n = wins_from(*cpu, s.points);
  if (const PciDevice* d = pci_device(pci, s.traits.pci_bus_id)) {
    r.link = link_of(*d, s.bandwidth);
    link_warnings(*r.link, s.bandwidth, r.warnings);
  }
  r.series = std::move(s);
  return r;
}

/// The CPU baseline: at each size the fastest of the CPU BLAS libraries (OpenBLAS, MKL), the
/// best a framework on this CPU would get.
std::vector<BenchPoint> fastest_cpu(const std::vector<BenchSeries>& series) {
  std::vector<BenchPoint> best;
  for (const auto& s : series) {
    if (s.api != kCpuApi) continue;
    for (const auto& p : s.points) {
      if (!p.gflops) continue;
      auto it = std::find_if(best.begin(), best.end(),
                             [&](const BenchPoint& b) { return b.n == p.n; });
      if (it == best.end()) {
        best.push_back(p);
      } else if (*p.gflops > *it->gflops) {
        *it = p;
      }
    }
  }
  std::sort(best.begin(), best.end(),
            [](const BenchPoint& a, const BenchPoint& b) { return a.n < b.n; });
  return best;
}

/// The series that ran on one device through one API (gpudoctor's kernel, CLBlast, cuBLAS), or
/// all the CPU BLAS libraries.
std::string device_key(const BenchSeries& s) {
  if (s.api == kCpuApi) return kCpuApi;
  return s.api + '\n' + s.device + '\n' + s.library.value_or("");
}

/// Marks the fastest series of each device as the one it is judged on, and warns on that one
/// alone: a device whose own kernel is slow but whose vendor BLAS runs well is healthy.
void judge(std::vector<BenchResult>& results) {
  for (auto& r : results) {
    const std::string key = device_key(r.series);
    BenchResult* best = nullptr;
    int count = 0;
    for (auto& other : results) {
      if (device_key(other.series) != key) continue;
      ++count;
      if (best == nullptr || other.best_gflops.value_or(-1) > best->best_gflops.value_or(-1)) {
        best = &other;
      }
    }
    r.series_of_device = count;
    r.judged = best == &r;
  }
  for (auto& r : results) {
    if (r.judged) peak_warning(r, r.warnings);
  }
}

}  // namespace

BenchReport assemble_report(std::vector<BenchSeries> series, const std::optional<PciInfo>& pci,
                            std::vector<int> sizes) {
  std::stable_partition(series.begin(), series.end(),
                        [](const BenchSeries& s) { return s.api == kCpuApi; });
  share_traits(series);
  const bool has_cpu = !series.empty() && series.front().api == kCpuApi;
  const std::vector<BenchPoint> cpu = fastest_cpu(series);
  BenchReport report;
  report.sizes = std::move(sizes);
  for (const auto& s : series) report.results.push_back(derive(s, has_cpu ? &cpu : nullptr, pci));
  judge(report.results);
  return report;
}

std::optional<std::string> cpu_only_note(const BenchReport& report) {
  std::vector<std::string> names;
  for (const auto& r : report.results) {
    if (r.series.api == "blas") continue;
    if (r.series.traits.type != "cpu") return std::nullopt;
    const std::string name = r.series.api + ": " + r.series.device;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (names.empty()) return std::nullopt;
  return "No GPU was benchmarked: every device here is a CPU device, a driver that runs on the "
         "processor (" + join(names, "; ") + "), so the speed-ups compare the CPU with itself.";
}

}  // namespace gpudoctor::bench
