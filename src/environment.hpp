#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// The process environment as plain data, so probes and tests can be given any environment.
class Environment {
 public:
  Environment() = default;
  explicit Environment(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {}
  static Environment from_process();

  std::optional<std::string> get(std::string_view name) const;
  /// A variable that is set and not empty.
  std::optional<std::string> get_nonempty(std::string_view name) const;
  const std::map<std::string, std::string>& vars() const { return vars_; }

 private:
  std::map<std::string, std::string> vars_;
};

/// Splits "a:b::c" into {"a","b","c"} (empty entries dropped), as PATH-like variables are read.
std::vector<std::string> split_path_list(std::string_view value, char sep = ':');

}  // namespace gpudoctor
