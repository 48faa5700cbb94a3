#pragma once
// What the checks of runtime symptoms share (symptom_checks.cpp, symptom_checks_platform.cpp).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "checks/area_status.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

// In their own namespace: the names are short and the functions inline.
namespace symptom_util {

inline bool reported(const std::vector<Finding>& out, std::string_view id) {
  return std::any_of(out.begin(), out.end(), [&](const Finding& f) { return f.id == id; });
}

inline const Symptom* seen(const Snapshot& s, std::string_view id) {
  for (const auto& x : s.symptoms) {
    if (x.id == id) return &x;
  }
  return nullptr;
}

inline std::string value(const Symptom& s, const std::string& key) {
  auto it = s.values.find(key);
  return it == s.values.end() ? "" : it->second;
}

/// A finding that a symptom stands on, with the message as its first evidence; its area is its
/// id's ("rocm.not_in_group" → rocm), or, where that names no area `check` shows (slurm.…,
/// tensorflow.…), the area of the check that declares the id: a finding outside every area's
/// line would be counted and never shown.
inline Finding from_symptom(const CheckSpec& self, std::string id, Severity sev, std::string title,
                     const Symptom& s) {
  Finding f = make_finding(self, sev, std::move(title));
  f.area = id.substr(0, id.find('.'));
  if (!is_area(f.area)) {
    const CheckSpec* declared = find_check(id);
    f.area = std::string(declared != nullptr && is_area(declared->area) ? declared->area
                                                                         : self.area);
  }
  f.id = std::move(id);
  // Read from this machine's kernel log: say which file (or /dev/kmsg), not who prints it.
  const auto log = s.values.find("kernel_log");
  f.evidence.push_back(log != s.values.end() ? "kernel log (" + log->second + "): " + s.text
                                             : s.tool + " printed: " + s.text);
  return f;
}

}  // namespace symptom_util

/// The symptom checks for ROCm, ollama, OpenCL and Vulkan, and the messages that name one cause
/// in so many words (symptom_checks_platform.cpp).
void plain_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out);
void platform_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out);

}  // namespace gpudoctor
