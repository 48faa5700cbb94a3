// Vulkan: each physical device as its driver reports it, the driver manifests, the drivers for
// diff.
#include "backends.hpp"
#include "facts/row_values.hpp"

namespace gpudoctor::facts {

void vulkan_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  for (auto i : m.in(kBackendVulkan)) {
    const VulkanDevice& v = snap.vulkan->devices[i];
    add_row(rows, "Vulkan",
            RowValues()
                .text("device", opt_text(v.name) + (v.type ? " (" + *v.type + ")" : ""))
                .opt("api_version", v.api_version, "API "));
    add_row(rows, "",
            RowValues()
                .opt("driver_name", v.driver_name)
                .opt("driver_version", v.driver_version, "driver ")
                .opt("driver_info", v.driver_info));
    std::string ids;
    if (v.vendor_id && v.device_id) ids = hex(*v.vendor_id, 4) + ":" + hex(*v.device_id, 4);
    add_row(rows, "",
            RowValues()
                .text("ids", ids)
                .opt("conformance_version", v.conformance_version, "conformance ")
                .opt("pci_bus_id", v.pci_bus_id, "PCI "));
    std::vector<std::string> heaps;
    for (const auto& h : v.memory_heaps) {
      heaps.push_back(human_bytes(h.size_bytes) + (h.device_local ? " device-local" : ""));
    }
    if (!heaps.empty())
      add_row(rows, "", RowValues().text("memory_heaps", "memory heaps: " + join(heaps, ", ")));
    std::vector<std::string> queues;
    for (const auto& q : v.queue_families) {
      queues.push_back(std::to_string(q.count) + "×" + join(q.flags, "+"));
    }
    if (!queues.empty())
      add_row(rows, "", RowValues().text("queues", "queues: " + join(queues, ", ")));
    const std::string wg = dims(v.max_compute_work_group_size);
    RowValues limits;
    limits.opt("subgroup_size", v.subgroup_size, "subgroup ")
        .opt("max_compute_work_group_invocations", v.max_compute_work_group_invocations,
             "work-group ")
        .text("max_compute_work_group_size", wg.empty() ? "" : "size " + wg);
    if (v.max_compute_shared_memory_bytes) {
      limits.bytes("max_compute_shared_memory_bytes",
                   std::uint64_t{*v.max_compute_shared_memory_bytes}, "shared ");
    }
    limits.yes_no("shader_float16", v.shader_float16, "fp16")
        .yes_no("shader_float64", v.shader_float64, "fp64");
    add_row(rows, "", std::move(limits));
    add_row(rows, "", RowValues().opt("device_uuid", v.device_uuid, "UUID "));
  }
}

void vulkan_facts(const Snapshot& snap, Sink& out) {
  if (!snap.vulkan) return;
  const VulkanInfo& vk = *snap.vulkan;
  Section s{"vulkan", "Vulkan drivers",
            join_known({vk.loader ? "(loader " + *vk.loader + ")" : "",
                        vk.instance_version ? "instance " + *vk.instance_version : ""}),
            {}, "none registered"};
  for (const auto& m : vk.manifests) {
    Row r;
    r.list = true;
    r.parts = RowValues()
                  .text("manifest", m.file + " → " + m.library_path.value_or("?") +
                                        (m.api_version ? " (API " + *m.api_version + ")" : ""))
                  .take();
    if (m.error) {
      r.note = *m.error;
      r.warning = true;
    } else if (m.not_loaded) {
      r.note = "not loaded: " + *m.not_loaded;
    }
    s.rows.push_back(std::move(r));
  }
  out.section(std::move(s));

  std::vector<std::string> drivers;
  for (const auto& d : vk.devices) {
    drivers.push_back(d.driver_name.value_or(d.name.value_or("?")) +
                      (d.driver_version ? " " + *d.driver_version : ""));
  }
  out.compare_set(Weight::api, "vulkan", "Vulkan drivers", drivers);
  out.compare(Weight::api, "vulkan", "Vulkan instance", vk.instance_version);
}

}  // namespace gpudoctor::facts
