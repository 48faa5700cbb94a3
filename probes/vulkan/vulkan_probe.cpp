#include "vulkan/vulkan_probe.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "core/library_search.hpp"
#include "parse/pci_sysfs.hpp"
#include "parse/vulkan_manifest.hpp"
#include "smoke/smoke_verdict.hpp"
#include "platform/library_names.hpp"
#include "text.hpp"
#include "vulkan/vulkan_enumerate.hpp"
#include "vulkan/vulkan_layers.hpp"
#include "api/vulkan/vulkan_search.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr const char* kBackend = "vulkan";
constexpr bool k64Bit = sizeof(void*) == 8;
/// How a manifest's not_loaded begins when an earlier manifest is the same driver.
const std::string kSameDriverAs = "the same driver as ";

std::string base_name(const std::string& file) { return file.substr(file.rfind('/') + 1); }

bool is_failure(ProbeStatus s) {
  return s == ProbeStatus::failed || s == ProbeStatus::crashed || s == ProbeStatus::timed_out;
}

/// Reads the manifests the loader would read, and finds the libraries they name.
class Discovery {
 public:
  explicit Discovery(const ProbeContext& ctx) : ctx_(ctx), libs_(ctx.root, ctx.env) {}

  VulkanInfo run() {
    for (const auto& name : library_names(ctx_.platform).vulkan) {
      info_.loader = libs_.find(name);
      if (info_.loader) break;
    }
    const VulkanSearchPlan plan = vulkan_driver_search_plan(ctx_.env);
    info_.driver_override = plan.override_variable;
    render_nodes_ = read_render_nodes();
    for (const auto& place : plan.places) add_place(place);
    discover_implicit_layers(ctx_, libs_, info_);
    return std::move(info_);
  }

 private:
  /// Relative entries in VK_DRIVER_FILES are relative to the working directory, as for the
  /// loader; under --sysroot there is no such thing, so they are taken from the root.
  std::string absolute(const std::string& path) const {
    if (starts_with(path, "/")) return path;
    if (!ctx_.live) return "/" + path;
    std::error_code ec;
    auto abs = std::filesystem::absolute(path, ec);
    return ec ? path : abs.lexically_normal().string();
  }

  void add_place(const VulkanSearchPlace& place) {
    std::string path = absolute(place.path);
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    info_.search_paths.push_back(path);
    if (ctx_.root.is_directory(path)) {
      for (const auto& name : ctx_.root.list(path)) {
        if (ends_with(name, ".json")) add_manifest(place.source, path + "/" + name);
      }
    } else if (place.from_variable) {
      add_manifest(place.source, path);  // a named file that is not there is worth saying
    }
  }

  void add_manifest(const std::string& source, const std::string& file) {
    if (!seen_.insert(file).second) return;
    VulkanManifest m;
    m.source = source;
    m.file = file;
    FileText text = ctx_.root.read_file(file);
    if (!text.text) {
      m.error = "cannot be read: " + text.error;
      info_.manifests.push_back(std::move(m));
      return;
    }
    VulkanManifestFile parsed = parse_vulkan_manifest(*text.text);
    m.file_format_version = parsed.file_format_version;
    m.library_path = parsed.library_path;
    m.api_version = parsed.api_version;
    m.is_portability_driver = parsed.is_portability_driver;
    m.error = parsed.error;
    if (!m.error && parsed.library_arch && *parsed.library_arch != (k64Bit ? "64" : "32")) {
      m.error = "ICD.library_arch is \"" + *parsed.library_arch + "\"; a " +
                (k64Bit ? "64" : "32") + "-bit loader skips it";
    }
    if (m.library_path && !m.library_path->empty()) resolve_library(m);
    if (m.resolved && !m.error) m.not_loaded = vulkan_driver_without_device(*m.resolved, render_nodes_);
    if (m.resolved && !m.error && !m.not_loaded) note_same_driver(m);
    info_.manifests.push_back(std::move(m));
  }

  /// Manifests that make the loader load the same library file the same way (same API version
  /// and portability flag) are one driver: probed once, in one child, found by one stat each.
  void note_same_driver(VulkanManifest& m) {
    const auto st = ctx_.root.stat_of(*m.resolved);
    if (!st) return;
    auto [first, fresh] =
        drivers_.emplace(std::make_tuple(st->st_dev, st->st_ino, m.api_version.value_or(""),
                                         m.is_portability_driver.value_or(false)),
                         m.file);
    if (!fresh) {
      m.not_loaded = kSameDriverAs + first->second +
                     " (the same library file and API version): probed once for both";
    }
  }

  /// An absolute path as it is; a relative one with a slash from the manifest's directory; a
  /// bare name through the dynamic loader's search, as the Vulkan loader hands it to dlopen.
  void resolve_library(VulkanManifest& m) {
    const std::string& lib = *m.library_path;
    const bool bare = lib.find('/') == std::string::npos;
    m.resolved = resolve_manifest_library(ctx_.root, libs_, m.file, lib);
    if (m.error) return;
    if (!m.resolved) {
      m.error = "library " + lib + " not found" + (bare ? " in the library search path" : "");
    } else if (auto problem = elf_problem(*m.resolved)) {
      m.error = *m.resolved + " " + *problem;
    }
  }

