// Row readers for the framework and ROCm matrices: TensorFlow, PyTorch, JAX, tensorflow-metal,
// ROCm.
#include "compat/compat_reader.hpp"
#include "text.hpp"

namespace gpudoctor::compat_detail {

namespace {

void tensorflow(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    TensorflowBuild b;
    b.os = r.os("os");
    std::string device = r.str("device");
    if (device != "cpu" && device != "gpu" && !device.empty()) {
      r.error("\"device\" must be cpu or gpu: " + device);
    }
    b.gpu = device == "gpu";
    b.package = r.str("package");
    b.version = r.version("version");
    b.python = r.range_list("python");
    if (b.python.empty()) r.error("\"python\" lists no range");
    b.cuda = r.opt_version("cuda");
    b.cudnn = r.opt_version("cudnn");
    if (b.gpu != (b.cuda && b.cudnn)) r.error("a gpu row has cuda and cudnn, a cpu row neither");
    b.from = p;
    if (r.ok()) data.tensorflow.push_back(std::move(b));
  });
}

void torch_release(RowReader& r, const Provenance& p, CompatData& data) {
  TorchRelease t;
  t.torch = r.version("torch");
  t.python = r.range("python");
  if (r.has("python_experimental")) t.python_experimental = r.str_list("python_experimental");
  t.cxx = r.str("cxx");
  if (const Json* builds = r.array("cuda")) {
    for (std::size_t i = 0; i < builds->size(); ++i) {
      RowReader b(r, (*builds)[i], "cuda[" + std::to_string(i) + "]");
      TorchCudaBuild build;
      build.cuda = b.version("cuda");
      std::string channel = b.str("channel");
      if (channel != "stable" && channel != "experimental" && !channel.empty()) {
        b.error("\"channel\" must be stable or experimental: " + channel);
      }
      build.stable = channel == "stable";
      build.cudnn = b.opt_version("cudnn");
      t.cuda.push_back(std::move(build));
    }
  }
  t.rocm = r.opt_version("rocm");
  t.from = p;
  if (r.ok()) data.torch_releases.push_back(std::move(t));
}

void pytorch(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    std::string kind = r.str("kind");
    if (kind == "release") {
      torch_release(r, p, data);
    } else if (kind == "archs") {
      TorchArchs a;
      a.torch = r.range("torch");
      a.cuda = r.version("cuda");
      a.platform = r.str("platform");
      if (a.platform != "linux-x86_64" && a.platform != "linux-aarch64" &&
          a.platform != "windows-x86_64") {
        r.error("\"platform\" is not one of linux-x86_64, linux-aarch64, windows-x86_64");
      }
      a.archs = r.version_list("archs");
      a.ptx = r.version_list("ptx");
      for (const Version& v : a.ptx) {
        bool listed = false;
        for (const Version& arch : a.archs) listed = listed || arch == v;
        if (!listed) r.error("a ptx arch is not in archs: " + v.text);
      }
      a.from = p;
      if (r.ok()) data.torch_archs.push_back(std::move(a));
    } else if (kind == "mps") {
      TorchMps m{r.range("torch"), r.version("macos_min"), p};
      if (r.ok()) data.torch_mps.push_back(std::move(m));
    } else if (!kind.empty()) {
      r.error("\"kind\" must be release, archs or mps: " + kind);
    }
  });
}

void jax(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    JaxPlugin j;
    j.plugin = r.str("plugin");
    j.packages = r.str_list("packages");
    if (r.has("jax")) j.jax = r.range("jax");
    j.cuda = r.range("cuda");
    j.cudnn = r.range("cudnn");
    j.linux_driver_min = r.opt_version("linux_driver_min");
    j.min_compute_capability = r.opt_version("min_compute_capability");
    j.from = p;
    if (r.ok()) data.jax.push_back(std::move(j));
  });
}

/// A row with "plugin" is one release of the plugin; the others are the install requirements.
void tensorflow_metal_release(RowReader& r, const Provenance& p, CompatData& data) {
  TensorflowMetalRelease rel;
  rel.plugin = r.version("plugin");
  rel.tensorflow = r.range("tensorflow");
  rel.macos_min = r.opt_version("macos_min");
  rel.from = p;
  if (r.ok()) data.tensorflow_metal_releases.push_back(std::move(rel));
}

