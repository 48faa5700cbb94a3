#include "fleet/node_name.hpp"

#include "text.hpp"

namespace gpudoctor {

namespace {

std::optional<std::string> usable(const std::optional<std::string>& value) {
  if (!value) return std::nullopt;
  std::string s(trim(*value));
  for (auto& c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

std::optional<NodeName> resolve_node_name(const std::optional<std::string>& flag,
                                          const Environment& env,
                                          const std::optional<std::string>& host_name) {
  if (auto n = usable(flag)) return NodeName{*n, "--node-name"};
  for (const char* var : {"SLURMD_NODENAME", "NODE_NAME"}) {
    if (auto n = usable(env.get(var))) return NodeName{*n, var};
  }
  if (auto n = usable(host_name)) return NodeName{*n, "host name"};
  return std::nullopt;
}

}  // namespace gpudoctor
