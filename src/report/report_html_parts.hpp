#pragma once
// The sections of the HTML report, each from the report JSON; report_html.cpp puts them
// together.
#include <string>

#include "json.hpp"

namespace gpudoctor::html {

/// Host, drivers (NVIDIA, OpenCL ICDs, Vulkan manifests), CUDA toolkits, Python environments
/// and their packages, the GPU-relevant environment variables.
std::string software_section(const Json& snapshot, const Json& environment);

/// Every smoke matmul, whatever API ran it; "" when none ran.
std::string smoke_section(const Json& snapshot);

/// How each probe ended.
std::string probes_section(const Json& snapshot);

}  // namespace gpudoctor::html
