// Issue 13 §5, terminal: text from outside (a shared report, file names, os-release) reaches a
// terminal with every control made visible, in the text of every command, on a terminal or
// not, coloured or not; gpudoctor's own colours still work. The attack is kubectl's
// CVE-2021-25743 (https://github.com/kubernetes/kubernetes/issues/101695: escape sequences in
// an Event's text reached the terminal of whoever listed it) and Trojan Source's bidi
// overrides (CVE-2021-42574, https://trojansource.codes).
#include "render/terminal_text.hpp"

#include <gtest/gtest.h>

#include "io_run.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// The bytes a terminal acts on, other than newline and tab: C0 controls, DEL, C1 controls as
/// UTF-8 (C2 80–C2 9F), and the bidirectional overrides and isolates (E2 80 AA–AE, E2 81 A6–A9).
std::string first_control(const std::string& text, bool allow_sgr_escapes = false) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && allow_sgr_escapes && text.compare(i, 2, "\x1b[") == 0) {
      // Only the colours and weights gpudoctor uses, each closed by 'm'.
      std::size_t j = i + 2;
      while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) != 0)) ++j;
      if (j < text.size() && text[j] == 'm') continue;
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return "byte " + std::to_string(c) + " at " + std::to_string(i) + ": " + text.substr(i > 20 ? i - 20 : 0, 60);
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      return "C1 control at " + std::to_string(i);
    }
    if (c == 0xe2 && i + 2 < text.size()) {
      const auto b1 = static_cast<unsigned char>(text[i + 1]);
      const auto b2 = static_cast<unsigned char>(text[i + 2]);
      if ((b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae) || (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9)) {
        return "bidi control at " + std::to_string(i);
      }
    }
  }
  return "";
}

/// What an attacker puts in a string: a title-setting OSC, a hyperlink, a screen clear, a
/// carriage return that overwrites the line, a bell, a C1 CSI, DEL, a right-to-left override,
/// and bytes that are not UTF-8.
const std::string kAttack =
    "A\x1b]0;pwned\x07" "B\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\" "C\x1b[2J\x1b[31m"
    "D\rE\x07" "F\xc2\x9b" "6n" "G\x7f" "H\xe2\x80\xae" "gnp.exe" "I\xe2\x81\xa6" "J\xff\xfe" "K";

TEST(TerminalText, EveryControlIsShownAndNothingElseChanges) {
  const std::string shown = terminal_text(kAttack, Style::plain());
  EXPECT_EQ(first_control(shown), "") << shown;
  EXPECT_EQ(shown,
            "A\\x1b]0;pwned\\x07B\\x1b]8;;https://evil.example/\\x1b\\link\\x1b]8;;\\x1b\\C"
            "\\x1b[2J\\x1b[31mD\\rE\\x07F\\u009b6nG\\x7fH\\u202egnp.exeI\\u2066J\\xff\\xfeK");
  const std::string plain = "GPU 0: NVIDIA H100 80GB HBM3 · café ✓ ✗ 😀\n\tindented\n";
  EXPECT_EQ(terminal_text(plain, Style::plain()), plain);
  EXPECT_EQ(terminal_text("a\nb\tc", Style::plain(), true), "a\\nb\\tc");
}

TEST(TerminalText, OnlyTheStylesOwnEscapesSurvive) {
  // A UTF-8 locale's style: in the C locale (no LANG here) ✗ would be shown as x.
  const Style color = Style::for_stream(ColorMode::always, false, Environment()).with_unicode(true);
  ASSERT_TRUE(color.color());
  // An outside string that looks like our colours is shown, ours are kept.
  const std::string text = color.red("✗") + " " + color.bold("driver \x1b[32mok\x1b[0m") + "\n";
  const std::string shown = terminal_text(text, color);
  EXPECT_EQ(shown, "\x1b[31m✗\x1b[0m \x1b[1mdriver \\x1b[32mok\\x1b[0m\x1b[0m\n");
  // Another style's key is as unknown as any other.
  const Style other = Style::for_stream(ColorMode::always, false, Environment());
  EXPECT_EQ(terminal_text(other.red("x"), color).find('\x1b'), std::string::npos);
}

/// A report whose every kind of string carries the attack.
std::string evil_report() {
  const Json s = kAttack;
  const std::string a = s.dump(-1, ' ', false, Json::error_handler_t::replace);
  return R"({"schema_version": 1, "tool_version": )" + a + R"(,
    "host": {"hostname": )" + a + R"(, "os_pretty_name": )" + a + R"(, "kernel_version": )" + a +
         R"(, "cpu_model": )" + a + R"(},
    "probes": [{"backend": "opencl", "label": )" + a + R"(, "library": )" + a +
         R"(, "status": "crashed", "detail": )" + a + R"(, "stderr_tail": )" + a + R"(}],
    "opencl": {"loader": )" + a + R"(, "icds": [{"file": )" + a + R"(, "library": )" + a +
         R"(, "error": )" + a + R"(}], "platforms": []},
    "python": {"envs": [{"kind": "venv", "prefix": )" + a + R"(, "packages": [{"name": "torch",
      "version": )" + a + R"(, "location": )" + a + R"(, "metadata_dir": "torch.dist-info"}]}],
      "errors": [)" + a + R"(]}})";
}

TEST(TerminalText, NoCommandPassesAnOutsideControlToTheTerminal) {
  test::TempTree tree;
  const std::string evil = tree.write("evil.json", evil_report());
  const std::string ok = tree.write("ok.json", R"({"schema_version": 1})");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"check", "--from", evil},
           {"check", "--from", evil, "--color", "always"},
           {"diff", evil, ok},
           {"diff", ok, evil}}) {
    const auto io = test::run_io(args, {});
    EXPECT_TRUE(io.r.exit_code == 0 || io.r.exit_code == 1) << io.r.err;
    EXPECT_NE(io.r.out.find("\\x1b]0;pwned"), std::string::npos) << args[0];
    EXPECT_EQ(first_control(io.r.out, args.size() > 3), "") << args[0];
    EXPECT_EQ(first_control(io.r.err), "") << args[0];
  }
  // An unknown value's text is quoted in the error, shown.
  const std::string status = tree.write("status.json", R"({"schema_version": 1, "probes": [
      {"backend": "x", "label": "x", "status": "\u001b]0;pwned\u0007", "detail": ""}]})");
  auto io = test::run_io({"check", "--from", status}, {});
  EXPECT_EQ(io.r.exit_code, 2);
  EXPECT_NE(io.r.err.find("unknown value \"\\x1b]0;pwned\\x07\""), std::string::npos) << io.r.err;
  // So is a file name given on the command line.
  io = test::run_io({"check", "--from", tree.path() + "/\x1b]0;pwned\x07.json"}, {});
  EXPECT_EQ(io.r.exit_code, 2);
  EXPECT_EQ(first_control(io.r.err), "") << io.r.err;
  EXPECT_NE(io.r.err.find("\\x1b]0;pwned\\x07.json"), std::string::npos) << io.r.err;
}