  /// Why this process's loader could not load the library, from its ELF header. Only live:
  /// fixture trees hold placeholders, not the libraries.
  std::optional<std::string> elf_problem(const std::string& path) const {
    if (!ctx_.live) return std::nullopt;
    FileText file = ctx_.root.read_file(path, 5);
    if (!file.text) return "cannot be read: " + file.error;
    const std::optional<std::string>& head = file.text;
    if (head->size() < 5 || head->compare(0, 4,
                                          "\x7f"
                                          "ELF") != 0) {
      return "is not an ELF shared library";
    }
    const char ours = k64Bit ? 2 : 1;  // EI_CLASS: ELFCLASS64 / ELFCLASS32
    if ((*head)[4] == ours) return std::nullopt;
    return std::string("is a ") + ((*head)[4] == 1 ? "32" : "64") + "-bit library; a " +
           (k64Bit ? "64" : "32") + "-bit loader skips it";
  }

  /// The render nodes in /dev/dri and, from sysfs, the PCI vendor behind each.
  std::vector<DrmRenderNode> read_render_nodes() const {
    std::vector<DrmRenderNode> nodes;
    for (const auto& name : ctx_.root.list("/dev/dri")) {
      if (!starts_with(name, "renderD")) continue;
      DrmRenderNode node{name, std::nullopt};
      if (auto text = ctx_.root.read("/sys/class/drm/" + name + "/device/vendor")) {
        node.vendor = parse_hex_attribute(*text);
      }
      nodes.push_back(std::move(node));
    }
    return nodes;
  }

  const ProbeContext& ctx_;
  LibrarySearch libs_;
  std::vector<DrmRenderNode> render_nodes_;
  VulkanInfo info_;
  std::set<std::string> seen_;
  std::map<std::tuple<dev_t, ino_t, std::string, bool>, std::string> drivers_;
};

/// A child that died during the smoke test: its last progress report names the device.
void add_lost_smoke(VulkanDriverReport& report, const std::string& library,
                    const ProbeOutcome& outcome) {
  if (!report.smoke_running) return;
  std::vector<std::string> devices;
  for (std::size_t i = 0; i < report.devices.size(); ++i) {
    devices.push_back(smoke_device_label(report.devices[i], i));
  }
  for (auto& r : smoke::smoke_lost("vulkan", library, *report.smoke_running, devices,
                                   outcome.detail)) {
    report.smoke.push_back(std::move(r));
  }
}

/// Layers that crashed, hung or failed in drivers' children, each becoming an outcome of its
/// own (label "layer <name>", library the layer's) while the driver keeps what it gave alone.
class LayerBlame {
 public:
  /// One child's report: a death while a layer was being tried is the layer's.
  void take(VulkanDriverReport& report, const std::string& driver, IsolatedResult& r) {
    if (report.layer_running && is_failure(r.outcome.status)) {
      const VulkanLayerCheck l = *report.layer_running;
      const ProbeStatus status = r.outcome.status;
      const std::string& d = r.outcome.detail;
      const std::string how = starts_with(d, driver) ? d.substr(driver.size()) : ": " + d;
      add(l, status, how, driver, r.outcome.stderr_tail);
      r.outcome.status = ProbeStatus::ok;
      r.outcome.detail = device_names(report) + "; with the layer " + l.name + " it " +
                         verb(status) + " (reported as the layer's)";
      r.outcome.stderr_tail.reset();
      report.layer_running.reset();
    }
    for (const auto& l : report.layers) {
      if (l.status != ProbeStatus::ok) add(l, l.status, ": " + l.detail, driver, std::nullopt);
    }
  }
  void append_to(std::vector<IsolatedResult>& results) {
    for (auto& o : outcomes_) results.push_back(IsolatedResult{std::move(o), std::nullopt});
  }

 private:
  static std::string verb(ProbeStatus s) {
    return s == ProbeStatus::crashed ? "crashed" : s == ProbeStatus::timed_out ? "hung" : "failed";
  }
  static std::string device_names(const VulkanDriverReport& report) {
    std::vector<std::string> names;
    for (const auto& d : report.devices) names.push_back(d.name.value_or("?"));
    return plural(names.size(), "device") + (names.empty() ? "" : ": " + join(names, ", "));
  }
  void add(const VulkanLayerCheck& l, ProbeStatus status, const std::string& how,
           const std::string& driver, const std::optional<std::string>& printed) {
    for (const auto& o : outcomes_) {
      if (o.label == "layer " + l.name) return;  // one outcome a layer, from its first driver
    }
    ProbeOutcome o{kBackend, "layer " + l.name, l.library, status,
                   "the Vulkan layer " + l.name + " (" + l.library + ")" + how +
                       ", tried alone with " + driver + ", which works without it; " +
                       "applications get it: " + l.because + " (" + l.manifest + ")"};
    o.stderr_tail = printed;
    outcomes_.push_back(std::move(o));
  }
  std::vector<ProbeOutcome> outcomes_;
};

}  // namespace

