// Listings of GPUs by the graphics and compute APIs' own tools: `system_profiler
// SPDisplaysDataType` (the text form, read by src/parse/system_profiler.cpp), `clinfo` (full
// and -l) and `vulkaninfo` (--summary and the device lines of the full output).
#include <algorithm>
#include <cctype>

#include "parse/system_profiler.hpp"
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// clinfo's "  Device Name                                   NVIDIA GeForce RTX 3090": the
/// label ends at the first run of two spaces.
/// AMD's own clinfo writes "Number of platforms:    1"; a paste may start with "clinfo: ".
Labelled clinfo_pair(std::string_view t) {
  t = trim(t);
  if (starts_with(t, "clinfo: ")) t.remove_prefix(8);
  const auto gap = t.find("  ");
  if (gap == std::string_view::npos) {
    const auto colon = t.find(": ");  // "Board name:  x" kept by the gap rule; "Key: v" here
    if (colon == std::string_view::npos || t.find(':') != colon) return {};
    return {std::string(t.substr(0, colon)), std::string(trim(t.substr(colon + 1)))};
  }
  std::string key(trim(t.substr(0, gap)));
  if (!key.empty() && key.back() == ':') key.pop_back();
  return {key, std::string(trim(t.substr(gap)))};
}

std::uint32_t vendor_from_name(std::string_view name) {
  const std::string l = to_lower(name);
  if (l.find("nvidia") != std::string::npos) return kPciVendorNvidia;
  if (l.find("amd") != std::string::npos || l.find("advanced micro") != std::string::npos) {
    return kPciVendorAmd;
  }
  if (l.find("intel") != std::string::npos) return kPciVendorIntel;
  return 0;
}

}  // namespace

void read_system_profiler(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (t != "Graphics/Displays:" && !starts_with(t, "Chipset Model:")) continue;
    const std::size_t base = indent_of(lines[i].text);
    std::string block;
    std::size_t end = i;
    for (std::size_t k = i; k < lines.size() && !lines[k].fence && !sink.claimed(k); ++k) {
      const std::string_view s = trim(lines[k].text);
      if (k > i && !s.empty() && indent_of(lines[k].text) <= base &&
          !starts_with(s, "Chipset Model:") && t == "Graphics/Displays:") {
        break;
      }
      if (k > i && !s.empty() && t != "Graphics/Displays:" && split_label(s).key.empty()) break;
      block.append(lines[k].text).append("\n");
      end = k;
    }
    const DisplaysReport r = parse_system_profiler_displays_text(block);
    if (r.gpus.empty()) continue;
    MacosInfo& m = sink.macos();
    m.sources.push_back("system_profiler SPDisplaysDataType (pasted)");
    for (const auto& g : r.gpus) m.gpus.push_back(g);
    if (!sink.host().os_id) sink.host().os_id = "macos";
    for (std::size_t k = i; k <= end; ++k) {
      const Labelled l = split_label(trim(lines[k].text));
      if (l.key == "Chipset Model") sink.fact("gpu.name", l.value, k);
      if (l.key == "Metal" || l.key == "Metal Support" || l.key == "Metal Family") {
        sink.fact("metal", l.value, k);
      }
      sink.claim(k, "system_profiler");
    }
    i = end;
  }
}

/// Whether clinfo's own first line comes right after line `i`: a "dlerror:" line is the ICD
/// loader's only when clinfo printed it.
bool clinfo_follows(const std::vector<PasteLine>& lines, std::size_t i) {
  for (std::size_t k = i + 1; k < lines.size() && k < i + 6; ++k) {
    if (lines[k].text.find("Number of platforms") != std::string::npos) return true;
  }
  return false;
}

