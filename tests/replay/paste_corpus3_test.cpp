// Issue 27's third corpus (tests/fixtures/pastes/corpus-3/README.md): 63 real pastes of kinds the
// earlier corpora did not hold, each with the cause its thread established. The README's table is
// the one list: each row's file through `check --from` in process, its expected finding (or, for
// a healthy paste, no warning and no failure), the facts that must be read, and never a refusal.
// The holdout rows (`H`) that still miss are listed below with why; they were not tuned for.
#include <filesystem>
#include <fstream>
#include <map>

#include "paste_fragments.hpp"
#include "paste_support.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace paste_corpus3_test {

using namespace paste_test;

struct Row {
  int n = 0;
  bool holdout = false;
  std::string file;    ///< "corpus-3/….txt", relative to tests/fixtures/pastes
  std::string expect;  ///< "a|b", "healthy" or "unrecognised"
  std::vector<std::string> facts;
};

std::vector<Row> corpus_rows() {
  std::ifstream in(test::fixture_path("pastes") + "/corpus-3/README.md");
  EXPECT_TRUE(in.good());
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!starts_with(line, "| ") || starts_with(line, "| #") || starts_with(line, "| ---")) continue;
    // "\|" inside a cell is a literal bar (an "either" expectation).
    std::string cells_text;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (line[k] == '\\' && k + 1 < line.size() && line[k + 1] == '|') {
        cells_text += '\x01';
        ++k;
      } else {
        cells_text += line[k];
      }
    }
    std::vector<std::string> cells;
    for (auto& c : split_words(std::string(trim(cells_text)), "|")) {
      std::string v(trim(c));
      for (auto& ch : v) {
        if (ch == '\x01') ch = '|';
      }
      cells.push_back(v);
    }
    if (cells.size() < 6 || !parse_int(cells[0])) continue;
    Row r;
    r.n = static_cast<int>(*parse_int(cells[0]));
    r.holdout = cells[1] == "H";
    r.file = cells[2];
    r.expect = cells[5];
    if (cells.size() > 6) {
      for (auto& f : split_words(cells[6], ";")) {
        if (!trim(f).empty()) r.facts.emplace_back(trim(f));
      }
    }
    rows.push_back(r);
  }
  return rows;
}

/// Holdout rows that still miss, and why: measured, reported in the README, not tuned for.
const std::map<std::string, std::string>& holdout_misses() {
  // Empty since issue 27's fourth round: the three misses (a prose "falls off the bus", a message
  // glued to its opening fence, "CUDAError InsufficientDriver") had their causes fixed (a wording
  // family, fence stripping, error-code names across spellings), as the round's brief asked.
  static const std::map<std::string, std::string> m = {};
  return m;
}

struct Verdict {
  bool ok = false;
  std::string why;
};

Verdict verdict(const Row& r) {
  const std::string text = paste_fixture(r.file);
  EXPECT_TRUE(looks_like_text(text)) << r.file << ": would be refused";
  const auto c = check_text(text);
  const auto found = ids(c.findings, Severity::warn);
  const bool recognised = !c.reading.parts.empty();
  if (r.expect == "unrecognised") {
    return {!recognised && found.empty(), recognised ? "recognised something" : describe(c.findings)};
  }
  if (!recognised) return {false, "nothing recognised"};
  Verdict v;
  if (r.expect == "healthy") {
    v = {found.empty(), "false alarm:\n" + describe(c.findings)};
  } else {
    for (const auto& want : split_words(r.expect, "|")) {
      if (found.count(std::string(trim(want)))) v.ok = true;
    }
    v.why = "missed " + r.expect + "; got:\n" + describe(c.findings);
  }
  const std::string snap = dump_json(Json(c.reading.snapshot));
  for (const auto& fact : r.facts) {
    if (snap.find(fact) == std::string::npos) {
      v.ok = false;
      v.why += "\nfact not read: " + fact;
    }
  }
  return v;
}

TEST(PasteCorpus3, TheTableHoldsSixtyThreePastesTwentyOneHealthyAThirdHeldOut) {
  const auto rows = corpus_rows();
  ASSERT_EQ(rows.size(), 63u);
  std::size_t healthy = 0;
  std::size_t held = 0;
  for (const auto& r : rows) {
    healthy += r.expect == "healthy";
    held += r.holdout;
    EXPECT_EQ(r.holdout, r.n % 3 == 0) << r.file;
    EXPECT_TRUE(std::filesystem::exists(test::fixture_path("pastes") + "/" + r.file)) << r.file;
  }
  EXPECT_EQ(healthy, 21u);
  EXPECT_EQ(held, 21u);
}

