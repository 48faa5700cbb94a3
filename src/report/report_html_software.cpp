// The software half of the HTML report: host, drivers, toolkits, macOS and ROCm (in
// report_html_rocm_macos.cpp), Python, environment, probes.
#include <cstdio>

#include "render/nvidia_text.hpp"
#include "report/html.hpp"
#include "report/report_html_parts.hpp"
#include "text.hpp"

namespace gpudoctor::html {

namespace {

using Rows = std::vector<std::vector<std::string>>;

std::string host_table(const Json& h) {
  std::string memory;
  if (field(h, "memory_total_bytes").is_number_unsigned()) {
    memory = human_bytes(field(h, "memory_total_bytes").get<std::uint64_t>());
  }
  return facts_table({{"host name", field_text(h, "hostname")},
                      {"OS", field_text(h, "os_pretty_name")},
                      {"kernel", field_text(h, "kernel_release")},
                      {"architecture", field_text(h, "architecture")},
                      {"CPU", field_text(h, "cpu_model")},
                      {"cores", field_text(h, "cpu_cores")},
                      {"threads", field_text(h, "cpu_threads")},
                      {"memory", memory},
                      {"glibc", field_text(h, "glibc_version")},
                      {"container", field_text(h, "container")},
                      {"WSL", field(h, "wsl") == true ? "WSL" + field_text(h, "wsl_version") : ""},
                      {"virtual machine", field_text(h, "virtualization")},
                      {"machine", std::string(trim(field_text(h, "machine_vendor") + " " +
                                                   field_text(h, "machine_model")))}});
}

/// "libcuda.so.1 → 550.107.02" for the files the loader can see.
std::string library_lines(const Json& files) {
  std::vector<std::string> lines;
  for (const auto& f : files) {
    std::string line = field_text(f, "path");
    if (!field_text(f, "version").empty()) line += " (" + field_text(f, "version") + ")";
    if (field(f, "stub") == true) line += " [stub]";
    if (field(f, "shadowed") == true) line += " [shadowed]";
    lines.push_back(line);
  }
  return join(lines, "; ");
}

std::string nvidia_driver(const Json& snap) {
  const Json& n = field(snap, "nvidia");
  const Json& k = field(n, "kernel");
  std::string cuda_api;
  if (field(field(snap, "cuda"), "driver_version").is_number_integer()) {
    cuda_api = cuda_version_text(field(field(snap, "cuda"), "driver_version").get<int>());
  }
  return facts_table({{"kernel module", field_text(k, "module_version")},
                      {"module flavour", field_text(k, "module_flavor")},
                      {"modules loaded", field_text(k, "loaded_modules")},
                      {"/proc/driver/nvidia/version", field_text(k, "proc_version")},
                      {"dkms", field_text(k, "dkms")},
                      {"libcuda", library_lines(field(n, "libcuda"))},
                      {"libnvidia-ml", library_lines(field(n, "libnvidia_ml"))},
                      {"CUDA driver API", cuda_api},
                      {"NVML driver", field_text(field(snap, "nvml"), "driver_version")},
                      {"LD_LIBRARY_PATH", field_text(n, "ld_library_path")},
                      {"CUDA_VISIBLE_DEVICES", field_text(n, "cuda_visible_devices")}});
}

std::string api_drivers(const Json& snap) {
  Rows rows;
  for (const auto& icd : field(field(snap, "opencl"), "icds")) {
    rows.push_back(
        {"OpenCL ICD",
         field_text(icd, "file").empty() ? field_text(icd, "source") : field_text(icd, "file"),
         field_text(icd, "library"), field_text(icd, "loads"), field_text(icd, "error")});
  }
  for (const auto& m : field(field(snap, "vulkan"), "manifests")) {
    rows.push_back({"Vulkan driver", field_text(m, "file"), field_text(m, "library_path"),
                    field_text(m, "api_version"), field_text(m, "error")});
  }
  if (rows.empty()) return "";
  return "<h4>OpenCL and Vulkan drivers</h4>" +
         table({"kind", "registration", "library", "loads / API", "problem"}, rows);
}

std::string toolkits_table(const Json& snap) {
  Rows rows;
  for (const auto& t : field(field(snap, "nvidia"), "toolkits")) {
    rows.push_back({field_text(t, "path"), field_text(t, "version"), field_text(t, "found_by"),
                    field_text(t, "cudnn_version"), field_text(t, "nccl_version"),
                    field_text(t, "nvcc")});
  }
  if (rows.empty()) return "";
  return "<h4>CUDA toolkits</h4>" +
         table({"path", "version", "found by", "cuDNN", "NCCL", "nvcc"}, rows);
}

/// "2.5.1+cu124 (CUDA 12.4)": the build as the framework itself records it.
std::string package_build(const Json& p) {
  const Json& torch = field(p, "torch");
  const Json& tf = field(p, "tensorflow");
  std::vector<std::string> parts;
  if (!field_text(torch, "cuda").empty()) parts.push_back("CUDA " + field_text(torch, "cuda"));
  if (!field_text(torch, "hip").empty()) parts.push_back("HIP " + field_text(torch, "hip"));
  if (!field_text(tf, "cuda_version").empty())
    parts.push_back("CUDA " + field_text(tf, "cuda_version"));
  if (!field_text(tf, "cudnn_version").empty())
    parts.push_back("cuDNN " + field_text(tf, "cudnn_version"));
  if (!field_text(p, "cuda_series").empty()) parts.push_back("cu" + field_text(p, "cuda_series"));
  return join(parts, ", ");
}

std::string python_envs(const Json& snap) {
  std::string out;
  for (const auto& env : field(field(snap, "python"), "envs")) {
    out += "<h4>" + escape(field_text(env, "kind")) + " " + escape(field_text(env, "prefix")) +
           "</h4>";
    out += facts_table({{"Python", field_text(env, "python_version")},
                        {"found by", field_text(env, "found_by")},
                        {"executable", field_text(env, "python_executable")}});
    Rows rows;
    for (const auto& p : field(env, "packages")) {
      const std::string version = field_text(field(p, "torch"), "version").empty()
                                      ? field_text(p, "version")
                                      : field_text(field(p, "torch"), "version");
      rows.push_back(
          {field_text(p, "name"), version, package_build(p), field_text(p, "installer")});
    }
    if (!rows.empty()) out += table({"package", "version", "built for", "installer"}, rows);
  }
  return out.empty() ? "" : "<h3>Python environments</h3>\n" + out;
}

std::string environment_table(const Json& environment) {
  Rows rows;
  if (environment.is_object()) {
    for (const auto& [name, value] : environment.items()) rows.push_back({name, text_of(value)});
  }
  if (rows.empty()) return "";
  return "<h3>Environment variables</h3>\n" + table({"variable", "value"}, rows);
}

void add_smoke_rows(const Json& results, Rows& rows) {
  for (const auto& r : results) {
    rows.push_back({field_text(r, "api"), field_text(r, "device"), field_text(r, "status"),
                    field_text(r, "n"), field_text(r, "max_rel_error"), field_text(r, "kernel_ms"),
                    field_text(r, "gflops"), field_text(r, "reason")});
  }
}

/// "0.004": probes take milliseconds to seconds, so three decimals say it all.
std::string seconds_text(const Json& seconds) {
  if (!seconds.is_number()) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds.get<double>());
  return buf;
}

}  // namespace

