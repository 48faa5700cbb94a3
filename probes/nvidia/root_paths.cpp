#include "nvidia/root_paths.hpp"

#include "text.hpp"

namespace gpudoctor {


std::string RootPaths::resolve(std::string_view path) const { return root_.resolve(path); }

bool RootPaths::exists(std::string_view path) const { return root_.exists(resolve(path)); }

bool RootPaths::is_directory(std::string_view path) const {
  return root_.is_directory(resolve(path));
}

std::vector<std::string> RootPaths::list(std::string_view dir) const {
  return root_.list(resolve(dir));
}

std::optional<std::string> RootPaths::read(std::string_view path, std::size_t max_bytes) const {
  return root_.read(resolve(path), max_bytes);
}

std::optional<std::string> RootPaths::read_line(std::string_view path) const {
  return root_.read_line(resolve(path));
}

std::string RootPaths::host_path(std::string_view path) const {
  return root_.host_path(resolve(path)).string();
}

std::string parent_path(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string file_name(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string join_path(std::string_view dir, std::string_view name) {
  std::string out(dir);
  while (!out.empty() && out.back() == '/') out.pop_back();
  while (!name.empty() && name.front() == '/') name.remove_prefix(1);
  return out + "/" + std::string(name);
}

}  // namespace gpudoctor
