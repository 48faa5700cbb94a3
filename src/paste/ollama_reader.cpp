// ollama's server log (server/routes.go, discover/*.go, llm/server.go): logfmt lines
// "time=… level=INFO source=types.go:… msg=\"inference compute\" id=GPU-… library=cuda …", also
// behind journalctl ("Mon DD HH:MM:SS host ollama[PID]: ") or docker compose ("ollama  | ")
// prefixes, and the older "2024/01/15 10:00:00 gpu.go:146: …" form.
#include <algorithm>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_ollama = "ollama log";

/// logfmt: key=value, key="quoted value" (with \" inside); "msg" included.
std::map<std::string, std::string> logfmt(std::string_view t) {
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && t[i] == ' ') ++i;
    const std::size_t key_start = i;
    while (i < t.size() && t[i] != '=' && t[i] != ' ') ++i;
    if (i >= t.size() || t[i] != '=') {
      while (i < t.size() && t[i] != ' ') ++i;
      continue;
    }
    const std::string key(t.substr(key_start, i - key_start));
    ++i;
    std::string value;
    if (i < t.size() && t[i] == '"') {
      ++i;
      while (i < t.size() && t[i] != '"') {
        if (t[i] == '\\' && i + 1 < t.size()) ++i;
        value += t[i++];
      }
      ++i;
    } else {
      while (i < t.size() && t[i] != ' ') value += t[i++];
    }
    if (!key.empty()) out[key] = value;
  }
  return out;
}

/// "[gfx1030 gfx1100 gfx900]" inside `text` → its words.
std::vector<std::string> bracket_list(std::string_view text) {
  const auto open = text.find('[');
  const auto close = text.find(']', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) return {};
  return split_words(text.substr(open + 1, close - open - 1), " ,");
}

std::string value_of(const std::map<std::string, std::string>& kv, const char* key) {
  auto it = kv.find(key);
  return it == kv.end() ? "" : it->second;
}

void inference_compute(PasteSink& sink, const std::map<std::string, std::string>& kv,
                       std::size_t i, int& cuda_index, int& rocm_index) {
  OllamaDevice d;
  auto opt = [&](const char* key) -> std::optional<std::string> {
    auto v = value_of(kv, key);
    return v.empty() ? std::nullopt : std::optional<std::string>(v);
  };
  d.id = opt("id");
  d.library = opt("library");
  d.variant = opt("variant");
  d.compute = opt("compute");
  d.driver = opt("driver");
  d.name = opt("name");
  d.total = opt("total");
  d.available = opt("available");
  sink.ollama().devices.push_back(d);
  if (d.name) sink.fact("gpu.name", *d.name, i);
  if (d.library == std::optional<std::string>("cuda")) {
    NvmlDevice& g = sink.nvidia_gpu(cuda_index++);
    if (d.name && !g.name) g.name = d.name;
    if (d.id && starts_with(*d.id, "GPU-") && !g.uuid) g.uuid = d.id;
    if (d.compute) {
      const auto dot = d.compute->find('.');
      auto major = parse_int(d.compute->substr(0, dot));
      auto minor = dot == std::string::npos ? std::nullopt : parse_int(d.compute->substr(dot + 1));
      if (major && minor) {
        g.cc_major = static_cast<int>(*major);
        g.cc_minor = static_cast<int>(*minor);
      }
    }
    if (d.driver && !sink.nvml().cuda_driver_version) {
      sink.nvml().cuda_driver_version = packed_cuda_version(*d.driver);
    }
  } else if (d.library == std::optional<std::string>("rocm")) {
    KfdNode& n = amd_gpu(sink, rocm_index++);
    if (d.compute && starts_with(*d.compute, "gfx")) n.gfx_target = d.compute;
    if (d.name && !n.name && d.name->find(':') == std::string::npos) n.name = d.name;
  }
}

