#pragma once
// What the readers of pasted dumps write into: the snapshot they fill (the same model the probes
// fill, only the sections a paste covers), the lines each reader claimed, and every fact with the
// line it stands on, so that findings can quote their lines.
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/snapshot.hpp"
#include "paste/paste_lines.hpp"

namespace gpudoctor {

/// One value read from the paste, and where.
struct PasteFact {
  std::string key;    ///< "nvidia.driver", "torch.version", "gpu.name", "message", …
  std::string value;  ///< as pasted: "535.104.05"
  int line = 0;
};

class PasteSink {
 public:
  explicit PasteSink(const std::vector<PasteLine>& lines);

  const std::vector<PasteLine>& lines() const { return lines_; }
  /// Line `i` is the reader `format`'s ("collect_env", "nvidia-smi", …).
  void claim(std::size_t i, std::string_view format);
  bool claimed(std::size_t i) const { return owner_[i] != 0; }
  /// The format that claimed line `i`; empty when none did.
  std::string_view owner(std::size_t i) const {
    return owner_[i] == 0 ? std::string_view() : std::string_view(formats_[owner_[i] - 1]);
  }

  void fact(std::string key, std::string value, std::size_t i);
  void symptom(std::string id, std::string tool, std::size_t i,
               std::map<std::string, std::string> values = {});

  HostInfo& host();
  NvmlInfo& nvml();
  NvidiaSystem& nvidia();
  CudaInfo& cuda();
  RocmInfo& rocm();
  MacosInfo& macos();
  OpenClInfo& opencl();
  VulkanInfo& vulkan();
  OllamaInfo& ollama();
  /// The Python environment the paste describes: the last one started, or a new one.
  PythonEnv& env();
  /// Starts another environment (a second collect_env in the same paste).
  PythonEnv& new_env(std::string label);
  /// The package `name` in env(), added when absent. Past kMaxPastedPackages in one environment
  /// a new name goes to a scratch package that is dropped (a real environment has a few
  /// thousand; a list of millions only makes the snapshot grow), and the environment's
  /// errors say so once.
  PythonPackage& package(std::string_view name);
  /// Whether `p` is that scratch package (its facts are not kept either).
  bool dropped(const PythonPackage& p) const { return &p == &dropped_; }
  static constexpr std::size_t kMaxPastedPackages = 5000;
  /// The NVIDIA GPU of this index (nvidia-smi's and collect_env's numbering), added when absent.
  /// Past kMaxPastedGpus a new index goes to a scratch device that is dropped (a node has a few
  /// GPUs, a MIG-partitioned one a few dozen), and not_read says so once.
  NvmlDevice& nvidia_gpu(int index);
  static constexpr std::size_t kMaxPastedGpus = 1024;

  Snapshot snap;
  std::vector<PasteFact> facts;
  std::vector<std::string> not_read;  ///< what the paste holds past a cap, said once each

 private:
  const std::vector<PasteLine>& lines_;
  PythonPackage dropped_;  ///< where names past kMaxPastedPackages go
  NvmlDevice dropped_gpu_;  ///< where GPUs past kMaxPastedGpus go
  std::unordered_map<int, std::size_t> gpu_by_index_;
  /// Each line's reader, as 1 + its index in formats_ (0: none): a byte a line, where a string
  /// a line cost 32 bytes on a paste of 300,000 lines.
  std::vector<unsigned char> owner_;
  std::vector<std::string> formats_;
  /// Each environment's packages by name, and the symptoms already read (id and values), so
  /// that a paste of 300,000 packages or of one message repeated costs one look-up per line.
  std::vector<std::unordered_map<std::string, std::size_t>> packages_by_env_;
  std::unordered_set<std::string> symptom_keys_;
};

/// "1.13.1+cu117" → torch's build info as torch/version.py would say it; the CUDA and HIP
/// versions come from the lines that state them, never from the suffix alone.
void set_torch_version(PasteSink& sink, std::string_view version, std::size_t i);

/// A value that means "nothing here": "N/A", "None", "Could not collect", "No CUDA", "".
bool no_value(std::string_view v);

/// "12.2" (a CUDA version as nvidia-smi, ollama and torch print it) → 12020, as
/// cuDriverGetVersion packs it; nullopt for anything else.
std::optional<int> packed_cuda_version(std::string_view text);

/// The nvcc on PATH ("Cuda compilation tools, release 12.1, V12.1.105", collect_env's "CUDA
/// runtime version"): a toolkit of that version, added once.
void add_nvcc_toolkit(PasteSink& sink, const std::string& version, std::size_t i);

/// "535.104.05", "12.2": the leading dotted number of `s` ("12.1.105 (nvcc)" → "12.1.105").
std::string leading_version(std::string_view s);

}  // namespace gpudoctor
