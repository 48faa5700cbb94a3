#pragma once
// The sections of the HTML report that describe the machine, from the facts layer;
// report_html.cpp puts them together with the findings and the benchmark.
#include <string>

#include "facts/facts.hpp"
#include "json.hpp"

namespace gpudoctor::html {

/// A table of the devices, then every API's view of each.
std::string devices_section(const facts::Machine& m);

/// Each backend's section, then the report's environment variables.
std::string software_section(const facts::Machine& m, const Json& environment);

/// Every smoke matmul, whatever API ran it; "" when none ran.
std::string smoke_section(const Snapshot& snap);

/// How each probe ended.
std::string probes_section(const Snapshot& snap);

}  // namespace gpudoctor::html
