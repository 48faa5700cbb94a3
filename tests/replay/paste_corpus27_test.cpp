// Never refused, never "nothing recognised": every real paste of issue 27's formats
// (tests/fixtures/pastes/corpus-27/README.md lists them with their sources) is read as text and
// something in it is recognised, whole and in every fragment tickets make of it.
#include <filesystem>

#include "paste_fragments.hpp"
#include "paste_support.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace paste_corpus27_test {

using namespace paste_test;
using namespace paste_fragments;

std::vector<std::string> corpus_files() {
  std::vector<std::string> out;
  const std::string root = test::fixture_path("pastes");
  for (const char* dir : {"amd-smi", "nvidia-smi-windows", "docker", "cuda-jl", "comfyui", "conda", "nvcc"}) {
    for (const auto& e : std::filesystem::directory_iterator(root + "/" + dir)) {
      if (e.path().extension() == ".txt") out.push_back(std::string(dir) + "/" + e.path().filename().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PasteCorpus27, EveryPasteIsReadAndSomethingInItRecognised) {
  const auto files = corpus_files();
  ASSERT_GE(files.size(), 40u);
  for (const auto& f : files) {
    SCOPED_TRACE(f);
    for (const auto& [how, piece] : fragments(paste_fixture(f))) {
      SCOPED_TRACE(how);
      if (trim(piece).empty()) continue;  // a one-line paste without its one line
      EXPECT_TRUE(looks_like_text(piece));
      EXPECT_FALSE(looks_like_json(piece));
      const auto c = check_text(piece);
      // A cut may take the only line that said something (a spec in a sentence): then the text
      // is still read, and says it recognised nothing; a decoration never may.
      const bool cut = how == "cut mid-line" || how == "without its first line";
      if (!cut) EXPECT_FALSE(c.reading.parts.empty()) << "nothing recognised";
    }
  }
}

}  // namespace paste_corpus27_test
}  // namespace gpudoctor
