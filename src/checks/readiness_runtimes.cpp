// The readiness chain for runtimes that are not Python frameworks (issue 26 §1): ollama and
// llama.cpp installs (model/runtime.hpp), and the OpenCL and Vulkan drivers themselves, each
// paired with every GPU it could run on. Stages are decided as the frameworks' are
// (readiness.cpp): a finding whose stage row concerns the pair first, else the facts read, else
// "not examined" with why. vLLM is a Python package: readiness.cpp pairs it through its torch.
#include <algorithm>
#include <functional>

#include "backends.hpp"
#include "checks/area_status.hpp"
#include "checks/check_list.hpp"
#include "checks/python_facts.hpp"
#include "checks/readiness.hpp"
#include "checks/rocm_runtime.hpp"
#include "devices.hpp"
#include "model/access_view.hpp"
#include "model/pci.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {
namespace runtime_pairs {

std::string origin_text(const Snapshot& s) {
  switch (s.origin) {
    case Origin::live: return "this run";
    case Origin::sysroot: return "the --sysroot tree";
    case Origin::report: return "the report";
    case Origin::paste: return "the pasted text";
  }
  return "the input";
}

StageVerdict ok(Stage s, std::string f) { return {s, StageState::ok, std::move(f), {}}; }
StageVerdict fails(Stage s, std::string f) { return {s, StageState::fails, std::move(f), {}}; }
StageVerdict risk(Stage s, std::string f) { return {s, StageState::at_risk, std::move(f), {}}; }
StageVerdict unexamined(Stage s, std::string f) {
  return {s, StageState::not_examined, std::move(f), {}};
}

bool word_in(std::string_view list, std::string_view word) {
  for (const auto& w : split_words(list, ", ")) {
    if (w == word) return true;
  }
  return false;
}

struct Ctx {
  const CheckInput& in;
  const std::vector<Finding>& findings;
  std::vector<std::string> names;  ///< the machine's distinct GPU names
};

/// Whether finding f decides stage st of the pair (runtime `fw`, device dev of vendor v).
bool decides(const Ctx& c, const Finding& f, Stage st, std::string_view fw, GpuVendor v,
             const MergedDevice* dev) {
  auto row = stage_of_finding(f.id);
  if (!row || row->stage != st) return false;
  if (row->vendor != "any" && row->vendor != vendor_word(v)) return false;
  if (!row->frameworks.empty() && !word_in(row->frameworks, fw)) return false;
  if (!row->except.empty() && word_in(row->except, fw)) return false;
  if (!dev) return true;
  bool names_any = false;
  for (const auto& n : c.names) {
    const bool m = f.title.find(n) != std::string::npos ||
                   std::any_of(f.evidence.begin(), f.evidence.end(),
                               [&](const std::string& e) { return e.find(n) != std::string::npos; });
    if (!m) continue;
    names_any = true;
    if (n == dev->name) return true;
  }
  return !names_any;
}

StageVerdict by_findings(const Ctx& c, Stage st, std::string_view fw, GpuVendor v,
                         const MergedDevice* dev) {
  StageVerdict out = unexamined(st, "");
  const Finding* decisive = nullptr;
  std::vector<std::string> ids;
  for (const auto& f : c.findings) {
    if (!decides(c, f, st, fw, v, dev)) continue;
    if (f.severity == Severity::fail) {
      if (!decisive || decisive->severity != Severity::fail) decisive = &f;
    } else if (f.severity == Severity::warn && (!decisive || decisive->severity != Severity::fail)) {
      decisive = &f;
    } else {
      continue;
    }
    ids.push_back(f.id);
  }
  if (!decisive) return out;
  out.state = decisive->severity == Severity::fail ? StageState::fails : StageState::at_risk;
  out.fact = decisive->title;
  out.findings = ids;
  return out;
}

/// The pair, its stages judged in order; the first that fails is the diagnosis.
ReadinessPair chain(const Ctx& c, std::string name, std::string label, std::string where,
                    std::string api, const MergedDevice* dev, GpuVendor v,
                    const std::vector<Stage>& stages,
                    const std::function<StageVerdict(Stage)>& facts) {
  ReadinessPair p;
  p.framework = std::move(label);
  p.environment = std::move(where);
  p.api = std::move(api);
  p.device = dev ? (dev->pci_address ? dev->name + " (" + *dev->pci_address + ")" : dev->name)
                 : "no " + vendor_label(v) + " GPU";
  for (Stage st : stages) {
    if (p.first_failure) {
      p.stages.push_back({st, StageState::not_judged, "", {}});
      continue;
    }
    StageVerdict sv = by_findings(c, st, name, v, dev);
    if (sv.findings.empty()) sv = facts(st);
    if (sv.state == StageState::fails) p.first_failure = st;
    p.stages.push_back(std::move(sv));
  }
  if (p.first_failure) {
    p.verdict = std::string("fails at ") + to_string(*p.first_failure);
    return p;
  }
  const StageVerdict* first = nullptr;
  std::size_t more = 0;
  for (const auto& sv : p.stages) {
    if (sv.state == StageState::ok) continue;
    if (!first) first = &sv; else ++more;
  }
  if (!first) {
    p.verdict = "ready";
  } else {
    p.verdict = std::string(first->state == StageState::at_risk ? "at risk: " : "not confirmed: ") +
                to_string(first->stage) + " " + to_string(first->state) +
                (first->fact.empty() ? "" : " (" + first->fact + ")") +
                (more ? "; " + plural(more, "more stage") +
                            " not confirmed"
                      : "");
  }
  return p;
}

std::optional<std::size_t> kfd_index(const Snapshot& s, const MergedDevice* dev) {
  if (!dev || !s.rocm) return std::nullopt;
  for (auto i : dev->in(kApiKfd)) {
    if (i < s.rocm->nodes.size()) return i;
  }
  return std::nullopt;
}

StageVerdict hardware_of(const Snapshot& s, const MergedDevice* dev, GpuVendor v, bool need_gfx) {
  const Stage st = Stage::hardware;
  if (!dev) return fails(st, "no " + vendor_label(v) + " GPU was found");
  if (v == GpuVendor::amd) {
    if (auto k = kfd_index(s, dev); k && s.rocm->nodes[*k].gfx_target) {
      return ok(st, dev->name + ", " + *s.rocm->nodes[*k].gfx_target);
    }
    if (need_gfx) {
      return unexamined(st, dev->name + ": its gfx target was not read (no KFD topology in " +
                                origin_text(s) + ")");
    }
  }
  if (dev->name_source == "none") return unexamined(st, "a GPU whose id no table names");
  return ok(st, dev->name);
}

StageVerdict kernel_driver_of(const Snapshot& s, const MergedDevice* dev, GpuVendor v) {
  const Stage st = Stage::kernel_driver;
  std::vector<std::string> wanted;
  if (v == GpuVendor::nvidia) wanted = {"nvidia"};
  if (v == GpuVendor::amd) wanted = {"amdgpu"};
  if (v == GpuVendor::intel) wanted = {"i915", "xe"};
  if (dev && dev->pci && s.pci && *dev->pci < s.pci->devices.size() && !wanted.empty()) {
    const PciDevice& p = s.pci->devices[*dev->pci];
    if (!p.driver) return fails(st, "no kernel driver is bound to " + dev->name);
    if (std::find(wanted.begin(), wanted.end(), *p.driver) != wanted.end()) {
      return ok(st, *p.driver + " is bound");
    }
    return fails(st, dev->name + " is bound to " + *p.driver + ", not " + join(wanted, " or "));
  }
  for (std::string_view a : {kBackendCuda, kBackendNvml, kApiKfd, kApiHip, kBackendMetal,
                             kBackendVulkan, kBackendOpenCl}) {
    if (dev && dev->saw(a)) return ok(st, "the driver answered through " + std::string(a));
  }
  return unexamined(st, "the kernel driver bound to it is not in " + origin_text(s));
}

/// `node`: the device file the runtime opens ("/dev/kfd", "/dev/nvidiactl", "/dev/dri/renderD").
StageVerdict access_of(const Snapshot& s, const std::string& node, const std::string& who) {
  const Stage st = Stage::access;
  const HostAccess& a = host_access(s);
  if (a.device_nodes.empty()) {
    return unexamined(st, "the device files and groups are not in " + origin_text(s));
  }
  for (const auto& n : a.device_nodes) {
    if (starts_with(n.path, node)) {
      return ok(st, node + " is there and no access check found a problem" +
                        (who.empty() ? "" : " for " + who));
    }
  }
  return unexamined(st, "no " + node + " in " + origin_text(s));
}

std::string node_for(GpuVendor v, bool rocm) {
  if (v == GpuVendor::nvidia) return "/dev/nvidiactl";
  if (v == GpuVendor::amd && rocm) return "/dev/kfd";
  return "/dev/dri/renderD";
}

// ---- ollama ---------------------------------------------------------------------------------

bool has_backend(const std::vector<std::string>& b, std::string_view prefix) {
  return std::any_of(b.begin(), b.end(), [&](const std::string& x) { return starts_with(x, prefix); });
}

StageVerdict ollama_libraries(const Snapshot& s, const OllamaInstall& o, GpuVendor v) {
  const Stage st = Stage::runtime_libraries;
  if (!o.lib_dir) {
    return unexamined(st, "no lib/ollama beside " + o.binary +
                              ": this release embeds its runners, which are not read");
  }
  const std::string want = v == GpuVendor::amd ? "rocm" : "cuda";
  if (has_backend(o.backends, want)) {
    return ok(st, *o.lib_dir + " bundles " + join(o.backends, ", "));
  }
  const std::string have = o.backends.empty() ? "none" : join(o.backends, ", ");
  if (v == GpuVendor::amd && s.rocm && !s.rocm->installs.empty()) {
    return risk(st, *o.lib_dir + " bundles no ROCm backend (GPU backends: " + have +
                        "); a ROCm install is on the machine, which only older releases load");
  }
  return fails(st, *o.lib_dir + " bundles no " + std::string(v == GpuVendor::amd ? "ROCm" : "CUDA") +
                       " backend (GPU backends: " + have + "): ollama runs this GPU's models on "
                       "the CPU");
}

StageVerdict ollama_code(const CheckInput& in, const OllamaInstall& o, const MergedDevice* dev, GpuVendor v) {
  const Snapshot& s = in.snap;
  const Stage st = Stage::gpu_code;
  if (v == GpuVendor::nvidia) {
    return unexamined(st, "the CUDA architectures of ollama's bundled libggml-cuda are not read");
  }
  auto k = kfd_index(s, dev);
  if (!k || !s.rocm->nodes[*k].gfx_target) return unexamined(st, "the GPU's gfx target is unknown");
  const auto code = ollama_gfx_code(o, in.compat);
  if (!code) return unexamined(st, "the gfx targets of ollama's bundled rocBLAS were not read");
  const KfdNode& n = s.rocm->nodes[*k];
  const auto ov = ollama_override(o, *s.rocm, n);
  const std::string runs_as = ollama_runs_as(ov, n);
  if (!ollama_carries(*code, runs_as)) {
    return fails(st, std::string(code->from_files ? "ollama's bundled rocBLAS has" : "no ollama release (ollama's own builds) has") +
                         " code for " + runs_as + " (" + (code->from_files ? "it carries " : "they carry ") +
                         join(code->gfx, ", ") + ")");
  }
  if (!ollama_every_release_carries(*code, runs_as)) {
    return risk(st, "only ollama " + ollama_releases_carrying(*code, runs_as) + " carry code for " + runs_as +
                        ", and this install's release could not be read (no lib/ollama beside " +
                        o.binary + ")");
  }
  if (runs_as != *n.gfx_target) {
    return risk(st, "runs as " + runs_as + " by " + ov->first + "=" + ov->second +
                        (o.unit ? " in the service's unit" : "") + ": another target's code");
  }
  if (!code->from_files) return ok(st, "every release of ollama carries " + runs_as + " (its build files)");
  return ok(st, "rocBLAS carries " + runs_as);
}

StageVerdict ollama_driver(const CheckInput& in, const OllamaInstall& o) {
  const Stage st = Stage::driver_version;
  if (o.cudart_versions.empty()) {
    return unexamined(st, "the CUDA runtime ollama bundles was not read");
  }
  auto text = installed_driver_version(in.snap);
  if (!text) return unexamined(st, "the NVIDIA driver's version is not in " + origin_text(in.snap));
  auto driver = parse_version(*text);
  if (!driver) return unexamined(st, "the NVIDIA driver's version \"" + *text + "\" is not a version");
  std::string best, lowest_need;
  for (const auto& c : o.cudart_versions) {
    auto v = parse_version(c);
    if (!v) continue;
    auto need = driver_for_bundled_cuda(in.compat, *v);
    if (!need) continue;
    if (*driver >= need->driver) {
      best = "driver " + *text + " ≥ " + need->driver.text + " for the bundled CUDA " + c;
    } else if (lowest_need.empty()) {
      lowest_need = need->driver.text + " (CUDA " + c + ")";
    }
  }
  if (!best.empty()) return ok(st, best);
  if (!lowest_need.empty()) {
    return fails(st, "driver " + *text + " is older than every CUDA runtime ollama bundles: the "
                     "oldest needs " + lowest_need);
  }
  return unexamined(st, "the bundled CUDA " + join(o.cudart_versions, ", ") +
                            " is not in gpudoctor's driver table");
}

// ---- OpenCL and Vulkan ----------------------------------------------------------------------

/// Whether a driver library's name is one for this vendor's GPUs.
bool lib_for(GpuVendor v, const std::string& lib, bool vulkan) {
  const std::string l = to_lower(lib);
  auto has = [&](const char* w) { return l.find(w) != std::string::npos; };
  switch (v) {
    case GpuVendor::nvidia: return has("nvidia");
    case GpuVendor::amd:
      return vulkan ? has("radeon") || has("amdvlk") || has("amdgpu")
                    : has("amdocl") || has("rusticl") || has("mesaopencl") || has("amdgpu");
    case GpuVendor::intel:
      return vulkan ? has("intel") : has("igdrcl") || has("rusticl") || has("beignet") || has("intel");
    case GpuVendor::apple: return vulkan ? has("moltenvk") : has("opencl.framework");
    case GpuVendor::other: return false;
  }
  return false;
}

StageVerdict opencl_user_driver(const Snapshot& s, const MergedDevice* dev, GpuVendor v) {
  const Stage st = Stage::user_driver;
  if (dev && dev->saw(kBackendOpenCl)) return ok(st, "an OpenCL platform lists it");
  std::vector<std::string> theirs, all;
  std::string broken;
  for (const auto& i : s.opencl->icds) {
    all.push_back(i.library.empty() ? i.file.value_or("?") : i.library);
    if (!lib_for(v, i.library, false)) continue;
    theirs.push_back(i.library);
    if (i.error && broken.empty()) broken = i.library + ": " + *i.error;
    if (!i.resolved && broken.empty() && s.origin != Origin::paste) {
      broken = i.library + " is registered but the loader does not find it";
    }
  }
  if (theirs.empty()) {
    return fails(st, "no OpenCL ICD for " + vendor_label(v) + " GPUs is registered (registered: " +
                         (all.empty() ? "none" : join(all, ", ")) + ")");
  }
  if (!broken.empty()) return fails(st, broken);
  if (s.origin == Origin::live) {
    return risk(st, join(theirs, ", ") + " loaded, and no platform lists this GPU");
  }
  return ok(st, join(theirs, ", ") + " is registered and its library is found");
}

StageVerdict vulkan_user_driver(const Snapshot& s, const MergedDevice* dev, GpuVendor v) {
  const Stage st = Stage::user_driver;
  if (dev && dev->saw(kBackendVulkan)) return ok(st, "the Vulkan loader lists it");
  std::vector<std::string> theirs, all;
  std::string broken;
  for (const auto& m : s.vulkan->manifests) {
    const std::string lib = m.library_path.value_or(m.file);
    all.push_back(lib);
    if (!lib_for(v, lib, true) && !lib_for(v, m.file, true)) continue;
    theirs.push_back(lib);
    if (m.error && broken.empty()) broken = m.file + ": " + *m.error;
  }
  if (theirs.empty()) {
    return fails(st, "no Vulkan driver for " + vendor_label(v) + " GPUs is installed (manifests: " +
                         (all.empty() ? "none" : join(all, ", ")) + ")");
  }
  if (!broken.empty()) return fails(st, broken);
  // The manifest is only read by the loader: without libvulkan.so.1 no program gets a device
  // (a CUDA container on a real H200 mounts NVIDIA's manifest and has no loader).
  if (s.live && !s.vulkan->loader) {
    return fails(st, "the Vulkan loader (libvulkan.so.1) is not installed to read " +
                         join(theirs, ", "));
  }
  if (s.origin == Origin::live && !s.vulkan->devices.empty()) {
    return risk(st, join(theirs, ", ") + " is installed, and the loader lists no device for this GPU");
  }
  return ok(st, join(theirs, ", ") + " is installed and its library is found");
}

StageVerdict smoke_of(const Snapshot& s, const std::vector<SmokeResult>* results,
                      const MergedDevice* dev, const std::string& api) {
  const Stage st = Stage::smoke;
  if (results && dev) {
    // A smoke result names its device as the API listed it: OpenCL's "<name> on <platform>"
    // (on a real H200: "NVIDIA H200 on NVIDIA CUDA"), Vulkan's own device name.
    std::vector<std::string> names{dev->name};
    if (api == "OpenCL" && s.opencl) {
      for (std::size_t i : dev->in(kBackendOpenCl)) {
        if (auto at = opencl_position(*s.opencl, i)) {
          names.push_back(opencl_smoke_label(s.opencl->platforms[at->first], at->second));
        }
      }
    }
    if (api == "Vulkan" && s.vulkan) {
      for (std::size_t i : dev->in(kBackendVulkan)) {
        if (i < s.vulkan->devices.size() && s.vulkan->devices[i].name) {
          names.push_back(*s.vulkan->devices[i].name);
        }
      }
    }
    for (const auto& r : *results) {
      if (std::find(names.begin(), names.end(), r.device) == names.end()) continue;
      if (r.status == "pass") return ok(st, "verified " + r.api + " matmul");
      if (r.status == "fail") return fails(st, r.reason.value_or("the matmul gave wrong results"));
    }
  }
  if (s.origin != Origin::live) return unexamined(st, "nothing runs on " + origin_text(s));
  return unexamined(st, "no matmul ran through " + api + " on it");
}

}  // namespace runtime_pairs
}  // namespace