void read_clinfo(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool in_clinfo = false;
  OpenClPlatform* platform = nullptr;
  OpenClDevice* device = nullptr;
  auto find_platform = [&](const std::string& name) -> OpenClPlatform& {
    OpenClInfo& cl = sink.opencl();
    for (auto& p : cl.platforms) {
      if (p.name == name) return p;
    }
    OpenClPlatform p;
    p.name = name;
    p.library = kOpenClPastedClinfo;
    cl.platforms.push_back(std::move(p));
    return cl.platforms.back();
  };
  bool icd_failed = false;  // the loader said why: "0 platforms" is not a missing driver then
  std::optional<std::size_t> no_platforms;  // the line of clinfo's "Number of platforms 0"
  std::vector<std::string> listed_icds;     // .icd files an `ls` of the vendors directory showed
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = trim(lines[i].text);
    // "$ ls /etc/OpenCL/vendors/" and its answer, "intel-cpu.icd  intel.icd": the drivers are
    // registered, whatever clinfo then finds.
    if (t.find("ls ") != std::string_view::npos &&
        t.find("/etc/OpenCL/vendors") != std::string_view::npos && i + 1 < lines.size()) {
      for (const auto& word : split_words(trim(lines[i + 1].text))) {
        if (ends_with(word, ".icd")) listed_icds.push_back(word);
      }
      if (!listed_icds.empty()) {
        sink.claim(i, "ls");
        sink.claim(i + 1, "ls");
        for (const auto& icd : listed_icds) sink.fact("opencl.icd_file", icd, i + 1);
      }
      continue;
    }
    if (sink.claimed(i)) continue;
    // The ICD loader's word that an .icd file's library does not open, printed before clinfo's
    // own output: "dlerror: libamdocl64.so: cannot open shared object file: No such file or
    // directory". The .icd file is not named.
    if (starts_with(t, "dlerror: ") && t.find(": ", 9) != std::string_view::npos &&
        clinfo_follows(lines, i)) {
      const std::string_view said = t.substr(9);
      OpenClIcd icd;
      icd.source = kOpenClPastedClinfo;
      icd.library = std::string(said.substr(0, said.find(": ")));
      icd.error = std::string(said);
      sink.fact("opencl.icd_library", icd.library, i);
      sink.opencl().icds.push_back(std::move(icd));
      icd_failed = true;
      in_clinfo = true;
      sink.claim(i, "clinfo");
      continue;
    }
    // clinfo -l
    if (starts_with(t, "Platform #") && t.find(':') != std::string_view::npos) {
      platform = &find_platform(std::string(trim(t.substr(t.find(':') + 1))));
      device = nullptr;
      in_clinfo = true;
      sink.claim(i, "clinfo");
      continue;
    }
    if ((starts_with(t, "`-- Device #") || starts_with(t, "+-- Device #")) && platform) {
      OpenClDevice d;
      d.name = std::string(trim(t.substr(t.find(':') + 1)));
      platform->devices.push_back(std::move(d));
      sink.fact("opencl.device", *platform->devices.back().name, i);
      sink.claim(i, "clinfo");
      continue;
    }
    const Labelled l = clinfo_pair(t);
    if (l.key == "Number of platforms") {
      in_clinfo = true;
      sink.opencl();
      sink.claim(i, "clinfo");
      if (l.value == "0" && !icd_failed) no_platforms = i;
      continue;
    }
    // A paste that starts at the first platform's block.
    if (!in_clinfo && l.key == "Platform Name" && i + 1 < lines.size() &&
        clinfo_pair(lines[i + 1].text).key == "Platform Vendor") {
      in_clinfo = true;
    }
    if (!in_clinfo) continue;
    if (t.empty()) {
      sink.claim(i, "clinfo");
      continue;
    }
    if (lines[i].fence || (l.key.empty() && indent_of(lines[i].text) == 0 &&
                           t.find("clGet") == std::string_view::npos)) {
      in_clinfo = false;
      continue;
    }
    sink.claim(i, "clinfo");
    if (l.key == "Platform Name") {
      platform = &find_platform(l.value);
      device = nullptr;
    } else if (l.key == "Platform Vendor" && platform) {
      platform->vendor = l.value;
    } else if (l.key == "Platform Version" && platform) {
      platform->version = l.value;
    } else if (l.key == "Number of devices" && platform) {
      if (l.value == "0") {
        sink.symptom("opencl.platform_without_devices", "clinfo", i,
                     {{"platform", platform->name.value_or("?")}});
      }
    } else if ((l.key == "Device Name" || l.key == "Board name" ||
                (l.key == "Device Type" && !device)) && platform) {
      if (device && l.key == "Board name") {
        if (!l.value.empty()) device->name = l.value;
        continue;
      }
      platform->devices.emplace_back();
      device = &platform->devices.back();
      if (l.key == "Device Type") {
        std::string type = l.value;
        if (starts_with(type, "CL_DEVICE_TYPE_")) type = type.substr(15);
        device->type = type;
        continue;
      }
      device->name = l.value;
      sink.fact("opencl.device", l.value, i);
    } else if (l.key == "Device Name" && platform) {
      platform->devices.emplace_back();
      device = &platform->devices.back();
      device->name = l.value;
      sink.fact("opencl.device", l.value, i);
    } else if (device) {
      if (l.key == "Device Vendor") {
        device->vendor = l.value;
        if (!device->vendor_id && vendor_from_name(l.value)) {
          device->vendor_id = vendor_from_name(l.value);
        }
      } else if (l.key == "Device Vendor ID") {
        if (auto v = parse_uint(split_words(l.value).empty() ? "" : split_words(l.value)[0])) {
          device->vendor_id = static_cast<std::uint32_t>(*v);
        }
      } else if (l.key == "Device Version") {
        device->version = l.value;
      } else if (l.key == "Driver Version") {
        device->driver_version = l.value;
      } else if (l.key == "Device Type") {
        std::string type = split_words(l.value).empty() ? l.value : split_words(l.value)[0];
        if (starts_with(type, "CL_DEVICE_TYPE_")) type = type.substr(15);
        device->type = type;
      } else if (l.key == "Vendor ID") {
        // AMD's form: "1002h"
        std::string v = l.value;
        if (!v.empty() && v.back() == 'h') v = "0x" + v.substr(0, v.size() - 1);
        if (auto id = parse_uint(v)) device->vendor_id = static_cast<std::uint32_t>(*id);
      } else if (l.key == "Max compute units") {
        if (auto v = parse_uint(l.value)) device->compute_units = static_cast<std::uint32_t>(*v);
      }
    }
  }
  if (!no_platforms) return;
  // No platform although Intel's driver is registered: it loaded and found no GPU it may open,
  // which for Intel's compute runtime is most often the render group (intel/compute-runtime#350).
  const bool intel = std::any_of(listed_icds.begin(), listed_icds.end(), [](const std::string& f) {
    return starts_with(f, "intel") && f.find("cpu") == std::string::npos;
  });
  sink.symptom(intel ? "opencl.intel_icd_no_platform" : "opencl.no_platforms", "clinfo",
               *no_platforms);
}

