// ollama's and llama.cpp's installs: which GPU backends they ship, the gfx targets of ollama's
// bundled rocBLAS, and the environment ollama's service gets from its unit. Files only.
#include "runtime/runtime_probe.hpp"

#include <algorithm>
#include <array>
#include <regex>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// Where ollama's install script puts the binary and its libraries, and where distribution
/// packages put them (https://github.com/ollama/ollama/blob/main/docs/linux.md: the tarball
/// extracts bin/ollama and lib/ollama under /usr or /usr/local).
constexpr std::array<const char*, 3> kRuntimeOllamaPrefixes = {"/usr/local", "/usr", "/opt/ollama"};
/// Where llama.cpp's binaries are commonly installed (cmake --install's default prefix, distro
/// packages, Homebrew).
constexpr std::array<const char*, 4> kRuntimeLlamaDirs = {"/usr/local/bin", "/usr/bin",
                                                          "/opt/homebrew/bin", "/opt/llama.cpp/bin"};
constexpr std::array<const char*, 5> kRuntimeLlamaBinaries = {"llama-server", "llama-cli",
                                                              "llama-bench", "llama-run",
                                                              "llama-simple"};
/// systemd's unit directories, the first one winning (systemd.unit(5)).
constexpr std::array<const char*, 5> kRuntimeUnitDirs = {
    "/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system",
    "/usr/lib/systemd/system", "/lib/systemd/system"};

void runtime_add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

/// "libggml-vulkan.so" → "vulkan"; "libggml-cuda.so.0" → "cuda"; others → "".
std::string runtime_ggml_backend(const std::string& file) {
  static const std::regex re(R"(^(?:lib)?ggml-([a-z]+)[-.a-z0-9_]*\.(?:so|dylib|dll)(?:\.[0-9.]+)?$)");
  std::smatch m;
  if (!std::regex_match(file, m, re)) return "";
  const std::string b = m[1];
  if (b == "base") return "";
  return b;
}

void runtime_read_rocblas(const Root& root, const std::string& dir, OllamaInstall& o) {
  for (const std::string& sub : {dir + "/rocblas/library", dir + "/rocm/rocblas/library",
                                 dir + "/rocm/lib/rocblas/library"}) {
    if (!root.is_directory(sub)) continue;
    o.rocblas_read = true;
    if (!o.rocblas_dir) o.rocblas_dir = sub;
    static const std::regex gfx(R"(gfx[0-9a-f]{3,4})");
    for (const auto& name : root.list(sub)) {
      for (std::sregex_iterator it(name.begin(), name.end(), gfx), end; it != end; ++it) {
        runtime_add_unique(o.rocblas_gfx, it->str());
      }
    }
  }
  std::sort(o.rocblas_gfx.begin(), o.rocblas_gfx.end());
}

void runtime_read_lib_dir(const Root& root, const std::string& dir, OllamaInstall& o) {
  static const std::regex cudart(R"(^libcudart\.so\.([0-9]+\.[0-9]+(?:\.[0-9]+)?)$)");
  auto scan = [&](const std::string& d, const std::string& backend) {
    for (const auto& name : root.list(d)) {
      std::smatch m;
      if (std::regex_match(name, m, cudart)) runtime_add_unique(o.cudart_versions, m[1]);
      const std::string b = runtime_ggml_backend(name);
      if (!b.empty() && b != "cpu") runtime_add_unique(o.backends, b == "hip" ? "rocm" : b);
      if (!backend.empty() && starts_with(name, "lib")) runtime_add_unique(o.backends, backend);
    }
  };
  scan(dir, "");
  for (const auto& name : root.list(dir)) {
    const std::string sub = dir + "/" + name;
    if (!root.is_directory(sub)) continue;
    // cuda_v12, cuda_v13, rocm, vulkan (0.5+); runners/<name> in older bundles.
    if (starts_with(name, "cuda") || name == "rocm" || name == "vulkan") {
      scan(sub, name);
    } else if (name == "runners") {
      for (const auto& r : root.list(sub)) {
        if (starts_with(r, "cuda") || starts_with(r, "rocm")) {
          runtime_add_unique(o.backends, starts_with(r, "rocm") ? "rocm" : r);
          scan(sub + "/" + r, "");
        }
      }
    }
  }
  std::sort(o.backends.begin(), o.backends.end());
  runtime_read_rocblas(root, dir, o);
}

}  // namespace

