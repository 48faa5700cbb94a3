#include "vulkan/vulkan_layers.hpp"

#include <cstdlib>
#include <set>

#include "api/vulkan/vulkan_layer_activation.hpp"
#include "api/vulkan/vulkan_search.hpp"
#include "core/library_search.hpp"
#include "core/paths.hpp"
#include "text.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr std::size_t kMaxLayerManifest = 256 * 1024;

/// As the loader hands it to dlopen: a path with a slash from the manifest's directory, a bare
/// name through the library search.
std::string layer_library(const LibrarySearch& libs, const std::string& manifest,
                          const std::string& lib) {
  if (lib.find('/') == std::string::npos) return libs.find(lib).value_or(lib);
  return starts_with(lib, "/") ? lib : join_path(parent_path(manifest), lib);
}

void add_layers_of(const ProbeContext& ctx, const LibrarySearch& libs, const std::string& file,
                   bool implicit, LayerPlan& plan, std::set<std::string>& names) {
  auto text = ctx.root.read(file, kMaxLayerManifest);
  if (!text) return;
  for (const auto& m : parse_vulkan_layer_entries(*text)) {
    if (implicit && m.disable_environment) plan.implicit_disables.push_back(*m.disable_environment);
    auto because = vulkan_layer_active_because(m, implicit, ctx.env);
    // The first manifest of a name wins, as in the loader's search order.
    if (!because || !m.library_path || !names.insert(m.name).second) continue;
    plan.active.push_back({m.name, file, layer_library(libs, file, *m.library_path), *because,
                           implicit, m.disable_environment, m.enable_environment});
  }
}

}  // namespace

LayerPlan discover_layers(const ProbeContext& ctx) {
  LayerPlan plan;
  const LibrarySearch libs(ctx.root, ctx.env);
  std::set<std::string> names;
  std::set<std::string> seen_files;
  for (bool implicit : {true, false}) {
    for (const auto& place : vulkan_layer_search_plan(ctx.env, implicit).places) {
      std::vector<std::string> files;
      if (ctx.root.is_directory(place.path)) {
        for (const auto& name : ctx.root.list(place.path)) {
          if (ends_with(name, ".json")) files.push_back(join_path(place.path, name));
        }
      } else if (place.from_variable) {
        files.push_back(place.path);
      }
      for (const auto& f : files) {
        if (seen_files.insert(f).second) add_layers_of(ctx, libs, f, implicit, plan, names);
      }
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
