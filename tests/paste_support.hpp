#pragma once
// What the paste tests share: a fixture's text, and `check --from` on text, in process.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checks/checks.hpp"
#include "diagnose.hpp"
#include "paste/read_pasted.hpp"
#include "test_support.hpp"

namespace gpudoctor::paste_test {

inline std::string paste_fixture(const std::string& name) {
  std::ifstream in(test::fixture_path("pastes") + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Checked {
  PastedReading reading;
  std::vector<Finding> findings;
};

/// What `check --from` does with text, in process.
inline Checked check_text(const std::string& text) {
  Diagnosis d = diagnose_paste(text);
  Checked c{std::move(d.paste->reading), std::move(d.findings)};
  c.reading.snapshot = std::move(d.snap);
  return c;
}

inline std::set<std::string> ids(const std::vector<Finding>& findings, Severity at_least) {
  std::set<std::string> out;
  for (const auto& f : findings) {
    if (f.severity >= at_least) out.insert(f.id);
  }
  return out;
}

inline std::string describe(const std::vector<Finding>& findings) {
  std::string s;
  for (const auto& f : findings) s += std::string(to_string(f.severity)) + " " + f.id + ": " + f.title + "\n";
  return s;
}

inline bool has_part(const PastedReading& r, const std::string& format) {
  return std::any_of(r.parts.begin(), r.parts.end(),
                     [&](const PastePart& p) { return p.format == format; });
}

inline const PythonPackage* package(const Snapshot& s, const std::string& name) {
  if (!s.python) return nullptr;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name == name) return &p;
    }
  }
  return nullptr;
}

}  // namespace gpudoctor::paste_test
