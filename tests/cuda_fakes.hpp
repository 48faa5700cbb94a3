#pragma once
// Helpers for the tests that run gpudoctor against the fake libcuda / libnvidia-ml builds in
// tests/fakes/cuda (see its README.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor::test {

/// <build>/tests/fakes/cuda/<name>: one fake driver behaviour per directory.
inline std::string cuda_fake_dir(const std::string& name) {
  return std::string(GPUDOCTOR_FAKES) + "/cuda/" + name;
}

/// Sets LD_LIBRARY_PATH (or removes it, for nullopt) in this process's environment, which
/// run_gpudoctor passes on, and restores it afterwards. This process's own loader is unaffected:
/// it read the variable when it started.
class ScopedLibraryPath {
 public:
  explicit ScopedLibraryPath(const std::optional<std::string>& value) {
    if (const char* old = std::getenv("LD_LIBRARY_PATH")) old_ = old;
    if (value) {
      ::setenv("LD_LIBRARY_PATH", value->c_str(), 1);
    } else {
      ::unsetenv("LD_LIBRARY_PATH");
    }
  }
  ScopedLibraryPath(const ScopedLibraryPath&) = delete;
  ScopedLibraryPath& operator=(const ScopedLibraryPath&) = delete;
  ~ScopedLibraryPath() {
    if (old_) {
      ::setenv("LD_LIBRARY_PATH", old_->c_str(), 1);
    } else {
      ::unsetenv("LD_LIBRARY_PATH");
    }
  }

 private:
  std::optional<std::string> old_;
};

struct QueryRun {
  CommandResult result;
  Json json;  ///< the parsed report; null when stdout was not JSON
};

/// `gpudoctor query --json --backend <backends> --timeout <seconds>` with LD_LIBRARY_PATH set to
/// `library_path` (or unset).
inline QueryRun query_json_with(const std::optional<std::string>& library_path,
                                const std::string& backends, const std::string& timeout = "2") {
  ScopedLibraryPath path(library_path);
  QueryRun run;
  run.result = run_gpudoctor({"query", "--json", "--backend", backends, "--timeout", timeout});
  run.json = Json::parse(run.result.out, nullptr, /*allow_exceptions=*/false);
  if (run.json.is_discarded()) run.json = nullptr;
  return run;
}

/// The probe outcome with this backend and label ("cuda"/"cuda" is the backend's own).
inline Json probe_outcome(const Json& report, const std::string& backend,
                          const std::optional<std::string>& label = std::nullopt) {
  if (!report.is_object() || !report.contains("probes")) return nullptr;
  for (const auto& p : report["probes"]) {
    if (p.value("backend", "") != backend) continue;
    if (label && p.value("label", "") != *label) continue;
    return p;
  }
  return nullptr;
}

}  // namespace gpudoctor::test
