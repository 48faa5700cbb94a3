// Issue 27's fourth corpus (tests/fixtures/pastes/corpus-4/README.md): 60 real pastes of kinds the
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
namespace paste_corpus4_test {

using namespace paste_test;
using namespace paste_corpus;

const std::vector<Row>& rows() {
  static const std::vector<Row> r = corpus_rows("corpus-4");
  return r;
}

/// Holdout rows that still miss, and why: measured, reported in the README, not tuned for.
const Misses& holdout_misses() {
  static const Misses m = {
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

TEST(PasteCorpus4, TheTableHoldsSixtyPastesSeventeenHealthyAThirdHeldOut) {
  expect_table(rows(), 60u, 17u, 20u);
}

TEST(PasteCorpus4, EveryInSamplePasteGivesItsFinding) { expect_in_sample_findings(rows()); }

TEST(PasteCorpus4, HoldoutPastesGiveTheirFindingExceptTheMeasuredMisses) {
  expect_holdout_findings(rows(), holdout_misses());
}

TEST(PasteCorpus4, NoHealthyPasteFails) { expect_no_healthy_paste_fails(rows()); }

TEST(PasteCorpus4, EveryPasteIsReadInEveryDecoration) {
  expect_read_in_every_decoration(rows(), holdout_misses());
}

// Nothing stated is silent (issue 27 §3): every paste that is not healthy gives a warning or a
// failure, holdout included, even where the cause named is not the thread's.
TEST(PasteCorpus4, NoPasteThatStatesAFailureIsAllClear) {
  for (const auto& r : rows()) {
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
