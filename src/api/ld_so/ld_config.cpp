#include "api/ld_so/ld_config.hpp"

#include "text.hpp"

namespace gpudoctor {

LdConfig parse_ld_so_conf(std::string_view text) {
  LdConfig out;
  for (std::string_view line : split_lines(text)) {
    line = line.substr(0, line.find('#'));
    line = trim(line);
    if (line.empty()) continue;
    if (starts_with(line, "include") && line.size() > 7 && (line[7] == ' ' || line[7] == '\t')) {
      for (auto& pattern : split_words(line.substr(8))) out.includes.push_back(pattern);
      continue;
    }
    if (starts_with(line, "hwcap")) continue;
    // Old glibc allowed "dir=type" and comma or blank separated lists.
    for (auto& word : split_words(line, " \t,:")) {
      std::string dir = word.substr(0, word.find('='));
      if (!dir.empty() && dir.front() == '/') out.directories.push_back(dir);
    }
  }
  return out;
}

std::vector<std::string> default_library_dirs(std::string_view machine) {
  std::string triplet;
  if (machine == "x86_64") triplet = "x86_64-linux-gnu";
  if (machine == "aarch64") triplet = "aarch64-linux-gnu";
  if (machine == "ppc64le") triplet = "powerpc64le-linux-gnu";
  std::vector<std::string> dirs;
  if (!triplet.empty()) {
    dirs.push_back("/lib/" + triplet);
    dirs.push_back("/usr/lib/" + triplet);
  }
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) dirs.emplace_back(d);
  return dirs;
}

}  // namespace gpudoctor