VulkanInfo discover(const ProbeContext& ctx) { return Discovery(ctx).run(); }

std::vector<IsolatedJob> jobs(const ProbeContext& ctx, const VulkanInfo& found) {
  std::vector<IsolatedJob> out;
  if (!ctx.live) return out;
  auto layers = std::make_shared<const LayerPlan>(discover_layers(ctx));
  for (const auto& m : found.manifests) {
    if (!m.resolved || m.error || m.not_loaded) continue;
    out.push_back({kBackend, base_name(m.file), m.resolved,
                   [file = m.file, lib = *m.resolved, smoke = ctx.smoke, layers] {
                     return enumerate_vulkan_driver(file, lib, smoke, *layers);
                   }});
  }
  return out;
}

ProbeOutcome assemble(VulkanInfo& info, std::vector<IsolatedResult>& results, bool live) {
  ProbeOutcome own{kBackend, kBackend, info.loader, ProbeStatus::ok, ""};
  if (!live) {
    own.status = ProbeStatus::skipped;
    own.detail = plural(info.manifests.size(), "driver manifest") +
                 " listed; drivers are not loaded under --sysroot";
    return own;
  }
  std::size_t failures = 0;
  std::size_t reporting = 0;
  double longest = 0;
  LayerBlame layers;
  for (auto& r : results) {
    longest = std::max(longest, r.outcome.seconds.value_or(0));
    if (r.data) {
      const std::string what = r.outcome.library.value_or(r.outcome.label);
      try {
        auto report = r.data->get<VulkanDriverReport>();
        if (report.devices.size() > kMaxDevices) {
          throw std::runtime_error(std::to_string(report.devices.size()) + " devices");
        }
        if (!info.instance_version) info.instance_version = report.instance_version;
        if (!info.loader) info.loader = report.loader;
        if (!report.devices.empty()) ++reporting;
        layers.take(report, what, r);
        if (is_failure(r.outcome.status)) add_lost_smoke(report, what, r.outcome);
        for (auto& smoke : report.smoke) info.smoke.push_back(std::move(smoke));
        for (auto& d : report.devices) {
          if (d.manifest.empty()) d.manifest = report.manifest;
          info.devices.push_back(std::move(d));
        }
      } catch (const std::exception& e) {
        r.outcome.status = ProbeStatus::failed;
        r.outcome.detail = what + " made the probe send back malformed data (" + e.what() + ")";
      }
    }
    if (is_failure(r.outcome.status)) ++failures;
  }
  own.library = info.loader;
  own.seconds = longest;
  layers.append_to(results);
  auto counted = [&](bool same_driver) {
    return static_cast<std::size_t>(
        std::count_if(info.manifests.begin(), info.manifests.end(), [&](const VulkanManifest& m) {
          return m.not_loaded && starts_with(*m.not_loaded, kSameDriverAs) == same_driver;
        }));
  };
  const std::size_t not_loaded = counted(false);
  const std::size_t repeated = counted(true);
  std::string skipped =
      not_loaded == 0 ? ""
                      : "; " + plural(not_loaded, "driver") + " not loaded: no device here for them";
  if (repeated > 0) {
    skipped += "; " + plural(repeated, "more manifest") + " of a driver already probed";
  }

  if (!info.devices.empty()) {
    own.detail = plural(info.devices.size(), "device") + " from " + plural(reporting, "driver");
    if (failures > 0) own.detail += "; " + plural(failures, "driver") + " failed";
    own.detail += skipped;
  } else if (failures > 0) {
    // The drivers failed, each named by its own outcome; the loader is not one of them.
    own.status = ProbeStatus::failed;
    own.library.reset();
    own.detail = "no device; " + std::to_string(failures) + " of " +
                 plural(results.size(), "driver") + " failed";
  } else if (info.manifests.empty()) {
    own.status = ProbeStatus::missing;
    own.detail = info.search_paths.empty()
                     ? info.driver_override.value_or("VK_DRIVER_FILES") +
                           " is set but empty, so no driver is searched for"
                     : "no Vulkan driver manifest in " + join(info.search_paths, ", ");
  } else if (!info.loader) {
    own.status = ProbeStatus::missing;
    own.detail = "the Vulkan loader (libvulkan) is not installed";
  } else if (results.empty()) {
    own.status = ProbeStatus::missing;
    own.detail = not_loaded > 0 ? "no device: " + plural(not_loaded, "driver") +
                                      " installed, none for a device on this machine"
                                : "no usable driver manifest (" +
                                      plural(info.manifests.size(), "manifest") +
                                      ", none with a library that can be loaded)";
  } else {
    own.status = ProbeStatus::missing;
    own.detail = "no driver reported a device (" + plural(results.size(), "driver") + " tried" +
                 skipped + ")";
  }
  return own;
}

}  // namespace gpudoctor::vulkan
