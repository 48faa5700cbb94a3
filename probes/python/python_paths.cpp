#include "python/python_paths.hpp"

#include <vector>

#include "text.hpp"

namespace gpudoctor::python {

namespace {

constexpr int kMaxLinks = 40;  // as the kernel's ELOOP limit

void push_components(std::vector<std::string>& todo, std::string_view path) {
  std::vector<std::string> parts = split_words(path, "/");
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) todo.push_back(std::move(*it));
}

}  // namespace

std::string resolve_path(const Root& root, std::string_view path) {
  std::vector<std::string> todo;
  std::vector<std::string> done;
  push_components(todo, path);
  int links = 0;
  while (!todo.empty()) {
    std::string part = std::move(todo.back());
    todo.pop_back();
    if (part == ".") continue;
    if (part == "..") {
      if (!done.empty()) done.pop_back();
      continue;
    }
    std::string current = "/" + join(done, "/") + (done.empty() ? "" : "/") + part;
    auto target = root.link_target(current);
    if (target && !target->empty() && links < kMaxLinks) {
      ++links;
      if (target->front() == '/') done.clear();
      push_components(todo, *target);
      continue;
    }
    done.push_back(std::move(part));
  }
  return "/" + join(done, "/");
}

std::string parent_dir(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string base_name(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string join_path(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (out.empty() || out.back() != '/') out += '/';
  while (!name.empty() && name.front() == '/') name.remove_prefix(1);
  out += name;
  return out;
}

}  // namespace gpudoctor::python
