#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

enum class Severity { ok, info, warn, fail };
GPUDOCTOR_JSON_ENUM(Severity, {{Severity::ok, "ok"},
                               {Severity::info, "info"},
                               {Severity::warn, "warn"},
                               {Severity::fail, "fail"}})

/// A line of a pasted dump that a finding stands on (`check --from` with text).
struct Quote {
  int line = 0;      ///< 1-based, in the file as given
  std::string text;  ///< the line as pasted
};
GPUDOCTOR_JSON(Quote, line, text)

/// What a check concluded: a stable id, how bad, what it saw, what to do, and why it believes so.
struct Finding {
  std::string id;                    ///< stable, dotted: "nvidia.nouveau_bound"
  std::string area;                  ///< "gpu", "nvidia", "cuda", "opencl", "vulkan", "python"
  Severity severity = Severity::info;
  std::string title;                 ///< one line, the cause
  std::vector<std::string> evidence; ///< the facts it used, as "name: value"
  std::optional<std::string> fix;    ///< the exact command, versions or file to change
  std::optional<std::string> source; ///< URL of the document the rule comes from
  std::vector<Quote> quotes;         ///< the pasted lines it stands on (empty for a live machine)
};
GPUDOCTOR_JSON(Finding, id, area, severity, title, evidence, fix, source, quotes)

const char* to_string(Severity s);

/// A note that an API has no driver installed at all (opencl.no_icd, vulkan.no_driver as notes):
/// what the machine could also have, not a cause. Every output shows these apart, as "not set
/// up", never as advice beside a GPU's failure. `severity` as the report writes it ("info").
inline bool api_not_set_up(std::string_view id, std::string_view severity) {
  return severity == "info" && (id == "opencl.no_icd" || id == "vulkan.no_driver");
}
inline bool api_not_set_up(const Finding& f) { return api_not_set_up(f.id, to_string(f.severity)); }

}  // namespace gpudoctor
