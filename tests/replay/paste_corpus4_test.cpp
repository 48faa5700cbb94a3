// Issue 27's third corpus (tests/fixtures/pastes/corpus-4/README.md): 63 real pastes of kinds the
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
namespace paste_corpus4_test {

using namespace paste_test;

struct Row {
  int n = 0;
  bool holdout = false;
  std::string file;    ///< "corpus-4/….txt", relative to tests/fixtures/pastes
  std::string expect;  ///< "a|b", "healthy" or "unrecognised"
  std::vector<std::string> facts;
};

std::vector<Row> corpus_rows() {
  std::ifstream in(test::fixture_path("pastes") + "/corpus-4/README.md");
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
  static const std::map<std::string, std::string> m = {
      {"corpus-4/vulkano-1325-rx580-driver-1850-prose.txt",
       "prose with vulkano's Rust spelling `IncompatibleDriver` alone: no entry reads a bare "
       "variant name"},
      {"corpus-4/podman-nvidia-container-toolkit-63-stat-cdi-device.txt",
       "podman 3's \"stat nvidia.com/gpu=0: no such file or directory\" is said as an unexplained "
       "failure, not as the missing CDI support"},
      {"corpus-4/sd-webui-amdgpu-432-forced-to-use-cpu.txt",
       "prose \"forces me to use the CPU\": no wording family for it"},
      {"corpus-4/sdl-12489-vulkan-device-iris-xe.txt",
       "SDL's \"Vulkan Device: …\" line is not one of the device lines read"},
      {"corpus-4/pyopencl-329-title-platform-not-found.txt",
       "pyopencl's \"PLATFORM_NOT_FOUND_KHR\" without the CL_ prefix: said as an unexplained "
       "failure, not as the missing ICD"},
  };
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

TEST(PasteCorpus4, TheTableHoldsSixtyPastesSeventeenHealthyAThirdHeldOut) {
  const auto rows = corpus_rows();
  ASSERT_EQ(rows.size(), 60u);
  std::size_t healthy = 0;
  std::size_t held = 0;
  for (const auto& r : rows) {
    healthy += r.expect == "healthy";
    held += r.holdout;
    EXPECT_EQ(r.holdout, r.n % 3 == 0) << r.file;
    EXPECT_TRUE(std::filesystem::exists(test::fixture_path("pastes") + "/" + r.file)) << r.file;
  }
  EXPECT_EQ(healthy, 17u);
  EXPECT_EQ(held, 20u);
}

// One case per in-sample row: its finding, or for a healthy paste no warning and no failure.
TEST(PasteCorpus4, EveryInSamplePasteGivesItsFinding) {
  for (const auto& r : corpus_rows()) {
    if (r.holdout) continue;
    SCOPED_TRACE(r.file);
    const Verdict v = verdict(r);
    EXPECT_TRUE(v.ok) << v.why;
  }
}

// The holdout: every row passes except the listed misses, and a listed miss that starts to pass
// must leave the list (so the README's holdout rate stays the measured one).
TEST(PasteCorpus4, HoldoutPastesGiveTheirFindingExceptTheMeasuredMisses) {
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
TEST(PasteCorpus4, NoHealthyPasteFails) {
  for (const auto& r : corpus_rows()) {
    if (r.expect != "healthy") continue;
    SCOPED_TRACE(r.file);
    const auto c = check_text(paste_fixture(r.file));
    EXPECT_TRUE(ids(c.findings, Severity::fail).empty()) << describe(c.findings);
  }
}

// Never refused, and recognised in every decoration tickets add (a cut may take the one line that
// said something, and a paste of a script's source holds nothing to recognise).
TEST(PasteCorpus4, EveryPasteIsReadInEveryDecoration) {
  for (const auto& r : corpus_rows()) {
    SCOPED_TRACE(r.file);
    for (const auto& [how, piece] : paste_fragments::fragments(paste_fixture(r.file))) {
      SCOPED_TRACE(how);
      if (trim(piece).empty()) continue;
      EXPECT_TRUE(looks_like_text(piece));
      const auto c = check_text(piece);
      const bool cut = how == "cut mid-line" || how == "without its first line";
      // The measured holdout misses are not asked.
      const bool miss = holdout_misses().count(r.file) > 0;
      if (!cut && !miss && r.expect != "unrecognised") EXPECT_FALSE(c.reading.parts.empty()) << "nothing recognised";
      if (r.expect == "healthy") EXPECT_TRUE(ids(c.findings, Severity::fail).empty()) << describe(c.findings);
    }
  }
}

// Nothing stated is silent (issue 27 §3): every paste that is not healthy gives a warning or a
// failure, holdout included, even where the cause named is not the thread's.
TEST(PasteCorpus4, NoPasteThatStatesAFailureIsAllClear) {
  for (const auto& r : corpus_rows()) {
    if (r.expect == "healthy" || r.expect == "unrecognised") continue;
    SCOPED_TRACE(r.file);
    const auto c = check_text(paste_fixture(r.file));
    if (r.file == "corpus-4/vulkano-1325-rx580-driver-1850-prose.txt" ||
        r.file == "corpus-4/sd-webui-amdgpu-432-forced-to-use-cpu.txt") {
      continue;  // measured holdout misses with nothing recognised (holdout_misses())
    }
    EXPECT_FALSE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
  }
}

}  // namespace paste_corpus4_test
}  // namespace gpudoctor
