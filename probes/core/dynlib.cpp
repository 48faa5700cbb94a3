#include "core/dynlib.hpp"

#include <dlfcn.h>
#ifdef __GLIBC__
#include <link.h>
#endif

namespace gpudoctor {

std::optional<DynamicLibrary> DynamicLibrary::open(const std::string& name, std::string* error) {
  void* h = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    if (error != nullptr) {
      const char* e = ::dlerror();
      *error = e != nullptr ? e : "dlopen failed";
    }
    return std::nullopt;
  }
  return DynamicLibrary(h);
}

DynamicLibrary::~DynamicLibrary() {
  // Deliberately not dlclose'd: vendor libraries often misbehave when unloaded, and the
  // child that opened this exits right after.
}

void* DynamicLibrary::raw_symbol(const char* name) const { return ::dlsym(handle_, name); }

std::optional<std::string> DynamicLibrary::path() const {
#ifndef __GLIBC__
  return std::nullopt;  // dlinfo is glibc's; elsewhere the mapped file stays unknown
#else
  link_map* map = nullptr;
  if (::dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr) {
    return std::nullopt;
  }
  return std::string(map->l_name);
#endif
}

std::optional<DynamicLibrary> open_first(const std::vector<std::string>& names, std::string* loaded,
                                         std::vector<std::string>* errors) {
  for (const auto& name : names) {
    std::string error;
    if (auto lib = DynamicLibrary::open(name, &error)) {
      *loaded = name;
      return lib;
    }
    errors->push_back(error);
  }
  return std::nullopt;
}

std::optional<std::string> refusal(const std::vector<std::string>& names,
                                   const std::vector<std::string>& errors) {
  for (std::size_t i = 0; i < errors.size() && i < names.size(); ++i) {
    if (errors[i].rfind(names[i] + ": cannot open shared object file", 0) != 0) return errors[i];
  }
  return std::nullopt;
}

}  // namespace gpudoctor