void server_config(PasteSink& sink, const std::string& env, std::size_t i) {
  // env="map[CUDA_VISIBLE_DEVICES: HSA_OVERRIDE_GFX_VERSION:10.3.0 OLLAMA_DEBUG:false …]"
  for (const auto& w : bracket_list(env)) {
    const auto colon = w.find(':');
    if (colon == std::string::npos || colon + 1 >= w.size()) continue;
    const std::string key = w.substr(0, colon);
    const std::string value = w.substr(colon + 1);
    sink.ollama().env[key] = value;
    if (key == "HSA_OVERRIDE_GFX_VERSION") {
      sink.rocm().hsa_override_gfx_version = value;
      sink.fact("env." + key, key + ":" + value, i);
    }
    if (key == "CUDA_VISIBLE_DEVICES") {
      sink.nvidia().cuda_visible_devices = value;
      sink.fact("env." + key, key + ":" + value, i);
    }
  }
}

}  // namespace

void read_ollama_log(PasteSink& sink) {
  const auto& lines = sink.lines();
  int cuda_index = 0;
  int rocm_index = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    const auto time_at = t.find("time=");
    const bool logfmt_line = time_at != std::string_view::npos &&
                             t.find("level=", time_at) != std::string_view::npos &&
                             t.find("msg=", time_at) != std::string_view::npos;
    const bool journal = t.find(" ollama[") != std::string_view::npos;
    const bool old_form = t.find(".go:") != std::string_view::npos &&
                          (t.find("gpu.go:") != std::string_view::npos ||
                           t.find("routes.go:") != std::string_view::npos ||
                           t.find("amd_linux.go:") != std::string_view::npos ||
                           t.find("llm.go:") != std::string_view::npos ||
                           t.find("server.go:") != std::string_view::npos ||
                           t.find("images.go:") != std::string_view::npos ||
                           t.find("payload_common.go:") != std::string_view::npos ||
                           t.find("cpu_common.go:") != std::string_view::npos);
    if (!logfmt_line && !journal && !old_form) continue;
    sink.claim(i, kFormat_ollama);
    // Its Windows build logs from *_windows.go and names libraries by drive letter.
    if (t.find("_windows.go:") != std::string_view::npos ||
        t.find("library=C:\\") != std::string_view::npos) {
      if (!sink.host().os_id) sink.host().os_id = "windows";
    }
    const auto kv = logfmt_line ? logfmt(t.substr(time_at)) : std::map<std::string, std::string>{};
    const std::string msg = logfmt_line ? value_of(kv, "msg") : std::string(t);
    OllamaInfo& o = sink.ollama();
    if (const auto at = msg.find("(version "); at != std::string::npos &&
                                                msg.find("Listening on") != std::string::npos) {
      o.version = leading_version(msg.substr(at + 9));
      sink.fact("ollama.version", *o.version, i);
    }
    if (msg.find("Dynamic LLM libraries") != std::string::npos) {
      auto runners = bracket_list(msg.find('[') != std::string::npos ? msg : value_of(kv, "runners"));
      for (auto& r : runners) {
        if (std::find(o.runners.begin(), o.runners.end(), r) == o.runners.end()) {
          o.runners.push_back(r);
        }
      }
    }
    if (msg == "inference compute") inference_compute(sink, kv, i, cuda_index, rocm_index);
    if (msg == "server config" || msg.find("INFO server config env=") != std::string::npos) {
      server_config(sink, logfmt_line ? value_of(kv, "env") : msg, i);
    }
    if (msg.find("skipping rocm gfx compatibility check") != std::string::npos) {
      const std::string ov = value_of(kv, "HSA_OVERRIDE_GFX_VERSION");
      if (!ov.empty()) {
        sink.rocm().hsa_override_gfx_version = ov;
        sink.fact("env.HSA_OVERRIDE_GFX_VERSION", "HSA_OVERRIDE_GFX_VERSION=" + ov, i);
      }
    }
    if (msg.find("no compatible GPUs were discovered") != std::string::npos) {
      o.no_compatible_gpu = true;
      sink.symptom("ollama.no_gpu", "ollama", i);
    }
    // "amdgpu is not supported (supported types:[…])" gpu_type=gfx1031 (0.1.33 on), its older
    // form with supported_types=[…], and 0.1.2x's "amdgpu [0] gfx1103 is not supported by
    // /tmp/…/rocm [gfx1030 …]".
    const bool old_unsupported = starts_with(msg, "amdgpu [") &&
                                 msg.find(" is not supported by ") != std::string::npos;
    if (msg.find("detected amdgpu versions") != std::string::npos) {
      const auto found = bracket_list(msg);
      for (std::size_t k = 0; k < found.size() && k < 16; ++k) {
        amd_gpu(sink, static_cast<int>(k)).gfx_target = found[k];
        sink.fact("gfx", found[k], i);
      }
    }
    if (msg.find("amdgpu is not supported") != std::string::npos || old_unsupported) {
      std::vector<std::string> supported;
      if (old_unsupported) {
        supported = bracket_list(msg.substr(msg.find(" is not supported by ")));
      } else if (msg.find('[') != std::string::npos) {
        supported = bracket_list(msg);
      } else if (const auto at = t.find("supported_types="); at != std::string_view::npos) {
        supported = bracket_list(t.substr(at));
      }
      o.supported_gfx = supported;
      std::string gfx = value_of(kv, "gpu_type");
      if (old_unsupported) {
        const auto words = split_words(msg);
        if (words.size() > 2) gfx = words[2];
      }
      sink.symptom("ollama.gfx_unsupported", "ollama", i,
                   {{"gfx", gfx}, {"supported", join(supported, " ")}});
      if (!gfx.empty()) {
        auto idx = parse_int(old_unsupported ? msg.substr(8, msg.find(']') - 8) : value_of(kv, "gpu"));
        KfdNode& n = amd_gpu(sink, idx && *idx >= 0 && *idx < 64 ? static_cast<int>(*idx) : 0);
        n.gfx_target = gfx;
        sink.fact("gfx", gfx, i);
      }
    }
    if (msg.find("amdgpu too old") != std::string::npos) {
      sink.symptom("ollama.amd_too_old", "ollama", i, {{"gfx", value_of(kv, "gpu_type")}});
    }
    if (msg.find("GPU is too old") != std::string::npos ||
        msg.find("Compute Capability detected") != std::string::npos) {
      if (msg.find("too old") != std::string::npos) {
        const auto at = msg.find("detected: ");
        sink.symptom("ollama.gpu_too_old", "ollama", i,
                     {{"compute", at == std::string::npos ? "" : leading_version(msg.substr(at + 10))}});
      }
    }
    if (const auto at = msg.find("init failure: "); at != std::string::npos &&
                                                     msg.find("cuda driver library") != std::string::npos) {
      const std::string code = leading_version(msg.substr(at + 14));
      if (auto c = parse_int(code)) {
        CudaInfo& cu = sink.cuda();
        cu.init_error = CudaError{"cuInit", static_cast<int>(*c), std::nullopt, std::nullopt};
        const auto lib = msg.find("library /");
        if (lib != std::string::npos) {
          cu.library = msg.substr(lib + 8, msg.find(':', lib) - lib - 8);
        }
        sink.symptom("ollama.cuda_init", "ollama", i, {{"code", code}});
      }
    }
    if (msg.find("no compatible rocm library found") != std::string::npos ||
        msg.find("unable to verify rocm library") != std::string::npos) {
      sink.symptom("ollama.rocm_missing", "ollama", i);
    }
    if (msg.find("llama runner process has terminated") != std::string::npos) {
      sink.symptom("ollama.runner_terminated", "ollama", i, {{"error", value_of(kv, "error")}});
    }
    if (msg.find("starting llama server") != std::string::npos) {
      sink.fact("ollama.runner", value_of(kv, "cmd"), i);
    }
  }
}

}  // namespace gpudoctor
