#include "parse/nvidia_kernel.hpp"

#include <cctype>

#include "parse/accounts.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

bool is_version_word(std::string_view w) {
  if (w.empty() || !std::isdigit(static_cast<unsigned char>(w.front()))) return false;
  bool dot = false;
  for (char c : w) {
    if (c == '.') {
      dot = true;
    } else if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return dot;
}

std::string normalise_module(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c == '-') c = '_';
  }
  return out;
}

}  // namespace

std::optional<NvrmVersion> parse_nvrm_version(std::string_view text) {
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (!starts_with(line, "NVRM version:")) continue;
    auto words = split_words(line.substr(13));
    // The version is the first dotted number after "Module"; everything before it names the
    // flavor and the architecture.
    std::size_t module_at = words.size();
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i] == "Module") {
        module_at = i;
        break;
      }
    }
    if (module_at == words.size()) return std::nullopt;
    NvrmVersion v;
    v.flavor = "proprietary";
    for (std::size_t i = 0; i < module_at; ++i) {
      if (words[i] == "Open") v.flavor = "open";
    }
    std::size_t i = module_at + 1;
    if (i + 1 < words.size() && words[i] == "for") {
      v.arch = words[i + 1];  // open: "… Kernel Module for x86_64  570.124.06 …"
      i += 2;
    } else if (module_at >= 2 && words[module_at - 1] == "Kernel" && words[module_at - 2] != "UNIX" &&
               words[module_at - 2] != "Open") {
      v.arch = words[module_at - 2];  // proprietary: "NVIDIA UNIX x86_64 Kernel Module  535.…"
    }
    for (; i < words.size(); ++i) {
      if (is_version_word(words[i])) {
        v.version = words[i];
        return v;
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<std::string> parse_proc_modules(std::string_view text) {
  std::vector<std::string> names;
  for (std::string_view line : split_lines(text)) {
    auto words = split_words(line);
    if (!words.empty()) names.push_back(words.front());
  }
  return names;
}

std::optional<bool> parse_secure_boot_var(std::string_view bytes) {
  if (bytes.size() < 5) return std::nullopt;
  return static_cast<unsigned char>(bytes.back()) == 1;
}

bool modprobe_disables(std::string_view text, std::string_view module) {
  const std::string want = normalise_module(module);
  for (std::string_view line : split_lines(text)) {
    line = trim(line.substr(0, line.find('#')));
    auto words = split_words(line);
    if (words.size() < 2 || normalise_module(words[1]) != want) continue;
    if (words[0] == "blacklist") return true;
    if (words[0] == "install" && words.size() >= 3 &&
        (ends_with(words[2], "/false") || ends_with(words[2], "/true"))) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> cmdline_iommu_params(std::string_view cmdline) {
  std::vector<std::string> out;
  for (const auto& word : split_words(cmdline, " \t\n")) {
    const std::string key = word.substr(0, word.find('='));
    if (key == "intel_iommu" || key == "amd_iommu" || key == "iommu" ||
        key == "iommu.passthrough") {
      out.push_back(word);
    }
  }
  return out;
}

std::vector<std::string> cmdline_params_for(std::string_view cmdline, std::string_view module) {
  const std::string want = normalise_module(module);
  std::vector<std::string> out;
  for (const auto& word : split_words(cmdline, " \t\n")) {
    auto eq = word.find('=');
    std::string key = normalise_module(word.substr(0, eq));
    if (starts_with(key, want + ".")) {
      out.push_back(word);
      continue;
    }
    if (eq == std::string::npos) continue;
    if (key != "modprobe.blacklist" && key != "rd.driver.blacklist" && key != "module_blacklist") {
      continue;
    }
    for (const auto& item : split_words(std::string_view(word).substr(eq + 1), ",")) {
      if (normalise_module(item) == want) {
        out.push_back(word);
        break;
      }
    }
  }
  return out;
}

std::map<std::uint32_t, std::string> parse_group_file(std::string_view text) {
  std::map<std::uint32_t, std::string> groups;
  for (auto& g : parse_group_entries(text)) groups.emplace(g.gid, std::move(g.name));
  return groups;
}

std::string mode_string(std::uint32_t m) {
  std::string s = "?---------";
  switch (m & 0170000) {
    case 0020000: s[0] = 'c'; break;
    case 0060000: s[0] = 'b'; break;
    case 0040000: s[0] = 'd'; break;
    case 0100000: s[0] = '-'; break;
    case 0120000: s[0] = 'l'; break;
    case 0010000: s[0] = 'p'; break;
    case 0140000: s[0] = 's'; break;
    default: break;
  }
  const char* rwx = "rwxrwxrwx";
  for (int i = 0; i < 9; ++i) {
    if (m & (0400u >> i)) s[static_cast<std::size_t>(i) + 1] = rwx[i];
  }
  if (m & 04000) s[3] = (m & 0100) ? 's' : 'S';
  if (m & 02000) s[6] = (m & 0010) ? 's' : 'S';
  if (m & 01000) s[9] = (m & 0001) ? 't' : 'T';
  return s;
}

}  // namespace gpudoctor
