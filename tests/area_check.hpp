#pragma once
// `gpudoctor check` run twice (text and --json) with the state of each area line, for the tests
// of "never ✓ without evidence" (docs/severity.md).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor::test {

struct Checked {
  int exit_code;
  std::string text;
  std::map<std::string, Json> areas;  ///< by area
  Json findings;
};

inline Checked check(std::vector<std::string> args, std::vector<std::string> env = {}) {
  auto json_args = args;
  json_args.insert(json_args.begin(), {"check", "--json"});
  auto j = run_gpudoctor(json_args, env);
  EXPECT_TRUE(j.exit_code == 0 || j.exit_code == 1) << j.err;
  Checked c{j.exit_code, "", {}, Json::array()};
  Json doc = Json::parse(j.out);
  for (const auto& a : doc["areas"]) c.areas[a["area"].get<std::string>()] = a;
  c.findings = doc["findings"];
  args.insert(args.begin(), "check");
  c.text = run_gpudoctor(args, env).out;
  return c;
}

inline std::string state(const Checked& c, const std::string& area) {
  auto it = c.areas.find(area);
  return it == c.areas.end() ? "(no line)" : it->second["state"].get<std::string>();
}

inline int count(const Checked& c, const std::string& id) {
  int n = 0;
  for (const auto& f : c.findings) n += f["id"] == id ? 1 : 0;
  return n;
}

/// The text's line for an area starts with the mark of its JSON state.
inline void expect_text_matches_states(const Checked& c) {
  const std::map<std::string, std::string> marks = {{"ok", "✓"},   {"info", "•"},
                                                    {"warn", "!"},  {"fail", "✗"},
                                                    {"absent", "–"}, {"not_examined", "?"}};
  for (const auto& [area, a] : c.areas) {
    std::string label = area;
    label.resize(8, ' ');
    const std::string line = marks.at(a["state"]) + " " + label;
    EXPECT_NE(c.text.find(line), std::string::npos) << line << "\n" << c.text;
  }
}

}  // namespace gpudoctor::test
