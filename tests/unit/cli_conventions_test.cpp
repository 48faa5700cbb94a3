// The pure pieces of the command-line conventions: "did you mean", finding ids as people type
// them (explain, --only/--skip), colour and marks from the environment, wrapping under a label.
#include <gtest/gtest.h>

#include <set>

#include "checks/check_ids.hpp"
#include "cli/suggest.hpp"
#include "render/check_text.hpp"
#include "render/style.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace {

bool declares(const CheckSpec& spec, const std::string& id) {
  if (spec.id == id) return true;
  const auto others = split_words(spec.also_emits, ", ");
  return std::find(others.begin(), others.end(), id) != others.end();
}

TEST(Suggest, EditDistanceCountsASwapOfNeighboursAsOne) {
  EXPECT_EQ(edit_distance("query", "query"), 0u);
  EXPECT_EQ(edit_distance("qeury", "query"), 1u);
  EXPECT_EQ(edit_distance("chek", "check"), 1u);
  EXPECT_EQ(edit_distance("CHECK", "check"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Suggest, OnlyNearNamesAreSuggested) {
  const std::vector<std::string> commands = {"query", "check", "report", "diff", "bench",
                                             "explain"};
  EXPECT_EQ(closest("qeury", commands), "query");
  EXPECT_EQ(closest("bnech", commands), "bench");
  EXPECT_EQ(closest("explian", commands), "explain");
  EXPECT_EQ(closest("frobnicate", commands), std::nullopt);
  EXPECT_EQ(closest("x", commands), std::nullopt);
  EXPECT_EQ(did_you_mean("vulkn", {"opencl", "vulkan"}), " (did you mean 'vulkan'?)");
  EXPECT_EQ(did_you_mean("zzzzzz", {"opencl", "vulkan"}), "");
}

TEST(CheckIds, EveryIdCheckCanPrintIsExplainableUnderItsOwnName) {
  // Each check's id and each id in its also_emits: exactly, in upper case, and back to the
  // check that declares it.
  std::set<std::string> distinct;
  for (const auto& c : all_checks()) {
    std::vector<std::string> ids{std::string(c.id)};
    for (const auto& other : split_words(c.also_emits, ", ")) ids.push_back(other);
    for (const auto& id : ids) {
      distinct.insert(id);
      // An id several checks may emit (symptom.runtime re-emits the others' ids from pasted
      // messages) is explained by its own check, else the first check that declares it.
      const IdLookup exact = lookup_check_id(id);
      ASSERT_NE(exact.spec, nullptr) << id;
      EXPECT_TRUE(declares(*exact.spec, id)) << id;
      EXPECT_EQ(exact.id, id);
      std::string upper = id;
      for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      EXPECT_EQ(lookup_check_id(upper).spec, exact.spec) << upper;
      EXPECT_FALSE(check_title(c).empty()) << id;
    }
  }
  EXPECT_EQ(all_check_ids().size(), distinct.size());  // each id once
}

TEST(CheckIds, UniquePrefixResolvesAmbiguousListsUnknownSuggests) {
  const IdLookup unique = lookup_check_id("nvidia.nouv");
  ASSERT_NE(unique.spec, nullptr);
  EXPECT_EQ(unique.id, "nvidia.nouveau_bound");

  const IdLookup ambiguous = lookup_check_id("nvidia.");
  EXPECT_EQ(ambiguous.spec, nullptr);
  EXPECT_GE(ambiguous.candidates.size(), 2u);
  for (const auto& c : ambiguous.candidates) EXPECT_TRUE(starts_with(c, "nvidia.")) << c;

  const IdLookup typo = lookup_check_id("nvidia.nouvaeu_bound");
  EXPECT_EQ(typo.spec, nullptr);
  EXPECT_TRUE(typo.candidates.empty());
  EXPECT_EQ(typo.suggestion, "nvidia.nouveau_bound");

  EXPECT_EQ(lookup_check_id("completely.unknown.thing").suggestion, std::nullopt);
}

TEST(CheckIds, SelectorsAreIdsAreasAndPrefixes) {
  EXPECT_EQ(resolve_selector("NVIDIA").value, "nvidia");
  EXPECT_EQ(resolve_selector("cuda.init").value, "cuda.init");
  EXPECT_EQ(resolve_selector("nvidia.").value, "nvidia.*");
  EXPECT_EQ(resolve_selector("nvidia.nouv").value, "nvidia.nouveau_bound");
  const Selector bad = resolve_selector("nvidai.nouveau_bound");
  EXPECT_FALSE(bad.value);
  EXPECT_NE(bad.error.find("did you mean 'nvidia.nouveau_bound'"), std::string::npos) << bad.error;

  Finding nouveau{"nvidia.nouveau_bound", "nvidia", Severity::fail, "t", {}, {}, {}};
  Finding init{"cuda.init", "cuda", Severity::fail, "t", {}, {}, {}};
  Finding init_other{"cuda.init_other", "cuda", Severity::warn, "t", {}, {}, {}};
  EXPECT_TRUE(selector_matches("nvidia", nouveau));
  EXPECT_TRUE(selector_matches("nvidia.*", nouveau));
  EXPECT_TRUE(selector_matches("cuda.init", init));
  // An exact id is that id, not every id it begins.
  EXPECT_FALSE(selector_matches("cuda.init", init_other));
  EXPECT_FALSE(selector_matches("cuda", nouveau));

  const std::vector<Finding> all{nouveau, init, init_other};
  auto ids = [](const std::vector<Finding>& fs) {
    std::vector<std::string> out;
    for (const auto& f : fs) out.push_back(f.id);
    return out;
  };
  EXPECT_EQ(ids(select_findings(all, {}, {})), ids(all));
  EXPECT_EQ(ids(select_findings(all, {"cuda"}, {})),
            (std::vector<std::string>{"cuda.init", "cuda.init_other"}));
  EXPECT_EQ(ids(select_findings(all, {"cuda"}, {"cuda.init"})),
            (std::vector<std::string>{"cuda.init_other"}));
  EXPECT_EQ(ids(select_findings(all, {}, {"nvidia.*"})),
            (std::vector<std::string>{"cuda.init", "cuda.init_other"}));
}

TEST(CheckIds, ExplainListNamesEveryIdWithATitle) {
  const std::string text = "\n" + render_explain_list(all_check_ids());
  for (const auto& c : all_check_ids()) {
    EXPECT_NE(text.find("\n" + c.id + " "), std::string::npos) << c.id;
  }
  // On a 100-column terminal every line fits, titles wrapped under their column.
  const std::string wrapped = render_explain_list(all_check_ids(), Style::plain().with_width(100));
  for (const auto& line : split_lines(wrapped)) {
    const bool has_long_word = line.find("https://") != std::string::npos;
    if (!has_long_word) EXPECT_LE(display_width(line), 100u) << line;
  }
}

Environment env(std::map<std::string, std::string> vars) { return Environment(std::move(vars)); }

TEST(Style, NoColorCountsOnlyWhenNotEmpty) {
  // https://no-color.org: "when present and not an empty string".
  EXPECT_FALSE(Style::for_stream(ColorMode::automatic, true, env({{"NO_COLOR", "1"}})).color());
  EXPECT_TRUE(Style::for_stream(ColorMode::automatic, true, env({{"NO_COLOR", ""}})).color());
  EXPECT_TRUE(Style::for_stream(ColorMode::always, true, env({{"NO_COLOR", "1"}})).color());
  EXPECT_FALSE(Style::for_stream(ColorMode::automatic, false, env({})).color());
  EXPECT_TRUE(Style::for_stream(ColorMode::automatic, true, env({})).color());
  EXPECT_FALSE(Style::for_stream(ColorMode::automatic, true, env({{"TERM", "dumb"}})).color());
}

TEST(Style, ForceColorAndClicolorForceTurnColourOnOffATerminal) {
  EXPECT_TRUE(Style::for_stream(ColorMode::automatic, false, env({{"FORCE_COLOR", "1"}})).color());
  EXPECT_FALSE(Style::for_stream(ColorMode::automatic, false, env({{"FORCE_COLOR", ""}})).color());
  EXPECT_TRUE(
      Style::for_stream(ColorMode::automatic, false, env({{"CLICOLOR_FORCE", "1"}})).color());
  EXPECT_FALSE(
      Style::for_stream(ColorMode::automatic, false, env({{"CLICOLOR_FORCE", "0"}})).color());
  // NO_COLOR, the user's "off", wins over a forced "on"; --color=never over both.
  EXPECT_FALSE(Style::for_stream(ColorMode::automatic, false,
                                 env({{"FORCE_COLOR", "1"}, {"NO_COLOR", "1"}}))
                   .color());
  EXPECT_FALSE(
      Style::for_stream(ColorMode::never, false, env({{"FORCE_COLOR", "1"}})).color());
}

TEST(Style, MarksAreAsciiOutsideAUtf8Locale) {
  auto unicode = [](std::map<std::string, std::string> vars) {
    return Style::for_stream(ColorMode::never, false, env(std::move(vars))).unicode();
  };
  EXPECT_TRUE(unicode({{"LANG", "en_US.UTF-8"}}));
  EXPECT_TRUE(unicode({{"LANG", "C.utf8"}}));
  EXPECT_FALSE(unicode({{"LANG", "C"}}));
  EXPECT_FALSE(unicode({}));  // no locale at all is the C locale
  EXPECT_FALSE(unicode({{"LANG", "en_US.UTF-8"}, {"LC_ALL", "POSIX"}}));
  EXPECT_TRUE(unicode({{"LANG", "C"}, {"LC_CTYPE", "de_DE.UTF-8"}}));
  EXPECT_FALSE(unicode({{"LANG", "de_DE.ISO-8859-1"}}));
  EXPECT_TRUE(unicode({{"LANG", "C"}, {"LC_ALL", ""}, {"LC_CTYPE", "en_GB.UTF-8"}}));
}

TEST(Style, WidthOnlyOnATerminal) {
  EXPECT_EQ(Style::for_stream(ColorMode::never, false, env({{"COLUMNS", "60"}})).width(),
            std::nullopt);
  EXPECT_EQ(Style::for_stream(ColorMode::never, true, env({{"COLUMNS", "60"}})).width(), 60u);
  EXPECT_EQ(Style::for_stream(ColorMode::never, true, env({})).width(), 80u);
  EXPECT_EQ(Style::for_stream(ColorMode::never, true, env({{"COLUMNS", "wide"}})).width(), 80u);
}

TEST(Style, FillWrapsUnderTheLabelAndKeepsLongWordsWhole) {
  const Style narrow = Style::plain().with_width(30);
  const std::string text = "one two three four five six seven eight nine ten";
  const std::string filled = narrow.fill(text, 10, 10);
  const auto lines = split_lines(filled);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_LE(10 + display_width(lines[0]), 30u) << filled;  // after the 10 columns of the label
  for (std::size_t i = 1; i < lines.size(); ++i) EXPECT_LE(display_width(lines[i]), 30u) << filled;
  EXPECT_EQ(filled.find("\n          "), filled.find('\n')) << filled;  // under the label
  EXPECT_EQ(Style::plain().fill(text, 10, 10), text);  // not a terminal: one line
  const std::string url = "see https://example.org/a/very/long/path/that/cannot/break";
  EXPECT_NE(narrow.fill(url, 10, 10).find("https://example.org/a/very/long/path/that/cannot/break"),
            std::string::npos);
  EXPECT_EQ(display_width("✓ ×8"), 4u);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

TEST(CheckText, SmokeResultsOfIdenticalDevicesOnceWithACountAndRanges) {
  // The shape of an 8-GPU server's results; the numbers are the renderer's input, not a claim.
  Snapshot snap;
  snap.cuda.emplace();
  for (int i = 0; i < 8; ++i) {
    SmokeResult r;
    r.api = "cuda";
    r.device = "NVIDIA H100 80GB HBM3";
    r.status = "pass";
    r.n = 256;
    r.kernel_ms = i == 0 ? 0.5 : 0.25;
    r.gflops = i == 0 ? 67.1 : 134.2;
    snap.cuda->smoke.push_back(r);
  }
  const std::string text = render_check_text(snap, {}, {}, Style::plain());
  EXPECT_NE(text.find("smoke matmul PASS ×8 on NVIDIA H100 80GB HBM3 (n=256, 0.25–0.5 ms, "
                      "67.1–134.2 GFLOPS)"),
            std::string::npos)
      << text;
  const std::string ascii = render_check_text(snap, {}, {}, Style::plain().with_unicode(false));
  EXPECT_NE(ascii.find("PASS x8 on NVIDIA H100 80GB HBM3 (n=256, 0.25-0.5 ms"), std::string::npos)
      << ascii;
}

}  // namespace
}  // namespace gpudoctor
