#pragma once
// The documents generated from the program itself at build time (gpudoctor-gendocs): the man
// page gpudoctor(1) and the bash, zsh and fish completions. Their commands and options come
// from the CLI, their backends from the backend registry, their finding ids from the check
// list, so none of them can fall behind what the binary does.
#include <string>
#include <vector>

#include "manual/cli_spec.hpp"

namespace gpudoctor {

struct ManualBackend {
  std::string name;
  std::string help;
  std::vector<std::string> variables;  ///< exact names, or prefixes ending in '*'
  bool loads_vendor_library = false;
};

struct ManualCheck {
  std::string id;
  std::string area;
  std::string looks_at;
  std::vector<std::string> also_emits;  ///< other finding ids the same check reports
};

struct ManualInput {
  CliSpec cli;
  std::vector<ManualBackend> backends;
  std::vector<ManualCheck> checks;
  std::string version;     ///< "0.1.0"
  std::string date;        ///< YYYY-MM-DD for the man page's header; may be empty
  std::string schema_dir;  ///< where report.schema.json is installed
  std::string doc_dir;     ///< where the documentation is installed
};

/// The backends and checks from the program's registries (all_backends(), all_checks()).
std::vector<ManualBackend> registry_backends();
std::vector<ManualCheck> registry_checks();

/// Every finding id, in check order: each check's id, then those it also emits.
std::vector<std::string> finding_ids(const std::vector<ManualCheck>& checks);

std::string render_man_page(const ManualInput& in);
std::string render_bash_completion(const ManualInput& in);
std::string render_zsh_completion(const ManualInput& in);
std::string render_fish_completion(const ManualInput& in);

}  // namespace gpudoctor
