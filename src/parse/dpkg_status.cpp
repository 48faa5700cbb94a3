#include "parse/dpkg_status.hpp"

#include "text.hpp"

namespace gpudoctor {

std::vector<DpkgPackage> parse_dpkg_status(std::string_view text, std::string_view prefix) {
  std::vector<DpkgPackage> out;
  DpkgPackage current;
  auto flush = [&] {
    if (!current.name.empty() && starts_with(current.name, prefix)) out.push_back(current);
    current = DpkgPackage{};
  };
  for (std::string_view line : split_lines(text)) {
    if (trim(line).empty()) {
      flush();
      continue;
    }
    if (line.front() == ' ' || line.front() == '\t') continue;  // a continuation line
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (key == "Package") current.name = std::string(value);
    if (key == "Version") current.version = std::string(value);
    if (key == "Status") current.installed = ends_with(value, " installed");
  }
  flush();
  return out;
}

std::string debian_upstream_version(std::string_view version) {
  if (auto colon = version.find(':'); colon != std::string_view::npos) {
    version.remove_prefix(colon + 1);
  }
  if (auto dash = version.rfind('-'); dash != std::string_view::npos) version = version.substr(0, dash);
  return std::string(version);
}

}  // namespace gpudoctor
