#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// A message a program printed, seen in a log or a pasted dump: evidence of what happened at
/// run time ("The NVIDIA driver on your system is too old (found version 11040)"). Checks read
/// these next to the installed facts; on a machine (live or --sysroot) they come from the
/// kernel log of the running boot (probes/host/kernel_log_probe.hpp, values["kernel_log"]).
struct Symptom {
  std::string id;                  ///< what it means: "torch.driver_too_old", "jax.cpu_fallback", …
  std::string tool;                ///< who printed it: "torch", "nvidia-smi", "jax", "rocminfo", …
  std::string text;                ///< the line as printed, trimmed
  std::optional<int> line;         ///< 1-based line of the paste it was read from
  std::map<std::string, std::string> values;  ///< what the message names: "found_version": "11040"
};
GPUDOCTOR_JSON(Symptom, id, tool, text, line, values)

/// One GPU as ollama's server log reports it ("inference compute" lines).
struct OllamaDevice {
  std::optional<std::string> id;         ///< "GPU-…" or "0"
  std::optional<std::string> library;    ///< "cuda", "rocm", "cpu", "metal", "vulkan"
  std::optional<std::string> variant;    ///< "v12", "v11"
  std::optional<std::string> compute;    ///< "8.6" (CUDA) or "gfx1030" (ROCm)
  std::optional<std::string> driver;     ///< the driver's CUDA / ROCm version: "12.4"
  std::optional<std::string> name;
  std::optional<std::string> total;      ///< as logged: "23.7 GiB"
  std::optional<std::string> available;
};
GPUDOCTOR_JSON(OllamaDevice, id, library, variant, compute, driver, name, total, available)

/// ollama's own view of the GPUs, from its server log: what it found, what it refused, and the
/// runners (llama.cpp builds) it carries.
struct OllamaInfo {
  std::optional<std::string> version;            ///< "0.5.7"
  std::vector<std::string> runners;              ///< "cpu_avx2", "cuda_v12", "rocm_v60002"
  std::vector<std::string> supported_gfx;        ///< the gfx list its ROCm build names
  std::vector<OllamaDevice> devices;             ///< "inference compute"
  std::optional<bool> no_compatible_gpu;         ///< "no compatible GPUs were discovered"
  std::map<std::string, std::string> env;        ///< from "server config": HSA_OVERRIDE_GFX_VERSION, …
};
GPUDOCTOR_JSON(OllamaInfo, version, runners, supported_gfx, devices, no_compatible_gpu, env)

}  // namespace gpudoctor
