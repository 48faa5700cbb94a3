#pragma once
#include <cstddef>
#include <optional>
// `gpudoctor bench` for people: a GFLOPS table (devices × sizes, with the speed-up over the CPU
// BLAS), then per device its peak, copy rates, PCIe link and warnings.
#include <string>

#include "bench/bench_model.hpp"

namespace gpudoctor::bench {

/// With `width` (a terminal's columns), the table's device column is cut so that a row fits.
std::string render_text(const BenchReport& report, std::optional<std::size_t> width = std::nullopt);

}  // namespace gpudoctor::bench
