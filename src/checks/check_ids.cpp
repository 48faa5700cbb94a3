#include "checks/check_ids.hpp"

#include <algorithm>
#include <set>

#include "cli/suggest.hpp"
#include "text.hpp"

namespace gpudoctor {

std::vector<CheckId> all_check_ids() {
  // Each id once: a check's own id belongs to that check, even where another check (the
  // symptom rules of pasted messages) also emits it; an id only emitted belongs to the first
  // check that declares it.
  std::vector<CheckId> out;
  std::set<std::string> seen;
  for (const auto& c : all_checks()) {
    if (seen.insert(std::string(c.id)).second) out.push_back({std::string(c.id), &c});
  }
  for (const auto& c : all_checks()) {
    for (const auto& other : split_words(c.also_emits, ", ")) {
      if (seen.insert(other).second) out.push_back({other, &c});
    }
  }
  return out;
}

std::string check_title(const CheckSpec& spec) {
  const std::string_view text = spec.looks_at;
  // The first sentence: up to ". " or ": " would cut "e.g." and "/dev/nvidia<N>: present".
  const auto end = text.find(". ");
  return std::string(end == std::string_view::npos ? text : text.substr(0, end + 1));
}

namespace {

std::vector<std::string> id_names() {
  std::vector<std::string> names;
  for (const auto& c : all_check_ids()) names.push_back(c.id);
  return names;
}

std::vector<std::string> area_names() {
  std::vector<std::string> areas;
  for (const auto& c : all_checks()) {
    const std::string a(c.area);
    if (std::find(areas.begin(), areas.end(), a) == areas.end()) areas.push_back(a);
  }
  return areas;
}

}  // namespace

IdLookup lookup_check_id(std::string_view typed) {
  IdLookup r;
  const std::string want = to_lower(trim(typed));
  if (want.empty()) return r;
  std::vector<CheckId> prefixed;
  for (auto& c : all_check_ids()) {
    const std::string id = to_lower(c.id);
    if (id == want) {
      r.spec = c.spec;
      r.id = c.id;
      return r;
    }
    if (starts_with(id, want)) prefixed.push_back(c);
  }
  if (prefixed.size() == 1) {
    r.spec = prefixed[0].spec;
    r.id = prefixed[0].id;
  } else if (prefixed.size() > 1) {
    for (const auto& c : prefixed) r.candidates.push_back(c.id);
  } else {
    r.suggestion = closest(want, id_names());
  }
  return r;
}

Selector resolve_selector(std::string_view typed) {
  const std::string want = to_lower(trim(typed));
  const auto areas = area_names();
  if (std::find(areas.begin(), areas.end(), want) != areas.end()) return {want, ""};
  const IdLookup id = lookup_check_id(want);
  if (id.spec && to_lower(id.id) == want) return {want, ""};
  // "nvidia." or "cuda.driver_": a prefix several ids share selects them all.
  if (!id.candidates.empty()) return {want + "*", ""};
  if (id.spec) return {to_lower(id.id), ""};
  std::vector<std::string> known = id_names();
  known.insert(known.end(), areas.begin(), areas.end());
  return {std::nullopt, "no check or area '" + std::string(typed) + "'" +
                            did_you_mean(want, known) + "; gpudoctor explain lists them"};
}

bool selector_matches(const std::string& selector, const Finding& f) {
  const std::string id = to_lower(f.id);
  if (ends_with(selector, "*")) return starts_with(id, selector.substr(0, selector.size() - 1));
  return id == selector || to_lower(f.area) == selector;
}

std::vector<std::string> selected_areas(const std::vector<Finding>& all,
                                        const std::vector<std::string>& only) {
  std::vector<std::string> out;
  auto add = [&out](std::string area) {
    if (std::find(out.begin(), out.end(), area) == out.end()) out.push_back(std::move(area));
  };
  if (only.empty()) {
    for (const auto& a : area_names()) add(a);
    for (const auto& f : all) add(f.area);
    return out;
  }
  const auto areas = area_names();
  for (const auto& sel : only) {
    if (std::find(areas.begin(), areas.end(), sel) != areas.end()) add(sel);
    for (const auto& f : all) {
      if (selector_matches(sel, f)) add(f.area);
    }
    for (const auto& c : all_checks()) {
      Finding as_id;
      as_id.id = std::string(c.id);
      if (selector_matches(sel, as_id)) add(std::string(c.area));
    }
  }
  return out;
}

std::vector<Finding> select_findings(std::vector<Finding> findings,
                                     const std::vector<std::string>& only,
                                     const std::vector<std::string>& skip) {
  auto any = [](const std::vector<std::string>& sels, const Finding& f) {
    return std::any_of(sels.begin(), sels.end(),
                       [&](const std::string& s) { return selector_matches(s, f); });
  };
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding& f) {
                                  return (!only.empty() && !any(only, f)) || any(skip, f);
                                }),
                 findings.end());
  return findings;
}

}  // namespace gpudoctor
