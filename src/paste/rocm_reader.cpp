// `rocminfo` (the HSA agents: "Name: gfx1031", "Marketing Name: AMD Radeon RX 6700 XT",
// "Device Type: GPU", "Chip ID: 29663(0x73df)", "Compute Unit: 40"; and what it prints when it
// cannot run: "ROCk module is NOT loaded", "Unable to open /dev/kfd read-write: Permission
// denied", "… is not member of "render" group", "hsa api call failure … HSA_STATUS_ERROR_…")
// and `rocm-smi` (its "Concise Info" table and product lines).
#include <cctype>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kRocminfo = "rocminfo";
constexpr const char* kRocmSmi = "rocm-smi";

/// "gfx90a:sramecc+:xnack-" → "gfx90a".
std::string gfx_of(std::string_view v) {
  const auto at = v.find("gfx");
  if (at == std::string_view::npos) return "";
  std::size_t end = at + 3;
  while (end < v.size() && std::isalnum(static_cast<unsigned char>(v[end])) != 0) ++end;
  return std::string(v.substr(at, end - at));
}

bool rocminfo_error(PasteSink& sink, std::string_view t, std::size_t i) {
  if (t.find("ROCk module is NOT loaded") != std::string_view::npos ||
      t.find("ROCk module is NOT live") != std::string_view::npos) {
    sink.symptom("rocm.module_not_loaded", "rocminfo", i);
    return true;
  }
  if (starts_with(t, "ROCk module is loaded") || starts_with(t, "ROCk module version")) {
    sink.rocm().amdgpu_module = "loaded";
    return true;
  }
  if (t.find("Unable to open /dev/kfd") != std::string_view::npos ||
      t.find("Failed to open /dev/kfd") != std::string_view::npos) {
    // Only EACCES is about groups; ENOMEM and EINVAL come from a GPU KFD does not drive or
    // a device file that is not the host's.
    const auto colon = t.rfind(": ");
    const std::string why = colon == std::string_view::npos ? "" : std::string(t.substr(colon + 2));
    if (why == "Permission denied") {
      sink.symptom("rocm.kfd_permission", "rocminfo", i);
    } else {
      sink.symptom("rocm.kfd_open_failed", "rocminfo", i, {{"error", why}});
    }
    return true;
  }
  if (t.find(" is member of ") != std::string_view::npos && t.find(" group") != std::string_view::npos &&
      t.find("not member") == std::string_view::npos) {
    return true;  // "igor is member of render group": the groups are fine
  }
  if (t.find("is not member of \"render\" group") != std::string_view::npos ||
      t.find("is not member of render group") != std::string_view::npos) {
    const auto space = t.find(' ');
    sink.symptom("rocm.not_in_render_group", "rocminfo", i,
                 {{"user", std::string(t.substr(0, space))}});
    return true;
  }
  if (starts_with(t, "hsa api call failure")) return true;
  if (starts_with(t, "Call returned HSA_STATUS_ERROR")) {
    const auto colon = t.find(':');
    sink.symptom("rocm.hsa_error", "rocminfo", i,
                 {{"status", std::string(trim(t.substr(13, colon - 13)))}});
    return true;
  }
  return false;
}

}  // namespace

KfdNode& amd_gpu(PasteSink& sink, int index) {
  RocmInfo& r = sink.rocm();
  r.kfd_topology = true;
  while (static_cast<int>(r.nodes.size()) <= index) {
    KfdNode n;
    n.node = static_cast<int>(r.nodes.size());
    n.vendor_id = 0x1002;
    r.nodes.push_back(n);
  }
  return r.nodes[static_cast<std::size_t>(index)];
}

void read_rocminfo(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool in_agents = false;
  bool agent_is_gpu = false;
  int gpu_index = -1;
  std::optional<KfdNode> pending;  // the agent being read, until its Device Type is known
  auto flush = [&] {
    if (pending && agent_is_gpu) {
      ++gpu_index;
      KfdNode& n = amd_gpu(sink, gpu_index);
      if (pending->name) n.name = pending->name;
      if (pending->gfx_target) n.gfx_target = pending->gfx_target;
      if (pending->device_id) n.device_id = pending->device_id;
      if (pending->compute_units) n.compute_units = pending->compute_units;
    }
    pending.reset();
    agent_is_gpu = false;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (rocminfo_error(sink, t, i)) {
      sink.claim(i, kRocminfo);
      continue;
    }
    if (t == "HSA System Attributes" || t == "HSA Agents" || t == "*** Done ***") {
      in_agents = in_agents || t == "HSA Agents";
      if (t == "*** Done ***") {
        flush();
        in_agents = false;
      }
      sink.claim(i, kRocminfo);
      if (i > 0 && !sink.claimed(i - 1) && starts_with(trim(lines[i - 1].text), "====")) {
        sink.claim(i - 1, kRocminfo);
      }
      if (i + 1 < lines.size() && starts_with(trim(lines[i + 1].text), "====")) {
        sink.claim(++i, kRocminfo);
      }
      continue;
    }
    const bool rocminfo_context = in_agents || (sink.snap.rocm && i > 0 &&
                                                sink.owner(i - 1) == kRocminfo);
    if (!rocminfo_context) continue;
    if (lines[i].fence) {
      flush();
      in_agents = false;
      continue;
    }
    if (t.empty() || starts_with(t, "*****")) {
      sink.claim(i, kRocminfo);
      continue;
    }
    if (starts_with(t, "Agent ")) {
      flush();
      pending.emplace();
      sink.claim(i, kRocminfo);
      continue;
    }
    const Labelled l = split_label(t);
    if (l.key.empty() && t.find("(0x") == std::string_view::npos) {
      if (in_agents) sink.claim(i, kRocminfo);  // list continuation lines ("  FLAGS: …")
      continue;
    }
    sink.claim(i, kRocminfo);
    if (!pending) continue;
    if (l.key == "Name" && starts_with(l.value, "gfx")) {
      pending->gfx_target = gfx_of(l.value);
      sink.fact("gfx", pending->gfx_target.value(), i);
    } else if (l.key == "Marketing Name" && !l.value.empty()) {
      pending->name = l.value;
      sink.fact("gpu.name", l.value, i);
    } else if (l.key == "Device Type") {
      agent_is_gpu = l.value == "GPU";
    } else if (l.key == "Chip ID") {
      const auto hex_at = l.value.find("(0x");
      if (hex_at != std::string::npos) {
        if (auto id = parse_uint(l.value.substr(hex_at + 1, l.value.find(')') - hex_at - 1))) {
          pending->device_id = static_cast<std::uint32_t>(*id);
        }
      }
    } else if (l.key == "Compute Unit") {
      if (auto cu = parse_uint(l.value)) pending->compute_units = static_cast<std::uint32_t>(*cu);
    }
  }
  flush();
}

