// `sycl-ls` (intel/llvm sycl/tools/sycl-ls): one line per device, in three layouts over the years:
//   [opencl:0] GPU : Intel(R) OpenCL HD Graphics 3.0 [21.37.20939]                (2021-2022)
//   [ext_oneapi_level_zero:gpu:0] Intel(R) Level-Zero, Intel(R) Arc(TM) A770 Graphics 1.3 [1.3.26241]
//   [level_zero:gpu][level_zero:0] Intel(R) Level-Zero, Intel(R) Arc(TM) A770 Graphics 1.3 [1.3.26241]
// A list with no Level Zero GPU is the symptom data/messages/intel.json's sycl.no_level_zero_gpu
// names: SYCL programs, IPEX and torch's XPU build find no GPU through Level Zero.
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_sycl_ls = "sycl-ls";

struct SyclLsLine {
  std::string backend;  ///< "level_zero", "opencl", "cuda", "hip", "host", "native_cpu"
  std::string type;     ///< "gpu", "cpu", "acc", "fpga", "host", or "" where the line does not say
  std::string rest;     ///< "Intel(R) Level-Zero, Intel(R) Arc(TM) A770 Graphics 1.3 [1.3.26241]"
};

std::optional<SyclLsLine> sycl_ls_line(std::string_view text) {
  static const std::regex re(
      R"(^\[(?:ext_oneapi_)?(level_zero|opencl|cuda|hip|host|native_cpu)(?::(gpu|cpu|acc|fpga|host))?(?::\d+)?\](?:\[(?:ext_oneapi_)?[a-z_]+:\d+\])?\s*(?:(GPU|CPU|ACC|HOST)\s*:\s*)?(.*)$)");
  std::cmatch m;
  const std::string t(trim(text));
  if (!std::regex_match(t.c_str(), m, re)) return std::nullopt;
  SyclLsLine l;
  l.backend = m[1].str();
  l.type = m[2].matched ? m[2].str() : to_lower(m[3].str());
  l.rest = m[4].str();
  return l;
}

}  // namespace

void read_sycl_ls(PasteSink& sink) {
  const auto& lines = sink.lines();
  std::size_t first = lines.size();
  bool level_zero_gpu = false;
  std::string opencl_gpu;
  int count = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    auto l = sycl_ls_line(lines[i].text);
    if (!l) continue;
    if (first == lines.size()) first = i;
    ++count;
    sink.claim(i, kFormat_sycl_ls);
    sink.fact("sycl-ls." + l->backend + (l->type.empty() ? "" : ":" + l->type), l->rest, i);
    if (l->backend == "level_zero" && l->type == "gpu") level_zero_gpu = true;
    if (l->backend == "opencl" && l->type == "gpu" && opencl_gpu.empty()) opencl_gpu = l->rest;
  }
  if (count == 0 || level_zero_gpu) return;
  sink.symptom("sycl.no_level_zero_gpu", "sycl-ls", first,
               {{"opencl_gpu", opencl_gpu.empty() ? "none" : opencl_gpu}});
}

}  // namespace gpudoctor
