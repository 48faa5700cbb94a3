#pragma once
// What the paste corpora's tests share (tests/fixtures/pastes/corpus-N/README.md): the table's
// rows, one row's verdict through `check --from` in process, and the checks every corpus makes.
// A corpus's test file holds its own counts, its measured holdout misses and its own cases.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "paste_fragments.hpp"
#include "paste_support.hpp"
#include "text.hpp"

namespace gpudoctor::paste_corpus {

using namespace paste_test;

/// Holdout rows that still miss, and why: measured, reported in the README, not tuned for.
using Misses = std::map<std::string, std::string>;

struct Row {
  int n = 0;
  bool holdout = false;
  std::string file;    ///< "corpus-N/….txt", relative to tests/fixtures/pastes
  std::string expect;  ///< "a|b", "healthy" or "unrecognised"
  std::vector<std::string> facts;
};

/// The rows of a corpus README's table (tests/fixtures/pastes/DIR/README.md).
inline std::vector<Row> corpus_rows(const std::string& dir) {
  std::ifstream in(test::fixture_path("pastes") + "/" + dir + "/README.md");
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

struct Verdict {
  bool ok = false;
  std::string why;
};

inline Verdict verdict(const Row& r) {
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

// The table holds `total` rows, `healthy` of them healthy, every third row (and only those) held
// out, each row's file there.
inline void expect_table(const std::vector<Row>& rows, std::size_t total, std::size_t healthy,
                         std::size_t held) {
  ASSERT_EQ(rows.size(), total);
  std::size_t healthy_rows = 0;
  std::size_t held_rows = 0;
  for (const auto& r : rows) {
    healthy_rows += r.expect == "healthy";
    held_rows += r.holdout;
    EXPECT_EQ(r.holdout, r.n % 3 == 0) << r.file;
    EXPECT_TRUE(std::filesystem::exists(test::fixture_path("pastes") + "/" + r.file)) << r.file;
  }
  EXPECT_EQ(healthy_rows, healthy);
  EXPECT_EQ(held_rows, held);
}

// One case per in-sample row: its finding, or for a healthy paste no warning and no failure.
inline void expect_in_sample_findings(const std::vector<Row>& rows) {
  for (const auto& r : rows) {
    if (r.holdout) continue;
    SCOPED_TRACE(r.file);
    const Verdict v = verdict(r);
    EXPECT_TRUE(v.ok) << v.why;
  }
}

// The holdout: every row passes except the listed misses, and a listed miss that starts to pass
// must leave the list (so the README's holdout rate stays the measured one).
inline void expect_holdout_findings(const std::vector<Row>& rows, const Misses& misses) {
  for (const auto& r : rows) {
    if (!r.holdout) continue;
    SCOPED_TRACE(r.file);
    const Verdict v = verdict(r);
    if (misses.count(r.file)) {
      EXPECT_FALSE(v.ok) << "now passes: take it off misses and update the README's rate";
    } else {
      EXPECT_TRUE(v.ok) << v.why;
    }
  }
}

// A healthy paste is never a failure, holdout or not: the strictest promise of a corpus.
inline void expect_no_healthy_paste_fails(const std::vector<Row>& rows) {
  for (const auto& r : rows) {
    if (r.expect != "healthy") continue;
    SCOPED_TRACE(r.file);
    const auto c = check_text(paste_fixture(r.file));
    EXPECT_TRUE(ids(c.findings, Severity::fail).empty()) << describe(c.findings);
  }
}

// Never refused, and recognised in every decoration tickets add (a cut may take the one line that
// said something, and a paste of a script's source holds nothing to recognise).
inline void expect_read_in_every_decoration(const std::vector<Row>& rows, const Misses& misses) {
  for (const auto& r : rows) {
    SCOPED_TRACE(r.file);
    for (const auto& [how, piece] : paste_fragments::fragments(paste_fixture(r.file))) {
      SCOPED_TRACE(how);
      if (trim(piece).empty()) continue;
      EXPECT_TRUE(looks_like_text(piece));
      const auto c = check_text(piece);
      const bool cut = how == "cut mid-line" || how == "without its first line";
      // The measured holdout misses are not asked.
      const bool miss = misses.count(r.file) > 0;
      if (!cut && !miss && r.expect != "unrecognised") EXPECT_FALSE(c.reading.parts.empty()) << "nothing recognised";
      if (r.expect == "healthy") EXPECT_TRUE(ids(c.findings, Severity::fail).empty()) << describe(c.findings);
    }
  }
}

}  // namespace gpudoctor::paste_corpus
