#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/python.hpp"
#include "probe_context.hpp"

namespace gpudoctor::python {

/// Turns prefixes and site-packages directories into PythonEnv entries, once each: a prefix
/// found again only adds to `found_by`, and a site-packages directory (by real path) belongs
/// to the first environment that claims it.
class EnvCollector {
 public:
  EnvCollector(const ProbeContext& ctx, PythonInfo& info) : ctx_(ctx), info_(info) {}

  /// An installation prefix (a venv, a conda env, /usr, …). `executable` is the interpreter
  /// the user would run there, if known. When `explicit_source` is set, a missing prefix is
  /// an error; otherwise it is skipped, as are prefixes with no site-packages.
  void add_prefix(const std::string& prefix, const std::string& found_by,
                  std::optional<std::string> executable = std::nullopt,
                  std::optional<std::string> kind = std::nullopt, bool explicit_source = false);

  /// A site-packages directory given directly (--python-env …/site-packages, or a user site
  /// outside any prefix layout).
  void add_site_dir(const std::string& dir, const std::string& prefix, const std::string& kind,
                    const std::string& found_by, std::optional<std::string> version);

  /// Fills every environment's packages (each site-packages directory listed once).
  void scan_packages();

 private:
  struct Versions;
  Versions find_versions(const std::string& prefix, const std::optional<std::string>& exe_real,
                         PythonEnv& env);
  bool claim(const std::string& site_dir);
  PythonEnv* env_at(const std::string& prefix);

  const ProbeContext& ctx_;
  PythonInfo& info_;
  std::set<std::string> claimed_;
};

}  // namespace gpudoctor::python
