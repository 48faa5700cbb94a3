#include "parse/host_files.hpp"

#include <set>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// Splits "key : value" at the first colon, both sides trimmed.
std::optional<std::pair<std::string_view, std::string_view>> key_value(std::string_view line,
                                                                       char sep) {
  auto pos = line.find(sep);
  if (pos == std::string_view::npos) return std::nullopt;
  return std::make_pair(trim(line.substr(0, pos)), trim(line.substr(pos + 1)));
}

std::optional<std::string> unquote_os_release(std::string_view v) {
  if (v.empty()) return std::string();
  const char q = v.front();
  if (q != '"' && q != '\'') {
    // Unquoted values may still carry backslash escapes, and may not contain blanks.
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '\\' && i + 1 < v.size()) {
        out += v[++i];
      } else if (v[i] == ' ' || v[i] == '\t') {
        break;
      } else {
        out += v[i];
      }
    }
    return out;
  }
  std::string out;
  for (std::size_t i = 1; i < v.size(); ++i) {
    const char c = v[i];
    if (c == q) return out;
    if (q == '"' && c == '\\' && i + 1 < v.size() &&
        std::string_view("\"\\$`").find(v[i + 1]) != std::string_view::npos) {
      out += v[++i];
    } else {
      out += c;
    }
  }
  return std::nullopt;  // unterminated quote
}

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

}  // namespace

std::map<std::string, std::string> parse_os_release(std::string_view text) {
  std::map<std::string, std::string> out;
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    auto kv = key_value(line, '=');
    if (!kv || kv->first.empty()) continue;
    if (kv->first.find_first_of(" \t") != std::string_view::npos) continue;
    if (auto value = unquote_os_release(kv->second)) out[std::string(kv->first)] = *value;
  }
  return out;
}

CpuInfo parse_cpuinfo(std::string_view text) {
  CpuInfo info;
  int processors = 0;
  int with_ids = 0;
  std::set<std::pair<std::string, std::string>> cores;
  std::optional<std::string> package;
  std::optional<std::string> core;
  auto close_block = [&] {
    if (package && core) {
      cores.emplace(*package, *core);
      ++with_ids;
    }
    package.reset();
    core.reset();
  };
  for (std::string_view line : split_lines(text)) {
    auto kv = key_value(line, ':');
    if (!kv) continue;
    const auto [key, value] = *kv;
    if (key == "processor" && parse_uint(value)) {
      if (processors > 0) close_block();
      ++processors;
    } else if (key == "physical id") {
      package = std::string(value);
    } else if (key == "core id") {
      core = std::string(value);
    } else if (!info.model && (key == "model name" || key == "cpu model") && !value.empty()) {
      info.model = std::string(value);
    } else if (key == "flags") {
      for (const auto& flag : split_words(value)) {
        if (flag == "hypervisor") info.hypervisor = true;
      }
    }
  }
  if (processors > 0) close_block();
  if (processors > 0) info.threads = processors;
  if (processors > 0 && with_ids == processors) info.cores = static_cast<int>(cores.size());
  return info;
}

int count_cores(const std::vector<std::pair<std::string, std::string>>& package_core) {
  std::set<std::pair<std::string, std::string>> unique(package_core.begin(), package_core.end());
  return static_cast<int>(unique.size());
}

MemInfo parse_meminfo(std::string_view text) {
  MemInfo info;
  for (std::string_view line : split_lines(text)) {
    auto kv = key_value(line, ':');
    if (!kv) continue;
    auto words = split_words(kv->second);
    if (words.empty()) continue;
    auto n = parse_uint(words[0]);
    if (!n) continue;
    std::uint64_t bytes = *n;
    if (words.size() > 1 && words[1] == "kB") bytes *= 1024;
    if (kv->first == "MemTotal") info.total_bytes = bytes;
    if (kv->first == "MemAvailable") info.available_bytes = bytes;
  }
  return info;
}

