#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "devices.hpp"
#include "json.hpp"
#include "json_writer.hpp"
#include "model/snapshot.hpp"
#include "render/style.hpp"

namespace gpudoctor {

/// `gpudoctor query`: host, then one block per merged device with each backend's view,
/// then the ICDs / driver manifests and how each backend's probe ended.
std::string render_query_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const Style& style);

/// "Probes": how each backend and each isolated job ended, with its time.
void render_probe_lines(std::ostringstream& os, const Snapshot& snap, const Style& style);

/// `gpudoctor query --json`: the snapshot plus the merged "devices" with their views.
Json query_json(const Snapshot& snap, const std::vector<MergedDevice>& devices);
/// query_json(…) written straight to `out`, in the same bytes, with no DOM of the snapshot.
void write_query_json(JsonWriter& out, const Snapshot& snap,
                      const std::vector<MergedDevice>& devices);

}  // namespace gpudoctor
