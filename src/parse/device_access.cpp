#include "parse/device_access.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// "yes", "true", "on", "1" (systemd's booleans).
bool unit_bool(std::string_view v) {
  const std::string s = to_lower(trim(v));
  return s == "yes" || s == "true" || s == "on" || s == "1";
}

std::string unquoted(std::string_view v) {
  v = trim(v);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    v = v.substr(1, v.size() - 2);
  }
  return std::string(v);
}

}  // namespace

bool is_gpu_device_path(std::string_view path) {
  if (path == "/dev/kfd" || path == "/dev/dxg") return true;
  if (starts_with(path, "/dev/nvidia")) return true;  // nvidiactl, nvidia0, nvidia-caps/…
  if (!starts_with(path, "/dev/dri/")) return false;
  const std::string_view name = path.substr(9);
  return starts_with(name, "card") || starts_with(name, "renderD");
}

void apply_unit_accounts(std::string_view text, UnitAccount& a) {
  bool service = false;
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line[0] == '[') {
      service = line == "[Service]";
      continue;
    }
    const auto eq = line.find('=');
    if (!service || eq == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, eq));
    const std::string value = unquoted(line.substr(eq + 1));
    if (key == "User") {
      a.user = value.empty() ? std::nullopt : std::optional<std::string>(value);
    } else if (key == "Group") {
      a.group = value.empty() ? std::nullopt : std::optional<std::string>(value);
    } else if (key == "SupplementaryGroups") {
      if (value.empty()) a.supplementary_groups.clear();
      for (auto& g : split_words(value, " \t")) a.supplementary_groups.push_back(std::move(g));
    } else if (key == "DynamicUser") {
      a.dynamic_user = unit_bool(value);
    }
  }
}

std::vector<DeviceMount> parse_device_mounts(std::string_view mountinfo) {
  std::vector<DeviceMount> out;
  for (std::string_view line : split_lines(mountinfo)) {
    // id parent major:minor root mountpoint options [optional…] - fstype source superoptions
    const auto f = split_words(line, " ");
    if (f.size() < 5) continue;
    const std::string& point = f[4];
    if (!is_gpu_device_path(point) && point != "/dev/dri" && point != "/dev/nvidia-caps") continue;
    DeviceMount m{point, f[3], std::nullopt, std::nullopt};
    for (std::size_t i = 5; i < f.size(); ++i) {
      if (f[i] != "-") continue;
      if (i + 1 < f.size()) m.fs_type = f[i + 1];
      if (i + 2 < f.size()) m.source = f[i + 2];
      break;
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::optional<NvidiaDeviceFileParams> parse_nvidia_device_file_params(std::string_view text) {
  NvidiaDeviceFileParams p;
  bool any = false;
  for (std::string_view line : split_lines(text)) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon));
    const auto value = parse_uint(trim(line.substr(colon + 1)));
    if (!value || *value > 0xffffffffu) continue;
    const auto v = static_cast<std::uint32_t>(*value);
    if (key == "ModifyDeviceFiles") {
      p.modify = v != 0;
    } else if (key == "DeviceFileUID") {
      p.uid = v;
    } else if (key == "DeviceFileGID") {
      p.gid = v;
    } else if (key == "DeviceFileMode") {
      p.mode = v;
    } else {
      continue;
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return p;
}

std::optional<std::string> cdi_spec_kind(std::string_view text) {
  for (std::string_view line : split_lines(text)) {
    // Only the top level: a device's own members are indented.
    const std::string_view t = trim(line);
    const bool json = starts_with(t, "\"kind\"");
    if (!json && !starts_with(line, "kind:")) continue;
    const auto colon = t.find(':');
    std::string v = unquoted(t.substr(colon + 1));
    if (json && !v.empty() && v.back() == ',') v = unquoted(std::string_view(v).substr(0, v.size() - 1));
    if (!v.empty()) return v;
  }
  return std::nullopt;
}

std::vector<std::string> cdi_spec_device_paths(std::string_view text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = text.find("/dev/", at)) != std::string_view::npos) {
    const std::size_t start = at;
    std::size_t end = start;
    while (end < text.size() && text[end] != '"' && text[end] != '\'' && text[end] != ',' &&
           text[end] != '}' && text[end] != ']' && !std::isspace(static_cast<unsigned char>(text[end]))) {
      ++end;
    }
    at = end;
    // The key before the value: `path: /dev/x`, `"path": "/dev/x"`, `hostPath: …`.
    std::size_t k = start;
    while (k > 0 && (text[k - 1] == '"' || text[k - 1] == '\'' || text[k - 1] == ' ')) --k;
    if (k == 0 || text[k - 1] != ':') continue;
    --k;
    while (k > 0 && (text[k - 1] == '"' || text[k - 1] == '\'' || text[k - 1] == ' ')) --k;
    std::size_t key_end = k;
    while (k > 0 && std::isalpha(static_cast<unsigned char>(text[k - 1]))) --k;
    const std::string_view key = text.substr(k, key_end - k);
    if (key != "path" && key != "hostPath") continue;
    std::string value(text.substr(start, end - start));
    if (std::find(out.begin(), out.end(), value) == out.end()) out.push_back(std::move(value));
  }
  return out;
}

