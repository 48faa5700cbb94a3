// The machine's half of the HTML report, from the facts layer: the devices with every API's
// view, each backend's section, the smoke tests and how each probe ended.
#include <algorithm>
#include <cstdio>

#include "backends.hpp"
#include "report/html.hpp"
#include "report/report_html_machine.hpp"
#include "text.hpp"

namespace gpudoctor::html {

namespace {

using Rows = std::vector<std::vector<std::string>>;

/// A section of list items only (toolkits, Python environments): a list, items under the one
/// above them indented, not a table whose label column stays empty.
std::string rows_list(const std::vector<facts::Row>& rows) {
  std::string out;
  for (const auto& r : rows) {
    std::string text = facts::row_text(r);
    if (!r.note.empty()) text += text.empty() ? r.note : " (" + r.note + ")";
    if (text.empty()) continue;
    out += std::string(r.depth > 0 ? "<li class=\"sub\">" : "<li>") + escape(text) + "</li>";
  }
  return out.empty() ? "" : "<ul class=\"items\">" + out + "</ul>\n";
}

/// Label → text for every row; a continuation row or a list item has an empty label.
std::string rows_table(const std::vector<facts::Row>& rows) {
  if (std::all_of(rows.begin(), rows.end(), [](const facts::Row& r) { return r.list; })) {
    return rows_list(rows);
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& r : rows) {
    std::string text = facts::row_text(r);
    if (!r.note.empty()) text += text.empty() ? r.note : " (" + r.note + ")";
    pairs.emplace_back(r.list ? "" : r.label, std::string(static_cast<std::size_t>(r.depth) * 2, ' ') + text);
  }
  return facts_table(pairs);
}

/// Headed by the device's index and bus id as the table above gives them: identical cards
/// (eight H100s) are told apart by these alone.
std::string device_views(const facts::Device& d) {
  std::string head = "#" + std::to_string(d.index) + " " + d.name;
  if (d.pci_address) head += " (" + *d.pci_address + ")";
  return "<details><summary>" + escape(head) + ": every API's view</summary>\n" +
         rows_table(d.rows) + "</details>\n";
}

/// "0.004": probes take milliseconds to seconds, so three decimals say it all.
std::string seconds_text(const std::optional<double>& seconds) {
  if (!seconds) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", *seconds);
  return buf;
}

std::string number_text(const std::optional<double>& v) { return v ? text_of(Json(*v)) : ""; }

}  // namespace

std::string devices_section(const facts::Machine& m) {
  std::string out = "<h2>Devices</h2>\n";
  if (m.devices.empty()) {
    return out + "<p class=\"none\">No device was found by the backends that ran.</p>\n";
  }
  Rows rows;
  for (const auto& d : m.devices) {
    rows.push_back({std::to_string(d.index), d.name, d.kind + (d.software ? " (software)" : ""),
                    d.pci_address.value_or(""), d.vendor_device.value_or(""),
                    d.memory.value_or(""), d.kernel_driver.value_or(""), join(d.apis, ", ")});
  }
  out += table({"#", "name", "kind", "PCI address", "vendor:device", "memory", "kernel driver",
                "seen through"},
               rows);
  for (const auto& d : m.devices) out += device_views(d);
  return out;
}

std::string software_section(const facts::Machine& m, const Json& environment) {
  std::string out = "<h2>Software</h2>\n";
  for (const auto& s : m.sections) {
    std::string body = rows_table(s.rows);
    // A section with nothing to say says so, rather than leave its heading over nothing.
    if (body.empty()) {
      body = "<p class=\"none\">" + escape(s.when_empty.empty() ? "nothing found" : s.when_empty) +
             "</p>\n";
    }
    out += "<h3>" + escape(s.title) + "</h3>\n";
    if (!s.subtitle.empty()) out += "<p class=\"meta\">" + escape(s.subtitle) + "</p>\n";
    out += body;
  }
  Rows vars;
  if (environment.is_object()) {
    for (const auto& [name, value] : environment.items()) vars.push_back({name, text_of(value)});
  }
  if (!vars.empty()) out += "<h3>Environment variables</h3>\n" + table({"variable", "value"}, vars);
  return out;
}

std::string smoke_section(const Snapshot& snap) {
  Rows rows;
  for (const SmokeResult* r : smoke_results(snap)) {
    rows.push_back({r->api, r->device, r->status, r->n ? std::to_string(*r->n) : "",
                    number_text(r->max_rel_error), number_text(r->kernel_ms),
                    number_text(r->gflops), r->reason.value_or("")});
  }
  if (rows.empty()) return "";
  return "<h2>Smoke tests</h2>\n" +
         table({"API", "device", "result", "n", "max rel. error", "kernel ms", "GFLOPS", "why"},
               rows);
}

std::string probes_section(const Snapshot& snap) {
  Rows rows;
  for (const auto& p : snap.probes) {
    rows.push_back({p.backend, p.label, to_string(p.status), p.detail, seconds_text(p.seconds)});
  }
  if (rows.empty()) return "";
  return "<h2>Probes</h2>\n" + table({"backend", "what ran", "status", "detail", "seconds"}, rows);
}

}  // namespace gpudoctor::html
