#pragma once
// The implicit layers the Vulkan loader would insert into every program: found where the loader
// looks, their libraries located, and whether this environment switches each on or off.
#include <optional>
#include <string>

#include "core/library_search.hpp"
#include "model/vulkan.hpp"
#include "probe_context.hpp"

namespace gpudoctor::vulkan {

/// A manifest's library as the loader opens it: an absolute path as written, a relative one
/// from the manifest's directory, a bare name through the dynamic loader's search.
std::optional<std::string> resolve_manifest_library(const Root& root, const LibrarySearch& libs,
                                                    const std::string& manifest,
                                                    const std::string& library);

/// Fills info.layer_search_paths, info.implicit_layers and info.layer_environment.
void discover_implicit_layers(const ProbeContext& ctx, const LibrarySearch& libs,
                              VulkanInfo& info);

}  // namespace gpudoctor::vulkan
