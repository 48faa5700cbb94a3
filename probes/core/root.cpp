#include "core/root.hpp"

#include "text.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <system_error>

namespace gpudoctor {

namespace fs = std::filesystem;

Root::Root(fs::path base) : base_(std::move(base)) {}

fs::path Root::raw_path(std::string_view target_path) const {
  std::string_view rel = target_path;
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  if (is_host()) return fs::path("/") / rel;
  return base_ / rel;
}

fs::path Root::host_path(std::string_view target_path) const {
  if (is_host()) return raw_path(target_path);  // the kernel follows links correctly here
  return raw_path(resolve(target_path));
}

std::string Root::resolve(std::string_view target_path) const {
  auto components = [](std::string_view path) {
    std::deque<std::string> out;
    for (auto& c : split_words(path, "/")) out.push_back(std::move(c));
    return out;
  };
  auto joined = [](const std::vector<std::string>& stack) {
    std::string out;
    for (const auto& c : stack) out += "/" + c;
    return out.empty() ? std::string("/") : out;
  };
  std::vector<std::string> stack;
  std::deque<std::string> todo = components(target_path);
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
    std::error_code ec;
    fs::path link = fs::read_symlink(raw_path(joined(stack)), ec);
    if (ec) continue;
    stack.pop_back();
    if (++links > 40) {
      stack.push_back(c);  // a loop: stop following, keep the name
      continue;
    }
    std::string t = link.string();
    if (!t.empty() && t.front() == '/') stack.clear();
    auto more = components(t);
    todo.insert(todo.begin(), more.begin(), more.end());
  }
  return joined(stack);
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
  std::string path(target_path);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const auto slash = path.rfind('/');
  const std::string parent = slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  fs::path t = fs::read_symlink(host_path(parent) / name, ec);
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
