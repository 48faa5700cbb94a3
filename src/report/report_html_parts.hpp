#pragma once
// The sections of the HTML report, each from the report JSON; report_html.cpp puts them
// together.
#include <string>

#include "json.hpp"

namespace gpudoctor::html {

/// Host, drivers (NVIDIA, OpenCL ICDs, Vulkan manifests), CUDA toolkits, Python environments
/// and their packages, the GPU-relevant environment variables.
std::string software_section(const Json& snapshot, const Json& environment);

/// ROCm: installs, the amdgpu module, KFD, this user's groups, ROCm's variables, HIP, the device
/// files; "" when the report's ROCm section found nothing of AMD's.
std::string rocm_section(const Json& snapshot);

/// macOS: version, CPU, Apple silicon and Rosetta, memory, the loader's variables, PlaidML, and
/// a row per GPU as system_profiler lists it; "" when the report has no macOS section.
std::string macos_section(const Json& snapshot);

/// Every smoke matmul, whatever API ran it; "" when none ran.
std::string smoke_section(const Json& snapshot);

/// How each probe ended.
std::string probes_section(const Json& snapshot);

}  // namespace gpudoctor::html
