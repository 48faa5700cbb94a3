#include "core/root.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace gpudoctor {

namespace fs = std::filesystem;

Root::Root(fs::path base) : base_(std::move(base)) {}

fs::path Root::host_path(std::string_view target_path) const {
  std::string_view rel = target_path;
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  if (is_host()) return fs::path("/") / rel;
  return base_ / rel;
}

std::optional<std::string> Root::read(std::string_view target_path, std::size_t max_bytes) const {
  std::ifstream in(host_path(target_path), std::ios::binary);
  if (!in) return std::nullopt;
  std::string out;
  char buf[4096];
  while (out.size() < max_bytes && in.read(buf, sizeof buf).gcount() > 0) {
    out.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return std::nullopt;
  if (out.size() > max_bytes) out.resize(max_bytes);
  return out;
}

std::optional<std::string> Root::read_line(std::string_view target_path) const {
  auto text = read(target_path, 64 * 1024);
  if (!text) return std::nullopt;
  std::string line = text->substr(0, text->find('\n'));
  auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return std::string();
  auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

std::vector<std::string> Root::list(std::string_view target_dir) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(host_path(target_dir), ec), end; !ec && it != end;
       it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> Root::link_target(std::string_view target_path) const {
  std::error_code ec;
  fs::path t = fs::read_symlink(host_path(target_path), ec);
  if (ec) return std::nullopt;
  return t.string();
}

bool Root::exists(std::string_view target_path) const {
  std::error_code ec;
  return fs::exists(host_path(target_path), ec);
}

bool Root::is_directory(std::string_view target_path) const {
  std::error_code ec;
  return fs::is_directory(host_path(target_path), ec);
}

}  // namespace gpudoctor
