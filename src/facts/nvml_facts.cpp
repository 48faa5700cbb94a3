// NVML: each device's memory, clocks, power, PCIe, ECC; and what libnvidia-ml itself said.
#include "api/cuda/cuda_codes.hpp"
#include "backends.hpp"
#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

std::string mhz_pair(const std::optional<std::uint32_t>& cur,
                     const std::optional<std::uint32_t>& max, const std::string& what) {
  if (!cur && !max) return "";
  return what + " " + (cur ? std::to_string(*cur) : "?") + (max ? "/" + std::to_string(*max) : "") +
         " MHz";
}

std::string opt_int(const std::optional<int>& v, const std::string& prefix) {
  return v ? prefix + std::to_string(*v) : "";
}

}  // namespace

void nvml_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  for (auto n : m.in(kBackendNvml)) {
    const NvmlDevice& d = snap.nvml->devices[n];
    std::string mem;
    if (d.memory_total_bytes) {
      mem = "memory " + human_bytes(*d.memory_total_bytes) +
            (d.memory_used_bytes ? ", used " + human_bytes(*d.memory_used_bytes) : "") +
            (d.memory_free_bytes ? ", free " + human_bytes(*d.memory_free_bytes) : "");
    }
    std::string power;
    if (d.power_draw_mw || d.power_limit_mw) {
      power = (d.power_draw_mw ? std::to_string(*d.power_draw_mw / 1000) + " W" : "? W") +
              (d.power_limit_mw ? " of " + std::to_string(*d.power_limit_mw / 1000) + " W" : "");
    }
    RowValues head;
    head.opt("name", d.name);
    if (d.memory_total_bytes) head.number("memory_total_bytes", mem, double(*d.memory_total_bytes), "bytes");
    head.opt("temperature", d.temperature_c, "", " °C", "celsius");
    if (d.power_draw_mw) {
      head.number("power_draw", power, *d.power_draw_mw / 1000.0, "watts");
    } else {
      head.text("power_draw", power);
    }
    add_row(rows, "NVML", std::move(head));
    std::string pcie;
    if (d.pcie_gen_current || d.pcie_width_current) {
      pcie = "PCIe " + opt_int(d.pcie_gen_current, "Gen") + opt_int(d.pcie_width_current, " x");
      if (d.pcie_gen_max || d.pcie_width_max) {
        pcie += " (max" + opt_int(d.pcie_gen_max, " Gen") + opt_int(d.pcie_width_max, " x") + ")";
      }
    }
    add_row(
        rows, "",
        RowValues()
            .text("clock_sm", mhz_pair(d.clock_sm_mhz, d.clock_sm_max_mhz, "SM"))
            .text("clock_memory", mhz_pair(d.clock_memory_mhz, d.clock_memory_max_mhz, "memory"))
            .text("pcie", pcie));
    std::string ecc;
    if (d.ecc_enabled) {
      ecc = std::string("ECC ") + (*d.ecc_enabled ? "on" : "off");
      if (d.ecc_uncorrected_volatile) {
        ecc += " (" + std::to_string(*d.ecc_uncorrected_volatile) + " uncorrected)";
      }
    }
    add_row(rows, "",
            RowValues()
                .text("ecc", ecc)
                .yes_no("persistence_mode", d.persistence_mode, "persistence")
                .yes_no("mig_enabled", d.mig_enabled, "MIG")
                .opt("compute_mode", d.compute_mode, "compute mode ")
                .opt("vbios_version", d.vbios_version, "VBIOS "));
    add_row(
        rows, "",
        RowValues()
            .text("throttle_reasons",
                  d.throttle_reasons.empty() ? "" : "throttle: " + join(d.throttle_reasons, ", "))
            .text("processes",
                  d.processes.empty() ? "" : std::to_string(d.processes.size()) + " processes"));
  }
}

void nvml_facts(const Snapshot& snap, Sink& out) {
  if (!snap.nvml) return;
  const NvmlInfo& n = *snap.nvml;
  if (n.library || n.init_error) {
    std::vector<std::string> parts = {
        n.library.value_or(""), n.driver_version ? "driver " + *n.driver_version : "",
        n.nvml_version ? "NVML " + *n.nvml_version : "",
        n.cuda_driver_version ? "CUDA " + cuda_version_text(*n.cuda_driver_version) : "",
        n.init_error.value_or("")};
    out.section(Section{"nvml", "NVML", join_known(parts), {}, ""});
  }
  out.compare(Weight::driver, "driver", "NVML driver version", n.driver_version);
}

}  // namespace gpudoctor::facts
