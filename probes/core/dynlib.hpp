#pragma once
#include <optional>
#include <string>

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

}  // namespace gpudoctor
