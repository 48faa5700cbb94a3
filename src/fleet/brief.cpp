#include "fleet/brief.hpp"

#include <algorithm>

#include "model/snapshot.hpp"

namespace gpudoctor {

namespace {

std::vector<BriefGpus> gpu_models(const facts::Machine& m) {
  std::vector<BriefGpus> out;
  for (const auto& d : m.devices) {
    if (!facts::is_gpu(d)) continue;
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const BriefGpus& g) { return g.model == d.identity.model_name; });
    if (it == out.end()) {
      out.push_back({d.identity.model_name, 1});
    } else {
      ++it->count;
    }
  }
  return out;
}

std::vector<BriefSmoke> smoke_runs(const facts::Machine& m) {
  std::vector<BriefSmoke> out;
  for (const auto& s : m.smoke) {
    if (s.status != "pass" && s.status != "fail") continue;  // skipped: nothing ran
    auto it = std::find_if(out.begin(), out.end(), [&](const BriefSmoke& b) {
      return b.api == s.api && b.device == s.device;
    });
    if (it == out.end()) {
      out.push_back({s.api, s.device, 0, 0, {}});
      it = out.end() - 1;
    }
    ++it->runs;
    if (s.status == "fail") ++it->failed;
    if (s.status == "pass" && s.flops) it->flops.push_back(*s.flops);
  }
  return out;
}

/// Reads a brief record field by field, naming the first field that is not what it should be.
class Reader {
 public:
  explicit Reader(std::string& why) : why_(why) {}

  bool object(const Json& j, const std::string& path) {
    return j.is_object() || fail(path, "not an object");
  }
  bool text(const Json& j, const char* key, std::string& out, const std::string& path) {
    if (!j.contains(key) || j[key].is_null()) return true;
    if (!j[key].is_string()) return fail(path + "." + key, "not a string");
    out = j[key].get<std::string>();
    return true;
  }
  bool integer(const Json& j, const char* key, int& out, const std::string& path) {
    if (!j.contains(key) || j[key].is_null()) return true;
    if (!j[key].is_number_integer() || j[key].get<long long>() < 0 ||
        j[key].get<long long>() > 1000000) {
      return fail(path + "." + key, "not a count");
    }
    out = j[key].get<int>();
    return true;
  }
  /// The array under `key` (absent: empty), each element read by `each`.
  template <typename Each>
  bool array(const Json& j, const char* key, const std::string& path, Each each) {
    if (!j.contains(key) || j[key].is_null()) return true;
    const Json& a = j[key];
    if (!a.is_array()) return fail(path + "." + key, "not an array");
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!each(a[i], path + "." + key + "[" + std::to_string(i) + "]")) return false;
    }
    return true;
  }
  bool fail(const std::string& path, const std::string& what) {
    why_ = path + ": " + what;
    return false;
  }

 private:
  std::string& why_;
};

std::optional<Severity> severity_from(const std::string& s) {
  for (Severity v : {Severity::ok, Severity::info, Severity::warn, Severity::fail}) {
    if (s == to_string(v)) return v;
  }
  return std::nullopt;
}

}  // namespace

Brief make_brief(const facts::Machine& machine, const std::vector<Finding>& findings,
                 std::string node, std::string generated_at, std::string tool_version) {
  Brief b;
  b.node = std::move(node);
  b.generated_at = std::move(generated_at);
  b.tool_version = std::move(tool_version);
  for (const auto& f : findings) {
    if (f.severity == Severity::fail) ++b.failures;
    if (f.severity == Severity::warn) ++b.warnings;
    if (f.severity == Severity::info) ++b.notes;
    if (f.severity != Severity::ok) b.findings.push_back({f.id, f.severity, f.title, f.evidence});
  }
  b.gpus = gpu_models(machine);
  for (const auto& c : machine.compared) {
    if (facts::is_version(c)) b.versions[c.area].emplace(c.what, c.value);
  }
  b.smoke = smoke_runs(machine);
  return b;
}