void apply_unit_environment(const std::string& text, std::map<std::string, std::string>& env) {
  for (const auto& raw : split_lines(text)) {
    const std::string line(trim(raw));
    if (!starts_with(line, "Environment=")) continue;
    const std::string value = line.substr(std::string("Environment=").size());
    if (trim(value).empty()) {
      env.clear();
      continue;
    }
    // Words separated by spaces; a word may be double-quoted as a whole.
    std::string word;
    bool quoted = false;
    auto flush = [&] {
      const auto eq = word.find('=');
      if (eq != std::string::npos && eq > 0) env[word.substr(0, eq)] = word.substr(eq + 1);
      word.clear();
    };
    for (char c : value) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ' ' && !quoted) {
        flush();
      } else {
        word += c;
      }
    }
    flush();
  }
}

RuntimeInstalls probe_runtimes(const ProbeContext& ctx) {
  RuntimeInstalls out;
  const Root& root = ctx.root;
  for (const char* prefix : kRuntimeOllamaPrefixes) {
    const std::string bin = std::string(prefix) + "/bin/ollama";
    if (!root.exists(bin)) continue;
    OllamaInstall o;
    o.binary = bin;
    const std::string lib = std::string(prefix) + "/lib/ollama";
    if (root.is_directory(lib)) {
      o.lib_dir = lib;
      runtime_read_lib_dir(root, lib, o);
    }
    if (!o.rocblas_read) {
      // Releases before 0.5 kept their runners in the binary; their install script put the ROCm
      // libraries in /usr/share/ollama/lib/rocm (scripts/install.sh of v0.3.x and v0.4.x).
      runtime_read_rocblas(root, "/usr/share/ollama/lib", o);
    }
    for (const char* dir : kRuntimeUnitDirs) {
      const std::string path = std::string(dir) + "/ollama.service";
      if (auto text = root.read(path, 256 * 1024)) {
        o.unit = path;
        apply_unit_environment(*text, o.unit_env);
        break;
      }
    }
    if (o.unit) {
      std::map<std::string, std::string> dropins;
      for (const char* dir : kRuntimeUnitDirs) {
        const std::string d = std::string(dir) + "/ollama.service.d";
        for (const auto& name : root.list(d)) {
          if (ends_with(name, ".conf")) dropins.emplace(name, d + "/" + name);
        }
      }
      for (const auto& [name, path] : dropins) {
        if (auto text = root.read(path, 256 * 1024)) apply_unit_environment(*text, o.unit_env);
      }
    }
    out.ollama.push_back(std::move(o));
  }
  // The macOS app keeps its binary inside the bundle (and links /usr/local/bin/ollama to it,
  // found above when the link is there).
  constexpr const char* kMacApp = "/Applications/Ollama.app/Contents/Resources/ollama";
  const bool linked = std::any_of(out.ollama.begin(), out.ollama.end(), [&](const OllamaInstall& o) {
    return root.resolve(o.binary) == root.resolve(kMacApp);
  });
  if (root.exists(kMacApp) && !linked) {
    OllamaInstall o;
    o.binary = kMacApp;
    out.ollama.push_back(std::move(o));
  }
  for (const char* dir : kRuntimeLlamaDirs) {
    LlamaCppInstall l;
    l.dir = dir;
    for (const char* b : kRuntimeLlamaBinaries) {
      if (root.exists(std::string(dir) + "/" + b)) l.binaries.push_back(b);
    }
    if (l.binaries.empty()) continue;
    const std::string parent = std::string(dir).substr(0, std::string(dir).rfind('/'));
    for (const std::string& d : {std::string(dir), parent + "/lib", parent + "/lib64"}) {
      for (const auto& name : root.list(d)) {
        const std::string b = runtime_ggml_backend(name);
        if (!b.empty()) runtime_add_unique(l.backends, b);
      }
    }
    std::sort(l.backends.begin(), l.backends.end());
    out.llama_cpp.push_back(std::move(l));
  }
  return out;
}

}  // namespace gpudoctor
