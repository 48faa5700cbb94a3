#include "render/query_text.hpp"

namespace gpudoctor {

std::string render_query_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const Style&) {
  return dump_json(query_json(snap, devices), 2) + "\n";
}

Json query_json(const Snapshot& snap, const std::vector<MergedDevice>& devices) {
  Json j = snap;
  j["devices"] = devices_json(snap, devices);
  return j;
}

}  // namespace gpudoctor
