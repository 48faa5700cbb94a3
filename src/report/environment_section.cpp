#include "report/environment_section.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "text.hpp"

namespace gpudoctor {

namespace {

// clang-format off
/// Variables that change which GPU, driver, library or Python a program gets.
constexpr std::string_view kGpuVariables[] = {
    "PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH",
    "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME",
    "OPENCL_VENDOR_PATH", "ROCM_PATH", "GPU_DEVICE_ORDINAL", "KERAS_BACKEND", "KERAS_HOME",
    "XLA_FLAGS", "TORCH_CUDA_ARCH_LIST", "SYSTEM_VERSION_COMPAT", "DRI_PRIME",
    "ONEAPI_DEVICE_SELECTOR", "__NV_PRIME_RENDER_OFFLOAD", "__GLX_VENDOR_LIBRARY_NAME",
    "XDG_SESSION_TYPE", "DISPLAY", "WAYLAND_DISPLAY", "WSL_DISTRO_NAME",
    "TF_FORCE_GPU_ALLOW_GROWTH", "TF_ENABLE_ONEDNN_OPTS"};

/// Families of such variables, by prefix.
constexpr std::string_view kGpuPrefixes[] = {
    "CUDA_", "CUDNN_", "NCCL_", "NVIDIA_", "OCL_ICD_", "POCL_", "VK_", "HSA_", "ROCR_", "HIP_",
    "HCC_", "MESA_", "LIBGL_", "ZE_", "SYCL_", "JAX_", "XLA_PYTHON_", "PYTORCH_", "MTL_",
    // TensorFlow's own, not all of TF_: Terraform's TF_VAR_* may hold anything.
    "TF_CPP_", "TF_GPU_", "TF_CUDNN_", "TF_XLA_"};

/// Words in a name that mean its value may be a secret, wherever they appear in it.
constexpr std::string_view kSecretWords[] = {
    "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "AUTH", "KEY",
    "PRIVATE", "COOKIE", "SIGNATURE", "JWT", "WEBHOOK", "DSN", "SESSION", "BEARER", "SALT",
    "CONNECTION_STRING"};

/// Short words that mean the same only as a whole part of the name, between '_' or at an end:
/// GITHUB_PAT is a personal access token and MYSQL_PWD a password, PATH and OLDPWD are not.
constexpr std::string_view kSecretParts[] = {"PASS", "PWD", "PW", "PAT"};

/// Names holding such a word that are known not to be secrets: PWD is the working directory
/// (a path, redacted as paths are), the XDG session variables say which display server runs.
constexpr std::string_view kNotSecrets[] = {"PWD", "XDG_SESSION_TYPE", "XDG_SESSION_DESKTOP",
                                            "XDG_SESSION_CLASS", "XDG_SESSION_ID"};
// clang-format on

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

}  // namespace

bool gpu_relevant_variable(std::string_view name) {
  if (std::find(std::begin(kGpuVariables), std::end(kGpuVariables), name) !=
      std::end(kGpuVariables)) {
    return true;
  }
  return std::any_of(std::begin(kGpuPrefixes), std::end(kGpuPrefixes),
                     [name](std::string_view p) { return starts_with(name, p); });
}

bool secret_variable(std::string_view name) {
  const std::string n = upper(name);
  if (std::find(std::begin(kNotSecrets), std::end(kNotSecrets), n) != std::end(kNotSecrets)) {
    return false;
  }
  if (std::any_of(std::begin(kSecretWords), std::end(kSecretWords),
                  [&n](std::string_view w) { return n.find(w) != std::string::npos; })) {
    return true;
  }
  const auto parts = split_words(n, "_");
  return std::any_of(parts.begin(), parts.end(), [](const std::string& part) {
    return std::find(std::begin(kSecretParts), std::end(kSecretParts), part) !=
           std::end(kSecretParts);
  });
}

EnvironmentSection environment_section(const Environment& env, bool keep_all) {
  EnvironmentSection out;
  for (const auto& [name, value] : env.vars()) {
    if (secret_variable(name)) {
      ++out.secrets_dropped;
    } else if (keep_all || gpu_relevant_variable(name)) {
      out.variables[name] = value;
    } else {
      ++out.left_out;
    }
  }
  return out;
}

}  // namespace gpudoctor
