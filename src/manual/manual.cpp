#include "manual/manual.hpp"

#include <algorithm>

#include "backends.hpp"
#include "checks/checks.hpp"
#include "text.hpp"

namespace gpudoctor {

const CliOption* find_option(const CliCommand& command, const std::string& name) {
  for (const auto& o : command.options) {
    for (const auto& n : o.names) {
      if (n == name) return &o;
    }
  }
  return nullptr;
}

std::string short_help(const std::string& help) {
  // The first sentence or clause, outside parentheses: a completion menu has one line per entry.
  int depth = 0;
  std::size_t end = 0;
  for (; end < help.size(); ++end) {
    const char c = help[end];
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    const bool stop = c == '.' || c == ';' || c == ':';
    if (depth == 0 && stop && (end + 1 == help.size() || help[end + 1] == ' ')) break;
  }
  return help.substr(0, end);
}

std::vector<ManualBackend> registry_backends() {
  std::vector<ManualBackend> out;
  for (const auto& b : all_backends()) {
    ManualBackend m{std::string(b.name), std::string(b.help), {}, b.loads_vendor_library};
    for (auto v : b.variables) m.variables.emplace_back(v);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<ManualCheck> registry_checks() {
  std::vector<ManualCheck> out;
  for (const auto& c : all_checks()) {
    ManualCheck m{std::string(c.id), std::string(c.area), std::string(c.looks_at), {}};
    for (const auto& other : split_words(c.also_emits, ", ")) m.also_emits.emplace_back(other);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<std::string> finding_ids(const std::vector<ManualCheck>& checks) {
  // Each once: symptom.runtime also emits ids that are other checks' own.
  std::vector<std::string> out;
  auto add = [&out](const std::string& id) {
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  };
  for (const auto& c : checks) {
    add(c.id);
    for (const auto& other : c.also_emits) add(other);
  }
  return out;
}

}  // namespace gpudoctor