std::string software_section(const Json& snapshot, const Json& environment) {
  std::string out = "<h2>Software</h2>\n";
  if (const std::string host = host_table(field(snapshot, "host")); !host.empty()) {
    out += "<h3>Host</h3>\n" + host;
  }
  std::string drivers;
  if (const std::string nvidia = nvidia_driver(snapshot); !nvidia.empty()) {
    drivers += "<h4>NVIDIA</h4>" + nvidia;
  }
  drivers += api_drivers(snapshot) + toolkits_table(snapshot);
  if (!drivers.empty()) out += "<h3>Drivers and toolkits</h3>\n" + drivers;
  return out + macos_section(snapshot) + rocm_section(snapshot) + python_envs(snapshot) +
         environment_table(environment);
}

std::string smoke_section(const Json& snapshot) {
  Rows rows;
  for (const char* api : {"cuda", "opencl", "vulkan", "rocm"}) {
    add_smoke_rows(field(field(snapshot, api), "smoke"), rows);
  }
  if (rows.empty()) return "";
  return "<h2>Smoke tests</h2>\n" +
         table({"API", "device", "result", "n", "max rel. error", "kernel ms", "GFLOPS", "why"},
               rows);
}

std::string probes_section(const Json& snapshot) {
  Rows rows;
  for (const auto& p : field(snapshot, "probes")) {
    rows.push_back({field_text(p, "backend"), field_text(p, "label"), field_text(p, "status"),
                    field_text(p, "detail"), seconds_text(field(p, "seconds"))});
  }
  if (rows.empty()) return "";
  return "<h2>Probes</h2>\n" + table({"backend", "what ran", "status", "detail", "seconds"}, rows);
}

}  // namespace gpudoctor::html
