#pragma once
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor {

/// One way to open a vendor library: an owning handle with typed symbol lookup.
/// Only ever used inside an isolated child.
class DynamicLibrary {
 public:
  /// Opens with RTLD_NOW | RTLD_LOCAL; on failure returns nullopt and sets *error to dlerror().
  static std::optional<DynamicLibrary> open(const std::string& name, std::string* error);

  DynamicLibrary(DynamicLibrary&& other) noexcept : handle_(other.handle_) {
    other.handle_ = nullptr;
  }
  DynamicLibrary& operator=(DynamicLibrary&&) = delete;
  DynamicLibrary(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  template <typename F>
  F* symbol(const char* name) const {
    return reinterpret_cast<F*>(raw_symbol(name));
  }
  /// The file the dynamic loader actually mapped (dlinfo), which may differ from the name.
  std::optional<std::string> path() const;

 private:
  explicit DynamicLibrary(void* handle) : handle_(handle) {}
  void* raw_symbol(const char* name) const;
  void* handle_;
};

/// Fills a table of entry points from one library, typed by the pointer each fills: get() takes
/// what is there, need() also remembers the first one missing.
class EntryPoints {
 public:
  explicit EntryPoints(const DynamicLibrary& lib) : lib_(lib) {}

  template <typename F>
  bool get(F*& fn, const char* name) {
    fn = lib_.symbol<F>(name);
    return fn != nullptr;
  }
  template <typename F>
  void need(F*& fn, const char* name) {
    if (!get(fn, name) && !missing_) missing_ = name;
  }
  /// The first entry point need() did not find.
  const std::optional<std::string>& missing() const { return missing_; }

 private:
  const DynamicLibrary& lib_;
  std::optional<std::string> missing_;
};

/// The first of `names` the dynamic loader opens (its name in *loaded); the dlerror() text of
/// each name tried before it in *errors.
std::optional<DynamicLibrary> open_first(const std::vector<std::string>& names, std::string* loaded,
                                         std::vector<std::string>* errors);

/// The first dlopen failure that is not "no such file" for the name itself (a file the loader
/// refused: wrong ELF class, a missing dependency, …); nullopt when nothing was found at all.
std::optional<std::string> refusal(const std::vector<std::string>& names,
                                   const std::vector<std::string>& errors);

}  // namespace gpudoctor
