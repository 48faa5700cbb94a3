#include "render/nvidia_text.hpp"

namespace gpudoctor {

namespace {

std::string khz_as_mhz(const std::optional<int>& khz, const std::string& prefix) {
  return khz ? prefix + std::to_string(*khz / 1000) + " MHz" : "";
}

std::string int_bytes(const std::optional<int>& v, const std::string& prefix) {
  return v && *v >= 0 ? prefix + human_bytes(static_cast<std::uint64_t>(*v)) : "";
}

std::string mhz_pair(const std::optional<std::uint32_t>& cur,
                     const std::optional<std::uint32_t>& max, const std::string& what) {
  if (!cur && !max) return "";
  return what + " " + (cur ? std::to_string(*cur) : "?") +
         (max ? "/" + std::to_string(*max) : "") + " MHz";
}

std::string lib_line(const LibraryFile& f) {
  std::string s = f.path;
  if (f.real_path && *f.real_path != f.path) s += " → " + *f.real_path;
  if (f.version) s += " (" + *f.version + ")";
  if (f.stub) s += " [toolkit stub]";
  if (f.shadowed) s += " [shadowed]";
  return s;
}

}  // namespace

std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

void render_cuda_device(Block& b, const CudaDevice& d) {
  std::string cc;
  if (d.cc_major && d.cc_minor) {
    cc = "compute capability " + std::to_string(*d.cc_major) + "." + std::to_string(*d.cc_minor);
  }
  std::string sms;
  if (d.multiprocessors) {
    sms = std::to_string(*d.multiprocessors) + " SMs";
    if (d.cores_per_multiprocessor) {
      sms += " × " + std::to_string(*d.cores_per_multiprocessor) + " cores = " +
             std::to_string(*d.multiprocessors * *d.cores_per_multiprocessor) + " CUDA cores";
    }
  }
  b.line("CUDA", dots({opt(d.name), cc, sms}));
  b.more(dots({opt_bytes(d.total_memory_bytes, "global "), int_bytes(d.l2_cache_bytes, "L2 "),
               opt(d.memory_bus_width_bits, "bus ", "-bit"),
               khz_as_mhz(d.memory_clock_khz, "memory clock "),
               khz_as_mhz(d.clock_khz, "GPU clock ")}));
  b.more(dots({int_bytes(d.shared_memory_per_block_bytes, "shared/block ") +
                   int_bytes(d.shared_memory_per_block_optin_bytes, " (opt-in ") +
                   (d.shared_memory_per_block_optin_bytes ? ")" : ""),
               int_bytes(d.shared_memory_per_multiprocessor_bytes, "shared/SM "),
               int_bytes(d.total_constant_memory_bytes, "constant "),
               opt(d.registers_per_block, "registers/block "),
               opt(d.registers_per_multiprocessor, "registers/SM ")}));
  b.more(dots({opt(d.warp_size, "warp "), opt(d.max_threads_per_block, "threads/block "),
               opt(d.max_threads_per_multiprocessor, "threads/SM "),
               d.max_block_dim.empty() ? "" : "block " + dims(d.max_block_dim),
               d.max_grid_dim.empty() ? "" : "grid " + dims(d.max_grid_dim)}));
  b.more(dots({opt(d.async_engine_count, "copy engines "),
               yes_no(d.concurrent_kernels, "concurrent kernels"),
               d.ecc_enabled ? std::string("ECC ") + (*d.ecc_enabled ? "on" : "off") : "",
               yes_no(d.unified_addressing, "unified addressing"),
               yes_no(d.managed_memory, "managed memory"),
               yes_no(d.kernel_exec_timeout, "run-time limit"),
               yes_no(d.integrated, "integrated")}));
  b.more(dots({opt(d.compute_mode, "compute mode "), opt(d.pci_bus_id, "PCI "),
               opt(d.uuid, "UUID ")}));
}

void render_nvml_device(Block& b, const NvmlDevice& d) {
  std::string mem;
  if (d.memory_total_bytes) {
    mem = "memory " + human_bytes(*d.memory_total_bytes) +
          opt_bytes(d.memory_used_bytes, ", used ") + opt_bytes(d.memory_free_bytes, ", free ");
  }
  std::string power;
  if (d.power_draw_mw || d.power_limit_mw) {
    power = (d.power_draw_mw ? std::to_string(*d.power_draw_mw / 1000) + " W" : "? W") +
            (d.power_limit_mw ? " of " + std::to_string(*d.power_limit_mw / 1000) + " W" : "");
  }
  b.line("NVML", dots({opt(d.name), mem, opt(d.temperature_c, "", " °C"), power}));
  std::string pcie;
  if (d.pcie_gen_current || d.pcie_width_current) {
    pcie = "PCIe " + opt(d.pcie_gen_current, "Gen") + opt(d.pcie_width_current, " x");
    if (d.pcie_gen_max || d.pcie_width_max) {
      pcie += " (max" + opt(d.pcie_gen_max, " Gen") + opt(d.pcie_width_max, " x") + ")";
    }
  }
  b.more(dots({mhz_pair(d.clock_sm_mhz, d.clock_sm_max_mhz, "SM"),
               mhz_pair(d.clock_memory_mhz, d.clock_memory_max_mhz, "memory"), pcie}));
  std::string ecc;
  if (d.ecc_enabled) {
    ecc = std::string("ECC ") + (*d.ecc_enabled ? "on" : "off") +
          opt(d.ecc_uncorrected_volatile, " (", " uncorrected)");
  }
  b.more(dots({ecc, yes_no(d.persistence_mode, "persistence"), yes_no(d.mig_enabled, "MIG"),
               opt(d.compute_mode, "compute mode "), opt(d.vbios_version, "VBIOS ")}));
  std::string procs;
  if (!d.processes.empty()) procs = std::to_string(d.processes.size()) + " processes";
  b.more(dots({d.throttle_reasons.empty() ? "" : "throttle: " + join(d.throttle_reasons, ", "),
               procs}));
}

void render_nvidia_sections(std::ostringstream& os, const Snapshot& snap, const Style& st) {
  if (snap.nvidia) {
    const NvidiaSystem& n = *snap.nvidia;
    os << st.bold("NVIDIA driver") << "\n";
    Block b(os, st, 2);
    const NvidiaKernel& k = n.kernel;
    b.line("module", k.module_version ? *k.module_version + opt(k.module_flavor, " (", ")")
                                      : "not loaded (no /proc/driver/nvidia/version)");
    b.line("loaded", k.loaded_modules.empty() ? "none of nvidia, nvidia_uvm, nvidia_drm, nouveau"
                                              : join(k.loaded_modules, ", "));
    std::vector<std::string> nodes;
    for (const auto& d : k.device_nodes) nodes.push_back(d.path + opt(d.mode, " "));
    b.line("/dev", nodes.empty() ? "no /dev/nvidia* nodes" : join(nodes, ", "));
    if (k.secure_boot) b.line("Secure Boot", *k.secure_boot ? "on" : "off");
    for (std::size_t i = 0; i < n.libcuda.size(); ++i) {
      b.line(i == 0 ? "libcuda" : "", lib_line(n.libcuda[i]));
    }
    if (n.libcuda.empty()) b.line("libcuda", "not found by the dynamic loader");
    for (std::size_t i = 0; i < n.libnvidia_ml.size(); ++i) {
      b.line(i == 0 ? "libnvml" : "", lib_line(n.libnvidia_ml[i]));
    }
    os << "\n" << st.bold("CUDA toolkits") << "\n";
    if (n.toolkits.empty()) os << "  none found\n";
    for (const auto& t : n.toolkits) {
      os << "  " << t.path << "  "
         << dots({opt(t.version, "CUDA "), t.default_symlink ? "← /usr/local/cuda" : "",
                  opt(t.cudnn_version, "cuDNN "), opt(t.cublas_version, "cuBLAS "),
                  opt(t.nccl_version, "NCCL "), t.nvcc ? "nvcc" : "", t.source})
         << "\n";
    }
    Block env(os, st, 2);
    env.line("nvcc", opt(n.nvcc_on_path, "", " (first on PATH)"));
    env.line("CUDA_HOME", opt(n.cuda_home));
    env.line("CUDA_VISIBLE_DEVICES", opt(n.cuda_visible_devices, "\"", "\""));
    os << "\n";
  }
  if (snap.cuda && (snap.cuda->library || snap.cuda->init_error || snap.cuda->driver_version)) {
    os << st.bold("CUDA driver API") << "  "
       << dots({opt(snap.cuda->library), snap.cuda->stub == std::optional<bool>(true) ? "stub" : "",
                snap.cuda->driver_version ? "driver supports CUDA " +
                                                cuda_version_text(*snap.cuda->driver_version)
                                          : "",
                snap.cuda->init_error ? snap.cuda->init_error->call + " returned " +
                                            std::to_string(snap.cuda->init_error->code) +
                                            opt(snap.cuda->init_error->name, " (", ")")
                                      : ""})
       << "\n";
  }
  if (snap.nvml && (snap.nvml->library || snap.nvml->init_error)) {
    os << st.bold("NVML") << "  "
       << dots({opt(snap.nvml->library), opt(snap.nvml->driver_version, "driver "),
                opt(snap.nvml->nvml_version, "NVML "),
                snap.nvml->cuda_driver_version
                    ? "CUDA " + cuda_version_text(*snap.nvml->cuda_driver_version)
                    : "",
                opt(snap.nvml->init_error)})
       << "\n";
  }
  const bool api_lines =
      (snap.cuda && (snap.cuda->library || snap.cuda->init_error || snap.cuda->driver_version)) ||
      (snap.nvml && (snap.nvml->library || snap.nvml->init_error));
  if (api_lines) os << "\n";
}

}  // namespace gpudoctor
