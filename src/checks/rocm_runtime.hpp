#pragma once
// ollama's and llama.cpp's installs against AMD GPUs (rocm_runtime_checks.cpp), shared with the
// readiness chain of their pairs (readiness_runtimes.cpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checks/checks.hpp"

namespace gpudoctor {

/// "10.3.0" → "gfx1030", "9.0.10" → "gfx90a"; nullopt for a value that is not three numbers.
std::optional<std::string> gfx_of_override(const std::string& value);
/// "gfx1030" → "10.3.0", "gfx90a" → "9.0.10".
std::string override_of_gfx(const std::string& gfx);
/// The override ollama's service gives KFD node `n` (its unit's Environment=), as (name, value).
std::optional<std::pair<std::string, std::string>> ollama_unit_override(const OllamaInstall& o,
                                                                         const KfdNode& n);
/// The lowest target of `gfx`'s generation among `carried`.
std::optional<std::string> ollama_nearest_gfx(const std::string& gfx,
                                              const std::vector<std::string>& carried);

void check_ollama_bundled_gfx(const CheckSpec&, const CheckInput&, std::vector<Finding>&);

}  // namespace gpudoctor
