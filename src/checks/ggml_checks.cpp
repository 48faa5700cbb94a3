// llama.cpp / ggml builds against the GPU: the CUDA architectures a build carries (system_info's
// "CUDA : ARCHS = …", nvcc's __CUDA_ARCH_LIST__: the virtual architectures its kernels were
// compiled for) and the compute capability of each GPU it found.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

namespace {

/// "520,610,700,750" → {520, 610, 700, 750}.
std::vector<int> archs_of(const std::string& list) {
  std::vector<int> out;
  for (const auto& a : split_words(list, ",")) {
    if (auto v = parse_int(a)) out.push_back(static_cast<int>(*v));
  }
  return out;
}

}  // namespace

void check_ggml_arch(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const auto s = std::find_if(in.snap.symptoms.begin(), in.snap.symptoms.end(),
                              [](const Symptom& x) { return x.id == "ggml.cuda_archs"; });
  if (s == in.snap.symptoms.end() || !s->values.count("archs")) return;
  const auto archs = archs_of(s->values.at("archs"));
  if (archs.empty()) return;
  const int lowest = *std::min_element(archs.begin(), archs.end());
  std::vector<std::string> reported;  // one finding for several boards of one model
  for (const GpuCapability& gpu : nvidia_capabilities(in)) {
    if (!gpu.cc || gpu.cc->parts.size() < 2) continue;
    if (std::find(reported.begin(), reported.end(), gpu.name) != reported.end()) continue;
    reported.push_back(gpu.name);
    const int cc = static_cast<int>(gpu.cc->parts[0] * 100 + gpu.cc->parts[1] * 10);
    // Code compiled for a virtual architecture runs on that capability and newer ones (as PTX
    // the driver compiles, or SASS of the same major version); nothing runs below the lowest.
    if (cc >= lowest) continue;
    Finding f = make_finding(self, Severity::fail,
                             "This llama.cpp build has no CUDA code " + gpu.name +
                                 " can run: it was compiled for compute capability " +
                                 std::to_string(lowest / 100) + "." +
                                 std::to_string(lowest / 10 % 10) + " and newer, the GPU is " +
                                 gpu.cc->text);
    f.evidence.push_back("CUDA : ARCHS = " + s->values.at("archs") + " (the build's architectures)");
    f.evidence.push_back(gpu.name + ": compute capability " + gpu.cc->text +
                         (gpu.cc_source ? " (" + *gpu.cc_source + ")" : ""));
    f.fix = "build llama.cpp for this GPU: cmake -B build -DGGML_CUDA=ON "
            "-DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(gpu.cc->parts[0]) +
            std::to_string(gpu.cc->parts[1]) + " (a CUDA toolkit that still supports it), or use "
            "a build whose ARCHS include it";
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
