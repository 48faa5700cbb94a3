#include "nvidia/root_paths.hpp"

#include <deque>

#include "text.hpp"

namespace gpudoctor {

namespace {

std::deque<std::string> components(std::string_view path) {
  std::deque<std::string> out;
  for (auto& c : split_words(path, "/")) out.push_back(std::move(c));
  return out;
}

std::string from_stack(const std::vector<std::string>& stack) {
  if (stack.empty()) return "/";
  std::string out;
  for (const auto& c : stack) out += "/" + c;
  return out;
}

}  // namespace

std::string RootPaths::resolve(std::string_view path) const {
  std::vector<std::string> stack;
  std::deque<std::string> todo = components(path);
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      if (!stack.empty()) stack.pop_back();
      continue;
    }
    stack.push_back(c);
    auto target = root_.link_target(from_stack(stack));
    if (!target) continue;
    stack.pop_back();
    if (++links > 40) {
      stack.push_back(c);  // a loop: give up following, keep the name
      continue;
    }
    if (!target->empty() && target->front() == '/') stack.clear();
    auto more = components(*target);
    todo.insert(todo.begin(), more.begin(), more.end());
  }
  return from_stack(stack);
}

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
