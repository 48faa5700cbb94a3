#pragma once
// `gpudoctor bench` for people: a GFLOPS table (devices × sizes, with the speed-up over the CPU
// BLAS), then per device its peak, copy rates, PCIe link and warnings.
#include <string>

#include "bench/bench_model.hpp"

namespace gpudoctor::bench {

std::string render_text(const BenchReport& report);

}  // namespace gpudoctor::bench
