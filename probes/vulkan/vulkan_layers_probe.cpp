#include "vulkan/vulkan_layers_probe.hpp"

#include <filesystem>
#include <set>

#include "api/vulkan/vulkan_layers.hpp"
#include "api/vulkan/vulkan_search.hpp"
#include "parse/vulkan_manifest.hpp"
#include "text.hpp"

namespace gpudoctor::vulkan {

namespace {

std::string parent_dir(const std::string& file) {
  auto slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : file.substr(0, slash);
}

std::string env_text(const std::optional<std::pair<std::string, std::string>>& v) {
  return v->second.empty() ? v->first : v->first + "=" + v->second;
}

class LayerDiscovery {
 public:
  LayerDiscovery(const ProbeContext& ctx, const LibrarySearch& libs, VulkanInfo& info)
      : ctx_(ctx), libs_(libs), info_(info) {}

  void run() {
    for (const auto& place : vulkan_implicit_layer_search_plan(ctx_.env).places) {
      std::string path = place.path;
      while (path.size() > 1 && path.back() == '/') path.pop_back();
      if (!starts_with(path, "/")) continue;  // relative entries: no working directory here
      info_.layer_search_paths.push_back(path);
      if (ctx_.root.is_directory(path)) {
        for (const auto& name : ctx_.root.list(path)) {
          if (ends_with(name, ".json")) add_file(place.source, path + "/" + name);
        }
      } else if (place.from_variable && ctx_.root.exists(path)) {
        add_file(place.source, path);
      }
    }
    for (const auto& name : vulkan_layer_variables()) record(name);
  }

 private:
  void record(const std::string& variable) {
    if (auto v = ctx_.env.get(variable)) info_.layer_environment[variable] = *v;
  }

  void add_file(const std::string& source, const std::string& file) {
    if (!seen_.insert(file).second) return;
    auto text = ctx_.root.read(file);
    VulkanLayerManifestFile parsed =
        text ? parse_vulkan_layer_manifest(*text) : VulkanLayerManifestFile{};
    if (!text || parsed.error) {
      VulkanLayer l;
      l.source = source;
      l.file = file;
      l.error = text ? *parsed.error : "cannot be read";
      info_.implicit_layers.push_back(std::move(l));
      return;
    }
    for (const auto& entry : parsed.layers) add_layer(source, file, entry);
  }

  void add_layer(const std::string& source, const std::string& file, const VulkanLayerEntry& e) {
    VulkanLayer l;
    l.source = source;
    l.file = file;
    l.name = e.name;
    l.library_path = e.library_path;
    l.api_version = e.api_version;
    if (e.enable_environment) {
      l.enable_environment = env_text(e.enable_environment);
      record(e.enable_environment->first);
    }
    if (e.disable_environment) {
      l.disable_environment = e.disable_environment->first;
      record(e.disable_environment->first);
    }
    l.error = e.error;
    if (!l.error && e.library_path) {
      l.resolved = resolve_manifest_library(ctx_.root, libs_, file, *e.library_path);
      // Other dynamic-string tokens ($PLATFORM, $ORIGIN) are not expanded here: not judged.
      const bool tokens = e.library_path->find('$') != std::string::npos &&
                          e.library_path->find("$LIB") == std::string::npos;
      if (!l.resolved && !tokens) l.error = "library " + *e.library_path + " not found";
    }
    l.inactive_because = implicit_layer_inactive(e, ctx_.env);
    l.active = !l.inactive_because && !l.error;
    info_.implicit_layers.push_back(std::move(l));
  }

  const ProbeContext& ctx_;
  const LibrarySearch& libs_;
  VulkanInfo& info_;
  std::set<std::string> seen_;
};

}  // namespace

std::optional<std::string> resolve_manifest_library(const Root& root, const LibrarySearch& libs,
                                                    const std::string& manifest,
                                                    const std::string& library) {
  if (library.find('/') == std::string::npos) return libs.find(library);
  if (const auto lib = library.find("$LIB"); lib != std::string::npos) {
    // ld.so expands $LIB to the process's library directory (MangoHud's manifests use it).
    for (const char* dir : {"lib64", "lib/x86_64-linux-gnu", "lib", "lib/aarch64-linux-gnu",
                            "lib32", "lib/i386-linux-gnu"}) {
      std::string path = library;
      path.replace(lib, 4, dir);
      if (root.exists(path) && !root.is_directory(path)) return path;
    }
    return std::nullopt;
  }
  std::string path = starts_with(library, "/") ? library : parent_dir(manifest) + "/" + library;
  path = std::filesystem::path(path).lexically_normal().string();
  if (root.exists(path) && !root.is_directory(path)) return path;
  return std::nullopt;
}

void discover_implicit_layers(const ProbeContext& ctx, const LibrarySearch& libs,
                              VulkanInfo& info) {
  LayerDiscovery(ctx, libs, info).run();
}

}  // namespace gpudoctor::vulkan
