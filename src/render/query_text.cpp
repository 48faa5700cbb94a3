#include "render/query_text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "backends.hpp"
#include "facts/facts.hpp"
#include "render/live_text.hpp"
#include "render/terminal_text.hpp"
#include "json_model_writer.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::size_t kLabelWidth = 10;

/// The label column of a block of rows: kLabelWidth, or wider where a label would otherwise
/// touch its text ("Level Zero" is ten characters), so that every label has a space after it.
std::size_t label_column(const std::vector<facts::Row>& rows) {
  std::size_t width = kLabelWidth;
  for (const auto& r : rows) {
    if (!r.list) width = std::max(width, display_width(single_line(r.label)) + 1);
  }
  return width;
}

/// Rows of facts: a label column, continuation rows under it, list items without the column.
void render_rows(std::ostringstream& os, const std::vector<facts::Row>& rows, const Style& st,
                 int indent) {
  const std::size_t column = label_column(rows);
  for (const auto& r : rows) {
    const std::string text = single_line(facts::row_text(r));
    const std::string pad(static_cast<std::size_t>(indent + 2 * r.depth), ' ');
    if (r.list) {
      if (r.warning && r.note.empty()) {
        os << pad << st.yellow("! " + text) << "\n";
        continue;
      }
      const std::string note = r.warning ? st.red(single_line(r.note)) : st.dim(single_line(r.note));
      os << pad << text << (r.note.empty() ? "" : "  " + note) << "\n";
      continue;
    }
    if (text.empty()) continue;
    std::string label = single_line(r.label);
    const std::size_t shown = display_width(label);
    if (shown < column) label.append(column - shown, ' ');
    os << pad << (r.label.empty() ? label : st.bold(label)) << text
       << (r.note.empty() ? "" : "  " + st.dim(single_line(r.note))) << "\n";
  }
}

void render_section(std::ostringstream& os, const facts::Section& s, const Style& st) {
  os << st.bold(single_line(s.title))
     << (s.subtitle.empty() ? "" : "  " + st.dim(single_line(s.subtitle))) << "\n";
  if (s.rows.empty() && !s.when_empty.empty()) os << "  " << s.when_empty << "\n";
  render_rows(os, s.rows, st, 2);
  os << "\n";
}

void render_device(std::ostringstream& os, const facts::Device& d, const Style& st) {
  const std::string tag = d.kind + (d.software ? ", software implementations" : "");
  os << st.bold("[" + std::to_string(d.index) + "] " + single_line(d.name)) << "  "
     << st.dim(single_line(tag)) << "\n";
  if (d.software) {
    os << "    " << st.yellow("the APIs below run on the CPU: no GPU driver answered for them")
       << "\n";
  }
  render_rows(os, d.rows, st, 4);
  os << "\n";
}

std::string status_text(ProbeStatus s, const Style& st) {
  std::string t = to_string(s);
  switch (s) {
    case ProbeStatus::ok: return st.green(t);
    case ProbeStatus::missing:
    case ProbeStatus::skipped: return st.yellow(t);
    default: return st.red(t);
  }
}

}  // namespace

void render_probe_lines(std::ostringstream& os, const Snapshot& snap, const Style& st) {
  os << st.bold("Probes") << "\n";
  auto line = [&](const ProbeOutcome& p) {
    bool sub = p.label != p.backend;
    std::string name = single_line(sub ? "  " + p.label : p.backend);
    if (name.size() < 24) name.resize(24, ' ');
    std::string secs;
    if (p.seconds) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.0f ms", *p.seconds * 1000.0);
      secs = buf;
    }
    // The time after the status, where a wrapped detail cannot split it ("0\nms").
    os << "  " << name << " " << status_text(p.status, st)
       << (secs.empty() ? "" : "  " + st.dim(secs))
       << (p.detail.empty() ? "" : "  " + single_line(p.detail)) << "\n";
  };
  // In registry order: each backend's line, then its children's under it, wherever collect()
  // recorded them (in-process probes finish first; ROCm folds its HIP child last).
  const auto& probes = snap.probes;
  std::vector<bool> shown(probes.size(), false);
  auto backend_lines = [&](std::string_view backend) {
    for (bool top : {true, false}) {
      for (std::size_t i = 0; i < probes.size(); ++i) {
        if (shown[i] || probes[i].backend != backend) continue;
        if ((probes[i].label == probes[i].backend) != top) continue;
        line(probes[i]);
        shown[i] = true;
      }
    }
  };
  for (const auto& b : all_backends()) backend_lines(b.name);
  for (std::size_t i = 0; i < probes.size(); ++i) {
    if (!shown[i]) line(probes[i]);  // an outcome of no known backend (a report from elsewhere)
  }
}

std::string render_query_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const Style& style) {
  const facts::Machine m = facts::describe(snap, devices);
  std::ostringstream os;
  // The host first, then the devices, then every other backend's section in registry order.
  for (const auto& s : m.sections) {
    if (s.backend == "host") render_section(os, s, style);
  }
  os << style.bold("Devices (" + std::to_string(m.devices.size()) + ")") << "\n";
  if (m.devices.empty()) os << "  none found by the backends that ran\n";
  os << "\n";
  for (const auto& d : m.devices) render_device(os, d, style);
  render_live_text(os, snap, style);
  for (const auto& s : m.sections) {
    if (s.backend != "host") render_section(os, s, style);
  }
  render_probe_lines(os, snap, style);
  return os.str();
}

Json query_json(const Snapshot& snap, const std::vector<MergedDevice>& devices) {
  Json j = snap;
  j["devices"] = devices_json(snap, devices);
  return j;
}

void write_query_json(JsonWriter& out, const Snapshot& snap,
                      const std::vector<MergedDevice>& devices) {
  // The merged devices are a few views per GPU: small enough to build as a DOM.
  const Json merged = devices_json(snap, devices);
  JsonMembers members;
  members.add_fields(snap);
  members.add("devices", merged);
  members.write(out);
}

}  // namespace gpudoctor