/// The Vulkan loader's own word that a driver manifest's library does not load:
/// "loader_icd_scan: Failed loading library associated with ICD JSON <library>. Ignoring this
/// JSON", after the dynamic loader's error ("<library>: cannot open shared object file: …").
/// The manifest itself is not named: its file stays empty.
bool read_loader_icd_error(PasteSink& sink, std::size_t i) {
  constexpr std::string_view kFailed = "Failed loading library associated with ICD JSON ";
  const std::string_view t = trim(sink.lines()[i].text);
  const auto at = t.find(kFailed);
  if (at == std::string_view::npos) return false;
  std::string_view library = t.substr(at + kFailed.size());
  const auto end = library.find(". Ignoring");
  if (end != std::string_view::npos) library = library.substr(0, end);
  VulkanManifest m;
  m.source = "vulkaninfo";
  m.library_path = std::string(library);
  m.error = "the loader cannot load its library";
  if (i > 0) {
    const std::string_view before = trim(sink.lines()[i - 1].text);
    const auto code = before.find("Code 0 : ");
    if (code != std::string_view::npos &&
        before.find("cannot open shared object file") != std::string_view::npos) {
      m.error = std::string(before.substr(code + 9));
      sink.fact("vulkan.icd_error", *m.error, i - 1);
      sink.claim(i - 1, "vulkaninfo");
    }
  }
  sink.vulkan().manifests.push_back(std::move(m));
  sink.fact("vulkan.icd_library", std::string(library), i);
  sink.claim(i, "vulkaninfo");
  return true;
}

