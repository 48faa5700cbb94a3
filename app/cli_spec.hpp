#pragma once
#include "manual/cli_spec.hpp"

namespace gpudoctor {

/// The command line parse_cli builds, as data: every command and option, the kind of value
/// each takes. Options whose kind cannot be read from CLI11 (its metavar or validator) are
/// classified in cli_spec.cpp; one that is not comes back as ValueKind::number with
/// `unclassified` listing it, so a test names the new option that needs a decision.
CliSpec describe_cli(std::vector<std::string>* unclassified = nullptr);

}  // namespace gpudoctor
