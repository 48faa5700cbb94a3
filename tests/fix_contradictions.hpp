#pragma once
// What the fixes of one `gpudoctor check` run tell a person to install and remove, read from the
// commands they name, and where two of them contradict each other (docs/severity.md).
#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor::test {

struct Actions {
  std::set<std::string> installs;
  std::set<std::string> removes;
  std::map<std::string, std::string> pins;  ///< package → version asked for ("==")
};

/// "'tensorflow[and-cuda]==2.15.0'" → "tensorflow"; "torch==2.5.1" → "torch".
inline std::string package_of(std::string word, std::string* version) {
  word.erase(std::remove(word.begin(), word.end(), '\''), word.end());
  word.erase(std::remove(word.begin(), word.end(), '"'), word.end());
  while (!word.empty() && (word.back() == ',' || word.back() == ';' || word.back() == '.')) {
    word.pop_back();  // the sentence around the command
  }
  auto eq = word.find("==");
  if (eq != std::string::npos && version != nullptr) *version = word.substr(eq + 2);
  auto end = word.find_first_of("[=<>~!");
  std::string name = word.substr(0, end);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
    return c == '_' ? '-' : static_cast<char>(std::tolower(c));
  });
  return name;
}

/// The words of a command's argument list: up to the end of the clause (",", ";", "(", "&&",
/// "then", "or"), options and their values and URLs left out.
inline std::vector<std::string> arguments(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string w;
  bool skip_value = false;
  while (in >> w) {
    if (w == "then" || w == "or" || w == "and" || w == "&&" || w == "||" || w[0] == '(') break;
    const bool ends_clause = w.back() == ',' || w.back() == ';' || w.back() == ')';
    if (skip_value) {
      skip_value = false;
    } else if (w[0] == '-') {
      skip_value = w == "--index-url" || w == "--extra-index-url" || w == "-f" || w == "-c";
    } else if (w.find("://") == std::string::npos) {
      out.push_back(w);
    }
    if (ends_clause) break;
  }
  return out;
}

/// The packages a fix installs and removes, read from the commands it names (pip, conda, apt,
/// dnf, yum, zypper, pacman).
inline Actions actions_of(const std::string& fix) {
  Actions a;
  static const std::regex command(
      R"(\b(pip3?|conda|mamba|apt-get|apt|dnf|yum|zypper) (install|uninstall|remove|purge)\b|\bpacman -(S|R)\w*)");
  for (std::sregex_iterator m(fix.begin(), fix.end(), command), e; m != e; ++m) {
    const std::string verb = (*m)[2].matched ? (*m)[2].str() : (*m)[3].str();
    const bool install = verb == "install" || verb == "S";
    const std::size_t after = static_cast<std::size_t>(m->position() + m->length());
    for (const auto& word : arguments(fix.substr(after))) {
      std::string version;
      const std::string name = package_of(word, &version);
      if (name.empty()) continue;
      if (install) {
        a.installs.insert(name);
        if (!version.empty()) a.pins[name] = version;
      } else {
        a.removes.insert(name);
      }
    }
  }
  return a;
}

/// What contradicts between the fixes of one run: one fix removes what another installs, or
/// two pin one package to different versions. A fix that removes and reinstalls (pip uninstall
/// x && pip install x[extra]) is one action, not a contradiction.
inline std::vector<std::string> contradictions(const Json& findings) {
  std::vector<std::pair<std::string, Actions>> all;
  for (const auto& f : findings) {
    if (!f.contains("fix") || !f["fix"].is_string()) continue;
    all.emplace_back(f["id"].get<std::string>(), actions_of(f["fix"].get<std::string>()));
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = 0; j < all.size(); ++j) {
      if (i == j) continue;
      const auto& [id_a, a] = all[i];
      const auto& [id_b, b] = all[j];
      for (const auto& p : a.installs) {
        if (b.removes.count(p) != 0 && b.installs.count(p) == 0) {
          out.push_back(id_a + " installs " + p + ", " + id_b + " removes it");
        }
      }
      for (const auto& [p, v] : a.pins) {
        auto other = b.pins.find(p);
        if (i < j && other != b.pins.end() && other->second != v) {
          out.push_back(id_a + " pins " + p + "==" + v + ", " + id_b + " pins " + other->second);
        }
      }
    }
  }
  return out;
}

}  // namespace gpudoctor::test