std::optional<std::string> container_from_cgroup(std::string_view cgroup) {
  for (std::string_view line : split_lines(cgroup)) {
    // "hierarchy-ID:controllers:path"; the path is everything after the second colon.
    auto first = line.find(':');
    if (first == std::string_view::npos) continue;
    auto second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    std::string_view path = line.substr(second + 1);
    if (contains(path, "kubepods")) return "kubernetes";
    if (contains(path, "libpod")) return "podman";
    if (contains(path, "/docker/") || contains(path, "/docker-") || starts_with(path, "/docker"))
      return "docker";
    if (contains(path, "/lxc/") || contains(path, "/lxc.payload")) return "lxc";
    if (contains(path, "containerd")) return "containerd";
  }
  return std::nullopt;
}

std::optional<std::string> container_from_mountinfo(std::string_view mountinfo) {
  std::optional<std::string> found;
  for (std::string_view line : split_lines(mountinfo)) {
    // Fields: id parent major:minor root mountpoint options [optional...] - fstype source super
    auto fields = split_words(line, " ");
    if (fields.size() < 5) continue;
    const std::string& mount_point = fields[4];
    if (contains(line, "/var/lib/kubelet/pods/")) return "kubernetes";
    if (mount_point == "/" && contains(line, "/var/lib/docker/")) found = "docker";
    if (mount_point == "/" && contains(line, "/var/lib/containers/storage/")) found = "podman";
    if (mount_point == "/" && contains(line, "/var/lib/containerd/") && !found)
      found = "containerd";
    if (starts_with(mount_point, "/proc/") && contains(line, "lxcfs") && !found) found = "lxc";
  }
  return found;
}

WslKernel wsl_from_kernel(std::string_view kernel_text) {
  WslKernel w;
  const std::string lower = to_lower(kernel_text);
  if (!contains(lower, "microsoft") && !contains(lower, "wsl")) return w;
  w.wsl = true;
  if (contains(lower, "wsl2") || contains(lower, "microsoft-standard")) {
    w.version = "2";
  } else if (contains(kernel_text, "-Microsoft")) {
    w.version = "1";  // WSL 1 reports a fake "4.4.0-<build>-Microsoft" release
  }
  return w;
}

std::optional<std::string> virtualization_from_dmi(std::string_view sys_vendor,
                                                   std::string_view product_name) {
  const std::string vendor = to_lower(trim(sys_vendor));
  const std::string product = to_lower(trim(product_name));
  if (vendor.empty() && product.empty()) return std::nullopt;
  if (vendor == "microsoft corporation") {
    if (contains(product, "virtual machine")) return "hyperv";
    return std::nullopt;  // Surface and other Microsoft hardware
  }
  if (starts_with(vendor, "amazon ec2") || starts_with(product, "amazon ec2")) {
    if (ends_with(product, ".metal")) return std::nullopt;  // bare-metal instance
    return "amazon";
  }
  if (vendor == "google" && contains(product, "google compute engine")) return "google";
  if (vendor == "qemu") return "qemu";
  if (starts_with(vendor, "kvm") || starts_with(product, "kvm")) return "kvm";
  if (starts_with(vendor, "vmware") || starts_with(product, "vmware")) return "vmware";
  if (vendor == "xen" || starts_with(product, "hvm domu")) return "xen";
  if (vendor == "innotek gmbh" || product == "virtualbox") return "virtualbox";
  if (starts_with(vendor, "parallels")) return "parallels";
  if (vendor == "bhyve" || product == "bhyve") return "bhyve";
  return std::nullopt;
}

std::optional<std::string> dmi_value(std::string_view raw) {
  std::string_view v = trim(raw);
  static constexpr std::string_view kPlaceholders[] = {"to be filled by o.e.m.",
                                                       "default string",
                                                       "system manufacturer",
                                                       "system product name",
                                                       "not applicable",
                                                       "not specified",
                                                       "none",
                                                       "o.e.m.",
                                                       "oem"};
  const std::string lower = to_lower(v);
  if (v.empty()) return std::nullopt;
  for (auto p : kPlaceholders) {
    if (lower == p) return std::nullopt;
  }
  return std::string(v);
}

}  // namespace gpudoctor
