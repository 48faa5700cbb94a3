#include "core/root_walk.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <vector>

namespace gpudoctor {

namespace {

// A directory handle that grants lookups only. macOS has no O_PATH; there a directory is
// opened for reading, which lookups need no more than that.
#ifdef O_PATH
constexpr int kDirFlags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
#else
constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
#endif

std::deque<std::string> components(std::string_view path) {
  std::deque<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

std::string joined(const std::vector<std::string>& stack) {
  if (stack.empty()) return "/";
  std::string out;
  for (const auto& c : stack) out += "/" + c;
  return out;
}

/// After an error: the failed component and the rest, as written, with "." and ".." applied.
std::string lexical_rest(std::vector<std::string> stack, std::string failed,
                         const std::deque<std::string>& todo) {
  auto apply = [&stack](const std::string& c) {
    if (c.empty() || c == ".") return;
    if (c == "..") {
      if (!stack.empty()) stack.pop_back();
      return;
    }
    stack.push_back(c);
  };
  apply(failed);
  for (const auto& c : todo) apply(c);
  return joined(stack);
}

RootWalk failure(int error, std::string path) {
  RootWalk w;
  w.error = error;
  w.path = std::move(path);
  return w;
}

UniqueFd dup_dir(int fd) { return UniqueFd(::fcntl(fd, F_DUPFD_CLOEXEC, 0)); }

}  // namespace

RootWalk walk_under(int root_fd, std::string_view target_path, bool follow_last) {
  if (target_path.size() >= kMaxTargetPath) {
    return failure(ENAMETOOLONG, std::string(target_path.substr(0, 64)) + "…");
  }
  UniqueFd cur = dup_dir(root_fd);
  if (!cur) return failure(errno, std::string(target_path));
  std::vector<std::string> stack;
  std::deque<std::string> todo = components(target_path);
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      if (stack.empty()) continue;  // the root is its own parent
      UniqueFd up(::openat(cur.get(), "..", kDirFlags));
      if (!up) return failure(errno, lexical_rest(stack, "..", todo));
      cur = std::move(up);
      stack.pop_back();
      continue;
    }
    const bool last = todo.empty();
    if (last && !follow_last) {
      stack.push_back(c);
      return {std::move(cur), std::move(c), joined(stack), 0};
    }
    struct stat st {};
    if (::fstatat(cur.get(), c.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return failure(errno, lexical_rest(stack, c, todo));
    }
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxSymlinks) return failure(ELOOP, lexical_rest(stack, c, todo));
      char buf[kMaxTargetPath];
      const ssize_t n = ::readlinkat(cur.get(), c.c_str(), buf, sizeof buf);
      if (n < 0) return failure(errno, lexical_rest(stack, c, todo));
      if (n == 0) return failure(ENOENT, lexical_rest(stack, c, todo));
      if (static_cast<std::size_t>(n) >= sizeof buf) {
        return failure(ENAMETOOLONG, lexical_rest(stack, c, todo));
      }
      const std::string_view target(buf, static_cast<std::size_t>(n));
      if (target.front() == '/') {
        cur = dup_dir(root_fd);
        if (!cur) return failure(errno, lexical_rest({}, std::string(target), todo));
        stack.clear();
      }
      auto more = components(target);
      todo.insert(todo.begin(), more.begin(), more.end());
      continue;
    }
    if (last) {
      stack.push_back(c);
      return {std::move(cur), std::move(c), joined(stack), 0};
    }
    if (!S_ISDIR(st.st_mode)) return failure(ENOTDIR, lexical_rest(stack, c, todo));
    UniqueFd next(::openat(cur.get(), c.c_str(), kDirFlags));
    if (!next) return failure(errno, lexical_rest(stack, c, todo));
    cur = std::move(next);
    stack.push_back(std::move(c));
  }
  return {std::move(cur), ".", joined(stack), 0};
}

}  // namespace gpudoctor