void read_vulkaninfo(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool in_vk = false;
  VulkanDevice* device = nullptr;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || read_loader_icd_error(sink, i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (t.find("vkCreateInstance: Found no drivers") != std::string_view::npos ||
        t.find("ERROR_INCOMPATIBLE_DRIVER") != std::string_view::npos) {
      sink.symptom("vulkan.no_driver", "vulkaninfo", i);
      sink.vulkan();
      sink.claim(i, "vulkaninfo");
      continue;
    }
    if (t.find("Cannot create Vulkan instance") != std::string_view::npos ||
        t.find("This problem is often caused by a faulty installation") != std::string_view::npos ||
        t.find("Failed to CreateInstance in ICD") != std::string_view::npos) {
      sink.claim(i, "vulkaninfo");
      continue;
    }
    // A paste that starts at the device list: "GPU0:" followed by "key = value" lines.
    const bool gpu_header = starts_with(t, "GPU") && ends_with(t, ":") && t.size() > 4 &&
                            parse_int(t.substr(3, t.size() - 4)).has_value();
    if (!in_vk && gpu_header && i + 1 < lines.size() &&
        (lines[i + 1].text.find(" = ") != std::string::npos ||
         starts_with(trim(lines[i + 1].text), "VkPhysicalDevice"))) {
      in_vk = true;
      sink.vulkan();
    }
    if (t == "Device Properties and Extensions:" || t == "Presentable Surfaces:" ||
        (t == "Devices:" && i + 1 < lines.size() && starts_with(trim(lines[i + 1].text), "===="))) {
      in_vk = true;
      sink.vulkan();
      sink.claim(i, "vulkaninfo");
      continue;
    }
    // "GPU id : 0 (llvmpipe (LLVM 12.0.0, 256 bits)):" in the surfaces section.
    if (in_vk && starts_with(t, "GPU id : ")) {
      const auto open = t.find(" (");
      if (open != std::string_view::npos && ends_with(t, "):")) {
        const std::string name(t.substr(open + 2, t.size() - open - 4));
        VulkanInfo& vk = sink.vulkan();
        const bool known = std::any_of(vk.devices.begin(), vk.devices.end(),
                                       [&](const VulkanDevice& d) { return d.name == name; });
        if (!known) {
          VulkanDevice d;
          d.manifest = "(pasted vulkaninfo)";
          d.name = name;
          const std::string l = to_lower(name);
          if (l.find("llvmpipe") != std::string::npos || l.find("lavapipe") != std::string::npos ||
              l.find("swiftshader") != std::string::npos) {
            d.type = "cpu";
          }
          vk.devices.push_back(std::move(d));
          sink.fact("vulkan.device", name, i);
        }
      }
      sink.claim(i, "vulkaninfo");
      continue;
    }
    if (t == "VULKANINFO" || starts_with(t, "Vulkan Instance Version:")) {
      in_vk = true;
      VulkanInfo& vk = sink.vulkan();
      if (starts_with(t, "Vulkan Instance Version:")) {
        vk.instance_version = std::string(trim(t.substr(24)));
      }
      sink.claim(i, "vulkaninfo");
      continue;
    }
    if (!in_vk) continue;
    if (lines[i].fence) {
      in_vk = false;
      continue;
    }
    if (gpu_header) {
      VulkanInfo& vk = sink.vulkan();
      VulkanDevice d;
      d.manifest = "(pasted vulkaninfo)";
      vk.devices.push_back(std::move(d));
      device = &vk.devices.back();
      sink.claim(i, "vulkaninfo");
      continue;
    }
    const auto eq = t.find(" = ");
    const bool header = !t.empty() && (t.back() == ':' || starts_with(t, "====") ||
                                       starts_with(t, "----"));
    if (t.empty() || header || eq != std::string_view::npos || indent_of(lines[i].text) > 0 ||
        starts_with(t, "VK_") || starts_with(t, "Devices")) {
      sink.claim(i, "vulkaninfo");
    } else {
      in_vk = false;
      continue;
    }
    if (!device || eq == std::string_view::npos) continue;
    const std::string key(trim(t.substr(0, eq)));
    const std::string value(trim(t.substr(eq + 3)));
    if (key == "deviceName") {
      device->name = value;
      sink.fact("vulkan.device", value, i);
    } else if (key == "deviceType") {
      std::string type = to_lower(value);
      if (starts_with(type, "physical_device_type_")) type = type.substr(21);
      device->type = type;
    } else if (key == "vendorID") {
      if (auto v = parse_uint(value)) device->vendor_id = static_cast<std::uint32_t>(*v);
    } else if (key == "deviceID") {
      if (auto v = parse_uint(value)) device->device_id = static_cast<std::uint32_t>(*v);
    } else if (key == "driverName") {
      device->driver_name = value;
    } else if (key == "driverInfo") {
      device->driver_info = value;
    } else if (key == "apiVersion") {
      device->api_version = split_words(value).empty() ? value : split_words(value)[0];
    }
  }
}

}  // namespace gpudoctor
