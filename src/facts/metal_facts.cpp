// Metal: each device as MTLCopyAllDevices lists it (its row under the merged device), and what
// diff compares: the devices' GPU families and the smoke verdicts (compared with every API's).
#include "api/metal/metal_families.hpp"
#include "backends.hpp"
#include "facts/row_values.hpp"
#include "text.hpp"

namespace gpudoctor::facts {

namespace {

/// "Apple7, Mac2, Common3, Metal3": the highest family of each kind.
std::string families_text(const MetalDevice& d) {
  std::vector<std::string> highest;
  for (std::string_view kind : {"Apple", "Mac", "Common", "Metal"}) {
    if (auto f = metal::highest_family(d.families, kind)) highest.push_back(*f);
  }
  if (highest.empty() && d.feature_set) return "feature set " + *d.feature_set;
  return highest.empty() ? "" : "families " + join(highest, ", ");
}

std::string placement(const MetalDevice& d) {
  std::vector<std::string> words;
  if (d.location) {
    words.push_back(*d.location +
                    (d.location_number && *d.location != "built-in"
                         ? " " + std::to_string(*d.location_number)
                         : ""));
  }
  if (d.removable == std::optional<bool>(true)) words.emplace_back("removable (eGPU)");
  if (d.low_power == std::optional<bool>(true)) words.emplace_back("low power");
  if (d.headless == std::optional<bool>(true)) words.emplace_back("headless");
  return join(words, ", ");
}

}  // namespace

void metal_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  if (!snap.metal) return;
  for (auto i : m.in(kBackendMetal)) {
    const MetalDevice& d = snap.metal->devices[i];
    add_row(rows, "Metal",
            RowValues()
                .opt("name", d.name)
                .text("registry_id", d.registry_id ? "registry id " + hex(*d.registry_id, 1) : "")
                .text("placement", placement(d)));
    RowValues memory;
    memory.text("unified_memory", d.unified_memory == std::optional<bool>(true)
                                      ? "unified memory"
                                      : "");
    memory.bytes("recommended_max_working_set_bytes", d.recommended_max_working_set_bytes,
                 "working set ");
    memory.bytes("max_buffer_length_bytes", d.max_buffer_length_bytes, "buffers up to ");
    memory.text("families", families_text(d));
    add_row(rows, "", std::move(memory));
  }
}

void metal_facts(const Snapshot& snap, Sink& out) {
  if (!snap.metal) return;
  const MetalInfo& info = *snap.metal;
  // Not loaded (--sysroot, a report without its answer) is not "no device".
  const bool asked = snap.live || info.library || !info.devices.empty();
  Section s{"metal", "Metal", info.library.value_or(""), {},
            asked ? "no Metal device"
            : snap.origin == Origin::sysroot
                ? "not examined: Metal.framework is not loaded under --sysroot"
                : "not examined: Metal's answer is not in the input"};
  std::vector<std::string> problems = info.load_errors;
  if (info.error) problems.push_back(*info.error);
  for (const auto& e : problems) {
    Row r;
    r.list = true;
    r.warning = true;
    r.parts = RowValues().text("error", e).take();
    s.rows.push_back(std::move(r));
  }
  std::vector<std::string> families;
  for (const auto& d : info.devices) {
    add_item(s.rows, RowValues().text("device", d.name.value_or("Metal device")).text("families",
                                                                                families_text(d)));
    families.push_back(d.name.value_or("GPU") + ": " +
                       (!d.families.empty() ? join(d.families, " ")
                        : d.feature_set     ? *d.feature_set
                                            : "no family known"));
  }
  out.section(std::move(s));
  out.compare_set(Weight::device, "metal", "Metal GPU families", families);
}

}  // namespace gpudoctor::facts
