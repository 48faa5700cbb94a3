// OpenCL: each device as its ICD reports it, the registered ICDs, the platforms for diff.
#include <set>

#include "backends.hpp"
#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

/// "12 compute units at 1500 MHz".
std::string units_text(const OpenClDevice& d) {
  std::string s = d.compute_units ? std::to_string(*d.compute_units) + " compute units" : "";
  if (d.max_clock_mhz) s += (s.empty() ? "" : " at ") + std::to_string(*d.max_clock_mhz) + " MHz";
  return s;
}

}  // namespace

void opencl_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  for (auto flat : m.in(kBackendOpenCl)) {
    const auto [p, i] = *opencl_position(*snap.opencl, flat);
    const OpenClPlatform& plat = snap.opencl->platforms[p];
    const OpenClDevice& d = plat.devices[i];
    add_row(rows, "OpenCL",
            RowValues()
                .opt("platform", plat.name)
                .text("device", opt_text(d.name) + (d.type ? " (" + *d.type + ")" : "")));
    add_row(rows, "",
            RowValues()
                .opt("version", d.version)
                .opt("driver_version", d.driver_version, "driver ")
                .opt("opencl_c_version", d.opencl_c_version));
    add_row(rows, "",
            RowValues()
                .text("compute_units", units_text(d))
                .opt("vendor", d.vendor)
                .text("vendor_id", d.vendor_id ? "vendor id 0x" + hex(*d.vendor_id, 4) : ""));
    add_row(rows, "",
            RowValues()
                .bytes("global_mem_bytes", d.global_mem_bytes, "global ")
                .bytes("local_mem_bytes", d.local_mem_bytes, "local ")
                .bytes("constant_mem_bytes", d.constant_mem_bytes, "constant ")
                .bytes("max_alloc_bytes", d.max_alloc_bytes, "max alloc "));
    const std::string items = dims(d.max_work_item_sizes);
    add_row(rows, "",
            RowValues()
                .opt("max_work_group_size", d.max_work_group_size, "work-group ")
                .text("max_work_item_sizes", items.empty() ? "" : "items " + items)
                .yes_no("fp16", d.fp16, "fp16")
                .yes_no("fp64", d.fp64, "fp64"));
    add_row(
        rows, "",
        RowValues()
            .opt("pci_bus_id", d.pci_bus_id, "PCI ")
            .opt("uuid", d.uuid, "UUID ")
            .text("extensions",
                  d.extensions.empty() ? "" : std::to_string(d.extensions.size()) + " extensions"));
  }
}

void opencl_facts(const Snapshot& snap, Sink& out) {
  if (!snap.opencl) return;
  const OpenClInfo& cl = *snap.opencl;
  Section s{"opencl", "OpenCL ICDs", cl.loader ? "(loader " + *cl.loader + ")" : "", {},
            "none registered"};
  for (const auto& icd : cl.icds) {
    const std::string where = icd.file ? *icd.file : icd.source;
    std::string lib = icd.library;
    if (icd.resolved && *icd.resolved != icd.library) lib += " (" + *icd.resolved + ")";
    RowValues p;
    p.text("registration", where + " → " + lib);
    Row r;
    r.list = true;
    r.parts = p.take();
    if (icd.error) {
      r.note = *icd.error;
      r.warning = true;
    } else if (icd.loads == std::optional<bool>(true)) {
      r.note = "loads";
    } else if (icd.resolved) {
      r.note = "found";
    }
    s.rows.push_back(std::move(r));
  }
  out.section(std::move(s));

  std::vector<std::string> platforms;
  for (const auto& p : cl.platforms) {
    platforms.push_back(p.name.value_or("?") + (p.version ? " " + *p.version : ""));
  }
  out.compare_set(Weight::api, "opencl", "OpenCL platforms", platforms);
}

}  // namespace gpudoctor::facts
