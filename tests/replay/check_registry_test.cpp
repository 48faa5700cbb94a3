// The check list is the one declaration of finding ids: every id `check` emits on any fixture
// machine is declared (a check's id or one it lists in also_emits) and explainable, and every
// declared id is fired by some fixture (a machine, a recorded report or a pasted dump), or is listed in fixtures/ids-without-a-fixture.txt
// until one is made (the list may only shrink: an id that gets a fixture must leave it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "checks/checks.hpp"
#include "test_support.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

/// Fixture trees that are machines (a README and something else), not parser inputs.
std::vector<std::string> fixture_machines() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(test::fixture_path(""))) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || !fs::exists(e.path() / "README.md")) continue;
    if (fs::exists(e.path() / "etc") || fs::exists(e.path() / "sys") ||
        fs::exists(e.path() / "proc") || fs::exists(e.path() / ".gpudoctor") ||
        fs::exists(e.path() / "usr") || fs::exists(e.path() / "home") ||
        fs::exists(e.path() / "opt") || fs::exists(e.path() / "dev")) {
      out.push_back(name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The finding ids the checks declare: their own ids, but for those that only name the check,
/// and their also_emits.
std::set<std::string> declared_ids() {
  std::set<std::string> ids;
  for (const auto& c : all_checks()) {
    if (c.own_id == OwnId::finding) ids.insert(std::string(c.id));
    for (const auto& other : split_words(c.also_emits, ", ")) ids.insert(other);
  }
  return ids;
}

std::set<std::string> listed_without_fixture() {
  std::ifstream in(test::fixture_path("ids-without-a-fixture.txt"));
  std::set<std::string> ids;
  std::string line;
  while (std::getline(in, line)) {
    const std::string id(trim(line.substr(0, line.find('#'))));
    if (!id.empty()) ids.insert(id);
  }
  return ids;
}

/// Recorded inputs `check --from` reads: each machine's report.json, and every pasted dump
/// under pastes/ (tests/fixtures/pastes/README.md).
std::vector<std::string> recorded_inputs() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(test::fixture_path(""))) {
    if (fs::is_regular_file(e.path() / "report.json")) out.push_back((e.path() / "report.json").string());
  }
  for (const auto& e : fs::recursive_directory_iterator(test::fixture_path("pastes"))) {
    if (e.is_regular_file() && e.path().filename() != "README.md") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Replay {
  std::vector<std::string> args;
  std::vector<std::string> env;
};

/// The plain run, then each line of the machine's replay.txt.
std::vector<Replay> replays_of(const std::string& machine) {
  std::vector<Replay> out = {{}};
  std::ifstream in(test::fixture_path(machine) + "/replay.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty() || line[0] == '#') continue;
    Replay r;
    for (auto& word : split_words(line)) {
      const bool is_env = word.find('=') != std::string::npos && word[0] != '-';
      (is_env ? r.env : r.args).push_back(word);
    }
    out.push_back(std::move(r));
  }
  return out;
}

TEST(CheckRegistry, EveryEmittedIdIsDeclaredAndEveryDeclaredIdIsFired) {
  const std::set<std::string> declared = declared_ids();
  std::set<std::string> fired;
  const auto machines = fixture_machines();
  ASSERT_GE(machines.size(), 20u);
  for (const auto& machine : machines) {
    for (const auto& replay : replays_of(machine)) {
      std::vector<std::string> args = {"check", "--json", "--no-smoke", "--sysroot",
                                       test::fixture_path(machine)};
      args.insert(args.end(), replay.args.begin(), replay.args.end());
      auto r = test::run_gpudoctor(args, replay.env);
      ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << machine << ": " << r.err;
      const Json out = Json::parse(r.out);
      for (const auto& f : out["findings"]) {
        const std::string id = f["id"].get<std::string>();
        fired.insert(id);
        EXPECT_TRUE(declared.count(id)) << machine << " emits " << id << ", which no check declares";
        EXPECT_NE(find_check(id), nullptr) << id << " cannot be explained";
      }
    }
  }
  for (const auto& input : recorded_inputs()) {
    auto r = test::run_gpudoctor({"check", "--json", "--from", input});
    // A paste in which nothing is recognised is refused (exit 2): it fires nothing.
    if (r.exit_code == 2) continue;
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << input << ": " << r.err;
    const Json out = Json::parse(r.out);
    for (const auto& f : out["findings"]) {
      const std::string id = f["id"].get<std::string>();
      fired.insert(id);
      EXPECT_TRUE(declared.count(id)) << input << " emits " << id << ", which no check declares";
      EXPECT_NE(find_check(id), nullptr) << id << " cannot be explained";
    }
  }
  const std::set<std::string> listed = listed_without_fixture();
  for (const auto& id : declared) {
    if (!fired.count(id)) {
      EXPECT_TRUE(listed.count(id)) << id << " is fired by no fixture machine: make one, or list "
                                          "it in tests/fixtures/ids-without-a-fixture.txt";
    } else {
      EXPECT_FALSE(listed.count(id))
          << id << " now has a fixture: take it out of tests/fixtures/ids-without-a-fixture.txt";
    }
  }
  for (const auto& id : listed) {
    EXPECT_TRUE(declared.count(id)) << id << " is listed but no check declares it";
  }
}

// A check whose own id only names it emits each finding under an id of its also_emits, so it
// has at least one; and `explain` still finds the check by its name.
TEST(CheckRegistry, ACheckNamedOnlyByItsIdDeclaresTheIdsItEmits) {
  int named_only = 0;
  for (const auto& c : all_checks()) {
    if (c.own_id != OwnId::name_only) continue;
    ++named_only;
    EXPECT_FALSE(split_words(c.also_emits, ", ").empty()) << c.id;
    EXPECT_EQ(find_check(c.id), &c) << c.id;
  }
  EXPECT_GE(named_only, 1);
}

}  // namespace
}  // namespace gpudoctor
