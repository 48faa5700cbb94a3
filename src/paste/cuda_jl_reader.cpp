// Julia's CUDA.jl: `CUDA.versioninfo()` in its layouts (1.x–3.x: "CUDA toolkit 11.7, artifact
// installation" / "CUDA driver 11.7"; 4.x on: "CUDA runtime 12.1, artifact installation" /
// "NVIDIA driver 530.41.3, for CUDA 12.1"; 5.x: a "CUDA toolchain:" list), whole or a slice of it.
// The layouts: https://github.com/JuliaGPU/CUDA.jl/blob/master/src/utilities.jl (versioninfo).
// CUDA.jl prints the driver as a Julia VersionNumber ("515.86.1" for 515.86.01); it is kept as
// printed, since the checks compare the driver's leading numbers.
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_cuda_jl = "CUDA.jl versioninfo";

bool cuda_jl_header(std::string_view t) {
  static const std::string_view heads[] = {"Libraries:", "CUDA libraries:", "Packages:",
                                           "Julia packages:", "Toolchain:", "CUDA toolchain:",
                                           "Preferences:", "Environment:"};
  for (auto h : heads) {
    if (t == h) return true;
  }
  static const std::regex devices(R"(^\d+ devices?(\(s\))?:$)");
  return std::regex_match(std::string(t), devices);
}

/// A line versioninfo prints that no other program prints in this shape: it makes a run of
/// "- NAME: version" lines CUDA.jl's.
bool cuda_jl_own(std::string_view t) {
  return starts_with(t, "julia> CUDA.versioninfo()") || starts_with(t, "CUDA toolkit ") ||
         starts_with(t, "CUDA runtime ") || starts_with(t, "CUDA driver ") ||
         t == "CUDA toolchain:" || starts_with(t, "- CUDA.jl: ") || starts_with(t, "- CUBLAS: ") ||
         starts_with(t, "- CUDA_Runtime_jll") || starts_with(t, "- CUDA_Driver_jll") ||
         starts_with(t, "- GPUCompiler.jl: ");
}

bool cuda_jl_line(std::string_view raw) {
  const std::string_view t = trim(raw);
  if (t.empty()) return false;
  static const std::regex numbered_device(R"(^\d+: \S)");
  return cuda_jl_own(t) || cuda_jl_header(t) || starts_with(t, "- ") ||
         starts_with(t, "NVIDIA driver ") || starts_with(t, "Downloaded artifact: ") ||
         std::regex_search(std::string(t), numbered_device);
}

void read_cuda_jl_line(PasteSink& sink, std::size_t i, int& device) {
  const std::string t(trim(sink.lines()[i].text));
  static const std::regex toolkit(
      R"(^(?:CUDA (?:toolkit|runtime) |- runtime )(\d+\.\d+(?:\.\d+)?),? ?(.*)$)");
  static const std::regex driver_cuda(R"(^CUDA driver (\d+\.\d+)(?:\.\d+)?$)");
  static const std::regex nvidia_driver(
      R"(^(?:NVIDIA driver |- driver )(\d{3}\.\d{1,3}(?:\.\d{1,3})?),? for (?:CUDA )?(\d+\.\d+))");
  static const std::regex old_device(R"(^- (.+?) \((?:[\d.]+ GiB, )?sm_(\d)(\d+)\b)");
  static const std::regex new_device(R"(^(\d+): (.+?) \(sm_(\d)(\d+)\b)");
  std::smatch m;
  if (std::regex_search(t, m, toolkit)) {
    // The CUDA runtime CUDA.jl loads (its own artifact, or a toolkit it found): a fact, not a
    // toolkit of this machine's, since CUDA.jl may also bring a forward-compatible libcuda
    // (CUDA_Driver_jll) that lets it run on an older kernel driver.
    sink.fact("cuda.runtime", m[1].str(), i);
  } else if (std::regex_search(t, m, driver_cuda)) {
    if (const auto packed = packed_cuda_version(m[1].str())) {
      NvmlInfo& n = sink.nvml();
      if (!n.cuda_driver_version) n.cuda_driver_version = packed;
      sink.fact("nvidia.cuda_max", m[1].str(), i);
    }
  } else if (std::regex_search(t, m, nvidia_driver)) {
    NvmlInfo& n = sink.nvml();
    if (!n.driver_version) n.driver_version = m[1].str();
    sink.fact("nvidia.driver", m[1].str(), i);
    // "NVIDIA driver 515.86.1, for CUDA 11.7" (4.x) is the driver's own CUDA; 5.x's "- driver
    // 570.172.8 for 13.0" may be CUDA_Driver_jll's forward-compatible libcuda, so only quoted.
    if (const auto packed = packed_cuda_version(m[2].str()); packed && starts_with(t, "NVIDIA")) {
      if (!n.cuda_driver_version) n.cuda_driver_version = packed;
      sink.fact("nvidia.cuda_max", m[2].str(), i);
    } else {
      sink.fact("cuda.jl_driver_cuda", m[2].str(), i);
    }
  } else if (std::regex_search(t, m, new_device) || std::regex_search(t, m, old_device)) {
    const bool numbered = m.size() == 5;
    const int index = numbered ? static_cast<int>(parse_int(m[1].str()).value_or(device)) : device;
    const std::string name = m[numbered ? 2 : 1].str();
    add_named_gpu(sink, index, name, i);
    if (sink.snap.nvml) {
      for (auto& d : sink.snap.nvml->devices) {
        if (d.index != index) continue;
        d.cc_major = static_cast<int>(parse_int(m[numbered ? 3 : 2].str()).value_or(0));
        d.cc_minor = static_cast<int>(parse_int(m[numbered ? 4 : 3].str()).value_or(0));
        sink.fact("gpu.compute_capability",
                  std::to_string(*d.cc_major) + "." + std::to_string(*d.cc_minor), i);
      }
    }
    device = index + 1;
  }
}

}  // namespace

void read_cuda_jl(PasteSink& sink) {
  const auto& lines = sink.lines();
  std::size_t i = 0;
  while (i < lines.size()) {
    if (sink.claimed(i) || lines[i].fence || !cuda_jl_line(lines[i].text)) {
      ++i;
      continue;
    }
    // The run of versioninfo-shaped lines (blank lines inside it kept).
    std::size_t end = i;
    bool own = false;
    while (end < lines.size() && !sink.claimed(end) && !lines[end].fence) {
      const std::string_view t = trim(lines[end].text);
      if (t.empty()) {
        if (end + 1 < lines.size() && cuda_jl_line(lines[end + 1].text)) {
          ++end;
          continue;
        }
        break;
      }
      if (!cuda_jl_line(t)) break;
      own = own || cuda_jl_own(t);
      ++end;
    }
    if (own) {
      int device = 0;
      for (std::size_t k = i; k < end; ++k) {
        if (trim(lines[k].text).empty()) continue;
        sink.claim(k, kFormat_cuda_jl);
        read_cuda_jl_line(sink, k, device);
      }
    }
    i = end == i ? i + 1 : end;
  }
}

}  // namespace gpudoctor
