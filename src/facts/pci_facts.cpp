// A PCI function: ids and names, class, driver and modules, the link, NUMA and power.
#include <cstdio>

#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

/// "Gen4 x16 (16 GT/s)"; "" when the link is unknown.
std::string link_text(const PciLink& l) {
  if (!l.speed_gts && !l.width) return "";
  std::string s;
  if (l.generation) s += "Gen" + std::to_string(*l.generation) + " ";
  if (l.width) s += "x" + std::to_string(*l.width) + " ";
  if (l.speed_gts) {
    std::ostringstream v;
    v << *l.speed_gts;
    s += "(" + v.str() + " GT/s)";
  }
  return std::string(trim(s));
}

}  // namespace

void pci_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  if (!m.pci || !snap.pci) return;
  const PciDevice& p = snap.pci->devices[*m.pci];
  const std::string ids = hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4);
  const std::string names = join_known({opt_text(p.vendor_name), opt_text(p.device_name)});
  add_row(rows, "PCI",
          RowValues()
              .text("address", p.address)
              .text("ids", ids + (names.empty() ? "" : " " + names))
              .text("revision", p.revision ? "rev " + hex(*p.revision, 2) : ""));
  RowValues cls;
  cls.text("class", "class " + hex(p.class_code >> 8, 4) + (p.class_name ? " " + *p.class_name : ""));
  if (p.subsystem_vendor_id && p.subsystem_device_id) {
    cls.text("subsystem", "subsystem " + hex(*p.subsystem_vendor_id, 4) + ":" +
                              hex(*p.subsystem_device_id, 4) +
                              (p.subsystem_name ? " " + *p.subsystem_name : ""));
  }
  add_row(rows, "", std::move(cls));
  add_row(rows, "",
          RowValues()
              .text("driver", p.driver ? "driver " + *p.driver : "no driver bound")
              .text("modules", p.modules.empty() ? "" : "modules " + join(p.modules, ", ")));
  const std::string cur = link_text(p.link_current);
  const std::string max = link_text(p.link_max);
  if (!cur.empty() || !max.empty()) {
    std::string s = "link " + (cur.empty() ? "?" : cur);
    if (!max.empty() && max != cur) s += ", capable of " + max;
    add_row(rows, "", RowValues().text("link", s));
  }
  add_row(rows, "",
          RowValues()
              .opt("numa_node", p.numa_node, "NUMA node ")
              .opt("iommu_group", p.iommu_group, "IOMMU group ")
              .text("boot_vga", p.boot_vga == std::optional<bool>(true) ? "boot VGA" : "")
              .opt("runtime_pm", p.runtime_pm, "power "));
}

}  // namespace gpudoctor::facts
