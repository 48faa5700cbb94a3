// CuPy's `cupy.show_config()` (cupyx.get_runtime_info()): "Name   : value" rows, whole or a
// slice of them. Its rows and their meaning: https://github.com/cupy/cupy/blob/main/cupyx/_runtime.py
// "CUDA Driver Version : 12020" is cuDriverGetVersion's number (the CUDA the driver supports);
// "CUDA Runtime Version" is the runtime CuPy loaded, or the error it raised (read as a message).
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_cupy = "cupy.show_config";

struct CupyRow {
  std::string key;
  std::string value;
};

/// "CUDA Driver Version          : 11000" → {"CUDA Driver Version", "11000"}; nullopt for a line
/// of another shape.
std::optional<CupyRow> cupy_row(std::string_view raw) {
  static const std::regex row(R"(^\s*([A-Za-z][A-Za-z0-9 ._/()-]*?)\s+: ?(.*)$)");
  std::smatch m;
  const std::string t(raw);
  if (!std::regex_match(t, m, row)) return std::nullopt;
  return CupyRow{m[1].str(), std::string(trim(m[2].str()))};
}

/// Rows only CuPy's runtime info prints: one of them makes a run of rows CuPy's.
bool cupy_own(std::string_view key) {
  return key == "CuPy Version" || key == "CuPy Platform" || key == "CUDA Build Version" ||
         key == "CUDA Driver Version" || key == "CUDA Runtime Version" || key == "CUB Build Version" ||
         key == "Thrust Version" || key == "cuTENSOR Version" || key == "NVRTC Version" ||
         key == "Jitify Build Version";
}

void read_cupy_row(PasteSink& sink, const CupyRow& r, std::size_t i) {
  static const std::regex device_name(R"(^Device (\d+) Name$)");
  static const std::regex device_cc(R"(^Device (\d+) Compute Capability$)");
  std::smatch m;
  const std::string first = r.value.substr(0, r.value.find(' '));
  if (r.key == "CuPy Version" && !no_value(r.value)) {
    add_listed_package(sink, "cupy", r.value, "", i);
  } else if (r.key == "CUDA Driver Version") {
    // The packed number CUDA's API returns; an error text instead is read by the messages.
    if (const auto v = parse_int(first); v && *v >= 1000 && *v < 100000) {
      NvmlInfo& n = sink.nvml();
      if (!n.cuda_driver_version) n.cuda_driver_version = static_cast<int>(*v);
      sink.fact("nvidia.cuda_max", first, i);
    }
  } else if (r.key == "CUDA Runtime Version" || r.key == "CUDA Build Version") {
    if (parse_int(first)) sink.fact(r.key == "CUDA Build Version" ? "cupy.cuda_build" : "cuda.runtime", first, i);
  } else if (r.key == "CUDA Root" && !no_value(r.value)) {
    sink.fact("cuda.root", r.value, i);
  } else if (r.key == "cuDNN Version" && !no_value(r.value)) {
    sink.fact("cudnn", r.value, i);
  } else if (std::regex_match(r.key, m, device_name)) {
    add_named_gpu(sink, static_cast<int>(parse_int(m[1].str()).value_or(0)), r.value, i);
  } else if (std::regex_match(r.key, m, device_cc)) {
    const int index = static_cast<int>(parse_int(m[1].str()).value_or(0));
    const auto cc = parse_int(first);  // "86"
    if (cc && *cc >= 10 && sink.snap.nvml) {
      for (auto& d : sink.snap.nvml->devices) {
        if (d.index != index) continue;
        d.cc_major = static_cast<int>(*cc / 10);
        d.cc_minor = static_cast<int>(*cc % 10);
        sink.fact("gpu.compute_capability", std::to_string(*cc / 10) + "." + std::to_string(*cc % 10), i);
      }
    }
  }
}

}  // namespace

void read_cupy_config(PasteSink& sink) {
  const auto& lines = sink.lines();
  std::size_t i = 0;
  while (i < lines.size()) {
    if (sink.claimed(i) || !cupy_row(lines[i].text)) {
      ++i;
      continue;
    }
    // The run of "Name : value" rows; a row a message reader took (a runtime error in the
    // value) stays in the run, whose other rows are still CuPy's.
    std::size_t end = i;
    int own = 0;
    while (end < lines.size()) {
      const auto r = cupy_row(lines[end].text);
      if (!r) break;
      if (!sink.claimed(end) && cupy_own(r->key)) ++own;
      if (sink.claimed(end) && sink.owner(end) != "messages") break;
      ++end;
    }
    // Two of CuPy's own rows: a lone "CUDA Root : …" in another dump is not CuPy's.
    if (own >= 2) {
      for (std::size_t k = i; k < end; ++k) {
        if (sink.claimed(k)) continue;
        sink.claim(k, kFormat_cupy);
        read_cupy_row(sink, *cupy_row(lines[k].text), k);
      }
    }
    i = end == i ? i + 1 : end;
  }
}

}  // namespace gpudoctor
