#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
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

  /// The variable's value; the name is remembered as asked for (asked_and_set()), so a run can
  /// say which variables of this environment its probes took.
  std::optional<std::string> get(std::string_view name) const;
  /// A variable that is set and not empty.
  std::optional<std::string> get_nonempty(std::string_view name) const;
  const std::map<std::string, std::string>& vars() const { return vars_; }
  /// The names get() was asked for that are set here, sorted; copies share what was asked.
  std::vector<std::string> asked_and_set() const;

 private:
  struct Asked {
    std::mutex mutex;
    std::set<std::string> names;
  };
  std::map<std::string, std::string> vars_;
  std::shared_ptr<Asked> asked_ = std::make_shared<Asked>();
};

/// Splits "a:b::c" into {"a","b","c"} (empty entries dropped), as PATH-like variables are read.
std::vector<std::string> split_path_list(std::string_view value, char sep = ':');

}  // namespace gpudoctor