std::vector<ReadinessPair> runtime_readiness(const CheckInput& in,
                                             const std::vector<Finding>& findings) {
  using namespace runtime_pairs;
  std::vector<ReadinessPair> out;
  const Snapshot& s = in.snap;
  Ctx c{in, findings, {}};
  std::vector<std::pair<const MergedDevice*, GpuVendor>> gpus;
  for (const auto& m : in.devices) {
    if (m.software || m.kind == DeviceKind::cpu) continue;
    const GpuVendor v = vendor_of_device(m);
    if (v == GpuVendor::other) continue;
    gpus.emplace_back(&m, v);
    if (std::find(c.names.begin(), c.names.end(), m.name) == c.names.end() && !m.name.empty()) {
      c.names.push_back(m.name);
    }
  }
  const bool mac = (s.host && s.host->os_id == std::optional<std::string>("macos")) || s.macos;

  if (s.runtimes) {
    for (const OllamaInstall& o : s.runtimes->ollama) {
      const std::string where = o.unit ? o.binary + " (service " + *o.unit + ")" : o.binary;
      for (const auto& [dev, v] : gpus) {
        if (v != GpuVendor::amd && v != GpuVendor::nvidia) continue;  // Metal on a Mac: not read here
        std::vector<Stage> stages = {Stage::hardware, Stage::kernel_driver, Stage::access,
                                     Stage::runtime_libraries, Stage::gpu_code};
        if (v == GpuVendor::nvidia) stages.push_back(Stage::driver_version);
        stages.push_back(Stage::smoke);
        const std::string api = v == GpuVendor::amd ? "rocm" : "cuda";
        const MergedDevice* d = dev;
        const GpuVendor vv = v;
        out.push_back(chain(c, "ollama", "ollama", where, api, d, vv, stages, [&](Stage st) {
          switch (st) {
            case Stage::hardware: return hardware_of(s, d, vv, vv == GpuVendor::amd);
            case Stage::kernel_driver: return kernel_driver_of(s, d, vv);
            case Stage::access: return access_of(s, node_for(vv, true), o.unit ? "the service" : "");
            case Stage::runtime_libraries: return ollama_libraries(s, o, vv);
            case Stage::gpu_code: return ollama_code(in, o, d, vv);
            case Stage::driver_version: return ollama_driver(in, o);
            default: return unexamined(st, "gpudoctor runs no model through ollama");
          }
        }));
      }
    }
    for (const LlamaCppInstall& l : s.runtimes->llama_cpp) {
      const std::string label = "llama.cpp (" + join(l.binaries, ", ") + ")";
      for (const auto& [dev, v] : gpus) {
        std::string api;
        if (l.backends.empty()) {
          api = "unknown";
        } else if (v == GpuVendor::nvidia && has_backend(l.backends, "cuda")) {
          api = "cuda";
        } else if (v == GpuVendor::amd && has_backend(l.backends, "hip")) {
          api = "rocm";  // HIP is ROCm's API: the pair's api is named as torch's ROCm builds are
        } else if (v == GpuVendor::apple && has_backend(l.backends, "metal")) {
          api = "metal";
        } else if (has_backend(l.backends, "vulkan") && v != GpuVendor::apple) {
          api = "vulkan";
        } else {
          continue;  // no backend of this build reaches this GPU: it runs on the CPU by design
        }
        const MergedDevice* d = dev;
        const GpuVendor vv = v;
        const std::vector<Stage> stages = {Stage::hardware, Stage::kernel_driver, Stage::access,
                                           Stage::runtime_libraries, Stage::gpu_code, Stage::smoke};
        out.push_back(chain(c, "llama.cpp", label, l.dir, api, d, vv, stages, [&](Stage st) {
          switch (st) {
            case Stage::hardware: return hardware_of(s, d, vv, api == "rocm");
            case Stage::kernel_driver: return kernel_driver_of(s, d, vv);
            case Stage::access: return access_of(s, node_for(vv, api == "rocm"), "");
            case Stage::runtime_libraries:
              if (api == "unknown") {
                return unexamined(st, "no libggml-*.so beside " + l.dir + ": a static build, "
                                      "whose backends are not read");
              }
              if (api == "vulkan" && s.vulkan) return vulkan_user_driver(s, d, vv);
              return ok(st, "libggml-" + api + " is installed beside it");
            case Stage::gpu_code:
              if (api == "vulkan" || api == "metal") {
                return ok(st, "the driver compiles its shaders for the GPU at run time");
              }
              if (api == "unknown") return unexamined(st, "which backends the build has is not read");
              return unexamined(st, "the device code in libggml-" + api + " is not read");
            default: return unexamined(st, "gpudoctor runs no model through llama.cpp");
          }
        }));
      }
    }
  }

  // The OpenCL and Vulkan drivers themselves, where something of them is installed (a machine
  // with none says so in its opencl/vulkan area; a pair per GPU would only repeat it).
  const bool opencl_there = s.opencl && (!s.opencl->icds.empty() || !s.opencl->platforms.empty());
  const bool vulkan_there = s.vulkan && !s.vulkan->manifests.empty();
  for (const auto& [dev, v] : gpus) {
    const MergedDevice* d = dev;
    const GpuVendor vv = v;
    if (opencl_there && (vv != GpuVendor::apple || mac)) {
      const std::vector<Stage> stages = {Stage::hardware, Stage::kernel_driver, Stage::access,
                                         Stage::user_driver, Stage::smoke};
      const std::string loader = s.opencl->loader.value_or("the ICD loader");
      out.push_back(chain(c, "opencl", "OpenCL", loader, "opencl", d, vv, stages, [&](Stage st) {
        switch (st) {
          case Stage::hardware: return hardware_of(s, d, vv, false);
          case Stage::kernel_driver:
            if (vv == GpuVendor::apple) return ok(st, "macOS drives it");
            return kernel_driver_of(s, d, vv);
          case Stage::access:
            if (vv == GpuVendor::apple) return ok(st, "no device files on macOS");
            return access_of(s, node_for(vv, false), "");
          case Stage::user_driver: return opencl_user_driver(s, d, vv);
          default: return smoke_of(s, &s.opencl->smoke, d, "OpenCL");
        }
      }));
    }
    if (vulkan_there && vv != GpuVendor::apple) {
      const std::vector<Stage> stages = {Stage::hardware, Stage::kernel_driver, Stage::access,
                                         Stage::user_driver, Stage::smoke};
      const std::string loader = s.vulkan->loader.value_or("the Vulkan loader");
      out.push_back(chain(c, "vulkan", "Vulkan", loader, "vulkan", d, vv, stages, [&](Stage st) {
        switch (st) {
          case Stage::hardware: return hardware_of(s, d, vv, false);
          case Stage::kernel_driver: return kernel_driver_of(s, d, vv);
          case Stage::access: return access_of(s, node_for(vv, false), "");
          case Stage::user_driver: return vulkan_user_driver(s, d, vv);
          default: return smoke_of(s, &s.vulkan->smoke, d, "Vulkan");
        }
      }));
    }
  }
  return out;
}

}  // namespace gpudoctor
