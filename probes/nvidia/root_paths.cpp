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

}  // namespace gpudoctor
