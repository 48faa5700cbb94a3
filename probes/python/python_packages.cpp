#include "python/python_packages.hpp"

#include <algorithm>

#include "json_dom.hpp"
#include "parse/python_frameworks.hpp"
#include "parse/python_metadata.hpp"
#include "python/gpu_code_files.hpp"
#include "core/paths.hpp"
#include "text.hpp"

namespace gpudoctor::python {

namespace {

constexpr std::size_t kMetadataMax = 256 * 1024;  // headers come first; numpy's is ~62 KiB
constexpr std::size_t kSmallFileMax = 64 * 1024;

bool is_tensorflow_dist(const std::string& name) {
  return name == "tensorflow" || name == "tensorflow-cpu" || name == "tensorflow-gpu" ||
         name == "tensorflow-macos" || name == "tensorflow-intel" || name == "tensorflow-rocm" ||
         name == "tf-nightly";
}

std::optional<std::string> first_line(const Root& root, const std::string& path) {
  auto line = root.read_line(path);
  if (!line || line->empty()) return std::nullopt;
  return line;
}

/// Reads the metadata file of one distribution and takes its name, version and requirements;
/// records an error (and keeps the directory name's) when it is missing or has neither.
void read_metadata(const Root& root, const std::string& entry_path, bool egg_info,
                   PythonPackage& pkg, std::vector<std::string>& errors) {
  std::string file = entry_path;
  if (!egg_info) {
    file = join_path(entry_path, "METADATA");
  } else if (root.is_directory(entry_path)) {
    file = join_path(entry_path, "PKG-INFO");
  }
  auto text = root.read(file, kMetadataMax);
  if (!text) {
    errors.push_back(file + ": cannot be read");
    return;
  }
  CoreMetadata md = parse_core_metadata(*text);
  auto name = md.get("Name");
  auto version = md.get("Version");
  if (!name || name->empty() || !version || version->empty()) {
    errors.push_back(file + ": no Name or Version header; the directory name is used");
    return;
  }
  pkg.name = normalize_package_name(*name);
  pkg.version = *version;
  for (const auto& req : md.all("Requires-Dist")) {
    if (is_gpu_relevant_package(normalize_package_name(requirement_name(req)))) {
      pkg.requires_dist.push_back(req);
    }
  }
}

void read_dist_info_extras(const Root& root, const std::string& entry_path, PythonPackage& pkg) {
  pkg.installer = first_line(root, join_path(entry_path, "INSTALLER"));
  if (auto wheel = root.read(join_path(entry_path, "WHEEL"), kSmallFileMax)) {
    pkg.wheel_tags = parse_core_metadata(*wheel).all("Tag");
  }
  if (auto direct = root.read(join_path(entry_path, "direct_url.json"), kSmallFileMax)) {
    Json j = parse_json_bounded(*direct);
    if (j.is_object() && j.contains("url") && j["url"].is_string()) {
      pkg.direct_url = j["url"].get<std::string>();
    }
  }
}

/// Whether this distribution installs the `tensorflow` import package: top_level.txt says
/// so when it is there (tensorflow-metal installs only tensorflow-plugins).
bool installs_tensorflow(const Root& root, const std::string& meta_dir, const PythonPackage& pkg) {
  auto top = root.read(join_path(meta_dir, "top_level.txt"), kSmallFileMax);
  if (!top) return is_tensorflow_dist(pkg.name);
  for (std::string_view line : split_lines(*top)) {
    line = trim(line);
    if (line == "tensorflow" || line == "tensorflow_core") return true;
  }
  return false;
}

void read_framework_builds(const Root& root, const std::string& dir, const std::string& meta_dir,
                           PythonPackage& pkg, std::vector<std::string>& errors) {
  if (pkg.name == "torch") {
    const std::string file = join_path(dir, "torch/version.py");
    if (auto text = root.read(file, kSmallFileMax)) {
      pkg.torch = parse_torch_version_py(*text);
    } else {
      errors.push_back(file + ": cannot be read (torch is installed but its build is unknown)");
    }
  }
  if (pkg.name != "tensorflow-metal" && installs_tensorflow(root, meta_dir, pkg)) {
    for (const char* rel : {"tensorflow/python/platform/build_info.py",
                            "tensorflow_core/python/platform/build_info.py"}) {
      const std::string file = join_path(dir, rel);
      if (auto text = root.read(file, kSmallFileMax)) {
        pkg.tensorflow = parse_tensorflow_build_info(*text);
        pkg.tensorflow->file = file;
        break;
      }
    }
  }
}

}  // namespace

std::vector<PythonPackage> scan_site_packages(const Root& root, const std::string& dir,
                                              std::vector<std::string>& errors) {
  std::vector<PythonPackage> out;
  for (const std::string& entry : root.list(dir)) {
    auto dist = parse_dist_dir_name(entry);
    if (!dist) continue;
    PythonPackage pkg;
    pkg.name = normalize_package_name(dist->name);
    if (!is_gpu_relevant_package(pkg.name)) continue;
    pkg.version = dist->version;
    pkg.location = dir;
    pkg.metadata_dir = entry;
    const std::string entry_path = join_path(dir, entry);
    read_metadata(root, entry_path, dist->egg_info, pkg, errors);
    if (!dist->egg_info) read_dist_info_extras(root, entry_path, pkg);
    pkg.cuda_series = cuda_series_from_name(pkg.name);
    read_framework_builds(root, dir, entry_path, pkg, errors);
    read_package_gpu_code(root, dir, pkg);
    out.push_back(std::move(pkg));
  }
  return out;
}

KerasConfig read_keras_config(const ProbeContext& ctx, std::vector<std::string>& errors) {
  KerasConfig k;
  k.env_backend = ctx.env.get_nonempty("KERAS_BACKEND");
  std::optional<std::string> keras_dir = ctx.env.get("KERAS_HOME");
  if (!keras_dir) {
    if (auto home = ctx.env.get_nonempty("HOME")) keras_dir = join_path(*home, ".keras");
  }
  if (keras_dir) {
    const std::string file = join_path(*keras_dir, "keras.json");
    if (auto text = ctx.root.read(file, kSmallFileMax)) {
      k.config_file = file;
      KerasJson parsed = parse_keras_json(*text);
      if (!parsed.valid) errors.push_back(file + ": not a JSON object (Keras ignores it)");
      k.config_backend = parsed.backend;
    }
  }
  if (k.env_backend) {
    k.backend = *k.env_backend;
    k.backend_from = "KERAS_BACKEND";
  } else if (k.config_backend) {
    k.backend = *k.config_backend;
    k.backend_from = "keras.json";
  } else {
    k.backend = "tensorflow";
    k.backend_from = "default";
  }
  return k;
}

}  // namespace gpudoctor::python
