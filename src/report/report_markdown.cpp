#include "report/report_markdown.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "devices.hpp"
#include "render/query_text.hpp"
#include "render/terminal_text.hpp"
#include "report/html.hpp"
#include "snapshot_io.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

using html::field;
using html::field_text;

/// Evidence lines a finding shows in the block; the rest are counted.
constexpr std::size_t kMarkdownEvidence = 4;

/// Text from a report (a driver's name, a title) as inline Markdown that stays inline: one line,
/// HTML's and Markdown's special characters shown as themselves.
std::string md_inline(const std::string& raw) {
  std::string out;
  for (const char c : single_line(raw)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '#':
      case '~': case '!':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

/// A fence longer than any run of backticks in `text`, so that nothing in it ends the block.
std::string fence_for(const std::string& text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

const char* md_mark(const std::string& state) {
  if (state == "fail") return "✗";
  if (state == "warn") return "!";
  if (state == "ok") return "✓";
  if (state == "info") return "•";
  if (state == "not_examined") return "?";
  return "–";
}

std::string count_words(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::size_t count_of(const Json& summary, const char* key) {
  const Json& v = field(summary, key);
  return v.is_number_unsigned() || v.is_number_integer() ? v.get<std::size_t>() : 0;
}

std::string headline(const Json& report) {
  const Json& s = field(report, "summary");
  const std::size_t fails = count_of(s, "failures"), warns = count_of(s, "warnings");
  if (fails == 0 && warns == 0) {
    // As check says it: what could not be examined is not called fine.
    std::size_t unexamined = 0;
    const Json& areas = field(report, "areas");
    if (areas.is_array()) {
      for (const auto& a : areas) unexamined += field_text(a, "state") == "not_examined" ? 1 : 0;
    }
    if (unexamined == 0) return "No problems found";
    return "No problems found in what could be examined (" + std::to_string(unexamined) +
           (unexamined == 1 ? " area" : " areas") + " not examined)";
  }
  std::vector<std::string> parts;
  if (fails) parts.push_back(count_words(fails, "failure"));
  if (warns) parts.push_back(count_words(warns, "warning"));
  return join(parts, " and ");
}

void finding_md(std::ostringstream& os, const Json& f) {
  const std::string severity = field_text(f, "severity");
  os << "- " << md_mark(severity) << " **" << md_inline(field_text(f, "title")) << "** `"
     << single_line(field_text(f, "id")) << "`\n";
  const Json& evidence = field(f, "evidence");
  if (evidence.is_array()) {
    std::size_t shown = 0;
    for (const auto& e : evidence) {
      if (shown == kMarkdownEvidence) {
        os << "  - … " << evidence.size() - shown << " more in the report\n";
        break;
      }
      os << "  - " << md_inline(html::text_of(e)) << "\n";
      ++shown;
    }
  }
  if (const std::string fix = field_text(f, "fix"); !fix.empty()) {
    os << "  - **Fix:** " << md_inline(fix) << "\n";
  }
  if (const std::string source = field_text(f, "source"); !source.empty()) {
    os << "  - Source: <" << single_line(source) << ">\n";
  }
}

std::string diagnosis_md(const Json& report) {
  std::ostringstream os;
  os << "### gpudoctor: " << headline(report) << "\n\n";
  const Json& areas = field(report, "areas");
  if (areas.is_array() && !areas.empty()) {
    os << "| | area | what was seen |\n|---|---|---|\n";
    for (const auto& a : areas) {
      os << "| " << md_mark(field_text(a, "state")) << " | " << md_inline(field_text(a, "area"))
         << " | " << md_inline(field_text(a, "summary")) << " |\n";
    }
    os << "\n";
  }
  const Json& findings = field(report, "findings");
  std::ostringstream problems, notes, also;
  if (findings.is_array()) {
    for (const char* severity : {"fail", "warn", "info"}) {
      for (const auto& f : findings) {
        if (field_text(f, "severity") != severity) continue;
        const std::string id = field_text(f, "id");
        // An API with no driver at all is not advice beside a GPU's failure (as in check).
        if (api_not_set_up(id, severity)) {
          const std::string fix = field_text(f, "fix");
          also << "- " << md_inline(field_text(f, "area")) << ": "
               << md_inline(fix.empty() ? field_text(f, "title") : fix) << "\n";
          continue;
        }
        finding_md(std::string(severity) == "info" ? notes : problems, f);
      }
    }
  }
  if (!problems.str().empty()) os << "**Problems**\n\n" << problems.str() << "\n";
  if (!notes.str().empty()) os << "**Notes**\n\n" << notes.str() << "\n";
  if (!also.str().empty()) os << "**Also possible here, not set up**\n\n" << also.str() << "\n";
  return os.str();
}

std::string redaction_md(const Json& redaction) {
  if (field(redaction, "redacted") != true) return "not redacted (--no-redact)";
  std::vector<std::string> parts;
  for (const auto& [kind, n] : field(redaction, "replaced").items()) {
    const std::string count = html::text_of(n);
    if (count == "0") continue;
    std::string word = kind;
    std::replace(word.begin(), word.end(), '_', ' ');
    parts.push_back(count + " " + word);
  }
  return parts.empty() ? "redacted" : "redacted: " + join(parts, ", ") + " replaced";
}

}  // namespace

std::string render_report_markdown(const Json& report, std::size_t max_chars) {
  const std::string diagnosis = diagnosis_md(report);
  Snapshot snap;
  try {
    snap = field(report, "snapshot").get<Snapshot>();
  } catch (const std::exception&) {
    snap = Snapshot{};
  }
  std::string machine = render_query_text(snap, merge_devices(snap), Style::plain());
  std::string footer = "<sub>gpudoctor " + md_inline(field_text(report, "tool_version")) +
                       " · " + md_inline(field_text(report, "generated_at")) +
                       " · gpudoctor report --markdown; the whole report: gpudoctor report -o "
                       "report.json</sub>\n";
  const std::string open = "<details><summary>The machine (" +
                           md_inline(redaction_md(field(report, "redaction"))) +
                           ")</summary>\n\n";
  const std::string close = "</details>\n\n";
  // The fence, the summary and the footer take a few hundred characters; the machine's lines
  // get what is left after the diagnosis, cut at a line with a count of what was cut.
  const std::size_t fixed_part = diagnosis.size() + open.size() + close.size() + footer.size() + 200;
  const std::size_t room = max_chars > fixed_part ? max_chars - fixed_part : 0;
  if (machine.size() > room) {
    std::size_t cut = machine.rfind('\n', room);
    cut = cut == std::string::npos ? 0 : cut + 1;
    const std::size_t left = static_cast<std::size_t>(
        std::count(machine.begin() + static_cast<std::ptrdiff_t>(cut), machine.end(), '\n'));
    machine.resize(cut);
    machine += "… " + std::to_string(left) + " more lines: gpudoctor query, or the report's JSON\n";
  }
  const std::string fence = fence_for(machine);
  std::string out = diagnosis + open + fence + "text\n" + machine + fence + "\n\n" + close + footer;
  if (out.size() > max_chars) {
    // A diagnosis longer than a comment (thousands of findings): cut it too, at a line.
    const std::string tail = "\n… cut to fit a GitHub comment; the whole report: gpudoctor "
                             "report -o report.json\n";
    std::size_t cut = out.rfind('\n', max_chars - tail.size());
    out.resize(cut == std::string::npos ? 0 : cut);
    out += tail;
  }
  return out;
}

}  // namespace gpudoctor
