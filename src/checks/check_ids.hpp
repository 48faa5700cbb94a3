#pragma once
// Finding ids as people type them: `explain ID`, `check --only/--skip ID`.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.hpp"

namespace gpudoctor {

/// One id `check` can print, and the check that prints it.
struct CheckId {
  std::string id;
  const CheckSpec* spec = nullptr;
};

/// Every id `check` can print: each check's id, then the ids it also emits, in check order.
std::vector<CheckId> all_check_ids();

/// The one-line title `explain` lists for a check: the first sentence of what it looks at.
std::string check_title(const CheckSpec& spec);

/// What a typed id names: the check (and the id as declared), or the ids an ambiguous prefix
/// could mean, or neither (then `suggestion` holds a near id when there is one).
struct IdLookup {
  const CheckSpec* spec = nullptr;
  std::string id;
  std::vector<std::string> candidates;
  std::optional<std::string> suggestion;
};

/// Case-insensitive; an exact id wins, else a prefix that only one id has.
IdLookup lookup_check_id(std::string_view typed);

/// A --only/--skip selector: an id (or the unique prefix of one), an area ("nvidia"), or a
/// prefix several ids share ("nvidia."). Returns the selector as matched: a lower-case id or
/// area, or a prefix ending in '*'; or the one-line reason it names nothing.
struct Selector {
  std::optional<std::string> value;
  std::string error;
};
Selector resolve_selector(std::string_view typed);

/// Whether a resolved selector picks this finding.
bool selector_matches(const std::string& selector, const Finding& f);

/// The findings --only picks (all when `only` is empty), less those --skip picks.
std::vector<Finding> select_findings(std::vector<Finding> findings,
                                     const std::vector<std::string>& only,
                                     const std::vector<std::string>& skip);

/// The areas a --only selection shows: each area it names, and the area of every check and
/// finding it picks; the areas of `all` when `only` is empty. An area the selection does not
/// cover is not shown at all (rather than ✓ over findings that were left out).
std::vector<std::string> selected_areas(const std::vector<Finding>& all,
                                        const std::vector<std::string>& only);

}  // namespace gpudoctor
