#include "environment.hpp"

#include <cstring>

extern char** environ;  // NOLINT

namespace gpudoctor {

Environment Environment::from_process() {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq == nullptr) continue;
    vars.emplace(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  return Environment(std::move(vars));
}

std::optional<std::string> Environment::get(std::string_view name) const {
  {
    std::lock_guard<std::mutex> lock(asked_->mutex);
    asked_->names.emplace(name);
  }
  auto it = vars_.find(std::string(name));
  if (it == vars_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Environment::asked_and_set() const {
  std::lock_guard<std::mutex> lock(asked_->mutex);
  std::vector<std::string> out;
  for (const auto& name : asked_->names) {
    if (vars_.count(name) != 0) out.push_back(name);
  }
  return out;
}

std::optional<std::string> Environment::get_nonempty(std::string_view name) const {
  auto v = get(name);
  if (!v || v->empty()) return std::nullopt;
  return v;
}

std::vector<std::string> split_path_list(std::string_view value, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(sep, start);
    if (end == std::string_view::npos) end = value.size();
    if (end > start) out.emplace_back(value.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace gpudoctor
