#pragma once
#include "model/runtime.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// ollama and llama.cpp installs, read from files under the root (nothing is run or loaded).
RuntimeInstalls probe_runtimes(const ProbeContext& ctx);

/// The assignments of a systemd unit's Environment= lines, in order, later ones winning:
/// `Environment="A=1" B=2` → {A: 1, B: 2}; an empty `Environment=` clears what came before.
void apply_unit_environment(const std::string& text, std::map<std::string, std::string>& env);

}  // namespace gpudoctor
