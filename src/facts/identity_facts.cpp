// What metrics need to name a device the way dcgm-exporter does, and which device each smoke
// result ran on.
#include <cctype>
#include <set>

#include "backends.hpp"
#include "facts/facts.hpp"

namespace gpudoctor::facts {

namespace {

/// "0000:1b:00.0" → "00000000:1B:00.0": NVML's busId, the form dcgm-exporter's pci_bus_id
/// label carries (eight digits of domain, upper-case hex).
std::optional<std::string> nvml_bus_id(const std::optional<std::string>& address) {
  if (!address) return std::nullopt;
  const auto normal = normalize_pci_address(*address);
  if (!normal) return std::nullopt;
  std::string s = "0000" + *normal;
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// Appends one API's smoke results. They are tied to devices only when there is one per device
/// of the API, in its order, which is how every probe runs them. `holder[i]`: the merged
/// device that holds entry `i` of the API's list.
void add_smoke(const std::vector<SmokeResult>& results, std::size_t api_devices,
               const std::vector<std::optional<std::size_t>>& holder, std::vector<Smoke>& out) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    const SmokeResult& r = results[i];
    Smoke s{r.api, i, r.device, r.status, std::nullopt, std::nullopt};
    if (r.gflops) s.flops = *r.gflops * 1e9;
    if (results.size() == api_devices && i < holder.size()) s.device_index = holder[i];
    out.push_back(std::move(s));
  }
}

/// For each entry of `api`'s list, the first merged device that holds it: one walk of the
/// devices, not one per result.
std::vector<std::optional<std::size_t>> holders(const std::vector<MergedDevice>& devices,
                                                std::string_view api, std::size_t api_devices) {
  std::vector<std::optional<std::size_t>> out(api_devices);
  for (std::size_t d = 0; d < devices.size(); ++d) {
    for (std::size_t i : devices[d].in(api)) {
      if (i < out.size() && !out[i]) out[i] = d;
    }
  }
  return out;
}

}  // namespace

bool is_gpu(const Device& d) {
  return !d.software && (d.kind == "GPU" || d.kind == "accelerator");
}

bool is_version(const Compared& c) {
  static const std::set<std::string> areas = {"driver",    "host",  "toolkit", "cudnn",
                                              "framework", "python"};
  return areas.count(c.area) != 0;
}

Identity device_identity(const Snapshot& snap, const MergedDevice& m) {
  Identity id;
  id.model_name = m.name;
  id.pci_bus_id = nvml_bus_id(m.pci_address);
  // What an API says replaces what the merge guessed; NVML last, as dcgm-exporter reads NVML.
  auto take = [&id](int index, const auto& d) {
    id.gpu = std::to_string(index);
    if (d.uuid) id.uuid = d.uuid;
    if (d.name) id.model_name = *d.name;
    if (auto bus = nvml_bus_id(d.pci_bus_id)) id.pci_bus_id = bus;
  };
  if (m.saw(kBackendCuda) && snap.cuda) {
    const CudaDevice& c = snap.cuda->devices[m.in(kBackendCuda).front()];
    take(c.ordinal, c);
  }
  if (m.saw(kBackendNvml) && snap.nvml) {
    const NvmlDevice& n = snap.nvml->devices[m.in(kBackendNvml).front()];
    take(n.index, n);
  }
  return id;
}

std::vector<Smoke> smoke_facts(const Snapshot& snap, const std::vector<MergedDevice>& devices) {
  std::vector<Smoke> out;
  for (const auto& b : all_backends()) {
    const SmokeOf run = b.smoke ? b.smoke(snap) : SmokeOf{};
    if (!run.results) continue;
    const bool tied = run.results->size() == run.devices;
    add_smoke(*run.results, run.devices,
              tied ? holders(devices, b.name, run.devices)
                   : std::vector<std::optional<std::size_t>>{},
              out);
  }
  return out;
}

}  // namespace gpudoctor::facts