std::vector<std::pair<std::string, int>> cdi_spec_device_majors(std::string_view text) {
  std::vector<std::pair<std::string, int>> out;
  const auto paths = cdi_spec_device_paths(text);
  std::string current;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t dev = text.find("/dev/", at);
    const std::size_t major = text.find("major", at);
    if (major == std::string_view::npos) break;
    if (dev != std::string_view::npos && dev < major) {
      std::size_t end = dev;
      while (end < text.size() && text[end] != '"' && text[end] != '\'' && text[end] != ',' &&
             text[end] != '}' && !std::isspace(static_cast<unsigned char>(text[end]))) {
        ++end;
      }
      const std::string path(text.substr(dev, end - dev));
      if (std::find(paths.begin(), paths.end(), path) != paths.end()) current = path;
      at = end;
      continue;
    }
    // `major: 510` (YAML) or `"major": 510` (JSON): the key, a colon, a number.
    std::size_t k = major + 5;
    if (k < text.size() && text[k] == '"') ++k;
    while (k < text.size() && text[k] == ' ') ++k;
    at = k;
    if (k >= text.size() || text[k] != ':' || current.empty()) continue;
    ++k;
    while (k < text.size() && text[k] == ' ') ++k;
    std::size_t end = k;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
    if (end == k || end - k > 6) continue;
    out.emplace_back(current, std::stoi(std::string(text.substr(k, end - k))));
    at = end;
  }
  return out;
}

std::map<std::string, int> character_device_majors(std::string_view text) {
  std::map<std::string, int> out;
  bool character = false;
  for (std::string_view line : split_lines(text)) {
    const std::string_view t = trim(line);
    if (t == "Character devices:") {
      character = true;
      continue;
    }
    if (ends_with(t, "devices:")) {
      character = false;
      continue;
    }
    if (!character) continue;
    const auto space = t.find(' ');
    if (space == std::string_view::npos || space == 0 || space > 6) continue;
    const std::string_view number = t.substr(0, space);
    if (!std::all_of(number.begin(), number.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
      continue;
    }
    out.emplace(std::string(trim(t.substr(space + 1))), std::stoi(std::string(number)));
  }
  return out;
}

std::string character_device_driver(std::string_view path) {
  if (starts_with(path, "/dev/dri/")) return "drm";
  if (starts_with(path, "/dev/nvidia-caps")) return "nvidia-caps";
  std::string name(path.substr(path.rfind('/') + 1));
  if (ends_with(name, "-tools")) name.resize(name.size() - 6);
  if (starts_with(name, "nvidia") && name.size() > 6 &&
      std::all_of(name.begin() + 6, name.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
    return "nvidia";
  }
  return name;
}

std::optional<std::string> pci_address_of_by_path(std::string_view name) {
  if (!starts_with(name, "pci-")) return std::nullopt;
  name.remove_prefix(4);
  const auto dash = name.find('-');
  const std::string_view address = name.substr(0, dash);
  // dddd:bb:dd.f
  if (address.size() != 12 || address[4] != ':' || address[7] != ':' || address[10] != '.') {
    return std::nullopt;
  }
  return to_lower(std::string(address));
}

std::optional<ListedNode> parse_ls_device_line(std::string_view line, std::string_view dir) {
  std::vector<std::string> w;
  for (const auto& x : split_words(std::string(trim(line)), " \t")) {
    if (!x.empty()) w.push_back(x);
  }
  // mode links owner group major, minor month day time|year name: at least 10 words, a
  // character or block device's mode first.
  if (w.size() < 9 || w[0].size() < 10 || (w[0][0] != 'c' && w[0][0] != 'b')) return std::nullopt;
  for (std::size_t i = 1; i < 10; ++i) {
    const char c = w[0][i];
    if (c != '-' && c != 'r' && c != 'w' && c != 'x' && c != 's' && c != 'S' && c != 't' &&
        c != 'T') {
      return std::nullopt;
    }
  }
  // "234," then "0", or "234,0" as one word.
  std::size_t name_at = ends_with(w[4], ",") ? 9 : 8;
  if (w.size() <= name_at) return std::nullopt;
  ListedNode n;
  n.mode = w[0].substr(0, 10);
  n.owner = w[2];
  n.group = w[3];
  std::string name = w[name_at];
  n.path = starts_with(name, "/") ? name : std::string(dir) + "/" + name;
  return n;
}

bool parse_docker_daemon_json(std::string_view text, ContainerEngines& e) {
  const auto j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    e.daemon_json_error = "not a JSON object";
    return false;
  }
  if (auto r = j.find("runtimes"); r != j.end() && r->is_object()) {
    for (auto it = r->begin(); it != r->end(); ++it) e.docker_runtimes.push_back(it.key());
  }
  if (auto d = j.find("default-runtime"); d != j.end() && d->is_string()) {
    e.default_runtime = d->get<std::string>();
  }
  return true;
}

}  // namespace gpudoctor