// One case per in-sample row: its finding, or for a healthy paste no warning and no failure.
TEST(PasteCorpus3, EveryInSamplePasteGivesItsFinding) {
  for (const auto& r : corpus_rows()) {
    if (r.holdout) continue;
    SCOPED_TRACE(r.file);
    const Verdict v = verdict(r);
    EXPECT_TRUE(v.ok) << v.why;
  }
}

// The holdout: every row passes except the listed misses, and a listed miss that starts to pass
// must leave the list (so the README's holdout rate stays the measured one).
TEST(PasteCorpus3, HoldoutPastesGiveTheirFindingExceptTheMeasuredMisses) {
  for (const auto& r : corpus_rows()) {
    if (!r.holdout) continue;
    SCOPED_TRACE(r.file);
    const Verdict v = verdict(r);
    if (holdout_misses().count(r.file)) {
      EXPECT_FALSE(v.ok) << "now passes: take it off holdout_misses() and update the README's rate";
    } else {
      EXPECT_TRUE(v.ok) << v.why;
    }
  }
}

// A healthy paste is never a failure, holdout or not: the strictest promise of the corpus.
TEST(PasteCorpus3, NoHealthyPasteFails) {
  for (const auto& r : corpus_rows()) {
    if (r.expect != "healthy") continue;
    SCOPED_TRACE(r.file);
    const auto c = check_text(paste_fixture(r.file));
    EXPECT_TRUE(ids(c.findings, Severity::fail).empty()) << describe(c.findings);
  }
}

// Never refused, and recognised in every decoration tickets add (a cut may take the one line that
// said something, and a paste of a script's source holds nothing to recognise).
TEST(PasteCorpus3, EveryPasteIsReadInEveryDecoration) {
  for (const auto& r : corpus_rows()) {
    SCOPED_TRACE(r.file);
    for (const auto& [how, piece] : paste_fragments::fragments(paste_fixture(r.file))) {
      SCOPED_TRACE(how);
      if (trim(piece).empty()) continue;
      EXPECT_TRUE(looks_like_text(piece));
      const auto c = check_text(piece);
      const bool cut = how == "cut mid-line" || how == "without its first line";
      // The measured holdout misses with nothing recognised (rows 12 and 15) are not asked.
      const bool miss = holdout_misses().count(r.file) > 0;
      if (!cut && !miss && r.expect != "unrecognised") EXPECT_FALSE(c.reading.parts.empty()) << "nothing recognised";
      if (r.expect == "healthy") EXPECT_TRUE(ids(c.findings, Severity::fail).empty()) << describe(c.findings);
    }
  }
}

// The known gaps of the stated facts, on real lines: "false" written in lower case under
// torch.cuda.is_available() (pytorch#68611), and collect_env's library rows cut out of the dump
// (pytorch#77520's "[pip3] …" rows alone).
TEST(PasteCorpus3, LowerCaseFalseAndHeadlessLibraryRowsAreRead) {
  const auto c = check_text(paste_fixture("nvidia-smi-windows/pytorch-68611-gtx1050-wddm-461.txt"));
  bool stated = false;
  for (const auto& s : c.reading.snapshot.symptoms) stated = stated || s.id == "torch.cuda_unavailable";
  EXPECT_TRUE(stated);
  const std::string dump = paste_fixture("corpus-3/pytorch-77520-collect-env-false-driver-not-collected.txt");
  const auto from = dump.find("[pip3]");
  ASSERT_NE(from, std::string::npos);
  const auto rows = check_text(dump.substr(from));
  EXPECT_TRUE(has_part(rows.reading, "collect_env"));
  const PythonPackage* torch = package(rows.reading.snapshot, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->version.value_or(""), "1.10.2");
  // A stand-in line, named as such: that dump's "Is CUDA available: False" lower-cased, alone.
  const auto alone = check_text("Is CUDA available: false\n");
  bool said = false;
  for (const auto& s : alone.reading.snapshot.symptoms) said = said || s.id == "torch.cuda_unavailable";
  EXPECT_TRUE(said);
}

}  // namespace paste_corpus3_test
}  // namespace gpudoctor
