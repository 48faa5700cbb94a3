// The man page and completions are generated from the program: every command, option, backend
// and finding id it has must be in each of them, and the CLI must not grow an option whose
// value the completions cannot classify.
#include "manual/manual.hpp"

#include <gtest/gtest.h>

#include <cctype>

#include "cli_spec.hpp"
#include "version_text.hpp"

namespace gpudoctor {
namespace {

ManualInput program_manual() {
  return {describe_cli(), registry_backends(),    registry_checks(),         "9.9.9",
          "2026-01-02",   "/usr/share/gpudoctor", "/usr/share/doc/gpudoctor"};
}

bool contains(const std::string& text, const std::string& word) {
  return text.find(word) != std::string::npos;
}

/// `word` stands alone: not part of a longer name.
bool has_word(const std::string& text, const std::string& word) {
  auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  };
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool before = at > 0 && part_of_name(text[at - 1]);
    const auto end = at + word.size();
    const bool after = end < text.size() && part_of_name(text[end]);
    if (!before && !after) return true;
  }
  return false;
}

/// The roff form of an option name: dashes as \-.
std::string roff_name(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

TEST(Manual, EveryOptionOfTheCliHasAKindOfValue) {
  std::vector<std::string> unclassified;
  const CliSpec spec = describe_cli(&unclassified);
  EXPECT_TRUE(unclassified.empty()) << unclassified.front();
  EXPECT_EQ(spec.program, "gpudoctor");
  EXPECT_EQ(spec.default_command, "check");
  const CliCommand* report = nullptr;
  for (const auto& c : spec.commands) {
    if (c.name == "report") report = &c;
  }
  ASSERT_NE(report, nullptr);
  const CliOption* output = find_option(*report, "--output");
  ASSERT_NE(output, nullptr);
  EXPECT_EQ(output->names, (std::vector<std::string>{"-o", "--output"}));
  EXPECT_EQ(output->kind, ValueKind::file);
  EXPECT_EQ(output->metavar, "FILE");
  const CliOption* color = find_option(*report, "--color");
  ASSERT_NE(color, nullptr);
  EXPECT_EQ(color->kind, ValueKind::choice);
  EXPECT_EQ(color->choices, (std::vector<std::string>{"auto", "always", "never"}));
  const CliOption* no_redact = find_option(*report, "--no-redact");
  ASSERT_NE(no_redact, nullptr);
  EXPECT_EQ(no_redact->kind, ValueKind::none);
}

TEST(Manual, BenchCompletesOnlyTheApisItTakes) {
  const CliSpec spec = describe_cli();
  for (const auto& c : spec.commands) {
    if (c.name != "bench") continue;
    const CliOption* backend = find_option(c, "--backend");
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(backend->choices, (std::vector<std::string>{"opencl", "vulkan", "cuda", "rocm",
                                                          "metal", "level_zero"}));
  }
}

TEST(Manual, EveryCommandOptionBackendAndIdIsInEveryDocument) {
  const ManualInput in = program_manual();
  const std::string man = render_man_page(in);
  const std::string docs[] = {render_bash_completion(in), render_zsh_completion(in),
                              render_fish_completion(in)};
  ASSERT_FALSE(in.checks.empty());
  for (const auto& id : finding_ids(in.checks)) {
    EXPECT_TRUE(contains(man, "\\fB" + id + "\\fR")) << id;
    for (const auto& d : docs) EXPECT_TRUE(has_word(d, id)) << id;
  }
  EXPECT_TRUE(contains(man, "probe.crashed"));  // an id a check lists in also_emits
  for (const auto& b : in.backends) {
    EXPECT_TRUE(contains(man, ".B " + b.name + "\n")) << b.name;
    for (const auto& d : docs) EXPECT_TRUE(has_word(d, b.name)) << b.name;
    for (const auto& v : b.variables) EXPECT_TRUE(contains(man, ".B " + v + "\n")) << v;
  }
  for (const auto& c : in.cli.commands) {
    EXPECT_TRUE(contains(man, ".SS \"gpudoctor " + c.name + "\"")) << c.name;
    for (const auto& d : docs) EXPECT_TRUE(contains(d, c.name)) << c.name;
    for (const auto& o : c.options) {
      for (const auto& n : o.names) {
        if (n == "-h" || n == "--help") continue;
        EXPECT_TRUE(contains(man, o.positional ? "\\fI" + n : "\\fB" + roff_name(n) + "\\fR"))
            << c.name << " " << n;
        if (o.positional) continue;
        EXPECT_TRUE(contains(docs[0], " " + n)) << "bash: " << c.name << " " << n;
        EXPECT_TRUE(contains(docs[1], n)) << "zsh: " << c.name << " " << n;
        const std::string fish = n.size() == 2 ? "-s " + n.substr(1) : "-l " + n.substr(2);
        EXPECT_TRUE(contains(docs[2], fish)) << "fish: " << c.name << " " << n;
      }
    }
  }
  EXPECT_TRUE(contains(man, ".TH GPUDOCTOR 1 \"2026-01-02\" \"gpudoctor 9.9.9\""));
  EXPECT_TRUE(contains(man, "/usr/share/gpudoctor/report.schema.json"));
}

TEST(Manual, RoffEscapesWhatTroffWouldReadAsMarkup) {
  ManualInput in = program_manual();
  in.cli.commands = {{"check", "Marks \xE2\x9C\x93 and \\n", {}}};
  in.checks = {{"x.y", "area", ".starts with a dot", {}}};
  const std::string man = render_man_page(in);
  EXPECT_TRUE(contains(man, "Marks \\[u2713] and \\en.\n"));
  EXPECT_TRUE(contains(man, "(area) .starts")) << "a dot inside a line needs nothing";
  in.checks = {{"x.y", "area", "", {}}};
  in.cli.commands = {{"check", ".dot\nnext", {}}};
  EXPECT_TRUE(contains(render_man_page(in), "\\&.dot\nnext"));
}

TEST(Manual, ShortHelpIsTheFirstClauseOutsideParentheses) {
  EXPECT_EQ(short_help("Seconds it may take (default 5; 20 when smoke tests run)"),
            "Seconds it may take (default 5; 20 when smoke tests run)");
  EXPECT_EQ(short_help("Only these backends, comma separated: host,pci"),
            "Only these backends, comma separated");
  EXPECT_EQ(short_help("Read it. Then more."), "Read it");
  EXPECT_EQ(short_help("A version 1.2.3 stays"), "A version 1.2.3 stays");
}

TEST(VersionText, NamesTheRevisionAndTheDateOfTheCompatData) {
  EXPECT_EQ(version_text("1.2.3", "0123456789ab", "2026-11-21", "the last change to data/compat"),
            "1.2.3\nrevision 0123456789ab\ncompat data 2026-11-21 (the last change to "
            "data/compat)");
  EXPECT_EQ(version_text("1.2.3", std::nullopt, std::nullopt, std::nullopt),
            "1.2.3\nrevision unknown (not built from a git checkout or release tarball)\n"
            "compat data of unknown date");
}

}  // namespace
}  // namespace gpudoctor
