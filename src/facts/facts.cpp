#include "facts/facts.hpp"

#include <algorithm>
#include <set>

#include "backends.hpp"
#include "facts/row_values.hpp"

namespace gpudoctor::facts {

void Sink::compare(Weight weight, std::string area, std::string what,
                   const std::optional<std::string>& value) {
  if (value && !value->empty()) {
    machine.compared.push_back({weight, std::move(area), std::move(what), *value});
  }
}

void Sink::compare_set(Weight weight, std::string area, std::string what,
                       const std::vector<std::string>& values) {
  const std::set<std::string> unique(values.begin(), values.end());
  compare(weight, std::move(area), std::move(what), join({unique.begin(), unique.end()}, ", "));
}

std::string row_text(const Row& row) {
  std::vector<std::string> texts;
  for (const auto& p : row.parts) texts.push_back(p.text);
  return join_known(texts);
}

namespace {

const char* kind_text(DeviceKind k) {
  switch (k) {
    case DeviceKind::gpu: return "GPU";
    case DeviceKind::accelerator: return "accelerator";
    case DeviceKind::cpu: return "CPU";
    case DeviceKind::other: return "other";
  }
  return "other";
}

/// The first memory size any API gives, in the order of the APIs most exact about it.
void find_memory(Device& d) {
  for (const char* key : {"total_memory_bytes", "memory_total_bytes", "memory_bytes", "vram_bytes",
                          "global_mem_bytes"}) {
    for (const auto& row : d.rows) {
      for (const auto& p : row.parts) {
        if (p.key == key && p.number) {
          d.memory_bytes = p.number;
          d.memory = human_bytes(static_cast<std::uint64_t>(*p.number));
          return;
        }
      }
    }
  }
}

Device device_facts(const Snapshot& snap, const MergedDevice& m, std::size_t index) {
  Device d;
  d.index = index;
  d.name = m.name;
  d.kind = kind_text(m.kind);
  d.software = m.software;
  d.pci_address = m.pci_address;
  if (m.vendor_id) {
    d.vendor_device = hex(*m.vendor_id, 4) + (m.device_id ? ":" + hex(*m.device_id, 4) : "");
  }
  d.uuid = m.uuid;
  if (m.pci && snap.pci) d.kernel_driver = snap.pci->devices[*m.pci].driver;
  for (const auto& b : all_backends()) {
    if (!b.device_view) continue;
    const std::size_t before = d.rows.size();
    b.device_view(snap, m, d.rows);
    for (std::size_t i = before; i < d.rows.size(); ++i) {
      if (!d.rows[i].label.empty()) d.apis.push_back(d.rows[i].label);
    }
  }
  find_memory(d);
  d.identity = device_identity(snap, m);
  return d;
}

/// What diff compares of the devices as a whole: their names (with compute capability), how
/// many, and every smoke test's verdict.
void compare_devices(const Snapshot& s, const std::vector<MergedDevice>& devices, Sink& out) {
  std::vector<std::string> names;
  for (const auto& d : devices) {
    std::string name = d.name;
    for (auto c : d.in(kBackendCuda)) {
      const auto& cd = s.cuda->devices[c];
      if (cd.cc_major && cd.cc_minor) {
        name += " (compute capability " + std::to_string(*cd.cc_major) + "." +
                std::to_string(*cd.cc_minor) + ")";
      }
    }
    names.push_back(name);
  }
  out.compare_set(Weight::device, "devices", "names", names);
  out.compare(Weight::device, "devices", "device count", std::to_string(devices.size()));
  for (const SmokeResult* r : smoke_results(s)) {
    out.compare(Weight::smoke, "smoke", r->api + " " + r->device, r->status);
  }
}

}  // namespace

Machine describe(const Snapshot& snap, const std::vector<MergedDevice>& devices) {
  Machine m;
  Sink sink{m};
  compare_devices(snap, devices, sink);
  for (const auto& b : all_backends()) {
    if (b.facts) b.facts(snap, sink);
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    m.devices.push_back(device_facts(snap, devices[i], i));
  }
  m.smoke = smoke_facts(snap, devices);
  return m;
}

}  // namespace gpudoctor::facts
