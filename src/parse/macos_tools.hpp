#pragma once
// Parsers for what the macos probe reads besides system_profiler: `sysctl` and `sw_vers`
// output and PlaidML's ~/.plaidml. Each takes text; none touches the system.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "model/macos.hpp"

namespace gpudoctor {

/// `sysctl NAME…` output: "name: value" lines (also "name = value", as BSD sysctl -a prints
/// some). Unknown-oid complaints go to stderr and are not part of the text.
std::map<std::string, std::string> parse_sysctl(std::string_view text);

/// `sw_vers` output: "ProductName:\tmacOS", "ProductVersion:\t12.6.1", "BuildVersion:\t21G217".
std::map<std::string, std::string> parse_sw_vers(std::string_view text);

/// Fills the MacosInfo fields that come from sysctl and sw_vers.
void apply_sysctl(MacosInfo& info, const std::map<std::string, std::string>& sysctl);
void apply_sw_vers(MacosInfo& info, const std::map<std::string, std::string>& sw_vers);

/// ~/.plaidml (JSON written by plaidml-setup); nullopt when it is not a JSON object.
std::optional<PlaidmlConfig> parse_plaidml_config(std::string_view text);

}  // namespace gpudoctor
