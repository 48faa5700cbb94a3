#pragma once
// From what the bench children measured to what `gpudoctor bench` reports: speed-ups over the
// CPU BLAS, expected peaks, PCIe links and warnings. Pure.
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "model/pci.hpp"

namespace gpudoctor::bench {

/// `series` as measured (the CPU BLAS is the one with api "blas", if any); `pci` from the PCI
/// probe, for the links. The CPU BLAS comes first in the result, the other series keep their
/// order.
BenchReport assemble_report(std::vector<BenchSeries> series, const std::optional<PciInfo>& pci,
                            std::vector<int> sizes);

/// When there are device series (not the CPU BLAS) and every one of them ran on a device its
/// API calls a CPU (PoCL, lavapipe): a note saying so, since their "speed-up" then compares
/// the processor with itself. nullopt otherwise.
std::optional<std::string> cpu_only_note(const BenchReport& report);

}  // namespace gpudoctor::bench
