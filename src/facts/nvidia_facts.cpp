// The NVIDIA driver as files show it (kernel module, device nodes, the libraries the loader
// would pick) and the CUDA toolkits.
#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

std::string library_text(const LibraryFile& f) {
  std::string s = f.path;
  if (f.real_path && *f.real_path != f.path) s += " → " + *f.real_path;
  if (f.version) s += " (" + *f.version + ")";
  if (f.stub) s += " [toolkit stub]";
  if (f.shadowed) s += " [shadowed]";
  return s;
}

void add_libraries(std::vector<Row>& rows, const std::string& label,
                   const std::vector<LibraryFile>& files) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    add_row(rows, i == 0 ? label : "", RowValues().text("library", library_text(files[i])));
  }
}

/// The version the dynamic loader would pick: the first unshadowed file.
std::optional<std::string> picked_version(const std::vector<LibraryFile>& files) {
  for (const auto& l : files) {
    if (!l.shadowed && l.version) return *l.version + (l.stub ? " (stub)" : "");
  }
  return std::nullopt;
}

Section driver_section(const NvidiaSystem& n) {
  Section s{"nvidia", "NVIDIA driver", "", {}, ""};
  const NvidiaKernel& k = n.kernel;
  add_row(s.rows, "module",
          RowValues().text(
              "module_version",
              k.module_version
                  ? *k.module_version + (k.module_flavor ? " (" + *k.module_flavor + ")" : "")
                  : "not loaded (no /proc/driver/nvidia/version)"));
  add_row(s.rows, "loaded",
          RowValues().text("loaded_modules", k.loaded_modules.empty()
                                                 ? "none of nvidia, nvidia_uvm, nvidia_drm, nouveau"
                                                 : join(k.loaded_modules, ", ")));
  std::vector<std::string> nodes;
  for (const auto& d : k.device_nodes) nodes.push_back(d.path + (d.mode ? " " + *d.mode : ""));
  add_row(s.rows, "/dev",
          RowValues().text("device_nodes",
                           nodes.empty() ? "no /dev/nvidia* nodes" : join(nodes, ", ")));
  if (k.secure_boot)
    add_row(s.rows, "Secure Boot", RowValues().text("secure_boot", *k.secure_boot ? "on" : "off"));
  add_libraries(s.rows, "libcuda", n.libcuda);
  if (n.libcuda.empty())
    add_row(s.rows, "libcuda", RowValues().text("library", "not found by the dynamic loader"));
  add_libraries(s.rows, "libnvml", n.libnvidia_ml);
  return s;
}

Section toolkits_section(const NvidiaSystem& n) {
  Section s{"nvidia", "CUDA toolkits", "", {}, ""};
  if (n.toolkits.empty()) add_item(s.rows, RowValues().text("toolkit", "none found"));
  for (const auto& t : n.toolkits) {
    add_item(s.rows, RowValues()
                         .text("path", t.path)
                         .opt("version", t.version, "CUDA ")
                         .text("default", t.default_symlink ? "← /usr/local/cuda" : "")
                         .opt("cudnn_version", t.cudnn_version, "cuDNN ")
                         .opt("cublas_version", t.cublas_version, "cuBLAS ")
                         .opt("nccl_version", t.nccl_version, "NCCL ")
                         .text("nvcc", t.nvcc ? "nvcc" : "")
                         .text("source", t.source));
  }
  add_row(s.rows, "nvcc", RowValues().opt("nvcc_on_path", n.nvcc_on_path, "", " (first on PATH)"));
  add_row(s.rows, "CUDA_HOME", RowValues().opt("cuda_home", n.cuda_home));
  add_row(s.rows, "CUDA_VISIBLE_DEVICES",
          RowValues().opt("cuda_visible_devices", n.cuda_visible_devices, "\"", "\""));
  return s;
}

}  // namespace

void nvidia_facts(const Snapshot& snap, Sink& out) {
  if (!snap.nvidia) return;
  const NvidiaSystem& n = *snap.nvidia;
  // A Mac has no NVIDIA kernel module or /dev/nvidia* to speak of (issue 30: the Linux rows
  // "not loaded", "no /dev/nvidia* nodes" on Apple silicon); its libcuda and toolkits, where
  // there are any, are said.
  if (!snap.macos) {
    out.section(driver_section(n));
  } else if (!n.libcuda.empty()) {
    Section s{"nvidia", "NVIDIA driver", "", {}, ""};
    add_libraries(s.rows, "libcuda", n.libcuda);
    out.section(std::move(s));
  }
  if (!snap.macos || !n.toolkits.empty()) out.section(toolkits_section(n));

  out.compare(Weight::driver, "driver", "NVIDIA kernel module", n.kernel.module_version);
  out.compare(Weight::driver, "driver", "kernel modules loaded",
              nonempty(join(n.kernel.loaded_modules, ", ")));
  out.compare(Weight::driver, "driver", "libcuda the loader picks", picked_version(n.libcuda));
  out.compare(Weight::driver, "driver", "libnvidia-ml the loader picks",
              picked_version(n.libnvidia_ml));
  std::vector<std::string> toolkits, cudnn, nccl;
  for (const auto& t : n.toolkits) {
    if (t.version) toolkits.push_back(*t.version);
    if (t.cudnn_version) cudnn.push_back(*t.cudnn_version);
    if (t.nccl_version) nccl.push_back(*t.nccl_version);
  }
  out.compare_set(Weight::toolkit, "toolkit", "CUDA toolkits", toolkits);
  out.compare(Weight::toolkit, "toolkit", "/usr/local/cuda points to", n.usr_local_cuda);
  out.compare(Weight::toolkit, "toolkit", "nvcc on PATH", n.nvcc_on_path);
  out.compare_set(Weight::cudnn, "cudnn", "cuDNN", cudnn);
  out.compare_set(Weight::cudnn, "cudnn", "NCCL", nccl);
  out.compare(Weight::variable, "variable", "CUDA_VISIBLE_DEVICES", n.cuda_visible_devices);
  out.compare(Weight::variable, "variable", "NVIDIA_VISIBLE_DEVICES", n.nvidia_visible_devices);
  out.compare(Weight::variable, "variable", "LD_LIBRARY_PATH", n.ld_library_path);
}

}  // namespace gpudoctor::facts