void read_rocm_smi(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool in_table = false;
  std::vector<std::string> header;
  int row_index = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (in_table && starts_with(t, "Driver version:")) {
      sink.claim(i, kRocmSmi);
      continue;
    }
    if (t.find("ROCm System Management Interface") != std::string_view::npos ||
        t.find("End of ROCm SMI Log") != std::string_view::npos ||
        t.find("Concise Info") != std::string_view::npos) {
      in_table = t.find("End of ROCm SMI Log") == std::string_view::npos;
      sink.claim(i, kRocmSmi);
      continue;
    }
    if (t == "cat: /sys/module/amdgpu/initstate: No such file or directory") {
      sink.claim(i, kRocmSmi);
      continue;
    }
    if (t.find("amdgpu not found in modules") != std::string_view::npos ||
        t.find("Driver not initialized") != std::string_view::npos) {
      // The SMI tools check /sys/module/amdgpu/initstate: absent too where amdgpu is built into
      // the kernel, and under WSL (data/messages/rocm.json: rocm.smi_module_check).
      sink.symptom("rocm.smi_module_check", "rocm-smi", i);
      sink.claim(i, kRocmSmi);
      continue;
    }
    // "GPU[0]		: Card series:		Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]"
    if (starts_with(t, "GPU[") && t.find("]") != std::string_view::npos) {
      auto idx = parse_int(t.substr(4, t.find(']') - 4));
      const std::string_view rest = trim(t.substr(t.find(']') + 1));
      const Labelled l = split_label(rest.size() > 1 && rest.front() == ':' ? trim(rest.substr(1))
                                                                            : rest);
      if (idx && *idx >= 0 && *idx < 64) {
        if (l.key == "Card series" || l.key == "Card Series") {
          KfdNode& n = amd_gpu(sink, static_cast<int>(*idx));
          if (!n.name) n.name = l.value;
          sink.fact("gpu.name", l.value, i);
        } else if (l.key == "GPU ID" || l.key == "Device ID") {
          if (auto id = parse_uint(l.value)) {
            amd_gpu(sink, static_cast<int>(*idx)).device_id = static_cast<std::uint32_t>(*id);
          }
        } else if (l.key == "Device Name" && !l.value.empty()) {
          KfdNode& n = amd_gpu(sink, static_cast<int>(*idx));
          if (!n.name) n.name = l.value;
          sink.fact("gpu.name", l.value, i);
        } else if (l.key == "GFX Version") {
          amd_gpu(sink, static_cast<int>(*idx)).gfx_target = gfx_of(l.value);
          sink.fact("gfx", gfx_of(l.value), i);
        }
      }
      sink.claim(i, kRocmSmi);
      continue;
    }
    if (!in_table) continue;
    if (t.empty() || starts_with(t, "====") || starts_with(t, "....")) {
      sink.claim(i, kRocmSmi);
      continue;
    }
    const auto words = split_words(t);
    if (!words.empty() && (words[0] == "GPU" || words[0] == "Device")) {
      header = words;
      row_index = 0;
      sink.claim(i, kRocmSmi);
      continue;
    }
    if (!words.empty() && words[0].front() == '(') {  // the header's second line
      sink.claim(i, kRocmSmi);
      continue;
    }
    if (!header.empty() && !words.empty() && parse_int(words[0])) {
      KfdNode& n = amd_gpu(sink, row_index++);
      // "0  1  0x73bf,  9870  …": the newer table gives the device id.
      for (const auto& w : words) {
        if (starts_with(w, "0x")) {
          std::string id = w;
          if (!id.empty() && id.back() == ',') id.pop_back();
          if (auto v = parse_uint(id)) n.device_id = static_cast<std::uint32_t>(*v);
          break;
        }
      }
      sink.claim(i, kRocmSmi);
      continue;
    }
    in_table = false;
  }
}

}  // namespace gpudoctor