void tensorflow_metal(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    if (r.has("plugin")) {
      tensorflow_metal_release(r, p, data);
      return;
    }
    TensorflowMetal m;
    m.tensorflow = r.range("tensorflow");
    m.base_package = r.str("base_package");
    m.plugin_package = r.str("plugin_package");
    m.macos_min = r.opt_version("macos_min");
    m.python_min = r.opt_version("python_min");
    m.gpus = r.str_list("gpus");
    m.from = p;
    if (r.ok()) data.tensorflow_metal.push_back(std::move(m));
  });
}

void rocm_release(RowReader& r, const Provenance& p, CompatData& data) {
  RocmRelease rel;
  rel.rocm = r.version("rocm");
  if (const Json* os = r.array("os")) {
    for (std::size_t i = 0; i < os->size(); ++i) {
      RowReader d(r, (*os)[i], "os[" + std::to_string(i) + "]");
      rel.os.push_back({d.str("distro"), d.str("version")});
    }
  }
  rel.architectures = r.str_list("architectures");
  rel.gfx = r.str_list("gfx");
  rel.pytorch = r.version_list("pytorch");
  rel.tensorflow = r.version_list("tensorflow");
  rel.jax = r.version_list("jax");
  rel.from = p;
  if (r.ok()) data.rocm_releases.push_back(std::move(rel));
}

void kfd_chip(RowReader& r, const Provenance& p, CompatData& data) {
  AmdgpuKfdChip c{r.str("chip"), r.str("family"), {}, r.str("kfd"), p};
  for (const std::string& id : r.str_list("device_ids")) {
    auto v = id.size() == 6 && id.compare(0, 2, "0x") == 0 ? parse_uint(id) : std::nullopt;
    if (!v || *v > 0xffff) {
      r.error("device_ids: not a 0xNNNN PCI id: " + id);
      continue;
    }
    c.device_ids.push_back(static_cast<std::uint16_t>(*v));
  }
  if (c.kfd != "unsupported" && c.kfd != "experimental" && c.kfd != "needs_pcie_atomics") {
    r.error("\"kfd\" must be unsupported, experimental or needs_pcie_atomics: " + c.kfd);
  }
  if (r.ok()) data.amdgpu_kfd_chips.push_back(std::move(c));
}

void rocm(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    std::string kind = r.str("kind");
    if (kind == "release") {
      rocm_release(r, p, data);
    } else if (kind == "kernel") {
      RocmDistroKernels k;
      k.distro = r.str("distro");
      k.version = r.str("version");
      if (const Json* kernels = r.array("kernels")) {
        for (std::size_t i = 0; i < kernels->size(); ++i) {
          RowReader kr(r, (*kernels)[i], "kernels[" + std::to_string(i) + "]");
          k.kernels.push_back({kr.str("version"), kr.opt_str("flavor")});
        }
      }
      k.from = p;
      if (r.ok()) data.rocm_kernels.push_back(std::move(k));
    } else if (kind == "gpu") {
      RocmGpu g{r.str("gpu"), r.str("architecture"), r.str("gfx"), p};
      if (r.ok()) data.rocm_gpus.push_back(std::move(g));
    } else if (kind == "override") {
      RocmOverride o{r.str_list("gfx"), r.str("value"), r.str("runs_as"), p};
      if (r.ok()) data.rocm_overrides.push_back(std::move(o));
    } else if (kind == "apu") {
      RocmApuTargets a{r.str_list("gfx"), p};
      if (a.gfx.empty()) r.error("\"gfx\" must list at least one target");
      if (r.ok()) data.rocm_apu_targets.push_back(std::move(a));
    } else if (kind == "kfd") {
      kfd_chip(r, p, data);
    } else if (kind == "runtime_targets") {
      RuntimeGfxTargets g{r.str("runtime"), r.os("os"), r.range("version"), r.str_list("gfx"), p};
      if (g.gfx.empty()) r.error("\"gfx\" must list at least one target");
      if (r.ok()) data.runtime_gfx_targets.push_back(std::move(g));
    } else if (!kind.empty()) {
      r.error("\"kind\" must be release, kernel, gpu, override, apu, kfd or runtime_targets: " +
              kind);
    }
  });
}

}  // namespace

void load_framework_file(const FileContext& file, const Json& rows, CompatData& data) {
  if (file.name == "tensorflow.json") tensorflow(file, rows, data);
  if (file.name == "pytorch.json") pytorch(file, rows, data);
  if (file.name == "jax.json") jax(file, rows, data);
  if (file.name == "tensorflow_metal.json") tensorflow_metal(file, rows, data);
  if (file.name == "rocm.json") rocm(file, rows, data);
}

}  // namespace gpudoctor::compat_detail
