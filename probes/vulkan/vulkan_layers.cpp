#include "vulkan/vulkan_layers.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>

#include "api/vulkan/vulkan_layers.hpp"
#include "api/vulkan/vulkan_search.hpp"
#include "parse/vulkan_manifest.hpp"
#include "text.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr std::size_t kMaxLayerManifest = 256 * 1024;

std::string parent_dir(const std::string& file) {
  auto slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : file.substr(0, slash);
}

/// One layer manifest file where the loader looks, as read.
struct LayerFile {
  std::string source;  ///< the search place it came from ("VK_ADD_IMPLICIT_LAYER_PATH", …)
  std::string path;
  bool implicit = false;
  std::optional<VulkanLayerManifestFile> parsed;  ///< none: it cannot be read
};

/// The one walk over the layer search places (api/vulkan/vulkan_search): each manifest file
/// once, in the loader's order, implicit places first when both are asked for. `places`, when
/// given, gets the absolute places searched.
std::vector<LayerFile> layer_files(const ProbeContext& ctx, std::initializer_list<bool> kinds,
                                   std::vector<std::string>* places = nullptr) {
  std::vector<LayerFile> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& source, const std::string& file, bool implicit) {
    if (!seen.insert(file).second) return;
    auto text = ctx.root.read(file, kMaxLayerManifest);
    LayerFile f{source, file, implicit, std::nullopt};
    if (text) f.parsed = parse_vulkan_layer_manifest(*text);
    out.push_back(std::move(f));
  };
  for (bool implicit : kinds) {
    for (const auto& place : vulkan_layer_search_plan(ctx.env, implicit).places) {
      std::string path = place.path;
      while (path.size() > 1 && path.back() == '/') path.pop_back();
      if (!starts_with(path, "/")) continue;  // relative entries: no working directory here
      if (places) places->push_back(path);
      if (ctx.root.is_directory(path)) {
        for (const auto& name : ctx.root.list(path)) {
          if (ends_with(name, ".json")) add(place.source, path + "/" + name, implicit);
        }
      } else if (place.from_variable && ctx.root.exists(path)) {
        add(place.source, path, implicit);
      }
    }
  }
  return out;
}

std::string env_text(const std::pair<std::string, std::string>& v) {
  return v.second.empty() ? v.first : v.first + "=" + v.second;
}

/// The implicit layers into the snapshot, with what decides each.
class ImplicitLayers {
 public:
  ImplicitLayers(const ProbeContext& ctx, const LibrarySearch& libs, VulkanInfo& info)
      : ctx_(ctx), libs_(libs), info_(info) {}

  void run() {
    for (const auto& f : layer_files(ctx_, {true}, &info_.layer_search_paths)) {
      if (!f.parsed || f.parsed->error) {
        VulkanLayer l;
        l.source = f.source;
        l.file = f.path;
        l.error = f.parsed ? *f.parsed->error : "cannot be read";
        info_.implicit_layers.push_back(std::move(l));
        continue;
      }
      for (const auto& entry : f.parsed->layers) add_layer(f, entry);
    }
    for (const auto& name : vulkan_layer_variables()) record(name);
  }

 private:
  void record(const std::string& variable) {
    if (auto v = ctx_.env.get(variable)) info_.layer_environment[variable] = *v;
  }

  void add_layer(const LayerFile& f, const VulkanLayerEntry& e) {
    VulkanLayer l;
    l.source = f.source;
    l.file = f.path;
    l.name = e.name;
    l.library_path = e.library_path;
    l.api_version = e.api_version;
    if (e.enable_environment) {
      l.enable_environment = env_text(*e.enable_environment);
      record(e.enable_environment->first);
    }
    if (e.disable_environment) {
      l.disable_environment = e.disable_environment->first;
      record(e.disable_environment->first);
    }
    l.error = e.error;
    if (!l.error && e.library_path) {
      l.resolved = resolve_manifest_library(ctx_.root, libs_, f.path, *e.library_path);
      // Other dynamic-string tokens ($PLATFORM, $ORIGIN) are not expanded here: not judged.
      const bool tokens = e.library_path->find('$') != std::string::npos &&
                          e.library_path->find("$LIB") == std::string::npos;
      if (!l.resolved && !tokens) l.error = "library " + *e.library_path + " not found";
    }
    const auto decision = vulkan_layer_decision(e, true, ctx_.env);
    if (!decision.active) l.inactive_because = decision.because;
    l.active = decision.active && !l.error;
    info_.implicit_layers.push_back(std::move(l));
  }

  const ProbeContext& ctx_;
  const LibrarySearch& libs_;
  VulkanInfo& info_;
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
  ImplicitLayers(ctx, libs, info).run();
}

LayerPlan discover_layers(const ProbeContext& ctx) {
  LayerPlan plan;
  const LibrarySearch libs(ctx.root, ctx.env);
  std::set<std::string> names;
  for (const auto& f : layer_files(ctx, {true, false})) {
    if (!f.parsed || f.parsed->error) continue;
    for (const auto& m : f.parsed->layers) {
      if (!m.name || m.error) continue;
      if (f.implicit && m.disable_environment) {
        plan.implicit_disables.push_back(m.disable_environment->first);
      }
      // A meta-layer has no library of its own: its components are layers of their own.
      if (m.meta || !m.library_path) continue;
      const auto decision = vulkan_layer_decision(m, f.implicit, ctx.env);
      // The first manifest of a name wins, as in the loader's search order.
      if (!decision.active || !names.insert(*m.name).second) continue;
      plan.active.push_back(
          {*m.name, f.path,
           resolve_manifest_library(ctx.root, libs, f.path, *m.library_path)
               .value_or(*m.library_path),
           decision.because, f.implicit,
           m.disable_environment ? std::optional<std::string>(m.disable_environment->first)
                                 : std::nullopt,
           m.enable_environment});
    }
  }
  return plan;
}

void load_no_layers(const LayerPlan& plan) {
  ::setenv("VK_LOADER_LAYERS_DISABLE", "~all~", 1);
  ::unsetenv("VK_LOADER_LAYERS_ENABLE");
  ::unsetenv("VK_LOADER_LAYERS_ALLOW");  // it would undo the disable (loaders from 1.3.262)
  ::unsetenv("VK_INSTANCE_LAYERS");
  for (const auto& v : plan.implicit_disables) ::setenv(v.c_str(), "1", 1);
}

void load_layer_alone(const LayerPlan& plan, const LayerUnderTest& layer) {
  load_no_layers(plan);
  // Enabling wins over VK_LOADER_LAYERS_DISABLE; VK_INSTANCE_LAYERS for loaders before 1.3.234.
  ::setenv("VK_LOADER_LAYERS_ENABLE", layer.name.c_str(), 1);
  if (!layer.implicit) ::setenv("VK_INSTANCE_LAYERS", layer.name.c_str(), 1);
  if (layer.disable_environment) ::unsetenv(layer.disable_environment->c_str());
  if (layer.enable_environment) {
    ::setenv(layer.enable_environment->first.c_str(), layer.enable_environment->second.c_str(), 1);
  }
}

}  // namespace gpudoctor::vulkan
