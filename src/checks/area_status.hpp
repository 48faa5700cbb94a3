#pragma once
// What `gpudoctor check` says about each area before its findings: examined and fine, nothing
// there, or not examined. Decided here, from the snapshot and the findings, so that every
// renderer prints the same verdict (docs/severity.md).
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "devices.hpp"
#include "json.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

/// ok: examined and found fine. absent: examined, nothing there. not_examined: its files are not
/// under the root or its library was not loaded. info / warn / fail: the worst finding.
enum class AreaState { ok, info, warn, fail, absent, not_examined };
NLOHMANN_JSON_SERIALIZE_ENUM(AreaState, {{AreaState::ok, "ok"},
                                         {AreaState::info, "info"},
                                         {AreaState::warn, "warn"},
                                         {AreaState::fail, "fail"},
                                         {AreaState::absent, "absent"},
                                         {AreaState::not_examined, "not_examined"}})

struct AreaStatus {
  std::string area;     ///< "gpu", "nvidia", "cuda", …
  AreaState state = AreaState::not_examined;
  std::string summary;  ///< what was seen, or why nothing was: "driver 550.127.05"
};
GPUDOCTOR_JSON(AreaStatus, area, state, summary)

/// One entry per area that was asked for (or has findings), in the order a person debugs them:
/// host, gpu, nvidia, cuda, opencl, vulkan, python, macos, rocm.
std::vector<AreaStatus> area_statuses(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                                      const std::vector<Finding>& findings);

const char* to_string(AreaState s);

/// Whether `area` is one of the areas `check` shows a line for ("host", "gpu", "nvidia", …).
bool is_area(std::string_view area);

/// The outcome a backend's probe recorded for itself (label == backend); nullptr when none.
const ProbeOutcome* backend_outcome(const Snapshot& snap, std::string_view backend);

/// Whether the PCI bus was read (the pci probe found /sys/bus/pci/devices and libpci scanned it).
bool pci_was_read(const Snapshot& snap);

/// Whether system_profiler's display list was read (a Mac's list of its GPUs).
bool macos_gpus_read(const Snapshot& snap);

/// Whether a probe of this backend crashed, hung or failed: its section then says nothing about
/// what is installed, and the probe.* finding is the only one for that cause.
bool probe_went_wrong(const Snapshot& snap, std::string_view backend);

}  // namespace gpudoctor
