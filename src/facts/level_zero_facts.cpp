// Level Zero: each device (and its tiles) as its driver reports it, the loader and its drivers
// as a section, what diff compares; and the backend's identity projection, how its devices
// join the others' (docs/adding-a-backend.md).
#include "backends.hpp"
#include "facts/row_values.hpp"

namespace gpudoctor {

namespace facts {

namespace {

void level_zero_view(const LevelZeroDevice& d, const std::string& label, std::vector<Row>& rows) {
  std::string ids;
  if (d.vendor_id && d.device_id) ids = hex(*d.vendor_id, 4) + ":" + hex(*d.device_id, 4);
  add_row(rows, label,
          RowValues()
              .text("name", opt_text(d.name) + (d.type ? " (" + *d.type + ")" : ""))
              .text("ids", ids)
              .opt("pci_bus_id", d.pci_bus_id, "PCI ")
              .text("flags", join(d.flags, ", ")));
  std::string eus;
  if (d.eu_count) {
    eus = std::to_string(*d.eu_count) + " EUs";
    if (d.slices && d.subslices_per_slice && d.eus_per_subslice) {
      eus += " (" + std::to_string(*d.slices) + "×" + std::to_string(*d.subslices_per_slice) +
             "×" + std::to_string(*d.eus_per_subslice) + ")";
    }
  }
  add_row(rows, "",
          RowValues()
              .text("eu_count", eus)
              .opt("threads_per_eu", d.threads_per_eu, "", " threads/EU")
              .opt("eu_simd_width", d.eu_simd_width, "SIMD")
              .opt("core_clock_mhz", d.core_clock_mhz, "", " MHz", "megahertz"));
  add_row(rows, "",
          RowValues()
              .bytes("memory_bytes", d.memory_bytes, "memory ")
              .opt("memory_bus_width_bits", d.memory_bus_width_bits, "", "-bit bus")
              .bytes("max_mem_alloc_bytes", d.max_mem_alloc_bytes, "largest allocation ")
              .text("tiles", d.subdevices ? std::to_string(d.subdevices) + " tiles" : ""));
  add_row(rows, "", RowValues().opt("uuid", d.uuid, "UUID "));
}

}  // namespace

void level_zero_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  if (!snap.level_zero) return;
  const LevelZeroInfo& lz = *snap.level_zero;
  for (auto i : m.in(kBackendLevelZero)) {
    const LevelZeroDevice& d = lz.devices[i];
    level_zero_view(d, "Level Zero", rows);
    if (d.driver < lz.drivers.size()) {
      const LevelZeroDriver& drv = lz.drivers[d.driver];
      add_row(rows, "",
              RowValues()
                  .opt("driver_version", drv.driver_version, "driver ")
                  .opt("api_version", drv.api_version, "API "));
    }
    for (const auto& t : lz.tiles) {
      if (t.parent == i) {
        level_zero_view(t, "  tile " + std::to_string(t.subdevice_id.value_or(0)), rows);
      }
    }
  }
}

void level_zero_facts(const Snapshot& snap, Sink& out) {
  if (!snap.level_zero) return;
  const LevelZeroInfo& lz = *snap.level_zero;
  // On a machine with no Level Zero at all, the section says nothing a reader needs.
  if (!lz.library && lz.driver_libraries.empty() && !lz.alt_drivers && lz.devices.empty()) return;
  Section s{"level_zero", "Level Zero",
            lz.library ? "(loader " + *lz.library + ")" : "", {}, "no driver"};
  for (const auto& lib : lz.driver_libraries) {
    add_item(s.rows, RowValues().text("driver_library", lib));
  }
  if (lz.alt_drivers) {
    add_row(s.rows, "Env", RowValues().text("ZE_ENABLE_ALT_DRIVERS",
                                            "ZE_ENABLE_ALT_DRIVERS=" + *lz.alt_drivers));
  }
  for (std::size_t i = 0; i < lz.drivers.size(); ++i) {
    const LevelZeroDriver& d = lz.drivers[i];
    add_row(s.rows, "Driver",
            RowValues()
                .text("driver", "driver " + std::to_string(i))
                .opt("driver_version", d.driver_version, "version ")
                .opt("api_version", d.api_version, "API "));
  }
  if (lz.error) {
    const LevelZeroError& e = *lz.error;
    add_row(s.rows, "Error",
            RowValues().text("error", e.call + " returned " + hex(e.code, 8) +
                                          (e.name ? " (" + *e.name + ")" : "")));
  }
  for (const auto& why : lz.load_errors) add_row(s.rows, "", RowValues().text("load_error", why));
  out.section(std::move(s));

  std::vector<std::string> drivers;
  for (const auto& d : lz.drivers) drivers.push_back(d.driver_version.value_or("?"));
  out.compare_set(Weight::driver, "driver", "Level Zero drivers", drivers);
  if (lz.error) out.compare(Weight::driver, "driver", "Level Zero", lz.error->call + " failed");
  out.compare(Weight::variable, "variable", "ZE_ENABLE_ALT_DRIVERS", lz.alt_drivers);
}

namespace {

/// Level Zero's root devices: joined to PCI by zeDevicePciGetPropertiesExt's address, to
/// OpenCL's and Vulkan's by UUID (Intel's drivers give the same one to all three APIs) or ids.
void level_zero_identities(const Snapshot& snap, std::vector<DeviceIdentity>& out) {
  if (!snap.level_zero) return;
  for (std::size_t i = 0; i < snap.level_zero->devices.size(); ++i) {
    const LevelZeroDevice& d = snap.level_zero->devices[i];
    DeviceIdentity id;
    id.position = i;
    id.pci_address = d.pci_bus_id;
    id.uuid = d.uuid;
    id.vendor_id = d.vendor_id;
    id.device_id = d.device_id;
    id.name = d.name;
    id.fallback_name = "Level Zero device";
    id.software = d.type == std::optional<std::string>("cpu");
    id.kind = d.type == std::optional<std::string>("gpu") ? DeviceKind::gpu
                                                           : DeviceKind::accelerator;
    out.push_back(std::move(id));
  }
}

Json level_zero_json(const Snapshot& snap, std::size_t i) {
  Json v = snap.level_zero->devices[i];
  Json tiles = Json::array();
  for (const auto& t : snap.level_zero->tiles) {
    if (t.parent == i) tiles.push_back(t);
  }
  v["tiles"] = std::move(tiles);
  return v;
}

}  // namespace

/// The driver's own list, after ROCm's (kJoinDriver + 40); its names rank between Vulkan's and
/// NVML's: the driver's marketing name ("Intel(R) Arc(TM) A770 Graphics") as OpenCL and
/// Vulkan also give it.
std::vector<DeviceList> level_zero_device_lists() {
  DeviceList l;
  l.api = kBackendLevelZero;
  l.order = kJoinDriver + 40;
  l.rank = NameRank{45};
  l.identities = level_zero_identities;
  l.json = level_zero_json;
  return {l};
}

}  // namespace facts

}  // namespace gpudoctor
