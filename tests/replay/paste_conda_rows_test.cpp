// conda rows and specs outside a table (tests/fixtures/pastes/conda/): a CPU-only build named
// by its build string, the two builds of two environments stated as a conflict, tables intact.
#include "paste_fragments.hpp"
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_conda_rows_test {

using namespace paste_test;
using namespace paste_fragments;

TEST(PasteCondaRows, ASpecInASentenceNamesTheCpuBuild) {
  for (const auto& [how, piece] : fragments(paste_fixture("conda/pytorch-69202-conda-spec-py3.8-cpu.txt"))) {
    SCOPED_TRACE(how);
    if (how == "without its first line" || how == "cut mid-line") continue;  // the spec is cut
    const auto c = check_text(piece);
    const PythonPackage* torch = package(c.reading.snapshot, "torch");
    ASSERT_NE(torch, nullptr);
    EXPECT_EQ(torch->version, "1.9.0");
    ASSERT_TRUE(torch->torch);
    EXPECT_EQ(torch->torch->local_version, "cpu");
  }
}

TEST(PasteCondaRows, TwoStatedBuildsAreAConflictShownWithBothLines) {
  const auto c = check_text(paste_fixture("conda/pytorch-32369-two-envs-cpuonly-build.txt"));
  const auto it = std::find_if(c.findings.begin(), c.findings.end(),
                               [](const Finding& f) { return f.id == "paste.conflicting_values"; });
  ASSERT_NE(it, c.findings.end()) << describe(c.findings);
  EXPECT_EQ(it->severity, Severity::warn);
  EXPECT_NE(it->title.find("1.3.1"), std::string::npos);
  EXPECT_NE(it->title.find("1.4.0"), std::string::npos);
  std::set<int> quoted;
  for (const auto& q : it->quotes) quoted.insert(q.line);
  EXPECT_TRUE(quoted.count(4) && quoted.count(12)) << it->quotes.size();
  // The first row read (a CUDA 10.0 build) is the one the checks used, and the finding says so.
  const PythonPackage* torch = package(c.reading.snapshot, "torch");
  ASSERT_NE(torch, nullptr);
  ASSERT_TRUE(torch->torch);
  EXPECT_EQ(torch->torch->cuda, "10.0");
}

TEST(PasteCondaRows, TablesStayTheTableReadersAndHealthyStaysHealthy) {
  for (const char* f : {"conda/pytorch3d-1538-conda-list-cudatoolkit-10.2.txt",
                        "conda/cudatoolkit-dev-66-middle-slice-pypi-cu11.txt"}) {
    SCOPED_TRACE(f);
    for (const auto& [how, piece] : fragments(paste_fixture(f))) {
      SCOPED_TRACE(how);
      const auto c = check_text(piece);
      EXPECT_TRUE(has_part(c.reading, "package list"));
      EXPECT_FALSE(has_part(c.reading, "conda package rows"));
      EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
    }
  }
  const auto c = check_text(paste_fixture("conda/pytorch3d-1538-conda-list-cudatoolkit-10.2.txt"));
  const PythonPackage* tk = package(c.reading.snapshot, "cudatoolkit");
  ASSERT_NE(tk, nullptr);
  EXPECT_EQ(tk->version, "10.2.89");
}

}  // namespace paste_conda_rows_test
}  // namespace gpudoctor
