#include "diagnose.hpp"

#include "checks/checks.hpp"

namespace gpudoctor {

Diagnosis diagnose(Snapshot snap) {
  Diagnosis d;
  d.snap = std::move(snap);
  d.devices = merge_devices(d.snap);
  d.findings = run_checks(CheckInput{d.snap, d.devices, builtin_compat()});
  return d;
}

Diagnosis diagnose_recorded(Snapshot snap, std::vector<Finding> recorded) {
  Diagnosis d;
  d.snap = std::move(snap);
  d.devices = merge_devices(d.snap);
  for (auto& f : recorded) {
    // A brief record names no area: the check that reports the id knows it.
    if (f.area.empty()) {
      if (const CheckSpec* spec = find_check(f.id)) f.area = std::string(spec->area);
    }
  }
  d.findings = std::move(recorded);
  return d;
}

Diagnosis diagnose_paste(std::string text) {
  PasteDiagnosis p;
  p.reading = read_pasted_text(std::move(text));
  Diagnosis d;
  if (!p.reading.parts.empty()) {
    const Snapshot& snap = p.reading.snapshot;
    d.devices = merge_devices(snap);
    d.findings = run_checks(CheckInput{snap, d.devices, builtin_compat()});
    quote_findings(p.reading, d.findings);
    drop_unfounded(p.reading, d.findings);
    p.asks = what_would_decide(p.reading, d.findings);
  }
  d.snap = std::move(p.reading.snapshot);
  d.paste = std::move(p);
  return d;
}

}  // namespace gpudoctor
