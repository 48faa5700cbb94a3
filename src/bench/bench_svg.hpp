#pragma once
// `gpudoctor bench --plot FILE.svg`: GFLOPS against matrix size, both axes logarithmic, one line
// per device (the CPU BLAS included), with a legend; a standalone SVG any browser shows.
#include <string>

#include "bench/bench_model.hpp"

namespace gpudoctor::bench {

/// Every result with at least one timed size becomes one <g class="series">.
std::string render_svg(const BenchReport& report);

}  // namespace gpudoctor::bench
