#include "parse/modules_alias.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "text.hpp"

namespace gpudoctor {

std::vector<std::string> modules_for_modalias(std::string_view modules_alias,
                                              std::string_view modalias) {
  std::vector<std::string> modules;
  if (!starts_with(modalias, "pci:")) return modules;
  const std::string subject(trim(modalias));
  for (std::string_view line : split_lines(modules_alias)) {
    if (!starts_with(line, "alias pci:")) continue;
    auto words = split_words(line);
    if (words.size() != 3) continue;
    const std::string& pattern = words[1];
    // Cheap reject on the literal prefix before the first wildcard ("pci:v000010DEd").
    const auto wild = pattern.find_first_of("*?[");
    if (subject.compare(0, std::min(wild, pattern.size()), pattern, 0,
                        std::min(wild, pattern.size())) != 0) {
      continue;
    }
    if (::fnmatch(pattern.c_str(), subject.c_str(), 0) != 0) continue;
    if (std::find(modules.begin(), modules.end(), words[2]) == modules.end()) {
      modules.push_back(words[2]);
    }
  }
  return modules;
}

}  // namespace gpudoctor
