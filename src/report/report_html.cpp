#include "report/report_html.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "bench/bench_model.hpp"
#include "bench/bench_svg.hpp"
#include "report/html.hpp"
#include "report/report_html_machine.hpp"
#include "snapshot_io.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

using html::escape;
using html::field;
using html::field_text;

constexpr const char* kStyle = R"css(
:root{--fail:#c62828;--warn:#b26a00;--info:#1565c0;--ok:#2e7d32;--line:#e3e6ea;--muted:#5f6b7a}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d232b;
 background:#f6f7f9;margin:0;padding:24px}
main{max-width:1100px;margin:0 auto}
h1{font-size:26px;margin:0 0 4px}
h2{font-size:19px;margin:28px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:16px;margin:0}
h4{font-size:14px;margin:14px 0 4px;color:var(--muted)}
.meta{color:var(--muted);margin:0 0 12px}
.pills span{display:inline-block;border-radius:999px;padding:2px 12px;margin:0 6px 6px 0;
 font-weight:600;color:#fff}
.pill-fail{background:var(--fail)}.pill-warn{background:var(--warn)}
.pill-info{background:var(--info)}.pill-ok{background:var(--ok)}.pill-dev{background:#455a64}
.finding{display:flex;gap:12px;background:#fff;border:1px solid var(--line);
 border-left:5px solid var(--info);border-radius:6px;padding:12px 14px;margin:0 0 10px}
.finding.fail{border-left-color:var(--fail)}.finding.warn{border-left-color:var(--warn)}
.finding.ok{border-left-color:var(--ok)}
.icon{flex:none;width:28px;height:28px;border-radius:50%;color:#fff;font-weight:700;
 display:flex;align-items:center;justify-content:center;background:var(--info)}
.fail .icon{background:var(--fail)}.warn .icon{background:var(--warn)}.ok .icon{background:var(--ok)}
.finding .id{color:var(--muted);font-size:13px;margin:2px 0 6px;font-family:ui-monospace,monospace}
.also .id{color:var(--muted);font-size:12px;margin-left:6px;font-family:ui-monospace,monospace}
.finding ul{margin:4px 0 8px;padding-left:20px}
ul.items{background:#fff;border:1px solid var(--line);margin:6px 0 12px;padding:6px 10px 6px 30px;
 font-size:14px;overflow-wrap:anywhere}ul.items li.sub{list-style:none;color:var(--muted)}
.fix{background:#f0f4f8;border-radius:4px;padding:6px 10px;margin:6px 0;
 font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;white-space:pre-wrap}
.source{font-size:13px;margin:0}
table{border-collapse:collapse;width:100%;background:#fff;margin:6px 0 12px;font-size:14px}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top;
 overflow-wrap:break-word}
td.long,.facts td{overflow-wrap:anywhere}
thead th{background:#eef1f4}
table.facts th{width:230px;background:#fafbfc;font-weight:600}
details{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:6px 0}
summary{cursor:pointer;font-weight:600}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;max-height:600px;overflow:auto}
.none{color:var(--muted)}
table.areas th{width:90px}table.areas td.mark{width:28px;text-align:center;font-weight:700}
tr.fail td.mark{color:var(--fail)}tr.warn td.mark{color:var(--warn)}tr.ok td.mark{color:var(--ok)}
tr.info td.mark{color:var(--muted)}
.plot svg{width:100%;height:auto;background:#fff;border:1px solid var(--line);border-radius:6px}
)css";

const char* icon_of(const std::string& severity) {
  if (severity == "fail") return "✗";
  if (severity == "warn") return "!";
  if (severity == "ok") return "✓";
  return "i";
}

std::string finding_html(const Json& f) {
  const std::string severity = field_text(f, "severity");
  std::ostringstream os;
  os << "<article class=\"finding " << escape(severity) << "\"><div class=\"icon\">"
     << icon_of(severity) << "</div><div><h3>" << escape(field_text(f, "title")) << "</h3>"
     << "<p class=\"id\">" << escape(field_text(f, "id")) << " · " << escape(severity) << "</p>";
  const Json& evidence = field(f, "evidence");
  if (evidence.is_array() && !evidence.empty()) {
    os << "<ul>";
    for (const auto& e : evidence) os << "<li>" << escape(html::text_of(e)) << "</li>";
    os << "</ul>";
  }
  if (const std::string fix = field_text(f, "fix"); !fix.empty()) {
    os << "<div class=\"fix\">" << escape(fix) << "</div>";
  }
  if (const std::string source = field_text(f, "source"); !source.empty()) {
    os << "<p class=\"source\">Source: " << html::link(source, source) << "</p>";
  }
  os << "</div></article>\n";
  return os.str();
}

/// A note that an API has no driver at all (as `check` shows it under "Also possible here"): what
/// the machine could also have, not a card beside a GPU's failure.
bool html_api_without_driver(const Json& f) {
  return api_not_set_up(field_text(f, "id"), field_text(f, "severity"));
}

std::string findings_section(const Json& findings, const Json& areas) {
  std::string out = "<h2>Findings</h2>\n";
  std::string body;
  std::string also;
  bool problem = false;
  // Worst first: a reader of the ticket meets the failure before the notes.
  for (const char* severity : {"fail", "warn", "info", "ok"}) {
    if (!findings.is_array()) break;
    for (const auto& f : findings) {
      if (field_text(f, "severity") != severity) continue;
      problem = problem || field_text(f, "severity") == "fail" || field_text(f, "severity") == "warn";
      if (html_api_without_driver(f)) {
        also += "<li><b>" + escape(field_text(f, "area")) + "</b> " +
                escape(field_text(f, "fix").empty() ? field_text(f, "title") : field_text(f, "fix")) +
                " <span class=\"id\">" + escape(field_text(f, "id")) + "</span></li>";
        continue;
      }
      body += finding_html(f);
    }
  }
  if (!problem) {
    // The verdict as `check` says it: what could not be examined is not called fine.
    std::size_t unexamined = 0;
    if (areas.is_array()) {
      for (const auto& a : areas) unexamined += field_text(a, "state") == "not_examined" ? 1 : 0;
    }
    const std::string verdict =
        unexamined == 0 ? "No problems found."
                        : "No problems found in what could be examined; " +
                              (unexamined == 1 ? std::string("1 area was")
                                               : std::to_string(unexamined) + " areas were") +
                              " not examined (?).";
    body = "<p class=\"none\">" + verdict + "</p>\n" + body;
  }
  if (!also.empty()) body += "<h3>Also possible here, not set up</h3>\n<ul class=\"also\">" + also + "</ul>\n";
  return out + body;
}

std::string header_html(const Json& report) {
  const Json& snap = field(report, "snapshot");
  const Json& host = field(snap, "host");
  const Json& summary = field(report, "summary");
  std::vector<std::string> meta = {"generated " + field_text(report, "generated_at"),
                                   "gpudoctor " + field_text(report, "tool_version")};
  for (const char* key : {"hostname", "os_pretty_name", "kernel_release"}) {
    if (const std::string v = field_text(host, key); !v.empty()) meta.push_back(v);
  }
  if (field_text(snap, "root") != "/" && !field_text(snap, "root").empty()) {
    meta.push_back("files read under " + field_text(snap, "root"));
  }
  if (field(field(report, "redaction"), "redacted") == true) meta.push_back("redacted");
  std::ostringstream os;
  os << "<h1>gpudoctor report</h1>\n<p class=\"meta\">" << escape(join(meta, " · ")) << "</p>\n"
     << "<div class=\"pills\">";
  struct Pill {
    const char* key;
    const char* one;
    const char* cls;
  };
  const Pill pills[] = {{"failures", "failure", "fail"},
                        {"warnings", "warning", "warn"},
                        {"notes", "note", "info"},
                        {"devices", "device", "dev"}};
  for (const auto& p : pills) {
    const std::string n = field_text(summary, p.key);
    // "0 failures" is good news: green, not the failure colour.
    const bool none = n == "0" && std::string(p.cls) != "dev";
    os << "<span class=\"pill-" << (none ? "ok" : p.cls) << "\">" << escape(n) << " " << (n == "1" ? p.one : p.key)
       << "</span>";
  }
  os << "</div>\n";
  return os.str();
}

/// The areas as `check` lists them, each with its ✓ / ! / ✗, before any finding: the page's
/// answer at a glance.
std::string areas_html(const Json& areas) {
  if (!areas.is_array() || areas.empty()) return "";
  std::string rows;
  for (const auto& a : areas) {
    const std::string state = field_text(a, "state");
    const char* cls = state == "fail" ? "fail" : state == "warn" ? "warn" : state == "ok" ? "ok" : "info";
    const char* glyph = state == "fail"           ? "✗"
                        : state == "warn"         ? "!"
                        : state == "ok"           ? "✓"
                        : state == "info"         ? "•"
                        : state == "not_examined" ? "?"
                                                  : "–";
    rows += "<tr class=\"" + std::string(cls) + "\"><td class=\"mark\">" + glyph + "</td><th>" +
            escape(field_text(a, "area")) + "</th><td>" + escape(field_text(a, "summary")) +
            (state == "not_examined" ? " <span class=\"none\">(not examined)</span>" : "") +
            "</td></tr>";
  }
  return "<table class=\"areas\">" + rows + "</table>\n";
}

/// A table of the best rates, then `gpudoctor bench`'s own plot, inline.
std::string bench_section(const Json& bench) {
  if (!bench.is_object()) return "";
  BenchReport parsed;
  try {
    parsed = bench.get<BenchReport>();
  } catch (const std::exception&) {
    return "";  // a hand-edited file: the raw JSON below still shows it
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : parsed.results) {
    const auto& best = r.best_gflops;
    // A vendor BLAS's series (CLBlast, cuBLAS) shares its device and API with our kernel's.
    const std::string api = r.series.blas && r.series.api != "blas"
                                ? r.series.api + " " + *r.series.blas
                                : r.series.api;
    rows.push_back({api, r.series.device,
                    best ? html::text_of(std::round(*best * 10) / 10) : r.series.error.value_or(""),
                    r.best_n ? std::to_string(*r.best_n) : "",
                    r.peak ? html::text_of(std::round(r.peak->gflops)) : "",
                    r.wins_from_n ? std::to_string(*r.wins_from_n) : ""});
  }
  if (rows.empty()) return "";
  const std::string svg = bench::render_svg(parsed);
  const auto at = svg.find("<svg");
  return "<h2>Benchmark</h2>\n" +
         html::table({"API", "device", "best GFLOPS", "at n", "expected peak GFLOPS",
                      "beats the CPU from n"},
                     rows) +
         (at == std::string::npos ? "" : "<div class=\"plot\">" + svg.substr(at) + "</div>\n");
}

std::string redaction_note(const Json& redaction) {
  if (field(redaction, "redacted") != true) {
    return "<p class=\"meta\">Not redacted (--no-redact); variables whose names look like "
           "secrets were still left out.</p>\n";
  }
  // The report's keys as words: "host_name" is a JSON key, "host names" what a reader counts.
  static const std::map<std::string, std::pair<const char*, const char*>> kLabels = {
      {"host_name", {"host name", "host names"}},
      {"serial_number", {"serial number", "serial numbers"}},
      {"user_name", {"user name", "user names"}},
      {"uuid", {"UUID", "UUIDs"}},
  };
  std::vector<std::string> parts;
  for (const auto& [kind, n] : field(redaction, "replaced").items()) {
    const std::string count = html::text_of(n);
    const auto label = kLabels.find(kind);
    std::string word = kind;
    if (label != kLabels.end()) word = count == "1" ? label->second.first : label->second.second;
    std::replace(word.begin(), word.end(), '_', ' ');
    parts.push_back(count + " " + word);
  }
  const std::string left_out = field_text(redaction, "environment_variables_left_out");
  parts.push_back(left_out + (left_out == "1" ? " environment variable" : " environment variables") +
                  " left out");
  return "<p class=\"meta\">Redacted: " + escape(join(parts, ", ")) +
         " (stable placeholders: one value, one placeholder).</p>\n";
}

}  // namespace

std::string render_report_html(const Json& report) {
  // The machine's sections read the snapshot the report carries (redacted as written), through
  // the same facts layer as `query`; a report whose snapshot does not read shows its JSON only.
  Snapshot snap;
  try {
    snap = field(report, "snapshot").get<Snapshot>();
  } catch (const std::exception&) {
    snap = Snapshot{};
  }
  const facts::Machine machine = facts::describe(snap, merge_devices(snap));
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
     << "<title>gpudoctor report " << escape(field_text(report, "generated_at")) << "</title>"
     << "<style>" << kStyle << "</style></head><body><main>\n"
     << header_html(report) << areas_html(field(report, "areas")) << findings_section(field(report, "findings"), field(report, "areas"))
     << html::devices_section(machine) << html::smoke_section(snap)
     << bench_section(field(report, "bench"))
     << html::software_section(machine, field(report, "environment"))
     << html::probes_section(snap)
     << "<h2>Raw report</h2>\n"
     << redaction_note(field(report, "redaction"))
     << "<details><summary>The whole report as JSON (what check --from reads)</summary><pre>"
     << escape(dump_json(report, 2)) << "</pre></details>\n"
     << "</main></body></html>\n";
  return os.str();
}

}  // namespace gpudoctor
