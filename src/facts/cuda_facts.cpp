// CUDA through the driver API: each device deviceQuery-grade, and what libcuda itself said.
#include "api/cuda/cuda_codes.hpp"
#include "backends.hpp"
#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

std::string khz_as_mhz(const std::optional<int>& khz, const std::string& prefix) {
  return khz ? prefix + std::to_string(*khz / 1000) + " MHz" : "";
}

RowValues& int_bytes(RowValues& p, std::string key, const std::optional<int>& v,
                     const std::string& prefix) {
  if (v && *v >= 0) p.bytes(std::move(key), static_cast<std::uint64_t>(*v), prefix);
  return p;
}

std::string sm_text(const CudaDevice& d) {
  if (!d.multiprocessors) return "";
  std::string s = std::to_string(*d.multiprocessors) + " SMs";
  if (d.cores_per_multiprocessor) {
    s += " × " + std::to_string(*d.cores_per_multiprocessor) + " cores = " +
         std::to_string(*d.multiprocessors * *d.cores_per_multiprocessor) + " CUDA cores";
  }
  return s;
}

}  // namespace

void cuda_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  for (auto c : m.in(kBackendCuda)) {
    const CudaDevice& d = snap.cuda->devices[c];
    RowValues head;
    head.opt("name", d.name);
    if (d.cc_major && d.cc_minor) {
      head.number("compute_capability",
                  "compute capability " + std::to_string(*d.cc_major) + "." +
                      std::to_string(*d.cc_minor),
                  *d.cc_major + *d.cc_minor / 10.0, "");
    }
    head.text("multiprocessors", sm_text(d));
    add_row(rows, "CUDA", std::move(head));
    RowValues mem;
    mem.bytes("total_memory_bytes", d.total_memory_bytes, "global ");
    int_bytes(mem, "l2_cache_bytes", d.l2_cache_bytes, "L2 ");
    mem.opt("memory_bus_width_bits", d.memory_bus_width_bits, "bus ", "-bit")
        .text("memory_clock", khz_as_mhz(d.memory_clock_khz, "memory clock "))
        .text("clock", khz_as_mhz(d.clock_khz, "GPU clock "));
    add_row(rows, "", std::move(mem));
    RowValues shared;
    std::string per_block;
    if (d.shared_memory_per_block_bytes && *d.shared_memory_per_block_bytes >= 0) {
      per_block = "shared/block " + human_bytes(std::uint64_t(*d.shared_memory_per_block_bytes));
    }
    if (d.shared_memory_per_block_optin_bytes && *d.shared_memory_per_block_optin_bytes >= 0) {
      per_block +=
          " (opt-in " + human_bytes(std::uint64_t(*d.shared_memory_per_block_optin_bytes)) + ")";
    }
    shared.text("shared_memory_per_block", per_block);
    int_bytes(shared, "shared_memory_per_multiprocessor_bytes",
              d.shared_memory_per_multiprocessor_bytes, "shared/SM ");
    int_bytes(shared, "total_constant_memory_bytes", d.total_constant_memory_bytes, "constant ");
    shared.opt("registers_per_block", d.registers_per_block, "registers/block ")
        .opt("registers_per_multiprocessor", d.registers_per_multiprocessor, "registers/SM ");
    add_row(rows, "", std::move(shared));
    add_row(
        rows, "",
        RowValues()
            .opt("warp_size", d.warp_size, "warp ")
            .opt("max_threads_per_block", d.max_threads_per_block, "threads/block ")
            .opt("max_threads_per_multiprocessor", d.max_threads_per_multiprocessor, "threads/SM ")
            .text("max_block_dim", d.max_block_dim.empty() ? "" : "block " + dims(d.max_block_dim))
            .text("max_grid_dim", d.max_grid_dim.empty() ? "" : "grid " + dims(d.max_grid_dim)));
    add_row(
        rows, "",
        RowValues()
            .opt("async_engine_count", d.async_engine_count, "copy engines ")
            .yes_no("concurrent_kernels", d.concurrent_kernels, "concurrent kernels")
            .text("ecc", d.ecc_enabled ? std::string("ECC ") + (*d.ecc_enabled ? "on" : "off") : "")
            .yes_no("unified_addressing", d.unified_addressing, "unified addressing")
            .yes_no("managed_memory", d.managed_memory, "managed memory")
            .yes_no("kernel_exec_timeout", d.kernel_exec_timeout, "run-time limit")
            .yes_no("integrated", d.integrated, "integrated"));
    add_row(rows, "",
            RowValues()
                .opt("compute_mode", d.compute_mode, "compute mode ")
                .opt("pci_bus_id", d.pci_bus_id, "PCI ")
                .opt("uuid", d.uuid, "UUID "));
  }
}

void cuda_facts(const Snapshot& snap, Sink& out) {
  if (!snap.cuda) return;
  const CudaInfo& c = *snap.cuda;
  if (c.library || c.init_error || c.driver_version) {
    RowValues p;
    p.opt("library", c.library)
        .text("stub", c.stub == std::optional<bool>(true) ? "stub" : "")
        .text("driver_version",
              c.driver_version ? "driver supports CUDA " + cuda_version_text(*c.driver_version) : "")
        .text("init_error", c.init_error ? c.init_error->call + " returned " +
                                               std::to_string(c.init_error->code) +
                                               (c.init_error->name ? " (" + *c.init_error->name + ")" : "")
                                         : "");
    Section s{"cuda", "CUDA driver API", "", {}, ""};
    for (auto& part : p.take()) s.subtitle += (s.subtitle.empty() ? "" : " · ") + part.text;
    out.section(std::move(s));
  }
  if (c.driver_version) {
    out.compare(Weight::driver, "driver", "CUDA driver API", cuda_version_text(*c.driver_version));
  }
  if (c.init_error) out.compare(Weight::driver, "driver", "cuInit", "fails");
}

}  // namespace gpudoctor::facts