Json brief_json(const Brief& b) {
  Json gpus = Json::array();
  for (const auto& g : b.gpus) gpus.push_back({{"model", g.model}, {"count", g.count}});
  Json smoke = Json::array();
  for (const auto& s : b.smoke) {
    smoke.push_back({{"api", s.api},
                     {"device", s.device},
                     {"runs", s.runs},
                     {"failed", s.failed},
                     {"flops", s.flops}});
  }
  Json findings = Json::array();
  for (const auto& f : b.findings) {
    findings.push_back(
        {{"id", f.id}, {"severity", f.severity}, {"title", f.title}, {"evidence", f.evidence}});
  }
  return {{"kind", kBriefKind},
          {"schema_version", kSchemaVersion},
          {"node", b.node},
          {"generated_at", b.generated_at},
          {"tool_version", b.tool_version},
          {"summary", {{"failures", b.failures}, {"warnings", b.warnings}, {"notes", b.notes}}},
          {"gpus", gpus},
          {"versions", b.versions},
          {"smoke", smoke},
          {"findings", findings}};
}

std::variant<Brief, std::string> brief_from_json(const Json& j) {
  std::string why;
  Reader r(why);
  Brief b;
  const std::string top = "brief";
  bool ok = r.object(j, top) && r.text(j, "node", b.node, top) &&
            r.text(j, "generated_at", b.generated_at, top) &&
            r.text(j, "tool_version", b.tool_version, top);
  if (ok && j.contains("summary")) {
    const Json& s = j["summary"];
    ok = r.object(s, top + ".summary") && r.integer(s, "failures", b.failures, top + ".summary") &&
         r.integer(s, "warnings", b.warnings, top + ".summary") &&
         r.integer(s, "notes", b.notes, top + ".summary");
  }
  ok = ok && r.array(j, "gpus", top, [&](const Json& g, const std::string& path) {
    BriefGpus out;
    if (!r.object(g, path) || !r.text(g, "model", out.model, path) ||
        !r.integer(g, "count", out.count, path)) {
      return false;
    }
    b.gpus.push_back(std::move(out));
    return true;
  });
  if (ok && j.contains("versions") && !j["versions"].is_null()) {
    const Json& v = j["versions"];
    ok = r.object(v, top + ".versions");
    for (auto area = v.begin(); ok && area != v.end(); ++area) {
      const std::string path = top + ".versions." + area.key();
      ok = r.object(*area, path);
      for (auto c = area->begin(); ok && c != area->end(); ++c) {
        ok = c->is_string() || r.fail(path + "." + c.key(), "not a string");
        if (ok) b.versions[area.key()][c.key()] = c->get<std::string>();
      }
    }
  }
  ok = ok && r.array(j, "smoke", top, [&](const Json& s, const std::string& path) {
    BriefSmoke out;
    if (!r.object(s, path) || !r.text(s, "api", out.api, path) ||
        !r.text(s, "device", out.device, path) || !r.integer(s, "runs", out.runs, path) ||
        !r.integer(s, "failed", out.failed, path)) {
      return false;
    }
    bool fine = r.array(s, "flops", path, [&](const Json& f, const std::string& p) {
      if (!f.is_number() || f.get<double>() < 0) return r.fail(p, "not a FLOP/s figure");
      out.flops.push_back(f.get<double>());
      return true;
    });
    if (fine) b.smoke.push_back(std::move(out));
    return fine;
  });
  ok = ok && r.array(j, "findings", top, [&](const Json& f, const std::string& path) {
    BriefFinding out;
    std::string severity;
    if (!r.object(f, path) || !r.text(f, "id", out.id, path) ||
        !r.text(f, "severity", severity, path) || !r.text(f, "title", out.title, path)) {
      return false;
    }
    if (out.id.empty()) return r.fail(path + ".id", "missing");
    const auto level = severity_from(severity);
    if (!level) return r.fail(path + ".severity", "not one of ok, info, warn, fail");
    out.severity = *level;
    bool fine = r.array(f, "evidence", path, [&](const Json& e, const std::string& p) {
      if (!e.is_string()) return r.fail(p, "not a string");
      out.evidence.push_back(e.get<std::string>());
      return true;
    });
    if (fine) b.findings.push_back(std::move(out));
    return fine;
  });
  if (!ok) return why;
  return b;
}

}  // namespace gpudoctor
