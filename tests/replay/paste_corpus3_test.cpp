// Issue 27's third corpus (tests/fixtures/pastes/corpus-3/README.md): 63 real pastes of kinds the
// earlier corpora did not hold, each with the cause its thread established. The README's table is
// the one list: each row's file through `check --from` in process, its expected finding (or, for
// a healthy paste, no warning and no failure), the facts that must be read, and never a refusal.
// The holdout rows (`H`) that still miss are listed below with why; they were not tuned for.
#include <filesystem>
#include <fstream>
#include <map>

#include "paste_corpus.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace paste_corpus3_test {

using namespace paste_test;
using namespace paste_corpus;

const std::vector<Row>& rows() {
  static const std::vector<Row> r = corpus_rows("corpus-3");
  return r;
}

/// Holdout rows that still miss, and why: measured, reported in the README, not tuned for.
const Misses& holdout_misses() {
  // Empty since issue 27's fourth round: the three misses (a prose "falls off the bus", a message
  // glued to its opening fence, "CUDAError InsufficientDriver") had their causes fixed (a wording
  // family, fence stripping, error-code names across spellings), as the round's brief asked.
  static const Misses m = {};
  return m;
}

TEST(PasteCorpus3, TheTableHoldsSixtyThreePastesTwentyOneHealthyAThirdHeldOut) {
  expect_table(rows(), 63u, 21u, 21u);
}

TEST(PasteCorpus3, EveryInSamplePasteGivesItsFinding) { expect_in_sample_findings(rows()); }

TEST(PasteCorpus3, HoldoutPastesGiveTheirFindingExceptTheMeasuredMisses) {
  expect_holdout_findings(rows(), holdout_misses());
}

TEST(PasteCorpus3, NoHealthyPasteFails) { expect_no_healthy_paste_fails(rows()); }

TEST(PasteCorpus3, EveryPasteIsReadInEveryDecoration) {
  expect_read_in_every_decoration(rows(), holdout_misses());
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
