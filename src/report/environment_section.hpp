#pragma once
#include <string_view>

#include "environment.hpp"
#include "json.hpp"

namespace gpudoctor {

/// A variable that matters for GPU compute (CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH, VK_*,
/// OCL_ICD_*, HSA_*, CONDA_PREFIX, …): its value goes into a redacted report.
bool gpu_relevant_variable(std::string_view name);

/// A name that suggests a secret (TOKEN, KEY, SECRET, PASSWORD, CREDENTIAL, AUTH, JWT, WEBHOOK,
/// DSN, SESSION, COOKIE, …, or PASS, PWD, PAT as a whole part: DB_PASS, MYSQL_PWD, GITHUB_PAT;
/// not PATH, not PWD itself, the working directory): its value is never written, not even
/// with --no-redact.
bool secret_variable(std::string_view name);

struct EnvironmentSection {
  Json variables = Json::object();  ///< name → value
  int left_out = 0;                 ///< not GPU-relevant, left out because redacting
  int secrets_dropped = 0;          ///< secret-looking names, always left out
};

/// The report's "environment": the GPU-relevant variables, or (keep_all, --no-redact) every
/// variable; never a secret-looking one.
EnvironmentSection environment_section(const Environment& env, bool keep_all);

}  // namespace gpudoctor