TEST(TerminalText, JsonOutputEscapesWhatJsonLeavesRaw) {
  // JSON escapes C0 controls itself; C1 and bidi controls it writes raw, so `check --json` on a
  // terminal, or `cat report.json`, would still reverse text. Written as \u escapes, the
  // document is the same.
  const Json doc = {{"s", kAttack}, {"ok", "café ✓ ×8 😀"}};
  const std::string text = dump_json(doc, 2);
  EXPECT_EQ(first_control(text), "") << text;
  EXPECT_NE(text.find("F\\u009b6n"), std::string::npos) << text;
  EXPECT_NE(text.find("H\\u202egnp.exe"), std::string::npos) << text;
  EXPECT_NE(text.find("café ✓ ×8 😀"), std::string::npos) << text;
  EXPECT_EQ(Json::parse(text), Json::parse(doc.dump(-1, ' ', false, Json::error_handler_t::replace)));
  test::TempTree tree;
  const std::string evil = tree.write("evil.json", evil_report());
  for (const auto& args : std::vector<std::vector<std::string>>{{"check", "--from", evil, "--json"},
                                                                {"diff", evil, evil, "--json"}}) {
    const auto io = test::run_io(args, {});
    EXPECT_TRUE(io.r.exit_code == 0 || io.r.exit_code == 1) << io.r.err;
    EXPECT_EQ(first_control(io.r.out), "") << args[0];
  }
}

TEST(TerminalText, FileNamesAndFileContentsUnderASysrootAreShown) {
  test::TempTree tree;
  tree.write("etc/os-release", "ID=debian\nPRETTY_NAME=\"Debian\x1b]0;pwned\x07\xe2\x80\xae\"\n");
  tree.write("proc/version", "Linux version 6.1.0 (x@y) \x1b[2J\n");
  tree.write("etc/OpenCL/vendors/evil\x1b]0;pwned\x07.icd", "libevil\x1b[31m.so\n");
  tree.write("usr/share/vulkan/icd.d/evil\x1b[2J.json",
             "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": \"lib\\u001b[2J.so\", "
             "\"api_version\": \"1.3.0\"}}");
  for (const char* command : {"query", "check"}) {
    const auto io = test::run_io({command, "--sysroot", tree.path()}, {});
    EXPECT_TRUE(io.r.exit_code == 0 || io.r.exit_code == 1) << io.r.err;
    EXPECT_EQ(first_control(io.r.out), "") << command << "\n" << io.r.out;
    EXPECT_EQ(first_control(io.r.err), "") << command;
  }
  const auto query = test::run_io({"query", "--sysroot", tree.path()}, {});
  EXPECT_NE(query.r.out.find("Debian\\x1b]0;pwned\\x07\\u202e"), std::string::npos) << query.r.out;
  EXPECT_NE(query.r.out.find("evil\\x1b]0;pwned\\x07.icd"), std::string::npos) << query.r.out;
}

}  // namespace
}  // namespace gpudoctor
