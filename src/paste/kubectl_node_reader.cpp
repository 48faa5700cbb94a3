// `kubectl describe node`'s Capacity and Allocatable blocks (and `kubectl get node -o yaml`'s
// capacity and allocatable): the GPUs a device plugin
// registered (Capacity) against those it still offers (Allocatable). NVIDIA's device plugin
// marks a GPU unhealthy after an Xid it does not skip and never marks it healthy again, so
// Allocatable stays below Capacity until the plugin restarts (NVIDIA/k8s-device-plugin,
// internal/rm/health.go).
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_kubectl = "kubectl describe node";

/// The extended resources device plugins advertise for GPUs.
bool gpu_resource(std::string_view name) {
  return name == "nvidia.com/gpu" || name == "amd.com/gpu" || starts_with(name, "gpu.intel.com/") ||
         starts_with(name, "nvidia.com/mig-");
}

/// "  nvidia.com/gpu:     8" -> {"nvidia.com/gpu", "8"}; any "name: value" row of the block
/// ("memory:  791635548Ki", "hugepages-1Gi:  0").
std::optional<std::pair<std::string_view, std::string_view>> block_row(std::string_view t) {
  const auto colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const std::string_view name = trim(t.substr(0, colon));
  const std::string_view value = trim(t.substr(colon + 1));
  if (name.empty() || value.empty() || name.find(' ') != std::string_view::npos) return std::nullopt;
  return std::make_pair(name, value);
}

/// A count: digits only, at most nine of them, bare or quoted as YAML writes it ("16").
std::optional<long> count_of(std::string_view v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  if (v.empty() || v.size() > 9) return std::nullopt;
  long n = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

void read_kubectl_node(PasteSink& sink) {
  const auto& lines = sink.lines();
  // Per block ("Capacity", "Allocatable"): resource -> (count, line).
  std::map<std::string, std::map<std::string, std::pair<long, std::size_t>>> blocks;
  std::string block;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].fence) {
      block.clear();
      continue;
    }
    const std::string_view t = trim(lines[i].text);
    // `kubectl describe node` writes "Capacity:", `kubectl get node -o yaml` "capacity:".
    if (t == "Capacity:" || t == "Allocatable:" || t == "capacity:" || t == "allocatable:") {
      if (sink.claimed(i)) continue;
      block = t[0] == 'c' || t[0] == 'C' ? "Capacity" : "Allocatable";
      sink.claim(i, kFormat_kubectl);
      continue;
    }
    if (block.empty()) continue;
    // The block's rows are indented "name: value"; anything else ends it.
    const bool indented = !lines[i].text.empty() && (lines[i].text[0] == ' ' || lines[i].text[0] == '\t');
    const auto row = indented ? block_row(t) : std::nullopt;
    if (!row || sink.claimed(i)) {
      block.clear();
      continue;
    }
    sink.claim(i, kFormat_kubectl);
    if (!gpu_resource(row->first)) continue;
    if (const auto n = count_of(row->second)) blocks[block][std::string(row->first)] = {*n, i};
  }
  const auto cap = blocks.find("Capacity");
  const auto alloc = blocks.find("Allocatable");
  if (cap == blocks.end() || alloc == blocks.end()) return;
  for (const auto& [name, c] : cap->second) {
    const auto a = alloc->second.find(name);
    if (a == alloc->second.end()) continue;
    sink.fact("kubernetes." + name + ".capacity", std::to_string(c.first), c.second);
    sink.fact("kubernetes." + name + ".allocatable", std::to_string(a->second.first), a->second.second);
    if (a->second.first < c.first) {
      sink.symptom("k8s.gpus_unhealthy", "kubectl", a->second.second,
                   {{"resource", name},
                    {"capacity", std::to_string(c.first)},
                    {"allocatable", std::to_string(a->second.first)}});
    }
  }
}

}  // namespace gpudoctor
