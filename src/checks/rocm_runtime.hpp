#pragma once
// ollama's and llama.cpp's installs against AMD GPUs (rocm_runtime_checks.cpp), shared with the
// readiness chain of their pairs (readiness_runtimes.cpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"

namespace gpudoctor {

/// "10.3.0" → "gfx1030", "9.0.10" → "gfx90a"; nullopt for a value that is not three numbers.
std::optional<std::string> gfx_of_override(const std::string& value);
/// "gfx1030" → "10.3.0", "gfx90a" → "9.0.10".
std::string override_of_gfx(const std::string& gfx);
/// The override ollama gives KFD node `n`, as (name, value): its service unit's Environment=
/// where it runs as a service (a shell's variables do not reach it), else the environment
/// gpudoctor sees (a container's, `ollama serve` by hand).
std::optional<std::pair<std::string, std::string>> ollama_override(const OllamaInstall& o,
                                                                   const RocmInfo& r,
                                                                   const KfdNode& n);
/// The target KFD node `n` runs as under ollama: its own, or the one ollama's override names.
std::string ollama_runs_as(const std::optional<std::pair<std::string, std::string>>& ov,
                           const KfdNode& n);
/// The lowest target of `gfx`'s generation among `carried`.
std::optional<std::string> ollama_nearest_gfx(const std::string& gfx,
                                              const std::vector<std::string>& carried);

/// The gfx targets an ollama install carries ROCm code for, and where that was read.
struct OllamaGfxCode {
  bool from_files = false;
  std::vector<std::string> gfx;  ///< sorted: carried by the files, or by some release of the table
  std::string where;  ///< the rocblas/library directory listed, or the binary
  /// A table answer: ollama's releases by their build files (data/compat/rocm.json, kind
  /// runtime_targets), oldest first.
  std::vector<RuntimeGfxTargets> releases;
};
/// From its rocBLAS files where they were read; for an install whose release cannot be read
/// (no lib/ollama and no ROCm bundle beside the binary: runners inside it, as before 0.5, or
/// libraries elsewhere), from the build files of all ollama's releases. nullopt where neither
/// says.
std::optional<OllamaGfxCode> ollama_gfx_code(const OllamaInstall& o, const CompatData& compat);
/// The releases of a table answer that carry `gfx`: "0.18.0–0.31.1", "" for none.
std::string ollama_releases_carrying(const OllamaGfxCode& code, const std::string& gfx);
/// Whether the files, or some release of a table answer, carry `gfx`.
bool ollama_carries(const OllamaGfxCode& code, const std::string& gfx);
/// Whether every release of a table answer (or the files) carries `gfx`.
bool ollama_every_release_carries(const OllamaGfxCode& code, const std::string& gfx);

void check_ollama_bundled_gfx(const CheckSpec&, const CheckInput&, std::vector<Finding>&);

}  // namespace gpudoctor
